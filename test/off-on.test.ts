// `mindsave off` and `mindsave on` (issue 37, item 3): off, an agent's hooks save and restore
// nothing (Claude Code's and Codex's, with their own payloads), the MCP tools answer with a line
// saying so, a person's commands still work and doctor says it; a project's switch syncs to the
// other laptop, `--global` is this host's alone.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { payloads } from "./agent-fixtures.ts";
import { claudeSessionHooks } from "./claude-hooks.ts";
import { callTool, withMcp } from "./mcp-client.ts";
import { dumpStore, gitRepo, run, sql, twoLaptops, type LaptopWithClone, type RunResult } from "./helpers.ts";
import { atPlace, inClone, save, syncAt } from "./engine-setup.ts";
import { switchMindSave } from "../src/engine/projects/off.ts";

const GOAL = "把登录改成 JWT: move login to JWT";

/** A Claude Code session in `cwd` (start, a prompt, an edit, a compaction, a stop, the end). */
const claudeHooks = (cwd: string) =>
  claudeSessionHooks(cwd, { prompt: "add the JWT expiry check", file: "src/auth.ts" });

// Where the switch itself is not what a test checks (its sync, its scope, a plain folder), a hook
// that restores and one that saves stand for all: a hook reads the switch before its event's own
// flow (runHook). The first test runs every hook of both agents.
const FEW_CLAUDE = ["session-start", "pre-compact"];
const FEW_CODEX = ["SessionStart"];
const CODEX_EVENTS = ["SessionStart", "UserPromptSubmit", "PostToolUse", "PreCompact", "Stop"];

/** Each hook of a Claude Code session and of a Codex session (its fixture payloads) on laptop `pc` in `cwd`. */
async function agentHooks(pc: LaptopWithClone, cwd = pc.repo, few = false): Promise<RunResult[]> {
  const hook = (args: string[], payload: unknown) =>
    run([...args, "--home", pc.home], { cwd, env: pc.env, stdin: JSON.stringify(payload) });
  const out: RunResult[] = [];
  const claude = claudeHooks(cwd).filter(([arg]) => !few || FEW_CLAUDE.includes(arg));
  for (const [arg, payload] of claude) out.push(await hook(["hook", arg], payload));
  const codex = payloads("codex", cwd);
  for (const name of few ? FEW_CODEX : CODEX_EVENTS)
    out.push(await hook(["hook", codex[name].arg, "--agent", "codex"], codex[name].payload));
  return out;
}

/** A Claude Code start and compaction and a Codex start on laptop `pc` in `cwd`. */
const someHooks = (pc: LaptopWithClone, cwd = pc.repo) => agentHooks(pc, cwd, true);

/** `mindsave off` (or `on`) in `pc`'s clone, where the switch only sets up what the test checks. */
const switchAt = (pc: LaptopWithClone, off: boolean) =>
  atPlace(inClone(pc), (s) => switchMindSave(s, { off }));

const sessionStart = (pc: LaptopWithClone, cwd = pc.repo) =>
  run(["hook", "session-start", "--home", pc.home], {
    cwd,
    env: pc.env,
    stdin: JSON.stringify(claudeHooks(cwd)[0][1]),
  });

describe("mindsave off / on in a project", () => {
  test("off: Claude Code's and Codex's hooks are quiet and the store stays exactly as it was; a person's save and load still work; on: restored again", async () => {
    const { a } = twoLaptops("mindsave-off-");
    await save(inClone(a), { goal: GOAL });
    expect((await sessionStart(a)).stdout).toContain(GOAL);
    const off = await a.cli(["off"]);
    expect(off).toMatchObject({ code: 0, stderr: "" });
    expect(off.stdout).toContain("MindSave is off in project shop");
    const before = await dumpStore(a.db);
    for (const r of await agentHooks(a)) expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await dumpStore(a.db)).toBe(before);
    // Again: the switch is left as it is, nothing written.
    expect((await a.cli(["off"])).stdout).toContain("already off");
    expect(await dumpStore(a.db)).toBe(before);
    const doctor = await a.json(["doctor"]);
    expect(doctor.off).toMatchObject({ project: true, host: false });
    expect((await a.cli(["doctor"])).stdout).toContain("switch:    MindSave is off in this project");
    expect((await a.cli(["save", "--goal", "a person's own save"])).code).toBe(0);
    const loaded = await a.cli(["load", "--latest"]);
    expect(loaded.stdout).toContain("a person's own save");
    // The time as every other line gives one: to the minute, UTC.
    expect(loaded.stderr).toMatch(/MindSave is off in this project since \d{4}-\d\d-\d\d \d\d:\d\d UTC: /);
    expect((await a.cli(["on"])).stdout).toContain("MindSave is on in project shop again");
    expect((await sessionStart(a)).stdout).toContain("a person's own save");
    expect((await a.json(["doctor"])).off).toMatchObject({ project: false, host: false, sentence: null });
  });

  test("signal while it is off says first that hooks measure nothing, signal's and load's --json off: true; once on, the spec's signal.json again", async () => {
    const { a } = twoLaptops("mindsave-off-signal-");
    await save(inClone(a), { goal: GOAL });
    await switchAt(a, true);
    const text = await a.cli(["signal"]);
    expect(text.code).toBe(0);
    const [first, second] = text.stdout.split("\n");
    expect(first).toMatch(
      /^MindSave is off in this project since \d{4}-\d\d-\d\d \d\d:\d\d UTC: hooks measure, save and restore nothing \(`mindsave on` turns it back on\)\.$/,
    );
    expect(second).toMatch(/^Pressure GREEN /);
    const json = await a.json(["signal"]);
    expect(json).toMatchObject({ off: true, pressure_state: "GREEN" });
    expect(json.off_note).toBe(first);
    // load --json says it as load's text does (on stderr there).
    expect(await a.json(["load", "--latest"])).toMatchObject({ off: true, layer1: { goal: GOAL } });
    await switchAt(a, false);
    const on = await a.json(["signal"]);
    expect(on).not.toHaveProperty("off");
    expect(on).not.toHaveProperty("off_note");
  });

  test("MCP tools still answer while it is off, with a line saying so; none once it is on", async () => {
    const { a } = twoLaptops("mindsave-off-mcp-");
    await save(inClone(a), { goal: GOAL });
    await switchAt(a, true);
    const offLine = "MindSave is off in this project";
    await withMcp(a.home, a.repo, a.env, async (c) => {
      const load = await callTool(c, "load", {});
      expect(load.isError).toBeFalsy();
      const text = load.content.map((x) => x.text).join("\n");
      expect(text).toContain(GOAL);
      expect(text).toContain(offLine);
      const failed = await callTool(c, "fail", { item: "session cookies", reason: "security review" });
      expect(failed.isError).toBeFalsy();
      expect(failed.content.map((x) => x.text).join("\n")).toContain(offLine);
    });
    await switchAt(a, false);
    await withMcp(a.home, a.repo, a.env, async (c) => {
      const load = await callTool(c, "load", {});
      expect(load.content.map((x) => x.text).join("\n")).not.toContain("MindSave is off");
    });
  });
});

describe("what syncs", () => {
  test("a project's off syncs to the other laptop (its hooks there are quiet); on syncs back", async () => {
    const w = twoLaptops("mindsave-off-sync-");
    await save(inClone(w.a), { goal: GOAL });
    await switchAt(w.a, true);
    for (const pc of [w.a, w.b]) await syncAt(inClone(pc), w.drive);
    expect((await w.b.json(["doctor"])).off).toMatchObject({ project: true, host: false });
    const before = await dumpStore(w.b.db);
    for (const r of await someHooks(w.b)) expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await dumpStore(w.b.db)).toBe(before);
    await switchAt(w.b, false);
    for (const pc of [w.b, w.a]) await syncAt(inClone(pc), w.drive);
    expect((await sessionStart(w.a)).stdout).toContain(GOAL);
  });

  test("off --global: every project on this host is quiet, another host is not; on --global ends it", async () => {
    const w = twoLaptops("mindsave-off-global-");
    const other = gitRepo(join(w.base, "laptop-a-work", "blog"));
    await save(inClone(w.a), { goal: GOAL });
    await save({ ...inClone(w.a), cwd: other }, { goal: "写博客 write the blog" });
    const off = await w.a.cli(["off", "--global"]);
    expect(off.stdout).toContain("MindSave is off for every project on this host (laptop-a)");
    for (const pc of [w.a, w.b]) await syncAt(inClone(pc), w.drive);
    const before = await dumpStore(w.a.db);
    for (const cwd of [w.a.repo, other])
      for (const r of await someHooks(w.a, cwd)) expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await dumpStore(w.a.db)).toBe(before);
    expect((await w.a.json(["doctor"])).off).toMatchObject({ project: false, host: true });
    // Laptop B has the row (it syncs) but it is laptop A's: B's hooks restore as usual.
    expect((await w.b.json(["doctor"])).off).toMatchObject({ project: false, host: false });
    expect((await sessionStart(w.b)).stdout).toContain(GOAL);
    expect((await w.a.cli(["on", "--global"])).stdout).toContain(
      "MindSave is on for every project on this host",
    );
    expect((await sessionStart(w.a, other)).stdout).toContain("写博客 write the blog");
  });
});

describe("on in a plain folder", () => {
  test("a folder without a project marker becomes a project by `mindsave on`, and the hooks act there from then on", async () => {
    const w = twoLaptops("mindsave-on-plain-");
    const notes = join(w.a.pc.home, "notes");
    mkdirSync(notes);
    const hooksThere = () => someHooks(w.a, notes);
    await save(inClone(w.a), { goal: GOAL });
    const before = await dumpStore(w.a.db);
    for (const r of await hooksThere()) expect(r.stdout).toBe("");
    expect(await dumpStore(w.a.db)).toBe(before);
    expect(readdirSync(notes)).toEqual([]);
    const on = await run(["on", "--home", w.a.home], { cwd: notes, env: w.a.env });
    expect(on).toMatchObject({ code: 0, stderr: "" });
    expect(on.stdout).toContain("Made project notes here: MindSave is on in it");
    const names = (await sql(w.a.db, "SELECT name FROM projects WHERE deleted = 0 ORDER BY name")).map(
      (r) => r.name,
    );
    expect(names).toEqual(["notes", "shop"]);
    const afterOn = await dumpStore(w.a.db);
    for (const r of await hooksThere()) expect(r.code).toBe(0);
    expect(await dumpStore(w.a.db)).not.toBe(afterOn);
  });
});
