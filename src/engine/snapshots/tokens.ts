// Token counts come from a real BPE tokenizer (cl100k_base via gpt-tokenizer), not characters/4.
// Claude's own tokenizer is not published; cl100k is a close, slightly conservative stand-in,
// and it counts Chinese text honestly (often more than one token per character).
// Loaded lazily: commands that never count tokens do not pay for the vocabulary.

type Counter = (text: string) => number;
let counter: Counter | null = null;

export async function loadTokenizer(): Promise<Counter> {
  if (!counter) {
    const mod = await import("gpt-tokenizer/encoding/cl100k_base");
    counter = (text: string) => (text ? mod.countTokens(text) : 0);
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
