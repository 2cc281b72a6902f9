// Text primitives for terminals and agents: display widths (East Asian wide characters take two
// columns, emoji sequences stay whole), cutting, padding, wrapping, and ages. Everything that cuts
// works on grapheme clusters (Intl.Segmenter), so a flag, a ZWJ family, a letter with combining
// marks or a CJK character is either shown whole or not at all.

/** Made on first use: creating a segmenter is slow, and most commands print only ASCII. */
let graphemeSegmenter: Intl.Segmenter | null = null;
const segmenter = () => (graphemeSegmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" }));

/**
 * Orders people's text (failure items, project names) the same way on every host: English
 * collation, never the machine's default locale, so a restore block or an export is identical
 * wherever it is made.
 */
let englishCollator: Intl.Collator | null = null;
export const compareText = (a: string, b: string): number =>
  printableAsciiOrder(a, b) ?? (englishCollator ??= new Intl.Collator("en")).compare(a, b);

/**
 * English collation of two printable-ASCII texts without ICU's collator (making one is slow,
 * and a restore block compares failure items on every load): characters by the collator's order
 * (punctuation, digits, then letters, case aside), then lowercase before uppercase. Null for any
 * other text. test/property.test.ts checks it against Intl.Collator("en").
 */
const ASCII_COLLATION =
  " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ";
let asciiWeights: { primary: Int8Array; upper: Uint8Array } | null = null;
export function printableAsciiOrder(a: string, b: string): number | null {
  const w = (asciiWeights ??= (() => {
    const primary = new Int8Array(128).fill(-1);
    const upper = new Uint8Array(128);
    let p = 0;
    for (const ch of ASCII_COLLATION) {
      const c = ch.charCodeAt(0);
      if (c >= 65 && c <= 90) {
        primary[c] = primary[c + 32];
        upper[c] = 1;
      } else primary[c] = p++;
    }
    return { primary, upper };
  })());
  for (const t of [a, b])
    for (let i = 0; i < t.length; i++) if (t.charCodeAt(i) < 32 || t.charCodeAt(i) > 126) return null;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = w.primary[a.charCodeAt(i)] - w.primary[b.charCodeAt(i)];
    if (d) return d < 0 ? -1 : 1;
  }
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  for (let i = 0; i < n; i++) {
    const d = w.upper[a.charCodeAt(i)] - w.upper[b.charCodeAt(i)];
    if (d) return d < 0 ? -1 : 1;
  }
  return 0;
}

/**
 * Text without its leading blank lines and its trailing whitespace: what `trim` does, but a first
 * line keeps its indentation (in markdown, four spaces make a code block).
 */
export function trimLines(text: string): string {
  return text.replace(/^(?:[^\S\r\n]*(?:\r\n|\r|\n))+/, "").trimEnd();
}

/**
 * Orders texts as SQLite's BINARY collation orders their UTF-8, by code point: UTF-16 code units
 * order them the same way except a character past U+FFFF (a surrogate pair) against one from
 * U+E000 to U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xPair = x >= 0xd800 && x <= 0xdfff;
    const yPair = y >= 0xd800 && y <= 0xdfff;
    if (xPair !== yPair && (x >= 0xe000 || y >= 0xe000)) return xPair ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Orders ids and ISO timestamps by their characters: no locale, no collation. */
export const compareCodes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Printable ASCII: one column and one cluster per character, so no segmenting is needed (a list of
 * 2,000 snapshots measures ~10,000 strings, almost all of them ASCII).
 */
const ASCII = /^[\x20-\x7e]*$/;

/**
 * Control characters (C0 but tab and newline, DEL, C1), lone surrogates, and the bidirectional
 * embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): a terminal would act on them,
 * show "�", or show the rest of the line reversed (a peer's "‮" making one text look like another).
 */
const UNPRINTABLE =
  // eslint-disable-next-line no-control-regex -- control characters are what it takes out
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Escape sequences a terminal acts on, taken out whole so their parameters are not left behind as
 * text: CSI (`ESC [ … final`, colours, clearing the screen), OSC, DCS, SOS, PM and APC strings
 * ended by BEL or ST (`ESC ] 52 ; c ; … BEL` writes the clipboard), and two-character ones
 * (`ESC c` resets the terminal). An unended string is left to UNPRINTABLE, which takes its ESC.
 */
const ESCAPE_SEQUENCE =
  // eslint-disable-next-line no-control-regex -- ESC, BEL and the other controls are what it matches
  /\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]|\x1b[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[\x20-\x2f]*[\x30-\x7e]/g;

/**
 * Text safe to print: escape sequences, control characters (all but tab and newline), bidi
 * overrides and halves of a cut surrogate pair removed. What every face shows of text from outside
 * (a peer, an import, a transcript, a prompt) passes through it.
 */
export function printable(text: string): string {
  return (text.includes("\x1b") ? text.replace(ESCAPE_SEQUENCE, "") : text).replace(UNPRINTABLE, "");
}

/**
 * Text cut to `max` characters (never inside a grapheme cluster), with a marker saying how long it
 * is: what a field from a peer or an older version, stored longer than MindSave accepts today,
 * shows in a restore block or a list, so no stored value can make an output unbounded.
 */
export function clipped(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, graphemeBoundary(text, max, "down"))}… (cut for display: ${text.length.toLocaleString("en-US")} characters stored)`;
}

/** The grapheme clusters of a text: what a person sees as one character each. */
export function graphemes(text: string): string[] {
  return Array.from(segmenter().segment(text), (s) => s.segment);
}

/** Display width of one grapheme cluster in terminal columns (0, 1 or 2). */
function clusterWidth(g: string): number {
  return Math.min(2, Bun.stringWidth(g));
}

/**
 * The nearest grapheme boundary to string index `i`, at or before it ("down") or at or after it
 * ("up"), so a cut never splits an emoji, a flag or a letter from its accent.
 */
export function graphemeBoundary(text: string, i: number, dir: "down" | "up"): number {
  if (i <= 0 || i >= text.length) return Math.max(0, Math.min(i, text.length));
  // Between two characters that never join a neighbour the cut is a boundary already (the
  // segmenter is slow to make): Latin up to the combining marks and CJK ideographs, not CR (CR LF is one).
  if (joinsNothing(text.charCodeAt(i - 1)) && joinsNothing(text.charCodeAt(i))) return i;
  // Clusters are short: a window around i is enough, and keeps this cheap on long text.
  const from = Math.max(0, i - 64);
  let before = from;
  for (const seg of segmenter().segment(text.slice(from, Math.min(text.length, i + 64)))) {
    const at = from + seg.index;
    if (at === i) return i;
    if (at > i) return dir === "down" ? before : at;
    before = at;
  }
  return dir === "down" ? before : Math.min(text.length, i + 64);
}

/** A UTF-16 unit whose character breaks from both neighbours (Unicode's grapheme rules GB4, GB5, GB999). */
function joinsNothing(c: number): boolean {
  return c !== 0x0d && (c < 0x300 || (c >= 0x4e00 && c <= 0x9fff));
}

/** Display width in terminal columns: the sum of the grapheme clusters' widths. */
export function width(text: string): number {
  if (ASCII.test(text)) return text.length;
  let w = 0;
  for (const { segment } of segmenter().segment(printable(text))) w += clusterWidth(segment);
  return w;
}

/** The longest start of `text` (whole clusters) that fits in `cols` columns, and its width. */
function head(text: string, cols: number): { text: string; width: number } {
  if (ASCII.test(text))
    return { text: text.slice(0, Math.max(0, cols)), width: Math.max(0, Math.min(text.length, cols)) };
  let out = "";
  let w = 0;
  for (const { segment } of segmenter().segment(text)) {
    const cw = clusterWidth(segment);
    if (w + cw > cols) break;
    out += segment;
    w += cw;
  }
  return { text: out, width: w };
}

/**
 * Cuts text to a display width, whitespace runs folded to one space, ending with an ellipsis when
 * cut; never inside a grapheme cluster (a wide character that would straddle the edge is left out).
 */
export function fit(text: string, cols: number, ellipsis = "…"): string {
  const flat = printable(text.replace(/\s+/g, " "));
  if (cols <= 0) return "";
  if (width(flat) <= cols) return flat;
  const e = width(ellipsis);
  // Too narrow for the ellipsis: as much of the text as fits.
  if (e >= cols) return head(flat, cols).text;
  return head(flat, cols - e).text + ellipsis;
}

/** Like `fit`, but keeps the end, which says the most in a path: "…/usb/mindsave". */
export function fitStart(text: string, cols: number, ellipsis = "…"): string {
  const flat = printable(text.replace(/\s+/g, " "));
  if (cols <= 0) return "";
  if (width(flat) <= cols) return flat;
  const e = width(ellipsis);
  const room = e >= cols ? cols : cols - e;
  const parts = graphemes(flat);
  let out = "";
  let w = 0;
  for (let i = parts.length - 1; i >= 0; i--) {
    const cw = clusterWidth(parts[i]);
    if (w + cw > room) break;
    out = parts[i] + out;
    w += cw;
  }
  return e >= cols ? out : ellipsis + out;
}

/**
 * Cuts text in its middle to a display width, keeping its start and its end ("add_rate_…2026-11-23-3"),
 * whole clusters only. `endCols` asks for that much of the end (the part that tells two names apart);
 * by default the end gets half the room.
 */
export function fitMiddle(text: string, cols: number, ellipsis = "…", endCols?: number): string {
  const flat = printable(text.replace(/\s+/g, " "));
  if (cols <= 0) return "";
  if (width(flat) <= cols) return flat;
  const e = width(ellipsis);
  if (e >= cols) return fitStart(flat, cols, ellipsis);
  const room = cols - e;
  const endRoom = Math.max(1, Math.min(room, endCols ?? Math.ceil(room / 2)));
  const tail = fitStart(flat, endRoom, "");
  return head(flat, room - width(tail)).text + ellipsis + tail;
}

/** `fit` without the leading and trailing whitespace: for one-line summaries of free text. */
export function truncate(text: string, cols: number): string {
  return fit(text.trim(), cols);
}

/** Pads text with spaces to a display width, cutting it first if it is wider. */
export function pad(text: string, cols: number, ellipsis = "…"): string {
  const t = fit(text, cols, ellipsis);
  return t + " ".repeat(Math.max(0, cols - width(t)));
}

/** Pads text with spaces to a display width; wider text is left whole. */
export function padEnd(text: string, cols: number): string {
  return text + " ".repeat(Math.max(0, cols - width(text)));
}

/** A time as utcMinute writes it, "2026-11-29 01:19 UTC": one phrase a wrap never breaks (wrap's `together`). */
export const UTC_MINUTE = /\d{4}-\d\d-\d\d \d\d:\d\d UTC/g;

/** Joins the words of a phrase kept together: a private-use character, which printable() has removed from the text. */
const JOINED = "\uE000";

/**
 * Word-wraps text to a display width; long words and CJK text break anywhere between grapheme
 * clusters. Spaces between words fold to one, unless `keepSpaces` (code, aligned columns): then a
 * run is kept as written, tabs to the next multiple of 4 columns, and dropped only where it wraps.
 * What `together` matches (a global pattern, e.g. UTC_MINUTE) wraps as one word.
 */
export function wrap(
  text: string,
  cols: number,
  opts: { keepSpaces?: boolean; together?: RegExp } = {},
): string[] {
  const joined = (para: string) =>
    opts.together ? para.replace(opts.together, (m) => m.replace(/ /g, JOINED)) : para;
  const out = printable(text)
    .split("\n")
    .flatMap((para) => paragraphLines(joined(para), cols, !!opts.keepSpaces));
  return opts.together ? out.map((l) => l.replaceAll(JOINED, " ")) : out;
}

/** One paragraph's lines (wrap's, for printable text without a line break). */
function paragraphLines(para: string, cols: number, keepSpaces: boolean): string[] {
  const out: string[] = [];
  let line = "";
  let w = 0;
  for (const token of para.split(/(\s+)/)) {
    if (!token) continue;
    const tw = width(token);
    if (/^\s+$/.test(token)) {
      if (keepSpaces) {
        let run = "";
        for (const c of token) run += c === "\t" ? " ".repeat(4 - ((w + run.length) % 4)) : " ";
        if (w + run.length <= cols) {
          line += run;
          w += run.length;
        } else if (w > 0) {
          out.push(line.trimEnd());
          line = "";
          w = 0;
        }
      } else if (w > 0 && w + 1 <= cols) {
        line += " ";
        w += 1;
      }
      continue;
    }
    if (w + tw <= cols) {
      line += token;
      w += tw;
      continue;
    }
    if (tw <= cols && w > 0) {
      out.push(line.trimEnd());
      line = token;
      w = tw;
      continue;
    }
    for (const { segment } of segmenter().segment(token)) {
      const cw = clusterWidth(segment);
      if (w + cw > cols && w > 0) {
        out.push(line.trimEnd());
        line = "";
        w = 0;
      }
      line += segment;
      w += cw;
    }
  }
  out.push(line.trimEnd());
  return out;
}

/**
 * How long ago an instant was. `short` ("42s", "5m", "3h", "2d") fits a table column; `long`
 * ("42s ago", "5 min ago", "3 h ago", "2 days ago") reads in a sentence. An instant more than a
 * minute past this clock (saved by a laptop whose clock runs ahead) is said to be ahead ("+2h",
 * "2 h ahead of this clock"), never "0s ago".
 */
export function age(iso: string, now: Date = new Date(), style: "short" | "long" = "short"): string {
  const d = Math.round((now.getTime() - Date.parse(iso)) / 1000);
  if (d < -AHEAD_AFTER_S) {
    const span = age(now.toISOString(), new Date(Date.parse(iso)), style);
    return style === "short" ? `+${span}` : `${span.replace(/ ago$/, "")} ahead of this clock`;
  }
  const s = Math.max(0, d);
  if (style === "short") {
    if (s < 60) return `${s}s`;
    if (s < 3600) return `${Math.round(s / 60)}m`;
    if (s < 86400) return `${Math.round(s / 3600)}h`;
    return `${Math.round(s / 86400)}d`;
  }
  if (s < 90) return `${s}s ago`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min ago`;
  if (s < 36 * 3600) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} days ago`;
}

/** Clocks a minute apart are the same clock here: a later instant within it is "0s" old. */
const AHEAD_AFTER_S = 60;

/** `age` in a short sentence: "3h ago", or "2h ahead" for an instant past this clock. */
export function ageAgo(iso: string, now: Date = new Date()): string {
  const a = age(iso, now);
  return a.startsWith("+") ? `${a.slice(1)} ahead` : `${a} ago`;
}

/**
 * `s` as a string of its own, for a cache's key: a slice shares the buffer of the text it was cut
 * from, and would keep all of it alive. (A join makes a new string in JavaScriptCore; `${s}` or
 * `s + ""` would not.)
 */
export function ownCopy(s: string): string {
  return [s, ""].join("");
}

/** An instant as people read it in a line, to the minute, UTC: "2026-11-23 05:49 UTC". */
export function utcMinute(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

/** A size in the unit people read: "512 B", "4.9 KB" (under 1 MiB), "3.2 MiB", "1.5 GiB". */
export function byteSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(1)} GiB`;
}

/** A path or word as one shell word, quoted only when it must be (a space, a quote, `$`…), so a printed command can be pasted. */
export function shellWord(s: string, platform: string = process.platform): string {
  if (/^[\w@%+=:,./-]+$/.test(s)) return s;
  return platform === "win32" ? `"${s}"` : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The first text after every text that starts with `prefix`, in SQLite's BINARY order (UTF-8
 * bytes, which is code point order): its last code point raised by one. Null when there is none.
 */
export function nextText(prefix: string): string | null {
  // (A lone surrogate reaches SQLite as U+FFFD, whatever it was: no bound then.)
  if (!prefix.isWellFormed()) return null;
  const points = [...prefix];
  while (points.length) {
    const last = points.pop()!.codePointAt(0)!;
    if (last >= 0x10ffff) continue;
    // (Surrogates are no text: after U+D7FF comes U+E000.)
    points.push(String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1));
    return points.join("");
  }
  return null;
}

/**
 * A value without the blank space around it. A value of several lines keeps its first line's
 * indentation (only blank lines go from its start): a constraint that is a piece of code keeps
 * its shape.
 */
export function trimValue(v: string): string {
  const end = v.trimEnd();
  return end.includes("\n") ? end.replace(/^(?:[^\S\n]*\n)+/, "") : end.trim();
}
