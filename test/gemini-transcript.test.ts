// Gemini CLI's chat recording as the hooks read it (issue 34): a shell call is logged by its
// command, not the folder it ran in (run_shell_command's dir_path), and a checkpoint
// (`{"$set": {"messages": […]}}`, written on /rewind) replaces the conversation: the calls it
// dropped are no work of the session.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "./helpers.ts";
import { agentProject } from "./agent-fixtures.ts";

/** The chat recording written, then Gemini's AfterAgent hook (MindSave's stop) on it, exiting 0 quietly. */
async function afterAgent(
  t: ReturnType<typeof agentProject>,
  sessionId: string,
  path: string,
  lines: unknown[],
  reply: string,
) {
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const payload = {
    session_id: sessionId,
    transcript_path: path,
    cwd: t.repo,
    hook_event_name: "AfterAgent",
    prompt_response: reply,
  };
  const r = await t.hook("gemini", "stop", payload);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
}

test("a shell call by its command; a $set checkpoint drops the messages it rewound", async () => {
  const t = agentProject();
  const path = join(t.base, "session-2026-11-28T09-00-abcd1234.jsonl");
  const user = (id: string, text: string, at: string) => ({
    id,
    timestamp: at,
    type: "user",
    content: [{ text }],
  });
  const call = (id: string, name: string, args: Record<string, unknown>, at: string) => ({
    id: `m-${id}`,
    timestamp: at,
    type: "gemini",
    content: "",
    toolCalls: [{ id, name, args, status: "success", timestamp: at }],
    model: "gemini-3.1-pro-preview",
  });
  const u1 = user("u1", "Add rate limiting to the login endpoint", "2026-11-28T09:00:01.000Z");
  const shell = call(
    "c1",
    "run_shell_command",
    { command: "npm test -- login", description: "Run the login tests", dir_path: join(t.repo, "api") },
    "2026-11-28T09:00:02.000Z",
  );
  const lines = [
    {
      sessionId: "g-1",
      projectHash: "p",
      startTime: "2026-11-28T09:00:00.000Z",
      lastUpdated: "2026-11-28T09:00:00.000Z",
      kind: "main",
    },
    u1,
    shell,
    user("u2", "use Redis for the counters", "2026-11-28T09:00:03.000Z"),
    call(
      "c2",
      "write_file",
      { file_path: join(t.repo, "src", "redis.ts"), content: "x" },
      "2026-11-28T09:00:04.000Z",
    ),
    // /rewind to before u2: the conversation is u1 and the shell call again.
    { $set: { messages: [u1, shell], lastUpdated: "2026-11-28T09:00:05.000Z" } },
    call(
      "c3",
      "write_file",
      { file_path: join(t.repo, "src", "限流.ts"), content: "y" },
      "2026-11-28T09:00:06.000Z",
    ),
  ];
  await afterAgent(t, "g-1", path, lines, "Wrote the limiter.");
  const calls = await sql(t.db, "SELECT tool, target FROM tool_calls ORDER BY timestamp");
  expect(calls.map((c) => [c.tool, c.target])).toEqual([
    ["run_shell_command", "npm test -- login"],
    ["write_file", join(t.repo, "src", "限流.ts")],
  ]);
  const [snap] = await sql(
    t.db,
    "SELECT active_files FROM snapshots WHERE deleted = 0 ORDER BY created_at DESC",
  );
  expect((JSON.parse(String(snap.active_files)) as { path: string }[]).map((f) => f.path)).toEqual([
    "src/限流.ts",
  ]);
});

test("the context Gemini CLI injects as user records (its session context, a hook's context) is no prompt: a continued task keeps its goal", async () => {
  const t = agentProject();
  const goal = "Stream the 账单 ledger export as CSV";
  expect(
    (await t.cli(["save", "--goal", goal, "--state", "reads every invoice first", "--next", "add a cursor"]))
      .code,
  ).toBe(0);
  const path = join(t.base, "session-2026-11-28T10-15-0ed06704.jsonl");
  const user = (id: string, text: string) => ({
    id,
    timestamp: "2026-11-28T10:15:13.692Z",
    type: "user",
    content: [{ text }],
  });
  const lines = [
    {
      sessionId: "g-2",
      projectHash: "p",
      startTime: "2026-11-28T10:15:13.686Z",
      lastUpdated: "2026-11-28T10:15:13.686Z",
      kind: "main",
    },
    // As Gemini CLI 0.61 writes its first record: the session context, in a $set of messages.
    {
      $set: {
        messages: [
          user(
            "s0",
            "<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n</session_context>",
          ),
        ],
        lastUpdated: "2026-11-28T10:15:13.692Z",
      },
    },
    user("h1", `<hook_context>\nMindSave restore block\ngoal: ${goal}\n</hook_context>`),
    user("u1", "continue where we left off"),
    {
      id: "m1",
      timestamp: "2026-11-28T10:15:20.000Z",
      type: "gemini",
      content: "",
      toolCalls: [
        {
          id: "c1",
          name: "write_file",
          args: { file_path: join(t.repo, "src", "cursor.ts"), content: "x" },
          status: "success",
        },
      ],
    },
  ];
  await afterAgent(t, "g-2", path, lines, "Added the cursor.");
  const goals = (await sql(t.db, "SELECT goal FROM snapshots WHERE deleted = 0 ORDER BY created_at")).map(
    (s) => s.goal,
  );
  expect(goals).toEqual([goal, goal]);
});
