// Actions that write (add, remove, retire, renew): keys wait while one runs, so none acts on rows
// that are about to change; its outcome (or the engine's refusal, one sentence) goes to the status line.
import { useRef } from "react";

export interface Action {
  /** True while an action runs: pass as useKeys' `wait`. */
  busy: () => boolean;
  /** The function that hands held keys on once the action is over (useKeys' return value). */
  release: (handOn: () => void) => void;
  run: (work: () => Promise<string | void>) => Promise<void>;
}

export function useAction(setStatus: (text: string | undefined) => void): Action {
  const busy = useRef(false);
  const handOn = useRef<() => void>(() => {});
  return {
    busy: () => busy.current,
    release: (fn) => {
      handOn.current = fn;
    },
    run: async (work) => {
      busy.current = true;
      try {
        const message = await work();
        if (message) setStatus(message);
      } catch (e) {
        setStatus((e as Error).message);
      } finally {
        busy.current = false;
        handOn.current();
      }
    },
  };
}
