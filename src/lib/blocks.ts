// A block of lines between two marker lines, added to a text file someone else owns (AGENTS.md,
// config.toml) so that it can be replaced in place and taken out exactly: the file goes back to
// its bytes before the install, and a file the install created is removed.
//
// The rule that makes removal exact: a block goes at the very start only of a file that did not
// exist; anywhere else it is appended as "\n" + block. Removing "\n" + block (or the block at 0,
// and then the file) undoes it.

export interface Markers {
  begin: string;
  end: string;
}

/** Where the block is in `text`: [start, end) including its leading "\n" when it has one. */
export function findBlock(text: string, m: Markers): { start: number; end: number; body: string } | null {
  const b = text.indexOf(m.begin);
  if (b === -1 || (b > 0 && text[b - 1] !== "\n")) return null;
  const e = text.indexOf(m.end, b + m.begin.length);
  if (e === -1) return null;
  let end = e + m.end.length;
  if (text.startsWith("\r\n", end)) end += 2;
  else if (text[end] === "\n") end++;
  // The line break before the block is its own: "\r\n" in a file with Windows line endings.
  const start = b === 0 ? 0 : b > 1 && text[b - 2] === "\r" ? b - 2 : b - 1;
  // The body as written, with "\n" line ends whatever the file's: what a current block is compared with.
  return { start, end, body: text.slice(b, end).replace(/\r\n/g, "\n") };
}

/** The block as written: markers around `inner` (which ends with a newline). */
export function block(m: Markers, inner: string): string {
  return `${m.begin}\n${inner.endsWith("\n") ? inner : inner + "\n"}${m.end}\n`;
}

/**
 * The text with the block added or replaced (null when `text` is null: the file did not exist,
 * so the block is the whole file). Returns the same string when the block is already current.
 */
export function putBlock(text: string | null, m: Markers, body: string): string {
  if (text === null) return body;
  // In a file with Windows line endings the block has them too.
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = eol === "\n" ? body : body.replace(/\r?\n/g, "\r\n");
  const at = findBlock(text, m);
  if (!at) return text + eol + lines;
  const lead = text.slice(at.start, text.indexOf(m.begin, at.start));
  return text.slice(0, at.start) + lead + lines + text.slice(at.end);
}

/** The text without the block; null when nothing else is left of a file the block created. */
export function takeBlock(text: string, m: Markers): string | null | undefined {
  const at = findBlock(text, m);
  if (!at) return undefined;
  const rest = text.slice(0, at.start) + text.slice(at.end);
  return at.start === 0 && text.startsWith(m.begin) && rest === "" ? null : rest;
}
