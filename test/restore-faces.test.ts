// One restore for every face: `mindsave load`, the MCP load tool and restore-block resource, and the
// session-start hook print the block of the same snapshot (the newest), built by one engine call
// (engine/snapshots/restore.ts: restore), each through the real CLI as a subprocess.
import { describe, expect, test } from "bun:test";
import { projectOnLaptop } from "./helpers.ts";
import { callTool, withMcp } from "./mcp-client.ts";

/** The block's age ("12s ago") moves between the subprocesses: the rest must be the same, byte for byte. */
const pinAge = (block: string) => block.replace(/^(saved [^(]* UTC )\([^)]*\)/m, "$1(AGE)");

async function mcpLoad(home: string, repo: string, env: Record<string, string>) {
  return withMcp(home, repo, env, async (client) => {
    const tool = (await callTool(client, "load")).structuredContent as {
      restore_block: string;
      snapshot_id: string;
    };
    const resource = await client.readResource({ uri: "mindsave://restore-block" });
    return { tool, resource: String((resource.contents[0] as { text: string }).text) };
  });
}

describe("restore: the same block through every face", () => {
  test("load, MCP load and its resource, and a resumed session's start restore the newest snapshot alike", async () => {
    const t = projectOnLaptop("mindsave-restore-faces-");
    await t.okCli(["save", "--goal", "an older goal", "--next", "older next step"]);
    await t.okCli([
      "save",
      "--goal",
      "修复登录页面 Ship the login page",
      "--next",
      "wire the form",
      "--constraint",
      "no new dependencies",
      "--failed",
      "jwt in localStorage: XSS risk",
    ]);
    await t.okCli(["rules", "add", "answer in English"]);
    const cli = await t.json(["load", "--latest"]);
    const mcp = await mcpLoad(t.home, t.repo, t.pc.env);
    const payload = JSON.stringify({
      session_id: "s1",
      cwd: t.repo,
      hook_event_name: "SessionStart",
      source: "resume",
      transcript_path: null,
    });
    const hook = await t.okCli(["hook", "session-start"], { stdin: payload });
    const hookBlock = JSON.parse(hook.stdout).hookSpecificOutput.additionalContext as string;

    // What was saved last, not the older snapshot, with its Layer 2, the failure and the rule.
    for (const line of [
      "goal: 修复登录页面 Ship the login page",
      "next_action: wire the form",
      "- no new dependencies",
      "jwt in localStorage",
      "answer in English",
    ]) {
      expect(cli.restore_block).toContain(line);
    }
    expect(cli.restore_block).not.toContain("an older goal");
    expect(pinAge(cli.restore_block)).toContain("UTC (AGE) on this host");
    expect(mcp.tool.snapshot_id).toBe(cli.snapshot_id);
    for (const block of [mcp.tool.restore_block, mcp.resource, hookBlock])
      expect(pinAge(block)).toBe(pinAge(cli.restore_block));
  });
});
