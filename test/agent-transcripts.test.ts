// Each agent's transcript reader on a fixture in its own format (test/fixtures/agents/, sources in
// its README.md): the last and first prompt, the plan with statuses, the edited files, the tool
// calls (failures marked), the context fill; and the same bounded reading as Claude Code's.
import { describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lastRolloutUsage, readRollout } from "../src/engine/agents/kinds/codex.ts";
import { readChatRecording } from "../src/engine/agents/kinds/gemini.ts";
import { readCopilotEvents } from "../src/engine/agents/kinds/copilot.ts";
import { cline } from "../src/engine/agents/kinds/cline.ts";
import { cursorTranscriptPath, readCursorTranscript } from "../src/engine/agents/kinds/cursor.ts";
import { patchFiles } from "../src/engine/agents/kinds/facts.ts";
import { todosIn, trailFacts } from "../src/engine/agents/kinds/trail.ts";
import { lastUsage } from "../src/engine/agents/transcript.ts";
import { Transcript } from "./claude-fixtures.ts";
import { FIXTURES, transcriptFixture } from "./agent-fixtures.ts";
import { tempDir } from "./helpers.ts";

const CWD = "/home/dev/shop";

describe("Claude Code transcript: the newest usage", () => {
  /** A Read whose result (one line of `bytes` characters) follows the reply that measured `context`. */
  const longRead = (t: Transcript, context: number, bytes: number) =>
    t.tool("Read", { file_path: "src/big.ts" }, context, { toolUseResult: { content: "x".repeat(bytes) } });

  test("is found behind a tool result longer than the first windows, and the newest one is taken", () => {
    const t = new Transcript(tempDir(), "/work/shop").reply("Planning.", 30_000);
    longRead(t, 61_000, 40 * 1024);
    expect(lastUsage(t.path)?.context).toBe(61_000);
    // Past the second window too (16 KB, 64 KB, then 256 KB).
    longRead(t, 72_500, 200 * 1024);
    expect(lastUsage(t.path)?.context).toBe(72_500);
  });

  test("a compaction behind a long result still hides the usage before it; a usage after it counts", () => {
    const t = new Transcript(tempDir(), "/work/shop").reply("Planning.", 150_000).compact();
    t.prompt("y".repeat(100 * 1024));
    expect(lastUsage(t.path)).toBeNull();
    longRead(t, 24_000, 100 * 1024);
    expect(lastUsage(t.path)?.context).toBe(24_000);
  });
});

describe("Codex rollout", () => {
  test("prompts, update_plan with statuses, apply_patch edits with their lines, tool calls, the failed one, the newest token_count", () => {
    const f = readRollout(transcriptFixture("codex-rollout.jsonl", tempDir(), CWD));
    expect(f.session_id).toBe("0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
    expect(f.started_at).toBe("2026-09-20T10:00:00.000Z");
    expect(f.cwd).toBe(CWD);
    // The injected <environment_context> is not a prompt; the user_message events are.
    expect(f.first_prompt).toBe("把登录改成用 JWT，并加上过期检查");
    expect(f.last_prompt).toBe("also keep the old session cookie for a week");
    // Each prompt is in the rollout twice (its user message item, then its user_message event): read once.
    expect(f.prompts).toEqual([
      "把登录改成用 JWT，并加上过期检查",
      "also keep the old session cookie for a week",
    ]);
    expect(f.todos).toEqual([
      { content: "Read the auth module", status: "completed" },
      { content: "Switch login to JWT", status: "in_progress" },
      { content: "Add the expiry check", status: "pending" },
    ]);
    expect(f.edited_files).toEqual([`${CWD}/src/auth.ts`, `${CWD}/src/jwt.ts`]);
    expect(f.patches).toEqual([
      { path: `${CWD}/src/auth.ts`, added: 2, removed: 1 },
      { path: `${CWD}/src/jwt.ts`, added: 1, removed: 0 },
    ]);
    expect(
      f.tool_uses.map((t) => [t.name, t.input.command ?? t.input.file_path ?? "", !!t.is_error]),
    ).toEqual([
      ["update_plan", "", false],
      ["shell", "cat src/auth.ts", false],
      ["apply_patch", "src/auth.ts", false],
      ["shell", "npm test", true],
    ]);
    expect(f.usage).toMatchObject({
      context: 150_500,
      window: 272_000,
      cache_read_input_tokens: 130_000,
      model: "gpt-5.3-codex",
    });
    expect(f.skipped_bytes).toBe(0);
    // The assistant's message after the last call: what PreCompact and SessionEnd restore as the last reply.
    expect(f.last_reply).toBe("Login now signs a JWT; the expiry check is next.");
  });

  // codex-rs core (record_input_and_rollout_usermsg) writes a prompt's user message item, then the
  // user_message event derived from it; Codex 0.169 writes the item only.
  test("a prompt's item and the event after it are one prompt; the same words typed again are another", () => {
    const path = join(tempDir(), "rollout.jsonl");
    const item = (type: string, payload: Record<string, unknown>) =>
      JSON.stringify({ timestamp: "2026-09-20T10:00:00.000Z", type, payload });
    const typed = (text: string) => [
      item("response_item", { type: "message", role: "user", content: [{ type: "input_text", text }] }),
      item("event_msg", { type: "user_message", message: text, images: [] }),
    ];
    const reply = (text: string) =>
      item("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text }] });
    writeFileSync(
      path,
      [
        item("session_meta", { id: "s-2", timestamp: "2026-09-20T10:00:00.000Z", cwd: CWD }),
        item("response_item", {
          type: "message",
          role: "user",
          content: [{ type: "input_text", text: "<environment_context>\n</environment_context>" }],
        }),
        ...typed("给导出加上按日期筛选"),
        reply("Added the filter."),
        ...typed("run the tests"),
        reply("2 failing."),
        ...typed("run the tests"),
      ].join("\n") + "\n",
    );
    expect(readRollout(path).prompts).toEqual(["给导出加上按日期筛选", "run the tests", "run the tests"]);
    // A build that writes the items only: each is a prompt.
    writeFileSync(
      path,
      [typed("add the CSV export")[0], reply("Done."), typed("add the CSV export")[0]].join("\n") + "\n",
    );
    expect(readRollout(path).prompts).toEqual(["add the CSV export", "add the CSV export"]);
  });

  // Codex 0.169 sends the AGENTS.md files as a user message item before the person's first prompt.
  test("the AGENTS.md instructions Codex sends ahead of the prompt are no prompt", () => {
    const path = join(tempDir(), "rollout.jsonl");
    const item = (type: string, payload: Record<string, unknown>) =>
      JSON.stringify({ timestamp: "2026-09-20T10:00:00.000Z", type, payload });
    const userItem = (text: string) =>
      item("response_item", { type: "message", role: "user", content: [{ type: "input_text", text }] });
    writeFileSync(
      path,
      [
        item("session_meta", { id: "s-1", timestamp: "2026-09-20T10:00:00.000Z", cwd: CWD }),
        userItem(
          `# AGENTS.md instructions for ${CWD}\n\n<INSTRUCTIONS>\n<!-- BEGIN mindsave -->\n</INSTRUCTIONS>`,
        ),
        userItem("<environment_context>\n  <cwd>/home/dev/shop</cwd>\n</environment_context>"),
        userItem("continue where we left off"),
      ].join("\n") + "\n",
    );
    expect(readRollout(path).first_prompt).toBe("continue where we left off");
  });

  // Codex 0.169 records an MCP tool's call with its server as a namespace.
  test("an MCP tool's call is named with its server's namespace, as Claude Code names it", () => {
    const path = join(tempDir(), "rollout.jsonl");
    const call = {
      type: "function_call",
      namespace: "mcp__mindsave",
      name: "save",
      arguments: JSON.stringify({ goal: "Move the shipping quotes" }),
      call_id: "call_1",
    };
    writeFileSync(
      path,
      JSON.stringify({ timestamp: "2026-09-20T10:00:00.000Z", type: "response_item", payload: call }) + "\n",
    );
    expect(readRollout(path).tool_uses.map((t) => t.name)).toEqual(["mcp__mindsave__save"]);
  });

  test("the fill is the newest token_count, and none after a compaction until the next one", () => {
    const path = transcriptFixture("codex-rollout.jsonl", tempDir(), CWD);
    expect(lastRolloutUsage(path)).toMatchObject({ context: 150_500, window: 272_000 });
    appendFileSync(
      path,
      JSON.stringify({
        timestamp: "2026-09-20T10:05:00.000Z",
        type: "compacted",
        payload: { message: "summary" },
      }) + "\n",
    );
    expect(lastRolloutUsage(path)).toBeNull();
    expect(readRollout(path).compactions).toBe(1);
  });

  test("a rollout longer than the budget: identity and first prompt from the head, facts from the tail only", () => {
    const path = transcriptFixture("codex-rollout.jsonl", tempDir(), CWD);
    const lines = readFileSync(path, "utf8");
    const filler =
      JSON.stringify({
        timestamp: "2026-09-20T10:00:30.000Z",
        type: "response_item",
        payload: { type: "reasoning", summary: [], encrypted_content: "x".repeat(2000) },
      }) + "\n";
    // The plan (line 7) stays in the head; the patch and the newest calls are in the tail.
    writeFileSync(
      path,
      lines.split("\n").slice(0, 7).join("\n") +
        "\n" +
        filler.repeat(60) +
        lines.split("\n").slice(7).join("\n"),
    );
    const f = readRollout(path, { head: 4096, tail: 8192 });
    expect(f.session_id).toBe("0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
    expect(f.first_prompt).toBe("把登录改成用 JWT，并加上过期检查");
    expect(f.skipped_bytes).toBeGreaterThan(100_000);
    // The tail holds the last calls only; the plan was older than the window.
    expect(f.todos).toBeNull();
    expect(f.tool_uses.map((t) => t.name)).toContain("apply_patch");
  });

  test("apply_patch texts: added, updated, deleted and moved files with their lines", () => {
    expect(
      patchFiles(
        "*** Begin Patch\n*** Update File: a.ts\n*** Move to: b.ts\n@@\n-x\n+y\n*** Delete File: c.ts\n*** Add File: d.ts\n+1\n+2\n*** End Patch",
      ),
    ).toEqual([
      { path: "b.ts", added: 1, removed: 1 },
      { path: "c.ts", added: 0, removed: 0 },
      { path: "d.ts", added: 2, removed: 0 },
    ]);
  });

  test("a missing, compressed or non-file rollout gives empty facts", () => {
    expect(readRollout(join(tempDir(), "nope.jsonl")).tool_uses).toEqual([]);
    expect(readRollout(join(tempDir(), "rollout.jsonl.zst")).first_prompt).toBeNull();
    expect(readRollout("/dev/null").session_id).toBeNull();
  });
});

describe("Gemini CLI chat recording", () => {
  test("JSONL: a repeated id replaces its record, $rewindTo drops from its id on, write_todos is the plan, tokens.input the fill", () => {
    const f = readChatRecording(transcriptFixture("gemini-session.jsonl", tempDir(), CWD));
    expect(f.session_id).toBe("7f3c2a10-5b6e-4d8f-9a1b-2c3d4e5f6a7b");
    expect(f.started_at).toBe("2026-09-21T08:00:00.000Z");
    expect(f.first_prompt).toBe("Add rate limiting to the API gateway");
    expect(f.last_prompt).toBe("限流只对 /api 路径生效");
    expect(f.todos).toEqual([
      { content: "Read the gateway", status: "completed" },
      { content: "Add a token bucket", status: "in_progress" },
      { content: "Write the tests", status: "pending" },
    ]);
    // wrong.ts was rewound away; the replaced record's tool calls count once.
    expect(f.edited_files).toEqual([`${CWD}/src/gateway.ts`, `${CWD}/src/limit.ts`]);
    expect(f.tool_uses.map((t) => [t.name, !!t.is_error])).toEqual([
      ["write_todos", false],
      ["replace", false],
      ["run_shell_command", true],
      ["write_file", false],
    ]);
    expect(f.usage).toMatchObject({ context: 61_000, window: 1_048_576, model: "gemini-2.5-pro" });
  });

  test("the model's text is the last reply when no tool call follows it (what SessionEnd and PreCompress see)", () => {
    const path = join(tempDir(), "session.jsonl");
    const meta = {
      sessionId: "g-reply",
      projectHash: "9e1f",
      startTime: "2026-10-05T09:00:00.000Z",
      kind: "main",
    };
    const gemini = (id: string, text: string, tools: unknown[] = []) => ({
      id,
      timestamp: "2026-10-05T09:00:05.000Z",
      type: "gemini",
      content: [{ text }],
      toolCalls: tools,
    });
    const call = {
      id: "run_shell_command-1",
      name: "run_shell_command",
      args: { command: "npm test" },
      status: "success",
    };
    const lines = [
      meta,
      { id: "u1", type: "user", content: [{ text: "Bump Node to 22" }] },
      gemini("g1", "Running the tests.", [call]),
    ];
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    expect(readChatRecording(path).last_reply ?? null).toBeNull();
    lines.push(gemini("g2", "CI is on Node 22. Next, I'll update the engines field."));
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    expect(readChatRecording(path).last_reply).toBe("CI is on Node 22. Next, I'll update the engines field.");
  });

  test("a pre-JSONL session file (one JSON document) is read too", () => {
    const dir = tempDir();
    const path = join(dir, "session-2026-05-01T09-00-0a1b2c3d.json");
    writeFileSync(path, readFileSync(join(FIXTURES, "gemini-session.json"), "utf8"));
    const f = readChatRecording(path);
    expect(f).toMatchObject({
      session_id: "0a1b2c3d-legacy",
      first_prompt: "Fix the flaky upload test",
      edited_files: ["/work/app/test/upload.test.ts"],
    });
  });
});

describe("Copilot CLI event log", () => {
  test("session.start, user.message, tool.execution_start/complete (a failure marked), edits by path, compaction's token count", () => {
    const f = readCopilotEvents(transcriptFixture("copilot-events.jsonl", tempDir(), CWD));
    expect(f).toMatchObject({
      session_id: "c0p1l0t0-1111-4222-8333-944455556666",
      cwd: CWD,
      first_prompt: "Make the CSV export stream rows instead of buffering",
      compactions: 1,
    });
    expect(f.tool_uses.map((t) => [t.name, !!t.is_error])).toEqual([
      ["view", false],
      ["edit", false],
      ["bash", true],
    ]);
    expect(f.edited_files).toEqual([`${CWD}/src/export.ts`]);
    expect(f.usage).toMatchObject({ context: 96_000, window: 128_000 });
  });

  test("assistant.message's text is the last reply until a call follows it; a sub-agent's text is not", () => {
    const path = transcriptFixture("copilot-events.jsonl", tempDir(), CWD);
    // The fixture's only text ("I'll read the export module first.") came before its calls.
    expect(readCopilotEvents(path).last_reply ?? null).toBeNull();
    const said = (content: string, more: Record<string, unknown> = {}) =>
      JSON.stringify({
        type: "assistant.message",
        data: { messageId: crypto.randomUUID(), content, toolRequests: [], turnId: "1" },
        id: crypto.randomUUID(),
        timestamp: "2026-09-22T07:01:00.000Z",
        parentId: null,
        ...more,
      }) + "\n";
    appendFileSync(path, said("行已经改成流式写出。Next I'll add a test for a 10k-row export."));
    appendFileSync(path, said("Explored 3 files.", { agentId: "explore-1" }));
    expect(readCopilotEvents(path).last_reply).toBe(
      "行已经改成流式写出。Next I'll add a test for a 10k-row export.",
    );
  });
});

describe("Cursor agent transcript", () => {
  test("the <user_query> is the prompt; Write and StrReplace edit by path; calls without ids get their place", () => {
    const f = readCursorTranscript(transcriptFixture("cursor-transcript.jsonl", tempDir(), CWD));
    expect(f.first_prompt).toBe("Add a dark mode toggle to the settings page");
    expect(f.last_prompt).toBe("remember the choice in localStorage");
    expect(f.tool_uses.map((t) => t.name)).toEqual(["Read", "StrReplace", "Write", "Shell"]);
    expect(new Set(f.tool_uses.map((t) => t.id)).size).toBe(4);
    expect(f.edited_files).toEqual([`${CWD}/src/settings.tsx`, `${CWD}/src/dark-toggle.tsx`]);
    expect(f.usage).toBeNull();
  });

  test("an assistant line's text after its last call is the last reply; a text a call follows is not", () => {
    const path = transcriptFixture("cursor-transcript.jsonl", tempDir(), CWD);
    expect(readCursorTranscript(path).last_reply).toBe("Added the toggle.");
    const assistant = (...content: unknown[]) =>
      JSON.stringify({ role: "assistant", message: { content } }) + "\n";
    const text = (t: string) => ({ type: "text", text: t });
    const shell = { type: "tool_use", name: "Shell", input: { command: "npm test" } };
    appendFileSync(path, assistant(text("Saving the choice now."), shell));
    expect(readCursorTranscript(path).last_reply ?? null).toBeNull();
    appendFileSync(path, assistant(shell, text("Tests pass."), text("下一步：给切换加一个测试。")));
    expect(readCursorTranscript(path).last_reply).toBe("Tests pass.\n下一步：给切换加一个测试。");
  });

  test("the CLI gives no transcript_path: it is found under ~/.cursor/projects by the workspace root", () => {
    const home = tempDir();
    const dir = join(home, ".cursor", "projects", "home-dev-my-shop", "agent-transcripts");
    mkdirSync(join(dir, "conv-2"), { recursive: true });
    writeFileSync(join(dir, "conv-1.jsonl"), "");
    writeFileSync(join(dir, "conv-2", "conv-2.jsonl"), "");
    expect(cursorTranscriptPath("/home/dev/my.shop", "conv-1", { HOME: home })).toBe(
      join(dir, "conv-1.jsonl"),
    );
    expect(cursorTranscriptPath("/home/dev/my.shop", "conv-2", { HOME: home })).toBe(
      join(dir, "conv-2", "conv-2.jsonl"),
    );
    expect(cursorTranscriptPath("/home/dev/my.shop", "../etc", { HOME: home })).toBeUndefined();
  });
});

describe("payload-only agents (Cline, opencode): the hooks' trail", () => {
  test("a task list from `todos` or Cline's task_progress checklist; facts with stable ids from the trail", () => {
    expect(
      todosIn({
        todos: [
          { content: "a", status: "completed" },
          { content: "b", status: "in_progress" },
        ],
      }),
    ).toEqual([
      { content: "a", status: "completed" },
      { content: "b", status: "in_progress" },
    ]);
    expect(
      todosIn({ task_progress: "- [x] Read the schema\n- [ ] Write the migration\n- [ ] Update the models" }),
    ).toEqual([
      { content: "Read the schema", status: "completed" },
      { content: "Write the migration", status: "in_progress" },
      { content: "Update the models", status: "pending" },
    ]);
    const trail = {
      first_prompt: "Migrate",
      started: "2026-09-22T07:00:00.000Z",
      tools: [{ name: "write_to_file", field: "path", target: "m.sql", at: "2026-09-22T07:00:01.000Z" }],
      files: ["m.sql"],
    };
    const a = trailFacts(trail, "task-1");
    expect(a).toMatchObject({ session_id: "task-1", first_prompt: "Migrate", edited_files: ["m.sql"] });
    expect(a.tool_uses[0]).toMatchObject({ name: "write_to_file", input: { path: "m.sql" } });
    expect(trailFacts(trail, "task-1").tool_uses[0].id).toBe(a.tool_uses[0].id);
  });
});

describe("Cline CLI: the context fill", () => {
  test("post-tool-use reads the newest reply's metrics.inputTokens from the session's messages file", () => {
    const home = tempDir();
    const id = "1795915524437_hi47g";
    const dir = join(home, ".cline", "data", "sessions", id);
    mkdirSync(dir, { recursive: true });
    const reply = (inputTokens: number) => ({
      role: "assistant",
      content: [{ type: "text", text: "…" }],
      modelInfo: { id: "qwen3-coder", provider: "openai-compatible" },
      metrics: { inputTokens, outputTokens: 5, cacheReadTokens: 40_000, cacheWriteTokens: 0 },
    });
    const messages = [
      { role: "user", content: [{ type: "text", text: "Add rate limiting" }] },
      reply(30_000),
      { role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: [] }] },
      reply(61_000),
      // A reply still streaming has no metrics yet.
      { role: "assistant", content: [{ type: "text", text: "…" }] },
    ];
    writeFileSync(
      join(dir, `${id}.messages.json`),
      JSON.stringify({ version: 1, messages, system_prompt: "…" }),
    );
    const toolResult = (rootSessionId: string) => ({
      hookName: "tool_result",
      taskId: id,
      sessionContext: { rootSessionId },
      workspaceRoots: [CWD],
      tool_result: { name: "editor", input: { path: "src/a.ts" } },
    });
    const fill = (raw: Record<string, unknown>, event: "post-tool-use" | "session-start" = "post-tool-use") =>
      cline.source.usage(cline.parse(event, raw, { HOME: home }).payload);
    // The whole prompt: cache reads are part of inputTokens, not added to it.
    expect(fill(toolResult(id))).toMatchObject({ context: 61_000, model: "qwen3-coder" });
    expect(fill(toolResult("no-such-session"))).toBeNull();
    expect(fill(toolResult("../" + id))).toBeNull();
    // Only post-tool-use reads the file.
    expect(fill(toolResult(id), "session-start")).toBeNull();
  });
});
