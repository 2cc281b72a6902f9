// Cline's CLI (3.x, the Cline SDK) through the real CLI, with the payloads it sends (recorded from
// cline 3.0.65 against a fake model): its TaskStart carries no task text and runs detached (what it
// prints never reaches the model). The task's prompt is read from the session's file under
// ~/.cline/data/sessions/, and the restore block goes with the task's first tool result, once.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentProject } from "./agent-fixtures.ts";
import { run, sql } from "./helpers.ts";

const ROOT_SESSION = "1795857512097_9sc93";
const GOAL = "Stream the 账单 ledger export as CSV";
const NEXT = "Replace the array in src/export.ts with a cursor";

type Project = ReturnType<typeof agentProject>;

/** The session's metadata file as Cline's CLI writes it when a task starts (`prompt`: the person's words). */
function writeSessionFile(t: Project, prompt: string, dataDir = join(t.pc.home, ".cline", "data")): void {
  const dir = join(dataDir, "sessions", ROOT_SESSION);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${ROOT_SESSION}.json`),
    JSON.stringify({
      version: 1,
      session_id: ROOT_SESSION,
      source: "cli",
      status: "running",
      cwd: t.repo,
      workspace_root: t.repo,
      prompt,
      metadata: { title: prompt },
    }),
  );
}

/** The fields every payload of one task carries. */
const base = (t: Project) => ({
  clineVersion: "",
  timestamp: "2026-11-28T09:18:43.987Z",
  taskId: "conv_1795857523656_jlt1k2m",
  sessionContext: { rootSessionId: ROOT_SESSION },
  workspaceRoots: [t.repo],
  workspaceInfo: { rootPath: t.repo, hint: "shop" },
  userId: "unknown",
  agent_id: "agent_1795857522934_a7ghj4",
  parent_agent_id: null,
});

const taskStart = (t: Project) => ({ ...base(t), hookName: "agent_start", taskStart: { taskMetadata: {} } });

/** A tool result: `parameters` hold strings, as the SDK sends them. */
const toolResult = (t: Project, toolName: string, parameters: Record<string, string>) => ({
  ...base(t),
  hookName: "tool_result",
  iteration: 1,
  postToolUse: { toolName, parameters, result: "ok", success: true, executionTimeMs: 234 },
});

const taskComplete = (t: Project) => ({
  ...base(t),
  hookName: "agent_end",
  iteration: 2,
  turn: { outputText: "done", status: "completed" },
  taskComplete: { taskMetadata: {} },
});

const runCommands = (t: Project) =>
  toolResult(t, "run_commands", { commands: JSON.stringify(["echo hi > hi.txt && echo hi"]) });

async function newestGoal(t: Project): Promise<unknown> {
  const rows = await sql(
    t.db,
    "SELECT goal FROM snapshots WHERE deleted = 0 ORDER BY created_at DESC LIMIT 1",
  );
  return rows[0]?.goal;
}

describe("Cline CLI: the task's prompt, from its session file", () => {
  test("a fresh task's prompt is the goal of the snapshot its end leaves, not the saved task's", async () => {
    const t = agentProject();
    expect((await t.cli(["save", "--goal", GOAL, "--next", NEXT])).code).toBe(0);
    const prompt = "Add rate limiting to the login endpoint. Never use Redis for it.";
    writeSessionFile(t, prompt);
    expect((await t.hook("cline", "session-start", taskStart(t))).code).toBe(0);
    expect((await t.hook("cline", "post-tool-use", runCommands(t))).code).toBe(0);
    expect((await t.hook("cline", "stop", taskComplete(t))).code).toBe(0);
    // The task is the goal; its rule is a constraint of Layer 2 (issue 35's mechanical snapshot).
    expect(await newestGoal(t)).toBe("Add rate limiting to the login endpoint");
    const [row] = await sql(
      t.db,
      "SELECT constraints FROM snapshots WHERE deleted = 0 ORDER BY created_at DESC LIMIT 1",
    );
    expect(String(row?.constraints)).toContain("Never use Redis");
  });

  test("CLINE_DATA_DIR moves the sessions: the prompt is read there", async () => {
    const t = agentProject();
    const dataDir = join(t.base, "cline-data");
    const prompt = "Cache the 汇率 exchange rates for an hour";
    writeSessionFile(t, prompt, dataDir);
    const env = { ...t.pc.env, CLINE_DATA_DIR: dataDir };
    const hook = (arg: string, payload: unknown) =>
      run(["hook", arg, "--agent", "cline"], { cwd: t.repo, env, stdin: JSON.stringify(payload) });
    expect((await hook("session-start", taskStart(t))).code).toBe(0);
    expect((await hook("post-tool-use", runCommands(t))).code).toBe(0);
    expect((await hook("stop", taskComplete(t))).code).toBe(0);
    expect(await newestGoal(t)).toBe(prompt);
  });

  test("a file written with the CLI's editor tool is an active file of the snapshot", async () => {
    const t = agentProject();
    writeSessionFile(t, "Add a cursor to the exporter");
    const file = join(t.repo, "src", "cursor.ts");
    expect((await t.hook("cline", "session-start", taskStart(t))).code).toBe(0);
    const edit = toolResult(t, "editor", { path: file, new_text: "export const cursor = 1;\n" });
    expect((await t.hook("cline", "post-tool-use", edit)).code).toBe(0);
    expect((await t.hook("cline", "stop", taskComplete(t))).code).toBe(0);
    const [row] = await sql(t.db, "SELECT active_files FROM snapshots WHERE deleted = 0");
    expect(JSON.parse(String(row!.active_files)).map((f: { path: string }) => f.path)).toContain(
      "src/cursor.ts",
    );
  });
});

describe("Cline CLI: the restore block reaches the model with the first tool result", () => {
  test("once per task, as contextModification; the extension's own payloads (TaskStart answered) get none", async () => {
    const t = agentProject();
    expect((await t.cli(["save", "--goal", GOAL, "--next", NEXT])).code).toBe(0);
    writeSessionFile(t, "continue where we left off");
    expect((await t.hook("cline", "session-start", taskStart(t))).code).toBe(0);
    const first = await t.hook("cline", "post-tool-use", runCommands(t));
    expect(first.code).toBe(0);
    const context: string = JSON.parse(first.stdout).contextModification;
    expect(context).toContain(`goal: ${GOAL}`);
    expect(context).toContain(`next_action: ${NEXT}`);
    // Once: the next tool result carries nothing.
    expect(await t.hook("cline", "post-tool-use", runCommands(t))).toMatchObject({ code: 0, stdout: "" });
    // The task continued the saved one: its end keeps that goal, not "continue where we left off".
    expect((await t.hook("cline", "stop", taskComplete(t))).code).toBe(0);
    expect(await newestGoal(t)).toBe(GOAL);

    // The VS Code extension waits for TaskStart and sends its own hook names: the block came then.
    const u = agentProject();
    expect((await u.cli(["save", "--goal", GOAL, "--next", NEXT])).code).toBe(0);
    const ext = { taskId: "ext-task", workspaceRoots: [u.repo], model: { slug: "m" } };
    const start = await u.hook("cline", "session-start", {
      ...ext,
      hookName: "TaskStart",
      taskStart: { taskMetadata: { taskId: "ext-task", initialTask: "continue" } },
    });
    expect(JSON.parse(start.stdout).contextModification).toContain(`goal: ${GOAL}`);
    const tool = await u.hook("cline", "post-tool-use", {
      ...ext,
      hookName: "PostToolUse",
      postToolUse: { toolName: "execute_command", parameters: { command: "ls" }, success: true },
    });
    expect(tool).toMatchObject({ code: 0, stdout: "" });
  });
});
