// The mechanical snapshot (issue 35, item 2): what a Stop hook saves from a real Claude Code
// transcript when the agent writes no checkpoint itself, field by field, in English and Chinese.
import { beforeAll, expect, test } from "bun:test";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentProject, payloads, transcriptFixture } from "./agent-fixtures.ts";
import { hostBinary, sql } from "./helpers.ts";
import { claudeLaptop, events, payload, Transcript } from "./claude-fixtures.ts";
import { hookAt, inDefaultHome } from "./engine-setup.ts";

let exe = "";
beforeAll(async () => {
  exe = await hostBinary();
}, 120_000);

const newest = async (t: { db: string }) => {
  const rows = await sql(
    t.db,
    "SELECT goal, state, next_action, active_files, constraints FROM snapshots WHERE deleted = 0 ORDER BY created_at DESC LIMIT 1",
  );
  const r = rows[0];
  return {
    goal: String(r.goal),
    state: String(r.state),
    next_action: String(r.next_action),
    files: (JSON.parse(String(r.active_files)) as { path: string }[]).map((f) => f.path),
    constraints: JSON.parse(String(r.constraints)) as string[],
  };
};

const RATE_LIMIT =
  "Add rate limiting to the login endpoint. Never use Redis for it: we only have Postgres in production.";

type Laptop = ReturnType<typeof claudeLaptop>;

/** Edits a file of the project, as Claude Code's Edit tool records it. */
const edit = (t: Laptop, tr: Transcript, file: string) =>
  tr.tool("Edit", { file_path: join(t.repo, file), old_string: "export", new_string: "x" }, 30_000);

/**
 * A Claude Code session on a fresh laptop: `work` writes its transcript, then the turn ends with
 * `reply` (Stop's last_assistant_message) and the Stop hook saves. The snapshot it left.
 */
async function sessionEnding(id: string, reply: string, work: (t: Laptop, tr: Transcript) => void) {
  const t = claudeLaptop(exe);
  const tr = new Transcript(t.base, t.repo, id);
  work(t, tr);
  await t.hook("stop", payload("Stop", { sessionId: id, path: tr.path, cwd: t.repo }, events.stop(reply)));
  return newest(t);
}

test("the issue's session: the goal is the task without its constraint, the constraint is in Layer 2, the state names the changed file, reads and edits are the active files (newest first)", async () => {
  const s = await sessionEnding("s-rate", "done", (t, tr) => {
    tr.prompt(RATE_LIMIT);
    tr.tool("Read", { file_path: join(t.repo, "src/auth.ts") }, 20_000);
    edit(t, tr, "src/limit.ts");
  });
  expect(s.goal).toBe("Add rate limiting to the login endpoint");
  expect(s.constraints).toEqual(["Never use Redis for it: we only have Postgres in production."]);
  expect(s.state).toBe("Changed limit.ts (after 2 tool calls)");
  expect(s.files).toEqual(["src/limit.ts", "src/auth.ts"]);
}, 60_000);

test("the next action is the next step the agent's last message states, not the generic sentence", async () => {
  const reply = "Added the limiter middleware. Next, I'll wire it into the login route.";
  const s = await sessionEnding("s-next", reply, (t, tr) => {
    tr.prompt("Add rate limiting to the login endpoint");
    edit(t, tr, "src/limit.ts");
  });
  expect(s.next_action).toBe("Wire it into the login route");
}, 60_000);

test("a Chinese session: the task apart from its rule, each rule and the correction once, the stated next step", async () => {
  const s = await sessionEnding("s-zh", "已加好限流中间件。下一步：把它接到登录路由上。", (t, tr) => {
    tr.prompt("给登录接口加限流。不要用 Redis，我们生产环境只有 Postgres。");
    edit(t, tr, "src/limit.ts");
    tr.prompt("不对，我说的是只用 Postgres 的 advisory lock。不要用 Redis，我们生产环境只有 Postgres。");
    edit(t, tr, "src/auth.ts");
  });
  expect(s.goal).toBe("给登录接口加限流");
  expect(s.constraints).toEqual([
    "不要用 Redis，我们生产环境只有 Postgres。",
    "不对，我说的是只用 Postgres 的 advisory lock。",
  ]);
  expect(s.next_action).toBe("把它接到登录路由上");
  expect(s.files).toEqual(["src/auth.ts", "src/limit.ts"]);
}, 60_000);

test("with a plan and nothing in progress, the state names the completed steps", async () => {
  const todos = [
    {
      content: "Add the limiter middleware",
      status: "completed",
      activeForm: "Adding the limiter middleware",
    },
    { content: "Wire it into the login route", status: "completed", activeForm: "Wiring it" },
    { content: "Write the load test", status: "pending", activeForm: "Writing the load test" },
  ];
  const s = await sessionEnding("s-plan", "done", (t, tr) => {
    tr.prompt("Add rate limiting to the login endpoint");
    tr.tool("TodoWrite", { todos }, 20_000);
    edit(t, tr, "src/limit.ts");
  });
  expect(s.state).toBe("2/3 steps done: Add the limiter middleware; Wire it into the login route");
  expect(s.next_action).toBe("Write the load test");
}, 60_000);

test("Codex: the rule in the prompt of its rollout is in Layer 2, and the goal is the task without it", async () => {
  const t = agentProject();
  const rollout = transcriptFixture("codex-rollout.jsonl", t.base, t.repo);
  const prompt = "把登录改成用 JWT，并加上过期检查";
  const text = readFileSync(rollout, "utf8");
  expect(text).toContain(prompt);
  writeFileSync(rollout, text.replaceAll(prompt, `${prompt}。不要用 localStorage 存令牌。`));
  const stop = payloads("codex", t.repo, rollout).Stop;
  const r = await t.hook("codex", stop.arg, stop.payload);
  expect(r.code).toBe(0);
  const [s] = await sql(t.db, "SELECT goal, constraints FROM snapshots WHERE deleted = 0");
  expect(String(s.goal)).toBe(prompt);
  expect(JSON.parse(String(s.constraints))).toEqual(["不要用 localStorage 存令牌。"]);
}, 60_000);

// Copilot CLI's and Cursor's stops carry no last message: the step the agent announced is read
// from its text in their transcripts (run in this process; the hook's own output is tested elsewhere).
test("Copilot CLI: the next action is the step the agent's last assistant.message announces", async () => {
  const t = agentProject();
  inDefaultHome(t);
  const log = transcriptFixture("copilot-events.jsonl", t.base, t.repo);
  // The fixture ends on a failed `npm test -- export`; the agent then says what it does next.
  const reply = "The header row still breaks the test. Next I'll escape the header cells.";
  appendFileSync(
    log,
    JSON.stringify({
      type: "assistant.message",
      data: { messageId: "m9", content: reply, toolRequests: [], turnId: "1" },
      id: "e12",
      timestamp: "2026-09-22T07:00:45.000Z",
      parentId: "e11",
    }) + "\n",
  );
  await hookAt(t, "copilot", "stop", payloads("copilot", t.repo, log).agentStop.payload);
  expect((await newest(t)).next_action).toBe("Escape the header cells");
}, 60_000);

test("Cursor: the next action is the step the agent's last text announces", async () => {
  const t = agentProject();
  inDefaultHome(t);
  const path = transcriptFixture("cursor-transcript.jsonl", t.base, t.repo);
  // After the fixture's last prompt ("remember the choice in localStorage"): the work, then the agent's words.
  const assistant = (...content: unknown[]) =>
    JSON.stringify({ role: "assistant", message: { content } }) + "\n";
  const write = { path: join(t.repo, "src/theme.ts"), contents: "localStorage.setItem('theme', t)" };
  appendFileSync(path, assistant({ type: "tool_use", name: "Write", input: write }));
  appendFileSync(
    path,
    assistant({ type: "text", text: "The choice is saved now. 下一步：把切换按钮加到手机菜单里。" }),
  );
  await hookAt(t, "cursor", "stop", payloads("cursor", t.repo, path).stop.payload);
  expect((await newest(t)).next_action).toBe("把切换按钮加到手机菜单里");
}, 60_000);
