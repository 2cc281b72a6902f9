// The restore block's failures ranked by an index (src/store/failure-ranks.ts): the first n the
// store's candidates give, ordered, are the first n of every failure ranked whole (sortFailures over
// listFailures, the ranking as it was), whatever the repeats, confidence, scope, person, recency,
// odd times, forgotten counters and tombstones, and at any "now". Real store files, written through
// the store's writer; the oracle reads every failure.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Store } from "../src/store/store.ts";
import { sortFailures } from "../src/engine/failures/graph.ts";
import { gitRepo, laptop, ok, sql, tempDir } from "./helpers.ts";
import { backToSchema } from "./old-schemas.ts";

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse("2026-11-20T12:00:00.000Z");

/** A small seeded generator, so a failing case can be run again. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

/** A time `days` before NOW in one of the forms a store may hold (an import keeps what it read). */
function seenAt(r: () => number, days: number, odd: boolean): string {
  const t = new Date(NOW - days * DAY);
  const form = odd ? r() : 0;
  if (form < 0.85) return t.toISOString();
  if (form < 0.9) return t.toISOString().slice(0, 10);
  if (form < 0.94) return t.toISOString().replace("Z", "+02:00");
  if (form < 0.97) return t.toISOString().replace("T", " ").replace("Z", "");
  return "not a time";
}

/** Days before NOW: most within a year, some within the 7 days, a few ahead of NOW, many the same. */
function daysAgo(r: () => number): number {
  const k = r();
  if (k < 0.15) return r() * 7;
  if (k < 0.2) return -r() * 3;
  if (k < 0.3) return 30; // ties on time
  return Math.floor(r() * 400 * 100) / 100;
}

async function buildStore(
  seed: number,
  count: number,
  odd = true,
): Promise<{ store: Store; projects: string[] }> {
  const store = await Store.open(join(tempDir(), "ranks.db"));
  const r = random(seed);
  const projects = ["p-one", "p-two"];
  await store.write("host-a", async (w) => {
    for (let i = 0; i < count; i++) {
      const scope = r() < 0.3 ? "global" : "project";
      const id = `f-${seed}-${i}`;
      const seen = seenAt(r, daysAgo(r), odd);
      await w.upsertFailure({
        id,
        // A few global failures kept under a project (as an old sync could leave them).
        project_id: scope === "global" && r() > 0.05 ? null : pick(r, projects),
        scope,
        item: r() < 0.1 ? "same item" : `item ${i % 97}`,
        rejected_by: r() < 0.5 ? "user" : "system",
        reason: "r",
        confidence: pick(r, [null, null, null, "low", "medium", "high", odd ? "odd" : null]),
        schema_version: "1.0",
        first_seen: seen,
        last_seen: seen,
      });
      const counts: Record<string, number> = { "host-a": 1 + Math.floor(r() * 4) };
      if (r() < 0.4) counts["host-b"] = Math.floor(r() * 6);
      await w.mergeFailureCounts(id, counts);
      if (r() < 0.05) await w.putFailureLink(`l-${id}`, id, "forgotten", JSON.stringify({ "host-a": 2 }));
      if (r() < 0.05) await w.tombstoneFailure(id);
    }
  });
  return { store, projects };
}

async function firstN(store: Store, projectId: string | null, n: number, now: number) {
  const candidates = await store.failureCandidates(projectId, n, now);
  return {
    candidates,
    ids: sortFailures(candidates, new Date(now))
      .slice(0, n)
      .map((f) => f.id),
  };
}

describe("failures ranked by the index", () => {
  test("the first n are the whole ranking's first n, for projects, the global graph and several moments", async () => {
    for (const seed of [1, 2, 3]) {
      const { store, projects } = await buildStore(seed, 400);
      try {
        for (const now of [NOW, NOW + 3 * DAY, NOW + 45 * DAY, NOW - 10 * DAY]) {
          for (const projectId of [...projects, null]) {
            const all = sortFailures(await store.listFailures(projectId), new Date(now));
            expect(await store.rankedFailureCount(projectId)).toBe(all.length);
            for (const n of [1, 5, 48, 100, all.length + 5]) {
              const { ids } = await firstN(store, projectId, n, now);
              expect({ seed, now, projectId, n, ids }).toEqual({
                seed,
                now,
                projectId,
                n,
                ids: all.slice(0, n).map((f) => f.id),
              });
            }
          }
        }
      } finally {
        store.close();
      }
    }
  });

  test("worked by hand: an unstated confidence is medium within 7 days, and a sighting after now has not aged", async () => {
    const store = await Store.open(join(tempDir(), "by-hand.db"));
    // System rejections seen once; weights at NOW (confidence level × 0.5 per 30 days):
    // R unstated, 6 days ago: medium 2 × 0.871 = 1.74; M medium, 20 days ago: 2 × 0.630 = 1.26;
    // F low, 5 days after NOW: 1 (no ageing yet); L low, 1 day ago: 0.977.
    const failures = [
      ["R", null, -6],
      ["M", "medium", -20],
      ["F", "low", 5],
      ["L", "low", -1],
    ] as const;
    try {
      await store.write("h", async (w) => {
        for (const [id, confidence, days] of failures) {
          const seen = new Date(NOW + days * DAY).toISOString();
          await w.upsertFailure({
            ...{ id, project_id: "p", scope: "project", item: id, rejected_by: "system", reason: "r" },
            ...{ confidence, schema_version: "1.0", first_seen: seen, last_seen: seen },
          });
          await w.setFailureCount(id, 1);
        }
      });
      const orders = async (now: number) =>
        Promise.all([1, 2, 3, 4].map(async (n) => (await firstN(store, "p", n, now)).ids.join("")));
      expect(await orders(NOW)).toEqual(["R", "RM", "RMF", "RMFL"]);
      // Two days on, R is 8 days old: low, 1 × 0.831; M 1.20, F 1, L 0.933.
      expect(await orders(NOW + 2 * DAY)).toEqual(["M", "MF", "MFL", "MFLR"]);
    } finally {
      store.close();
    }
  });

  test("a few candidates, not every failure: those a key may misorder now, and each order's top", async () => {
    const { store, projects } = await buildStore(4, 600, false);
    try {
      const all = await store.listFailures(projects[0]);
      const { candidates } = await firstN(store, projects[0], 5, NOW);
      expect(all.length).toBeGreaterThan(250);
      expect(candidates.length).toBeLessThan(all.length / 3);
    } finally {
      store.close();
    }
  });

  test("the failures with an item a kept line may start with, but those the block read (their repeats not summed again)", async () => {
    const { store, projects } = await buildStore(4, 300);
    try {
      for (const projectId of [...projects, null]) {
        const all = await store.listFailures(projectId);
        const items = ["same item", "item 3", "item 40"];
        const read = all.filter((f, i) => items.includes(f.item) && i % 2 === 0).map((f) => f.id);
        const expected = all
          .filter((f) => items.includes(f.item) && !read.includes(f.id))
          .map((f) => [f.id, f.repeat_count]);
        const found = await store.failuresWithItems(projectId, items, read);
        expect(found.map((f) => [f.id, f.repeat_count]).sort()).toEqual(expected.sort());
        expect(read.length).toBeGreaterThan(2);
      }
    } finally {
      store.close();
    }
  });

  test("a change to a failure's repeats or its record in any write re-keys it", async () => {
    const path = join(tempDir(), "rekey.db");
    const store = await Store.open(path);
    const row = (id: string, confidence: string | null) => ({
      id,
      project_id: "p",
      scope: "project" as const,
      item: id,
      rejected_by: "system",
      reason: "r",
      confidence,
      schema_version: "1.0",
      first_seen: "2026-01-01T00:00:00.000Z",
      last_seen: "2026-01-01T00:00:00.000Z",
    });
    const top = async () => (await firstN(store, "p", 1, NOW)).ids;
    try {
      await store.write("h", async (w) => {
        await w.upsertFailure(row("a", "medium"));
        await w.setFailureCount("a", 1);
        await w.upsertFailure(row("b", "low"));
        await w.setFailureCount("b", 1);
      });
      expect(await top()).toEqual(["a"]);
      // b repeated: ×16 outweighs a's medium.
      await store.write("h", (w) => w.setFailureCount("b", 16));
      expect(await top()).toEqual(["b"]);
      // a's confidence stated high, and b's repeats forgotten.
      await store.write("h", async (w) => {
        await w.upsertFailure(row("a", "high"));
        await w.putFailureLink("l-b", "b", "forgotten", JSON.stringify(await w.failureCounts("b")));
      });
      expect(await top()).toEqual(["a"]);
      const keys = await sql(
        path,
        "SELECT failure_id, stale, rank_key IS NOT NULL AS keyed FROM failure_ranks",
      );
      expect(keys.map((k) => [k.failure_id, Number(k.stale), Number(k.keyed)]).sort()).toEqual([
        ["a", 0, 1],
        ["b", 0, 1],
      ]);
    } finally {
      store.close();
    }
  });

  test("the upgrade lists every live failure without a key; they are candidates until the next write keys them", async () => {
    const { store, projects } = await buildStore(5, 200, false);
    const path = store.path;
    store.close();
    await backToSchema(path, 5);
    const upgraded = await Store.open(path);
    try {
      const live = await sql(path, "SELECT count(*) AS n FROM failures WHERE deleted = 0");
      const ranks = await sql(path, "SELECT count(*) AS n, sum(stale) AS stale FROM failure_ranks");
      expect([Number(ranks[0].n), Number(ranks[0].stale)]).toEqual([Number(live[0].n), Number(live[0].n)]);
      const all = sortFailures(await upgraded.listFailures(projects[1]), new Date(NOW));
      expect((await firstN(upgraded, projects[1], 5, NOW)).ids).toEqual(all.slice(0, 5).map((f) => f.id));
      await upgraded.write("h", async () => {});
      expect(Number((await sql(path, "SELECT sum(stale) AS s FROM failure_ranks"))[0].s)).toBe(0);
      expect((await firstN(upgraded, projects[1], 5, NOW)).ids).toEqual(all.slice(0, 5).map((f) => f.id));
    } finally {
      upgraded.close();
    }
  });

  test("failures a sync brings in are keyed in the sync's own transaction (the keys are never synced)", async () => {
    const a = laptop("rank-sync-a");
    const b = laptop("rank-sync-b");
    const repo = gitRepo(join(tempDir(), "repo"));
    for (const item of ["use redis", "use 缓存 redis", "vendor the SDK"])
      await ok(["fail", item, "--reason", "too slow"], { cwd: repo, env: a.env });
    await ok(["fail", "global habit", "--reason", "r", "--scope", "global"], { cwd: repo, env: a.env });
    await ok(["fail", "use redis"], { cwd: repo, env: a.env });
    const aDb = join(a.home, ".mindsave", "mindsave.db");
    const bDb = join(b.home, ".mindsave", "mindsave.db");
    await ok(["sync", aDb], { cwd: repo, env: b.env });
    const keys = async (db: string) =>
      (
        await sql(
          db,
          "SELECT failure_id, rank_key, rough_until, stale FROM failure_ranks ORDER BY failure_id",
        )
      ).map((r) => [r.failure_id, r.rank_key, r.rough_until, Number(r.stale)]);
    const onB = await keys(bDb);
    expect(onB.length).toBe(4);
    expect(onB.every((k) => k[1] !== null && k[3] === 0)).toBe(true);
    // The same rows give the same keys on both stores.
    expect(onB).toEqual(await keys(aDb));
  });
});
