// Recall within a project walks the project's snapshots newest first and stops at the limit
// (issue 14): its hits must be exactly the newest matching ones, whatever order the snapshots were
// written in (imports and syncs write old snapshots late), for long and short terms, tags and every
// project. The reference here reads the rows with plain SQL and filters them in JS.
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { childEnv, gitRepo, laptop, sql, tempDir } from "./helpers.ts";
import { Session } from "../src/engine/session.ts";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { fromFields } from "../src/engine/snapshots/input.ts";
import { search } from "../src/engine/snapshots/recall.ts";

// Words only the Layer 3 bodies hold: "common" in most snapshots, "rare" in a few, "xq" short.
const WORDS = ["common", "common", "common", "rare", "xq", "mixedword"];
const DAY = 24 * 60 * 60 * 1000;

describe("recall in a project", () => {
  test("the hits are the newest matching snapshots of the project, in order, for any write order", async () => {
    const base = tempDir("mindsave-recall-order-");
    const pc = laptop("recall-laptop", base);
    const home = join(base, "home");
    mkdirSync(home);
    const repos = [gitRepo(join(base, "shop")), gitRepo(join(base, "blog"))];
    // Seeded: 70 snapshots spread over two projects, written in a shuffled time order.
    const plan = fc.sample(
      fc.record({
        repo: fc.integer({ min: 0, max: 1 }),
        day: fc.integer({ min: 0, max: 400 }),
        words: fc.subarray(WORDS, { minLength: 0, maxLength: 4 }),
        tag: fc.constantFrom("alpha", "beta"),
      }),
      { seed: 14, numRuns: 70 },
    );
    const start = Date.UTC(2025, 0, 1);
    for (const [r, repo] of repos.entries()) {
      const session = await Session.open({ home, cwd: repo, env: childEnv(pc.env) }, { write: true });
      try {
        for (const [i, p] of plan.entries()) {
          if (p.repo !== r) continue;
          const body = `## Notes\nentry ${i}: ${p.words.map((w) => (i % 2 ? w.toUpperCase() : w)).join(" and ")}\n`;
          await saveSnapshot(session, {
            input: fromFields(
              { goal: `task ${i}`, state: "working", next_action: "go on", tags: [p.tag] },
              body,
            ),
            createdAt: new Date(start + p.day * DAY + i * 1000),
            noRetention: true,
          });
        }
      } finally {
        await session.close();
      }
    }

    const db = join(home, "mindsave.db");
    // Every third snapshot archived (as retention would): the picker's search with archived hidden leaves them out.
    const all = (await sql(db, "SELECT id FROM snapshots WHERE deleted = 0 ORDER BY id")).map((r) =>
      String(r.id),
    );
    const archiver = await Session.open({ home, cwd: repos[0], env: childEnv(pc.env) }, { write: true });
    await archiver.write((w) => w.archiveSnapshots(all.filter((_, i) => i % 3 === 0)));
    await archiver.close();
    const listedIds = new Set(
      (await sql(db, "SELECT snapshot_id FROM listed_snapshots")).map((r) => String(r.snapshot_id)),
    );
    expect(listedIds.size).toBe(all.length - Math.ceil(all.length / 3));
    const rows = (
      await sql(db, "SELECT id, project_id, created_at, layer3, tags FROM snapshots WHERE deleted = 0")
    ).map((r) => ({
      id: String(r.id),
      project_id: String(r.project_id),
      created_at: String(r.created_at),
      layer3: String(r.layer3),
      tags: JSON.parse(String(r.tags)) as string[],
    }));
    const projects = [...new Set(rows.map((r) => r.project_id))];
    expect(projects).toHaveLength(2);
    const expected = (
      projectId: string | null,
      terms: string[],
      limit: number,
      tag?: string,
      listed = false,
    ) =>
      rows
        .filter((r) => projectId === null || r.project_id === projectId)
        .filter((r) => !listed || listedIds.has(r.id))
        .filter((r) => terms.every((t) => r.layer3.toLowerCase().includes(t.toLowerCase())))
        .filter((r) => tag === undefined || r.tags.includes(tag))
        .sort((a, b) =>
          a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1,
        )
        .slice(0, limit)
        .map((r) => r.id);

    const session = await Session.open({ home, cwd: repos[0], env: childEnv(pc.env) });
    try {
      const cases: [string[], number, string?][] = [
        [["common"], 5],
        [["common"], 50],
        [["rare"], 5],
        [["xq"], 5],
        [["common", "xq"], 5],
        [["rare", "xq", "mixedword"], 50],
        [["common"], 5, "beta"],
        [["xq"], 50, "alpha"],
        [["nothing-like-it"], 5],
        // In every snapshot: each end of the newest snapshots' rowids is a hit.
        [["entry"], 5],
        [["entry"], 50],
      ];
      let nonEmpty = 0;
      for (const projectId of [...projects, null]) {
        for (const [terms, limit, tag] of cases)
          for (const listed of [false, true]) {
            const want = expected(projectId, terms, limit, tag, listed);
            const hits = (await search(session, projectId, terms, limit, { tag, listed })).hits;
            expect({ projectId, terms, tag, listed, got: hits.map((h) => h.id) }).toEqual({
              projectId,
              terms,
              tag,
              listed,
              got: want,
            });
            expect(hits.map((h) => h.archived)).toEqual(hits.map((h) => !listedIds.has(h.id)));
            // Every way of searching a project: walking its index (any match counts as many), and
            // joining the matches (no number of them does); the store picks one by the number of
            // matches. The listed ones: each matched alone, or against the set of matches (any
            // number of listed snapshots counts as many), picked by how many the project lists.
            // The project's `recent` newest are searched first: none (0), its 8 newest (enough hits
            // for some cases, too few for others, which then search by the matches), all; their
            // rowids in one range, or (rangeGap 0) in as many as the ranges allow, each a query.
            const max = Number.MAX_SAFE_INTEGER;
            for (const [manyMatches, manyListed, recent, rangeGap] of [
              [0, max, 0, undefined],
              [0, max, 8, undefined],
              [0, max, max, undefined],
              [0, max, 8, 0],
              [0, max, max, 0],
              [0, 0, 0, undefined],
              [max, max, 0, undefined],
              [max, max, 8, undefined],
            ]) {
              const way = (
                await session.store.searchSnapshots(projectId, terms, limit, {
                  tag,
                  listed,
                  manyMatches,
                  manyListed,
                  recent,
                  rangeGap,
                })
              ).map((h) => h.id);
              // The case beside its rows, so a failure names the way that differs.
              const c = { projectId, terms, tag, listed, manyMatches, manyListed, recent, rangeGap };
              expect({ ...c, way }).toEqual({ ...c, way: want });
            }
            if (want.length) nonEmpty++;
          }
      }
      expect(nonEmpty).toBeGreaterThan(15);
    } finally {
      await session.close();
    }
  });
});

describe("the rowid ranges of a project's newest snapshots", () => {
  test("one range per run of near rowids; past the most ranges, the narrowest gaps close first", async () => {
    const { rowidRanges } = await import("../src/store/search.ts");
    // Near rowids (gaps up to 512) share a range; another project's thousands between split one.
    expect(rowidRanges([100_003, 5, 1, 3, 517, 100_001, 2, 1_030])).toEqual([
      [1, 517],
      [1_030, 1_030],
      [100_001, 100_003],
    ]);
    expect(rowidRanges([10, 1, 30], 0)).toEqual([
      [1, 1],
      [10, 10],
      [30, 30],
    ]);
    // Twelve far apart: eight ranges hold them all, the narrowest gaps (10,000, not 19,000) closed first.
    const far = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(
      (i) => 10_000 * i + (i >= 8 ? 9_000 * (i - 7) : 0),
    );
    const ranges = rowidRanges(far);
    expect(ranges).toHaveLength(8);
    expect(far.every((id) => ranges.some(([low, high]) => low <= id && id <= high))).toBe(true);
    expect(ranges.slice(0, 4)).toEqual([
      [0, 40_000],
      [50_000, 50_000],
      [60_000, 60_000],
      [70_000, 70_000],
    ]);
  });
});
