// cl100k_base token counts, exactly as gpt-tokenizer 4.0.0 makes them, without its start-up cost:
// gpt-tokenizer parses a 1.2 MB module of 100,256 strings and builds a Map of them in every
// process, a cost in time and memory on every command. Here the vocabulary is one file of bytes
// with a ready-made hash table (cl100k.ranks, written by scripts/cl100k-ranks.ts from
// gpt-tokenizer's own ranks): loading it is one read, and a lookup hashes the bytes in place.
// The split of text into pieces and the merge rule are gpt-tokenizer's (src/encodingParams/
// constants.ts and BytePairEncodingCore.ts, v4.0.0); test/tokens.test.ts checks the counts
// against gpt-tokenizer itself. The file is mapped rather than read where it can be (ranks-file.ts).
import { type RanksBytes, ranksBytes } from "./ranks-file.ts";
import { ownCopy } from "../../lib/text.ts";

/** gpt-tokenizer's CL100K_TOKEN_SPLIT_PATTERN (v4.0.0), with no special tokens allowed. */
const SPLIT =
  /'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+(?!\S)|\s/gu;

const NONE = 0x7fffffff;

interface Ranks {
  offsets: Uint32Array;
  table: Uint32Array;
  mask: number;
  pool: Uint8Array;
}

let ranks: Ranks | null = null;

/** The ranks in `source`, or null when its bytes are not a whole rank file. */
function ranksIn(source: RanksBytes): Ranks | null {
  const bytes = source.bytes;
  // Copied to an aligned buffer when the read one is not (Uint32Array needs 4-byte alignment).
  const data = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  if (data.byteLength < 16) return null;
  const head = new Uint32Array(data.buffer, data.byteOffset, 4);
  const n = head[1];
  const slots = head[2];
  const poolSize = head[3];
  // A mapped cache copy is checked for its shape: a table without an empty slot would never end a lookup.
  if (
    head[0] !== 0x31455042 ||
    slots < 2 ||
    (slots & (slots - 1)) !== 0 ||
    n >= slots ||
    16 + 4 * (n + 1) + 4 * slots + poolSize !== data.byteLength
  )
    return null;
  const offsets = new Uint32Array(data.buffer, data.byteOffset + 16, n + 1);
  const table = new Uint32Array(data.buffer, data.byteOffset + 16 + 4 * (n + 1), slots);
  const pool = new Uint8Array(data.buffer, data.byteOffset + 16 + 4 * (n + 1) + 4 * slots, poolSize);
  const r = { offsets, table, mask: slots - 1, pool };
  // And a few known tokens looked up (a copy damaged past its header would count wrong, silently).
  for (const [text, rank] of KNOWN_RANKS) {
    const b = encoder.encode(text);
    if (rankOf(r, b, 0, b.length) !== rank) return null;
  }
  return r;
}

/** cl100k ranks of a few tokens, spread over the vocabulary (gpt-tokenizer's; test/tokens.test.ts checks them). */
export const KNOWN_RANKS: [string, number][] = [
  ["!", 0],
  [" the", 279],
  ["hello", 15339],
  ["一个", 48044],
  [" resemblance", 70000],
  ["idUser", 100200],
  [" Conveyor", 100255],
  [" MindSave", NONE],
];

/** How the vocabulary was loaded in this process (doctor reports it). */
export let ranksSource: Omit<RanksBytes, "bytes"> | null = null;

function loadRanks(): Ranks {
  let source = ranksBytes();
  let r = ranksIn(source);
  if (!r && source.how === "mapped") r = ranksIn((source = ranksBytes(source.path)));
  if (!r) throw new Error(`${source.path} is not a cl100k rank file`);
  ranksSource = { how: source.how, path: source.path, ...(source.cache ? { cache: source.cache } : {}) };
  return r;
}

/** Loads the vocabulary now (doctor). */
export function loadVocabulary(): Omit<RanksBytes, "bytes"> {
  ranks ??= loadRanks();
  return ranksSource!;
}

/** The rank of bytes[from, to), or NONE. */
function rankOf(r: Ranks, bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  const len = to - from;
  // (Bounded: a damaged cache copy may have no empty slot.)
  for (let slot = (h >>> 0) & r.mask, probes = 0; probes <= r.mask; slot = (slot + 1) & r.mask, probes++) {
    const v = r.table[slot];
    if (v === 0) return NONE;
    const start = r.offsets[v - 1];
    if (r.offsets[v] - start !== len) continue;
    let i = 0;
    while (i < len && r.pool[start + i] === bytes[from + i]) i++;
    if (i === len) return v - 1;
  }
  return NONE;
}

let buf = new Uint8Array(1024);
let starts = new Int32Array(1025);
let pairRanks = new Int32Array(1025);
const encoder = new TextEncoder();

/** Tokens of one piece of the split: one when it is a token, else what the byte-pair merges leave. */
function countPiece(r: Ranks, piece: string): number {
  if (buf.length < piece.length * 3) {
    buf = new Uint8Array(piece.length * 3);
    starts = new Int32Array(buf.length + 1);
    pairRanks = new Int32Array(buf.length + 1);
  }
  const n = encoder.encodeInto(piece, buf).written;
  if (n <= 1) return n;
  // gpt-tokenizer looks the whole piece up by its string first: never a match with a lone surrogate.
  if (rankOf(r, buf, 0, n) !== NONE && piece.isWellFormed()) return 1;
  // Merge the adjacent pair of lowest rank (the leftmost of equals) until no pair is a token.
  let parts = n;
  for (let i = 0; i <= n; i++) starts[i] = i;
  for (let i = 0; i < n - 1; i++) pairRanks[i] = rankOf(r, buf, i, i + 2);
  pairRanks[n - 1] = NONE;
  while (parts > 1) {
    let low = NONE;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      if (pairRanks[i] < low) {
        low = pairRanks[i];
        at = i;
      }
    }
    if (at < 0) break;
    // Part `at` absorbs part `at + 1`.
    starts.copyWithin(at + 1, at + 2, parts + 1);
    pairRanks.copyWithin(at, at + 1, parts);
    parts--;
    pairRanks[at] = at + 2 <= parts ? rankOf(r, buf, starts[at], starts[at + 2]) : NONE;
    if (at > 0) pairRanks[at - 1] = rankOf(r, buf, starts[at - 1], starts[at + 1]);
  }
  return parts;
}

/** How many pieces cl100k's split makes of `text`: a lower bound of its tokens (a piece is at least one), without the vocabulary. */
export function countPieces(text: string): number {
  return text.match(SPLIT)?.length ?? 0;
}

/**
 * Counts of pieces already seen: the texts a process counts share most of their pieces (a restore
 * block's "left out" line counted once per trim with other numbers in it, the tags of its failure
 * lines, the same words), and a piece's count depends on nothing else. Bounded: short pieces only,
 * emptied when full; each key a copy (a piece is a slice that keeps its whole text alive).
 */
const pieceCounts = new Map<string, number>();
const PIECE_COUNTS_MAX = 16_384;
const COUNTED_PIECE_MAX = 64;

function pieceTokens(r: Ranks, piece: string): number {
  let n = pieceCounts.get(piece);
  if (n !== undefined) return n;
  n = countPiece(r, piece);
  if (piece.length <= COUNTED_PIECE_MAX) {
    if (pieceCounts.size >= PIECE_COUNTS_MAX) pieceCounts.clear();
    pieceCounts.set(ownCopy(piece), n);
  }
  return n;
}

/** cl100k_base tokens in `text`, special-token text counted as the plain text it is. */
export function countCl100k(text: string): number {
  const r = (ranks ??= loadRanks());
  let total = 0;
  // (match() collects the pieces in one native call: matchAll's iterator made an object per piece,
  // which cost more than the merges of most of them.)
  const pieces = text.match(SPLIT);
  if (pieces) for (let i = 0; i < pieces.length; i++) total += pieceTokens(r, pieces[i]);
  return total;
}
