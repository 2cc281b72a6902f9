// The restore block ranks every failure a project sees on its light columns and reads the rest
// (text, counters, links) only for the ones it can show, page by page (issue 14): the block must
// be exactly the one every failure read in full gives.
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { childEnv, gitRepo, laptop, ok, okJson, tempDir } from "./helpers.ts";
import { Session } from "../src/engine/session.ts";
import { recordFailure } from "../src/engine/failures/record.ts";
import { buildRestoreBlock, restoreSnapshot } from "../src/engine/snapshots/restore.ts";
import { FIRST_PAGE } from "../src/engine/snapshots/restore-failures.ts";
import type { FailureObservation } from "../src/engine/failures/graph.ts";

const DAY = 24 * 60 * 60 * 1000;

function project() {
  const base = tempDir("mindsave-pages-");
  const repo = gitRepo(join(base, "shop"));
  const pc = laptop("pages-laptop", base);
  const home = join(base, "home");
  mkdirSync(home);
  const at = { cwd: repo, env: pc.env };
  /** Records failures through the engine, each last seen `daysAgo` before `now` (setup, not what is tested). */
  const fail = async (now: number, items: (FailureObservation & { daysAgo: number })[]) => {
    let clock = now;
    const session = await Session.open(
      { home, cwd: repo, env: childEnv(pc.env), now: () => new Date(clock) },
      { write: true },
    );
    try {
      for (const { daysAgo, ...o } of items) {
        clock = now - daysAgo * DAY;
        await recordFailure(session, o);
      }
    } finally {
      await session.close();
    }
  };
  return { repo, home, env: pc.env, at, fail };
}

/** The failure lines of a restore block, in order. */
function failureLines(block: string): string[] {
  const lines = block.split("\n");
  const from = lines.indexOf("failure graph (rejected approaches; do not retry):");
  if (from < 0) return [];
  const to = lines.findIndex((l, i) => i > from && !l.startsWith("- "));
  return lines.slice(from + 1, to);
}

describe("the restore block reads only the failures it can show", () => {
  test("the heaviest failures are shown whatever the store's own order (global, old, few repeats), and an unread one whose line reads the same as a shown one is listed too", async () => {
    const p = project();
    await ok(
      [
        "save",
        "--home",
        p.home,
        "--goal",
        "Ship the checkout",
        "--state",
        "cart done",
        "--next",
        "payment form",
      ],
      p.at,
    );
    const now = Date.now();
    // 120 light failures the store lists first (2 repeats) but that weigh little: stated low,
    // rejected by the system, seen 33 days ago (weight 1 × 2 × 0.5^(33/30) = 0.933).
    const noise = Array.from({ length: 120 }, (_, i) => ({
      item: `noise ${String(i).padStart(3, "0")}`,
      reason: "kept the old connection pool alive across deploys",
      rejected_by: "system",
      confidence: "low",
      scope: "project",
      atLeast: 2,
      daysAgo: 33,
    }));
    // The heavy ones, seen once, listed last by the store. Weight = (level + 1 + a person's
    // rejection) × (1 + log2 repeats) × 0.5^(days / half-life: project 30, global 90); shown aged.
    const heavy = [
      {
        item: "float math for prices",
        reason: "rounding errors in invoices",
        rejected_by: "user",
        confidence: "high",
        scope: "global",
        daysAgo: 45,
        alternatives: ["integer cents"],
      }, // 4 × 0.707 = 2.83
      {
        item: "threads for parsing",
        reason: "GC pauses got worse",
        rejected_by: "system",
        confidence: "high",
        scope: "project",
        daysAgo: 10,
        related: ["worker pool"],
      }, // 3 × 0.794 = 2.38
      {
        item: "cache: per request",
        reason: "stale reads",
        rejected_by: "user",
        confidence: "low",
        scope: "project",
        daysAgo: 0,
      }, // 2 × 1 = 2
      {
        item: "轮询数据库",
        reason: "把数据库拖垮了",
        rejected_by: "user",
        confidence: "low",
        scope: "project",
        daysAgo: 5,
      }, // 2 × 0.891 = 1.78
      {
        item: "regex HTML parser",
        reason: "breaks on nested tags",
        rejected_by: "user",
        confidence: "medium",
        scope: "global",
        daysAgo: 100,
      }, // 3 × 0.463 = 1.39, medium aged to low
      {
        item: "polling every 100 ms",
        reason: "hammers the database",
        rejected_by: "system",
        confidence: "low",
        scope: "project",
        daysAgo: 0,
      }, // 1 × 1 = 1, just above the noise
    ];
    const light = [
      {
        item: "deep cloning with JSON",
        reason: "loses dates",
        rejected_by: "system",
        scope: "global",
        daysAgo: 20,
      }, // derived low: 1 × 0.857, below the noise
      // Reads exactly as the third heavy line ("- cache: per request: stale reads [user, ×1, low, project]")
      // but weighs 2 × 0.5^(89/30) = 0.26: ranked 128th, far past the first page read.
      {
        item: "cache",
        reason: "per request: stale reads",
        rejected_by: "user",
        confidence: "low",
        scope: "project",
        daysAgo: 89,
      },
    ];
    await p.fail(now, [...noise, ...heavy, ...light]);

    const r = await okJson(["load", "--latest", "--home", p.home], p.at);
    const shown = failureLines(r.restore_block);
    const line = (
      f: { item: string; reason: string; rejected_by: string; scope: string },
      count: number,
      confidence: string,
      tail = "",
    ) => `- ${f.item}: ${f.reason} [${f.rejected_by}, ×${count}, ${confidence}, ${f.scope}]${tail}`;
    const expected = [
      line(heavy[0], 1, "high", " → instead: integer cents"),
      line(heavy[1], 1, "high", " (related: worker pool)"),
      line(heavy[2], 1, "low"),
      line(heavy[3], 1, "low"),
      line(heavy[4], 1, "low"),
      line(heavy[5], 1, "low"),
      ...noise.map((f) => line(f, 2, "low")),
    ];
    expect(shown.length).toBeGreaterThan(heavy.length + 2);
    expect(shown.length).toBeLessThan(FIRST_PAGE);
    expect(shown).toEqual(expected.slice(0, shown.length));
    expect(r.tokens).toBeLessThanOrEqual(800);
    expect(r.omitted.failures).toBe(noise.length + heavy.length + light.length - shown.length);
    expect(r.restore_block).toContain(
      `(Left out to stay within 800 tokens: ${r.omitted.failures} failure(s).`,
    );
    // The failures listed are the ones whose lines were kept: the unread twin of the third line too.
    expect(r.failures.map((f: { item: string }) => f.item)).toEqual([
      ...[...heavy, ...noise].slice(0, shown.length).map((f) => f.item),
      "cache",
    ]);
    expect(r.failures[0]).toMatchObject({
      item: "float math for prices",
      scope: "global",
      repeat_count: 1,
      alternatives: ["integer cents"],
      related: [],
    });
  });

  test("around the first page's size, and with lines as short as they come, the block is the one every failure read in full gives", async () => {
    const p = project();
    await ok(
      [
        "save",
        "--home",
        p.home,
        "--goal",
        "Short lines",
        "--state",
        "many failures",
        "--next",
        "load",
        "--decision",
        "keep it small",
      ],
      p.at,
    );
    const now = Date.now();
    const observation = (i: number) => ({
      item: `f${i}`,
      reason: "r",
      rejected_by: i % 2 ? "user" : "system",
      scope: i % 4 ? "project" : "global",
      confidence: ["low", "medium", "high", undefined][i % 4],
      daysAgo: (i * 37) % 200,
      increment: true,
    });
    let recorded = 0;
    for (const size of [0, 1, FIRST_PAGE - 1, FIRST_PAGE, FIRST_PAGE + 1, 2 * FIRST_PAGE + 1]) {
      await p.fail(
        now,
        Array.from({ length: size - recorded }, (_, k) => observation(recorded + k)),
      );
      recorded = size;
      const at = new Date(now + DAY);
      const session = await Session.open({ home: p.home, cwd: p.repo, env: childEnv(p.env), now: () => at });
      try {
        const paged = await restoreSnapshot(session, undefined, { howToSave: "save" });
        const all = await session.store.listFailures(paged.snapshot.project_id);
        expect(all).toHaveLength(size);
        const whole = await buildRestoreBlock(paged.snapshot, {
          root: paged.context.root,
          savedOn: null,
          failures: all,
          rules: [],
          facts: [],
          now: at,
          resume: true,
        });
        expect(paged.block).toEqual(whole);
        if (size > 0) expect(failureLines(paged.block.text).length).toBeGreaterThan(0);
      } finally {
        await session.close();
      }
    }
  });

  test("more failures than the first page that all fit are all shown, none left out", async () => {
    const p = project();
    await ok(["save", "--home", p.home, "--goal", "g", "--state", "s", "--next", "n"], p.at);
    const now = Date.now();
    // The shortest lines there are ("- a: x [user, ×1, low, project]", 14 tokens): 49 of them fit.
    const letters = "abcdefghijklmnopqrstuvwxyz".split("");
    const items = [
      ...letters.map((item) => ({ item, scope: "project" })),
      ...letters.map((item) => ({ item, scope: "global" })),
    ].slice(0, FIRST_PAGE + 1);
    await p.fail(
      now,
      items.map((f) => ({ ...f, reason: "x", rejected_by: "user", confidence: "low", daysAgo: 0 })),
    );
    const at = new Date(now + DAY);
    const session = await Session.open({ home: p.home, cwd: p.repo, env: childEnv(p.env), now: () => at });
    try {
      const paged = await restoreSnapshot(session, undefined, { howToSave: "save" });
      const all = await session.store.listFailures(paged.snapshot.project_id);
      const whole = await buildRestoreBlock(paged.snapshot, {
        root: paged.context.root,
        savedOn: null,
        failures: all,
        rules: [],
        facts: [],
        now: at,
        resume: true,
      });
      expect(paged.block).toEqual(whole);
      expect(paged.block.omitted.failures).toBe(0);
      expect(failureLines(paged.block.text)).toHaveLength(FIRST_PAGE + 1);
      expect(paged.block.tokens).toBeLessThanOrEqual(800);
    } finally {
      await session.close();
    }
  });
});
