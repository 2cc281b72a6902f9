// opencode through the real CLI and MindSave's real plugin: `opencode run "…"` sends the prompt
// wrapped in double quotes (each word with a space is quoted, its quotes escaped; measured with
// opencode 1.18.33), and current plugin APIs give `tool.execute.after` no `args` (only tool,
// sessionID, callID): the plugin takes them from `tool.execute.before` of the same call.
import { describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentProject } from "./agent-fixtures.ts";
import { ok, sql } from "./helpers.ts";

const GOAL = "Stream the 账单 ledger export as CSV";

type Project = ReturnType<typeof agentProject>;

/** One opencode session through MindSave's hooks: its message (as the plugin sends it), one edit, the idle end. */
async function session(t: Project, prompt: string): Promise<void> {
  const base = { session_id: "ses_dde8e4c6effeP4iBdDP7HInE7h", cwd: t.repo, worktree: t.repo };
  const calls: [string, Record<string, unknown>][] = [
    ["session-start", { hook_event_name: "session.start", ...base, source: "startup" }],
    ["user-prompt-submit", { hook_event_name: "chat.message", ...base, prompt }],
    [
      "post-tool-use",
      {
        hook_event_name: "tool.execute.after",
        ...base,
        tool_name: "bash",
        tool_input: { command: "echo hi > hi.txt && echo hi" },
        tool_response: { title: "echo hi > hi.txt && echo hi", output: "hi\n" },
      },
    ],
    ["stop", { hook_event_name: "session.idle", ...base }],
  ];
  for (const [arg, payload] of calls) expect((await t.hook("opencode", arg, payload)).code).toBe(0);
}

const goals = async (t: Project) =>
  (await sql(t.db, "SELECT goal FROM snapshots WHERE deleted = 0 ORDER BY created_at")).map((r) => r.goal);

describe("opencode run: the prompt opencode wrapped in quotes", () => {
  test('"continue where we left off" continues the saved task: its goal stays, without quotes', async () => {
    const t = agentProject();
    expect((await t.cli(["save", "--goal", GOAL, "--next", "write the cursor"])).code).toBe(0);
    await session(t, '"continue where we left off"');
    expect(await goals(t)).toEqual([GOAL, GOAL]);
  });

  test("a fresh task is its words, unwrapped, the quotes inside unescaped; a prompt of the person's own quotes stays", async () => {
    const t = agentProject();
    await session(t, '"Rename the \\"legacy\\" flag to \\"classic\\" in config.ts"');
    expect(await goals(t)).toEqual(['Rename the "legacy" flag to "classic" in config.ts']);

    // opencode quotes only a word with a space in it: a quoted word alone, or quotes mid-prompt, are the person's.
    const u = agentProject();
    await session(u, 'fix "the bug" in auth.ts');
    expect(await goals(u)).toEqual(['fix "the bug" in auth.ts']);
  });
});

describe("opencode plugin: a tool's arguments when tool.execute.after has none", () => {
  test("taken from tool.execute.before of the same call (callID), then forgotten", async () => {
    const t = agentProject();
    const log = join(t.base, "hook.log");
    const fake = join(t.base, "fake-mindsave");
    writeFileSync(fake, `#!/bin/sh\nprintf '%s\\n' "$*" >> ${log}\ncat >> ${log}\nprintf '\\n' >> ${log}\n`);
    chmodSync(fake, 0o755);
    const env = { ...t.pc.env, XDG_CONFIG_HOME: undefined };
    await ok(["hooks", "install", "--agent", "opencode", "--project", "--command", fake], {
      cwd: t.repo,
      env,
    });
    const mod = await import(join(t.repo, ".opencode", "plugins", "mindsave.js"));
    const hooks = await mod.MindSave({ directory: t.repo, worktree: t.repo });

    const args = { filePath: join(t.repo, "src", "cursor.ts"), content: "export const cursor = 1;\n" };
    await hooks["tool.execute.before"]({ tool: "write", sessionID: "ses_1", callID: "call_1" }, { args });
    await hooks["tool.execute.after"](
      { tool: "write", sessionID: "ses_1", callID: "call_1" },
      { title: "src/cursor.ts", output: "Wrote file successfully.", metadata: {} },
    );
    // A second after for the same call (none of opencode's) has no arguments left to take.
    await hooks["tool.execute.after"](
      { tool: "write", sessionID: "ses_1", callID: "call_1" },
      { title: "src/cursor.ts", output: "again", metadata: {} },
    );
    const sent = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l));
    expect(sent.map((p) => p.tool_input)).toEqual([args, undefined]);
  });
});
