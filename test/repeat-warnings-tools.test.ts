// Repeat warnings before a tool runs (issue 37, item 1): the pre-tool hook matches the tool's input
// (a command, a file's path and the head of its content, an MCP call's arguments) against the
// failure graph as the prompt hook matches a prompt, and puts a match into the agent's context in
// that agent's own shape: never a deny, nothing on no match, one warning per failure per session
// whether the prompt or a tool named it first. The precision is measured on the corpus's tool calls
// (test/fixtures/repeat-warnings/corpus.json). The hook flows run in this process on a real store;
// the CLI runs once, for Claude Code's PreToolUse.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { coveredEvents } from "../src/engine/agents/agent-hooks.ts";
import { repeatedFailures } from "../src/engine/failures/repeat-warnings.ts";
import { toolInputText, toolProposal } from "../src/engine/agents/repeat-warning.ts";
import { resolveProject } from "../src/engine/projects/resolve.ts";
import { payloads } from "./agent-fixtures.ts";
import { atPlace, fail, hookAt, inRepo } from "./engine-setup.ts";
import { projectOnLaptop, type ProjectOnLaptop } from "./helpers.ts";

interface ToolCall {
  tool: string;
  input: Record<string, unknown>;
  expect: string[];
}
const corpus = JSON.parse(
  readFileSync(join(import.meta.dir, "fixtures", "repeat-warnings", "corpus.json"), "utf8"),
) as {
  failures: { item: string; reason: string; by?: string; scope?: string; related: string[]; alt: string[] }[];
  tool_calls: ToolCall[];
};

/** A project whose graph holds Redis sessions (rejected twice by the user) and a Chinese failure. */
async function projectWithFailures(prefix: string): Promise<ProjectOnLaptop> {
  const t = projectOnLaptop(prefix);
  for (let i = 0; i < 2; i++)
    await fail(inRepo(t), "Redis for session storage", "sessions were lost on every deploy", {
      rejected_by: "user",
      related: ["redis sessions"],
      alternatives: ["Postgres sessions table"],
    });
  await fail(inRepo(t), "用轮询检查任务状态", "服务器负载太高", { alternatives: ["WebSocket 推送"] });
  return t;
}

/** Claude Code's PreToolUse payload for a Bash command (code.claude.com/docs/en/hooks). */
const claudeBash = (cwd: string, session: string, command: string) => ({
  session_id: session,
  transcript_path: join(cwd, "none.jsonl"),
  cwd,
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command, description: "Run it" },
  tool_use_id: "toolu_01",
});

const REDIS = "redis-cli SET sess:42 \"$(cat session.json)\" && echo 'redis sessions ready'";

/** What no reply of a pre-tool hook may hold: anything that denies, blocks, asks or rewrites the call. */
function neverStops(stdout: string): Record<string, any> {
  const out = JSON.parse(stdout);
  for (const key of ["decision", "continue", "cancel", "permission", "permissionDecision", "modifiedArgs"])
    expect(out).not.toHaveProperty(key);
  expect(out.hookSpecificOutput ?? {}).not.toHaveProperty("permissionDecision");
  expect(out.hookSpecificOutput ?? {}).not.toHaveProperty("updatedInput");
  return out;
}

describe("the text of a tool's input", () => {
  test("a command whole, a file's path and content head, an MCP call's nested arguments; not what a call takes out", () => {
    expect(toolInputText({ command: "git push -f", description: "Force push" })).toBe(
      "git push -f\nForce push",
    );
    const head = toolInputText({
      file_path: "Dockerfile",
      content: "FROM node:22-alpine\n" + "x".repeat(5000),
    });
    expect(head).toStartWith("Dockerfile\nFROM node:22-alpine\n");
    expect(head.length).toBeLessThan(600);
    expect(toolInputText({ title: "Webpack", labels: ["build"], meta: { body: "需要 webpack" } })).toBe(
      "Webpack\nbuild\n需要 webpack",
    );
    // An edit's old text and a patch's removed lines are what goes, not what is proposed.
    expect(
      toolInputText({ file_path: "a.json", old_string: '"jest": "29"', new_string: '"vitest": "1"' }),
    ).toBe('a.json\n"vitest": "1"');
    const patch = "*** Begin Patch\n*** Update File: package.json\n@@\n-  jest\n+  vitest\n*** End Patch\n";
    expect(toolInputText({ command: patch })).not.toContain("jest");
    expect(toolInputText({ command: "x".repeat(10_000) }).length).toBe(2000);
  });
});

describe("precision on the corpus's tool calls", () => {
  test("false alarms <= 5% and misses <= 20% of the tool calls, English and Chinese", async () => {
    const t = projectOnLaptop("mindsave-tool-corpus-");
    for (const f of corpus.failures)
      await fail(inRepo(t), f.item, f.reason, {
        rejected_by: f.by ?? "system",
        scope: f.scope ?? "project",
        related: f.related,
        alternatives: f.alt,
      });
    const tally = { warned: 0, falseAlarms: 0, expected: 0, missed: 0, wrong: [] as string[] };
    await atPlace(inRepo(t), async (s) => {
      const project = (await resolveProject(s, { create: false }))!.project.id;
      for (const c of corpus.tool_calls) {
        const named = (await repeatedFailures(s.reader, project, toolProposal(c.tool, c.input))).map(
          (f) => f.item,
        );
        tally.warned += named.length;
        tally.expected += c.expect.length;
        for (const item of named.filter((i) => !c.expect.includes(i))) {
          tally.falseAlarms++;
          tally.wrong.push(`false alarm: ${c.tool} ${JSON.stringify(c.input)} -> ${item}`);
        }
        for (const item of c.expect.filter((i) => !named.includes(i))) {
          tally.missed++;
          tally.wrong.push(`missed: ${c.tool} ${JSON.stringify(c.input)} -> ${item}`);
        }
      }
    });
    const falseAlarmRate = tally.falseAlarms / tally.warned;
    const missRate = tally.missed / tally.expected;
    // The figures the README gives (its "Repeat warnings" section).
    console.log(
      `repeat warnings on ${corpus.tool_calls.length} tool calls: ${tally.warned} warnings, ${tally.falseAlarms} false (${(falseAlarmRate * 100).toFixed(1)}%); ${tally.expected} expected, ${tally.missed} missed (${(missRate * 100).toFixed(1)}%)\n${tally.wrong.join("\n")}`,
    );
    expect(tally.expected).toBeGreaterThan(20);
    expect(corpus.tool_calls.filter((c) => !c.expect.length).length).toBeGreaterThan(20);
    expect(falseAlarmRate).toBeLessThanOrEqual(0.05);
    expect(missRate).toBeLessThanOrEqual(0.2);
  }, 60_000);
});

describe("the pre-tool hook warns of a repeat, in each agent's shape, and never stops the tool", () => {
  test("Claude Code through the CLI: the warning as PreToolUse context, no permission decision; a harmless command gets nothing", async () => {
    const t = await projectWithFailures("mindsave-tool-claude-");
    const hook = (payload: object) => t.cli(["hook", "pre-tool-use"], { stdin: JSON.stringify(payload) });
    const harmless = await hook(claudeBash(t.repo, "s-1", "bun test test/sessions.test.ts"));
    expect(harmless).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const r = await hook(claudeBash(t.repo, "s-1", REDIS));
    expect(r).toMatchObject({ code: 0, stderr: "" });
    const out = neverStops(r.stdout);
    expect(out.hookSpecificOutput.hookEventName).toBe("PreToolUse");
    const context: string = out.hookSpecificOutput.additionalContext;
    expect(context).toContain(
      "Tried: Redis for session storage. Rejected by user, 2 times: sessions were lost",
    );
    expect(context).toContain("Instead: Postgres sessions table");
    expect(context).not.toContain("用轮询");
  }, 60_000);

  test("Codex, Copilot CLI and Cline: the warning in their own replies; Chinese input warns of a Chinese failure", async () => {
    const t = await projectWithFailures("mindsave-tool-agents-");
    const codex = payloads("codex", t.repo).PostToolUse.payload;
    const c = await hookAt(t, "codex", "pre-tool-use", {
      ...codex,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: REDIS },
      tool_response: undefined,
    });
    expect(neverStops(c).hookSpecificOutput).toMatchObject({ hookEventName: "PreToolUse" });
    expect(neverStops(c).hookSpecificOutput.additionalContext).toContain("Redis for session storage");
    // Copilot: camelCase, toolArgs as a JSON text (hooks-reference.md); a top-level additionalContext (1.0.24+).
    const copilot = payloads("copilot", t.repo).postToolUse.payload;
    const k = await hookAt(t, "copilot", "pre-tool-use", {
      sessionId: copilot.sessionId,
      timestamp: copilot.timestamp,
      cwd: t.repo,
      toolName: "create",
      toolArgs: JSON.stringify({
        path: join(t.repo, "docs/决策.md"),
        file_text: "我们决定用轮询检查任务状态，每秒一次",
      }),
    });
    expect(Object.keys(neverStops(k))).toEqual(["additionalContext"]);
    expect(JSON.parse(k).additionalContext).toContain("Tried: 用轮询检查任务状态");
    expect(JSON.parse(k).additionalContext).toContain("Instead: WebSocket 推送");
    // Cline's CLI: PreToolUse is `tool_call` {name, input}; contextModification, never cancel.
    const cline = payloads("cline", t.repo).PostToolUse.payload;
    const l = await hookAt(t, "cline", "pre-tool-use", {
      ...cline,
      hookName: "tool_call",
      postToolUse: undefined,
      tool_call: { name: "run_commands", input: { commands: [REDIS] } },
    });
    expect(Object.keys(neverStops(l))).toEqual(["contextModification"]);
    expect(JSON.parse(l).contextModification).toContain("Redis for session storage");
  }, 60_000);

  test("one warning per failure per session: a prompt that named it keeps the tool quiet, and a tool that named it the prompt", async () => {
    const t = await projectWithFailures("mindsave-tool-once-");
    const prompt = (session: string, text: string) => ({
      session_id: session,
      transcript_path: join(t.repo, "none.jsonl"),
      cwd: t.repo,
      hook_event_name: "UserPromptSubmit",
      prompt: text,
    });
    const first = await hookAt(
      t,
      undefined,
      "user-prompt-submit",
      prompt("s-1", "keep the sessions in redis"),
    );
    expect(JSON.parse(first).hookSpecificOutput.additionalContext).toContain("Redis for session storage");
    expect(await hookAt(t, undefined, "pre-tool-use", claudeBash(t.repo, "s-1", REDIS))).toBe("");
    // The other order, in another session: the tool is warned, the prompt after it is not.
    const tool = await hookAt(t, undefined, "pre-tool-use", claudeBash(t.repo, "s-2", REDIS));
    expect(JSON.parse(tool).hookSpecificOutput.additionalContext).toContain("Redis for session storage");
    const later = await hookAt(
      t,
      undefined,
      "user-prompt-submit",
      prompt("s-2", "keep the sessions in redis"),
    );
    expect(later).not.toContain("repeat warning");
    // A second tool call in s-2 naming it again is quiet too.
    expect(await hookAt(t, undefined, "pre-tool-use", claudeBash(t.repo, "s-2", REDIS))).toBe("");
  }, 60_000);

  test("prompt warnings reach Copilot CLI (userPromptSubmitted, 1.0.65+) and opencode (its plugin's system prompt)", async () => {
    const t = await projectWithFailures("mindsave-prompt-agents-");
    const copilot = payloads("copilot", t.repo).userPromptSubmitted.payload;
    const k = await hookAt(t, "copilot", "user-prompt-submit", {
      ...copilot,
      prompt: "store sessions in redis",
    });
    expect(JSON.parse(k).additionalContext).toContain("Redis for session storage");
    const o = await hookAt(t, "opencode", "user-prompt-submit", {
      hook_event_name: "chat.message",
      session_id: "ses_1",
      cwd: t.repo,
      prompt: "store sessions in redis",
    });
    expect(o).toStartWith("MindSave repeat warning:");
    expect(o).toContain("Redis for session storage");
  }, 60_000);

  test("where a pre-tool hook has no channel to the model (Gemini CLI, Cursor, opencode), none is installed, and the table says why", () => {
    for (const agent of ["claude", "codex", "copilot", "cline"] as const)
      expect(coveredEvents(agent)).toContain("pre-tool-use");
    for (const agent of ["gemini", "cursor", "opencode"] as const)
      expect(coveredEvents(agent)).not.toContain("pre-tool-use");
  });
});
