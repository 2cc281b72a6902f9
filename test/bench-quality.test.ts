// The scorer of `bun run bench:quality` is real: a session whose snapshot is its answer scores 1 in
// every field, a snapshot that says nothing of the answer scores 0, and the corpus runs in-process
// through the mechanical snapshot. The goals themselves are the benchmark's (docs/benchmarks.md), not a test's.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { figuresOf, scoreSession, tokensOf } from "../bench/quality-score.ts";
import { mechanicalSnapshot, scoreCorpus, SESSIONS } from "../bench/quality.ts";

const ANSWER = {
  goal: "Add rate limiting to the login endpoint",
  constraints: ["Never use Redis for it: we only have Postgres in production."],
  next_action: "Wire the rate limiter into the login route",
};

test("a snapshot that is the answer scores 1 in every field; one that says nothing of it scores 0", () => {
  const good = figuresOf([scoreSession("good", ANSWER, ANSWER)]);
  expect(good).toEqual({ sessions: 1, recall: 1, precision: 1, goal: 1, next_action: 1 });
  const bad = {
    goal: "Add rate limiting to the login endpoint. Never use Redis for it: we only have Postgres in production.",
    constraints: ["It only takes a second to reproduce."],
    next_action: "Review the latest changes and continue",
  };
  expect(figuresOf([scoreSession("bad", bad, ANSWER)])).toEqual({
    sessions: 1,
    recall: 0,
    precision: 0,
    goal: 0,
    next_action: 0,
  });
});

test("Chinese is compared a character at a time: the same task is right, another task is not", () => {
  expect(tokensOf("只用 CSS 解决，不要加 JS。")).toEqual([
    "只",
    "用",
    "css",
    "解",
    "决",
    "不",
    "要",
    "加",
    "js",
  ]);
  const expected = {
    goal: "给用户列表页加分页，每页 20 条",
    constraints: [],
    next_action: "给 Pager 组件补单元测试",
  };
  const other = { ...expected, goal: "修复移动端首页轮播图在 iOS Safari 上闪烁的问题" };
  expect(scoreSession("zh", expected, expected).goal.right).toBe(true);
  expect(scoreSession("zh", other, expected).goal.right).toBe(false);
});

test("the corpus's first session runs through the mechanical snapshot in-process and is scored", async () => {
  const snap = await mechanicalSnapshot(join(SESSIONS, "01-rate-limit"));
  expect(snap.constraints).toEqual(["Never use Redis for it: we only have Postgres in production."]);
  const [s] = await scoreCorpus(SESSIONS, ["01-rate-limit"]);
  expect(s.id).toBe("01-rate-limit");
  expect(s.goal.got).toBe(snap.goal);
  expect(s.constraints.missed).toEqual([]);
});

test("through the mechanical snapshot: a task resumed in the user's own words keeps the restored goal; the agent's hand-over is the next action", async () => {
  const okta = join(SESSIONS, "84-continue-okta");
  const restored = JSON.parse(readFileSync(join(okta, "restored.json"), "utf8")) as { goal: string };
  // The session opens with "hey, back on this. where were we?": no task of its own.
  expect((await mechanicalSnapshot(okta)).goal).toBe(restored.goal);
  // It ends "It's ready for you to run terraform apply."
  expect((await mechanicalSnapshot(join(SESSIONS, "89-terraform-backups"))).next_action).toBe(
    "Run terraform apply",
  );
});
