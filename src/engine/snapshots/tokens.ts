// Token counts come from a real BPE tokenizer (cl100k_base via gpt-tokenizer), not characters/4.
// Claude's own tokenizer is not published; cl100k is a close, slightly conservative stand-in,
// and it counts Chinese text honestly (often more than one token per character).
// Loaded lazily: commands that never count tokens do not pay for the vocabulary.
//
// Bounded work: gpt-tokenizer merges each pre-tokenized piece (a run of letters, of punctuation or
// of spaces) in time quadratic in its length, so one unbroken 100 KB word took a minute. Text is
// therefore counted in segments cut inside any run of one kind of character longer than MAX_RUN
// (ASCII letters, digits, ASCII spaces, other ASCII, anything else): linear in the text, and exact
// for text without such runs (only a long URL, hash or blob is counted a token or so differently).
// Special-token text such as "<|endoftext|>" is counted as the plain text it is, never refused.

type Counter = (text: string) => number;
let counter: Counter | null = null;

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

export async function loadTokenizer(): Promise<Counter> {
  if (!counter) {
    const mod = await import("gpt-tokenizer/encoding/cl100k_base");
    const opts = { disallowedSpecial: new Set<string>() };
    const count = (text: string) => mod.countTokens(text, opts);
    counter = (text: string) => {
      if (!text) return 0;
      const cuts = runCuts(text);
      if (!cuts.length) return count(text);
      let total = 0;
      let from = 0;
      for (const at of [...cuts, text.length]) {
        total += count(text.slice(from, at));
        from = at;
      }
      return total;
    };
  }
  return counter;
}

/** Synchronous count; `loadTokenizer()` must have been awaited first. */
export function countTokens(text: string): number {
  if (!counter) throw new Error("tokenizer not loaded: await loadTokenizer() first");
  return counter(text);
}

/** An upper bound that needs no vocabulary: a cl100k token is never shorter than one UTF-8 byte. */
export function tokenUpperBound(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
