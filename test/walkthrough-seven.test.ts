// Defects a seventh new-user walkthrough found (stop 29): each through the real CLI.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { laptop, projectOnLaptop, run, sql, tempDir } from "./helpers.ts";

/** A plain folder (no git, no .mindsave/) on a laptop whose home already holds a store. */
function plainFolder() {
  const base = tempDir("mindsave-seven-");
  const pc = laptop("walker", base);
  const home = join(base, "home");
  mkdirSync(home);
  const other = join(base, "other");
  mkdirSync(other);
  const dir = join(base, "app");
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "package.json"), "{}\n");
  writeFileSync(join(dir, "src", "auth.ts"), "x\n");
  const cli = (args: string[], o: { cwd?: string; stdin?: string } = {}) => run([...args, "--home", home], { cwd: o.cwd ?? dir, env: pc.env, stdin: o.stdin });
  return { base, home, db: join(home, "mindsave.db"), dir, other, cli };
}

describe("a session in a folder that is no project yet (Cline, no transcript)", () => {
  test("its first task is kept until a save makes the project: the snapshots restore that task, not an unknown goal nor the last \"thanks, done\"", async () => {
    const t = plainFolder();
    expect((await t.cli(["save", "--goal", "elsewhere"], { cwd: t.other })).code).toBe(0);
    const base = { taskId: "ct", workspaceRoots: [t.dir], model: { slug: "m" } };
    const hook = (arg: string, payload: Record<string, unknown>) => t.cli(["hook", arg, "--agent", "cline"], { stdin: JSON.stringify({ ...base, ...payload }) });
    const start = await hook("session-start", { hookName: "TaskStart", taskStart: { taskMetadata: { taskId: "ct", initialTask: "Fix the login bug in auth.ts" } } });
    expect([start.code, start.stderr]).toEqual([0, ""]);
    // Nothing is written into the folder for a session that has not saved yet.
    expect(existsSync(join(t.dir, ".mindsave"))).toBe(false);
    for (let i = 0; i < 11; i++) {
      expect((await hook("post-tool-use", { hookName: "PostToolUse", postToolUse: { toolName: "replace_in_file", parameters: { path: "src/auth.ts" }, success: true } })).code).toBe(0);
    }
    expect((await hook("user-prompt-submit", { hookName: "UserPromptSubmit", userPromptSubmit: { prompt: "thanks, done" } })).code).toBe(0);
    const goals = (await sql(t.db, "SELECT s.goal FROM snapshots s JOIN projects p ON p.id = s.project_id WHERE s.deleted = 0 AND p.name = 'app'")).map((r) => r.goal);
    expect(goals.length).toBeGreaterThan(0);
    expect(new Set(goals)).toEqual(new Set(["Fix the login bug in auth.ts"]));
    // The waiting trail went into the project's note once the project was there.
    expect(await sql(t.db, "SELECT value FROM meta WHERE key = 'pending_trails'")).toEqual([{ value: "{}" }]);
  });
});

describe("a command that fails writes nothing into the working tree", () => {
  test("fail without a reason, fact with a bad --ttl, an over-long rule: exit 1 and no .mindsave/project.json in a plain folder; a command that succeeds then writes it", async () => {
    const t = plainFolder();
    for (const args of [["fail", "thing"], ["fact", "f", "--ttl", "bad"], ["rules", "add", "x".repeat(5000)]]) {
      const r = await t.cli(args);
      expect({ args: args[0], code: r.code }).toEqual({ args: args[0], code: 1 });
      expect(r.stderr).toMatch(/^mindsave: .+\n$/);
      expect(readdirSync(t.dir).sort()).toEqual(["package.json", "src"]);
    }
    expect((await t.cli(["fail", "thing", "--reason", "too slow"])).code).toBe(0);
    expect(existsSync(join(t.dir, ".mindsave", "project.json"))).toBe(true);
  });

  test("a fact with a bad --ttl or --confidence on a fresh home starts no store", async () => {
    const t = plainFolder();
    for (const args of [["fact", "f", "--ttl", "bad"], ["fact", "f", "--confidence", "sure"]]) {
      expect((await t.cli(args)).code).toBe(1);
      expect(readdirSync(t.home)).toEqual([]);
    }
  });

  test("a .mindsave/ that was there before is left, with what else it holds", async () => {
    const t = plainFolder();
    mkdirSync(join(t.dir, ".mindsave"));
    writeFileSync(join(t.dir, ".mindsave", "notes.md"), "mine\n");
    expect((await t.cli(["fail", "thing"])).code).toBe(1);
    expect(readdirSync(join(t.dir, ".mindsave"))).toEqual(["notes.md"]);
  });
});

describe("a hook whose cwd cannot be a project", () => {
  test("a folder that does not exist is not made, and the MindSave home itself is no project: exit 0, nothing written there", async () => {
    const t = plainFolder();
    expect((await t.cli(["save", "--goal", "elsewhere"], { cwd: t.other })).code).toBe(0);
    const gone = join(t.base, "removed-worktree", "y");
    for (const arg of ["post-tool-use", "stop", "pre-compact", "session-end"]) {
      const r = await t.cli(["hook", arg], { stdin: JSON.stringify({ session_id: "q", cwd: gone, tool_name: "Bash", transcript_path: join(t.base, "none.jsonl") }), cwd: t.other });
      expect(r.code).toBe(0);
    }
    expect(existsSync(join(t.base, "removed-worktree"))).toBe(false);
    const inHome = await t.cli(["hook", "post-tool-use"], { stdin: JSON.stringify({ session_id: "q", cwd: t.home, tool_name: "Bash" }), cwd: t.other });
    expect(inHome.code).toBe(0);
    expect(existsSync(join(t.home, ".mindsave"))).toBe(false);
    expect((await sql(t.db, "SELECT name FROM projects WHERE deleted = 0")).map((r) => r.name)).toEqual(["other"]);
  });
});

describe("the local home made by a setup command", () => {
  test.skipIf(process.platform === "win32")("mcp install and skill --install make ~/.mindsave private (0700), as a store's first save does", async () => {
    for (const args of [["mcp", "install", "--agent", "claude", "--user"], ["skill", "--install"]]) {
      const pc = laptop("fresh", tempDir("mindsave-seven-"));
      const r = await run(args, { cwd: pc.home, env: pc.env });
      expect(r.code).toBe(0);
      expect({ args: args.join(" "), mode: (statSync(join(pc.home, ".mindsave")).mode & 0o777).toString(8) }).toEqual({ args: args.join(" "), mode: "700" });
    }
  });
});

describe("doctor --repair on an encrypted store whose key file is missing", () => {
  test("says to put the key file back first (a backup is the plain store from before the encryption), and changes nothing", async () => {
    const t = plainFolder();
    const pass = { MINDSAVE_PASSPHRASE: "pass-one-1" };
    const withPass = (args: string[]) => run([...args, "--home", t.home], { cwd: t.other, env: { ...laptop("walker", t.base).env, ...pass } });
    expect((await withPass(["save", "--goal", "before"])).code).toBe(0);
    expect((await withPass(["encrypt"])).code).toBe(0);
    expect((await withPass(["save", "--goal", "after the encryption"])).code).toBe(0);
    const key = `${t.db}.key.json`;
    renameSync(key, `${key}.away`);
    const bytes = readFileSync(t.db);
    const listing = readdirSync(t.home).sort();
    const r = await withPass(["doctor", "--repair"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^mindsave: .* if it was encrypted, put its key file mindsave\.db\.key\.json back beside it \(a backup lacks everything saved after it was made\), else restore the newest backup .*\.\n$/);
    expect(readFileSync(t.db).equals(bytes)).toBe(true);
    expect(readdirSync(t.home).sort()).toEqual(listing);
  });
});

describe("a constraint or decision that a list item would read as no text", () => {
  test("is quoted in the restore block as Layer 1 values are (- \"null\", - \"~\"); others stay as written", async () => {
    const t = projectOnLaptop("mindsave-seven-");
    await t.okCli(["save", "--goal", "g", "--constraint", "null", "--constraint", "yes, always", "--decision", "~", "--decision", "keep it"]);
    const block = (await t.okCli(["load", "--latest"])).stdout;
    expect(block).toContain('\n- "null"\n- yes, always\n');
    expect(block).toContain('\n- "~"\n- keep it\n');
  });
});

describe("a message that repeats a long value", () => {
  test("keeps its start and says how long it was: a 5,000-character snapshot id is not echoed back whole", async () => {
    const t = projectOnLaptop("mindsave-seven-");
    await t.okCli(["save", "--goal", "g"]);
    const r = await t.cli(["load", "é".repeat(5000)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`mindsave: No snapshot "${"é".repeat(99)}…" (5000 characters) in this project; see \`mindsave snapshots list\`.\n`);
  });
});

describe("bidirectional overrides in a list", () => {
  test("snapshots list and recall show no U+202E (the rest of the line would read reversed); load --json keeps the text exactly", async () => {
    const t = projectOnLaptop("mindsave-seven-");
    const goal = "pay \u202Eelbuod\u202C invoices \u2067x\u2069";
    await t.okCli(["save", "--goal", goal, "--state", "s"]);
    const list = (await t.okCli(["snapshots", "list"])).stdout;
    expect(list).toContain("pay elbuod invoices x");
    const recall = (await t.okCli(["recall", "invoices"])).stdout;
    expect(recall).toContain("pay elbuod invoices x");
    for (const out of [list, recall]) expect(out).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect((await t.json(["load", "--latest"])).layer1.goal).toBe(goal);
  });
});

describe("a constraint of several lines", () => {
  test("keeps its first line's indentation (only the blank space around it goes), through load --json, export and import", async () => {
    const t = projectOnLaptop("mindsave-seven-");
    const code = "  if (user) {\n    return token;\n  }";
    await t.okCli(["save", "--goal", "g", "--constraint", `\n${code}\n\n`, "--decision", "  one line  "]);
    const loaded = await t.json(["load", "--latest"]);
    expect(loaded.layer2.constraints).toEqual([code]);
    expect(loaded.layer2.decisions).toEqual(["one line"]);
    const out = join(t.base, "out");
    await t.okCli(["export", "--out", out]);
    const other = projectOnLaptop("mindsave-seven-");
    await other.okCli(["import", out]);
    expect((await other.json(["load", "--latest"])).layer2.constraints).toEqual([code]);
  });
});

describe("control characters in what is saved", () => {
  test("are taken out with a warning that says how many, by flags and by YAML on stdin", async () => {
    const t = projectOnLaptop("mindsave-seven-");
    const byFlag = await t.okCli(["save", "--goal", "bel\u0007inside", "--blocker", "a\u0001b"]);
    expect(byFlag.stderr).toContain("warning: Took out 2 control characters (NUL, ESC and the like");
    expect((await t.json(["load", "--latest"])).layer1.goal).toBe("belinside");
    const byYaml = await t.okCli(["save"], { stdin: "goal: \"esc\\e[31m red\"\nstate: s\n" });
    expect(byYaml.stderr).toContain("warning: Took out 1 control character (NUL");
    const clean = await t.okCli(["save", "--goal", "plain\ttab"]);
    expect(clean.stderr).not.toContain("control character");
  });
});

describe("doctor after encrypt", () => {
  test("names the backup that is the store from before the encryption, not encrypted, and says to delete it once not needed", async () => {
    const t = plainFolder();
    const env = { ...laptop("walker", t.base).env, MINDSAVE_PASSPHRASE: "pass-one-1" };
    const cli = (args: string[]) => run([...args, "--home", t.home], { cwd: t.other, env });
    expect((await cli(["save", "--goal", "before"])).code).toBe(0);
    expect((await cli(["encrypt"])).code).toBe(0);
    const r = await cli(["doctor"]);
    expect(r.stdout).toMatch(/\n {11}\S*mindsave\.db\.bak-\S+ is not encrypted: what was saved before `encrypt`, readable by anyone with the file; delete it once you no longer need it\n/);
    expect((await run(["--json", "doctor", "--home", t.home], { cwd: t.other, env })).stdout).toContain('"plain_backups": [');
  });
});

describe("import of many snapshots with the same warning", () => {
  test("says it once with how many files it was; --json keeps each", async () => {
    const t = projectOnLaptop("mindsave-seven-");
    for (let i = 0; i < 5; i++) await t.okCli(["save", "--goal", `step ${i}`, "--topic", `step-${i}`, "--active-file", "src/gone.ts"]);
    const out = join(t.base, "out");
    await t.okCli(["export", "--out", out]);
    const other = projectOnLaptop("mindsave-seven-");
    const r = await other.okCli(["import", out]);
    const lines = r.stderr.split("\n").filter((l) => l.includes("Active file(s) not found"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^mindsave: warning: snapshots\/\S+\.md and 4 other snapshot files: Active file\(s\) not found on this host \(saved by path only, from the project root \S+\): src\/gone\.ts\.$/);
  });
});

describe("an export imported into a home that never met the laptop that saved it", () => {
  test("the restore block names that laptop, not its id", async () => {
    const t = projectOnLaptop("mindsave-seven-");
    await t.okCli(["save", "--goal", "g", "--state", "s", "--next", "n"]);
    const out = join(t.base, "out");
    await t.okCli(["export", "--out", out]);
    const other = projectOnLaptop("mindsave-seven-");
    await other.okCli(["import", out]);
    const block = (await other.okCli(["load", "--latest"])).stdout;
    expect(block).toMatch(/\nsaved .* on walker · status in_progress/);
    expect(block).not.toMatch(/ on h-/);
  });
});

describe("snapshots list outside any project", () => {
  test("says where to go, as load and recall do (--in with this store's projects)", async () => {
    const t = plainFolder();
    expect((await t.cli(["save", "--goal", "elsewhere"], { cwd: t.other })).code).toBe(0);
    for (const args of [["snapshots", "list"], ["load"]]) {
      const r = await t.cli(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("pick a project of this store with `--in NAME` (other; `mindsave projects` lists them)");
    }
  });
});
