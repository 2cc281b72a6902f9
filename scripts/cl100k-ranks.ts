// Writes src/engine/snapshots/cl100k.ranks: gpt-tokenizer's cl100k_base vocabulary in a form that
// needs no work to load (bpe.ts reads it as it is): every token's bytes, and an open-addressing
// hash table from bytes to rank, built here once instead of in every process.
//
//   bun scripts/cl100k-ranks.ts            (re)write the file
//   bun scripts/cl100k-ranks.ts --check    exit 1 when the file is not what this would write
//
// Layout (little-endian u32s, then bytes): "BPE1", N (ranks), T (table slots, a power of two),
// P (pool bytes); offsets[N + 1] into the pool; table[T] (rank + 1, 0 = empty; FNV-1a of the
// bytes, linear probing); the pool. A key's rank is what gpt-tokenizer itself answers for those
// bytes (getBpeRankFromBytes), so counts made with this table are gpt-tokenizer's exactly.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import api from "gpt-tokenizer/encoding/cl100k_base";

export const RANKS_FILE = join(import.meta.dir, "..", "src", "engine", "snapshots", "cl100k.ranks");

interface Core {
  bytePairRankDecoder: (string | number[] | undefined)[];
  getBpeRankFromBytes(b: Uint8Array): number | undefined;
}

/** FNV-1a over bytes[from, to): the same function bpe.ts probes with. */
export function fnv1a(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

export function buildRanks(): Uint8Array {
  const core = (api as unknown as { bytePairEncodingCoreProcessor: Core }).bytePairEncodingCoreProcessor;
  const dec = core.bytePairRankDecoder;
  const te = new TextEncoder();
  const n = dec.length;
  const tokens = dec.map((v) =>
    v === undefined ? new Uint8Array(0) : typeof v === "string" ? te.encode(v) : new Uint8Array(v),
  );
  const poolSize = tokens.reduce((s, t) => s + t.length, 0);
  const slots = 1 << 18;
  const out = new Uint8Array(16 + 4 * (n + 1) + 4 * slots + poolSize);
  const view = new DataView(out.buffer);
  out.set(te.encode("BPE1"), 0);
  view.setUint32(4, n, true);
  view.setUint32(8, slots, true);
  view.setUint32(12, poolSize, true);
  const offsets = 16;
  const table = offsets + 4 * (n + 1);
  const pool = table + 4 * slots;
  let at = 0;
  for (let r = 0; r < n; r++) {
    view.setUint32(offsets + 4 * r, at, true);
    out.set(tokens[r], pool + at);
    at += tokens[r].length;
  }
  view.setUint32(offsets + 4 * n, at, true);
  const same = (r: number, b: Uint8Array) =>
    tokens[r].length === b.length && tokens[r].every((x, i) => x === b[i]);
  for (let r = 0; r < n; r++) {
    const b = tokens[r];
    if (!b.length) continue;
    // The rank gpt-tokenizer gives these bytes (for a few duplicated tokens, another one, or none).
    const rank = core.getBpeRankFromBytes(b);
    if (rank === undefined || !same(rank, b)) continue;
    let slot = fnv1a(b, 0, b.length) & (slots - 1);
    for (;;) {
      const v = view.getUint32(table + 4 * slot, true);
      if (v === 0) break;
      if (v - 1 === rank) break;
      slot = (slot + 1) & (slots - 1);
    }
    view.setUint32(table + 4 * slot, rank + 1, true);
  }
  return out;
}

if (import.meta.main) {
  const data = buildRanks();
  if (Bun.argv.includes("--check")) {
    const same = Buffer.from(readFileSync(RANKS_FILE)).equals(Buffer.from(data));
    console.log(
      same
        ? "cl100k.ranks is up to date"
        : "cl100k.ranks differs from gpt-tokenizer's vocabulary: run bun scripts/cl100k-ranks.ts",
    );
    process.exit(same ? 0 : 1);
  }
  writeFileSync(RANKS_FILE, data);
  console.log(`wrote ${RANKS_FILE} (${data.length} bytes)`);
}
