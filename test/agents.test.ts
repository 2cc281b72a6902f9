// Agents beyond Claude Code: `mindsave mcp install|uninstall --agent NAME`, `mindsave skill
// --install --agent NAME` and `mindsave agents`, through the real CLI against config files built
// from each agent's documented format. Install must keep every byte of the file it does not own,
// be idempotent, and uninstall must give the file back byte for byte (or remove a file it made).
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import { childEnv, CLI, gitRepo, laptop, ok, okJson, run, tempDir } from "./helpers.ts";

interface Case {
  agent: string;
  scope: "user" | "project";
  /** The config file, relative to HOME (user) or to the project (project). */
  file: string;
  /** A config someone already has, with other servers (and comments where the format allows). */
  fixture: string;
  /** The mindsave entry as the agent's docs shape it. */
  entry: (parsed: any) => unknown;
  expected: unknown;
}

const CASES: Case[] = [
  // Claude Code, project scope: .mcp.json at the root (code.claude.com/docs/en/mcp, "Project scope").
  {
    agent: "claude",
    scope: "project",
    file: ".mcp.json",
    fixture: `{\n  "mcpServers": {\n    "github": {\n      "command": "npx",\n      "args": ["-y", "@modelcontextprotocol/server-github"]\n    }\n  }\n}\n`,
    entry: (p) => p.mcpServers.mindsave,
    expected: { type: "stdio", command: "mindsave", args: ["mcp"] },
  },
  // Claude Code, user scope: top-level mcpServers of ~/.claude.json, beside its other state (claude mcp add -s user).
  {
    agent: "claude",
    scope: "user",
    file: ".claude.json",
    fixture: `{\n  "numStartups": 41,\n  "autoUpdates": true,\n  "projects": {\n    "/src/app": { "allowedTools": [] }\n  }\n}\n`,
    entry: (p) => p.mcpServers.mindsave,
    expected: { type: "stdio", command: "mindsave", args: ["mcp"] },
  },
  // Codex CLI: [mcp_servers.NAME] tables in ~/.codex/config.toml (openai/codex docs/config.md, "MCP servers").
  {
    agent: "codex",
    scope: "user",
    file: ".codex/config.toml",
    fixture: `# Codex settings\nmodel = "gpt-5-codex"\napproval_policy = "on-request"\n\n[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "mcp-server"] # docs lookups\nenv = { "API_KEY" = "value" }\n\n[features]\nhooks = true`,
    entry: (p) => p.mcp_servers.mindsave,
    expected: { command: "mindsave", args: ["mcp"] },
  },
  // Codex CLI, a trusted project's .codex/config.toml (same format).
  {
    agent: "codex",
    scope: "project",
    file: ".codex/config.toml",
    fixture: `[mcp_servers.local]\ncommand = "uv"\nargs = ["run", "server.py"]\nstartup_timeout_sec = 20\n`,
    entry: (p) => p.mcp_servers.mindsave,
    expected: { command: "mindsave", args: ["mcp"] },
  },
  // Gemini CLI: mcpServers in ~/.gemini/settings.json (google-gemini/gemini-cli docs/tools/mcp-server.md); tabs kept.
  {
    agent: "gemini",
    scope: "user",
    file: ".gemini/settings.json",
    fixture: `{\n\t"theme": "Dracula",\n\t"mcpServers": {\n\t\t"git": {\n\t\t\t"command": "uvx",\n\t\t\t"args": ["mcp-server-git"],\n\t\t\t"timeout": 5000\n\t\t}\n\t}\n}\n`,
    entry: (p) => p.mcpServers.mindsave,
    expected: { command: "mindsave", args: ["mcp"] },
  },
  // Gemini CLI, the project's .gemini/settings.json, with no mcpServers yet.
  {
    agent: "gemini",
    scope: "project",
    file: ".gemini/settings.json",
    fixture: `{\n  "context": { "fileName": ["AGENTS.md", "GEMINI.md"] }\n}\n`,
    entry: (p) => p.mcpServers.mindsave,
    expected: { command: "mindsave", args: ["mcp"] },
  },
  // Copilot CLI: ~/.copilot/mcp-config.json, type "local" and tools (docs.github.com …/add-mcp-servers).
  {
    agent: "copilot",
    scope: "user",
    file: ".copilot/mcp-config.json",
    fixture: `{\n  "mcpServers": {\n    "playwright": {\n      "type": "local",\n      "command": "npx",\n      "args": ["@playwright/mcp@latest"],\n      "env": {},\n      "tools": ["*"]\n    }\n  }\n}\n`,
    entry: (p) => p.mcpServers.mindsave,
    expected: { type: "local", command: "mindsave", args: ["mcp"], tools: ["*"] },
  },
  // Copilot CLI, per repository: .github/mcp.json (`copilot mcp --help`: "Workspace .mcp.json or .github/mcp.json").
  {
    agent: "copilot",
    scope: "project",
    file: ".github/mcp.json",
    fixture: `{"mcpServers": {"probe": {"type": "local", "command": "node", "args": ["server.js"]}}}`,
    entry: (p) => p.mcpServers.mindsave,
    expected: { type: "local", command: "mindsave", args: ["mcp"], tools: ["*"] },
  },
  // Cursor: ~/.cursor/mcp.json and .cursor/mcp.json (cursor.com/docs/mcp).
  {
    agent: "cursor",
    scope: "user",
    file: ".cursor/mcp.json",
    fixture: `{\n    "mcpServers": {\n        "server-name": {\n            "command": "npx",\n            "args": ["-y", "mcp-server"],\n            "env": { "API_KEY": "value" }\n        }\n    }\n}\n`,
    entry: (p) => p.mcpServers.mindsave,
    expected: { command: "mindsave", args: ["mcp"] },
  },
  {
    agent: "cursor",
    scope: "project",
    file: ".cursor/mcp.json",
    fixture: `{\n  "mcpServers": {}\n}\n`,
    entry: (p) => p.mcpServers.mindsave,
    expected: { command: "mindsave", args: ["mcp"] },
  },
  // Cline CLI: ~/.cline/data/settings/cline_mcp_settings.json (docs.cline.bot/mcp/configuring-mcp-servers).
  {
    agent: "cline",
    scope: "user",
    file: ".cline/data/settings/cline_mcp_settings.json",
    fixture: `{\n  "mcpServers": {\n    "local-server": {\n      "command": "node",\n      "args": ["/path/to/server.js"],\n      "env": {},\n      "disabled": false,\n      "autoApprove": []\n    }\n  }\n}`,
    entry: (p) => p.mcpServers.mindsave,
    expected: { command: "mindsave", args: ["mcp"], disabled: false, autoApprove: [] },
  },
  // opencode 1: mcp.NAME, type local, command array (opencode.ai/docs/mcp-servers); JSONC with comments and trailing commas.
  {
    agent: "opencode",
    scope: "user",
    file: ".config/opencode/opencode.json",
    fixture: `{\n  "$schema": "https://opencode.ai/config.json",\n  // Theme configuration\n  "theme": "opencode",\n  "mcp": {\n    "my-local-mcp-server": {\n      "type": "local",\n      "command": ["bun", "x", "my-mcp-command"],\n      "enabled": true,\n    },\n  },\n}\n`,
    entry: (p) => p.mcp.mindsave,
    expected: { type: "local", command: ["mindsave", "mcp"], enabled: true },
  },
  // opencode 2: mcp.servers.NAME, no `enabled` (opencode.ai/v2/docs/mcp-servers), in the project's opencode.json.
  {
    agent: "opencode",
    scope: "project",
    file: "opencode.json",
    fixture: `{\n  "mcp": {\n    "servers": {\n      "everything": { "type": "local", "command": ["npx", "-y", "@modelcontextprotocol/server-everything"] }\n    }\n  }\n}\n`,
    entry: (p) => p.mcp.servers.mindsave,
    expected: { type: "local", command: ["mindsave", "mcp"] },
  },
];

function parsed(file: string, text: string): any {
  return file.endsWith(".toml") ? Bun.TOML.parse(text) : parseJsonc(text, [], { allowTrailingComma: true });
}

function setup() {
  const base = tempDir("mindsave-agents-");
  const pc = laptop("ada", base);
  const repo = gitRepo(join(base, "shop"));
  const bin = join(base, "bin");
  mkdirSync(bin);
  // PATH holds only what a test puts there, so the host's own agents are not found.
  const env = {
    ...pc.env,
    PATH: bin,
    XDG_CONFIG_HOME: join(pc.home, ".config"),
    CODEX_HOME: undefined as unknown as string,
  };
  return { base, home: pc.home, repo, bin, env, opts: { cwd: repo, env } };
}

const where = (t: ReturnType<typeof setup>, c: Case) => join(c.scope === "user" ? t.home : t.repo, c.file);
const flag = (c: Case) => `--${c.scope}`;

describe("mcp install/uninstall --agent", () => {
  for (const c of CASES) {
    test(`${c.agent} (${c.scope}): a config with other servers keeps every other byte, reads back in the documented shape, and comes back exactly`, async () => {
      const t = setup();
      const path = where(t, c);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, c.fixture);
      await ok(["mcp", "install", "--agent", c.agent, flag(c)], t.opts);
      const text = readFileSync(path, "utf8");
      expect(c.entry(parsed(c.file, text))).toEqual(c.expected);
      // Everything that was there is still there, as it was: the fixture's lines, in order (but a
      // closing brace, and the line of an object the entry went into).
      const lines = c.fixture.includes("\n")
        ? c.fixture.split("\n").filter((l) => l.trim() && !/^\s*[}\]],?\s*$/.test(l) && !/\{\s*\},?$/.test(l))
        : [];
      let at = 0;
      for (const l of lines) {
        const i = text.indexOf(l.replace(/,\s*$/, ""), at);
        expect(i).toBeGreaterThanOrEqual(0);
        at = i;
      }
      // Idempotent: the same bytes after a second install.
      const again = await okJson(["mcp", "install", "--agent", c.agent, flag(c)], t.opts);
      expect(again.action).toBe("unchanged");
      expect(readFileSync(path, "utf8")).toBe(text);
      const gone = await okJson(["mcp", "uninstall", "--agent", c.agent, flag(c)], t.opts);
      expect(gone).toMatchObject({ action: "removed", exact: true });
      expect(readFileSync(path, "utf8")).toBe(c.fixture);
      expect((await okJson(["mcp", "uninstall", "--agent", c.agent, flag(c)], t.opts)).action).toBe("absent");
    });
  }

  test("a file install created is removed by uninstall, with the folders it created; the new file parses in every agent's shape", async () => {
    // Each case on its own home and project, all at once.
    await Promise.all(
      CASES.map(async (c) => {
        const t = setup();
        const path = where(t, c);
        // Cline's CLI keeps its MCP settings under ~/.cline (else the VS Code extension's storage).
        if (c.agent === "cline") mkdirSync(join(t.home, ".cline"));
        // The folders that did not exist before the install (e.g. a project's .gemini/).
        const created: string[] = [];
        for (let d = dirname(path); !existsSync(d); d = dirname(d)) created.push(d);
        await ok(["mcp", "install", "--agent", c.agent, flag(c)], t.opts);
        // A new opencode file gets opencode 1's shape, which opencode 2 also reads.
        const fresh = parsed(c.file, readFileSync(path, "utf8"));
        if (c.agent === "opencode")
          expect(fresh.mcp.mindsave).toEqual({ type: "local", command: ["mindsave", "mcp"], enabled: true });
        else expect(c.entry(fresh)).toEqual(c.expected);
        await ok(["mcp", "uninstall", "--agent", c.agent, flag(c)], t.opts);
        expect(existsSync(path)).toBe(false);
        for (const d of created) expect([c.agent, d, existsSync(d)]).toEqual([c.agent, d, false]);
      }),
    );
  });

  test("after the user edits the file, uninstall takes out exactly its bytes, or just its entry when that was edited", async () => {
    const t = setup();
    const path = join(t.home, ".gemini", "settings.json");
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `{\n  "theme": "Dracula"\n}\n`);
    await ok(["mcp", "install", "--agent", "gemini"], t.opts);
    // An edit elsewhere in the file: MindSave's bytes are found where they moved to and cut out exactly.
    writeFileSync(path, readFileSync(path, "utf8").replace(`"theme": "Dracula"`, `"theme": "Light"`));
    expect(await okJson(["mcp", "uninstall", "--agent", "gemini"], t.opts)).toMatchObject({
      action: "removed",
      exact: true,
    });
    expect(readFileSync(path, "utf8")).toBe(`{\n  "theme": "Light"\n}\n`);
    // An edit inside MindSave's own entry: just the entry is taken out, by its key.
    await ok(["mcp", "install", "--agent", "gemini"], t.opts);
    writeFileSync(path, readFileSync(path, "utf8").replace(`"mcp"`, `"mcp", "--quiet"`));
    expect(await okJson(["mcp", "uninstall", "--agent", "gemini"], t.opts)).toMatchObject({
      action: "removed",
      exact: false,
    });
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ theme: "Light" });
  });

  test("an outdated entry is updated; one MindSave did not write in Codex's TOML, or a file it cannot read, is left alone", async () => {
    const t = setup();
    const cursor = join(t.home, ".cursor", "mcp.json");
    mkdirSync(dirname(cursor), { recursive: true });
    writeFileSync(cursor, `{"mcpServers": {"mindsave": {"command": "/old/mindsave", "args": ["mcp"]}}}\n`);
    expect((await okJson(["agents"], t.opts)).agents.find((a: any) => a.id === "cursor").mcp[0].state).toBe(
      "outdated",
    );
    expect((await okJson(["mcp", "install", "--agent", "cursor"], t.opts)).action).toBe("updated");
    expect(JSON.parse(readFileSync(cursor, "utf8")).mcpServers.mindsave).toEqual({
      command: "mindsave",
      args: ["mcp"],
    });

    const toml = join(t.home, ".codex", "config.toml");
    mkdirSync(dirname(toml), { recursive: true });
    for (const theirs of [
      `[mcp_servers.mindsave]\ncommand = "elsewhere"\n`,
      `mcp_servers = { other = { command = "x" } }\n`,
      `not = [toml\n`,
    ]) {
      writeFileSync(toml, theirs);
      const r = await run(["mcp", "install", "--agent", "codex"], t.opts);
      expect(r.code).toBe(1);
      expect(readFileSync(toml, "utf8")).toBe(theirs);
    }
    writeFileSync(cursor, `{ not json`);
    expect((await run(["mcp", "install", "--agent", "cursor"], t.opts)).code).toBe(1);
    expect(readFileSync(cursor, "utf8")).toBe(`{ not json`);
    // Cline has no per-project MCP settings; an unknown agent is named.
    expect((await run(["mcp", "install", "--agent", "cline", "--project"], t.opts)).stderr).toContain(
      "no project MCP settings",
    );
    expect((await run(["mcp", "install", "--agent", "vim"], t.opts)).stderr).toContain(
      "--agent must be one of",
    );
  });
});

const INSTRUCTIONS: { agent: string; file: string; shared: boolean }[] = [
  { agent: "codex", file: "AGENTS.md", shared: true },
  { agent: "opencode", file: "AGENTS.md", shared: true },
  { agent: "gemini", file: "GEMINI.md", shared: true },
  { agent: "copilot", file: ".github/copilot-instructions.md", shared: true },
  { agent: "cline", file: ".clinerules/mindsave.md", shared: false },
  { agent: "cursor", file: ".cursor/rules/mindsave.mdc", shared: false },
];

describe("skill --install --agent", () => {
  for (const i of INSTRUCTIONS) {
    test(`${i.agent}: ${i.file} between markers, idempotent, removed exactly`, async () => {
      const t = setup();
      const path = join(t.repo, i.file);
      const theirs = "# Contributing\n\nRun `bun test` before a commit.\n";
      if (i.shared) {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, theirs);
      }
      await ok(["skill", "--install", "--agent", i.agent], t.opts);
      const text = readFileSync(path, "utf8");
      expect(text).toContain("<!-- BEGIN mindsave");
      expect(text).toContain("`mindsave save");
      expect(text).toContain("`load`");
      expect(text).not.toMatch(/(^|\s)\/(save|load|recall|snapshots|auto-snapshot)\b/m);
      if (i.shared) expect(text.startsWith(theirs)).toBe(true);
      if (i.agent === "cursor") expect(text).toStartWith("---\ndescription: ");
      expect((await okJson(["skill", "--install", "--agent", i.agent], t.opts)).action).toBe("unchanged");
      expect(readFileSync(path, "utf8")).toBe(text);
      const agents = (await okJson(["agents"], t.opts)).agents;
      expect(
        agents.find((a: any) => a.id === i.agent).instructions.find((x: any) => x.scope === "project"),
      ).toMatchObject({ path, state: "current" });
      await ok(["skill", "--uninstall", "--agent", i.agent], t.opts);
      if (i.shared) expect(readFileSync(path, "utf8")).toBe(theirs);
      else expect(existsSync(path)).toBe(false);
    });
  }

  test("a shared instructions file with Windows line endings gets a section with Windows line endings, current on a second install, and back byte for byte", async () => {
    const t = setup();
    const agentsMd = join(t.repo, "AGENTS.md");
    const theirs = "# Contributing\r\n\r\nRun `bun test` before a commit.\r\n";
    writeFileSync(agentsMd, theirs);
    await ok(["skill", "--install", "--agent", "codex"], t.opts);
    const text = readFileSync(agentsMd, "utf8");
    expect(text).toContain("<!-- BEGIN mindsave");
    expect(text.replace(/\r\n/g, "")).not.toContain("\n");
    expect((await okJson(["skill", "--install", "--agent", "codex"], t.opts)).action).toBe("unchanged");
    expect(
      (await okJson(["agents"], t.opts)).agents
        .find((a: any) => a.id === "codex")
        .instructions.find((x: any) => x.scope === "project").state,
    ).toBe("current");
    await ok(["skill", "--uninstall", "--agent", "codex"], t.opts);
    expect(readFileSync(agentsMd, "utf8")).toBe(theirs);
  });

  test("a file of the agent's own that MindSave did not write is left alone; an outdated section is replaced in place", async () => {
    const t = setup();
    const rule = join(t.repo, ".cursor", "rules", "mindsave.mdc");
    mkdirSync(dirname(rule), { recursive: true });
    writeFileSync(rule, "---\nalwaysApply: true\n---\nmine\n");
    expect((await run(["skill", "--install", "--agent", "cursor"], t.opts)).code).toBe(1);
    expect(readFileSync(rule, "utf8")).toBe("---\nalwaysApply: true\n---\nmine\n");

    const agentsMd = join(t.repo, "AGENTS.md");
    writeFileSync(
      agentsMd,
      "# Notes\n\n<!-- BEGIN mindsave: written by `mindsave skill --install --agent …`; `mindsave skill --uninstall --agent …` removes it -->\nold text\n<!-- END mindsave -->\n\n## After\n",
    );
    expect((await okJson(["skill", "--install", "--agent", "codex"], t.opts)).action).toBe("updated");
    const text = readFileSync(agentsMd, "utf8");
    expect(text.startsWith("# Notes\n\n<!-- BEGIN mindsave")).toBe(true);
    expect(text.endsWith("<!-- END mindsave -->\n\n## After\n")).toBe(true);
    expect(text).not.toContain("old text");
  });
});

const THEIRS = "# Contributing\n\nRun `bun test` before a commit. 提交前先跑测试。\n";
const BEGIN = "<!-- BEGIN mindsave";

/** A project whose AGENTS.md is someone's, read by both Codex and opencode. */
function sharedAgentsMd() {
  const { opts } = setup();
  const agentsMd = join(opts.cwd, "AGENTS.md");
  writeFileSync(agentsMd, THEIRS);
  const skill = (...args: string[]) => okJson(["skill", ...args], opts);
  /** The project AGENTS.md state `mindsave agents` reports for each agent. */
  const states = async () => {
    const agents = (await okJson(["agents"], opts)).agents as {
      id: string;
      instructions: { scope: string; state: string }[];
    }[];
    const state = (id: string) =>
      agents.find((a) => a.id === id)!.instructions.find((x) => x.scope === "project")!.state;
    return { codex: state("codex"), opencode: state("opencode") };
  };
  const sections = () => readFileSync(agentsMd, "utf8").split(BEGIN).length - 1;
  return { opts, agentsMd, skill, states, sections, read: () => readFileSync(agentsMd, "utf8") };
}

// Several agents read one instructions file (a project's AGENTS.md: Codex and opencode). MindSave's
// section there names the agents it was installed for; uninstalling one agent leaves it for the
// others, and only the last one's uninstall gives the file back byte for byte.

describe("a shared AGENTS.md", () => {
  for (const [first, second] of [
    ["codex", "opencode"],
    ["opencode", "codex"],
  ]) {
    test(`installed for codex and opencode, uninstalled for ${first}: the section stays for ${second}; ${second}'s uninstall gives the file back`, async () => {
      const t = sharedAgentsMd();
      expect((await t.skill("--install", "--agent", "codex")).action).toBe("installed");
      expect((await t.skill("--install", "--agent", "opencode")).action).toBe("installed");
      expect(t.sections()).toBe(1);
      expect(t.read()).toContain("<!-- mindsave for: codex, opencode -->");
      expect(await t.states()).toEqual({ codex: "current", opencode: "current" });

      const out = (await ok(["skill", "--uninstall", "--agent", first], t.opts)).stdout;
      expect(out).toContain(`is no longer for ${first}; it stays for ${second}, which reads the same file.`);
      const kept = t.read();
      expect(t.sections()).toBe(1);
      expect(kept.startsWith(THEIRS)).toBe(true);
      expect(kept).toContain("`mindsave save");
      expect(kept).toContain(`<!-- mindsave for: ${second} -->`);
      expect(await t.states()).toEqual(
        first === "codex"
          ? { codex: "absent", opencode: "current" }
          : { codex: "current", opencode: "absent" },
      );
      // Uninstalling the same agent again finds nothing of its own.
      expect((await t.skill("--uninstall", "--agent", first)).action).toBe("absent");
      expect(t.read()).toBe(kept);

      expect((await t.skill("--uninstall", "--agent", second)).action).toBe("removed");
      expect(t.read()).toBe(THEIRS);
    });
  }

  test("a section written before sections named their agents is kept for the other reader of the file", async () => {
    const t = sharedAgentsMd();
    await t.skill("--install", "--agent", "codex");
    // As an older MindSave wrote it: no line naming the agents.
    writeFileSync(t.agentsMd, t.read().replace(/<!-- mindsave for: [a-z, ]* -->\n/, ""));
    expect(await t.states()).toEqual({ codex: "outdated", opencode: "outdated" });
    expect((await t.skill("--uninstall", "--agent", "codex")).kept_for).toEqual(["opencode"]);
    expect(t.read()).toContain("<!-- mindsave for: opencode -->");
    await t.skill("--uninstall", "--agent", "opencode");
    expect(t.read()).toBe(THEIRS);
  });
});

describe("agents", () => {
  test("--json: the agents found by folder or executable, and what is installed in each, current or not", async () => {
    const t = setup();
    mkdirSync(join(t.home, ".codex"));
    mkdirSync(join(t.home, ".gemini"));
    writeFileSync(join(t.bin, "opencode"), "#!/bin/sh\n");
    chmodSync(join(t.bin, "opencode"), 0o755);
    let agents = (await okJson(["agents"], t.opts)).agents as any[];
    const byId = (id: string) => agents.find((a) => a.id === id);
    expect(
      agents
        .filter((a) => a.found)
        .map((a) => a.id)
        .sort(),
    ).toEqual(["codex", "gemini", "opencode"]);
    expect(byId("opencode").executables).toEqual(["opencode"]);
    expect(byId("codex").mcp.every((m: any) => m.state === "absent")).toBe(true);
    expect(byId("codex").lacks.join(" ")).toContain("no tool-failure event");
    expect(byId("codex").lacks.join(" ")).not.toContain("SessionEnd");
    expect(byId("cline").mcp.map((m: any) => m.scope)).toEqual(["user"]);

    await ok(["mcp", "install", "--agent", "codex"], t.opts);
    await ok(["mcp", "install", "--agent", "gemini", "--project"], t.opts);
    await ok(["skill", "--install", "--agent", "gemini", "--user"], t.opts);
    agents = (await okJson(["agents"], t.opts)).agents;
    expect(byId("codex").mcp).toEqual([
      { scope: "user", path: join(t.home, ".codex", "config.toml"), state: "current" },
      { scope: "project", path: join(t.repo, ".codex", "config.toml"), state: "absent" },
    ]);
    expect(byId("gemini").mcp.find((m: any) => m.scope === "project").state).toBe("current");
    expect(byId("gemini").instructions.find((m: any) => m.scope === "user")).toMatchObject({
      path: join(t.home, ".gemini", "GEMINI.md"),
      state: "current",
    });

    const text = (await ok(["agents"], t.opts)).stdout;
    expect(text).toContain("Codex CLI (codex): ~/.codex");
    expect(text).toContain("current in ~/.codex/config.toml (user)");
    expect(text).toContain("Not found here: Claude Code");
    // What is installed for an agent that is not on this host is still shown (a project's config is for teammates).
    await ok(["mcp", "install", "--agent", "cursor", "--project"], t.opts);
    const withCursor = (await ok(["agents"], t.opts)).stdout;
    expect(withCursor).toMatch(/Cursor[^\n]*: not found on this host/);
    expect(withCursor).toContain(`current in ${join(t.repo, ".cursor", "mcp.json")} (project)`);
  });

  test("`mindsave mcp` alone still serves MCP; a word after it that is not install/uninstall is refused", async () => {
    const t = setup();
    const r = await run(["mcp", "instal"], t.opts);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Did you mean install?");
    // The CLI as every run here (the prebuilt binary when fresh), with a CLI child's environment.
    const proc = Bun.spawn([...CLI, "mcp"], {
      cwd: t.repo,
      env: childEnv(t.env),
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    proc.stdin.write(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }) + "\n",
    );
    proc.stdin.end();
    const out = await new Response(proc.stdout).text();
    expect(JSON.parse(out.split("\n")[0]).result.serverInfo.name).toBeTruthy();
    expect(await proc.exited).toBe(0); // its input ended
  });
});
