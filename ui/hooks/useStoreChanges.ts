// A save made by another process while the TUI is open (an agent's hook, a terminal) shows without
// a key: every few seconds the store is asked whether anyone else committed to it (SQLite's
// data_version, one PRAGMA on the open connection; the TUI's own writes leave it as it is).
import { useContext, useEffect, useEffectEvent } from "react";
import { UiContext } from "../context.ts";
import type { Session } from "../../src/engine/session.ts";
import { AGES_EVERY_MS, realEvery } from "./useTick.ts";

/** Calls `onChange` after a tick that finds the store changed by another process since the last one. */
export function useStoreChanges(session: Session, onChange: () => void): void {
  const every = useContext(UiContext)?.every ?? realEvery;
  // The caller's latest `onChange`, without asking again from the start each time it changes.
  const changed = useEffectEvent(onChange);
  useEffect(() => {
    let last: number | null = null;
    let asking = false;
    const ask = () => {
      if (asking) return;
      asking = true;
      session
        .storeVersion()
        .then(
          (v) => {
            if (last !== null && v !== last) changed();
            last = v;
          },
          () => {},
        )
        .finally(() => {
          asking = false;
        });
    };
    ask();
    return every(AGES_EVERY_MS, ask);
  }, [session, every]);
}
