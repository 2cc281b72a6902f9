// Whole Claude Code sessions through the compiled binary: realistic transcripts and the payload of
// every hook event, one test per defect the hooks had, and one session from start to restore.
import { beforeAll, describe, expect, test } from "bun:test";
import { childEnv, hostBinary, sql } from "./helpers.ts";
import { claudeLaptop, events, payload, Transcript } from "./claude-fixtures.ts";
import { atPlace, save, type Place } from "./engine-setup.ts";
import { observeSignal } from "../src/engine/agents/signal.ts";
import { installSkill } from "../src/engine/agents/skill.ts";
import { join } from "node:path";
import { mkdirSync } from "node:fs";

let exe = "";
beforeAll(async () => {
  exe = await hostBinary();
}, 120_000);

const snapshots = async (t: ReturnType<typeof claudeLaptop>) =>
  (
    await sql(
      t.db,
      "SELECT name, kind, constraints, auto_trigger, state, next_action, goal, layer3 FROM snapshots WHERE deleted = 0 ORDER BY created_at",
    )
  ).map((r) => ({
    ...r,
    constraints: JSON.parse(String(r.constraints)),
    auto_trigger: r.auto_trigger ? JSON.parse(String(r.auto_trigger)) : null,
  })) as {
    name: string;
    kind: string;
    constraints: string[];
    auto_trigger: Record<string, unknown> | null;
    state: string;
    next_action: string;
    goal: string;
    layer3: string;
  }[];

/** The laptop's default home, in its project: where its CLI and hooks act; made as the CLI makes it. */
function inShop(t: ReturnType<typeof claudeLaptop>): Place {
  mkdirSync(t.home, { recursive: true, mode: 0o700 });
  return { home: t.home, cwd: t.repo, env: t.pc.env };
}

/** `mindsave signal --turn`, `n` times: turns the agent ended (the cooldown counts them). */
const turns = (t: ReturnType<typeof claudeLaptop>, n: number) =>
  atPlace(inShop(t), async (s) => {
    for (let i = 0; i < n; i++) await observeSignal(s, { turn: true });
  });

const todos = [
  { content: "Add the limiter middleware", status: "completed", activeForm: "Adding the limiter middleware" },
  {
    content: "Wire it into the login route",
    status: "in_progress",
    activeForm: "Wiring it into the login route",
  },
  { content: "Write the load test", status: "pending", activeForm: "Writing the load test" },
] as const;

describe("defects, each through real payloads", () => {
  test("1. after an emergency (OVF_) snapshot Layer 2 survives: it extends the newest full one; the restore block and the next auto snapshot keep it", async () => {
    const t = claudeLaptop(exe);
    await save(inShop(t), {
      goal: "Add rate limiting to the login endpoint",
      next: "wire the limiter",
      constraint: ["no new dependencies"],
      decision: ["token bucket per IP"],
    });
    const manual = (await snapshots(t))[0];
    const tr = new Transcript(t.base, t.repo);
    tr.prompt("Add rate limiting to the login endpoint");
    tr.todos([...todos], 120_000);
    const id = tr.tool(
      "Edit",
      {
        file_path: join(t.repo, "src/limit.ts"),
        old_string: "export {};",
        new_string: "export const limit = 5;",
      },
      192_000,
    );
    const red = await t.hook(
      "post-tool-use",
      payload(
        "PostToolUse",
        { sessionId: "sess-1", path: tr.path, cwd: t.repo },
        events.postToolUse("Edit", { file_path: join(t.repo, "src/limit.ts") }, id),
      ),
    );
    expect(JSON.parse(red.stdout).systemMessage).toContain(`constraints and decisions from ${manual.name}`);
    const [, ovf] = await snapshots(t);
    expect(ovf).toMatchObject({ kind: "overflow", constraints: [] });
    expect(ovf.auto_trigger).toMatchObject({ reason: "context-critical", session_id: "sess-1" });
    const [{ id: manualId }] = await sql(t.db, "SELECT id FROM snapshots WHERE name = ?", [manual.name]);
    expect(ovf.auto_trigger!.extends).toBe(manualId);
    const block = (await t.cli(["load", "--latest"])).stdout;
    expect(block).toContain(`overflow (Layer 1; Layer 2 from ${manual.name})`);
    expect(block).toContain("- no new dependencies");
    expect(block).toContain("- token bucket per IP");
    const start = JSON.parse(
      (
        await t.hook(
          "session-start",
          payload(
            "SessionStart",
            { sessionId: "sess-1", path: tr.path, cwd: t.repo },
            events.sessionStart("compact"),
          ),
        )
      ).stdout,
    );
    expect(start.hookSpecificOutput.additionalContext).toContain("- no new dependencies");
    // The next auto snapshot takes Layer 2 from the full snapshot, not from the OVF one.
    tr.tool("Write", { file_path: join(t.repo, "src/limit.test.ts"), content: "test()" }, 30_000);
    await t.hook(
      "pre-compact",
      payload("PreCompact", { sessionId: "sess-1", path: tr.path, cwd: t.repo }, events.preCompact("manual")),
    );
    const last = (await snapshots(t)).at(-1)!;
    expect(last).toMatchObject({
      kind: "full",
      constraints: ["no new dependencies"],
      goal: "Add rate limiting to the login endpoint",
    });
  });

  test("2. a session the user said not to save is never auto-saved (each phrase, per session); a Q&A session writes nothing; other prompts do not switch saving off", async () => {
    const t = claudeLaptop(exe);
    // Each phrase is read by user-prompt-submit alone, into the session's note, which every other
    // hook reads: RED's line shows the note is set for each; the first session also runs every
    // hook that could save, the others only those two.
    for (const [i, phrase] of [
      "don't save",
      "no need to save this session",
      "不需要保存",
      "别保存",
      "不用保存。",
    ].entries()) {
      const s = `quiet-${i}`;
      const tr = new Transcript(t.base, t.repo, s);
      const at = { sessionId: s, path: tr.path, cwd: t.repo };
      tr.prompt("Try a quick experiment with the login form");
      expect(
        (await t.hook("user-prompt-submit", payload("UserPromptSubmit", at, events.prompt(phrase)))).stdout,
      ).toBe("");
      // Half full: a checkpoint would be due at YELLOW (as the calls quicken), but this session saves nothing.
      const id = tr.tool(
        "Edit",
        { file_path: join(t.repo, "src/login.tsx"), old_string: "a", new_string: "b" },
        100_000,
      );
      const edit = events.postToolUse("Edit", { file_path: join(t.repo, "src/login.tsx") }, id);
      if (i === 0) await t.hook("post-tool-use", payload("PostToolUse", at, edit));
      const red = tr.tool("Bash", { command: "bun test" }, 195_000);
      // RED still warns, and says it is not saving.
      expect(
        JSON.parse(
          (
            await t.hook(
              "post-tool-use",
              payload("PostToolUse", at, events.postToolUse("Bash", { command: "bun test" }, red)),
            )
          ).stdout,
        ).systemMessage,
      ).toContain("not saving this session");
      if (i > 0) continue;
      await t.hook("stop", payload("Stop", at, events.stop("Done.")));
      await t.hook("pre-compact", payload("PreCompact", at, events.preCompact("auto")));
      await t.hook("user-prompt-submit", payload("UserPromptSubmit", at, events.prompt("done")));
      await t.hook("session-end", payload("SessionEnd", at, events.sessionEnd()));
    }
    expect(await snapshots(t)).toEqual([]);
    expect(await sql(t.db, "SELECT count(*) AS n FROM tool_calls")).toEqual([{ n: 0 }] as never);
    // Q&A only: nothing to save.
    const qa = new Transcript(t.base, t.repo, "qa");
    qa.prompt("What does the auth module do?").reply("It validates the session cookie and …");
    for (const [arg, ev, body] of [
      ["stop", "Stop", events.stop("It validates …")],
      ["pre-compact", "PreCompact", events.preCompact("manual")],
      ["session-end", "SessionEnd", events.sessionEnd()],
    ] as const) {
      await t.hook(arg, payload(ev, { sessionId: "qa", path: qa.path, cwd: t.repo }, body));
    }
    expect(await snapshots(t)).toEqual([]);
    // "Don't save the password" is about a file, not about MindSave: this session is saved.
    const busy = new Transcript(t.base, t.repo, "busy");
    busy.prompt("Store the API token in the keychain; don't save the password in the config");
    await t.hook(
      "user-prompt-submit",
      payload(
        "UserPromptSubmit",
        { sessionId: "busy", path: busy.path, cwd: t.repo },
        events.prompt("don't save the password in the config"),
      ),
    );
    busy.tool("Edit", { file_path: join(t.repo, "src/auth.ts"), old_string: "1", new_string: "2" }, 40_000);
    await t.hook(
      "session-end",
      payload("SessionEnd", { sessionId: "busy", path: busy.path, cwd: t.repo }, events.sessionEnd()),
    );
    expect((await snapshots(t)).map((s) => s.auto_trigger?.session_id)).toEqual(["busy"]);
  });

  test("3. a 1M-token session is measured against 1M: SessionStart's model is remembered per session; MINDSAVE_CONTEXT_WINDOW overrides", async () => {
    const t = claudeLaptop(exe);
    const big = new Transcript(t.base, t.repo, "big");
    const at = { sessionId: "big", path: big.path, cwd: t.repo };
    await t.hook(
      "session-start",
      payload("SessionStart", at, events.sessionStart("startup", "claude-opus-4-5[1m]")),
    );
    big.prompt("Refactor the whole auth layer");
    const id = big.tool("Read", { file_path: join(t.repo, "src/auth.ts") }, 180_000);
    expect(
      (
        await t.hook(
          "post-tool-use",
          payload(
            "PostToolUse",
            at,
            events.postToolUse("Read", { file_path: join(t.repo, "src/auth.ts") }, id),
          ),
        )
      ).stdout,
    ).toBe("");
    expect(await t.json(["signal"])).toMatchObject({ estimated_tokens_ratio: 0.18, pressure_state: "GREEN" });
    // A 200k session (no [1m]) in the same project: 180k is 90%.
    const small = new Transcript(t.base, t.repo, "small");
    await t.hook(
      "session-start",
      payload(
        "SessionStart",
        { sessionId: "small", path: small.path, cwd: t.repo },
        events.sessionStart("startup", "claude-sonnet-4-5"),
      ),
    );
    small.prompt("Fix a typo");
    const id2 = small.tool("Read", { file_path: join(t.repo, "README.md") }, 180_000);
    await t.hook(
      "post-tool-use",
      payload(
        "PostToolUse",
        { sessionId: "small", path: small.path, cwd: t.repo },
        events.postToolUse("Read", { file_path: join(t.repo, "README.md") }, id2),
      ),
    );
    expect((await t.json(["signal"])).estimated_tokens_ratio).toBe(0.9);
    // The 1M session is still measured against 1M; the environment overrides both.
    await t.hook(
      "post-tool-use",
      payload("PostToolUse", at, events.postToolUse("Read", { file_path: join(t.repo, "src/auth.ts") }, id)),
    );
    expect((await t.json(["signal"])).estimated_tokens_ratio).toBe(0.18);
    await t.hook("post-tool-use", payload("PostToolUse", at, events.postToolUse("Read", {}, id)), {
      MINDSAVE_CONTEXT_WINDOW: "400000",
    });
    expect((await t.json(["signal"])).estimated_tokens_ratio).toBe(0.45);
  });

  test("4. RED warns once per cooldown even when nothing new is saved", async () => {
    const t = claudeLaptop(exe);
    const tr = new Transcript(t.base, t.repo);
    const at = { sessionId: "sess-1", path: tr.path, cwd: t.repo };
    tr.prompt("Port the billing job");
    const id = tr.tool("Bash", { command: "cargo build" }, 196_000);
    const fire = () =>
      t.hook(
        "post-tool-use",
        payload("PostToolUse", at, events.postToolUse("Bash", { command: "cargo build" }, id)),
      );
    const first = JSON.parse((await fire()).stdout);
    expect(first.systemMessage).toMatch(/auto-saved OVF_port_the_billing_job_/);
    expect(first.hookSpecificOutput.additionalContext).toContain("`mindsave load`"); // no /load skill installed
    expect((await fire()).stdout).toBe(""); // inside the cooldown
    await turns(t, 10); // ten turns end the cooldown
    const again = JSON.parse((await fire()).stdout);
    expect(again.systemMessage).toContain("already holds the current task state");
    expect(again.hookSpecificOutput.additionalContext).toContain("past the critical threshold");
    expect(await snapshots(t)).toHaveLength(1);
    // Once the commands are installed, the warning names /load, which the user can type.
    installSkill(childEnv(t.pc.env));
    await turns(t, 10);
    expect(JSON.parse((await fire()).stdout).systemMessage).toContain("Start a new conversation with /load");
  });

  test("5. a lagging transcript: Stop's last_assistant_message is the final reply; every hook snapshot carries the payload's session_id; an empty or missing transcript writes nothing", async () => {
    const t = claudeLaptop(exe);
    // A resumed session's file still carries the old session id on its lines.
    const tr = new Transcript(t.base, t.repo, "old-session");
    tr.prompt("Make the login form accessible");
    tr.tool(
      "Edit",
      { file_path: join(t.repo, "src/login.tsx"), old_string: "a", new_string: "<label>" },
      30_000,
    );
    const at = { sessionId: "new-session", path: tr.path, cwd: t.repo };
    await t.hook(
      "stop",
      payload("Stop", at, events.stop("Added labels to every field; the form passes axe now.")),
    );
    const [s] = await snapshots(t);
    expect(s.auto_trigger!.session_id).toBe("new-session");
    expect(s.state).toBe(
      "Last reply: Added labels to every field; the form passes axe now. (after 1 tool call)",
    );
    expect(s.layer3).toContain("### Last Reply\nAdded labels to every field");
    const empty = new Transcript(t.base, t.repo, "empty");
    await t.hook(
      "pre-compact",
      payload("PreCompact", { sessionId: "empty", path: empty.path, cwd: t.repo }, events.preCompact("auto")),
    );
    await t.hook(
      "session-end",
      payload(
        "SessionEnd",
        { sessionId: "gone", path: join(t.base, "missing.jsonl"), cwd: t.repo },
        events.sessionEnd(),
      ),
    );
    expect(await snapshots(t)).toHaveLength(1);
  });

  test("5b. pre-compact and session-end carry no reply in their payload: the transcript's last reply is the state, unless a tool call followed it", async () => {
    const t = claudeLaptop(exe);
    const tr = new Transcript(t.base, t.repo, "s-reply");
    tr.prompt("Add rate limiting to the login endpoint");
    tr.tool(
      "Edit",
      {
        file_path: join(t.repo, "src/limit.ts"),
        old_string: "export {};",
        new_string: "export const limit = 5;",
      },
      30_000,
    );
    tr.reply("The limiter is in; tests pass.").synthetic().interrupted();
    await t.hook(
      "pre-compact",
      payload(
        "PreCompact",
        { sessionId: "s-reply", path: tr.path, cwd: t.repo },
        events.preCompact("manual"),
      ),
    );
    const [s] = await snapshots(t);
    expect(s.state).toBe("Last reply: The limiter is in; tests pass. (after 1 tool call)");
    expect(s.layer3).toContain("### Last Reply\nThe limiter is in; tests pass.");

    // Words followed by a tool call were no reply that ended the turn: the last action is the state.
    const busy = new Transcript(t.base, t.repo, "s-busy");
    busy.prompt("Add rate limiting to the login endpoint");
    busy.tool(
      "Edit",
      {
        file_path: join(t.repo, "src/limit.ts"),
        old_string: "export {};",
        new_string: "export const limit = 6;",
      },
      30_000,
    );
    busy.reply("Now let me check the auth module.");
    busy.tool("Read", { file_path: join(t.repo, "src/auth.ts") }, 31_000);
    await t.hook(
      "session-end",
      payload("SessionEnd", { sessionId: "s-busy", path: busy.path, cwd: t.repo }, events.sessionEnd()),
    );
    const [, ended] = await snapshots(t);
    expect(ended.state).toMatch(/^Last action: Read .*auth\.ts/);
    expect(ended.layer3).not.toContain("### Last Reply");
  });

  test("8, 10. fork restores like resume; a `<synthetic>` zero-usage line is not 0% full; a compact summary or an interruption is never the goal; the ratio resets at session start", async () => {
    const t = claudeLaptop(exe);
    const tr = new Transcript(t.base, t.repo);
    const at = { sessionId: "sess-1", path: tr.path, cwd: t.repo };
    // A forked session's file begins with the summary it was forked from and an interruption.
    tr.compact("manual").interrupted().prompt("Cache the session lookups in Redis");
    const id = tr.tool("Read", { file_path: join(t.repo, "src/auth.ts") }, 150_000);
    tr.synthetic().interrupted();
    await t.hook(
      "post-tool-use",
      payload("PostToolUse", at, events.postToolUse("Read", { file_path: join(t.repo, "src/auth.ts") }, id)),
    );
    expect((await t.json(["signal"])).estimated_tokens_ratio).toBe(0.75);
    await t.hook("pre-compact", payload("PreCompact", at, events.preCompact("auto")));
    expect((await snapshots(t))[0].goal).toBe("Cache the session lookups in Redis");
    const fork = JSON.parse(
      (
        await t.hook(
          "session-start",
          payload("SessionStart", { ...at, sessionId: "sess-2" }, events.sessionStart("fork")),
        )
      ).stdout,
    );
    // Restored to carry on, as a resume is (nothing says what comes next, so no next action).
    expect(fork.hookSpecificOutput.additionalContext).toContain(
      "MindSave restored. Goal: Cache the session lookups in Redis.",
    );
    expect((await t.json(["signal"])).estimated_tokens_ratio).toBe(0);
    // After a compaction, a usage from before it measures nothing: the ratio stays reset.
    tr.compact("auto");
    await t.hook("post-tool-use", payload("PostToolUse", at, events.postToolUse("Read", {}, id)));
    expect((await t.json(["signal"])).estimated_tokens_ratio).toBe(0);
  });

  test("11. semantic triggers: an ending saves now, a correction becomes a constraint, 3 identical failures a system failure, a recovered error a silent checkpoint; all quiet", async () => {
    const t = claudeLaptop(exe);
    const tr = new Transcript(t.base, t.repo);
    const at = { sessionId: "sess-1", path: tr.path, cwd: t.repo };
    const say = async (prompt: string) =>
      expect(
        (await t.hook("user-prompt-submit", payload("UserPromptSubmit", at, events.prompt(prompt)))).stdout,
      ).toBe("");
    tr.prompt("Add rate limiting to the login endpoint");
    tr.todos([...todos], 20_000);
    await say("no, I meant per user, not per IP");
    for (let i = 0; i < 3; i++) {
      const id = tr.tool("Bash", { command: "bun test test/limit.test.ts" }, 25_000 + i, {
        error: "Exit code 1\nerror: Cannot find module 'ioredis'",
      });
      const r = await t.hook(
        "post-tool-use-failure",
        payload(
          "PostToolUseFailure",
          at,
          events.postToolUseFailure(
            "Bash",
            { command: "bun test test/limit.test.ts", description: "Run the limiter tests" },
            id,
            "Exit code 1\nerror: Cannot find module 'ioredis'",
          ),
        ),
      );
      expect(r).toMatchObject({ code: 0, stdout: "" });
    }
    // Twice failing, then passing: the spec's "error recovered", a silent checkpoint.
    for (let i = 0; i < 2; i++) {
      const id = tr.tool("Bash", { command: "bun run lint" }, 26_000, { error: "Exit code 2\n2 problems" });
      await t.hook(
        "post-tool-use-failure",
        payload(
          "PostToolUseFailure",
          at,
          events.postToolUseFailure("Bash", { command: "bun run lint" }, id, "Exit code 2\n2 problems"),
        ),
      );
    }
    const ok = tr.tool("Bash", { command: "bun run lint" }, 27_000);
    expect(
      (
        await t.hook(
          "post-tool-use",
          payload("PostToolUse", at, events.postToolUse("Bash", { command: "bun run lint" }, ok)),
        )
      ).stdout,
    ).toBe("");
    let all = await snapshots(t);
    expect(all.map((s) => s.auto_trigger?.reason)).toEqual(["error-recovered"]);
    expect(all[0].constraints).toEqual(["User correction: I meant per user, not per IP"]);
    expect(all[0].next_action).toBe("Wire it into the login route");
    const failures = (await t.json(["failures"])).failure_graph.project;
    expect(Object.keys(failures)).toEqual(["Bash bun test test/limit.test.ts"]);
    expect(failures["Bash bun test test/limit.test.ts"]).toMatchObject({
      rejected_by: "system",
      repeat_count: 3,
      scope: "project",
    });
    expect(failures["Bash bun test test/limit.test.ts"].reason).toBe(
      "failed 3 times in one session: Exit code 1 — error: Cannot find module 'ioredis'",
    );
    // An ending saves at once, even inside the cooldown (when there is something new to say).
    tr.tool(
      "Edit",
      {
        file_path: join(t.repo, "src/limit.ts"),
        old_string: "export {};",
        new_string: "export const perUser = true;",
      },
      28_000,
    );
    await say("好的，先这样");
    all = await snapshots(t);
    expect(all.map((s) => s.auto_trigger?.reason)).toEqual(["error-recovered", "user-ending"]);
    // The correction was taken once; it stays in the snapshots' constraints from now on.
    expect(all[1].constraints).toEqual(["User correction: I meant per user, not per IP"]);
  });

  test("hooks stay fast: Stop inside its cooldown does not read the transcript (its new tool calls are not logged until a checkpoint)", async () => {
    const t = claudeLaptop(exe);
    const tr = new Transcript(t.base, t.repo);
    const at = { sessionId: "sess-1", path: tr.path, cwd: t.repo };
    tr.prompt("Tidy the auth module");
    tr.tool("Edit", { file_path: join(t.repo, "src/auth.ts"), old_string: "1", new_string: "2" }, 20_000);
    await t.hook("stop", payload("Stop", at, events.stop("Renamed the helper.")));
    expect(await snapshots(t)).toHaveLength(1);
    tr.tool("Edit", { file_path: join(t.repo, "src/login.tsx"), old_string: "a", new_string: "b" }, 21_000);
    await t.hook("stop", payload("Stop", at, events.stop("Updated the form.")));
    expect(await sql(t.db, "SELECT count(*) AS n FROM tool_calls")).toEqual([{ n: 1 }] as never);
    await t.hook("session-end", payload("SessionEnd", at, events.sessionEnd()));
    expect(await sql(t.db, "SELECT count(*) AS n FROM tool_calls")).toEqual([{ n: 2 }] as never);
  });
});

describe("a whole Claude Code session through the installed hooks", () => {
  test("start → tool calls to YELLOW → a correction → RED → compaction → SessionStart(compact): the restore block holds the goal, the step in progress, the constraints (with the correction) and the failures", async () => {
    const t = claudeLaptop(exe);
    expect((await t.cli(["install"])).code).toBe(0);
    expect((await t.cli(["hooks", "install"])).code).toBe(0);
    expect((await t.cli(["skill", "--install"])).code).toBe(0);
    const tr = new Transcript(t.base, t.repo, "e2e-session", { model: "claude-sonnet-4-5-20250929" });
    const at = { sessionId: "e2e-session", path: tr.path, cwd: t.repo };
    /** Claude Code runs the event's hooks (as settings.json says); exactly one of ours matches, and it succeeds quietly on stderr. */
    const fire = (event: string, fields: Record<string, unknown>) => {
      const runs = t.fire(event, payload(event, at, fields));
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ code: 0, stderr: "" });
      return runs[0].stdout ? JSON.parse(runs[0].stdout) : null;
    };
    const call = (name: string, input: Record<string, unknown>, context: number, error?: string) => {
      const id = tr.tool(name, input, context, error ? { error } : {});
      return error
        ? fire("PostToolUseFailure", events.postToolUseFailure(name, input, id, error))
        : fire("PostToolUse", events.postToolUse(name, input, id));
    };
    const goal = "Add rate limiting to the login endpoint";

    // Start: nothing to restore yet; the prompt says nothing MindSave acts on.
    expect(fire("SessionStart", events.sessionStart("startup", "claude-sonnet-4-5-20250929"))).toBeNull();
    tr.prompt(`${goal}. Keep the public API unchanged.`);
    expect(fire("UserPromptSubmit", events.prompt(`${goal}. Keep the public API unchanged.`))).toBeNull();
    // The agent saves what it learned, as the /save skill tells it to.
    await save(inShop(t), {
      goal,
      state: "planning",
      next: "add the limiter middleware",
      constraint: ["keep the public API unchanged"],
      decision: ["token bucket in Redis"],
    });

    // Tool calls; the tests fail three times the same way.
    expect(call("TodoWrite", { todos }, 40_000)).toBeNull();
    expect(
      call(
        "Edit",
        {
          file_path: join(t.repo, "src/limit.ts"),
          old_string: "export {};",
          new_string: "export const limit = 5;",
        },
        60_000,
      ),
    ).toBeNull();
    for (let i = 0; i < 3; i++)
      expect(
        call(
          "Bash",
          { command: "bun test test/limit.test.ts", description: "Run the limiter tests" },
          70_000 + i * 1000,
          "Exit code 1\nerror: Cannot find module 'ioredis'",
        ),
      ).toBeNull();
    // 70% full: YELLOW. A checkpoint, and both the user and the model hear it.
    const yellow = call(
      "Edit",
      { file_path: join(t.repo, "src/login.tsx"), old_string: "a", new_string: "limit(a)" },
      140_000,
    );
    expect(yellow.systemMessage).toMatch(
      /^Context pressure rising \(70%\)\. MindSave auto-checkpoint saved: add_rate_limiting_\S+\.$/,
    );
    expect(yellow.hookSpecificOutput).toMatchObject({ hookEventName: "PostToolUse" });
    expect((await t.json(["signal"])).pressure_state).toBe("YELLOW");

    // The user corrects the agent: quiet, and noted for the next full snapshot.
    tr.prompt("不对，我说的是按用户限流，不是按 IP");
    expect(fire("UserPromptSubmit", events.prompt("不对，我说的是按用户限流，不是按 IP"))).toBeNull();

    // 93% full: RED. An emergency Layer 1 snapshot over the full one, a warning naming /load.
    const red = call(
      "Edit",
      { file_path: join(t.repo, "src/limit.ts"), old_string: "limit = 5", new_string: "limitPerUser = 5" },
      186_000,
    );
    expect(red.systemMessage).toMatch(
      /^⚠️ Context overflow imminent \(93%\)\. MindSave auto-saved OVF_add_rate_limiting_\S+ \(Layer 1; constraints and decisions from add_rate_limiting_\S+\)\. Start a new conversation with \/load to continue \(or run \/compact\)\.$/,
    );
    expect(red.hookSpecificOutput.additionalContext).toContain("past the critical threshold");
    expect((await t.cli(["load", "--latest"])).stdout).toContain("- keep the public API unchanged");

    // Compaction: PreCompact saves everything and tells the summariser, in plain text, what the
    // summary keeps; then the context is rebuilt from the restore block.
    const guide = t.fire("PreCompact", payload("PreCompact", at, events.preCompact("auto")));
    expect(guide).toHaveLength(1);
    expect(guide[0]).toMatchObject({ code: 0, stderr: "" });
    expect(guide[0].stdout).toContain("Constraint: keep the public API unchanged");
    tr.compact("auto");
    const start = fire("SessionStart", events.sessionStart("compact"));
    const block: string = start.hookSpecificOutput.additionalContext;
    expect(block).toContain(`goal: ${goal}`);
    expect(block).toContain("state: In progress: Wiring it into the login route (1/3 steps done)");
    expect(block).toContain("next_action: Wire it into the login route");
    expect(block).toContain("- keep the public API unchanged");
    expect(block).toContain("- User correction: 我说的是按用户限流，不是按 IP");
    expect(block).toContain("- token bucket in Redis");
    expect(block).toMatch(
      /- Bash bun test test\/limit\.test\.ts: failed 3 times in one session: Exit code 1 — error: Cannot find module 'ioredis' \[system, ×3, high, project\]/,
    );
    expect(block).toContain("Entering Continuation Mode");
    expect((await t.json(["signal"])).estimated_tokens_ratio).toBe(0);

    // After the compaction the session goes on at a low fill; its end saves nothing new.
    tr.reply("Resuming: wiring the limiter into the login route.", 30_000);
    expect(call("Read", { file_path: join(t.repo, "src/login.tsx") }, 31_000)).toBeNull();
    // Its first stop since a step of the plan was done asks the agent once for its checkpoint.
    expect(fire("Stop", events.stop("Resuming: wiring the limiter into the login route."))).toMatchObject({
      decision: "block",
      reason: expect.stringContaining('A step of the plan is done ("Add the limiter middleware")'),
    });
    expect(fire("SessionEnd", events.sessionEnd())).toBeNull();
    const kinds = (await snapshots(t)).map((s) => `${s.kind}:${s.auto_trigger?.reason ?? "manual"}`);
    expect(kinds).toEqual([
      "full:manual",
      "full:context-pressure",
      "overflow:context-critical",
      "full:pre-compact:auto",
    ]);
  });
});
