// Keys, one at a time, to the screen on top. ink hands over a burst of typed keys (tmux send-keys,
// a fast typist, a paste) as one string such as "q\r"; screens want each key on its own, in order,
// and a key that follows a screen change in the same burst belongs to the new screen: the app
// routes every key (see useKeyRouter.ts) and holds keys until the screen they are for can use them.
// Esc and the key after it, typed fast, come in one read as "\x1bq", which ink reads as Alt+q:
// no screen has an Alt key, so that is Esc, then q (`escapeThenKey`).
import { createContext, useContext, useLayoutEffect, useRef } from "react";
import { useInput, type Key } from "ink";
import { isWordKey } from "./textEdit.ts";

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
} as Key;

export type KeyHandler = (input: string, key: Key) => void;

export function splitKeys(input: string, key: Key): [string, Key][] {
  if (input.length <= 1 || input.startsWith("\x1b") || key.ctrl || key.meta) return [[input, key]];
  return [...input].map((ch): [string, Key] => {
    if (ch === "\r" || ch === "\n") return ["", { ...NO_KEY, return: true }];
    if (ch === "\t") return ["", { ...NO_KEY, tab: true }];
    if (ch === "\x7f" || ch === "\b") return ["", { ...NO_KEY, backspace: true }];
    return [ch, { ...NO_KEY, shift: ch !== ch.toLowerCase() }];
  });
}

/**
 * A key ink read with ESC in front of it (Alt+key): Esc, then the key, so Esc then q typed fast
 * goes back, then acts on the screen it went back to. In a text field, the Alt keys macOS terminals
 * send for Option+←/→ and Option+Backspace (Alt+b/f, Alt+←/→, Alt+Backspace) stay word keys. Null
 * for any other key.
 */
export function escapeThenKey(input: string, key: Key, typing: boolean): [string, Key][] | null {
  if (!key.meta || (typing && isWordKey(input, key))) return null;
  return [
    ["", { ...NO_KEY, escape: true }],
    [key.escape ? "" : input, { ...key, meta: false }],
  ];
}

/** A screen's key handler as the router sees it: `wait` says a key must wait for data still loading. */
export interface KeyTarget {
  handle: KeyHandler;
  wait?: (input: string, key: Key) => boolean;
}

export interface KeyRouter {
  /** Registers the handler of screen `id`; returns the unregister function. */
  register: (id: string, target: { current: KeyTarget }) => () => void;
  /** Hands queued keys on (after a render that may have made a screen ready). */
  flush: () => void;
}

export const KeyRouterContext = createContext<KeyRouter | null>(null);
/** The id of the screen a component belongs to (set by the app around each screen). */
export const ScreenIdContext = createContext<string | null>(null);

/**
 * A screen's keys. Inside the app, the router calls `handler` only while this screen is on top;
 * with `ready: false` (its data still loading) or `wait` returning true for a key, that key and
 * those after it wait; the returned function hands held keys on once `wait` has changed without a
 * render. Outside the app (a lone component), ink's input is used directly.
 */
export function useKeys(
  handler: KeyHandler,
  opts: { isActive?: boolean; ready?: boolean; wait?: (input: string, key: Key) => boolean } = {},
): () => void {
  const router = useContext(KeyRouterContext);
  const screen = useContext(ScreenIdContext);
  const routed = !!(router && screen);
  const ready = opts.ready ?? true;
  const userWait = opts.wait;
  const target = useRef<KeyTarget>({ handle: handler });
  target.current = { handle: handler, wait: (i, k) => !ready || !!userWait?.(i, k) };
  useLayoutEffect(() => (routed ? router!.register(screen!, target) : undefined), [routed, router, screen]);
  // Every render may have made this screen ready for the keys waiting for it.
  useLayoutEffect(() => {
    if (routed) router!.flush();
  });
  useInput(
    (input, key) => {
      for (const [i, k] of splitKeys(input, key)) {
        for (const [i2, k2] of escapeThenKey(i, k, false) ?? [[i, k]]) target.current.handle(i2, k2);
      }
    },
    { isActive: !routed && (opts.isActive ?? true) },
  );
  // For a screen whose `wait` just turned false outside a render: hand on the keys held for it.
  return () => router?.flush();
}
