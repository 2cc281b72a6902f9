// Unit tests of the pure parts: slugs, budgets with the real tokenizer, the pressure formula,
// paths on both path flavours, the clock, and snapshot parsing.
import { describe, expect, test } from "bun:test";
import nodePath from "node:path";
import { isValidTopic, nextFreeName, topicSlug, TOPIC_MAX } from "../src/engine/snapshots/slug.ts";
import { countTokens, loadTokenizer, tokenUpperBound } from "../src/engine/snapshots/tokens.ts";
import { nothingMoved } from "../src/engine/snapshots/budgets.ts";
import { snapshotDigest } from "../src/engine/snapshots/save.ts";
import { checkLayer1, fitLayer2 } from "../src/engine/snapshots/budgets.ts";
import * as sig from "../src/engine/agents/signal.ts";
import { normaliseRelative, toHostPath, toStoredPath } from "../src/engine/projects/paths.ts";
import { formatHlc, parseHlc, PLAN_STATUS_AT } from "../src/store/store.ts";
import { noBlocker, parseSnapshotText, splitFrontMatter } from "../src/engine/snapshots/input.ts";
import { legacyExcludedPath } from "../src/engine/snapshots/legacy-failures.ts";
import { derivedConfidence, failureId } from "../src/engine/failures/graph.ts";
import { normaliseRemote } from "../src/engine/projects/workspace.ts";
import { mergeConcurrentPlans, parsePlan, planTimes } from "../src/engine/snapshots/plan.ts";
import { age, ageAgo } from "../src/lib/text.ts";

describe("topic slugs", () => {
  test("letters, digits and _ only, at most 20 characters, cut at a word boundary", () => {
    expect(topicSlug("Fix the login bug!")).toBe("fix_the_login_bug");
    expect(topicSlug("Refactor authentication middleware for JWT")).toBe("refactor");
    expect(topicSlug("auth: JWT/refresh-tokens (v2)")).toBe("auth_jwt_refresh");
    expect(topicSlug("a".repeat(50))).toBe("a".repeat(20));
    for (const s of [
      "Refactor authentication middleware for JWT",
      "x y z",
      "données été",
      "重构认证模块并修复令牌刷新问题以及所有相关测试",
    ]) {
      const slug = topicSlug(s);
      expect([...slug].length).toBeLessThanOrEqual(TOPIC_MAX);
      expect(isValidTopic(slug)).toBe(true);
    }
  });
  test("a Chinese goal gives a Chinese slug, never an empty one", () => {
    expect(topicSlug("重构认证模块")).toBe("重构认证模块");
    expect(topicSlug("修复 令牌刷新，并发问题")).toBe("修复_令牌刷新_并发问题");
    expect([...topicSlug("重构认证模块并修复令牌刷新问题以及所有相关测试用例")]).toHaveLength(20);
    expect(topicSlug("🔥🔥🔥")).toBe("snapshot");
    expect(topicSlug("")).toBe("snapshot");
    expect(topicSlug("Ünïcödé naïve café")).toBe("ünïcödé_naïve_café");
  });
  test("same-day ids get -2, -3", () => {
    expect(nextFreeName("a_2026-01-01", [])).toBe("a_2026-01-01");
    expect(nextFreeName("a_2026-01-01", ["a_2026-01-01"])).toBe("a_2026-01-01-2");
    expect(nextFreeName("a_2026-01-01", ["a_2026-01-01", "a_2026-01-01-2"])).toBe("a_2026-01-01-3");
  });
});

describe("budgets with a real tokenizer", () => {
  test("counts are BPE tokens, not characters/4", async () => {
    await loadTokenizer();
    expect(countTokens("hello world")).toBe(2);
    // Chinese costs more than characters/4 would say.
    const zh = "重构认证模块并修复令牌刷新问题";
    expect(countTokens(zh)).toBeGreaterThan((zh.length / 4) * 2);
    expect(tokenUpperBound(zh)).toBeGreaterThanOrEqual(countTokens(zh));
  });
  test("Layer 1 fits 300 tokens or names the largest field", async () => {
    await loadTokenizer();
    expect(
      checkLayer1({ goal: "g", state: "s", next_action: "n", active_files: ["a.ts"], blocker: "none" }),
    ).toBeLessThan(30);
    expect(() =>
      checkLayer1({
        goal: "g",
        state: "s",
        next_action: "word ".repeat(400),
        active_files: [],
        blocker: "none",
      }),
    ).toThrow(/largest field is next_action/);
    // Every active file is counted: 80 paths are over the budget (a save moves the rest to Layer 3)…
    const files = Array.from({ length: 80 }, (_, i) => `src/module${i}/file${i}.ts`);
    expect(() =>
      checkLayer1({ goal: "g", state: "s", next_action: "n", active_files: files, blocker: "none" }),
    ).toThrow(/largest field is active_files/);
    expect(
      checkLayer1({
        goal: "g",
        state: "s",
        next_action: "n",
        active_files: files.slice(0, 8),
        blocker: "none",
      }),
    ).toBeLessThan(150);
    // …and three paths that alone overflow Layer 1 are too.
    const huge = Array.from({ length: 3 }, (_, i) => `src/${"deeply/nested/".repeat(40)}file${i}.ts`);
    expect(() =>
      checkLayer1({ goal: "g", state: "s", next_action: "n", active_files: huge, blocker: "none" }),
    ).toThrow(/largest field is active_files/);
  });
  test("Layer 2 is compressed only when over budget, and only when that helps", async () => {
    await loadTokenizer();
    const small = fitLayer2({
      constraints: ["no tailwind", "use css variables"],
      decisions: [],
      failure_graph: {},
    });
    expect(small.compressed).toBeNull();
    expect(small.layer2.constraints).toEqual(["no tailwind", "use css variables"]);
    const many = Array.from(
      { length: 80 },
      (_, i) => (i % 2 ? "never use tailwind" : "avoid tailwind") + "!".repeat(i % 7),
    );
    const big = fitLayer2({ constraints: many, decisions: [], failure_graph: {} });
    expect(big.compressed).not.toBeNull();
    expect(big.tokens).toBeLessThanOrEqual(500);
    // Past what compression saves, the last decisions move out (to Layer 3, by the save) until it fits.
    const decisions = Array.from({ length: 100 }, (_, i) => `decision ${i} about module ${i}`);
    const moved = nothingMoved();
    const spilled = fitLayer2({ constraints: [], decisions, failure_graph: {} }, [], moved);
    expect(spilled.tokens).toBeLessThanOrEqual(500);
    expect([...spilled.layer2.decisions, ...moved.decisions]).toEqual(decisions);
    expect(moved.decisions.length).toBeGreaterThan(0);
  });
});

describe("pressure formula", () => {
  const now = new Date("2026-05-10T14:30:00Z");
  const ago = (s: number) => new Date(now.getTime() - s * 1000).toISOString();
  test("growth from tool calls per 5 minutes", () => {
    // Slow only over five whole minutes watched: since the session's start, else the oldest call kept.
    expect(sig.growthRate([ago(10), ago(20)], now, ago(301))).toBe("slow");
    expect(sig.growthRate([ago(10), ago(20)], now, ago(299))).toBe("normal");
    expect(sig.growthRate([ago(10), ago(20)], now)).toBe("normal");
    expect(sig.growthRate([], now)).toBe("normal");
    expect(sig.growthRate([ago(20), ago(400)], now)).toBe("slow");
    expect(sig.growthRate([ago(10), ago(20), ago(30)], now)).toBe("normal");
    expect(
      sig.growthRate(
        Array.from({ length: 6 }, (_, i) => ago(i * 10)),
        now,
      ),
    ).toBe("normal");
    expect(
      sig.growthRate(
        Array.from({ length: 7 }, (_, i) => ago(i * 10)),
        now,
      ),
    ).toBe("fast");
    expect(
      sig.growthRate(
        Array.from({ length: 9 }, () => ago(400)),
        now,
      ),
    ).toBe("slow");
  });
  test("complexity from active files and decisions", () => {
    expect(sig.complexityOf(1, 0, 0)).toBe("low");
    expect(sig.complexityOf(3, 0, 0)).toBe("medium");
    expect(sig.complexityOf(1, 2, 0)).toBe("medium");
    expect(sig.complexityOf(6, 0, 0)).toBe("high");
    expect(sig.complexityOf(2, 5, 4)).toBe("high");
  });
  test("the spec's effective thresholds", () => {
    expect(sig.thresholds(0.6, 0.8, "slow", "low")).toEqual({ warning: 0.72, critical: 0.96 });
    expect(sig.thresholds(0.6, 0.8, "normal", "low")).toEqual({ warning: 0.6, critical: 0.8 });
    expect(sig.thresholds(0.6, 0.8, "fast", "low")).toEqual({ warning: 0.48, critical: 0.64 });
    expect(sig.thresholds(0.6, 0.8, "fast", "high")).toEqual({ warning: 0.408, critical: 0.544 });
    expect(sig.thresholds(0.6, 0.8, "normal", "medium")).toEqual({ warning: 0.57, critical: 0.76 });
    // Base values are clamped to the spec's ranges.
    expect(sig.thresholds(0.2, 0.99, "normal", "low")).toEqual({ warning: 0.5, critical: 0.9 });
  });
  test("GREEN / YELLOW / RED", () => {
    const t = { warning: 0.6, critical: 0.8 };
    expect(sig.pressure(0.59, t)).toBe("GREEN");
    expect(sig.pressure(0.6, t)).toBe("YELLOW");
    expect(sig.pressure(0.8, t)).toBe("RED");
  });
  test("auto-save: YELLOW checkpoints respect the cooldown of 5 minutes or 10 turns; RED does not wait", () => {
    let s = sig.recompute({ ...sig.defaultSignal(), estimated_tokens_ratio: 0.75 }, now);
    expect(sig.decideAutoSave(s, now)).toEqual({
      action: "checkpoint",
      reason: "context-pressure",
      cooling: false,
    });
    s = sig.recordSave(s, now, {
      auto: true,
      reason: "context-pressure",
      activeFiles: 1,
      decisions: 0,
      constraints: 0,
    });
    expect(s.auto_save_count).toBe(1);
    const soon = new Date(now.getTime() + 60_000);
    expect(sig.decideAutoSave(sig.recompute(s, soon), soon)).toMatchObject({ action: "none", cooling: true });
    const later = new Date(now.getTime() + 5 * 60_000);
    expect(sig.decideAutoSave(sig.recompute(s, later), later).action).toBe("checkpoint");
    let turns = s;
    for (let i = 0; i < 10; i++) turns = sig.recordTurn(turns, soon);
    expect(sig.decideAutoSave(turns, soon).action).toBe("checkpoint");
    const red = sig.recompute({ ...s, estimated_tokens_ratio: 0.97 }, soon);
    expect(sig.decideAutoSave(red, soon).action).toBe("emergency");
  });
  test("ten tool calls since the last save trigger a checkpoint", () => {
    let s = sig.defaultSignal();
    s = sig.recordToolCall(s, new Date(now.getTime() - 3_600_000), 9);
    expect(sig.decideAutoSave(s, now).action).toBe("none");
    s = sig.recordToolCall(s, now);
    expect(sig.decideAutoSave(s, now)).toMatchObject({ action: "checkpoint", reason: "tool-threshold" });
  });
});

describe("paths", () => {
  test("POSIX: stored relative with /, printed absolute", () => {
    const p = nodePath.posix;
    expect(toStoredPath("/repo/src/a.ts", "/repo", "/repo", p)).toBe("src/a.ts");
    expect(toStoredPath("src\\deep\\b.ts", "/repo", "/repo", p)).toBe("src/deep/b.ts");
    expect(toStoredPath("./src/../src/c.ts", "/repo", "/repo", p)).toBe("src/c.ts");
    expect(toStoredPath("/etc/hosts", "/repo", "/repo", p)).toBe("/etc/hosts");
    expect(toHostPath("src/a.ts", "/home/b/work", p)).toBe("/home/b/work/src/a.ts");
  });
  test("Windows: drive letters and backslashes", () => {
    const w = nodePath.win32;
    expect(
      toStoredPath("C:\\Users\\ada\\repo\\src\\auth.ts", "C:\\Users\\ada\\repo", "C:\\Users\\ada\\repo", w),
    ).toBe("src/auth.ts");
    expect(toStoredPath("src/auth.ts", "C:\\Users\\ada\\repo", "C:\\Users\\ada\\repo", w)).toBe(
      "src/auth.ts",
    );
    expect(toStoredPath("D:\\other\\x.ts", "C:\\repo", "C:\\repo", w)).toBe("D:/other/x.ts");
    expect(toHostPath("src/auth.ts", "C:\\Users\\ada\\repo", w)).toBe("C:\\Users\\ada\\repo\\src\\auth.ts");
    // Saved on Windows, loaded on Linux: the same stored path.
    expect(toHostPath("src/auth.ts", "/home/ada/repo", nodePath.posix)).toBe("/home/ada/repo/src/auth.ts");
  });
  test("normaliseRelative", () => {
    expect(normaliseRelative("a\\b\\..\\c")).toBe("a/c");
    expect(normaliseRelative("./")).toBe(".");
  });
});

describe("ids and clocks", () => {
  test("the hybrid logical clock sorts as text", () => {
    const a = formatHlc(1715351400000, 0, "host-a");
    const b = formatHlc(1715351400000, 1, "host-a");
    const c = formatHlc(1715351400001, 0, "host-a");
    expect([c, b, a].sort()).toEqual([a, b, c]);
    expect(parseHlc(b)).toEqual({ wall: 1715351400000, counter: 1 });
  });
  test("a failure's id is derived from scope, project and item, so hosts converge", () => {
    expect(failureId("project", "p1", "Tailwind")).toBe(failureId("project", "p1", "  tailwind "));
    expect(failureId("project", "p1", "Tailwind")).not.toBe(failureId("project", "p2", "Tailwind"));
    expect(failureId("global", null, "Tailwind")).not.toBe(failureId("project", "p1", "Tailwind"));
  });
  test("derived confidence", () => {
    const now = new Date("2026-05-10T00:00:00Z");
    expect(derivedConfidence(3, "2020-01-01T00:00:00Z", now)).toBe("high");
    expect(derivedConfidence(2, "2020-01-01T00:00:00Z", now)).toBe("medium");
    expect(derivedConfidence(1, "2026-05-08T00:00:00Z", now)).toBe("medium");
    expect(derivedConfidence(1, "2026-04-01T00:00:00Z", now)).toBe("low");
  });
  test("remotes compare equal across ssh and https", () => {
    expect(normaliseRemote("git@github.com:Org/Repo.git")).toBe(
      normaliseRemote("https://github.com/org/repo"),
    );
    expect(normaliseRemote("ssh://git@host:2222/org/repo.git")).toBe("host:2222/org/repo");
  });
});

describe("snapshot parsing", () => {
  test("front matter and body; CRLF and BOM; plain YAML without front matter", () => {
    const s = parseSnapshotText(
      "\uFEFF---\r\ngoal: g\r\nactive_files: src/a.ts\r\n---\r\n## Layer 3\r\nbody\r\n",
    );
    expect(s.goal).toBe("g");
    expect(s.active_files).toEqual(["src/a.ts"]);
    expect(s.layer3).toBe("## Layer 3\nbody");
    expect(parseSnapshotText("goal: plain\nstate: s\n").state).toBe("s");
    expect(splitFrontMatter("no front matter").hasFrontMatter).toBe(false);
  });
  test("the v3.5 SDK's failure_graph as JSON text in a block scalar", () => {
    const s = parseSnapshotText(
      'goal: g\nfailure_graph: |\n  {"Tailwind": {"reason": "conflict", "repeat_count": 2}}\n',
    );
    expect(s.failure_graph.Tailwind).toEqual({ reason: "conflict", repeat_count: 2 });
  });
  test("unknown fields are kept with a warning", () => {
    const s = parseSnapshotText("goal: g\nreviewer: Lin\npriority: 2\n");
    expect(s.extra).toEqual({ reviewer: "Lin", priority: 2 });
    expect(s.warnings[0]).toContain("reviewer, priority");
  });
  test("legacy excluded_paths lines", () => {
    expect(legacyExcludedPath("Don't use Tailwind — causes style conflict")).toEqual({
      item: "Tailwind",
      entry: { rejected_by: "system", reason: "causes style conflict" },
    });
    expect(legacyExcludedPath("不要用Redux：太重了").item).toBe("Redux");
    expect(legacyExcludedPath("GraphQL because the team knows REST").entry.reason).toBe(
      "the team knows REST",
    );
  });
});

describe("a plan's steps merged from two laptops (mergeConcurrentPlans, planTimes)", () => {
  // Steps as stored: each with MindSave's time of its last status change (src/store/rows.ts).
  const step = (status: "pending" | "in_progress" | "completed", at?: string) => ({
    content: "write docs",
    status,
    ...(at ? { [PLAN_STATUS_AT]: at } : {}),
  });
  const T1 = "2026-11-20T10:00:00.000Z";
  const T2 = "2026-11-20T11:00:00.000Z";
  const NOW = Date.parse("2026-11-21T12:00:00.000Z");
  const merged = (a: ReturnType<typeof step>, b: ReturnType<typeof step>) =>
    mergeConcurrentPlans([a], [b], NOW)![0];

  test("each step takes its later change, whichever way it goes; a timed change wins over an untimed one", () => {
    expect(merged(step("completed", T1), step("pending", T2))).toEqual(step("pending", T2)); // a reopen after the completion
    expect(merged(step("pending", T2), step("completed", T1))).toEqual(step("pending", T2));
    expect(merged(step("pending", T1), step("completed", T2))).toEqual(step("completed", T2));
    expect(merged(step("completed"), step("pending", T1))).toEqual(step("pending", T1));
    expect(merged(step("pending", T1), step("completed"))).toEqual(step("pending", T1));
  });

  test("with no times (or the same one, or a time that is not one), the furthest status", () => {
    expect(merged(step("pending"), step("completed"))).toEqual(step("completed"));
    expect(merged(step("completed"), step("in_progress"))).toEqual(step("completed"));
    expect(merged(step("pending", T1), step("in_progress", T1))).toEqual(step("in_progress", T1));
    expect(merged(step("pending", "not a time"), step("completed", "neither"))).toEqual({
      ...step("pending", "not a time"),
      status: "completed",
    });
  });

  test("different steps, or a step that is none (a peer's plan as stored), are no merge: null", () => {
    expect(
      mergeConcurrentPlans([step("pending")], [{ content: "release", status: "pending" }], NOW),
    ).toBeNull();
    expect(mergeConcurrentPlans([step("pending")], [null as never], NOW)).toBeNull();
  });

  test("a time over a day ahead of now is no time (a clock that ran ahead, or a forged one)", () => {
    expect(merged(step("pending", T1), step("completed", "2099-01-01T00:00:00.000Z"))).toEqual(
      step("pending", T1),
    );
    expect(merged(step("pending", T1), step("completed", "2026-11-22T11:00:00.000Z"))).toEqual(
      step("completed", "2026-11-22T11:00:00.000Z"),
    ); // within the day
  });

  test("an agent's plan never brings MindSave's own time key; a record without times digests as before they were kept", () => {
    expect(
      parsePlan([
        {
          content: "write docs",
          status: "pending",
          [PLAN_STATUS_AT]: "2099-01-01T00:00:00.000Z",
          owner: "me",
        },
      ]),
    ).toEqual([{ content: "write docs", status: "pending", owner: "me" }]);
    const rec = {
      id: "s1",
      name: "n",
      plan: [{ content: "a", status: "pending" as const }],
    } as never as Parameters<typeof snapshotDigest>[0];
    const { plan_times: _none, ...without } = { ...rec, plan_times: null };
    expect(snapshotDigest({ ...rec, plan_times: null })).toBe(snapshotDigest(without as typeof rec));
    expect(snapshotDigest({ ...rec, plan_times: [T1] })).not.toBe(snapshotDigest(without as typeof rec));
  });

  test("planTimes: a changed step gets the time now, one as it was keeps its time (or none)", () => {
    const now = new Date("2026-11-21T09:00:00.000Z");
    const before = [
      { content: "migrate", status: "completed" as const },
      { content: "write docs", status: "completed" as const },
      { content: "tests", status: "pending" as const },
    ];
    const next = [
      { content: "migrate", status: "completed" as const },
      { content: "write docs", status: "pending" as const },
      { content: "tests", status: "pending" as const },
      { content: "release", status: "pending" as const },
    ];
    expect(planTimes(next, before, [T1, T2, null], now)).toEqual([
      T1,
      now.toISOString(),
      null,
      now.toISOString(),
    ]);
    expect(planTimes(next, null, null, now)).toEqual(next.map(() => now.toISOString()));
  });
});

describe("a failure_graph as written", () => {
  const graph = (yaml: string) =>
    parseSnapshotText(`---\ngoal: g\nfailure_graph:\n${yaml}\n---\n`).failure_graph;
  test("one related or alternative is a list of one; lists of texts stay lists", () => {
    expect(graph(`  item one: {reason: r1, related: "single related", alternatives: single alt}`)).toEqual({
      "item one": { reason: "r1", related: ["single related"], alternatives: ["single alt"] },
    });
    expect(graph(`  x: {alternatives: [a, b]}`)).toEqual({ x: { alternatives: ["a", "b"] } });
  });
  test("what cannot be kept as written is refused in one sentence", () => {
    expect(() => graph(`  x: {repeat_count: 2.7}`)).toThrow(/repeat_count 2.7; give a whole number/);
    expect(() => graph(`  x: {repeat_count: -1}`)).toThrow(/give a whole number/);
    expect(() => graph(`  x: {reason: [a, b]}`)).toThrow(
      /a reason that is a list or a mapping; give it as one text/,
    );
    expect(() => graph(`  x: {alternatives: {a: 1}}`)).toThrow(/alternatives that is not a list of texts/);
    expect(() => graph(`  padded: {reason: one}\n  " padded": {reason: two}`)).toThrow(
      /names one failure twice, "padded" and " padded"/,
    );
    expect(() => graph(`  padded: {reason: one}\n  Padded: {reason: two}`)).toThrow(
      /names one failure twice/,
    );
  });
});

describe("a field of the writer's own", () => {
  test("keeps its numbers as written (1.10, 0x1F, 1e3), at any depth; 42, true and null stay what they are", () => {
    const extra = parseSnapshotText(
      "---\ngoal: g\nnumbers: [1.10, 0x1F, 1e3, 42, true, null]\nnested: {a: 1.50, b: [2.0]}\n---\n",
    ).extra;
    expect(extra).toEqual({
      numbers: ["1.10", "0x1F", "1e3", 42, true, null],
      nested: { a: "1.50", b: ["2.0"] },
    });
  });
});

describe("list items YAML would read as null", () => {
  test("`- ~` and `- null` are those texts; an empty `-` is no item", () => {
    const r = parseSnapshotText(
      "---\ngoal: g\nconstraints:\n  - ~\n  - null\n  -\n  - keep it\ndecisions: [null, x]\n---\n",
    );
    expect([r.constraints, r.decisions]).toEqual([
      ["~", "null", "keep it"],
      ["null", "x"],
    ]);
  });
});

describe("a blocker that says there is none", () => {
  test("none, n/a, a dash or 无/没有 is no blocker; anything else is one", () => {
    for (const b of [
      "none",
      "None.",
      "n/a",
      "N/A",
      "no",
      "-",
      "—",
      "nothing",
      "无",
      "没有",
      "暂无",
      "  none  ",
      "",
    ])
      expect(noBlocker(b)).toBe(true);
    for (const b of ["none of the tests pass", "waiting for keys", "no access to staging", "无法连接数据库"])
      expect(noBlocker(b)).toBe(false);
  });
});

describe("ages", () => {
  const now = new Date("2026-11-27T12:00:00.000Z");
  test("past instants read as before; an instant past this clock is ahead, never 0s", () => {
    expect(age("2026-11-27T11:59:18.000Z", now)).toBe("42s");
    expect(age("2026-11-27T09:00:00.000Z", now, "long")).toBe("3 h ago");
    expect(ageAgo("2026-11-27T09:00:00.000Z", now)).toBe("3h ago");
    // Within a minute ahead (a snapshot stamped a millisecond after a peer's newest) is now.
    expect(age("2026-11-27T12:00:30.000Z", now)).toBe("0s");
    expect(age("2026-11-27T14:00:00.000Z", now)).toBe("+2h");
    expect(age("2026-11-27T14:00:00.000Z", now, "long")).toBe("2 h ahead of this clock");
    expect(ageAgo("2026-11-30T12:00:00.000Z", now)).toBe("3d ahead");
  });
});
