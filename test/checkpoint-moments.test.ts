// The spec's last two checkpoint moments (issue 35, items 1 and 4). A plan step done: the tool hook
// notes a call that may have completed one (TodoWrite, write_todos, `mindsave plan done`), the next
// stop asks once, naming the step; never twice for one step, never in its own continuation, never
// with `checkpoints auto` or `off`. Before a compaction: Claude Code's PreCompact output becomes the
// summariser's "Additional Instructions" (its 2.1.328 binary: PreCompact stdout is
// newCustomInstructions), so the hook prints the goal, constraints and failures MindSave holds;
// Codex's PreCompact output never reaches a model, its SessionStart "compact" restores them; Gemini
// CLI has no event after a compression, so its next BeforeAgent or AfterTool does. The
// engine's decisions run in this process on a real store and real transcripts; the CLI runs once
// per output format.
import { describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readHook, runHook } from "../src/engine/agents/kinds/runtime.ts";
import { setSetting } from "../src/engine/home/settings.ts";
import { markStep } from "../src/engine/memory/plan.ts";
import { countTokens } from "../src/engine/snapshots/tokens.ts";
import { GUIDE_BUDGET } from "../src/engine/agents/compaction-guide.ts";
import { Transcript, events, payload, type Todo } from "./claude-fixtures.ts";
import { atPlace, fail, inRepo, save, setPlanAt } from "./engine-setup.ts";
import { payloads, transcriptFixture } from "./agent-fixtures.ts";
import { REPO, childEnv, projectOnLaptop, sql, type ProjectOnLaptop } from "./helpers.ts";
import type { HookEvent } from "../src/engine/agents/kinds/kind.ts";
import { checkpointRequest } from "../src/engine/agents/checkpoint-request.ts";

const README = readFileSync(join(REPO, "README.md"), "utf8");

/** One hook event as `mindsave hook EVENT [--agent NAME]` runs it, in this process: its stdout. */
function hookHere(
  t: ProjectOnLaptop,
  agent: string | undefined,
  event: HookEvent,
  raw: Record<string, unknown>,
): Promise<string> {
  const call = readHook(agent, event, raw, childEnv(t.pc.env))!;
  return atPlace(inRepo(t), (s) => runHook(s, call));
}

/** The reason of a stop's block, or null when the stop is not blocked. */
function blockOf(stdout: string): string | null {
  if (!stdout.trim()) return null;
  const out = JSON.parse(stdout);
  expect(out.decision).toBe("block");
  return out.reason;
}

const todo = (content: string, status: Todo["status"]): Todo => ({ content, status, activeForm: content });

/** A Claude Code session that edited a file; its TodoWrite calls go through the tool hook. */
function claudeSession(t: ProjectOnLaptop, id: string) {
  const tr = new Transcript(t.base, t.repo, id);
  tr.prompt("Add rate limiting to the login endpoint");
  tr.tool("Edit", { file_path: join(t.repo, "src/auth.ts"), old_string: "1", new_string: "2" }, 20_000);
  const at = { sessionId: id, path: tr.path, cwd: t.repo };
  return {
    tr,
    todos: async (list: Todo[]) => {
      const useId = tr.todos(list, 21_000);
      return hookHere(
        t,
        undefined,
        "post-tool-use",
        payload("PostToolUse", at, events.postToolUse("TodoWrite", { todos: list }, useId)),
      );
    },
    bash: async (command: string) => {
      const useId = tr.tool("Bash", { command }, 21_000);
      return hookHere(
        t,
        undefined,
        "post-tool-use",
        payload("PostToolUse", at, events.postToolUse("Bash", { command }, useId)),
      );
    },
    stop: async (active = false) =>
      blockOf(
        await hookHere(
          t,
          undefined,
          "stop",
          payload("Stop", at, { ...events.stop("Done."), stop_hook_active: active }),
        ),
      ),
  };
}

/** A Gemini CLI chat recording of session `id`: its metadata, a prompt, and one reply record with `reply`'s fields. */
function geminiChat(t: ProjectOnLaptop, id: string, reply: Record<string, unknown>): string {
  const path = join(t.base, `${id}-${crypto.randomUUID()}.jsonl`);
  const at = new Date(Date.now() - 60_000).toISOString();
  const lines = [
    { sessionId: id, projectHash: "h", startTime: at },
    { id: "u1", timestamp: at, type: "user", content: "Add rate limiting to the login endpoint" },
    { id: "g1", timestamp: at, type: "gemini", ...reply },
  ];
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return path;
}

describe("a plan step done asks the agent for its checkpoint at the next stop", () => {
  test("Claude Code's TodoWrite: each step completed is asked once, named, never in the continuation", async () => {
    const t = projectOnLaptop("mindsave-subtask-");
    const s = claudeSession(t, "cc-step-1");
    await s.todos([todo("Write the limiter", "in_progress"), todo("Add tests", "pending")]);
    // No step done yet: the stop is not blocked.
    expect(await s.stop()).toBeNull();
    await s.todos([todo("Write the limiter", "completed"), todo("Add tests", "in_progress")]);
    const first = await s.stop();
    expect(first).toContain('A step of the plan is done ("Write the limiter")');
    expect(first).toContain("Save a checkpoint now with MindSave's MCP `save` tool");
    // The agent's answer ends with its own stop: not asked again, nor at the next plain stop.
    expect(await s.stop(true)).toBeNull();
    expect(await s.stop()).toBeNull();
    // The list written again with the same step done is no new step.
    await s.todos([todo("Write the limiter", "completed"), todo("Add tests", "in_progress")]);
    expect(await s.stop()).toBeNull();
    await s.todos([todo("Write the limiter", "completed"), todo("Add tests", "completed")]);
    const second = await s.stop();
    expect(second).toContain('("Add tests")');
    expect(second).not.toContain("Write the limiter");
    expect(await s.stop()).toBeNull();
  });

  test("MindSave's own plan: `mindsave plan done` in the session is a step done, named from the plan", async () => {
    const t = projectOnLaptop("mindsave-subtask-plan-");
    await save(inRepo(t), { goal: "Rate-limit the login", state: "s", next: "n" });
    await setPlanAt(inRepo(t), ["Write the limiter", "Wire it into POST /login"]);
    const s = claudeSession(t, "cc-step-2");
    expect(await s.bash("mindsave plan done 1")).toBe("");
    await atPlace(inRepo(t), (x) => markStep(x, "1", "completed"));
    const reason = await s.stop();
    expect(reason).toContain('("Write the limiter")');
    expect(reason).not.toContain("Wire it into POST /login");
  });

  test("`checkpoints auto` and `off` never ask at a step done; a session that said not to save is not asked", async () => {
    const t = projectOnLaptop("mindsave-subtask-off-");
    for (const [value, id] of [
      ["auto", "cc-auto"],
      ["off", "cc-off"],
    ] as const) {
      await atPlace(inRepo(t), (x) => setSetting(x, "checkpoints", value));
      const s = claudeSession(t, id);
      await s.todos([todo("Write the limiter", "completed")]);
      expect(await s.stop()).toBeNull();
    }
    await atPlace(inRepo(t), (x) => setSetting(x, "checkpoints", "ask"));
    const s = claudeSession(t, "cc-nosave");
    await hookHere(
      t,
      undefined,
      "user-prompt-submit",
      payload(
        "UserPromptSubmit",
        { sessionId: "cc-nosave", path: s.tr.path, cwd: t.repo },
        events.prompt("don't save this session"),
      ),
    );
    await s.todos([todo("Write the limiter", "completed")]);
    expect(await s.stop()).toBeNull();
  });

  test("the request's cost with a step named is the one the README states", () => {
    const bare = countTokens(checkpointRequest("subtask"));
    const named = countTokens(checkpointRequest("subtask", ["Write the limiter"]));
    expect(README).toContain(`a step done costs ${bare} plus its names (${named} for "Write the limiter"`);
  });

  test("Codex's update_plan (no PostToolUse): the stop finds it in the rollout's new lines and names the step, once", async () => {
    const t = projectOnLaptop("mindsave-subtask-codex-");
    const rollout = transcriptFixture("codex-rollout.jsonl", t.base, t.repo);
    const stop = payloads("codex", t.repo, rollout).Stop.payload;
    const first = blockOf(await hookHere(t, "codex", "stop", stop));
    expect(first).toContain('A step of the plan is done ("Read the auth module")');
    expect(await hookHere(t, "codex", "stop", stop)).toBe("");
    const plan = [
      { step: "Read the auth module", status: "completed" },
      { step: "Switch login to JWT", status: "completed" },
    ];
    const call = {
      type: "function_call",
      name: "update_plan",
      arguments: JSON.stringify({ plan }),
      call_id: "p2",
    };
    appendFileSync(
      rollout,
      JSON.stringify({ timestamp: new Date().toISOString(), type: "response_item", payload: call }) + "\n",
    );
    const second = blockOf(await hookHere(t, "codex", "stop", stop));
    expect(second).toContain('("Switch login to JWT")');
    expect(second).not.toContain("Read the auth module");
  });

  test("Copilot CLI's todo table: a `sql` UPDATE that sets a row done is the step, named at the next agentStop", async () => {
    const t = projectOnLaptop("mindsave-subtask-copilot-");
    const path = join(t.base, "events.jsonl");
    const at = new Date(Date.now() - 60_000).toISOString();
    const done = "UPDATE todos SET status = 'done' WHERE id = 'limiter'";
    const event = (type: string, data: Record<string, unknown>) => ({ type, data, id: type, timestamp: at });
    const sqlCall = (id: string, query: string) =>
      event("tool.execution_start", { toolCallId: id, toolName: "sql", arguments: { query } });
    const lines = [
      event("session.start", { sessionId: "cp-1", startTime: at, context: { cwd: t.repo } }),
      event("user.message", { content: "Add rate limiting to the login endpoint" }),
      sqlCall(
        "q1",
        "INSERT INTO todos (id, title, status) VALUES ('limiter', 'Write the limiter', 'in_progress'), ('tests', 'Add tests', 'pending')",
      ),
      event("tool.execution_start", {
        toolCallId: "e1",
        toolName: "edit",
        arguments: { path: join(t.repo, "src/auth.ts"), old_str: "1", new_str: "2" },
      }),
      sqlCall("q2", done),
    ];
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const common = { sessionId: "cp-1", cwd: t.repo, timestamp: Date.now() };
    await hookHere(t, "copilot", "post-tool-use", {
      ...common,
      toolName: "sql",
      toolArgs: JSON.stringify({ query: done }),
      toolResult: { resultType: "success", textResultForLlm: "1 row updated" },
    });
    const stop = await hookHere(t, "copilot", "stop", {
      ...common,
      transcriptPath: path,
      stopReason: "end_turn",
    });
    expect(blockOf(stop)).toContain('A step of the plan is done ("Write the limiter")');
    expect(blockOf(stop)).not.toContain("Add tests");
  });

  test("Gemini CLI's write_todos through AfterTool: AfterAgent blocks once with the step (the CLI's output)", async () => {
    const t = projectOnLaptop("mindsave-subtask-gemini-");
    const list = [
      { description: "Write the limiter", status: "completed" },
      { description: "Add tests", status: "pending" },
    ];
    const path = geminiChat(t, "gm-1", {
      content: "",
      toolCalls: [
        { id: "c1", name: "write_file", args: { file_path: join(t.repo, "src/auth.ts") }, status: "success" },
        { id: "c2", name: "write_todos", args: { todos: list }, status: "success" },
      ],
    });
    const common = { session_id: "gm-1", transcript_path: path, cwd: t.repo };
    await hookHere(t, "gemini", "post-tool-use", {
      ...common,
      hook_event_name: "AfterTool",
      tool_name: "write_todos",
      tool_input: { todos: list },
      tool_response: { llmContent: "ok" },
    });
    const stop = { ...common, hook_event_name: "AfterAgent", prompt_response: "Limiter written." };
    const r = await t.cli(["hook", "stop", "--agent", "gemini"], { stdin: JSON.stringify(stop) });
    expect(r.code).toBe(0);
    expect(blockOf(r.stdout)).toContain('A step of the plan is done ("Write the limiter")');
    expect((await t.cli(["hook", "stop", "--agent", "gemini"], { stdin: JSON.stringify(stop) })).stdout).toBe(
      "",
    );
  });
});

/** What taskWithRules's project holds: its goal, its constraints and its failure's approach. */
const HELD = [
  "Rate-limit POST /login",
  "Never use Redis: only Postgres in production",
  "接口返回中文错误信息",
  "express-rate-limit with a Redis store",
];

/** A project whose newest snapshot holds a goal, two constraints (one Chinese) and a failure. */
async function taskWithRules(prefix: string): Promise<ProjectOnLaptop> {
  const t = projectOnLaptop(prefix);
  await save(inRepo(t), {
    goal: "Rate-limit POST /login",
    state: "Limiter written",
    next: "Add tests",
    constraint: ["Never use Redis: only Postgres in production", "接口返回中文错误信息"],
  });
  await fail(inRepo(t), "express-rate-limit with a Redis store", "no Redis in production");
  return t;
}

describe("before a compaction, the summary is told what MindSave holds", () => {
  test("Claude Code's PreCompact prints the goal, constraints and failures as plain text for the summariser, after its snapshot", async () => {
    const t = await taskWithRules("mindsave-guide-");
    const tr = new Transcript(t.base, t.repo, "cc-compact-1");
    tr.prompt("Rate-limit POST /login");
    tr.tool("Edit", { file_path: join(t.repo, "src/auth.ts"), old_string: "1", new_string: "2" }, 150_000);
    const at = { sessionId: "cc-compact-1", path: tr.path, cwd: t.repo };
    const r = await t.cli(["hook", "pre-compact"], {
      stdin: JSON.stringify(payload("PreCompact", at, events.preCompact("auto"))),
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    // Plain text (Claude Code passes it to the summariser as it is), not JSON.
    expect(r.stdout.startsWith("MindSave holds this task's state.")).toBe(true);
    expect(r.stdout).toContain("Constraint: Never use Redis: only Postgres in production");
    expect(r.stdout).toContain("Constraint: 接口返回中文错误信息");
    expect(r.stdout).toContain(
      "Failed, do not retry: express-rate-limit with a Redis store (no Redis in production)",
    );
    expect(countTokens(r.stdout)).toBeLessThanOrEqual(GUIDE_BUDGET);
    // The size the README states for this example.
    expect(README).toContain(`(${countTokens(r.stdout)} for a goal, two constraints and one failure)`);
    // The mechanical snapshot was saved first: the guide's goal is the newest snapshot's.
    const list = (await t.json(["snapshots"])).snapshots;
    expect(list).toHaveLength(2);
    expect(r.stdout).toContain(`Goal: ${list[0].goal}`);
  });

  test("the guide stays within its budget however much the store holds, with constraints and failures both", async () => {
    const t = projectOnLaptop("mindsave-guide-budget-");
    await save(inRepo(t), {
      goal: "Port the billing job to the new queue",
      state: "s",
      next: "n",
      constraint: Array.from(
        { length: 30 },
        (_, i) => `Keep invoice field number ${i} exactly as the ledger writes it`,
      ),
    });
    for (let i = 0; i < 20; i++)
      await fail(inRepo(t), `approach ${i} with a long description of what was tried`, "broke");
    const out = await hookHere(t, undefined, "pre-compact", {
      session_id: "cc-budget",
      cwd: t.repo,
      hook_event_name: "PreCompact",
      trigger: "manual",
    });
    expect(countTokens(out)).toBeLessThanOrEqual(GUIDE_BUDGET);
    expect(out).toContain("Goal: Port the billing job to the new queue");
    expect(out).toContain("Constraint: Keep invoice field number 0 exactly");
    expect(out).toMatch(/Failed, do not retry: approach \d+/);
  });

  test("Codex: PreCompact prints nothing (its output never reaches a model); SessionStart 'compact' restores goal, constraints and failures", async () => {
    const t = await taskWithRules("mindsave-codex-compact-");
    const common = { session_id: "cx-1", cwd: t.repo, transcript_path: null, model: "gpt-5.5" };
    const pre = await hookHere(t, "codex", "pre-compact", {
      ...common,
      hook_event_name: "PreCompact",
      trigger: "auto",
    });
    expect(pre).toBe("");
    const r = await t.cli(["hook", "session-start", "--agent", "codex"], {
      stdin: JSON.stringify({ ...common, hook_event_name: "SessionStart", source: "compact" }),
    });
    expect(r.code).toBe(0);
    for (const text of HELD) expect(r.stdout).toContain(text);
    expect(r.stdout).toContain("Entering Continuation Mode");
  });

  test("Claude Code's SessionStart 'compact' restores them too", async () => {
    const t = await taskWithRules("mindsave-claude-compact-");
    const out = await hookHere(
      t,
      undefined,
      "session-start",
      payload(
        "SessionStart",
        { sessionId: "cc-after", path: null, cwd: t.repo },
        events.sessionStart("compact"),
      ),
    );
    const context = JSON.parse(out).hookSpecificOutput.additionalContext;
    for (const text of HELD) expect(context).toContain(text);
  });
});

describe("Gemini CLI's PreCompress fires before every compression check", () => {
  test("one that compresses nothing ('auto' under half the window) saves no snapshot; a '/compress' does", async () => {
    const t = projectOnLaptop("mindsave-gemini-check-");
    const file = join(t.repo, "limit.ts");
    writeFileSync(file, "export const limit = 5;\n");
    const wrote = {
      id: "w1",
      name: "write_file",
      args: { file_path: file, content: "export const limit = 5;\n" },
    };
    const path = geminiChat(t, "gm-w", {
      content: "Wrote the limiter.",
      toolCalls: [{ ...wrote, status: "success", timestamp: new Date().toISOString() }],
      tokens: { input: 100_000 },
      model: "gemini-2.5-pro",
    });
    const compress = (trigger: string) =>
      hookHere(t, "gemini", "pre-compact", {
        session_id: "gm-w",
        cwd: t.repo,
        transcript_path: path,
        hook_event_name: "PreCompress",
        trigger,
      });
    const snapshotCount = async () =>
      existsSync(t.db) ? Number((await sql(t.db, "SELECT count(*) AS n FROM snapshots"))[0].n) : 0;
    expect(await compress("auto")).toBe("");
    expect(await snapshotCount()).toBe(0);
    await compress("manual");
    expect(await snapshotCount()).toBe(1);
  });
});

describe("Gemini CLI: no event follows a compression, so the next reply to the model restores", () => {
  /** A Gemini CLI chat recording whose newest reply measured `input` tokens of gemini-2.5-pro's window. */
  const chat = (t: ProjectOnLaptop, input: number) =>
    geminiChat(t, "gm-c", { content: "On it.", tokens: { input }, model: "gemini-2.5-pro" });

  test("PreCompress 'manual', or 'auto' past half the window: the next BeforeAgent or AfterTool carries goal, constraints and failures, once", async () => {
    const t = await taskWithRules("mindsave-gemini-compress-");
    const common = (path: string) => ({ session_id: "gm-c", cwd: t.repo, transcript_path: path });
    const prompt = async (path: string) => {
      const out = await hookHere(t, "gemini", "user-prompt-submit", {
        ...common(path),
        hook_event_name: "BeforeAgent",
        prompt: "carry on",
      });
      return out ? JSON.parse(out).hookSpecificOutput.additionalContext : "";
    };
    const compress = (path: string, trigger: string) =>
      hookHere(t, "gemini", "pre-compact", { ...common(path), hook_event_name: "PreCompress", trigger });
    // Fired before a check that compresses nothing (a fill under half the window): nothing follows.
    const low = chat(t, 100_000);
    expect(await compress(low, "auto")).toBe("");
    expect(await prompt(low)).not.toContain("Rate-limit POST /login");
    const high = chat(t, 600_000);
    await compress(high, "auto");
    const after = await prompt(high);
    for (const text of HELD) expect(after).toContain(text);
    expect(await prompt(high)).not.toContain("Rate-limit POST /login");
    await compress(low, "manual");
    const tool = await hookHere(t, "gemini", "post-tool-use", {
      ...common(low),
      hook_event_name: "AfterTool",
      tool_name: "read_file",
      tool_input: { file_path: join(t.repo, "src/auth.ts") },
      tool_response: { llmContent: "export const auth = 1;" },
    });
    for (const text of HELD) expect(JSON.parse(tool).hookSpecificOutput.additionalContext).toContain(text);
  });
});
