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
      const at = Math.min(getTop(), maxTop);
      if (key.upArrow || input === "k") to(at - 1);
      else if (key.downArrow || input === "j") to(at + 1);
      else if (key.pageUp || input === "b") to(at - page);
      else if (key.pageDown || input === " ") to(at + page);
      else if (key.home || input === "g") to(0);
      else if (key.end || input === "G") to(maxTop);
      else return false;
      return true;
    },
  };
}
