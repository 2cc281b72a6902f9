// "Remove rule 2? y to remove, any other key to keep it": a question asked on the status line, and
// the next key as its answer. Read through a ref, so a `y` in the same burst answers it.
import { useRefState } from "./useRefState.ts";

export interface Confirm {
  /** The open question, if any (the screen shows it on its status line). */
  question: string | undefined;
  ask: (question: string, yes: () => void) => void;
  /** With a question open: `y` runs it, any other key cancels (`no` runs); true when the key was the answer. */
  answer: (input: string, no: () => void) => boolean;
}

export function useConfirm(): Confirm {
  const [get, set] = useRefState<{ question: string; yes: () => void } | null>(null);
  return {
    question: get()?.question,
    ask: (question, yes) => set({ question, yes }),
    answer: (input, no) => {
      const open = get();
      if (!open) return false;
      set(null);
      if (input === "y" || input === "Y") open.yes();
      else no();
      return true;
    },
  };
}
