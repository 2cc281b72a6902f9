// A screen that shows how long ago or until something happens ("3m", "expires in 15s") draws itself
// again now and then while it is on top, and on any key: what it says never stays stale. One timer,
// on the app's clock (context.ts `every`), no loop.
import { useContext, useEffect, useState } from "react";
import { UiContext } from "../context.ts";

/** How often a screen showing ages ("54s", "3m", "2h") works them out again. */
export const AGES_EVERY_MS = 10_000;

export const realEvery = (ms: number, fn: () => void) => {
  const timer = setInterval(fn, ms);
  return () => clearInterval(timer);
};

/** Renders the screen every `ms` while `active`; the returned function renders it now (call it on a key). */
export function useTick(ms: number, active: boolean): () => void {
  const [, setTick] = useState(0);
  const every = useContext(UiContext)?.every ?? realEvery;
  useEffect(() => {
    if (!active) return;
    return every(ms, () => setTick((n) => n + 1));
  }, [ms, active, every]);
  return () => setTick((n) => n + 1);
}
