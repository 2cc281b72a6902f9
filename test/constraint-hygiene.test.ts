// Constraint hygiene on every save: near duplicates folded into their first wording, contradictions
// flagged (both kept as written) by generic polarity for any object, in English and Chinese; the
// legacy excluded_paths parser on the spec's own examples; and the whole path through the real CLI.
//
// The contradiction rule under test: one constraint rejects an object ("don't/never/avoid/no X",
// 不要/别/禁止/避免/不用X, the Y of "use X instead of Y"), another prefers one ("use/prefer/always X",
// 用/使用/优先X), and every content word of the rejected object (function words dropped, plurals
// folded; Chinese compared as substrings) is in the preferred one. A rejection narrower than the
// preference ("don't use Redis for sessions" next to "use Redis") is an exception, and two different
// scopes ("use tabs in Makefiles" / "never use tabs in TypeScript") are two rules: neither is flagged.
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  constraintHygiene,
  constraintKey,
  foldDuplicates,
} from "../src/engine/snapshots/constraint-hygiene.ts";
import { ConstraintCompressor } from "../src/engine/snapshots/compressor.ts";
import { legacyExcludedPath } from "../src/engine/snapshots/legacy-failures.ts";
import { buildRestoreBlock } from "../src/engine/snapshots/restore.ts";
import type { SnapshotRecord } from "../src/store/store.ts";
import { gitRepo, laptop, ok, okJson, tempDir } from "./helpers.ts";

describe("duplicates", () => {
  test("case, spacing, punctuation, a trailing period and contractions fold into the first wording", () => {
    const r = foldDuplicates([
      "No new dependencies.",
      "no new dependencies",
      "  NO NEW   DEPENDENCIES!  ",
      "no new dependencies;",
      "don't use Redis",
      "Do not use Redis",
      "do  not use redis.",
      "dont use redis",
      "can't touch the schema",
      "cannot touch the schema",
      "Can not touch the schema",
      "不要用 Redis。",
      "不要使用Redis",
      "use `any` sparingly",
      "use any sparingly",
      "utility-first CSS",
      "utility first css",
      "",
      "   ",
    ]);
    expect(r.kept).toEqual([
      "No new dependencies.",
      "don't use Redis",
      "can't touch the schema",
      "不要用 Redis。",
      "use `any` sparingly",
      "utility-first CSS",
    ]);
    expect(r.folded).toHaveLength(11);
    expect(r.folded[0]).toEqual({ kept: "No new dependencies.", dropped: "no new dependencies" });
  });

  test("what differs in meaning is not folded", () => {
    const distinct = [
      "use C++",
      "use C#",
      "use C",
      "use node.js",
      "use nodejs",
      "never use Redis",
      "don't use Redis",
      "use Redis",
      "use shadcn/ui",
      "use shadcn ui v2",
      // A symbol can be the whole meaning.
      "pin lodash to ^4.17",
      "pin lodash to ~4.17",
      "env var is API_URL",
      "env var is api-url",
      "compare with ===",
      "compare with !==",
      "x² term stays",
      "x2 term stays",
      "no",
      '"no"',
      "x > y",
      "x < y",
      "- x",
      ": x",
      "x",
    ];
    expect(foldDuplicates(distinct).kept).toEqual(distinct);
    expect(new Set(distinct.map(constraintKey)).size).toBe(distinct.length);
  });

  test("the compressor folds with the same key", () => {
    const r = new ConstraintCompressor()
      .addConstraints(["Keep commits small.", "keep commits small", "Don't log tokens", "do not log tokens"])
      .compress();
    expect(r.constraints).toEqual(["Keep commits small.", "Don't log tokens"]);
    expect(r.dropped_duplicates).toBe(2);
  });
});

describe("contradictions", () => {
  // [rejecting, preferring, subject]: most are objects the rule table does not know.
  const CONTRADICTIONS: [string, string, string][] = [
    ["don't use Redis", "use Redis for sessions", "redis"],
    ["never use tabs", "prefer tabs", "tabs"],
    ["no semicolons", "always use semicolons", "semicolons"],
    ["avoid lodash", "use lodash for deep clones", "lodash"],
    ["do not use default exports", "use default exports", "default exports"],
    ["never run migrations by hand", "always run migrations by hand", "run migrations by hand"],
    ["moment.js is banned", "use moment.js for dates", "moment.js"],
    ["we should never use var", "always use var in legacy scripts", "var"],
    ["don't use any", "use any in test mocks", "any"],
    ["prefer Vitest over Jest", "use Jest for snapshot tests", "jest"],
    ["不要用Redis", "用Redis存会话", "redis"],
    ["禁止使用全局变量", "优先使用全局变量", "全局变量"],
    ["避免使用递归", "使用递归遍历目录", "递归"],
    ["别用jQuery", "use jQuery", "jquery"],
    ["不用Docker", "使用Docker部署", "docker"],
    ["不要用Redux做状态管理", "使用Redux做状态管理", "redux做状态管理"],
  ];

  for (const [rejecting, preferring, subject] of CONTRADICTIONS) {
    test(`${rejecting} ↔ ${preferring}`, () => {
      for (const texts of [
        [rejecting, preferring],
        [preferring, rejecting],
      ]) {
        const r = constraintHygiene(texts);
        expect(r.constraints).toEqual(texts);
        expect(r.conflicts).toEqual([
          { category: "general", subject, rejected_by: rejecting, preferred_by: preferring },
        ]);
      }
    });
  }

  test("subjects the rule table knows compare through their labels, across languages", () => {
    expect(constraintHygiene(["No Tailwind", "使用Tailwind"]).conflicts).toEqual([
      {
        category: "theme_system",
        subject: "Tailwind",
        rejected_by: "No Tailwind",
        preferred_by: "使用Tailwind",
      },
    ]);
    expect(constraintHygiene(["use JWT instead of sessions", "use sessions"]).conflicts).toEqual([
      {
        category: "session_management",
        subject: "session",
        rejected_by: "use JWT instead of sessions",
        preferred_by: "use sessions",
      },
    ]);
    expect(constraintHygiene(["Do not use GraphQL", "prefer GraphQL"]).conflicts).toHaveLength(1);
  });

  const NOT_CONTRADICTIONS: [string, string][] = [
    ["use tabs in Makefiles", "never use tabs in TypeScript"], // two scopes
    ["use Redis", "don't use Redis for sessions"], // a narrower exception
    ["use Redis for caching", "don't use Redis for sessions"],
    ["use Tailwind", "no Tailwind in the admin panel"], // the same, for a table subject
    ["use Postgres", "don't use MySQL"],
    ["always run tests", "never skip tests"],
    ["no new dependencies", "use the existing dependencies"],
    ["don't use Redis", "use Postgres instead of Redis"], // both reject Redis
    ["prefer Postgres over MySQL", "use Postgres"],
    ["never force-push main", "force-push feature branches when needed"], // no polarity word
    ["don't use var", "use variables with clear names"], // words, not substrings
    ["no console.log", "use console.error for failures"],
    ["Use Tailwind for the admin, no Tailwind elsewhere", "use Tailwind in the admin"],
    ["用Redis做缓存", "不要用Redis做会话"],
    ["使用TypeScript", "不要使用JavaScript"],
    ["不要用Redux", "用Zustand代替Redux"],
    ["use mocks in unit tests", "不要在集成测试里用mock"],
    ["用户名必须唯一", "不要用户名做主键"], // 用户 is not 用
    ["use REST", "don't restore old snapshots"],
  ];

  for (const pair of NOT_CONTRADICTIONS) {
    test(`not flagged: ${pair[0]} / ${pair[1]}`, () => {
      const r = constraintHygiene(pair);
      expect(r.conflicts).toEqual([]);
      expect(r.constraints).toEqual(pair);
    });
  }

  test("nothing is dropped: both sides stay as written, in order, and each pair is reported once", () => {
    const texts = [
      "don't use Redis",
      "Keep commits small",
      "use Redis for sessions",
      "always use Redis",
      "Don't use Redis.",
    ];
    const r = constraintHygiene(texts);
    expect(r.constraints).toEqual(texts.slice(0, 4));
    expect(r.conflicts.map((c) => [c.rejected_by, c.preferred_by])).toEqual([
      ["don't use Redis", "use Redis for sessions"],
      ["don't use Redis", "always use Redis"],
    ]);
  });

  test("the compressor keeps both sides of a generic contradiction verbatim and reports it", () => {
    const r = new ConstraintCompressor()
      .addConstraints(["no tailwind", "don't use Redis", "use Redis for sessions"])
      .compress();
    expect(r.conflicts).toEqual([
      {
        category: "general",
        subject: "redis",
        rejected_by: "don't use Redis",
        preferred_by: "use Redis for sessions",
      },
    ]);
    expect(r.constraints).toEqual(["don't use Redis", "use Redis for sessions"]);
    expect(r.symbolic.theme_system.rejected).toEqual(["Tailwind"]);
  });
});

describe("the restore block marks a contradiction within its budget", () => {
  const record = (constraints: string[], compressed: Record<string, unknown> | null): SnapshotRecord =>
    ({
      id: "s1",
      project_id: "p1",
      name: "redis_2026-11-23",
      topic: "redis",
      kind: "full",
      status: "in_progress",
      created_at: "2026-11-23T10:00:00.000Z",
      version: "3.5",
      goal: "pick a session store",
      state: "comparing",
      next_action: "ask",
      blocker: "none",
      active_files: [],
      constraints,
      decisions: [],
      failure_graph: {},
      compressed,
      layer3: "",
      auto_trigger: null,
      extra: null,
      l1_tokens: 0,
      l2_tokens: 0,
      saved_host: "h1",
      saved_root: null,
      hlc: "0",
      host: "h1",
      deleted: false,
    }) as unknown as SnapshotRecord;
  const constraints = [
    "don't use Redis",
    "use Redis for sessions",
    ...Array.from({ length: 6 }, (_, i) => `keep module ${i} free of side effects in its public functions`),
  ];
  const { conflicts } = constraintHygiene(constraints);
  const mark = `- ⚠ contradicts: "don't use Redis" ↔ "use Redis for sessions" — ask the user which holds`;
  const ctx = { root: null, savedOn: null, failures: [], now: new Date("2026-11-23T11:00:00Z") };

  test("the mark follows the pair, once", async () => {
    const block = await buildRestoreBlock(record(constraints, { conflicts }), ctx);
    expect(block.text).toContain(
      `constraints:\n- don't use Redis\n- use Redis for sessions\n${mark}\n- keep module 0`,
    );
    expect(block.text.split(mark)).toHaveLength(2);
    // No conflicts stored, no mark.
    expect((await buildRestoreBlock(record(constraints, null), ctx)).text).not.toContain("contradicts");
  });

  test("trimmed for the budget, the mark goes before either side of its pair, and is counted", async () => {
    const full = await buildRestoreBlock(record(constraints, { conflicts }), ctx);
    let sawMarkLeftOut = false;
    // Down to the budget that still holds the first constraint.
    for (let budget = full.tokens; ; budget -= 3) {
      const b = await buildRestoreBlock(record(constraints, { conflicts }), { ...ctx, budget });
      if (!b.text.includes("- don't use Redis\n")) break;
      expect(b.tokens).toBeLessThanOrEqual(budget);
      if (b.text.includes(mark)) expect(b.text).toContain("- use Redis for sessions\n");
      else if (b.text.includes("- use Redis for sessions\n")) sawMarkLeftOut = true;
      if (!b.text.includes(mark)) expect(b.omitted.constraints).toBeGreaterThan(0);
    }
    expect(sawMarkLeftOut).toBe(true);
  });
});

describe("legacy excluded_paths lines", () => {
  const cases: [string, string, Record<string, unknown>][] = [
    // The spec's own examples.
    [
      "websocket reconnect failed 3 times, switched to polling",
      "websocket reconnect",
      { reason: "failed 3 times", repeat_count: 3, alternatives: ["polling"] },
    ],
    ["Don't use Tailwind — causes style conflict", "Tailwind", { reason: "causes style conflict" }],
    ["localStorage for tokens", "localStorage for tokens", { reason: "(no reason recorded)" }],
    ["websocket failed", "websocket", { reason: "failed" }],
    // The other forms agents write.
    ["tried SSR twice, too slow", "SSR", { reason: "too slow", repeat_count: 2 }],
    ["tried server-side rendering 3x", "server-side rendering", { reason: "tried 3x", repeat_count: 3 }],
    ["Redux — too heavy, use Zustand instead", "Redux", { reason: "too heavy", alternatives: ["Zustand"] }],
    ["use Zustand instead of Redux — too heavy", "Redux", { reason: "too heavy", alternatives: ["Zustand"] }],
    ["Redis cache — failed twice", "Redis cache", { reason: "failed twice", repeat_count: 2 }],
    [
      "polling every second failed x3; replaced it with webhooks",
      "polling every second",
      { reason: "failed x3", repeat_count: 3, alternatives: ["webhooks"] },
    ],
    [
      "websocket reconnect failed 3 times behind the proxy, switched to long polling",
      "websocket reconnect",
      { reason: "failed 3 times behind the proxy", repeat_count: 3, alternatives: ["long polling"] },
    ],
    [
      "retrying failed jobs inline — blocks the queue",
      "retrying failed jobs inline",
      { reason: "blocks the queue" },
    ],
    ["MongoDB: no transactions", "MongoDB", { reason: "no transactions" }],
    [
      "websocket重连失败了3次，改用轮询",
      "websocket重连",
      { reason: "失败了3次", repeat_count: 3, alternatives: ["轮询"] },
    ],
    ["websocket重连失败了三次", "websocket重连", { reason: "失败了三次", repeat_count: 3 }],
    ["不要用Redux：太重了，改用Zustand", "Redux", { reason: "太重了", alternatives: ["Zustand"] }],
    ["用Zustand代替Redux", "Redux", { reason: "(no reason recorded)", alternatives: ["Zustand"] }],
    // The replacement is named in its own clause: the rejected item is never taken for it.
    [
      "don't use Redis, use Memcached instead",
      "Redis",
      { reason: "(no reason recorded)", alternatives: ["Memcached"] },
    ],
    ["never use var, use let instead", "var", { reason: "(no reason recorded)", alternatives: ["let"] }],
    [
      "do not use moment; use dayjs instead",
      "moment",
      { reason: "(no reason recorded)", alternatives: ["dayjs"] },
    ],
    ["tried it once more, then gave up", "it once more, then gave up", { reason: "(no reason recorded)" }],
  ];
  for (const [line, item, entry] of cases) {
    test(line, () => {
      const r = legacyExcludedPath(line);
      expect(r.item).toBe(item);
      expect(r.entry).toEqual({ rejected_by: "system", ...entry });
    });
  }
});

/** A repository and a home on one laptop, for the CLI. */
function cliProject() {
  const base = tempDir();
  const home = join(base, "home");
  mkdirSync(home);
  const repo = gitRepo(join(base, "repo"));
  return { base, home, repo, opts: { cwd: repo, env: laptop("alpha", base).env } };
}

describe("through the real CLI", () => {
  test("save warns about a contradiction, folds the duplicate, and load marks it", async () => {
    const { home, opts } = cliProject();
    const saved = await ok(
      [
        "save",
        "--home",
        home,
        "--goal",
        "pick a session store",
        "--constraint",
        "don't use Redis",
        "--constraint",
        "use Redis for sessions",
        "--constraint",
        "No new dependencies.",
        "--constraint",
        "no new dependencies",
      ],
      opts,
    );
    expect(saved.stderr).toContain(
      `constraints contradict: "don't use Redis" vs "use Redis for sessions"; keep the one you mean.`,
    );
    expect(saved.stderr.match(/contradict/g)).toHaveLength(1);
    // What is left out is said, never silent.
    expect(saved.stderr).toContain(
      `Constraint "no new dependencies" was left out: it repeats "No new dependencies.".`,
    );
    const loaded = await okJson(["load", "--latest", "--home", home], opts);
    expect(loaded.layer2.constraints).toEqual([
      "don't use Redis",
      "use Redis for sessions",
      "No new dependencies.",
    ]);
    const block = (await ok(["load", "--latest", "--home", home], opts)).stdout;
    expect(block).toContain(
      `- use Redis for sessions\n- ⚠ contradicts: "don't use Redis" ↔ "use Redis for sessions" — ask the user which holds\n`,
    );
    const shown = await okJson(["snapshots", "show", "--home", home], opts);
    expect(JSON.stringify(shown)).toContain('"rejected_by":"don\'t use Redis"');
  });

  test("--failed lines: each its own failure, the replacement never taken for the item, none merged away", async () => {
    const { home, opts } = cliProject();
    const saved = await ok(
      [
        "save",
        "--home",
        home,
        "--goal",
        "pick a cache",
        "--failed",
        "don't use Redis, use Memcached instead",
        "--failed",
        "don't use moment, use dayjs instead",
        "--failed",
        "Redis: too slow under load",
        "--failed",
        "Redis: too slow under load",
      ],
      opts,
    );
    const graph = (await okJson(["snapshots", "show", "--home", home], opts)).failure_graph;
    expect(Object.keys(graph).sort()).toEqual(["Redis", "Redis: too slow under load", "moment"]);
    expect(graph.Redis.alternatives).toEqual(["Memcached"]);
    expect(graph.moment.alternatives).toEqual(["dayjs"]);
    expect(graph["Redis: too slow under load"].reason).toBe("too slow under load");
    expect(saved.stderr).not.toContain("left out");
  });

  test("an export with a contradiction imports back with the contradiction recomputed, not as an extra field", async () => {
    const { base, home, repo, opts } = cliProject();
    await ok(
      [
        "save",
        "--home",
        home,
        "--goal",
        "pick a session store",
        "--constraint",
        "don't use Redis",
        "--constraint",
        "use Redis for sessions",
      ],
      opts,
    );
    await ok(["export", "--home", home], opts);
    const other = join(base, "other-home");
    mkdirSync(other);
    await ok(["import", repo, "--home", other], opts);
    const recalled = await okJson(["recall", "--home", other], opts);
    expect(recalled.extra).toEqual({});
    const block = (await ok(["load", "--latest", "--home", other], opts)).stdout;
    expect(block).toContain('⚠ contradicts: "don\'t use Redis" ↔ "use Redis for sessions"');
  });
});
