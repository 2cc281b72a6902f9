// Token counts stored with the text they count (issue 36; src/engine/snapshots/stored-tokens.ts): a
// snapshot's constraint and decision lines, a failure line's head. Each must equal a fresh count of
// its text whatever wrote the row (save, fail, import, a sync from a peer), the restore must take
// them instead of counting again, and a row without them (written before schema 9) must restore
// the same block. Expected counts come from gpt-tokenizer, never from MindSave's own counter.
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { countTokens as gptCount } from "gpt-tokenizer/encoding/cl100k_base";
import { ok, sql, twoLaptops } from "./helpers.ts";
import { fakeSecrets } from "./secrets.ts";
import { atPlace, fail, inClone, save, storeFixture, syncScene, inRepo } from "./engine-setup.ts";
import { exportSeed } from "../src/engine/formats/seed-export.ts";
import { countedFailureLine } from "../src/engine/snapshots/restore-failures.ts";
import { countTokens } from "../src/engine/snapshots/tokens.ts";
import { restore } from "../src/engine/snapshots/restore.ts";
import { requireProject } from "../src/engine/projects/resolve.ts";
import type { FailureRecord } from "../src/store/store.ts";

const count = (text: string) => gptCount(text, { allowedSpecial: "all" });
const githubToken = fakeSecrets(0x70c5).fakes.find((g) => g().kind === "github-pat")!;

const CONSTRAINTS = ["keep the public API stable", "只用 PostgreSQL 13 以上", "no ORM — raw SQL only."];
const DECISIONS = ["use zod at the edge", "日志写到 stderr"];
const FAILURES: [item: string, reason: string][] = [
  ["moment.js for dates", "bundle size doubled"],
  ["全局缓存", "内存泄漏了。"],
];

/** The counts a snapshot row and the failure rows of `db` hold, beside fresh counts of their lines. */
async function storedAndFresh(db: string) {
  const [snap] = await sql(db, "SELECT constraints, decisions, line_tokens FROM snapshots WHERE deleted = 0");
  const lines = (xs: string[]) => xs.map((x) => count(`- ${x}\n`));
  const failures = await sql(db, "SELECT item, reason, head_tokens FROM failures ORDER BY item");
  return {
    stored: {
      lines: JSON.parse(String(snap.line_tokens)),
      heads: failures.map((f) => f.head_tokens),
    },
    fresh: {
      lines: {
        constraints: lines(JSON.parse(String(snap.constraints))),
        decisions: lines(JSON.parse(String(snap.decisions))),
      },
      heads: failures.map((f) => count(`- ${f.item}: ${f.reason}`)),
    },
  };
}

describe("token counts stored with the text", () => {
  test("save, fail, import and a sync from a peer each store the counts a fresh count gives", async () => {
    const { a, b, base } = twoLaptops("mindsave-stored-tokens-");
    const at = inClone(a);
    await save(at, { goal: "g", state: "s", next: "n", constraint: CONSTRAINTS, decision: DECISIONS });
    for (const [item, reason] of FAILURES) await fail(at, item, reason, { alternatives: ["date-fns"] });
    const written = await storedAndFresh(a.db);
    expect(written.stored.lines.constraints).toHaveLength(CONSTRAINTS.length);
    expect(written.stored.heads).toHaveLength(FAILURES.length);
    expect(written.stored).toEqual(written.fresh);

    // A sync into laptop B's store: counted there as the rows come in, never taken from the peer
    // (whose counts are made wrong here: an older or a damaged store's).
    await sql(a.db, `UPDATE snapshots SET line_tokens = '{"constraints":[1,1,1],"decisions":[1,1]}'`);
    await sql(a.db, "UPDATE failures SET head_tokens = 1");
    await syncScene(inClone(b), a.home);
    const synced = await storedAndFresh(b.db);
    expect(synced.stored).toEqual(synced.fresh);

    // An import of an export into a third store.
    const out = join(base, "export");
    await atPlace(at, (s) => exportSeed(s, { out }));
    const home3 = join(base, "home-3");
    mkdirSync(home3);
    await ok(["import", out, "--home", home3], { cwd: a.repo, env: a.env });
    const imported = await storedAndFresh(join(home3, "mindsave.db"));
    expect(imported.stored).toEqual(imported.fresh);
  });

  test("scan --fix rewrites a constraint and a failure's reason: their stored counts no longer stand for them", async () => {
    const t = await withFailures();
    // Secrets written past redaction (as an older version stored them), each with its text's count.
    const secret = githubToken().secret;
    const constraints = [...CONSTRAINTS.slice(0, 2), `deploy with ${secret}`];
    await sql(t.db, "UPDATE snapshots SET constraints = ?, line_tokens = ?", [
      JSON.stringify(constraints),
      JSON.stringify({
        constraints: constraints.map((c) => count(`- ${c}\n`)),
        decisions: DECISIONS.map((d) => count(`- ${d}\n`)),
      }),
    ]);
    await sql(t.db, "UPDATE failures SET reason = ?, head_tokens = ? WHERE item = 'approach 0 方案'", [
      `token ${secret} leaked`,
      count(`- approach 0 方案: token ${secret} leaked`),
    ]);
    await ok(["scan", "--fix", "--home", t.home], { cwd: t.repo, env: t.pc.env });
    const [snap] = await sql(t.db, "SELECT constraints, line_tokens FROM snapshots WHERE deleted = 0");
    expect(String(snap.constraints)).not.toContain(secret);
    const [failure] = await sql(
      t.db,
      "SELECT reason, head_tokens FROM failures WHERE item = 'approach 0 方案'",
    );
    expect(String(failure.reason)).not.toContain(secret);
    // Null: counted at restore, as a row written before schema 9.
    expect(snap.line_tokens).toBeNull();
    expect(failure.head_tokens).toBeNull();
  });

  test("a failure line's count from its stored head is its exact count, odd heads and tags included", () => {
    const now = new Date("2026-11-28T12:00:00Z");
    const heads: [string, string][] = [
      ["eval in templates", "security review rejected it"],
      ["trailing dot", "it broke."],
      ["中文条目", "太慢了"],
      ["emoji", "rocket 🚀"],
      ["quote's", "can't, won't"],
      ["digits 12345", "took 9999"],
      ["trailing space", "it broke "],
      ["long", "word after word, ".repeat(20)],
    ];
    for (const [i, [item, reason]] of heads.entries()) {
      // (Items no other test counts: a line counted before would be known already, its stored count unused.)
      const unique = `${item} #${i} of the split check`;
      const f: FailureRecord = {
        id: `f${i}`,
        project_id: null,
        scope: i % 2 ? "global" : "project",
        item: unique,
        rejected_by: i % 3 ? "user" : "system",
        reason,
        confidence: "medium",
        schema_version: "1.0",
        first_seen: now.toISOString(),
        last_seen: now.toISOString(),
        repeat_count: 7 * i + 1,
        related: i % 2 ? ["related 项"] : [],
        alternatives: ["do it 另一种 way"],
        hlc: "",
        host: "",
        deleted: false,
        head_tokens: count(`- ${unique}: ${reason}`),
      };
      const line = countedFailureLine(f, now);
      expect(countTokens(`${line}\n`)).toBe(count(`${line}\n`));
    }
  });

  test("the restore takes a failure's stored head count: a wrong one changes what fits", async () => {
    const t = await withFailures();
    const shown = async () =>
      atPlace(inRepo(t), async (s) => {
        const r = await restore(s, await requireProject(s), undefined);
        if (r.kind !== "restored") throw new Error("nothing restored");
        return r.result.block.failures.length;
      });
    // Each head said to be 900 tokens: no failure line fits the 800-token block (they are ~15).
    await sql(t.db, "UPDATE failures SET head_tokens = 900");
    expect(await shown()).toBe(0);
  });

  test("rows without stored counts (written before schema 9) restore the same block, byte for byte", async () => {
    const t = await withFailures();
    // The block without its "(1s ago)": two runs a second apart restore the same block.
    const load = async () => {
      const r = await ok(["load", "--latest", "--home", t.home], { cwd: t.repo, env: t.pc.env });
      return r.stdout.replace(/\([^()]* ago\)/g, "(…)");
    };
    const withCounts = await load();
    expect(withCounts).toContain("Left out to stay within 800 tokens");
    await sql(t.db, "UPDATE snapshots SET line_tokens = NULL");
    await sql(t.db, "UPDATE failures SET head_tokens = NULL");
    expect(await load()).toBe(withCounts);
    // And the lines' stored counts are what the restore takes: said to be 900 tokens, none fits.
    await sql(
      t.db,
      `UPDATE snapshots SET line_tokens = '{"constraints":[900,900,900],"decisions":[900,900]}'`,
    );
    expect(await load()).toContain("2 decision(s), 3 constraint(s)");
  });
});

/** A project whose block is trimmed: 60 failures, constraints and decisions beside them. */
const withFailures = storeFixture("mindsave-stored-tokens-fit-", async (t) => {
  const at = inRepo(t);
  await save(at, { goal: "g", state: "s", next: "n", constraint: CONSTRAINTS, decision: DECISIONS });
  for (let i = 0; i < 60; i++)
    await fail(at, `approach ${i} 方案`, `it failed in way ${i}.`, { alternatives: [`plan ${i}`] });
});
