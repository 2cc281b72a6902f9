// Token counts are cl100k_base counts (gpt-tokenizer's, made by bpe.ts from a compact form of its
// vocabulary), not characters/4. Claude's own tokenizer is not published; cl100k is a close,
// slightly conservative stand-in, and it counts Chinese text honestly (often more than one token
// per character).
//
// Bounded work: a byte-pair merge takes time quadratic in the length of its piece (a run of
// letters, of punctuation or of spaces), so a long unbroken word costs its length squared. Text is
// therefore counted in segments cut inside any run of one kind of character longer than MAX_RUN
// (ASCII letters, digits, ASCII spaces, other ASCII, anything else): linear in the text, and exact
// for text without such runs (only a long URL, hash or blob is counted a token or so differently).
// Special-token text such as "<|endoftext|>" is counted as the plain text it is, never refused.
//
// Lines add up: cl100k's split never makes a piece that holds a newline followed by a character
// other than white space, so a text's count is the sum of the counts of its parts cut after every
// such newline (test/tokens.test.ts checks this against gpt-tokenizer). Each part's count is kept
// for the process, so the restore block, rendered again and again while it is trimmed, counts
// each of its lines once; and a count can stop as soon as it is over a budget.
import { countCl100k, countPieces } from "./bpe.ts";
import { ownCopy } from "../../lib/text.ts";

type Counter = (text: string) => number;

/** The longest run of one kind of character counted in one piece. */
export const MAX_RUN = 256;

/** 0 letter, 1 digit, 2 space, 3 other ASCII, 4 anything else. */
function kind(c: number): number {
  if (c >= 0x80) return 4;
  if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) return 0;
  if (c >= 0x30 && c <= 0x39) return 1;
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) return 2;
  return 3;
}

/** Where to cut `text` so that no run of one kind is longer than MAX_RUN; none for ordinary text. */
export function runCuts(text: string, maxRun = MAX_RUN): number[] {
  const cuts: number[] = [];
  // (Most lines are shorter than a run that needs a cut.)
  if (text.length <= maxRun) return cuts;
  let runKind = -1;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const k = kind(text.charCodeAt(i));
    if (k !== runKind) {
      runKind = k;
      run = 0;
    }
    // Never between the halves of a surrogate pair.
    if (++run > maxRun && (text.charCodeAt(i) & 0xfc00) !== 0xdc00) {
      cuts.push(i);
      run = 1;
    }
  }
  return cuts;
}

/** Where a text splits into parts whose counts add up: after a newline followed by a non-space. */
const LINE_END = /\n(?=\S)/g;

/** The end of the part of `text` that starts at `from`. */
function partEnd(text: string, from: number): number {
  LINE_END.lastIndex = from;
  const m = LINE_END.exec(text);
  return m ? m.index + 1 : text.length;
}

/**
 * Counts of parts already seen (bounded: short parts only, at most KNOWN_CHARS characters of them,
 * emptied when full). Each key is a copy of its part: a slice shares the buffer of the text it was
 * cut from, so a cached line kept that whole text alive (a Layer 1 or Layer 2 of every snapshot an
 * import saved), and a cap on entries bounds nothing.
 */
const known = new Map<string, number>();
const KNOWN_CHARS = 1_000_000;
const KNOWN_PART_MAX = 2_000;
let knownChars = 0;

/** Tokens in one part, its long runs cut (see above). */
function countPart(part: string): number {
  let total = 0;
  for (const segment of segments(part)) total += countCl100k(segment);
  return total;
}

/** The segments a part is counted in: its long runs cut (see above). */
function segments(part: string): string[] {
  const cuts = runCuts(part);
  if (!cuts.length) return [part];
  return [...cuts, part.length].map((at, i, all) => part.slice(i ? all[i - 1] : 0, at));
}

function countKnown(part: string): number {
  if (part.length > KNOWN_PART_MAX) return countPart(part);
  let n = known.get(part);
  if (n === undefined) {
    const later = deferred.get(part);
    if (later) deferred.delete(part);
    remember(part, (n = later ? later() : countPart(part)));
  }
  return n;
}

function remember(part: string, n: number): void {
  if (knownChars + part.length > KNOWN_CHARS) {
    known.clear();
    knownChars = 0;
  }
  known.set(ownCopy(part), n);
  knownChars += part.length;
}

/**
 * Takes `n` as the count of `text`, a count stored with it (stored-tokens.ts): a later count of a
 * part equal to `text` needs no vocabulary. `n` must be countTokens(text).
 */
export function knowCount(text: string, n: number): void {
  if (text.length <= KNOWN_PART_MAX && !known.has(text)) remember(text, n);
}

/**
 * Counts made only if a part equal to their text is counted: from counts stored with its pieces
 * (a failure line's head), the rest counted then (a restore reads more lines than it counts).
 * Bounded like `known`: emptied when full.
 */
const deferred = new Map<string, () => number>();
const DEFERRED_MAX = 4_096;

/** Takes `count()` as the count of `text` when a part equal to it is counted; it must equal countTokens(text). */
export function knowCountWhenAsked(text: string, count: () => number): void {
  if (text.length > KNOWN_PART_MAX || known.has(text)) return;
  if (deferred.size >= DEFERRED_MAX) deferred.clear();
  deferred.set(text, count);
}

const counter: Counter = (text) => countTokensWithin(text, Infinity);

/** Kept for callers that prepare before counting: the vocabulary loads on first use. */
export async function loadTokenizer(): Promise<Counter> {
  return counter;
}

/** The token count of `text`. */
export function countTokens(text: string): number {
  return countTokensWithin(text, Infinity);
}

/** The exact count of `text` when it is at most `limit`; otherwise some number above `limit` (counting stops there). */
export function countTokensWithin(text: string, limit: number): number {
  if (!text) return 0;
  let total = 0;
  // Part by part, so that counting can stop early without cutting the rest of a long text.
  for (let from = 0; from < text.length && total <= limit;) {
    const to = partEnd(text, from);
    total += countKnown(from === 0 && to === text.length ? text : text.slice(from, to));
    from = to;
  }
  return total;
}

/**
 * At most countTokens(text), without the vocabulary or a byte-pair merge: the pieces of the same
 * split of the same parts and segments, each of which counts as one token or more.
 */
export function tokenLowerBound(text: string): number {
  let total = 0;
  for (let from = 0; from < text.length;) {
    const to = partEnd(text, from);
    for (const segment of segments(text.slice(from, to))) total += countPieces(segment);
    from = to;
  }
  return total;
}

/** An upper bound that needs no vocabulary: a cl100k token is never shorter than one UTF-8 byte. */
export function tokenUpperBound(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
