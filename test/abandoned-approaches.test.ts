// The mechanical snapshot's failures and its read-only rule (issue 35, item 2), in-process through
// the engine on real stores and real transcript files: an approach tried in two different commands
// that both failed, then given up, goes into the failure graph once, with its error (redacted);
// a flaky command that then worked records nothing; a session that only read and answered leaves
// the project's task as it was.
import { describe, expect, test } from "bun:test";
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { atPlace, inRepo } from "./engine-setup.ts";
import { projectOnLaptop, type ProjectOnLaptop } from "./helpers.ts";
import { Transcript } from "./claude-fixtures.ts";
import { writeAuto } from "../src/engine/agents/auto-snapshot.ts";
import { ingestTranscript, readAgentTranscript } from "../src/engine/agents/ingest.ts";
import { readTranscript } from "../src/engine/agents/transcript.ts";
import { restoreContext } from "../src/engine/agents/hook-events.ts";
import { readHook, runHook } from "../src/engine/agents/kinds/runtime.ts";
import { resolveProject } from "../src/engine/projects/resolve.ts";
import { failuresFor } from "../src/engine/failures/record.ts";
import type { HookEvent } from "../src/engine/agents/kinds/kind.ts";

/** A GitHub token as an npm error might echo it: never stored. */
const TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";

/** A Claude Code session of the project `t` that starts with `prompt`, its transcript written as the session goes. */
const sessionIn = (t: ProjectOnLaptop, id: string, prompt: string) =>
  new Transcript(t.base, t.repo, id).prompt(prompt);

/** An edit of a file of the project, as Claude Code's Edit tool records it. */
const edit = (t: ProjectOnLaptop, tr: Transcript, file: string) =>
  tr.tool("Edit", { file_path: join(t.repo, file), old_string: "a", new_string: "b" }, 21_000);

/** What a hook that reads the transcript does at a turn's end (`final`: the session's end): the auto-snapshot. */
const autoSave = (t: ProjectOnLaptop, tr: Transcript, final = false) =>
  atPlace(inRepo(t), (s) =>
    writeAuto(s, readTranscript(tr.path), { sessionId: tr.sessionId }, final ? "session-end" : "turn-end", {
      ...(final ? { final: { logged: 0 } } : {}),
    }),
  );

/** The project's failure graph, item by item. */
const failures = (t: ProjectOnLaptop) =>
  atPlace(inRepo(t), async (s) => {
    const ctx = await resolveProject(s, { create: false });
    return failuresFor(s, ctx?.project.id ?? null);
  });

const bash = (tr: Transcript, command: string, error?: string) =>
  tr.tool("Bash", { command, description: "install" }, 20_000, error ? { error } : {});

/** The session's commands in order, each with its error when it failed. */
const commands = (tr: Transcript, calls: [command: string, error?: string][]) =>
  calls.forEach(([command, error]) => bash(tr, command, error));

describe("an approach tried two ways and abandoned", () => {
  test("goes into the failure graph once, rejected by the system, with both commands and the last error (its token redacted); the snapshot carries it", async () => {
    const t = projectOnLaptop("mindsave-abandoned-");
    const tr = sessionIn(t, "s-redis", "Cache the product list");
    bash(
      tr,
      "npm i redis",
      "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.example/redis",
    );
    bash(
      tr,
      "yarn add redis@4 2>&1 | tail -5",
      `error An unexpected error occurred: "https://registry.example/redis: Request failed \\"401 Unauthorized\\"" (token ${TOKEN})`,
    );
    bash(tr, "npm i lru-cache");
    edit(t, tr, "src/cache.ts");
    const saved = await autoSave(t, tr);
    expect(Object.keys(saved!.snapshot.failure_graph)).toEqual(["redis"]);
    const graph = await failures(t);
    expect(graph.map((f) => [f.item, f.rejected_by, f.repeat_count, f.scope])).toEqual([
      ["redis", "system", 2, "project"],
    ]);
    expect(graph[0].reason).toStartWith(
      "tried 2 ways, each failed (`npm i redis`, `yarn add redis@4 2>&1 | tail -5`), then abandoned: error An unexpected error occurred:",
    );
    expect(graph[0].reason).not.toContain(TOKEN);
    // The hooks run again and again over the same transcript: nothing new, no second record, no new count.
    expect(await autoSave(t, tr)).toBeNull();
    expect(await autoSave(t, tr, true)).toBeNull();
    expect((await failures(t)).map((f) => [f.item, f.repeat_count])).toEqual([["redis", 2]]);
    // The restore names it, so the next session does not try it a third time.
    expect(await atPlace(inRepo(t), (s) => restoreContext(s))).toMatch(/- redis: tried 2 ways, each failed/);
  });

  test("a flaky command that then worked, and one command failing twice the same way, record nothing", async () => {
    const t = projectOnLaptop("mindsave-abandoned-flaky-");
    const tr = sessionIn(t, "s-flaky", "Cache the product list");
    commands(tr, [
      ["npm i redis", "npm ERR! network ETIMEDOUT"],
      ["npm install redis --prefer-online", "npm ERR! network ETIMEDOUT"],
      ["npm i redis"],
      ["bun run lint", "2 problems"],
      ["bun run lint", "2 problems"],
      ["bun test"],
    ]);
    edit(t, tr, "src/cache.ts");
    expect(Object.keys((await autoSave(t, tr))!.snapshot.failure_graph)).toEqual([]);
    await autoSave(t, tr, true);
    expect(await failures(t)).toEqual([]);
  });

  test("given up without another way working: recorded at the session's end, not at a turn's (a look around is no other way); Chinese names and errors kept", async () => {
    const t = projectOnLaptop("mindsave-abandoned-zh-");
    const tr = sessionIn(t, "s-zh", "给商品列表加中文分词搜索");
    commands(tr, [
      ["pip install 结巴分词", "错误：找不到满足要求的版本 结巴分词"],
      ["pip3 install 结巴分词==0.42 --user", "错误：没有找到与 结巴分词==0.42 匹配的发行版"],
      ["ls ~/.cache/pip"],
    ]);
    edit(t, tr, "src/search.ts");
    expect(Object.keys((await autoSave(t, tr))!.snapshot.failure_graph)).toEqual([]);
    expect(await failures(t)).toEqual([]);
    expect(Object.keys((await autoSave(t, tr, true))!.snapshot.failure_graph)).toEqual(["结巴分词"]);
    const graph = await failures(t);
    expect(graph.map((f) => [f.item, f.repeat_count])).toEqual([["结巴分词", 2]]);
    expect(graph[0].reason).toBe(
      "tried 2 ways, each failed (`pip install 结巴分词`, `pip3 install 结巴分词==0.42 --user`), then abandoned: 错误：没有找到与 结巴分词==0.42 匹配的发行版",
    );
  });

  test("ingest records a transcript's abandoned approaches once, however often it is ingested", async () => {
    const t = projectOnLaptop("mindsave-abandoned-ingest-");
    const tr = sessionIn(t, "s-ingest", "Send the weekly report by mail");
    commands(tr, [
      ["npx nodemailer-cli send report.html", "sh: nodemailer-cli: command not found"],
      ["npm i -g nodemailer-cli", "npm ERR! 404 'nodemailer-cli@*' is not in this registry."],
      ["python3 send_report.py"],
    ]);
    const first = await atPlace(inRepo(t), (s) => ingestTranscript(s, tr.path));
    expect(first.abandoned).toEqual(["nodemailer-cli"]);
    await atPlace(inRepo(t), (s) => ingestTranscript(s, tr.path));
    expect((await failures(t)).map((f) => [f.item, f.repeat_count])).toEqual([["nodemailer-cli", 2]]);
  });

  test("a Codex rollout ingested: its failed calls' output is the reason; Copilot CLI's event log keeps a failed call's error too", async () => {
    const t = projectOnLaptop("mindsave-abandoned-codex-");
    const path = join(t.base, "rollout.jsonl");
    const at = (s: number) => `2026-11-28T10:00:${String(s).padStart(2, "0")}.000Z`;
    const item = (s: number, payload: Record<string, unknown>) =>
      JSON.stringify({ timestamp: at(s), type: "response_item", payload });
    const shell = (s: number, id: string, command: string, failed?: string) => [
      item(s, {
        type: "function_call",
        name: "shell",
        arguments: JSON.stringify({ command: ["bash", "-lc", command], workdir: t.repo }),
        call_id: id,
      }),
      item(s + 1, {
        type: "function_call_output",
        call_id: id,
        output: failed ? { content: failed, success: false } : '{"output":"ok","metadata":{"exit_code":0}}',
      }),
    ];
    const lines = [
      JSON.stringify({ timestamp: at(0), type: "session_meta", payload: { id: "codex-1", cwd: t.repo } }),
      JSON.stringify({
        timestamp: at(1),
        type: "event_msg",
        payload: { type: "user_message", message: "把导出改成流式 CSV" },
      }),
      ...shell(2, "c1", "npm i fast-csv", "npm ERR! 代理拒绝了连接"),
      ...shell(4, "c2", "pnpm add fast-csv@5", "ERR_PNPM_FETCH_403 禁止访问"),
      ...shell(6, "c3", "npm i csv-stringify"),
    ];
    writeFileSync(path, lines.join("\n") + "\n");
    expect((await atPlace(inRepo(t), (s) => ingestTranscript(s, path))).abandoned).toEqual(["fast-csv"]);
    expect((await failures(t)).map((f) => f.reason)).toEqual([
      "tried 2 ways, each failed (`npm i fast-csv`, `pnpm add fast-csv@5`), then abandoned: ERR_PNPM_FETCH_403 禁止访问",
    ]);
    const copilot = readAgentTranscript(join(import.meta.dir, "fixtures/agents/copilot-events.jsonl"));
    expect(copilot.tool_uses.filter((u) => u.is_error).map((u) => u.error)).toEqual(["1 failing"]);
  });

  test("an agent without a transcript (Cline): its hooks' trail keeps each failure's error; the task's end records the approach", async () => {
    const t = projectOnLaptop("mindsave-abandoned-cline-");
    const fire = (event: HookEvent, hookName: string, more: Record<string, unknown>) =>
      atPlace(inRepo(t), async (s) => {
        const raw = { hookName, taskId: "task-1", workspaceRoots: [t.repo], ...more };
        return runHook(s, readHook("cline", event, raw, s.env)!);
      });
    const run = (command: string, result: string, success: boolean) =>
      fire("post-tool-use", "PostToolUse", {
        postToolUse: { toolName: "execute_command", parameters: { command }, result, success },
      });
    await fire("user-prompt-submit", "UserPromptSubmit", {
      userPromptSubmit: { prompt: "Queue the emails" },
    });
    await run("npm i bullmq", "npm ERR! peer dep conflict: ioredis", false);
    await run("pnpm add bullmq@5", "ERR_PNPM_PEER_DEP_ISSUES 无法解析 ioredis", false);
    await run("npm i pg-boss", "added 12 packages", true);
    await fire("post-tool-use", "PostToolUse", {
      postToolUse: {
        toolName: "write_to_file",
        parameters: { path: "src/queue.ts" },
        result: "ok",
        success: true,
      },
    });
    await fire("stop", "TaskComplete", { taskComplete: { taskMetadata: { taskId: "task-1" } } });
    const graph = await failures(t);
    expect(graph.map((f) => [f.item, f.repeat_count])).toEqual([["bullmq", 2]]);
    expect(graph[0].reason).toBe(
      "tried 2 ways, each failed (`npm i bullmq`, `pnpm add bullmq@5`), then abandoned: ERR_PNPM_PEER_DEP_ISSUES 无法解析 ioredis",
    );
  });
});

describe("a session that only read and answered", () => {
  /** A real task's session: its snapshot names the task and its next step. */
  async function afterTask(prefix: string): Promise<ProjectOnLaptop> {
    const t = projectOnLaptop(prefix);
    const tr = sessionIn(t, "s-task", "Add rate limiting to the login endpoint");
    edit(t, tr, "src/limit.ts");
    tr.reply("Added the limiter. Next, I'll wire it into the login route.");
    expect(await autoSave(t, tr, true)).not.toBeNull();
    return t;
  }

  /** A question answered by reading (and `command`): the session's turns and its end, as the hooks save them. */
  async function question(t: ProjectOnLaptop, id: string, command = "git log --oneline -5 2>/dev/null") {
    const tr = sessionIn(t, id, "登录接口的密码是怎么加密的？");
    tr.tool("Read", { file_path: join(t.repo, "src/auth.ts") }, 21_000);
    tr.tool("Grep", { pattern: "bcrypt" }, 22_000);
    bash(tr, command);
    tr.reply("用的是 bcrypt，cost 为 12。");
    return [await autoSave(t, tr), await autoSave(t, tr, true)];
  }

  test("leaves no snapshot: the restore after it still gives the task's goal and next action", async () => {
    const t = await afterTask("mindsave-qa-");
    expect(await question(t, "s-question")).toEqual([null, null]);
    const block = (await atPlace(inRepo(t), (s) => restoreContext(s)))!;
    expect(block).toContain("goal: Add rate limiting to the login endpoint");
    expect(block).toContain("next_action: Wire it into the login route");
    expect(block).not.toContain("登录接口的密码");
  });

  test("one whose command wrote a file is no Q&A, even where git shows no change (an ignored file): it is saved", async () => {
    const t = await afterTask("mindsave-qa-wrote-");
    const [turn] = await question(t, "s-wrote", "bun run report > .cache/report.txt");
    expect(turn?.snapshot.goal).toContain("登录接口的密码是怎么加密的");
  });

  test("one that ran a script or a deploy is no Q&A (it may have changed anything): it is saved", async () => {
    const t = await afterTask("mindsave-qa-deploy-");
    const [turn] = await question(t, "s-deploy", "./deploy.sh --env staging");
    expect(turn?.snapshot.goal).toContain("登录接口的密码是怎么加密的");
  });

  test("one that changed a file of the working tree is no Q&A: it is saved", async () => {
    const t = await afterTask("mindsave-qa-changed-");
    const file = join(t.repo, "src/auth.ts");
    writeFileSync(file, "export const auth = 2;\n");
    const later = new Date(Date.now() + 3_600_000); // after the task's snapshot, whatever the clock's grain
    utimesSync(file, later, later);
    const [turn] = await question(t, "s-changed");
    expect(turn?.snapshot.goal).toContain("登录接口的密码是怎么加密的");
  });
});
