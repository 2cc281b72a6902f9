// The final save of an agent session (issue 34): at the session's end the work since the newest
// snapshot is saved, judged by what happened since that snapshot (the tool calls every hook
// logged, the files changed on disk), not by what the closing hook call logged itself, inside the
// auto-save cooldown too. Measured with Claude Code: Stop sat in the cooldown, PostToolUse had
// already logged the session's one shell call, and SessionEnd saved nothing.
import { beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hostBinary, sql } from "./helpers.ts";
import { claudeLaptop, events, payload, Transcript } from "./claude-fixtures.ts";
import { agentProject } from "./agent-fixtures.ts";

let exe = "";
beforeAll(async () => {
  exe = await hostBinary();
}, 120_000);

const GOAL = "Stream the 账单 ledger export as CSV, one row per invoice";
const CONTINUE = "continue where we left off";
/** The task as a person saves it from the terminal before starting the agent. */
const SAVE_TASK = ["save", "--goal", GOAL, "--state", "reads every invoice first", "--next", "add a cursor"];

type Laptop = ReturnType<typeof claudeLaptop>;

const snapshots = async (t: Laptop) =>
  (
    await sql(
      t.db,
      "SELECT id, goal, layer3, auto_trigger FROM snapshots WHERE deleted = 0 ORDER BY created_at",
    )
  ).map((r) => ({
    id: String(r.id),
    goal: String(r.goal),
    layer3: String(r.layer3),
    auto: r.auto_trigger ? JSON.parse(String(r.auto_trigger)) : null,
  }));

/** A laptop whose project holds the task saved from the terminal, as a person would before starting the agent. */
async function savedTask(): Promise<Laptop> {
  const t = claudeLaptop(exe);
  expect((await t.cli(SAVE_TASK)).code).toBe(0);
  return t;
}

/** One Claude Code session: its transcript and the hooks Claude Code runs for it, each exiting 0 quietly. */
function session(t: Laptop, sessionId: string) {
  const tr = new Transcript(t.base, t.repo, sessionId, { startedAt: Date.now() });
  const at = { sessionId, path: tr.path, cwd: t.repo };
  const hook = async (arg: string, event: string, fields: Record<string, unknown>) => {
    const r = await t.hook(arg, payload(event, at, fields));
    expect({ arg, code: r.code, stderr: r.stderr }).toEqual({ arg, code: 0, stderr: "" });
  };
  return {
    tr,
    /** A tool call in the transcript, then its PostToolUse hook (which logs it first). */
    async call(name: string, input: Record<string, unknown>) {
      const id = tr.tool(name, input, 30_000);
      await hook("post-tool-use", "PostToolUse", events.postToolUse(name, input, id));
    },
    async stop(reply: string) {
      tr.reply(reply);
      await hook("stop", "Stop", events.stop(reply));
    },
    end: () => hook("session-end", "SessionEnd", events.sessionEnd()),
  };
}

describe("the final save of a Claude Code session", () => {
  test("a continued task edited through Bash inside the cooldown, its call logged by PostToolUse first: SessionEnd saves it under the task's goal", async () => {
    const t = await savedTask();
    const file = join(t.repo, "src", "cursor.ts");

    // Session 1 writes the cursor module; its end saves (and starts the auto-save cooldown).
    const s1 = session(t, "s1");
    s1.tr.prompt(CONTINUE);
    writeFileSync(file, "export const cursor = 1;\n");
    await s1.call("Write", { file_path: file, content: "export const cursor = 1;\n" });
    await s1.stop("Added the cursor.");
    await s1.end();
    const first = await snapshots(t);
    expect(first).toHaveLength(2);
    expect(first[1].goal).toBe(GOAL);
    const signal = await t.json(["signal"]);
    expect(signal.last_auto_save_time).not.toBeNull();

    // Session 2 continues the task and appends to the file through the shell.
    const s2 = session(t, "s2");
    s2.tr.prompt(CONTINUE);
    const command = "echo 'export const pageSize = 500;' >> src/cursor.ts";
    appendFileSync(file, "export const pageSize = 500;\n");
    await s2.call("Bash", { command, description: "Add the page size" });
    await s2.stop("done");
    // Stop is inside the cooldown: no snapshot yet.
    expect(await snapshots(t)).toHaveLength(2);
    await s2.end();
    const all = await snapshots(t);
    expect(all).toHaveLength(3);
    expect(all[2].goal).toBe(GOAL);
    expect(all[2].auto).toMatchObject({ reason: "session-end", session_id: "s2" });
    expect(all[2].layer3).toContain("pageSize = 500");
  });

  test("a session that only looked around (no file changed) leaves the newest snapshot latest", async () => {
    const t = await savedTask();
    const s = session(t, "s1");
    s.tr.prompt(CONTINUE);
    await s.call("Bash", { command: "ls src", description: "List the sources" });
    await s.stop("The sources are auth, login and limit.");
    await s.end();
    const all = await snapshots(t);
    expect(all).toHaveLength(1);
    expect(all[0].auto).toBeNull();
  });
});

describe("the final save of an opencode session (session.idle, the last event of `opencode run`)", () => {
  test("a continued task edited through bash inside the cooldown: session.idle saves it under the task's goal", async () => {
    const t = agentProject();
    expect((await t.cli(SAVE_TASK)).code).toBe(0);
    const file = join(t.repo, "src", "cursor.ts");
    /** The plugin's payloads for one session, each hook exiting 0 quietly. */
    const run =
      (sessionId: string) => async (arg: string, event: string, fields: Record<string, unknown>) => {
        const r = await t.hook("opencode", arg, {
          hook_event_name: event,
          session_id: sessionId,
          cwd: t.repo,
          worktree: t.repo,
          ...fields,
        });
        expect({ arg, code: r.code, stderr: r.stderr }).toEqual({ arg, code: 0, stderr: "" });
      };
    const goal = async () => (await t.json(["snapshots"])).snapshots.map((x: { goal: string }) => x.goal);

    const a = run("ses_a");
    await a("user-prompt-submit", "chat.message", { prompt: CONTINUE });
    writeFileSync(file, "export const cursor = 1;\n");
    await a("post-tool-use", "tool.execute.after", {
      tool_name: "write",
      tool_input: { filePath: file, content: "export const cursor = 1;\n" },
    });
    await a("stop", "session.idle", {});
    expect(await goal()).toEqual([GOAL, GOAL]);
    expect((await t.json(["signal"])).last_auto_save_time).not.toBeNull();

    const b = run("ses_b");
    await b("user-prompt-submit", "chat.message", { prompt: CONTINUE });
    appendFileSync(file, "export const pageSize = 500;\n");
    const command = "echo 'export const pageSize = 500;' >> src/cursor.ts";
    await b("post-tool-use", "tool.execute.after", {
      tool_name: "bash",
      tool_input: { command, description: "Add the page size" },
    });
    await b("stop", "session.idle", {});
    expect(await goal()).toEqual([GOAL, GOAL, GOAL]);
    const newest = (
      await sql(t.db, "SELECT layer3, auto_trigger FROM snapshots ORDER BY created_at DESC LIMIT 1")
    )[0];
    expect(String(newest.layer3)).toContain("pageSize = 500");
    expect(JSON.parse(String(newest.auto_trigger))).toMatchObject({ session_id: "ses_b" });
  });
});
