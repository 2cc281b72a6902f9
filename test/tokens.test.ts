// Token counts: our compact cl100k counter (src/engine/snapshots/bpe.ts) against gpt-tokenizer
// itself, and the property the count cache rests on — a text's count is the sum of its parts cut
// after each newline followed by a non-space — checked on the real tokenizer, not assumed.
// fast-check runs seeded and bounded, so every run sees the same cases.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { heapStats } from "bun:jsc";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens as gptCount, encode as gptEncode } from "gpt-tokenizer/encoding/cl100k_base";
import { countCl100k, KNOWN_RANKS } from "../src/engine/snapshots/bpe.ts";
import { countTokens, countTokensWithin, runCuts, tokenLowerBound } from "../src/engine/snapshots/tokens.ts";
import { RANKS_CRC32 } from "../src/engine/snapshots/ranks-file.ts";
import { buildRanks, RANKS_FILE } from "../scripts/cl100k-ranks.ts";
import { REPO } from "./helpers.ts";
import { anyCodePoint } from "./arbitraries.ts";

const SEED = Number(process.env.PROPERTY_SEED) || 20261123;
const run = <T>(p: fc.IProperty<T>, numRuns: number) =>
  fc.assert(p, { seed: SEED, numRuns, endOnFailure: true });
/** gpt-tokenizer's count, special-token text counted as text (as MindSave counts it). */
const reference = (s: string) => gptCount(s, { disallowedSpecial: new Set() });

/** What restore blocks, snapshots and transcripts hold, and what is hard for a tokenizer's split. */
const PIECES = [
  "fix",
  "the",
  " the",
  "auth",
  "Login",
  "'s",
  "'LL",
  "don't",
  "x",
  "Z",
  "é",
  "café",
  "ß",
  "İ",
  "ﬁ",
  "测试",
  "不要用Redux",
  "令牌",
  "🚀",
  "👩‍💻",
  "🏽",
  "✅",
  "\ud800",
  "\udc00",
  "0",
  "12",
  "3456",
  "0x1F",
  "1e3",
  ".",
  ",",
  ":",
  ": ",
  "!",
  "?",
  "…",
  "—",
  "-",
  "- ",
  "#",
  "## ",
  "*",
  "`",
  "```",
  '"',
  "'",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  "<|endoftext|>",
  "<|im_start|>",
  "\\",
  "/",
  "//",
  "=>",
  " ",
  "  ",
  "    ",
  "\t",
  "\n",
  "\n\n",
  "\r\n",
  "\r",
  "\u00a0",
  "\u3000",
  "\u2028",
  "\u000b",
  "\f",
  "https://example.com/a?b=c#d",
  "C:\\Users\\me",
  "src/auth/token.ts",
  "[user, ×6, high, project]",
  "→ instead:",
];
const text = (max: number) =>
  fc.array(fc.constantFrom(...PIECES), { maxLength: max }).map((xs) => xs.join(""));
/** Lines as a block has them: any content, joined with "\n", blank and indented lines included. */
const lines = fc
  .array(
    fc.oneof(
      text(12),
      fc.constant(""),
      text(6).map((s) => `  ${s}`),
      fc.string({ maxLength: 20 }),
      fc.string({ unit: anyCodePoint, maxLength: 12 }),
    ),
    { maxLength: 12 },
  )
  .map((ls) => ls.join("\n"));

describe("the cl100k counter", () => {
  test("counts exactly what gpt-tokenizer counts", () => {
    run(
      fc.property(
        fc.oneof(
          text(40),
          lines,
          fc.string({ maxLength: 60 }),
          fc.string({ unit: anyCodePoint, maxLength: 40 }),
        ),
        (s) => {
          expect(countCl100k(s)).toBe(reference(s));
        },
      ),
      3000,
    );
    for (const s of [
      "",
      "hello world",
      "a <|endoftext|> b",
      "lone \ud800 surrogate",
      "x:\n\n- y",
      "   \n\n  \t foo  ",
    ])
      expect(countCl100k(s)).toBe(reference(s));
  });

  test("on real files: our source, the README, a Chinese text", () => {
    for (const f of ["src/engine/snapshots/restore.ts", "README.md", "docs/architecture.md"]) {
      const s = readFileSync(join(REPO, f), "utf8");
      expect(countCl100k(s)).toBe(reference(s));
    }
    const zh = "重构认证模块并修复令牌刷新问题。不要在处理器里同步读写文件，改用流。\n".repeat(50);
    expect(countCl100k(zh)).toBe(reference(zh));
  });

  test("the tokens a loaded vocabulary is spot-checked with have gpt-tokenizer's ranks (or are no single token)", () => {
    expect(KNOWN_RANKS.length).toBeGreaterThan(5);
    for (const [text, rank] of KNOWN_RANKS) {
      const ids = gptEncode(text);
      expect(ids.length === 1 ? ids[0] : 0x7fffffff).toBe(rank);
    }
  });

  test("its rank file is gpt-tokenizer's vocabulary (rebuilt with bun scripts/cl100k-ranks.ts)", () => {
    expect(Buffer.from(readFileSync(RANKS_FILE)).equals(Buffer.from(buildRanks()))).toBe(true);
  });

  test("the CRC a mapped copy must match is the rank file's (set RANKS_CRC32 in ranks-file.ts after a rebuild)", () => {
    expect(Bun.hash.crc32(readFileSync(RANKS_FILE)).toString(16)).toBe(RANKS_CRC32.toString(16));
  });
});

describe("counts add up over lines", () => {
  /** The parts tokens.ts counts separately: cut after each newline followed by a non-space. */
  const parts = (s: string) => s.split(/(?<=\n)(?=\S)/);

  test("gpt-tokenizer's count of a text is the sum of its parts' counts", () => {
    run(
      fc.property(lines, (s) => {
        expect(parts(s).reduce((n, p) => n + reference(p), 0)).toBe(reference(s));
      }),
      3000,
    );
  });

  test("but not across a newline followed by white space (why the cut is only before a non-space)", () => {
    // "\n\n" is one token and "\n" + "\n" two: a cut at every newline would miscount blank lines.
    expect(reference("a\n\nb")).toBeLessThan(reference("a\n") + reference("\n") + reference("b"));
    expect(parts("a\n\nb")).toEqual(["a\n\n", "b"]);
  });

  test("countTokens is the reference count on text without long runs, cached or not", () => {
    run(
      fc.property(lines, (s) => {
        fc.pre(runCuts(s).length === 0);
        expect(countTokens(s)).toBe(reference(s));
        expect(countTokens(s)).toBe(reference(s)); // the second time from the cache
      }),
      1500,
    );
  });

  test("tokenLowerBound is never above countTokens, long runs (cut into segments) included, and is the piece count of plain words", () => {
    const runs = fc
      .tuple(fc.constantFrom("a", "7", " ", "-", "测"), fc.integer({ min: 200, max: 700 }))
      .map(([c, n]) => c.repeat(n));
    run(
      fc.property(
        fc.array(fc.oneof(lines, runs), { maxLength: 3 }).map((xs) => xs.join("")),
        (s) => {
          expect(tokenLowerBound(s)).toBeLessThanOrEqual(countTokens(s));
        },
      ),
      800,
    );
    // Where every piece is one token, the bound is the count itself: it is not a constant.
    expect(tokenLowerBound("- the fix: the auth\n")).toBe(countTokens("- the fix: the auth\n"));
    expect(tokenLowerBound("- the fix: the auth\n")).toBeGreaterThan(3);
  });

  test("countTokensWithin is exact up to the limit and above it past the limit", () => {
    run(
      fc.property(lines, fc.nat({ max: 60 }), (s, limit) => {
        const exact = reference(s);
        const within = countTokensWithin(s, limit);
        if (exact <= limit) expect(within).toBe(exact);
        else expect(within).toBeGreaterThan(limit);
      }),
      1500,
    );
  });

  test("the cache of counted lines keeps no text it was cut from alive (an import counts thousands of snapshots)", () => {
    // Each text's first line is cached; the megabyte after it is never counted (the limit stops
    // there). A cached line that shared its text's memory kept all 100 MB alive.
    Bun.gc(true);
    const before = heapStats();
    for (let i = 0; i < 100; i++)
      countTokensWithin(`line ${i} of a snapshot\n${String(i).repeat(1_000_000 / String(i).length)}\n`, 1);
    Bun.gc(true);
    const after = heapStats();
    expect(
      (after.heapSize + after.extraMemorySize - before.heapSize - before.extraMemorySize) / 1e6,
    ).toBeLessThan(30);
  });

  test("the cache of counted pieces keeps no text they were cut from alive, and counts as before once emptied", () => {
    const letters = (i: number) =>
      [...i.toString(26)].map((c) => String.fromCharCode(97 + parseInt(c, 26))).join("");
    // Each text's first word is one piece (cached; long enough to be a slice sharing its text's
    // memory, not a copy); the rest of the megabyte is never counted.
    Bun.gc(true);
    const before = heapStats();
    for (let i = 0; i < 100; i++) {
      const word = `${"piece".repeat(4)}${letters(i)}`;
      const big = `${word} ${String(i % 10).repeat(1_000_000)}`;
      // (indexOf makes the text one string: a slice of the parts a template joins could be a copy.)
      expect(countCl100k(big.slice(0, big.indexOf(" ")))).toBe(reference(word));
    }
    Bun.gc(true);
    const after = heapStats();
    expect(
      (after.heapSize + after.extraMemorySize - before.heapSize - before.extraMemorySize) / 1e6,
    ).toBeLessThan(30);
    // Past its bound (16,384 pieces) the cache is emptied: the counts stay gpt-tokenizer's.
    const many = Array.from({ length: 20_000 }, (_, i) => ` q${letters(i)}`).join("");
    expect(countCl100k(many)).toBe(reference(many));
    expect(countCl100k(many)).toBe(reference(many));
  });
});
