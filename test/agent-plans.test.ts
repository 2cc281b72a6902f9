// The agent's plan in its auto-snapshots, from every agent's own way of keeping one (issue 34):
// Claude Code's TaskCreate/TaskUpdate (2.1.x writes no TodoWrite: the subjects, the ids its tool
// results give, the statuses) and Copilot CLI's session `todos` table (written through its `sql`
// tool), alongside TodoWrite, Codex's update_plan and Gemini's write_todos.
import { beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { hostBinary, sql } from "./helpers.ts";
import { agentProject } from "./agent-fixtures.ts";
import { claudeLaptop, events, payload, Transcript } from "./claude-fixtures.ts";

let exe = "";
beforeAll(async () => {
  exe = await hostBinary();
}, 120_000);

/** The newest snapshot's Layer 1 and plan steps (content and status). */
async function newest(t: { db: string }) {
  const [row] = await sql(
    t.db,
    "SELECT goal, state, next_action, plan FROM snapshots WHERE deleted = 0 ORDER BY created_at DESC LIMIT 1",
  );
  const plan = (JSON.parse(String(row.plan ?? "null")) ?? []) as { content: string; status: string }[];
  return {
    goal: row.goal,
    state: row.state,
    next_action: row.next_action,
    plan: plan.map((p) => [p.content, p.status]),
  };
}

describe("Claude Code's TaskCreate / TaskUpdate", () => {
  test("the tasks by the ids their results give, with their statuses: the plan, the state and the next action", async () => {
    const t = claudeLaptop(exe);
    const tr = new Transcript(t.base, t.repo, "s1", { startedAt: Date.now() });
    tr.prompt("Add rate limiting to the login endpoint");
    const task = (id: string, subject: string, activeForm: string) =>
      tr.tool("TaskCreate", { subject, description: `${subject}.`, activeForm }, 30_000, {
        toolUseResult: { task: { id, subject } },
      });
    task("1", "Write the limiter middleware", "Writing the limiter middleware");
    task("2", "接入登录接口", "正在接入登录接口");
    task("3", "Test the 429 response", "Testing the 429 response");
    const update = (taskId: string, status: string) =>
      tr.tool("TaskUpdate", { taskId, status }, 31_000, {
        toolUseResult: { success: true, taskId, updatedFields: ["status"] },
      });
    update("1", "in_progress");
    update("1", "completed");
    update("2", "in_progress");
    tr.reply("The middleware is written; wiring it into the login route now.");
    const at = { sessionId: "s1", path: tr.path, cwd: t.repo };
    const r = await t.hook("stop", payload("Stop", at, events.stop("Wiring it into the login route now.")));
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(await newest(t)).toEqual({
      goal: "Add rate limiting to the login endpoint",
      state: "In progress: 正在接入登录接口 (1/3 steps done)",
      next_action: "接入登录接口",
      plan: [
        ["Write the limiter middleware", "completed"],
        ["接入登录接口", "in_progress"],
        ["Test the 429 response", "pending"],
      ],
    });
  });
});

describe("Copilot CLI's todos (its `sql` tool on the session's todos table)", () => {
  test("INSERT, UPDATE … WHERE id IN (…) and DELETE make the plan; done is completed", async () => {
    const t = agentProject();
    const log = join(t.base, "events.jsonl");
    const sqlCall = (id: string, query: string, at: string) => ({
      type: "tool.execution_start",
      data: { toolCallId: id, toolName: "sql", arguments: { description: "Track todos", query } },
      id: `e-${id}`,
      timestamp: at,
      parentId: null,
    });
    const events = [
      {
        type: "session.start",
        data: { sessionId: "cp-1", startTime: "2026-11-28T09:00:00.000Z", context: { cwd: t.repo } },
        id: "e1",
        timestamp: "2026-11-28T09:00:00.000Z",
        parentId: null,
      },
      {
        type: "user.message",
        data: { content: "Stream the CSV export", attachments: [] },
        id: "e2",
        timestamp: "2026-11-28T09:00:01.000Z",
        parentId: "e1",
      },
      sqlCall(
        "t1",
        "INSERT INTO todos (id, title, description, status) VALUES\n  ('cursor', 'Replace the array with a cursor', 'src/export.ts (keep the API)', 'pending'),\n  ('rows', '逐行写出 CSV', 'one row per invoice; it''s streamed', 'pending'),\n  ('bench', 'Benchmark 1M rows', '', 'pending'),\n  ('docs', 'Update the docs', '', 'pending');",
        "2026-11-28T09:00:02.000Z",
      ),
      sqlCall(
        "t2",
        "UPDATE todos SET status = 'done' WHERE id = 'cursor';\nUPDATE todos SET status = 'in_progress' WHERE id IN ('rows');\nDELETE FROM todos WHERE id = 'docs';\nSELECT id, title FROM todos WHERE status = 'pending';",
        "2026-11-28T09:00:03.000Z",
      ),
    ];
    writeFileSync(log, events.map((e) => JSON.stringify(e)).join("\n") + "\n");
    const stop = {
      sessionId: "cp-1",
      timestamp: 1795000000000,
      cwd: t.repo,
      transcriptPath: log,
      stopReason: "end_turn",
    };
    const r = await t.hook("copilot", "stop", stop);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(await newest(t)).toEqual({
      goal: "Stream the CSV export",
      state: "In progress: 逐行写出 CSV (1/3 steps done)",
      next_action: "逐行写出 CSV",
      plan: [
        ["Replace the array with a cursor", "completed"],
        ["逐行写出 CSV", "in_progress"],
        ["Benchmark 1M rows", "pending"],
      ],
    });
  });
});
