// useInput, one key at a time. ink hands over a burst of typed keys (tmux send-keys, a fast typist,
// a paste) as one string such as "j\r"; screens want each key on its own, in order.
import { useInput, type Key } from "ink";

const NO_KEY: Key = {
  upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false, end: false,
  return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false, meta: false,
  super: false, hyper: false, capsLock: false, numLock: false,
} as Key;

export function splitKeys(input: string, key: Key): [string, Key][] {
  if (input.length <= 1 || input.startsWith("\x1b") || key.ctrl || key.meta) return [[input, key]];
  return [...input].map((ch): [string, Key] => {
    if (ch === "\r" || ch === "\n") return ["", { ...NO_KEY, return: true }];
    if (ch === "\t") return ["", { ...NO_KEY, tab: true }];
    if (ch === "\x7f" || ch === "\b") return ["", { ...NO_KEY, backspace: true }];
    return [ch, { ...NO_KEY, shift: ch !== ch.toLowerCase() }];
  });
}

export function useKeys(handler: (input: string, key: Key) => void, opts: { isActive?: boolean } = {}): void {
  useInput((input, key) => {
    for (const [i, k] of splitKeys(input, key)) handler(i, k);
  }, opts);
}
