// `mindsave hooks install|uninstall --agent NAME` for the agents beyond Claude Code, through the
// real CLI with HOME in a temp dir: each agent's own hooks file, merged with what the user has
// (fixtures from each agent's published docs or source, named beside them), idempotent, and
// uninstall giving every byte back (or removing what install created).
import { describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { spawnSync } from "node:child_process";
import { agentHooks } from "../src/engine/agents/agent-hooks.ts";
import { opencodePlugin } from "../src/engine/agents/hooks-opencode.ts";
import { opencode } from "../src/engine/agents/kinds/opencode.ts";
import { gitRepo, laptop, ok, okJson, run, tempDir } from "./helpers.ts";

const sh = (agent: string, arg: string) =>
  `m="$HOME/.mindsave/bin/mindsave"; [ -x "$m" ] || m=$(command -v mindsave) || exit 0; exec "$m" hook ${arg} --agent ${agent}`;
const ps = (agent: string, arg: string) =>
  `$m = Join-Path $HOME '.mindsave\\bin\\mindsave.exe'; if (-not (Test-Path $m)) { $m = (Get-Command mindsave -ErrorAction SilentlyContinue).Source }; if ($m) { $input | & $m hook ${arg} --agent ${agent} }`;
const json = (v: unknown) => JSON.stringify(v, null, 2) + "\n";

/** A laptop whose PATH holds only what a test puts there, with `mindsave install`'s copy: a stub that logs its arguments and stdin. */
function setup() {
  const base = tempDir("mindsave-agent-hooks-");
  const pc = laptop("ada", base);
  const repo = gitRepo(join(base, "shop"));
  const bin = join(base, "bin");
  mkdirSync(bin);
  const stub = join(pc.home, ".mindsave", "bin", "mindsave");
  mkdirSync(dirname(stub), { recursive: true });
  writeFileSync(stub, `#!/bin/sh\nprintf '%s\\n' "$*" >> "$HOME/hook.log"\ncat >> "$HOME/hook.log"\n`);
  chmodSync(stub, 0o755);
  const env = {
    ...pc.env,
    PATH: bin,
    XDG_CONFIG_HOME: undefined,
    CODEX_HOME: undefined,
    COPILOT_HOME: undefined,
  };
  return { base, home: pc.home, repo, bin, env, opts: { cwd: repo, env } };
}

/** Every file under `dir` with its bytes (what "nothing else changed" compares), but the stub's log and MindSave's own record of installs. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      // .bun: the runtime's own cache when the CLI runs from source with this HOME.
      if (name === ".git" || name === ".bun" || name === "hook.log" || name === "hooks-installed.json")
        continue;
      if (statSync(p).isDirectory()) {
        out[p + "/"] = "";
        walk(p);
      } else out[p] = readFileSync(p, "utf8");
    }
  };
  walk(dir);
  return out;
}

function put(path: string, text: string, mode?: number): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  if (mode) chmodSync(path, mode);
}

/** Runs a hook command line the way the agents do (`sh -c`), with a payload on stdin; what the stub logged. */
function fire(home: string, command: string, stdin: string): string {
  spawnSync("sh", ["-c", command], { env: { HOME: home, PATH: "/usr/bin:/bin" }, input: stdin });
  const log = readFileSync(join(home, "hook.log"), "utf8");
  writeFileSync(join(home, "hook.log"), "");
  return log;
}

const codexGroup = (arg: string, timeout: number) => ({
  hooks: [{ type: "command", command: sh("codex", arg), timeout }],
});
const geminiGroup = (arg: string, timeout: number) => ({
  hooks: [{ type: "command", name: `mindsave-${arg}`, command: sh("gemini", arg), timeout }],
});
const copilotEntry = (arg: string, timeoutSec: number) => ({
  type: "command",
  bash: sh("copilot", arg),
  powershell: ps("copilot", arg),
  timeoutSec,
});
const cursorEntry = (arg: string, timeout: number) => ({ command: sh("cursor", arg), timeout });

describe("hooks install --agent: into a config the user already has", () => {
  test("codex: ~/.codex/hooks.json gets matcher groups in seconds beside the user's; again: no change; uninstall: the same bytes", async () => {
    const t = setup();
    // developers.openai.com/codex/hooks ("Config"); openai/codex codex-rs/config/src/hook_config.rs @012d0aa (HooksFile, MatcherGroup, `timeout` in seconds).
    const theirs = {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              {
                type: "command",
                command: "/usr/bin/python3 ~/.codex/hooks/pre_tool_use_policy.py",
                statusMessage: "Checking Bash command",
              },
            ],
          },
        ],
        Stop: [
          {
            hooks: [
              { type: "command", command: "/usr/bin/python3 ~/.codex/hooks/stop_continue.py", timeout: 30 },
            ],
          },
        ],
      },
    };
    const path = join(t.home, ".codex", "hooks.json");
    put(path, json(theirs));
    const r = await ok(["hooks", "install", "--agent", "codex"], t.opts);
    expect(r.stdout).toContain("approve MindSave's hooks in /hooks");
    expect(readFileSync(path, "utf8")).toBe(
      json({
        hooks: {
          PreToolUse: [...theirs.hooks.PreToolUse, codexGroup("pre-tool-use", 5)],
          Stop: [...theirs.hooks.Stop, codexGroup("stop", 10)],
          SessionStart: [codexGroup("session-start", 10)],
          UserPromptSubmit: [codexGroup("user-prompt-submit", 10)],
          PostToolUse: [codexGroup("post-tool-use", 5)],
          PreCompact: [codexGroup("pre-compact", 10)],
          SessionEnd: [codexGroup("session-end", 3)],
        },
      }),
    );
    const after = readFileSync(path, "utf8");
    expect((await okJson(["hooks", "install", "--agent", "codex"], t.opts)).action).toBe("unchanged");
    expect(readFileSync(path, "utf8")).toBe(after);
    expect(await okJson(["hooks", "uninstall", "--agent", "codex"], t.opts)).toMatchObject({
      action: "removed",
      exact: true,
    });
    expect(readFileSync(path, "utf8")).toBe(json(theirs));
  });

  test("gemini: settings.json with comments, tabs and an inline list keeps every byte; timeouts in milliseconds; uninstall: the same bytes", async () => {
    const t = setup();
    // google-gemini/gemini-cli@5411f113 docs/hooks/index.md ("Configuration schema"): hooks.<Event>[].hooks[] {name, type, command, timeout ms}.
    const theirs = `{\n\t// my settings\n\t"theme": "Dracula",\n\t"hooks": {\n\t\t"BeforeTool": [\n\t\t\t{\n\t\t\t\t"matcher": "write_file|replace",\n\t\t\t\t"hooks": [\n\t\t\t\t\t{\n\t\t\t\t\t\t"name": "security-check",\n\t\t\t\t\t\t"type": "command",\n\t\t\t\t\t\t"command": "$GEMINI_PROJECT_DIR/.gemini/hooks/security.sh",\n\t\t\t\t\t\t"timeout": 5000\n\t\t\t\t\t}\n\t\t\t\t]\n\t\t\t}\n\t\t],\n\t\t"SessionStart": [{ "hooks": [{ "type": "command", "command": "echo hello" }] }]\n\t}\n}\n`;
    const path = join(t.repo, ".gemini", "settings.json");
    put(path, theirs);
    await ok(["hooks", "install", "--agent", "gemini", "--project"], t.opts);
    const laid = (arg: string, ms: number) =>
      JSON.stringify([geminiGroup(arg, ms)], null, "\t")
        .split("\n")
        .join("\n\t\t");
    const added = [
      ["BeforeAgent", "user-prompt-submit", 10000],
      ["AfterTool", "post-tool-use", 5000],
      ["PreCompress", "pre-compact", 10000],
      ["AfterAgent", "stop", 10000],
      ["SessionEnd", "session-end", 10000],
    ] as const;
    expect(readFileSync(path, "utf8")).toBe(
      theirs
        .replace(
          `"echo hello" }] }]`,
          `"echo hello" }] }, ${JSON.stringify(geminiGroup("session-start", 10000))}]`,
        )
        .replace(
          /\n\t\}\n\}\n$/,
          added.map(([event, arg, ms]) => `,\n\t\t"${event}": ${laid(arg, ms)}`).join("") + "\n\t}\n}\n",
        ),
    );
    const after = readFileSync(path, "utf8");
    expect((await okJson(["hooks", "install", "--agent", "gemini", "--project"], t.opts)).action).toBe(
      "unchanged",
    );
    expect(readFileSync(path, "utf8")).toBe(after);
    await ok(["hooks", "uninstall", "--agent", "gemini", "--project"], t.opts);
    expect(readFileSync(path, "utf8")).toBe(theirs);
  });

  test("copilot: a file of MindSave's own beside the user's hook files, {version: 1} with bash and powershell; uninstall removes it", async () => {
    const t = setup();
    // github/docs@05da5bc content/copilot/reference/hooks-reference.md: *.json in ~/.copilot/hooks/, {version: 1, hooks: {event: [{type, bash, powershell, timeoutSec}]}}.
    const theirs = json({
      version: 1,
      hooks: {
        preToolUse: [
          {
            type: "command",
            bash: "./scripts/guard.sh",
            powershell: "./scripts/guard.ps1",
            cwd: "scripts",
            timeoutSec: 15,
          },
        ],
      },
    });
    put(join(t.home, ".copilot", "hooks", "security.json"), theirs);
    const before = tree(t.home);
    await ok(["hooks", "install", "--agent", "copilot"], t.opts);
    const path = join(t.home, ".copilot", "hooks", "mindsave.json");
    expect(readFileSync(path, "utf8")).toBe(
      json({
        version: 1,
        hooks: {
          sessionStart: [copilotEntry("session-start", 10)],
          userPromptSubmitted: [copilotEntry("user-prompt-submit", 10)],
          preToolUse: [copilotEntry("pre-tool-use", 5)],
          postToolUse: [copilotEntry("post-tool-use", 5)],
          postToolUseFailure: [copilotEntry("post-tool-use-failure", 5)],
          preCompact: [copilotEntry("pre-compact", 10)],
          agentStop: [copilotEntry("stop", 10)],
          sessionEnd: [copilotEntry("session-end", 10)],
        },
      }),
    );
    expect(readFileSync(join(t.home, ".copilot", "hooks", "security.json"), "utf8")).toBe(theirs);
    expect((await okJson(["hooks", "install", "--agent", "copilot"], t.opts)).action).toBe("unchanged");
    await ok(["hooks", "uninstall", "--agent", "copilot"], t.opts);
    expect(tree(t.home)).toEqual(before);
  });

  test("cursor: ~/.cursor/hooks.json gets flat entries with timeouts in seconds; uninstall: the same bytes", async () => {
    const t = setup();
    // cursor.com/docs/agent/hooks ("Configuration"): {version: 1, hooks: {event: [{command, timeout}]}}, "timeout: Execution timeout in seconds".
    const theirs = {
      version: 1,
      hooks: { afterFileEdit: [{ command: "./hooks/format.sh" }], stop: [{ command: "./hooks/audit.sh" }] },
    };
    const path = join(t.home, ".cursor", "hooks.json");
    put(path, json(theirs));
    await ok(["hooks", "install", "--agent", "cursor"], t.opts);
    expect(readFileSync(path, "utf8")).toBe(
      json({
        version: 1,
        hooks: {
          afterFileEdit: theirs.hooks.afterFileEdit,
          stop: [...theirs.hooks.stop, cursorEntry("stop", 10)],
          sessionStart: [cursorEntry("session-start", 10)],
          beforeSubmitPrompt: [cursorEntry("user-prompt-submit", 10)],
          postToolUse: [cursorEntry("post-tool-use", 5)],
          postToolUseFailure: [cursorEntry("post-tool-use-failure", 5)],
          preCompact: [cursorEntry("pre-compact", 10)],
          sessionEnd: [cursorEntry("session-end", 10)],
        },
      }),
    );
    expect((await okJson(["hooks", "install", "--agent", "cursor"], t.opts)).action).toBe("unchanged");
    await ok(["hooks", "uninstall", "--agent", "cursor"], t.opts);
    expect(readFileSync(path, "utf8")).toBe(json(theirs));
  });

  test("cline: an executable per event in .clinerules/hooks/; the user's own script under an event's name is left alone and named; uninstall removes only ours", async () => {
    const t = setup();
    // cline/cline@21cb8d2 apps/vscode/src/core/hooks/utils.ts (extensionless executables named after the event) and templates.ts (a PreToolUse script).
    const dir = join(t.repo, ".clinerules", "hooks");
    put(
      join(dir, "PreToolUse"),
      `#!/bin/bash\n# PreToolUse Hook\ninput=$(cat)\necho '{"cancel": false, "contextModification": "", "errorMessage": ""}'\n`,
      0o755,
    );
    put(join(dir, "TaskStart"), `#!/bin/bash\necho '{"cancel": false}'\n`, 0o755);
    const before = tree(t.repo);
    const r = await ok(["hooks", "install", "--agent", "cline", "--project"], t.opts);
    expect(r.stderr).toContain(join(dir, "TaskStart"));
    expect(r.stdout).toContain("Enable Hooks");
    const ours = [
      ["TaskResume", "session-start"],
      ["UserPromptSubmit", "user-prompt-submit"],
      ["PostToolUse", "post-tool-use"],
      ["PreCompact", "pre-compact"],
      ["TaskComplete", "stop"],
      ["TaskCancel", "session-end"],
    ];
    for (const [event, arg] of ours) {
      const path = join(dir, event);
      expect(readFileSync(path, "utf8")).toBe(
        `#!/bin/sh\n# MindSave's Cline ${event} hook: written by \`mindsave hooks install --agent cline\`; \`mindsave hooks uninstall --agent cline\` removes it.\n${sh("cline", arg)}\n`,
      );
      expect(statSync(path).mode & 0o111).toBe(0o111);
      // A project's folder is shared through the repository: Windows' PowerShell script too (utils.ts: `<Event>.ps1`).
      const ps1 = readFileSync(`${path}.ps1`, "utf8");
      expect(ps1).toStartWith(`# MindSave's Cline ${event} hook: written by`);
      expect(ps1).toContain(`[Console]::In.ReadToEnd() | & $m hook ${arg} --agent cline\r\n`);
    }
    expect(existsSync(join(dir, "TaskStart.ps1"))).toBe(false);
    // Run as Cline runs it: the payload on stdin reaches `mindsave hook <event> --agent cline` unchanged.
    const payload = JSON.stringify({
      hookName: "PreCompact",
      taskId: "t1",
      preCompact: { contextSize: 120000 },
      note: "保存进度",
    });
    spawnSync(join(dir, "PreCompact"), [], { env: { HOME: t.home, PATH: "/usr/bin:/bin" }, input: payload });
    expect(readFileSync(join(t.home, "hook.log"), "utf8")).toBe(`hook pre-compact --agent cline\n${payload}`);
    expect((await okJson(["hooks", "install", "--agent", "cline", "--project"], t.opts)).action).toBe(
      "unchanged",
    );
    await ok(["hooks", "uninstall", "--agent", "cline", "--project"], t.opts);
    expect(tree(t.repo)).toEqual(before);
  });

  test("opencode: a plugin of MindSave's own beside the user's plugins; it runs `hook EVENT --agent opencode` with its JSON payload", async () => {
    const t = setup();
    // anomalyco/opencode packages/web/src/content/docs/plugins.mdx: a module in .opencode/plugins/ exporting an async plugin function.
    const theirs = `export const NotificationPlugin = async ({ project, client, $, directory, worktree }) => {\n  return {\n    event: async ({ event }) => {\n      if (event.type === "session.idle") await $\`osascript -e 'display notification "Session completed!"'\`\n    },\n  }\n}\n`;
    put(join(t.repo, ".opencode", "plugins", "notify.js"), theirs);
    const before = tree(t.repo);
    const log = join(t.base, "opencode.log");
    const fake = join(t.base, "fake-mindsave");
    put(
      fake,
      `#!/bin/sh\nprintf '%s\\n' "$*" >> ${log}\ncat >> ${log}\nprintf '\\n'>> ${log}\necho "restore block"\n`,
      0o755,
    );
    await ok(["hooks", "install", "--agent", "opencode", "--project", "--command", fake], t.opts);
    const path = join(t.repo, ".opencode", "plugins", "mindsave.js");
    expect(
      (await ok(["hooks", "install", "--agent", "opencode", "--project", "--command", fake], t.opts)).stdout,
    ).toStartWith(`MindSave's opencode plugin is already in ${path}; nothing changed.`);
    const text = readFileSync(path, "utf8");
    expect(text).toStartWith(
      "// MindSave's opencode plugin: written by `mindsave hooks install --agent opencode`",
    );
    expect(readFileSync(join(t.repo, ".opencode", "plugins", "notify.js"), "utf8")).toBe(theirs);
    // The plugin as opencode loads it: one exported function whose hooks run the CLI and use its output.
    const mod = await import(path);
    expect(Object.keys(mod)).toEqual(["MindSave"]);
    const hooks = await mod.MindSave({ directory: t.repo, worktree: t.repo });
    const system = { system: [] as string[] };
    await hooks["experimental.chat.system.transform"]({ sessionID: "ses_1", model: {} }, system);
    await hooks["experimental.chat.system.transform"]({ sessionID: "ses_1", model: {} }, system);
    expect(system.system).toEqual(["restore block", "restore block"]);
    // The person's message: its text parts only (a file part is not a prompt).
    await hooks["chat.message"](
      { sessionID: "ses_1" },
      {
        message: { role: "user" },
        parts: [
          { type: "text", text: "Add an index on orders.created_at" },
          { type: "file", url: "file:///x" },
        ],
      },
    );
    // What the prompt hook said of it (a repeat warning) joins the system prompt of the turn's requests.
    const turn = { system: [] as string[] };
    await hooks["experimental.chat.system.transform"]({ sessionID: "ses_1", model: {} }, turn);
    expect(turn.system).toEqual(["restore block", "restore block"]);
    // A message with no text says nothing: the next requests carry the restore block alone.
    await hooks["chat.message"](
      { sessionID: "ses_1" },
      { message: { role: "user" }, parts: [{ type: "file", url: "file:///y" }] },
    );
    const next = { system: [] as string[] };
    await hooks["experimental.chat.system.transform"]({ sessionID: "ses_1", model: {} }, next);
    expect(next.system).toEqual(["restore block"]);
    const compaction = { context: [] as string[] };
    await hooks["experimental.session.compacting"]({ sessionID: "ses_1" }, compaction);
    expect(compaction.context).toEqual(["restore block"]);
    const tool = { title: "edit", output: "ok", metadata: {} };
    await hooks["tool.execute.after"](
      { tool: "edit", sessionID: "ses_1", callID: "c1", args: { filePath: "src/a.ts" } },
      tool,
    );
    expect(tool.output).toBe("ok\n\nrestore block");
    const calls = readFileSync(log, "utf8").trim().split("\n");
    expect(calls).toEqual([
      "hook session-start --agent opencode",
      JSON.stringify({
        hook_event_name: "session.start",
        session_id: "ses_1",
        cwd: t.repo,
        worktree: t.repo,
        source: "startup",
      }),
      "hook user-prompt-submit --agent opencode",
      JSON.stringify({
        hook_event_name: "chat.message",
        session_id: "ses_1",
        cwd: t.repo,
        worktree: t.repo,
        prompt: "Add an index on orders.created_at",
      }),
      "hook pre-compact --agent opencode",
      JSON.stringify({
        hook_event_name: "session.compacting",
        session_id: "ses_1",
        cwd: t.repo,
        worktree: t.repo,
      }),
      "hook post-tool-use --agent opencode",
      JSON.stringify({
        hook_event_name: "tool.execute.after",
        session_id: "ses_1",
        cwd: t.repo,
        worktree: t.repo,
        tool_name: "edit",
        tool_input: { filePath: "src/a.ts" },
        tool_response: { title: "edit", output: "ok" },
      }),
    ]);
    expect(
      (await okJson(["hooks", "install", "--agent", "opencode", "--project", "--command", fake], t.opts))
        .action,
    ).toBe("unchanged");
    expect(readFileSync(path, "utf8")).toBe(text);
    await ok(["hooks", "uninstall", "--agent", "opencode", "--project"], t.opts);
    expect(tree(t.repo)).toEqual(before);
  });
});

describe("opencode's plugin: the context fill", () => {
  test("post-tool-use is given the prompt tokens of the session's newest finished step; a compaction forgets them", async () => {
    const dir = tempDir("mindsave-opencode-fill-");
    const log = join(dir, "calls.log");
    const fake = join(dir, "fake-mindsave");
    writeFileSync(fake, `#!/bin/sh\ncat >> ${log}\nprintf '\\n' >> ${log}\n`);
    chmodSync(fake, 0o755);
    const path = join(dir, "mindsave.js");
    writeFileSync(path, opencodePlugin(fake));
    const hooks = await (await import(path)).MindSave({ directory: dir, worktree: dir });
    const step = (sessionID: string, input: number, extra: Record<string, unknown> = {}) =>
      hooks.event({
        event: {
          type: "message.updated",
          properties: {
            info: {
              role: "assistant",
              sessionID,
              modelID: "qwen3-coder",
              tokens: { input, output: 5, reasoning: 0, cache: { read: 15_000, write: 2_000 } },
              ...extra,
            },
          },
        },
      });
    const after = () =>
      hooks["tool.execute.after"](
        { tool: "bash", sessionID: "ses_1", callID: "c1", args: { command: "ls" } },
        { title: "ls", output: "ok", metadata: {} },
      );
    const usages = () =>
      readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).usage ?? null);
    await after();
    // A step that has not finished (zero tokens), another session's, and a compaction's summary measure nothing here.
    await step("ses_1", 0);
    await step("ses_2", 90_000);
    await step("ses_1", 120_000, { summary: true });
    await after();
    await step("ses_1", 58_000);
    await after();
    await hooks.event({ event: { type: "session.compacted", properties: { sessionID: "ses_1" } } });
    await after();
    const fill = {
      input_tokens: 58_000,
      cache_read_input_tokens: 15_000,
      cache_creation_input_tokens: 2_000,
      model: "qwen3-coder",
    };
    expect(usages()).toEqual([null, null, fill, null]);
    // What MindSave reads of it: the fill over all three counts.
    const payload = opencode.parse(
      "post-tool-use",
      { session_id: "ses_1", cwd: dir, usage: fill },
      {},
    ).payload;
    expect(opencode.source.usage(payload)).toMatchObject({ context: 75_000, model: "qwen3-coder" });
    expect(
      opencode.source.usage(opencode.parse("post-tool-use", { session_id: "ses_1" }, {}).payload),
    ).toBeNull();
  });
});

const AGENTS = ["codex", "gemini", "copilot", "cursor", "cline", "opencode"];

describe("hooks and the MCP server in one file", () => {
  test("gemini: MCP and hooks installed into one settings.json come out byte for byte, whichever is uninstalled first", async () => {
    // A user's file with a comment, a trailing comma and an inline server entry (gemini-cli docs/tools/mcp-server.md shape).
    const theirs = `{\n  // mine\n  "theme": "Dracula",\n  "mcpServers": {"other": {"command": "foo"}},\n}\n`;
    for (const order of [
      ["mcp", "hooks"],
      ["hooks", "mcp"],
    ]) {
      const t = setup();
      const file = join(t.repo, ".gemini", "settings.json");
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, theirs);
      await ok(["mcp", "install", "--agent", "gemini", "--project"], t.opts);
      await ok(["hooks", "install", "--agent", "gemini", "--project"], t.opts);
      for (const what of order) await ok([what, "uninstall", "--agent", "gemini", "--project"], t.opts);
      expect({ order, text: readFileSync(file, "utf8") }).toEqual({ order, text: theirs });
    }
  });
});

describe("hooks install --agent: into nothing", () => {
  test("every agent, both scopes: the file (and folders) created, every command `… hook <event> --agent <id>`, uninstall removes them all", async () => {
    const t = setup();
    const before = { home: tree(t.home), repo: tree(t.repo) };
    for (const agent of AGENTS) {
      for (const scope of ["user", "project"]) {
        const r = await okJson(["hooks", "install", "--agent", agent, `--${scope}`], t.opts);
        expect([agent, scope, r.action]).toEqual([agent, scope, "installed"]);
        const table = agentHooks(agent as never);
        if (agent === "cline") {
          for (const e of table.events)
            expect(fire(t.home, readFileSync(join(r.path, e.event), "utf8").split("\n")[2], "{}")).toBe(
              `hook ${e.arg} --agent cline\n{}`,
            );
        } else if (agent !== "opencode") {
          const file = JSON.parse(readFileSync(r.path, "utf8"));
          for (const e of table.events) {
            const el = file.hooks[e.event].at(-1);
            const command = el.hooks?.[0].command ?? el.command ?? el.bash;
            expect(command).toEndWith(` hook ${e.arg} --agent ${agent}`);
            // The line works in a shell: it finds `mindsave install`'s copy and passes the payload through.
            expect(fire(t.home, command, `{"n":"中文"}`)).toBe(
              `hook ${e.arg} --agent ${agent}\n{"n":"中文"}`,
            );
          }
        }
        expect(await okJson(["hooks", "uninstall", "--agent", agent, `--${scope}`], t.opts)).toMatchObject({
          action: "removed",
        });
        expect([agent, scope, existsSync(r.path)]).toEqual([agent, scope, false]);
      }
    }
    expect(tree(t.home)).toEqual(before.home);
    expect(tree(t.repo)).toEqual(before.repo);
  });
});

describe("hooks install --agent: choosing agents", () => {
  test("--agent all installs for every agent found on this host, and `agents` shows them current; uninstall --agent all takes them out", async () => {
    const t = setup();
    mkdirSync(join(t.home, ".codex"));
    mkdirSync(join(t.home, ".gemini"));
    put(join(t.bin, "opencode"), "#!/bin/sh\n", 0o755);
    const r = await okJson(["hooks", "install", "--agent", "all"], t.opts);
    expect(r.agents.map((a: any) => [a.agent, a.action])).toEqual([
      ["codex", "installed"],
      ["gemini", "installed"],
      ["opencode", "installed"],
    ]);
    expect(existsSync(join(t.home, ".claude"))).toBe(false);
    const agents = (await okJson(["agents"], t.opts)).agents as any[];
    const of = (id: string) => agents.find((a) => a.id === id);
    expect(of("codex").hooks).toEqual([
      { scope: "user", path: join(t.home, ".codex", "hooks.json"), state: "current" },
      { scope: "project", path: join(t.repo, ".codex", "hooks.json"), state: "absent" },
    ]);
    expect(of("codex").missingEvents).toEqual(["post-tool-use-failure"]);
    expect(of("opencode").hooks[0].state).toBe("current");
    expect(of("cursor").hooks.every((h: any) => h.state === "absent")).toBe(true);
    const text = (await ok(["agents"], t.opts)).stdout;
    expect(text).toContain("current in ~/.codex/hooks.json (user)");
    expect(text).toContain("none for pre-tool-use, post-tool-use-failure, session-end");
    await ok(["hooks", "uninstall", "--agent", "all"], t.opts);
    expect(readdirSync(join(t.home, ".codex"))).toEqual([]);
    expect(existsSync(join(t.home, ".config"))).toBe(false);
  });

  test("a bad agent name: one sentence, exit 1, nothing written", async () => {
    const t = setup();
    const before = tree(t.home);
    const r = await run(["hooks", "install", "--agent", "vim", "--project"], t.opts);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(
      '--agent must be one of claude, codex, gemini, copilot, cursor, cline, opencode or all, not "vim"',
    );
    expect(tree(t.home)).toEqual(before);
    expect(existsSync(join(t.repo, ".claude"))).toBe(false);
  });

  test("copilot and cursor run Claude Code's hooks too: install and `agents` say both fire", async () => {
    const t = setup();
    await ok(["hooks", "install", "--project"], t.opts);
    const r = await ok(["hooks", "install", "--agent", "copilot", "--project"], t.opts);
    expect(r.stdout).toContain(
      `GitHub Copilot CLI also runs the Claude Code hooks in ${join(t.repo, ".claude", "settings.json")}`,
    );
    expect(
      (await okJson(["agents"], t.opts)).agents.find((a: any) => a.id === "copilot").claudeHooksAlsoRun,
    ).toEqual([join(t.repo, ".claude", "settings.json")]);
    expect((await ok(["agents"], t.opts)).stdout).toMatch(
      /both fire +GitHub Copilot CLI also runs the Claude Code hooks/,
    );
    // Copilot reads only the repository's Claude Code settings; Cursor reads ~/.claude too.
    await ok(["hooks", "install"], t.opts);
    expect((await ok(["hooks", "install", "--agent", "copilot"], t.opts)).stdout).not.toContain(
      join(t.home, ".claude"),
    );
    expect((await ok(["hooks", "install", "--agent", "cursor"], t.opts)).stdout).toContain(
      `Cursor also runs the Claude Code hooks in ${join(t.home, ".claude", "settings.json")}`,
    );
    expect((await ok(["hooks", "install"], t.opts)).stdout).toContain(
      "Cursor also runs these Claude Code hooks",
    );
  });

  test("an install from an older binary is updated in place; after the user edits the file, uninstall takes out just ours", async () => {
    const t = setup();
    const path = join(t.home, ".gemini", "settings.json");
    put(path, `{\n  "theme": "Dracula"\n}\n`);
    await ok(["hooks", "install", "--agent", "gemini", "--command", "/opt/old/mindsave"], t.opts);
    expect(readFileSync(path, "utf8")).toContain(`'/opt/old/mindsave' hook session-start --agent gemini`);
    expect((await okJson(["agents"], t.opts)).agents.find((a: any) => a.id === "gemini").hooks[0].state).toBe(
      "current",
    );
    expect((await okJson(["hooks", "install", "--agent", "gemini"], t.opts)).action).toBe("updated");
    const text = readFileSync(path, "utf8");
    expect(text).not.toContain("/opt/old");
    expect(JSON.parse(text).hooks.SessionStart).toEqual([geminiGroup("session-start", 10000)]);
    writeFileSync(path, text.replace(`"theme": "Dracula"`, `"theme": "Light"`));
    // Edited elsewhere: MindSave's bytes are found where they moved to and cut out exactly.
    expect(await okJson(["hooks", "uninstall", "--agent", "gemini"], t.opts)).toMatchObject({
      action: "removed",
      exact: true,
    });
    expect(readFileSync(path, "utf8")).toBe(`{\n  "theme": "Light"\n}\n`);
    // A hooks file MindSave cannot read is refused untouched.
    const codex = join(t.home, ".codex", "hooks.json");
    put(codex, `{ "hooks": [] }\n`);
    const bad = await run(["hooks", "install", "--agent", "codex"], t.opts);
    expect([bad.code, bad.stderr.trim().split("\n").length]).toEqual([1, 1]);
    expect(readFileSync(codex, "utf8")).toBe(`{ "hooks": [] }\n`);
  });
});
