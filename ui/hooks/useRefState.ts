// State whose latest value is readable at once: several keys arriving in one burst each see what
// the previous key did (a `/` that opens the filter, then the letters typed into it).
import { useRef, useState } from "react";
import { graphemes, printable } from "../../src/lib/text.ts";

export function useRefState<T>(initial: T): [() => T, (next: T | ((prev: T) => T)) => void] {
  const ref = useRef(initial);
  const [, render] = useState(0);
  const get = () => ref.current;
  const set = (next: T | ((prev: T) => T)) => {
    ref.current = typeof next === "function" ? (next as (prev: T) => T)(ref.current) : next;
    render((n) => n + 1);
  };
  return [get, set];
}

/** Applies one key to a one-line text value: printable input appends, backspace removes what shows as one character (a whole emoji, a letter with its accents). */
export function editText(value: string, input: string, key: { backspace?: boolean; delete?: boolean; ctrl?: boolean; meta?: boolean }): string | null {
  if (key.backspace || key.delete) return graphemes(value).slice(0, -1).join("");
  if (key.ctrl || key.meta || !input) return null;
  const typed = printable(input.replace(/[\t\r\n]/g, ""));
  return typed ? value + typed : null;
}
