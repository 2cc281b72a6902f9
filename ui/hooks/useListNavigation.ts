// Selection and scrolling for a list that renders only its visible rows. The position lives in a
// ref as well as in state, so several keys that arrive in one burst each see the previous one's
// move (a picker must never open the wrong row because a render had not happened yet).
import { useRef, useState } from "react";
import type { Key } from "ink";

export interface ListNav {
  readonly selected: number;
  readonly offset: number;
  setSelected: (i: number) => void;
  /** Handles ↑ ↓ j k PgUp PgDn g G Home End; returns true when the key was used. */
  handle: (input: string, key: Key) => boolean;
}

interface Pos {
  selected: number;
  offset: number;
}

export function useListNavigation(
  count: number,
  visible: number,
  initial = 0,
  opts: { letters?: boolean; resetKey?: unknown } = {},
): ListNav {
  const clamp = (p: Pos): Pos => {
    const s = Math.max(0, Math.min(count - 1, p.selected));
    let o = Math.max(0, Math.min(p.offset, Math.max(0, count - visible)));
    if (s < o) o = s;
    if (s >= o + visible) o = s - visible + 1;
    return { selected: Math.max(0, s), offset: Math.max(0, o) };
  };
  const ref = useRef<Pos>({ selected: initial, offset: 0 });
  const seen = useRef<{ count: number; resetKey: unknown }>({ count, resetKey: opts.resetKey });
  // Decided during render, not in an effect: a key pressed right after the list appears must
  // never be undone by a late "select the initial row".
  if ((seen.current.count === 0 && count > 0) || seen.current.resetKey !== opts.resetKey) {
    ref.current = { selected: initial, offset: 0 };
  }
  seen.current = { count, resetKey: opts.resetKey };
  ref.current = clamp(ref.current);
  const [, setPos] = useState<Pos>(ref.current);
  const apply = (fn: (p: Pos) => Pos) => {
    ref.current = clamp(fn(ref.current));
    setPos(ref.current);
  };
  const letters = opts.letters ?? true;
  const move = (delta: number) => apply((p) => ({ ...p, selected: p.selected + delta }));
  return {
    get selected() {
      return ref.current.selected;
    },
    get offset() {
      return ref.current.offset;
    },
    setSelected: (i) => apply((p) => ({ ...p, selected: i })),
    handle: (input, key) => {
      if (key.upArrow || (letters && input === "k")) move(-1);
      else if (key.downArrow || (letters && input === "j")) move(1);
      else if (key.pageUp) move(-Math.max(1, visible - 1));
      else if (key.pageDown) move(Math.max(1, visible - 1));
      else if (key.home || (letters && input === "g")) apply((p) => ({ ...p, selected: 0 }));
      else if (key.end || (letters && input === "G")) apply((p) => ({ ...p, selected: count - 1 }));
      else return false;
      return true;
    },
  };
}
