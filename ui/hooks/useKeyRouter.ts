// The app's side of the keys (useKeys.ts is the screens' side): every key read is queued, then
// handed one by one to the screen on top once it is mounted and ready, or to the `?` overlay while
// it is open. Keys also wait while the stack changes (a screen that needs the store first).
import { useRef, useState } from "react";
import { useInput, type Key } from "ink";
import { escapeThenKey, splitKeys, type KeyRouter, type KeyTarget } from "./useKeys.ts";

/** The `?` overlay as the keys see it: open or not; while open, it takes every key. */
export interface KeyOverlay {
  isOpen: () => boolean;
  open: () => void;
  key: (input: string, key: Key) => void;
}

export interface KeyQueue {
  /** What screens register their key handlers with (KeyRouterContext). */
  router: KeyRouter;
  /** Keys wait while `work` runs (a screen change that needs the store first). */
  holdDuring: (work: () => Promise<void>) => Promise<void>;
  /** Whether a text field takes the keys: then `?` is a question mark and Alt+b/f are word keys. */
  setTyping: (typing: boolean) => void;
}

/**
 * The key queue of the app: `topId` names the screen on top (undefined: none yet). Both are read
 * when keys are handed on, between renders too, so the latest render's are used.
 */
export function useKeyRouter(topId: () => string | undefined, overlay: KeyOverlay): KeyQueue {
  const latest = useRef({ topId, overlay });
  latest.current = { topId, overlay };
  const [queue] = useState(() =>
    keyQueue(
      () => latest.current.topId(),
      () => latest.current.overlay,
    ),
  );
  useInput((input, key) => queue.push(input, key));
  return queue;
}

function keyQueue(
  topId: () => string | undefined,
  overlay: () => KeyOverlay,
): KeyQueue & { push: (input: string, key: Key) => void } {
  const queue: [string, Key][] = [];
  const targets = new Map<string, { current: KeyTarget }>();
  let holding = 0;
  let flushing = false;
  let typing = false;
  /** The handler of the screen on top, when it is mounted and no screen change is under way. */
  const target = () => {
    const id = holding ? undefined : topId();
    return id === undefined ? undefined : targets.get(id);
  };
  const flush = () => {
    if (flushing) return;
    flushing = true;
    try {
      while (queue.length && handOne(target()));
    } finally {
      flushing = false;
    }
  };
  /** Hands the first key on; false when it must wait (the screen is not there or not ready). */
  const handOne = (to: { current: KeyTarget } | undefined): boolean => {
    const help = overlay();
    // The keys go nowhere yet: the stack is changing or the screen is still mounting.
    if (!help.isOpen() && !to) return false;
    // Esc and a key in one read: two keys, told apart now that it is known whether a field takes them.
    const both = escapeThenKey(queue[0][0], queue[0][1], typing && !help.isOpen());
    if (both) {
      queue.splice(0, 1, ...both);
      return true;
    }
    const [input, key] = queue[0];
    if (help.isOpen()) {
      queue.shift();
      help.key(input, key);
      return true;
    }
    if (!to) return false;
    if (input === "?" && !typing) {
      queue.shift();
      help.open();
      return true;
    }
    if (to.current.wait?.(input, key)) return false;
    queue.shift();
    to.current.handle(input, key);
    return true;
  };
  return {
    router: {
      register: (id, t) => {
        targets.set(id, t);
        flush();
        return () => {
          if (targets.get(id) === t) targets.delete(id);
        };
      },
      flush,
    },
    holdDuring: async (work) => {
      holding++;
      try {
        await work();
      } finally {
        holding--;
        flush();
      }
    },
    setTyping: (v) => {
      typing = v;
    },
    push: (input, key) => {
      queue.push(...splitKeys(input, key));
      flush();
    },
  };
}
