// All seven agents' hooks go through one table-driven installer (agent-hooks-install.ts), and every
// hooks or settings file is edited by one formatting-preserving mechanism (json-edit.ts).
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { AGENT_IDS } from "../src/engine/agents/registry.ts";
import { installAgentHooks, uninstallAgentHooks } from "../src/engine/agents/agent-hooks-install.ts";
import { installMcp, mcpFile, uninstallMcp } from "../src/engine/agents/mcp-config.ts";
import { REPO, tempDir } from "./helpers.ts";

function sources(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((e) => {
      const p = join(dir, e);
      return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(e) ? [p] : [];
    });
}

const rel = (p: string) => relative(REPO, p).split("\\").join("/");
const SRC = [...sources(join(REPO, "src")), ...sources(join(REPO, "ui"))];
const read = (f: string) => readFileSync(f, "utf8");

describe("one installer, one JSON edit mechanism", () => {
  test("only json-edit.ts loads jsonc-parser", () => {
    expect(SRC.filter((f) => read(f).includes("jsonc-parser")).map(rel)).toEqual([
      "src/engine/agents/json-edit.ts",
    ]);
  });

  test("Claude Code's settings writer is reached only through the installer's table", () => {
    const callers = SRC.filter((f) => /\b(installHooks|uninstallHooks)\(/.test(read(f))).map(rel);
    expect(callers.sort()).toEqual([
      "src/engine/agents/agent-hooks-install.ts",
      "src/engine/agents/hooks.ts",
    ]);
  });

  test("every agent, Claude Code included, installs and uninstalls through one call; a shared file comes back byte for byte", () => {
    const home = tempDir("mindsave-hooks-table-");
    const root = join(home, "repo");
    mkdirSync(join(root, ".claude"), { recursive: true });
    const mine = '{\n\t"model": "opus", // mine\n\t"permissions": { "allow": ["Read"] }\n}\n';
    writeFileSync(join(root, ".claude", "settings.json"), mine);
    const place = { env: { HOME: home, USERPROFILE: home, PATH: "" } as NodeJS.ProcessEnv, root };
    for (const agent of AGENT_IDS) {
      const r = installAgentHooks(agent, "project", place, null);
      expect(r.agent).toBe(agent);
      const undone = uninstallAgentHooks(agent, "project", place);
      expect(undone.agent).toBe(agent);
    }
    expect(read(join(root, ".claude", "settings.json"))).toBe(mine);
    expect(readdirSync(root)).toEqual([".claude"]);
  });

  test("without the install's record (a teammate's uninstall), a file written on one line loses just MindSave's hooks, byte for byte", () => {
    const base = tempDir("mindsave-hooks-oneline-");
    const root = join(base, "repo");
    const files = {
      claude: join(root, ".claude", "settings.json"),
      codex: join(root, ".codex", "hooks.json"),
    };
    const mine = JSON.stringify({
      model: "opus",
      hooks: { SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "echo 你好" }] }] },
      z: [1, 2],
    });
    const ada = {
      env: { HOME: join(base, "ada"), USERPROFILE: join(base, "ada"), PATH: "" } as NodeJS.ProcessEnv,
      root,
    };
    const bob = {
      env: { HOME: join(base, "bob"), USERPROFILE: join(base, "bob"), PATH: "" } as NodeJS.ProcessEnv,
      root,
    };
    for (const [agent, file] of Object.entries(files) as ["claude" | "codex", string][]) {
      mkdirSync(join(file, ".."), { recursive: true });
      writeFileSync(file, mine);
      installAgentHooks(agent, "project", ada, null);
      expect(read(file)).not.toBe(mine);
      uninstallAgentHooks(agent, "project", bob);
      expect(read(file)).toBe(mine);
    }
  });

  test("an earlier install's hook in a settings file written on one line is brought up to date on that line", () => {
    const home = tempDir("mindsave-hooks-update-");
    const root = join(home, "repo");
    const file = join(root, ".claude", "settings.json");
    mkdirSync(join(root, ".claude"), { recursive: true });
    const earlier = {
      model: "opus",
      hooks: {
        Stop: [
          {
            hooks: [
              { type: "command", command: "'/home/ada/.mindsave/bin/mindsave' hook stop", timeout: 10 },
            ],
          },
        ],
      },
    };
    writeFileSync(file, JSON.stringify(earlier));
    const r = installAgentHooks(
      "claude",
      "project",
      { env: { HOME: home, USERPROFILE: home, PATH: "" } as NodeJS.ProcessEnv, root },
      null,
    );
    expect(r).toMatchObject({ updated: [expect.stringContaining("hook stop")] });
    const text = read(file);
    expect(text.split("\n")).toHaveLength(1);
    expect(JSON.parse(text).hooks.Stop).toHaveLength(1);
    expect(JSON.parse(text).hooks.Stop[0].hooks[0].command).not.toContain("/home/ada");
  });

  test("an MCP entry taken out by key (a teammate's uninstall) leaves a file written on one line as it was", () => {
    const base = tempDir("mindsave-mcp-oneline-");
    const root = join(base, "repo");
    const ada = {
      env: { HOME: join(base, "ada"), USERPROFILE: join(base, "ada"), PATH: "" } as NodeJS.ProcessEnv,
      root,
    };
    const bob = {
      env: { HOME: join(base, "bob"), USERPROFILE: join(base, "bob"), PATH: "" } as NodeJS.ProcessEnv,
      root,
    };
    const file = mcpFile("cursor", "project", ada);
    mkdirSync(join(file, ".."), { recursive: true });
    const mine = JSON.stringify({
      mcpServers: { docs: { command: "docs-mcp", args: ["--port", "1"] } },
      theme: "暗",
    });
    writeFileSync(file, mine);
    installMcp("cursor", "project", ada);
    expect(read(file)).not.toBe(mine);
    uninstallMcp("cursor", "project", bob);
    expect(read(file)).toBe(mine);
  });
});
