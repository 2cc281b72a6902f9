// Claude Code integration through the compiled binary: hooks install/uninstall, every hook event
// fed recorded-shape payloads and transcripts the tests write, ingest, and the skill.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hostTarget } from "../build.ts";
import { hookCommand } from "../src/engine/agents/hooks.ts";
import { PRE_TOOL_MATCHER } from "../src/engine/agents/agent-hooks.ts";
import { spawnSync } from "node:child_process";
import {
  childEnv,
  gitRepo,
  hostBinary,
  laptop,
  plainFolder,
  run,
  sql,
  tempDir,
  type RunResult,
} from "./helpers.ts";
import { hookAt, inDefaultHome, save } from "./engine-setup.ts";

let exe = "";
beforeAll(async () => {
  exe = await hostBinary();
}, 120_000);

interface Line {
  [k: string]: unknown;
}

/** Transcript lines in the shape Claude Code writes (one JSON object per line). */
const T = {
  prompt: (text: string, at = "2026-11-21T10:00:00.000Z"): Line => ({
    type: "user",
    sessionId: "sess-1",
    cwd: "",
    timestamp: at,
    uuid: crypto.randomUUID(),
    message: { role: "user", content: text },
  }),
  tool: (
    id: string,
    name: string,
    input: Record<string, unknown>,
    usage?: Record<string, number>,
    at = "2026-11-21T10:01:00.000Z",
  ): Line => ({
    type: "assistant",
    sessionId: "sess-1",
    timestamp: at,
    uuid: crypto.randomUUID(),
    message: {
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [{ type: "tool_use", id, name, input }],
      ...(usage ? { usage } : {}),
    },
  }),
  result: (id: string, patch?: { filePath: string; lines: string[] }, isError = false): Line => ({
    type: "user",
    sessionId: "sess-1",
    timestamp: "2026-11-21T10:01:01.000Z",
    uuid: crypto.randomUUID(),
    message: {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: id,
          content: isError ? "error" : "ok",
          ...(isError ? { is_error: true } : {}),
        },
      ],
    },
    ...(patch
      ? {
          toolUseResult: {
            filePath: patch.filePath,
            structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 2, lines: patch.lines }],
            type: "update",
          },
        }
      : {}),
  }),
  text: (text: string, usage?: Record<string, number>): Line => ({
    type: "assistant",
    sessionId: "sess-1",
    timestamp: "2026-11-21T10:02:00.000Z",
    message: { role: "assistant", content: [{ type: "text", text }], ...(usage ? { usage } : {}) },
  }),
  compact: (): Line => ({
    type: "system",
    subtype: "compact_boundary",
    content: "Conversation compacted",
    sessionId: "sess-1",
    timestamp: "2026-11-21T10:03:00.000Z",
  }),
};

function usage(context: number) {
  return {
    input_tokens: 100,
    cache_read_input_tokens: context - 300,
    cache_creation_input_tokens: 200,
    output_tokens: 40,
  };
}

function setup() {
  const base = tempDir("mindsave-hooks-");
  const repo = gitRepo(join(base, "shop"), {
    "src/auth.ts": "export const auth = 1;\n",
    "src/login.tsx": "a\n",
  });
  const pc = laptop("agent-laptop", base);
  const home = join(pc.home, ".mindsave");
  const transcript = (lines: Line[]) => {
    const path = join(base, `transcript-${crypto.randomUUID()}.jsonl`);
    writeFileSync(path, lines.map((l) => JSON.stringify({ ...l, cwd: repo })).join("\n") + "\n");
    return path;
  };
  const hook = (event: string, payload: Record<string, unknown> | string): Promise<RunResult> =>
    run(["hook", event], {
      cwd: repo,
      env: pc.env,
      bin: [exe],
      stdin:
        typeof payload === "string"
          ? payload
          : JSON.stringify({ session_id: "sess-1", cwd: repo, hook_event_name: event, ...payload }),
    });
  const cli = (args: string[]) => run(args, { cwd: repo, env: pc.env, bin: [exe] });
  const json = async (args: string[]) => JSON.parse((await cli(["--json", ...args])).stdout);
  return { base, repo, pc, home, db: join(home, "mindsave.db"), transcript, hook, cli, json };
}

describe("hooks install / uninstall", () => {
  test("merge into settings.json keeping every existing hook, idempotently, with a backup; uninstall removes exactly ours", async () => {
    const t = setup();
    expect((await t.cli(["install"])).code).toBe(0);
    const settingsFile = join(t.pc.home, ".claude", "settings.json");
    mkdirSync(join(t.pc.home, ".claude"), { recursive: true });
    const original = {
      model: "opus",
      permissions: { allow: ["Bash(npm test)"] },
      hooks: {
        SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "echo hello" }] }],
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh", timeout: 3 }] }],
      },
    };
    const originalText = JSON.stringify(original, null, 4) + "\n"; // a person's own indentation
    writeFileSync(settingsFile, originalText);
    const first = await t.json(["hooks", "install"]);
    expect(first.added).toHaveLength(8);
    expect(existsSync(first.backup)).toBe(true);
    expect(JSON.parse(readFileSync(first.backup, "utf8"))).toEqual(original);
    const after = JSON.parse(readFileSync(settingsFile, "utf8"));
    expect(after.model).toBe("opus");
    expect(after.permissions).toEqual(original.permissions);
    // Theirs first; ours gives context only (never a permissionDecision) for the tools that propose something.
    expect(after.hooks.PreToolUse).toEqual([
      ...original.hooks.PreToolUse,
      {
        matcher: PRE_TOOL_MATCHER,
        hooks: [{ type: "command", command: hookCommand(null, "pre-tool-use"), timeout: 5 }],
      },
    ]);
    expect(after.hooks.SessionStart[0]).toEqual(original.hooks.SessionStart[0]);
    // One portable command for every machine: the local copy, else `mindsave` on PATH, else nothing.
    const cmd = (arg: string) => hookCommand(null, arg);
    expect(readFileSync(settingsFile, "utf8")).not.toContain(t.pc.home);
    expect(after.hooks.SessionStart[1]).toEqual({
      matcher: "startup|resume|clear|compact|fork",
      hooks: [{ type: "command", command: cmd("session-start"), timeout: 10 }],
    });
    expect(after.hooks.UserPromptSubmit).toEqual([
      { hooks: [{ type: "command", command: cmd("user-prompt-submit"), timeout: 10 }] },
    ]);
    // PostToolUse warns the user, so it runs in line; PostToolUseFailure only counts, in the background.
    expect(after.hooks.PostToolUse).toEqual([
      { matcher: "", hooks: [{ type: "command", command: cmd("post-tool-use"), timeout: 5 }] },
    ]);
    expect(after.hooks.PostToolUseFailure).toEqual([
      {
        matcher: "",
        hooks: [{ type: "command", command: cmd("post-tool-use-failure"), timeout: 5, async: true }],
      },
    ]);
    for (const [event, arg] of [
      ["PreCompact", "pre-compact"],
      ["Stop", "stop"],
      ["SessionEnd", "session-end"],
    ]) {
      expect(after.hooks[event].at(-1).hooks[0].command).toBe(cmd(arg));
    }
    // Idempotent: a second install changes nothing and writes no backup.
    const second = await t.json(["hooks", "install"]);
    expect(second.added).toEqual([]);
    expect(JSON.parse(readFileSync(settingsFile, "utf8"))).toEqual(after);
    // Uninstall restores exactly what was there.
    const removed = await t.json(["hooks", "uninstall"]);
    expect(removed.removed).toHaveLength(8);
    expect(readFileSync(settingsFile, "utf8")).toBe(originalText);
    expect((await t.json(["hooks", "uninstall"])).removed).toEqual([]);
  });

  test("an earlier install (absolute path, SessionStart without fork, no UserPromptSubmit/PostToolUseFailure) is brought up to date; uninstall removes all", async () => {
    const t = setup();
    expect((await t.cli(["install"])).code).toBe(0);
    const settingsFile = join(t.pc.home, ".claude", "settings.json");
    const local = join(t.home, "bin", hostTarget().exe);
    mkdirSync(join(t.pc.home, ".claude"), { recursive: true });
    const old = {
      hooks: {
        SessionStart: [
          {
            matcher: "startup|resume|clear|compact",
            hooks: [{ type: "command", command: `'${local}' hook session-start`, timeout: 10 }],
          },
        ],
      },
    };
    writeFileSync(settingsFile, JSON.stringify(old, null, 2));
    writeFileSync(
      join(t.home, "hooks-installed.json"),
      JSON.stringify({ installed: { [settingsFile]: [`'${local}' hook session-start`] } }),
    );
    const r = await t.json(["hooks", "install"]);
    expect(r.updated).toEqual([hookCommand(null, "session-start")]);
    expect(r.added).toHaveLength(7);
    const now = JSON.parse(readFileSync(settingsFile, "utf8"));
    expect(now.hooks.SessionStart).toEqual([
      {
        matcher: "startup|resume|clear|compact|fork",
        hooks: [{ type: "command", command: hookCommand(null, "session-start"), timeout: 10 }],
      },
    ]);
    expect(await t.json(["hooks", "install"])).toMatchObject({ added: [], updated: [] });
    expect((await t.json(["hooks", "uninstall"])).removed).toHaveLength(8);
    expect(JSON.parse(readFileSync(settingsFile, "utf8"))).toEqual({});
  });

  test("--project writes the project's .claude/settings.json; a settings file that is not JSON is refused untouched", async () => {
    const t = setup();
    expect((await t.cli(["install"])).code).toBe(0);
    const r = await t.json(["hooks", "install", "--project"]);
    expect(r.settings).toBe(join(t.repo, ".claude", "settings.json"));
    expect(Object.keys(JSON.parse(readFileSync(r.settings, "utf8")).hooks)).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PostToolUse",
      "PostToolUseFailure",
      "PreCompact",
      "Stop",
      "SessionEnd",
    ]);
    writeFileSync(r.settings, "{ not json");
    const bad = await t.cli(["hooks", "uninstall", "--project"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("is not valid JSON");
    expect(readFileSync(r.settings, "utf8")).toBe("{ not json");
  });

  test("without the local binary, install says to run `mindsave install` (hooks never point at a drive)", async () => {
    const t = setup();
    const r = await t.cli(["hooks", "install"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("mindsave install");
    // A project's settings are for the whole team: written, with a warning for this machine.
    const project = await t.cli(["hooks", "install", "--project"]);
    expect(project.code).toBe(0);
    expect(project.stderr).toContain("until then these hooks do nothing here");
    expect(existsSync(join(t.repo, ".claude", "settings.json"))).toBe(true);
  });
});

describe("hook events", () => {
  test("session-start: nothing without a snapshot; the newest restore block as additionalContext with one", async () => {
    const t = setup();
    const none = await t.hook("session-start", {
      source: "startup",
      transcript_path: t.transcript([T.prompt("hi")]),
    });
    expect(none.code).toBe(0);
    expect(none.stdout).toBe("");
    expect(none.stderr).toBe("");
    await save(inDefaultHome(t), {
      goal: "Ship the login page",
      next: "write the e2e test",
      constraint: ["no new dependencies"],
    });
    for (const source of ["startup", "resume", "clear", "compact", "fork"]) {
      const r = await t.hook("session-start", { source });
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.hookSpecificOutput.hookEventName).toBe("SessionStart");
      expect(out.hookSpecificOutput.additionalContext).toContain("goal: Ship the login page");
      expect(out.hookSpecificOutput.additionalContext).toContain("- no new dependencies");
    }
  });

  test("post-tool-use: real context fill from the transcript; YELLOW writes an L1 checkpoint with cooldown; RED an OVF_ snapshot", async () => {
    const t = setup();
    await save(inDefaultHome(t), { goal: "Refactor auth", next: "split the module" });
    // 55% of 200k: below the 60% warning (a session's first call: normal growth, low complexity).
    const green = t.transcript([
      T.prompt("refactor auth"),
      T.tool("a1", "Read", { file_path: join(t.repo, "src/auth.ts") }, usage(110_000)),
    ]);
    expect(
      (
        await t.hook("post-tool-use", {
          transcript_path: green,
          tool_name: "Read",
          tool_input: { file_path: join(t.repo, "src/auth.ts") },
        })
      ).stdout,
    ).toBe("");
    let sig = await t.json(["signal"]);
    expect(sig.estimated_tokens_ratio).toBe(0.55);
    expect(sig.pressure_state).toBe("GREEN");
    expect(sig.tool_calls_since_save).toBe(1);

    // 75%: YELLOW. A checkpoint from the transcript, and a message for the user.
    const yellow = t.transcript([
      T.prompt("refactor auth"),
      T.tool("b1", "TodoWrite", {
        todos: [
          { content: "Split the module", status: "in_progress", activeForm: "Splitting the module" },
          { content: "Update imports", status: "pending" },
        ],
      }),
      T.tool(
        "b2",
        "Edit",
        { file_path: join(t.repo, "src/auth.ts"), old_string: "1", new_string: "2" },
        usage(150_000),
      ),
    ]);
    const y = await t.hook("post-tool-use", {
      transcript_path: yellow,
      tool_name: "Edit",
      tool_input: { file_path: join(t.repo, "src/auth.ts") },
    });
    expect(y.code).toBe(0);
    const yOut = JSON.parse(y.stdout);
    expect(yOut.systemMessage).toContain("auto-checkpoint saved");
    // The model hears it too: PostToolUse stdout reaches it only as additionalContext.
    expect(yOut.hookSpecificOutput).toMatchObject({ hookEventName: "PostToolUse" });
    expect(yOut.hookSpecificOutput.additionalContext).toContain("75% full");
    const list = (await t.json(["snapshots", "list"])).snapshots;
    expect(list).toHaveLength(2);
    const auto = await t.json(["load", "1"]);
    expect(auto.layer1).toMatchObject({
      goal: "Refactor auth",
      state: "In progress: Splitting the module (0/2 steps done)",
      next_action: "Split the module",
      active_files: [join(t.repo, "src/auth.ts")],
    });
    const trig = await sql(t.db, "SELECT auto_trigger FROM snapshots ORDER BY created_at DESC LIMIT 1");
    expect(JSON.parse(String(trig[0].auto_trigger))).toMatchObject({ reason: "context-pressure" });
    // Within the cooldown: YELLOW again saves nothing.
    const again = await t.hook("post-tool-use", {
      transcript_path: yellow,
      tool_name: "Edit",
      tool_input: { file_path: join(t.repo, "src/auth.ts") },
    });
    expect(again.stdout).toBe("");
    expect((await t.json(["snapshots", "list"])).snapshots).toHaveLength(2);

    // 97%: RED, an emergency Layer 1 snapshot of the new work (an edit), even inside the cooldown.
    const red = t.transcript([
      T.prompt("refactor auth"),
      T.tool(
        "c1",
        "Edit",
        { file_path: join(t.repo, "src/login.tsx"), old_string: "a", new_string: "b" },
        usage(194_000),
      ),
    ]);
    const r = await t.hook("post-tool-use", {
      transcript_path: red,
      tool_name: "Edit",
      tool_input: { file_path: join(t.repo, "src/login.tsx") },
    });
    const rOut = JSON.parse(r.stdout);
    expect(rOut.systemMessage).toContain("Context overflow imminent");
    expect(rOut.hookSpecificOutput.additionalContext).toContain("past the critical threshold");
    const names = (await t.json(["snapshots", "list"])).snapshots.map((s: any) => s.name);
    expect(names[0]).toMatch(/^OVF_/);
    sig = await t.json(["signal"]);
    expect(sig.pressure_state).toBe("RED");
    expect(sig.auto_save_count).toBe(2);
    expect((await t.cli(["signal"])).stdout).toContain(
      `RED: the hooks saved an emergency Layer 1 snapshot, ${names[0]}, at `,
    );
  });

  test("RED with nothing new to save: the warning still comes, and `signal` says no emergency snapshot was saved, never that one was", async () => {
    const t = setup();
    const edit = { file_path: join(t.repo, "src/auth.ts"), old_string: "1", new_string: "2" };
    const prompt = T.prompt("Port the billing job to Rust");
    // The turn's checkpoint holds the task.
    const green = t.transcript([prompt, T.tool("r1", "Edit", edit, usage(100_000))]);
    await t.hook("stop", { transcript_path: green, stop_hook_active: false });
    const saved = (await t.json(["snapshots", "list"])).snapshots.map((s: any) => s.name);
    expect(saved).toHaveLength(1);
    // The same work at 98%: RED, and nothing newer than that checkpoint to save.
    const red = t.transcript([prompt, T.tool("r1", "Edit", edit, usage(196_000))]);
    const r = await t.hook("post-tool-use", { transcript_path: red, tool_name: "Edit", tool_input: edit });
    expect(JSON.parse(r.stdout).systemMessage).toContain("Context overflow imminent");
    expect((await t.json(["snapshots", "list"])).snapshots.map((s: any) => s.name)).toEqual(saved);
    const said = (await t.cli(["signal"])).stdout;
    expect(said).toMatch(
      /RED since \d{4}-\d\d-\d\d \d\d:\d\d UTC: the hooks saved no emergency snapshot then/,
    );
    expect(said).not.toContain("saved an emergency");
    expect(said).not.toMatch(/T\d\d:\d\d:\d\d/);
  });

  test("the warnings name the thresholds `signal` shows straight after: those the checkpoint left (its active files set the complexity)", async () => {
    // Three files edited, the hook's call names one: the checkpoint counts three active files, a
    // medium task (×0.95), where the call alone looked low (×1.0). A session's first call: normal
    // growth (×1.0). Warning 60% × 0.95 = 57%, critical 80% × 0.95 = 76% (low: 60% and 80%).
    for (const [fill, says] of [
      [150_000, "75% full (warning threshold 57%)"],
      [194_000, "97% full, past the critical threshold (76%)"],
    ] as const) {
      const t = setup();
      const files = ["src/auth.ts", "src/login.tsx", "src/session.ts"].map((f) => join(t.repo, f));
      const path = t.transcript([
        T.prompt("Split the auth module"),
        ...files.map((file, i) =>
          T.tool(
            `s${i}`,
            "Edit",
            { file_path: file, old_string: "1", new_string: "2" },
            usage(i < 2 ? 40_000 : fill),
          ),
        ),
      ]);
      const r = await t.hook("post-tool-use", {
        transcript_path: path,
        tool_name: "Edit",
        tool_input: { file_path: files[2] },
      });
      expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain(says);
      expect((await t.cli(["signal"])).stdout).toContain("warning at 57%, critical at 76%.");
    }
  });

  test("RED that the checkpoint finds a simpler task: the warning says the fill is close to the critical threshold, never past it", async () => {
    const t = setup();
    // The last save listed six active files: a complex task (×0.85). The session, resumed six minutes
    // ago with no tool call since, grows slowly (×1.2): critical 80% × 1.2 × 0.85 = 82%.
    const six = ["a", "b", "c", "d", "e", "f"].map((f) => join(t.repo, `src/${f}.ts`));
    await save(inDefaultHome(t), { goal: "Old task", next: "n", activeFile: six });
    const resumed = { session_id: "sess-1", cwd: t.repo, hook_event_name: "SessionStart", source: "resume" };
    await hookAt(t, undefined, "session-start", resumed, new Date(Date.now() - 6 * 60_000));
    // 90%: RED by those. The emergency checkpoint of the new task has one file: low, critical 96%.
    const edit = { file_path: join(t.repo, "src/auth.ts"), old_string: "1", new_string: "2" };
    const path = t.transcript([T.prompt("Port the billing job"), T.tool("p1", "Edit", edit, usage(180_000))]);
    const r = await t.hook("post-tool-use", { transcript_path: path, tool_name: "Edit", tool_input: edit });
    const said = JSON.parse(r.stdout).hookSpecificOutput.additionalContext;
    expect(said).toContain("90% full, close to the critical threshold (96%)");
    expect((await t.cli(["signal"])).stdout).toContain(
      "Pressure YELLOW for shop: context 90% full; warning at 72%, critical at 96%.",
    );
  });

  test("at RED one emergency snapshot per cooldown, named from the task (never OVF_ovf_…); the tool log has each call once", async () => {
    const t = setup();
    const red = t.transcript([
      T.prompt("Port the billing job to Rust"),
      T.tool("r1", "Edit", { file_path: join(t.repo, "src/auth.ts") }, usage(196_000)),
    ]);
    for (let i = 0; i < 4; i++)
      await t.hook("post-tool-use", {
        transcript_path: red,
        tool_name: "Edit",
        tool_input: { file_path: join(t.repo, "src/auth.ts") },
      });
    const names = (await t.json(["snapshots", "list"])).snapshots.map((s: any) => s.name);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^OVF_port_the_billing_job_\d{4}/);
    await t.hook("pre-compact", { transcript_path: red, trigger: "auto" });
    const later = (await t.json(["snapshots", "list"])).snapshots.map((s: any) => s.name);
    expect(later.every((n: string) => !/ovf_ovf|OVF_ovf/i.test(n))).toBe(true);
    await t.hook("stop", { transcript_path: red });
    expect((await t.json(["recall", "--tools"])).tool_calls).toHaveLength(1);
  });

  test("a new session's auto-snapshot takes its goal from that session, not from an older snapshot; startup offers the block as context", async () => {
    const t = setup();
    await save(inDefaultHome(t), { goal: "Old task from last week", next: "old next step" });
    const start = await t.hook("session-start", { source: "startup" });
    const ctx = JSON.parse(start.stdout).hookSpecificOutput.additionalContext;
    expect(ctx).toContain("If the user's request continues it");
    expect(ctx).not.toContain("Entering Continuation Mode");
    const resumed = JSON.parse((await t.hook("session-start", { source: "compact" })).stdout)
      .hookSpecificOutput.additionalContext;
    expect(resumed).toContain("Entering Continuation Mode");
    const later = new Date(Date.now() + 60_000).toISOString();
    const path = t.transcript([
      T.prompt("Add rate limiting to the login endpoint", later),
      T.tool("n1", "Write", { file_path: join(t.repo, "src/limit.ts") }, undefined, later),
    ]);
    await t.hook("pre-compact", { transcript_path: path, trigger: "manual" });
    const snap = await t.json(["load", "--latest"]);
    expect(snap.layer1.goal).toBe("Add rate limiting to the login endpoint");
  });

  test("post-tool-use with a transcript that has no usage field counts the call and keeps the ratio", async () => {
    const t = setup();
    const path = t.transcript([T.prompt("hello"), T.tool("d1", "Read", { file_path: "README.md" })]);
    const r = await t.hook("post-tool-use", {
      transcript_path: path,
      tool_name: "Read",
      tool_input: { file_path: "README.md" },
    });
    expect(r).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const sig = await t.json(["signal"]);
    expect(sig).toMatchObject({ tool_calls_since_save: 1, estimated_tokens_ratio: 0 });
  });

  test("pre-compact: a snapshot built from the transcript across a compaction boundary (goal, TodoWrite, edits, patches)", async () => {
    const t = setup();
    const path = t.transcript([
      T.prompt("Add a login form with validation. Keep it accessible."),
      T.tool("e1", "TodoWrite", {
        todos: [
          { content: "Build the form", status: "completed" },
          { content: "Add validation", status: "in_progress", activeForm: "Adding validation" },
          { content: "Write tests", status: "pending" },
        ],
      }),
      T.tool(
        "e2",
        "Edit",
        { file_path: join(t.repo, "src/login.tsx"), old_string: "a", new_string: "b" },
        usage(100_000),
      ),
      T.result("e2", { filePath: join(t.repo, "src/login.tsx"), lines: ["-a", "+b", "+c"] }),
      T.compact(),
      T.prompt("continue"),
      T.tool("e3", "Write", { file_path: join(t.repo, "src/validate.ts"), content: "export {}" }),
      T.tool("e4", "Bash", { command: "bun test" }),
      T.result("e4", undefined, true),
    ]);
    const r = await t.hook("pre-compact", { transcript_path: path, trigger: "auto" });
    // Its output is the summariser's guide (checkpoint-moments.test.ts).
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toStartWith("MindSave holds this task's state.");
    const snap = await t.json(["load", "--latest"]);
    // The task without its rule; the rule is a constraint.
    expect(snap.layer2.constraints).toEqual(["Keep it accessible."]);
    expect(snap.layer1).toMatchObject({
      goal: "Add a login form with validation",
      state: "In progress: Adding validation (1/3 steps done)",
      next_action: "Add validation",
      active_files: [join(t.repo, "src/validate.ts"), join(t.repo, "src/login.tsx")],
    });
    const l3 = (await t.cli(["recall"])).stdout;
    expect(l3).toContain("1. Build the form");
    expect(l3).toContain("src/login.tsx | +2 -1");
    expect(l3).toContain("Bash bun test (failed)");
    const trig = await sql(t.db, "SELECT auto_trigger FROM snapshots");
    expect(JSON.parse(String(trig[0].auto_trigger)).reason).toBe("pre-compact:auto");
    // The transcript's tool calls are in the tool log (Layer 3).
    expect((await t.json(["recall", "--tools"])).tool_calls.map((c: any) => c.tool)).toEqual([
      "TodoWrite",
      "Edit",
      "Write",
      "Bash",
    ]);
  });

  test("pre-compact in Chinese: a long prompt and task are cut to Layer 1's budget, not left unsaved or cut to a bare prefix", async () => {
    const t = setup();
    // About a token a character: three fields of 240 characters are over Layer 1's 300 tokens.
    const task =
      "我们需要重构数据库访问层，把所有直接写的查询都迁移到仓储模式里面，同时保持现有接口不变并补充完整的单元测试和集成测试，确保在迁移过程中不会破坏任何现有功能".repeat(
        4,
      );
    const path = t.transcript([
      T.prompt(task),
      T.tool("z1", "TodoWrite", {
        todos: [
          { content: `实现${task}`, status: "in_progress", activeForm: `正在实现${task}` },
          { content: "写测试", status: "pending" },
        ],
      }),
      T.tool("z2", "Edit", { file_path: join(t.repo, "src/auth.ts"), old_string: "1", new_string: "2" }),
    ]);
    const r = await t.hook("pre-compact", { transcript_path: path, trigger: "auto" });
    // Its output is the summariser's guide (checkpoint-moments.test.ts).
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toStartWith("MindSave holds this task's state.");
    const snap = await t.json(["load", "--latest"]);
    expect(snap.layer1.goal.startsWith(task.slice(0, 40))).toBe(true);
    expect(snap.layer1.state.startsWith(`In progress: 正在实现${task.slice(0, 20)}`)).toBe(true);
    expect(snap.layer1.next_action.startsWith(`实现${task.slice(0, 20)}`)).toBe(true);
  });

  test("pre-compact beside a file path of thousands of characters: the snapshot is saved without that file (Layer 3 says so), the other files kept", async () => {
    const t = setup();
    const monster = join(t.repo, "generated", `${"very-long-segment-".repeat(120)}.ts`);
    const path = t.transcript([
      T.prompt("Tidy the generated clients"),
      T.tool("m1", "Edit", { file_path: join(t.repo, "src/auth.ts"), old_string: "1", new_string: "2" }),
      T.tool("m2", "Write", { file_path: monster, content: "x" }),
    ]);
    const r = await t.hook("pre-compact", { transcript_path: path, trigger: "auto" });
    // Its output is the summariser's guide (checkpoint-moments.test.ts).
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toStartWith("MindSave holds this task's state.");
    const snap = await t.json(["load", "--latest"]);
    expect(snap.layer1.goal).toBe("Tidy the generated clients");
    const files: string[] = snap.layer1.active_files;
    expect(files).toContain(join(t.repo, "src/auth.ts"));
    expect(files.some((f) => f.includes("very-long-segment"))).toBe(false);
    expect(JSON.stringify(await t.json(["snapshots", "show", snap.snapshot_id]))).toContain(
      "(1 active file(s) left out of Layer 1 to keep it within its budget.)",
    );
  });

  test("stop: counts a turn, logs tool calls, checkpoints only when the cooldown allows; session-end always saves", async () => {
    const t = setup();
    await save(inDefaultHome(t), { goal: "Fix flaky test", next: "rerun CI" });
    const path = t.transcript([
      T.prompt("fix it"),
      T.tool("f1", "Edit", { file_path: join(t.repo, "src/auth.ts"), old_string: "1", new_string: "3" }),
    ]);
    // The save just now started the cooldown? No: it was manual; the first stop may checkpoint.
    const first = await t.hook("stop", { transcript_path: path, stop_hook_active: false });
    expect(first.code).toBe(0);
    const afterFirst = (await t.json(["snapshots", "list"])).snapshots.length;
    const second = await t.hook("stop", { transcript_path: path, stop_hook_active: false });
    expect(second.code).toBe(0);
    expect((await t.json(["snapshots", "list"])).snapshots.length).toBe(afterFirst);
    // Nothing changed since the last checkpoint: session-end does not write a duplicate.
    await t.hook("session-end", { transcript_path: path, reason: "exit" });
    expect((await t.json(["snapshots", "list"])).snapshots.length).toBe(afterFirst);
    // With new work, session-end saves even inside the cooldown.
    const more = t.transcript([
      T.prompt("fix it"),
      T.tool("f1", "Edit", { file_path: join(t.repo, "src/auth.ts"), old_string: "1", new_string: "3" }),
      T.tool("f2", "Edit", { file_path: join(t.repo, "src/login.tsx"), old_string: "a", new_string: "z" }),
    ]);
    await t.hook("session-end", { transcript_path: more, reason: "exit" });
    const snaps = (await t.json(["snapshots", "list"])).snapshots;
    expect(snaps.length).toBe(afterFirst + 1);
    expect(await sql(t.db, "SELECT count(*) AS n FROM tool_calls")).toEqual([{ n: 2 }] as any);
  });

  test("a checkpoint due with nothing new to save starts the cooldown again: the next tool calls do not read the transcript, and the change lands one cooldown later", async () => {
    const t = setup();
    await save(inDefaultHome(t), { goal: "Refactor auth", next: "split the module" });
    const todos = (split: string, imports: string) => [
      T.prompt("refactor auth"),
      T.tool("b1", "TodoWrite", {
        todos: [
          { content: "Split the module", status: split, activeForm: "Splitting the module" },
          { content: "Update imports", status: imports, activeForm: "Updating imports" },
        ],
      }),
      T.tool("b2", "Edit", { file_path: join(t.repo, "src/auth.ts") }, usage(150_000)),
    ];
    const yellow = t.transcript(todos("in_progress", "pending"));
    const edit = { tool_name: "Edit", tool_input: { file_path: join(t.repo, "src/auth.ts") } };
    const stops = async (path: string, n: number) => {
      for (let i = 0; i < n; i++)
        await hookAt(t, undefined, "stop", {
          session_id: "sess-1",
          cwd: t.repo,
          hook_event_name: "Stop",
          transcript_path: path,
          stop_hook_active: false,
        });
    };
    const count = async () => (await t.json(["snapshots", "list"])).snapshots.length;
    // YELLOW: an auto-checkpoint, and its cooldown.
    await t.hook("post-tool-use", { transcript_path: yellow, ...edit });
    expect(await count()).toBe(2);
    // Ten turns end the cooldown: the tenth stop reads the transcript and finds the checkpoint's Layer 1.
    await stops(yellow, 10);
    expect(await count()).toBe(2);
    // The task moved on, right after that look: still inside the cooldown it started, nothing is saved.
    const moved = t.transcript(todos("completed", "in_progress"));
    expect(await t.hook("post-tool-use", { transcript_path: moved, ...edit })).toMatchObject({
      code: 0,
      stdout: "",
    });
    expect(await count()).toBe(2);
    // One cooldown later the change is saved.
    await stops(moved, 10);
    expect(await count()).toBe(3);
    expect((await t.json(["load", "1"])).layer1.next_action).toBe("Update imports");
  });

  test("hooks never block the agent: bad stdin, an unknown event, a broken store — exit 0, one line on stderr, nothing on stdout", async () => {
    const t = setup();
    const bad = await t.hook("post-tool-use", "this is not json");
    expect(bad).toMatchObject({ code: 0, stdout: "" });
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    const unknown = await t.hook("frobnicate", {});
    expect(unknown).toMatchObject({ code: 0, stdout: "" });
    // No event at all (the help says a hook always exits 0): one line, exit 0.
    const none = await run(["hook"], { cwd: t.repo, env: t.pc.env, bin: [exe], stdin: "{}" });
    expect(none).toMatchObject({ code: 0, stdout: "" });
    expect(none.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        /^mindsave hook: no event given;.*; nothing done \(exit 0: a hook never fails the agent\)$/,
      ),
    ]);
    expect(unknown.stderr).toContain("unknown event; use one of session-start,");
    expect(unknown.stderr).toContain("nothing done (exit 0: a hook never fails the agent)");
    mkdirSync(t.home, { recursive: true });
    writeFileSync(join(t.home, "mindsave.db"), "garbage, not a database".repeat(20));
    const broken = await t.hook("session-start", { source: "startup" });
    expect(broken.code).toBe(0);
    expect(broken.stdout).toBe("");
    expect(broken.stderr).toContain("not a MindSave store");
    expect(broken.stderr.trim().split("\n")).toHaveLength(1);
    const empty = await t.hook("stop", "");
    expect(empty).toMatchObject({ code: 0, stdout: "" });
  });
});

const SCRIPT = spawnSync("sh", ["-c", "command -v script"]).stdout?.toString().trim() ?? "";

describe("a hook typed by a person", () => {
  test.skipIf(!SCRIPT)(
    "on a terminal it says it reads the agent's payload, then reads what is typed up to Ctrl-D (exit 0); --help names where the payloads are described",
    async () => {
      const t = setup();
      // script(1): stdin, stdout and stderr a real pseudo-terminal, as when a person types it.
      const command = `${[exe, "hook", "post-tool-use", "--home", t.home].join(" ")}; echo "exit $?"`;
      // Ctrl-D typed at once: an empty payload, which a hook leaves alone.
      const r = spawnSync(SCRIPT, ["-qec", command, "/dev/null"], {
        cwd: t.repo,
        env: childEnv(t.pc.env),
        input: "\x04",
        timeout: 30_000,
      });
      const screen = r.stdout.toString();
      expect(screen).toContain(
        "mindsave hook post-tool-use: reads the agent's JSON payload on stdin and is meant to be run by the agent's hooks",
      );
      expect(screen).toContain("exit 0");
      expect(screen).not.toContain("gave up");
      const help = await run(["hook", "--help"], { cwd: t.repo, env: t.pc.env, bin: [exe] });
      const readme = readFileSync(join(import.meta.dir, "..", "README.md"), "utf8");
      for (const section of ["Use it with Claude Code", "Other agents"]) {
        expect(help.stdout).toContain(`"${section}"`);
        expect(readme).toContain(`\n## ${section}\n`);
      }
      expect(readme).toContain("**Try a hook by hand.**");
    },
  );
});

describe("ingest and skill", () => {
  test("ingest appends a transcript's tool calls to the tool log with secrets redacted; again adds nothing", async () => {
    const t = setup();
    const path = t.transcript([
      T.prompt("deploy"),
      T.tool("g1", "Bash", {
        command: "curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz123456' https://api.example.com",
      }),
      T.tool("g2", "Bash", { command: "export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz && deploy" }),
      T.tool("g3", "Read", { file_path: join(t.repo, "src/auth.ts") }),
    ]);
    const r = await t.json(["ingest", path]);
    expect(r).toMatchObject({ added: 3, seen: 3, project: "shop" });
    const log = JSON.stringify((await t.json(["recall", "--tools"])).tool_calls);
    expect(log).not.toContain("abcdefghijklmnopqrstuvwxyz");
    expect(log).toContain("Authorization: Bearer [REDACTED:bearer-token]");
    expect(log).toContain("OPENAI_API_KEY=[REDACTED:openai-api-key] && deploy");
    expect((await t.json(["ingest", path])).added).toBe(0);
    const missing = await t.cli(["ingest", join(t.base, "nope.jsonl")]);
    expect(missing.code).toBe(1);
  });

  test("skill prints a SKILL.md for any agent; --install writes it where Claude Code looks", async () => {
    const t = setup();
    const text = (await t.cli(["skill"])).stdout;
    expect(text).toStartWith("---\nname: mindsave\n");
    for (const cmd of [
      "/save",
      "/load",
      "/recall",
      "/snapshots",
      "/auto-snapshot",
      "next_action",
      "failure_graph",
      "load --latest",
      "save --overflow",
    ])
      expect(text).toContain(cmd);
    const skills = join(t.pc.home, ".claude", "skills");
    // Someone's own skills stay untouched by install and uninstall, including one named like ours.
    mkdirSync(join(skills, "deploy"), { recursive: true });
    writeFileSync(join(skills, "deploy", "SKILL.md"), "---\nname: deploy\ndescription: mine\n---\n");
    const r = await t.json(["skill", "--install"]);
    expect(r.path).toBe(join(skills, "mindsave", "SKILL.md"));
    expect(readFileSync(r.path, "utf8")).toContain("name: mindsave");
    expect(readdirSync(join(skills, "mindsave"))).toEqual(["SKILL.md"]);
    // One skill folder per command: ~/.claude/skills/NAME/SKILL.md is the slash command /NAME.
    const commands = ["save", "load", "recall", "snapshots", "auto-snapshot"];
    expect(r.commands).toEqual(commands.map((c) => join(skills, c, "SKILL.md")));
    for (const c of commands) {
      const md = readFileSync(join(skills, c, "SKILL.md"), "utf8");
      expect(md).toStartWith(`---\nname: ${c}\ndescription: MindSave /${c}`);
      expect(md).toContain("disable-model-invocation: true");
      expect(md).toContain(`## /${c}`);
    }
    expect(readFileSync(join(skills, "load", "SKILL.md"), "utf8")).toContain("load --latest");
    expect(readFileSync(join(skills, "auto-snapshot", "SKILL.md"), "utf8")).toContain("save --overflow");
    // Idempotent: again, the same files.
    const before = commands.map((c) => readFileSync(join(skills, c, "SKILL.md"), "utf8"));
    expect((await t.json(["skill", "--install"])).replaced).toBe(true);
    expect(commands.map((c) => readFileSync(join(skills, c, "SKILL.md"), "utf8"))).toEqual(before);
    // A /save someone else wrote is left alone.
    const removed = (await t.json(["skill", "--uninstall"])).removed;
    expect(removed.sort()).toEqual(["mindsave", ...commands].map((c) => join(skills, c, "SKILL.md")).sort());
    expect(readdirSync(skills)).toEqual(["deploy"]);
    mkdirSync(join(skills, "save"));
    writeFileSync(join(skills, "save", "SKILL.md"), "---\nname: save\ndescription: my own /save\n---\n");
    const again = await t.json(["skill", "--install"]);
    expect(again.skipped).toEqual([join(skills, "save", "SKILL.md")]);
    expect(readFileSync(join(skills, "save", "SKILL.md"), "utf8")).toContain("my own /save");
    await t.json(["skill", "--uninstall"]);
    expect(readdirSync(skills).sort()).toEqual(["deploy", "save"]);
    expect((await t.json(["skill", "--uninstall"])).removed).toEqual([]);
  });
});

describe("a hook whose cwd cannot be a project", () => {
  test("a folder that does not exist is not made, and the MindSave home itself is no project: exit 0, nothing written there", async () => {
    const t = plainFolder();
    await save({ home: t.home, cwd: t.other, env: laptop("walker", t.base).env }, { goal: "elsewhere" });
    const gone = join(t.base, "removed-worktree", "y");
    for (const arg of ["post-tool-use", "stop", "pre-compact", "session-end"]) {
      const r = await t.cli(["hook", arg], {
        stdin: JSON.stringify({
          session_id: "q",
          cwd: gone,
          tool_name: "Bash",
          transcript_path: join(t.base, "none.jsonl"),
        }),
        cwd: t.other,
      });
      expect(r.code).toBe(0);
    }
    expect(existsSync(join(t.base, "removed-worktree"))).toBe(false);
    const inHome = await t.cli(["hook", "post-tool-use"], {
      stdin: JSON.stringify({ session_id: "q", cwd: t.home, tool_name: "Bash" }),
      cwd: t.other,
    });
    expect(inHome.code).toBe(0);
    expect(existsSync(join(t.home, ".mindsave"))).toBe(false);
    expect((await sql(t.db, "SELECT name FROM projects WHERE deleted = 0")).map((r) => r.name)).toEqual([
      "other",
    ]);
  });
});
