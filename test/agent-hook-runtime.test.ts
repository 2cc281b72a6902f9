// `mindsave hook EVENT --agent NAME` through the real CLI with each agent's own payloads
// (test/fixtures/agents/payloads.json, sources in its README.md): the exact output shape each
// agent accepts (no extra keys), nothing where an event must print nothing, snapshots from each
// agent's transcript or the hooks' trail, Copilot's and Cursor's double firing, and the fail-safe
// rules for an unknown agent or a bad payload.
import { describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentProject, payloads, transcriptFixture } from "./agent-fixtures.ts";
import { dumpStore, holdWriteLock, laptop, plainFolder, sql } from "./helpers.ts";
import { hookAt, inDefaultHome, save } from "./engine-setup.ts";

const GOAL = "Ship the JWT login";

/** What each agent's session start prints: the restore block under its own key, and nothing else (Codex and opencode: plain text). */
const START_SHAPE: Record<string, (context: string) => unknown> = {
  gemini: (c) => ({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: c } }),
  copilot: (c) => ({ additionalContext: c }),
  cursor: (c) => ({ additional_context: c }),
  cline: (c) => ({ contextModification: c }),
};

const TRANSCRIPT: Record<string, string | undefined> = {
  codex: "codex-rollout.jsonl",
  gemini: "gemini-session.jsonl",
  copilot: "copilot-events.jsonl",
  cursor: "cursor-transcript.jsonl",
};

/**
 * Claude Code's restore block for the same project and source, its hook run in this process (the
 * other agents' hooks are what the CLI runs): every agent must get exactly this text.
 */
async function claudeBlock(t: ReturnType<typeof agentProject>, source: string): Promise<string> {
  const out = await hookAt(t, undefined, "session-start", {
    session_id: "probe",
    cwd: t.repo,
    hook_event_name: "SessionStart",
    permission_mode: "default",
    source,
  });
  return JSON.parse(out).hookSpecificOutput.additionalContext;
}

/** The project's first snapshot, saved in this process as `mindsave save --goal GOAL --next NEXT` would. */
const saveTask = (t: ReturnType<typeof agentProject>, goal = GOAL, next = "add the expiry check") =>
  save(inDefaultHome(t), { goal, next });

/** A block without its "(3s ago)": two renders a second apart are the same block. */
const ageless = (text: string) => text.replace(/\([^()]* ago\)/g, "(…)");

const snapshots = (t: ReturnType<typeof agentProject>) =>
  sql(
    t.db,
    "SELECT name, goal, state, active_files, saved_agent FROM snapshots WHERE deleted = 0 ORDER BY created_at, name",
  );

describe("each agent's events → the exact output it accepts", () => {
  for (const agent of ["codex", "gemini", "copilot", "cursor", "cline", "opencode"]) {
    test(`${agent}: session start gives the restore block in its own shape; every other event prints nothing`, async () => {
      const t = agentProject();
      await saveTask(t);
      const transcript = TRANSCRIPT[agent]
        ? transcriptFixture(TRANSCRIPT[agent]!, t.base, t.repo)
        : undefined;
      for (const [name, { arg, payload }] of Object.entries(payloads(agent, t.repo, transcript))) {
        if (name.startsWith("claude-")) continue;
        const continuing = name === "TaskResume";
        const expected =
          arg === "session-start" ? await claudeBlock(t, continuing ? "resume" : "startup") : "";
        const r = await t.hook(agent, arg, payload);
        expect({ name, code: r.code, stderr: r.stderr }).toEqual({ name, code: 0, stderr: "" });
        if (agent === "opencode" && arg === "pre-compact") {
          // opencode's compaction takes context: the block of the snapshot just saved.
          expect(r.stdout).toMatch(/^# MindSave restore: /);
          continue;
        }
        if (agent === "codex" && arg === "stop") {
          // The rollout's update_plan completed a step: asked for once (checkpoint-moments.test.ts).
          expect(JSON.parse(r.stdout).reason).toContain(
            'A step of the plan is done ("Read the auth module")',
          );
          continue;
        }
        if (arg !== "session-start") {
          expect({ name, stdout: r.stdout }).toEqual({ name, stdout: "" });
          continue;
        }
        expect(expected).toContain(`goal: ${GOAL}`);
        if (agent === "opencode" || agent === "codex") {
          // The plugin takes plain text into the system prompt; Codex gives SessionStart's plain text
          // to the model, and codex-cli 0.154.0 failed any output holding `additionalContext` (openai/codex#45999).
          expect(ageless(r.stdout)).toBe(ageless(expected).replace(/\n*$/, "\n"));
          expect(() => JSON.parse(r.stdout)).toThrow();
        } else {
          // toEqual on the parsed object: a key too many or too few fails (Codex denies unknown fields).
          expect(JSON.parse(ageless(r.stdout))).toEqual(START_SHAPE[agent](ageless(expected)));
          expect(r.stdout.endsWith("}\n")).toBe(true);
        }
      }
    });
  }

  test("post-tool-use at YELLOW warns in each agent's shape: Codex PostToolUse, Gemini AfterTool; Copilot measures no fill", async () => {
    // Codex: 200,000 of a 272,000-token window (74%); Gemini: 760,000 of 1,048,576 (72.5%); the warning threshold is
    // 60% (a session's first call: normal growth).
    const codex = agentProject();
    await saveTask(codex);
    const rollout = transcriptFixture("codex-rollout.jsonl", codex.base, codex.repo);
    appendFileSync(
      rollout,
      JSON.stringify({
        timestamp: "2026-09-20T10:00:12.000Z",
        type: "event_msg",
        payload: {
          type: "token_count",
          info: {
            last_token_usage: {
              input_tokens: 195_000,
              cached_input_tokens: 180_000,
              output_tokens: 5_000,
              reasoning_output_tokens: 0,
              total_tokens: 200_000,
            },
            model_context_window: 272_000,
          },
          rate_limits: null,
        },
      }) + "\n",
    );
    const c = JSON.parse(
      (await codex.hook("codex", "post-tool-use", payloads("codex", codex.repo, rollout).PostToolUse.payload))
        .stdout,
    );
    expect(Object.keys(c)).toEqual(["systemMessage", "hookSpecificOutput"]);
    expect(Object.keys(c.hookSpecificOutput)).toEqual(["hookEventName", "additionalContext"]);
    expect(c.hookSpecificOutput.hookEventName).toBe("PostToolUse");
    expect(c.systemMessage).toMatch(/^Context pressure rising \(74%\)/);

    const gemini = agentProject();
    await saveTask(gemini);
    const chat = transcriptFixture("gemini-session.jsonl", gemini.base, gemini.repo);
    appendFileSync(
      chat,
      JSON.stringify({
        id: "m8",
        timestamp: "2026-09-21T08:03:00.000Z",
        type: "gemini",
        content: "",
        model: "gemini-2.5-pro",
        tokens: { input: 760_000, output: 10, cached: 0, thoughts: 0, tool: 0, total: 760_010 },
      }) + "\n",
    );
    const g = JSON.parse(
      (await gemini.hook("gemini", "post-tool-use", payloads("gemini", gemini.repo, chat).AfterTool.payload))
        .stdout,
    );
    expect(Object.keys(g)).toEqual(["systemMessage", "hookSpecificOutput"]);
    expect(g.hookSpecificOutput).toEqual({
      hookEventName: "AfterTool",
      additionalContext: expect.stringContaining("73% full (warning threshold 60%)"),
    });

    // Copilot's postToolUse names no transcript and its log keeps no per-request usage: nothing to say.
    const copilot = agentProject();
    await saveTask(copilot);
    expect(
      await copilot.hook("copilot", "post-tool-use", payloads("copilot", copilot.repo).postToolUse.payload),
    ).toMatchObject({ code: 0, stdout: "", stderr: "" });
  });
});

describe("tool failures from agents whose postToolUse fires only for a success", () => {
  test("Copilot's postToolUseFailure (a string error) and Cursor's (error_message): three alike become one system failure at the next checkpoint", async () => {
    for (const agent of ["copilot", "cursor"]) {
      const t = agentProject();
      await save(inDefaultHome(t), { goal: GOAL });
      const all = payloads(agent, t.repo);
      const p = all.postToolUseFailure;
      for (let i = 0; i < 3; i++)
        expect(await t.hook(agent, p.arg, p.payload)).toMatchObject({ code: 0, stdout: "", stderr: "" });
      // The next checkpoint records what the session's failures add up to.
      expect((await t.hook(agent, all.preCompact.arg, all.preCompact.payload)).code).toBe(0);
      const failures = Object.entries((await t.json(["failures"])).failure_graph.project) as [string, any][];
      expect({ agent, failures: failures.map(([item, f]) => [item, f.rejected_by, f.repeat_count]) }).toEqual(
        { agent, failures: [[`${agent === "copilot" ? "bash" : "Shell"} npm test`, "system", 3]] },
      );
      expect(failures[0][1].reason).toContain("npm test exited 1: 3 failing");
    }
  });
});

describe("snapshots from every agent, with the agent that saved them", () => {
  test("Codex pre-compact: a snapshot from the rollout (goal, plan step, edited files), saved_agent codex, the block says so", async () => {
    const t = agentProject();
    const rollout = transcriptFixture("codex-rollout.jsonl", t.base, t.repo);
    const r = await t.hook("codex", "pre-compact", payloads("codex", t.repo, rollout).PreCompact.payload);
    expect(r).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const [s] = await snapshots(t);
    expect(s).toMatchObject({
      goal: "把登录改成用 JWT，并加上过期检查",
      state: "In progress: Switch login to JWT (1/3 steps done)",
      saved_agent: "codex",
    });
    expect(String(s.active_files)).toContain("src/jwt.ts");
    const start = (
      await t.hook("codex", "session-start", payloads("codex", t.repo, rollout).SessionStart.payload)
    ).stdout;
    expect(start).toMatch(/^# MindSave restore: /); // plain text, not JSON
    expect(start).toMatch(/saved .* by Codex CLI on this host/);
    expect(start).toContain("src/jwt.ts");
  });

  test("Cline (no transcript): the task's trail — its first task, the checklist, the written file — makes the pre-compact snapshot", async () => {
    const t = agentProject();
    const p = payloads("cline", t.repo);
    for (const name of ["TaskStart", "UserPromptSubmit", "PostToolUse", "PreCompact"])
      expect((await t.hook("cline", p[name].arg, p[name].payload)).stdout).toBe("");
    const [s] = await snapshots(t);
    expect(s).toMatchObject({
      goal: "Migrate the user table to UUID keys",
      state: "In progress: Write the migration (1/3 steps done)",
      saved_agent: "cline",
    });
    expect(String(s.active_files)).toContain("migrations/003_uuid.sql");
    // TaskResume gives the block back as Cline's contextModification.
    const resumed = JSON.parse((await t.hook("cline", "session-start", p.TaskResume.payload)).stdout);
    expect(Object.keys(resumed)).toEqual(["contextModification"]);
    expect(resumed.contextModification).toContain("goal: Migrate the user table to UUID keys");
    expect(resumed.contextModification).toContain("by Cline on this host");
  });

  test("a secret in a payload-only agent's tool call or prompt never reaches the store (the trail, the tool log, the snapshot)", async () => {
    const t = agentProject();
    const p = payloads("cline", t.repo);
    const key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
    const start = {
      ...p.TaskStart.payload,
      taskStart: {
        taskMetadata: { taskId: "1790060400000", initialTask: `deploy with OPENAI_API_KEY=${key}` },
      },
    };
    const call = {
      ...p.PostToolUse.payload,
      postToolUse: {
        toolName: "execute_command",
        parameters: { command: `OPENAI_API_KEY=${key} npm run deploy` },
        result: "ok",
        success: true,
      },
    };
    for (const [arg, body] of [
      ["session-start", start],
      ["post-tool-use", call],
      ["pre-compact", p.PreCompact.payload],
    ] as const)
      expect((await t.hook("cline", arg, body)).code).toBe(0);
    expect((await snapshots(t)).length).toBe(1);
    const dump = await dumpStore(t.db);
    expect(dump).not.toContain("abcdefghijklmnopqrstuvwxyz0123456789");
    expect(dump).toContain("[REDACTED:openai-api-key]");
  });

  test("opencode: compaction saves from the trail and hands the fresh restore block to the summary as plain text", async () => {
    const t = agentProject();
    const p = payloads("opencode", t.repo);
    expect((await t.hook("opencode", "session-start", p["session.start"].payload)).stdout).toBe("");
    expect((await t.hook("opencode", "post-tool-use", p["tool.execute.after"].payload)).stdout).toBe("");
    const compact = await t.hook("opencode", "pre-compact", p["session.compacting"].payload);
    expect(compact.stdout).toMatch(/^# MindSave restore: /);
    expect(compact.stdout).toContain("src/cache.ts");
    expect(compact.stdout).toContain("by opencode on this host");
    expect((await snapshots(t)).map((s) => s.saved_agent)).toEqual(["opencode"]);
  });
});

describe("agents that also run Claude Code's hooks fire each event twice: it counts once", () => {
  test("Copilot CLI: SessionStart through .claude/settings.json injects; its own sessionStart then prints nothing; one snapshot per stop", async () => {
    const t = agentProject();
    await saveTask(t);
    const log = transcriptFixture("copilot-events.jsonl", t.base, t.repo);
    const p = payloads("copilot", t.repo, log);
    const viaClaude = await t.hook("claude", "session-start", p["claude-SessionStart"].payload);
    expect(JSON.parse(viaClaude.stdout).hookSpecificOutput.additionalContext).toContain(`goal: ${GOAL}`);
    expect(await t.hook("copilot", "session-start", p.sessionStart.payload)).toMatchObject({
      code: 0,
      stdout: "",
      stderr: "",
    });
    // One tool call, heard twice: counted once.
    expect((await t.hook("copilot", "post-tool-use", p.postToolUse.payload)).code).toBe(0);
    expect((await t.hook("claude", "post-tool-use", p["claude-PostToolUse"].payload)).code).toBe(0);
    expect((await t.json(["signal"])).tool_calls_since_save).toBe(1);
    const before = (await snapshots(t)).length;
    // The other order for the turn's end: Copilot's own hook first, Claude Code's copy second.
    expect((await t.hook("copilot", "stop", p.agentStop.payload)).code).toBe(0);
    expect((await snapshots(t)).length).toBe(before + 1);
    expect(await t.hook("claude", "stop", p["claude-Stop"].payload)).toMatchObject({
      code: 0,
      stdout: "",
      stderr: "",
    });
    const after = await snapshots(t);
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)).toMatchObject({
      state: "Last action: bash npm test -- export (3 tool calls this session)",
      saved_agent: "copilot",
    });
    expect(String(after.at(-1)!.active_files)).toContain("src/export.ts");
  });

  test("Cursor: its sessionStart and the Claude Code SessionStart it also runs inject once; Claude Code itself is never deduplicated", async () => {
    const t = agentProject();
    await saveTask(t);
    const p = payloads("cursor", t.repo);
    const own = JSON.parse((await t.hook("cursor", "session-start", p.sessionStart.payload)).stdout);
    expect(own.additional_context).toContain(`goal: ${GOAL}`);
    const copy = { ...p.sessionStart.payload, hook_event_name: "SessionStart", source: "startup" };
    expect(await t.hook("claude", "session-start", copy)).toMatchObject({ code: 0, stdout: "" });
    // Claude Code's own payloads (no Cursor or Copilot keys) always run.
    const claude = {
      session_id: "cc-1",
      cwd: t.repo,
      hook_event_name: "SessionStart",
      permission_mode: "default",
      source: "startup",
    };
    for (let i = 0; i < 2; i++)
      expect(
        JSON.parse((await t.hook("claude", "session-start", claude)).stdout).hookSpecificOutput
          .additionalContext,
      ).toContain(GOAL);
  });
});

describe("fail-safe", () => {
  test("an unknown agent: exit 0, one line on stderr, nothing on stdout, nothing written", async () => {
    const t = agentProject();
    const r = await t.hook("windsurf", "session-start", { session_id: "s", cwd: t.repo });
    expect(r).toMatchObject({ code: 0, stdout: "" });
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("unknown agent");
    expect(existsSync(t.db)).toBe(false);
  });

  test("a bad payload for any agent: not JSON, not an object — exit 0, one line on stderr, nothing on stdout", async () => {
    const t = agentProject();
    for (const agent of ["codex", "gemini", "copilot", "cursor", "cline", "opencode"]) {
      for (const body of ["{not json", "[1,2,3]", "null"]) {
        const r = await t.hook(agent, "pre-compact", body);
        expect({
          agent,
          body,
          code: r.code,
          stdout: r.stdout,
          lines: r.stderr.trim().split("\n").length,
        }).toEqual({ agent, body, code: 0, stdout: "", lines: 1 });
      }
    }
    // Wrongly typed fields are not a crash either: nothing to read, nothing saved.
    const odd = await t.hook("cline", "post-tool-use", {
      taskId: 7,
      workspaceRoots: "nope",
      postToolUse: { toolName: 3, parameters: [1], success: "yes" },
    });
    expect(odd).toMatchObject({ code: 0, stdout: "" });
    expect(existsSync(join(t.home, "mindsave.db")) ? (await snapshots(t)).length : 0).toBe(0);
  });
});

describe("a hook never waits out another MindSave's long write (a first sync, an import)", () => {
  // SQLite waits for a lock inside a synchronous call, where the hook's 4 s watchdog cannot fire:
  // with the store's default 15 s a hook stalled the agent on every tool call while a sync ran.
  // (The 20 s limit below is a liveness bound on a hook that waits 1 s: 15 s waits would miss it.)
  test("while another process holds the write lock: session-start still restores, post-tool-use and stop leave their write out; all exit 0", async () => {
    const t = agentProject("mindsave-hook-busy-");
    await saveTask(t, GOAL, "wire the refresh endpoint");
    const before = await dumpStore(t.db);
    const lock = await holdWriteLock(t.db);
    try {
      const start = await t.hook(null, "session-start", {
        session_id: "busy-1",
        cwd: t.repo,
        hook_event_name: "SessionStart",
        source: "startup",
      });
      expect(start.code).toBe(0);
      expect(JSON.parse(start.stdout).hookSpecificOutput.additionalContext).toContain(`goal: ${GOAL}`);
      for (const [event, name] of [
        ["post-tool-use", "PostToolUse"],
        ["stop", "Stop"],
      ]) {
        const r = await t.hook(null, event, {
          session_id: "busy-1",
          cwd: t.repo,
          hook_event_name: name,
          tool_name: "Bash",
          tool_input: { command: "ls" },
          tool_response: { stdout: "x" },
        });
        expect([r.code, r.stdout]).toEqual([0, ""]);
        expect(r.stderr).toContain("is busy (another MindSave, or another program, is using it)");
      }
    } finally {
      await lock.release();
    }
    expect(await dumpStore(t.db)).toBe(before);
  }, 20_000);

  // (The 10 s limit is a liveness bound: folding the log back waited out the reader, 15 s.)
  test("a laptop's store while another program reads it: a save and a hook finish without waiting the reader out", async () => {
    const t = agentProject("mindsave-save-reader-");
    await saveTask(t, GOAL, "wire the refresh endpoint");
    const lock = await holdWriteLock(t.db, "read");
    try {
      expect((await t.cli(["save", "--goal", "saved while read", "--state", "s", "--next", "n"])).code).toBe(
        0,
      );
      const r = await t.hook(null, "post-tool-use", {
        session_id: "reader-2",
        cwd: t.repo,
        hook_event_name: "PostToolUse",
        tool_name: "Bash",
        tool_input: { command: "ls" },
        tool_response: { stdout: "x" },
      });
      expect([r.code, r.stdout, r.stderr]).toEqual([0, "", ""]);
    } finally {
      await lock.release();
    }
    expect(
      (await sql(t.db, "SELECT count(*) AS n FROM snapshots WHERE goal = 'saved while read'"))[0].n,
    ).toBe(1);
  }, 10_000);

  test("a drive's store while another program reads it: session-start's write cannot commit, and it still restores", async () => {
    const t = agentProject("mindsave-hook-reader-");
    // A drive's home keeps its store in rollback-journal mode: a commit waits for every reader.
    mkdirSync(t.home, { recursive: true });
    writeFileSync(join(t.home, "drive.json"), "{}");
    await saveTask(t, GOAL, "wire the refresh endpoint");
    const lock = await holdWriteLock(t.db, "read");
    try {
      const start = await t.hook(null, "session-start", {
        session_id: "reader-1",
        cwd: t.repo,
        hook_event_name: "SessionStart",
        source: "startup",
      });
      expect(start.code).toBe(0);
      expect(JSON.parse(start.stdout).hookSpecificOutput.additionalContext).toContain(`goal: ${GOAL}`);
      expect(start.stderr).not.toContain("SQLITE");
    } finally {
      await lock.release();
    }
  }, 20_000);
});

describe("Codex: session start in plain text", () => {
  test("session-start --agent codex prints the restore block as plain text (no additionalContext JSON, which codex-cli 0.154.0 fails)", async () => {
    const t = agentProject();
    await saveTask(t);
    const block = await claudeBlock(t, "startup");
    const r = await t.hook("codex", "session-start", payloads("codex", t.repo).SessionStart.payload);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(r.stdout).not.toContain("additionalContext");
    // Codex fails text that starts like JSON; plain text is handed to the model as it is.
    expect(r.stdout).not.toMatch(/^\s*[[{]/);
    expect(ageless(r.stdout)).toBe(ageless(block).replace(/\n*$/, "\n"));
    expect(r.stdout).toContain("goal: Ship the JWT login");
  });
});

describe("opencode: snapshots without the user's prompt", () => {
  test("no snapshot yet: the goal is marked unknown (not an instruction), named unknown_goal_<date>; with one, the newest's goal carries on", async () => {
    const t = agentProject();
    const p = payloads("opencode", t.repo);
    for (const name of ["session.start", "tool.execute.after", "session.compacting"])
      expect((await t.hook("opencode", p[name].arg, p[name].payload)).code).toBe(0);
    const [first] = await sql(t.db, "SELECT name, goal, saved_agent FROM snapshots WHERE deleted = 0");
    expect(first).toMatchObject({
      goal: "(unknown: no prompt of this session reached MindSave)",
      saved_agent: "opencode",
    });
    expect(String(first!.name)).toMatch(/^unknown_goal_\d{4}-\d\d-\d\d$/);
    expect(String(first!.goal)).not.toContain("Continue the current task");

    // A project with a snapshot: a prompt-less opencode session carries its goal on, as Claude Code's "continue" does.
    const u = agentProject();
    await saveTask(u, "Cache the product list", "raise the TTL");
    const q = payloads("opencode", u.repo);
    for (const name of ["session.start", "tool.execute.after", "session.compacting"])
      expect((await u.hook("opencode", q[name].arg, q[name].payload)).code).toBe(0);
    const rows = await sql(
      u.db,
      "SELECT goal, saved_agent FROM snapshots WHERE deleted = 0 ORDER BY created_at",
    );
    expect(rows.map((r) => [r.goal, r.saved_agent])).toEqual([
      ["Cache the product list", null],
      ["Cache the product list", "opencode"],
    ]);
  });
});

describe("opencode: the person's message is the session's goal", () => {
  test("chat.message's prompt reaches the hook: the compaction's snapshot has it as its goal", async () => {
    const t = agentProject();
    const p = payloads("opencode", t.repo);
    const prompt = "Add an index on orders.created_at";
    const message = {
      hook_event_name: "chat.message",
      session_id: p["session.start"].payload.session_id,
      cwd: t.repo,
      worktree: t.repo,
      prompt,
    };
    expect((await t.hook("opencode", "session-start", p["session.start"].payload)).code).toBe(0);
    expect(await t.hook("opencode", "user-prompt-submit", message)).toMatchObject({ code: 0, stdout: "" });
    for (const name of ["tool.execute.after", "session.compacting"])
      expect((await t.hook("opencode", p[name].arg, p[name].payload)).code).toBe(0);
    const rows = await sql(t.db, "SELECT goal, saved_agent FROM snapshots WHERE deleted = 0");
    expect(rows.map((r) => [r.goal, r.saved_agent])).toEqual([[prompt, "opencode"]]);
  });
});

describe("a session in a folder that is no project yet (Cline, no transcript)", () => {
  test('its first task is kept until a save makes the project: the snapshots restore that task, not an unknown goal nor the last "thanks, done"', async () => {
    const t = plainFolder();
    await save({ home: t.home, cwd: t.other, env: laptop("walker", t.base).env }, { goal: "elsewhere" });
    const base = { taskId: "ct", workspaceRoots: [t.dir], model: { slug: "m" } };
    const hook = (arg: string, payload: Record<string, unknown>) =>
      t.cli(["hook", arg, "--agent", "cline"], { stdin: JSON.stringify({ ...base, ...payload }) });
    const start = await hook("session-start", {
      hookName: "TaskStart",
      taskStart: { taskMetadata: { taskId: "ct", initialTask: "Fix the login bug in auth.ts" } },
    });
    expect([start.code, start.stderr]).toEqual([0, ""]);
    // Nothing is written into the folder for a session that has not saved yet.
    expect(existsSync(join(t.dir, ".mindsave"))).toBe(false);
    for (let i = 0; i < 11; i++) {
      expect(
        (
          await hook("post-tool-use", {
            hookName: "PostToolUse",
            postToolUse: { toolName: "replace_in_file", parameters: { path: "src/auth.ts" }, success: true },
          })
        ).code,
      ).toBe(0);
    }
    expect(
      (
        await hook("user-prompt-submit", {
          hookName: "UserPromptSubmit",
          userPromptSubmit: { prompt: "thanks, done" },
        })
      ).code,
    ).toBe(0);
    const goals = (
      await sql(
        t.db,
        "SELECT s.goal FROM snapshots s JOIN projects p ON p.id = s.project_id WHERE s.deleted = 0 AND p.name = 'app'",
      )
    ).map((r) => r.goal);
    expect(goals.length).toBeGreaterThan(0);
    expect(new Set(goals)).toEqual(new Set(["Fix the login bug in auth.ts"]));
    // The waiting trail went into the project's note once the project was there.
    expect(await sql(t.db, "SELECT value FROM meta WHERE key = 'pending_trails'")).toEqual([{ value: "{}" }]);
  });
});
