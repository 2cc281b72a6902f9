// A one-line text being typed and where its cursor is. ←/→ move by what shows as one character
// (a whole emoji, a CJK character, a letter with its accents), Home/End and Ctrl-A/Ctrl-E jump to
// the ends; typing, Backspace and Delete act at the cursor. Alt/Ctrl+←/→ (and Alt+b/f, what macOS
// terminals send for Option+←/→) move by word, Alt+Backspace deletes the word before the cursor.
// As in a shell's line editor: Ctrl-U deletes what is before the cursor, Ctrl-K what is after it,
// Ctrl-W the word before it.
import { graphemeBoundary, printable } from "../../src/lib/text.ts";

export interface Field {
  text: string;
  /** A string index, always on a grapheme boundary: 0 before the first character, text.length after the last. */
  cursor: number;
}

/** A field holding `text`, its cursor at the end (where typing goes on). */
export const field = (text = ""): Field => ({ text, cursor: text.length });

export interface EditKey {
  leftArrow?: boolean;
  rightArrow?: boolean;
  home?: boolean;
  end?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  meta?: boolean;
}

/** The boundary of the character before (`-1`) or after (`+1`) the cursor. */
function step(text: string, at: number, dir: -1 | 1): number {
  if (dir < 0) return at <= 0 ? 0 : graphemeBoundary(text, at - 1, "down");
  return at >= text.length ? text.length : graphemeBoundary(text, at + 1, "up");
}

/** Alt+b/f, Alt or Ctrl+←/→, Alt+Backspace, Ctrl-W: the keys that work on a word. */
export function isWordKey(input: string, key: EditKey): boolean {
  if (key.meta && (input === "b" || input === "f" || key.backspace)) return true;
  if (key.ctrl && input === "w") return true;
  return !!(key.meta || key.ctrl) && !!(key.leftArrow || key.rightArrow);
}

/** Where the word before (`-1`) or after (`+1`) the cursor starts or ends: spaces are skipped, then the word. */
function wordStep(text: string, at: number, dir: -1 | 1): number {
  let i = at;
  const space = (j: number) => /\s/.test(text[j] ?? "");
  if (dir < 0) {
    while (i > 0 && space(i - 1)) i--;
    while (i > 0 && !space(i - 1)) i--;
  } else {
    while (i < text.length && space(i)) i++;
    while (i < text.length && !space(i)) i++;
  }
  return graphemeBoundary(text, i, dir < 0 ? "down" : "up");
}

/** A word key's edit: the cursor moved over a word, or the word before it deleted. */
function wordEdit(f: Field, at: number, input: string, key: EditKey): Field {
  if (key.backspace || input === "w") {
    const from = wordStep(f.text, at, -1);
    return { text: f.text.slice(0, from) + f.text.slice(at), cursor: from };
  }
  return { ...f, cursor: wordStep(f.text, at, key.leftArrow || input === "b" ? -1 : 1) };
}

/** The cursor moved a character or to an end; null for another key. */
function moved(f: Field, at: number, input: string, key: EditKey): Field | null {
  if (key.leftArrow) return { ...f, cursor: step(f.text, at, -1) };
  if (key.rightArrow) return { ...f, cursor: step(f.text, at, 1) };
  if (key.home || (key.ctrl && input === "a")) return { ...f, cursor: 0 };
  if (key.end || (key.ctrl && input === "e")) return { ...f, cursor: f.text.length };
  return null;
}

/** A character, or all before or after the cursor, deleted; null for another key. */
function deleted(f: Field, at: number, input: string, key: EditKey): Field | null {
  if (key.backspace) {
    const from = step(f.text, at, -1);
    return { text: f.text.slice(0, from) + f.text.slice(at), cursor: from };
  }
  if (key.delete) return { text: f.text.slice(0, at) + f.text.slice(step(f.text, at, 1)), cursor: at };
  if (key.ctrl && input === "u") return { text: f.text.slice(at), cursor: 0 };
  if (key.ctrl && input === "k") return { text: f.text.slice(0, at), cursor: at };
  return null;
}

/** Applies one key to a field; null when the key is not an editing key (the screen may use it). */
export function editField(f: Field, input: string, key: EditKey): Field | null {
  const at = Math.max(0, Math.min(f.text.length, f.cursor));
  if (isWordKey(input, key)) return wordEdit(f, at, input, key);
  const edited = moved(f, at, input, key) ?? deleted(f, at, input, key);
  if (edited) return edited;
  if (key.ctrl || key.meta || !input) return null;
  const typed = printable(input.replace(/[\t\r\n]/g, ""));
  if (!typed) return null;
  const text = f.text.slice(0, at) + typed + f.text.slice(at);
  // A combining mark typed after a letter joins it: the cursor stays after the whole character.
  return { text, cursor: graphemeBoundary(text, at + typed.length, "up") };
}
