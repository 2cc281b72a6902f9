// Agent-written checkpoints (issue 35, item 1): at the spec's moments the running agent is asked,
// in its own channel, to save a checkpoint through MindSave. Claude Code's, Codex's, Gemini CLI's
// and Copilot's stop is blocked once after the user's "done"; a YELLOW tool call carries the
// request as context. Never again with stop_hook_active, never after "don't save", never with
// `mindsave config checkpoints auto` or `off`. The real `hook` CLI on a real store.
import { describe, expect, test } from "bun:test";
import { agentProject, payloads, transcriptFixture } from "./agent-fixtures.ts";
import { Transcript, events, payload } from "./claude-fixtures.ts";
import { countTokens } from "../src/engine/snapshots/tokens.ts";
import { checkpointRequest } from "../src/engine/agents/checkpoint-request.ts";
import { REPO } from "./helpers.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";

type Project = ReturnType<typeof agentProject>;

/** A Claude Code session in `t` that edited a file, at `context` tokens of a 200k window. */
function claudeSession(t: Project, id: string, context = 20_000) {
  const tr = new Transcript(t.base, t.repo, id);
  tr.prompt("Add rate limiting to the login endpoint");
  tr.tool("Edit", { file_path: `${t.repo}/src/auth.ts`, old_string: "1", new_string: "2" }, context, {
    patch: { file: `${t.repo}/src/auth.ts`, lines: ["-1", "+2"] },
  });
  const at = { sessionId: id, path: tr.path, cwd: t.repo };
  return {
    tr,
    prompt: (text: string) =>
      t.hook(null, "user-prompt-submit", payload("UserPromptSubmit", at, events.prompt(text))),
    stop: (active = false) =>
      t.hook(null, "stop", payload("Stop", at, { ...events.stop("Done."), stop_hook_active: active })),
  };
}

/** The reason of a stop's block, or null when the stop is not blocked. */
function blockOf(stdout: string): string | null {
  if (!stdout.trim()) return null;
  const out = JSON.parse(stdout);
  expect(out.decision).toBe("block");
  return out.reason;
}

async function ok(t: Project, args: string[]): Promise<{ stdout: string }> {
  const r = await t.cli(args);
  if (r.code !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
  return r;
}

describe("the agent is asked for its checkpoint at the user's ending", () => {
  test("Claude Code: the stop after 'done' is blocked once with the request; the agent's save supersedes the mechanical one", async () => {
    const t = agentProject("mindsave-checkpoints-");
    const s = claudeSession(t, "cc-ask-1");
    // The prompt hook says nothing: the request waits for the reply to "done".
    expect((await s.prompt("done")).stdout).toBe("");
    const reason = blockOf((await s.stop()).stdout);
    expect(reason).toContain("Save a checkpoint now with MindSave's MCP `save` tool");
    expect(reason).toContain("constraints");
    // The continuation's own stop, and any later stop: not again.
    expect((await s.stop(true)).stdout).toBe("");
    expect((await s.stop()).stdout).toBe("");
    // The agent answers with its save: the newest snapshot is the agent's, restored next.
    await ok(t, [
      "save",
      "--goal",
      "Rate-limit POST /login",
      "--state",
      "Limiter written",
      "--next",
      "Add tests",
      "--constraint",
      "Never use Redis",
    ]);
    expect((await s.stop()).stdout).toBe("");
    const list = await t.json(["snapshots"]);
    const newest = (list.snapshots ?? list)[0];
    expect(newest.goal).toBe("Rate-limit POST /login");
  });

  test("Chinese '结束' asks too; a Q&A session (no tool call) is not asked", async () => {
    const t = agentProject("mindsave-checkpoints-zh-");
    const s = claudeSession(t, "cc-zh-1");
    await s.prompt("结束");
    expect(blockOf((await s.stop()).stdout)).toContain("The user is ending the session");

    const qa = new Transcript(t.base, t.repo, "cc-qa-1");
    qa.prompt("What does auth.ts export?").reply("A constant.");
    const at = { sessionId: "cc-qa-1", path: qa.path, cwd: t.repo };
    await t.hook(null, "user-prompt-submit", payload("UserPromptSubmit", at, events.prompt("done")));
    expect((await t.hook(null, "stop", payload("Stop", at, events.stop("Bye.")))).stdout).toBe("");
  });

  test("not after 'don't save', nor with checkpoints auto or off (off writes no snapshot either)", async () => {
    const t = agentProject("mindsave-checkpoints-off-");
    const quiet = claudeSession(t, "cc-nosave");
    await quiet.prompt("don't save this session");
    await quiet.prompt("done");
    expect((await quiet.stop()).stdout).toBe("");

    // Setting it says what it does, and `help config` names it.
    expect((await ok(t, ["config", "checkpoints", "auto"])).stdout).toContain(
      "checkpoints is now auto: at a checkpoint moment only the hooks save one; the agent is not asked.",
    );
    expect((await ok(t, ["help", "config"])).stdout).toMatch(/checkpoints \(ask, auto, off/);
    const auto = claudeSession(t, "cc-auto");
    await auto.prompt("done");
    expect((await auto.stop()).stdout).toBe("");
    // auto: the mechanical checkpoint of the ending is written.
    expect(JSON.stringify(await t.json(["snapshots"]))).toContain("Add rate limiting to the login endpoint");

    const t2 = agentProject("mindsave-checkpoints-off2-");
    await ok(t2, ["config", "checkpoints", "off"]);
    const off = claudeSession(t2, "cc-off");
    await off.prompt("done");
    expect((await off.stop()).stdout).toBe("");
    expect(JSON.stringify(await t2.json(["snapshots"]))).not.toContain("rate limiting");
    expect((await t2.cli(["config", "checkpoints", "sometimes"])).code).not.toBe(0);
  });

  const others: [agent: string, transcript: string, prompt: string, stop: string][] = [
    ["codex", "codex-rollout.jsonl", "UserPromptSubmit", "Stop"],
    ["gemini", "gemini-session.json", "BeforeAgent", "AfterAgent"],
    ["copilot", "copilot-events.jsonl", "userPromptSubmitted", "agentStop"],
  ];
  for (const [agent, file, promptEvent, stopEvent] of others)
    test(`${agent}: its stop is blocked once with the request after 'done', not with stop_hook_active`, async () => {
      const t = agentProject(`mindsave-checkpoints-${agent}-`);
      const p = payloads(agent, t.repo, transcriptFixture(file, t.base, t.repo));
      const prompt = p[promptEvent].payload;
      await t.hook(agent, "user-prompt-submit", { ...prompt, prompt: "done" });
      const stop = p[stopEvent].payload;
      expect((await t.hook(agent, "stop", { ...stop, stop_hook_active: true })).stdout).toBe("");
      expect(blockOf((await t.hook(agent, "stop", stop)).stdout)).toContain(
        "MindSave: The user is ending the session.",
      );
      expect((await t.hook(agent, "stop", stop)).stdout).toBe("");
    });
});

describe("the agent is asked at YELLOW, in the tool call's context", () => {
  test("Claude Code's PostToolUse at 75% carries the request once", async () => {
    const t = agentProject("mindsave-checkpoints-yellow-");
    const tr = new Transcript(t.base, t.repo, "cc-yellow");
    tr.prompt("Add rate limiting to the login endpoint");
    const at = { sessionId: "cc-yellow", path: tr.path, cwd: t.repo };
    const call = async (n: number) => {
      const id = tr.tool(
        "Edit",
        { file_path: `${t.repo}/src/auth.ts`, old_string: "1", new_string: String(n) },
        150_000 + n * 1000,
        {
          patch: { file: `${t.repo}/src/auth.ts`, lines: [`+${n}`] },
        },
      );
      const r = await t.hook(
        null,
        "post-tool-use",
        payload("PostToolUse", at, events.postToolUse("Edit", { file_path: `${t.repo}/src/auth.ts` }, id)),
      );
      return r.stdout ? JSON.parse(r.stdout).hookSpecificOutput.additionalContext : "";
    };
    const first = await call(1);
    expect(first).toContain("The context window is filling up. Save a checkpoint now");
    expect(await call(2)).not.toContain("Save a checkpoint now");
  });

  test("the request's cost in cl100k tokens is the one the README states", () => {
    const costs = (["yellow", "red", "ending"] as const).map((m) => countTokens(checkpointRequest(m)));
    expect(Math.max(...costs)).toBeLessThanOrEqual(100);
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    expect(readme).toContain(`the request costs ${Math.max(...costs)} cl100k tokens`);
  });
});
