// Scrolling a text that is longer than the screen: a top line kept in a ref (keys in one burst each
// see the previous one's move), clamped to the text's length.
import type { Key } from "ink";
import { useRefState } from "./useRefState.ts";

export interface Scroll {
  /** The first visible line. */
  top: number;
  /** ↑/↓ j/k a line, PgUp/PgDn b/Space a page, g/G Home/End the ends; true when the key was used. */
  handle: (input: string, key: Key) => boolean;
}

export function useScroll(lines: number, visible: number): Scroll {
  const [getTop, setTop] = useRefState(0);
  const maxTop = Math.max(0, lines - visible);
  const top = Math.min(getTop(), maxTop);
  const to = (n: number) => setTop(Math.max(0, Math.min(maxTop, n)));
  const page = Math.max(1, visible - 1);
  return {
    top,
    handle: (input, key) => {
      const n = scrollTarget(input, key, Math.min(getTop(), maxTop), page, maxTop);
      if (n === null) return false;
      to(n);
      return true;
    },
  };
}

/** Where a scroll key takes the top line from `at` (not clamped); null for any other key. */
export function scrollTarget(
  input: string,
  key: Key,
  at: number,
  page: number,
  maxTop: number,
): number | null {
  if (key.upArrow || input === "k") return at - 1;
  if (key.downArrow || input === "j") return at + 1;
  if (key.pageUp || input === "b") return at - page;
  if (key.pageDown || input === " ") return at + page;
  if (key.home || input === "g") return 0;
  if (key.end || input === "G") return maxTop;
  return null;
}
