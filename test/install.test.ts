// Installing into a person's (or a team's) files: hooks install/uninstall gives settings.json back
// byte for byte whatever its layout, a project's settings hold a command that works on every
// machine, backups live in the MindSave home, and what install created goes again on uninstall.
import { beforeAll, describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { spawnSync } from "node:child_process";
import { join, relative } from "node:path";
import { parse } from "jsonc-parser";
import { hostTarget } from "../build.ts";
import { buildAdvice } from "../src/engine/home/drive.ts";
import {
  hookCommand,
  installHooks,
  KEEP_SETTINGS_BACKUPS,
  SETTINGS_LEDGER,
  uninstallHooks,
} from "../src/engine/agents/hooks.ts";
import { HOOK_ARGS, HOOK_EVENTS } from "../src/engine/agents/agent-hooks.ts";
import { gitRepo, hostBinary, laptop, laptopAndHome as newcomer, ok, REPO, run, tempDir } from "./helpers.ts";

let exe = "";
beforeAll(async () => {
  exe = await hostBinary();
}, 120_000);

const NOW = new Date("2026-11-21T10:00:00Z");

/** Every file and folder below `dir` with its bytes: two trees compare equal only when identical. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d).sort()) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) {
        out[relative(dir, p) + "/"] = "";
        walk(p);
      } else out[relative(dir, p)] = readFileSync(p, "latin1");
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

// A settings file as people have them: schema, permissions with inline and one-per-line arrays,
// env, their own hooks (one inline, one spread out), a status line.
const INLINE = `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "model": "opus",
  "permissions": {
    "allow": [
      "Bash(npm run test:*)",
      "Read(~/.zshrc)"
    ],
    "deny": ["WebFetch", "Bash(curl:*)"]
  },
  "env": { "CLAUDE_CODE_ENABLE_TELEMETRY": "0" },
  "hooks": {
    "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "./scripts/guard.sh", "timeout": 3 }] }],
    "SessionStart": [
      {
        "matcher": "startup",
        "hooks": [{ "type": "command", "command": "echo hello" }]
      }
    ]
  },
  "statusLine": {"type": "command", "command": "~/.claude/statusline.sh"}
}
`;
const VALUE = JSON.parse(INLINE);
const COMMENTED = INLINE.replace(
  '{\n  "$schema"',
  '// Team defaults: keep in sync with the wiki.\n{\n  "$schema"',
)
  .replace('  "model": "opus",', '  "model": "opus", // the big one\n  /* no network tools */')
  .replace('  "statusLine"', '  // status line from dotfiles\n  "statusLine"');

const FIXTURES: Record<string, string> = {
  "2-space": JSON.stringify(VALUE, null, 2) + "\n",
  "4-space": JSON.stringify(VALUE, null, 4) + "\n",
  tabs: JSON.stringify(VALUE, null, "\t") + "\n",
  "inline arrays and objects": INLINE,
  comments: COMMENTED,
  "CRLF line endings": INLINE.replace(/\n/g, "\r\n"),
  "no trailing newline": JSON.stringify(VALUE, null, 2),
  "one line": JSON.stringify(VALUE),
  "no hooks yet": JSON.stringify({ model: "sonnet", permissions: { allow: ["Read"] } }, null, 2) + "\n",
  "empty hooks and an empty list": `{\n  "hooks": {},\n  "model": "opus"\n}\n`.replace(
    '"hooks": {}',
    '"hooks": {\n    "Stop": []\n  }',
  ),
  "empty object": "{}",
  "empty object, newline": "{}\n",
};

function engineHome() {
  const home = tempDir("mindsave-install-");
  const path = join(home, ".claude", "settings.json");
  return { home, path, env: { HOME: home, USERPROFILE: home } as NodeJS.ProcessEnv };
}

describe("settings.json round trip: install then uninstall gives back the original bytes", () => {
  for (const [name, original] of Object.entries(FIXTURES)) {
    test(name, () => {
      const { home, path, env } = engineHome();
      mkdirSync(join(home, ".claude"));
      writeFileSync(path, original);
      const r = installHooks(path, null, env, NOW);
      expect(r.added).toHaveLength(8);
      const after = readFileSync(path, "utf8");
      const value = parse(after);
      const before = parse(original);
      // Everything that was there is still there, and ours is added.
      for (const [k, v] of Object.entries(before)) if (k !== "hooks") expect(value[k]).toEqual(v);
      for (const [event, groups] of Object.entries((before.hooks ?? {}) as Record<string, unknown[]>))
        expect(value.hooks[event].slice(0, groups.length)).toEqual(groups);
      const commands = Object.values(value.hooks as Record<string, { hooks: { command: string }[] }[]>)
        .flat()
        .flatMap((g) => g.hooks.map((h) => h.command));
      for (const arg of HOOK_ARGS) expect(commands).toContain(hookCommand(null, arg));
      const commented = original.includes("// the big one");
      if (!commented) expect(JSON.parse(after)).toEqual(value);
      // The person's own lines are untouched: an inline array stays inline, CRLF stays CRLF.
      if (original.includes('"deny": ["WebFetch"'))
        expect(after).toContain('"deny": ["WebFetch", "Bash(curl:*)"]');
      if (original.includes("\r\n")) expect(after.replace(/\r\n/g, "")).not.toContain("\n");
      if (commented) expect(after).toContain('"model": "opus", // the big one\n  /* no network tools */');
      expect(installHooks(path, null, env, NOW).added).toEqual([]);
      expect(uninstallHooks(path, env, NOW).removed).toHaveLength(8);
      expect(readFileSync(path, "utf8")).toBe(original);
      // Backups never land beside the settings.
      expect(readdirSync(join(home, ".claude"))).toEqual(["settings.json"]);
    });
  }

  test("an edit made between install and uninstall stays; only MindSave's hooks go", () => {
    const { home, path, env } = engineHome();
    mkdirSync(join(home, ".claude"));
    writeFileSync(path, INLINE);
    installHooks(path, null, env, NOW);
    writeFileSync(
      path,
      readFileSync(path, "utf8").replace('"Read(~/.zshrc)"', '"Read(~/.zshrc)",\n      "Bash(git status)"'),
    );
    uninstallHooks(path, env, NOW);
    expect(readFileSync(path, "utf8")).toBe(
      INLINE.replace('"Read(~/.zshrc)"', '"Read(~/.zshrc)",\n      "Bash(git status)"'),
    );
  });

  test("a settings file and .claude/ that install created are removed by uninstall", () => {
    const { home, path, env } = engineHome();
    installHooks(path, null, env, NOW);
    expect(JSON.parse(readFileSync(path, "utf8")).hooks.Stop).toHaveLength(1);
    const r = uninstallHooks(path, env, NOW);
    expect(r.deleted).toEqual([path, join(home, ".claude")]);
    expect(existsSync(join(home, ".claude"))).toBe(false);
    // …but a created file someone has since put their own settings in stays, with those settings.
    installHooks(path, null, env, NOW);
    writeFileSync(path, readFileSync(path, "utf8").replace("{\n", '{\n  "model": "opus",\n'));
    uninstallHooks(path, env, NOW);
    expect(readFileSync(path, "utf8")).toBe('{\n  "model": "opus"\n}\n');
  });
});

describe("hooks install through the CLI", () => {
  function setup() {
    const base = tempDir("mindsave-install-cli-");
    const repo = gitRepo(join(base, "shop"));
    const pc = laptop("ada-laptop", base);
    const cli = (args: string[], cwd = repo) => run(args, { cwd, env: pc.env, bin: [exe] });
    const json = async (args: string[], cwd = repo) =>
      JSON.parse((await cli(["--json", ...args], cwd)).stdout);
    return { base, repo, pc, cli, json };
  }
  /** Runs a hook command the way Claude Code does: through a shell, the event's JSON on stdin. */
  const sh = (command: string, env: Record<string, string>, cwd: string, stdin = "{}") =>
    spawnSync("sh", ["-c", command], { cwd, env, input: stdin, encoding: "utf8" });

  test("--project writes a command that works on every machine: the local copy, else PATH, else a quiet exit 0", async () => {
    const t = setup();
    expect((await t.cli(["install"])).code).toBe(0);
    const r = await t.json(["hooks", "install", "--project"]);
    const text = readFileSync(r.settings, "utf8");
    expect(text).not.toContain(t.pc.home);
    expect(text).not.toContain(".mindsave/bin/mindsave'");
    const start = parse(text).hooks.SessionStart[0].hooks[0].command;
    expect(start).toBe(hookCommand(null, "session-start"));
    await t.cli(["save", "--goal", "Ship the login page", "--next", "write the e2e test"]);
    const payload = JSON.stringify({
      session_id: "s1",
      cwd: t.repo,
      hook_event_name: "SessionStart",
      source: "startup",
    });
    // This machine: the copy in ~/.mindsave/bin answers.
    const here = sh(start, { PATH: "/usr/bin:/bin", ...t.pc.env }, t.repo, payload);
    expect(here.status).toBe(0);
    expect(JSON.parse(here.stdout).hookSpecificOutput.additionalContext).toContain(
      "goal: Ship the login page",
    );
    // A teammate without MindSave: nothing happens, nothing is printed, Claude Code sees success.
    const bare = laptop("bob-laptop", t.base);
    const none = sh(start, { PATH: "/usr/bin:/bin", ...bare.env }, t.repo, payload);
    expect(none).toMatchObject({ status: 0, stdout: "", stderr: "" });
    // A teammate with `mindsave` on PATH only: that one runs.
    const bin = join(t.base, "pathbin");
    mkdirSync(bin);
    writeFileSync(join(bin, "mindsave"), '#!/bin/sh\necho "mindsave on PATH: $*"\n');
    chmodSync(join(bin, "mindsave"), 0o755);
    const onPath = sh(start, { PATH: `${bin}:/usr/bin:/bin`, ...bare.env }, t.repo, payload);
    expect(onPath).toMatchObject({ status: 0, stdout: "mindsave on PATH: hook session-start\n" });
  });

  test("a project file with someone's absolute paths (an earlier version) is brought to the portable command; a teammate can uninstall it", async () => {
    const t = setup();
    expect((await t.cli(["install"])).code).toBe(0);
    const settings = join(t.repo, ".claude", "settings.json");
    mkdirSync(join(t.repo, ".claude"));
    const ada = "/home/ada/.mindsave/bin/mindsave";
    // That version had every event but PreToolUse (the repeat warning before a tool runs is newer).
    const earlier = HOOK_EVENTS.filter((h) => h.arg !== "pre-tool-use");
    const old = {
      permissions: { allow: ["Read"] },
      hooks: Object.fromEntries(
        earlier.map((h) => [
          h.event,
          [{ hooks: [{ type: "command", command: `'${ada}' hook ${h.arg}`, timeout: 10 }] }],
        ]),
      ),
    };
    writeFileSync(settings, JSON.stringify(old, null, 2) + "\n");
    const r = await t.json(["hooks", "install", "--project"]);
    expect(r.added).toEqual([hookCommand(null, "pre-tool-use")]);
    expect(r.updated).toEqual(earlier.map((h) => hookCommand(null, h.arg)));
    expect(readFileSync(settings, "utf8")).not.toContain("/home/ada");
    expect((await t.json(["hooks", "install", "--project"])).updated).toEqual([]);
    // Another person (no record of this install in their home) removes them all.
    const bob = laptop("bob-laptop", t.base);
    const out = JSON.parse(
      (await run(["--json", "hooks", "uninstall", "--project"], { cwd: t.repo, env: bob.env, bin: [exe] }))
        .stdout,
    );
    expect(out.removed).toHaveLength(8);
    expect(JSON.parse(readFileSync(settings, "utf8"))).toEqual({ permissions: { allow: ["Read"] } });
  });

  test(`backups go to ~/.mindsave/backups/settings/, the newest ${KEEP_SETTINGS_BACKUPS} per file; .claude/ holds only the settings`, async () => {
    const t = setup();
    expect((await t.cli(["install"])).code).toBe(0);
    const settings = join(t.repo, ".claude", "settings.json");
    mkdirSync(join(t.repo, ".claude"));
    writeFileSync(settings, INLINE);
    const backups = join(t.pc.home, ".mindsave", "backups", "settings");
    const made: string[] = [];
    for (let i = 0; i < 4; i++) {
      const a = await t.json(["hooks", "install", "--project"]);
      const b = await t.json(["hooks", "uninstall", "--project"]);
      expect(a.backup.startsWith(backups)).toBe(true);
      expect(readFileSync(a.backup, "utf8")).toBe(INLINE);
      made.push(a.backup, b.backup);
    }
    expect(readdirSync(join(t.repo, ".claude"))).toEqual(["settings.json"]);
    expect(readFileSync(settings, "utf8")).toBe(INLINE);
    expect(
      readdirSync(backups)
        .filter((f) => f !== SETTINGS_LEDGER)
        .map((f) => join(backups, f))
        .sort(),
    ).toEqual(made.slice(-KEEP_SETTINGS_BACKUPS).sort());
    const text = (await t.cli(["hooks", "install", "--project"])).stdout;
    expect(text).toContain(`(backup: ${backups}`);
    expect(text).toContain("so the file can be committed");
  });

  test("on a fresh machine: hooks and skills installed then uninstalled, in either order, leave no .claude/ behind", async () => {
    for (const order of [
      ["hooks", "skill"],
      ["skill", "hooks"],
    ]) {
      const t = setup();
      expect((await t.cli(["install"])).code).toBe(0);
      const repoBefore = tree(t.repo);
      expect((await t.cli(["hooks", "install"])).code).toBe(0);
      expect((await t.cli(["hooks", "install", "--project"])).code).toBe(0);
      expect((await t.cli(["skill", "--install"])).code).toBe(0);
      expect(existsSync(join(t.pc.home, ".claude", "settings.json"))).toBe(true);
      for (const what of order)
        expect((await t.cli(what === "hooks" ? ["hooks", "uninstall"] : ["skill", "--uninstall"])).code).toBe(
          0,
        );
      expect((await t.cli(["hooks", "uninstall", "--project"])).code).toBe(0);
      expect(existsSync(join(t.pc.home, ".claude"))).toBe(false);
      expect(tree(t.repo)).toEqual(repoBefore);
    }
  });

  test("skill --install then --uninstall leaves ~/.claude exactly as it was", async () => {
    const t = setup();
    const claude = join(t.pc.home, ".claude");
    mkdirSync(join(claude, "skills", "deploy"), { recursive: true });
    writeFileSync(join(claude, "settings.json"), INLINE);
    writeFileSync(
      join(claude, "skills", "deploy", "SKILL.md"),
      "---\nname: deploy\ndescription: mine\n---\n",
    );
    const before = tree(claude);
    expect((await t.cli(["skill", "--install"])).code).toBe(0);
    expect(tree(claude)).not.toEqual(before);
    expect((await t.cli(["skill", "--uninstall"])).code).toBe(0);
    expect(tree(claude)).toEqual(before);
  });

  test("the binary's own target is what `mindsave install` copies (the hooks' first choice)", () => {
    expect(hostTarget().exe).toBe(process.platform === "win32" ? "mindsave.exe" : "mindsave");
  });
});

describe("the README's first screen", () => {
  test("in order: what it is with a TUI capture, the two commands with the test time, the drive and the agent setup in three lines each", () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const first = readme.slice(0, readme.indexOf("\n## Use it\n"));
    expect(first.split("\n").length).toBeLessThanOrEqual(50);
    const at = (s: string | RegExp) => {
      if (typeof s === "string") expect(first).toContain(s);
      else expect(first).toMatch(s);
      return typeof s === "string" ? first.indexOf(s) : first.search(s);
    };
    // The test command's line says how many tests and how long they take on 2 cores.
    const order = [
      at("save game for AI coding agents"),
      at("MindSave · shop-api · 4 snapshots"),
      at("./setup.sh"),
      at(/\(\d+ tests: ≈\d+–\d+ s on a 2-core machine/),
      at("drive init"),
      at("hooks install"),
    ];
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect([...first.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].trim().split("\n").length)).toEqual([
      2, 3, 3,
    ]);
    // The agent setup works as written on a checkout: a built binary, installed, on PATH.
    expect(first).toContain("bun run build --target host && bun src/main.ts install");
  });
});

describe("the local home made by a setup command", () => {
  test.skipIf(process.platform === "win32")(
    "mcp install and skill --install make ~/.mindsave private (0700), as a store's first save does",
    async () => {
      for (const args of [
        ["mcp", "install", "--agent", "claude", "--user"],
        ["skill", "--install"],
      ]) {
        const pc = laptop("fresh", tempDir("mindsave-seven-"));
        const r = await run(args, { cwd: pc.home, env: pc.env });
        expect(r.code).toBe(0);
        expect({
          args: args.join(" "),
          mode: (statSync(join(pc.home, ".mindsave")).mode & 0o777).toString(8),
        }).toEqual({ args: args.join(" "), mode: "700" });
      }
    },
  );
});

describe("the local home made by a first save", () => {
  test("the default home a first save makes (~/.mindsave) is the owner's alone (0700): other users on the laptop cannot read the store or its backups", async () => {
    const n = newcomer("mindsave-home-mode-");
    await ok(["save", "--goal", "private work"], { cwd: n.repo(), env: n.pc.env });
    expect(statSync(join(n.pc.home, ".mindsave")).mode & 0o777).toBe(0o700);
    expect(existsSync(join(n.pc.home, ".mindsave", "mindsave.db"))).toBe(true);
  });
});

describe("the advice when no binary is built", () => {
  test("an install from source names this host's build; a drive init, every OS's", () => {
    expect(buildAdvice("mindsave install")).toContain("`bun run build --target host` (this host's binary)");
    const drive = buildAdvice("mindsave drive init /media/usb");
    expect(drive).toContain("`bun run build` (it builds every OS)");
    expect(drive).toContain("`mindsave drive init /media/usb` again");
  });
});
