// No project where there is none (issue 37, item 4): an agent's hooks in a folder without a project
// marker, or in the home folder itself, make no project and write nothing, in the store or in the
// folder; a person's save still works there, and the hooks act once it has.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { payloads } from "./agent-fixtures.ts";
import { claudeSessionHooks } from "./claude-hooks.ts";
import { dumpStore, gitRepo, laptop, run, sql, tempDir } from "./helpers.ts";

/** A laptop whose store holds one project (saved in a git repository), and a plain folder `notes` with a file. */
function laptopWithPlainFolder() {
  const base = tempDir("mindsave-plain-folders-");
  const pc = laptop("walker", base);
  const db = join(pc.home, ".mindsave", "mindsave.db");
  const repo = gitRepo(join(base, "shop"));
  const notes = join(pc.home, "Documents", "notes");
  mkdirSync(notes, { recursive: true });
  writeFileSync(join(notes, "draft.md"), "# 草稿\n");
  const cli = (cwd: string, args: string[], stdin?: string) => run(args, { cwd, env: pc.env, stdin });
  return { base, pc, db, repo, notes, cli };
}

type Place = ReturnType<typeof laptopWithPlainFolder>;

const claudeSession = (cwd: string) =>
  claudeSessionHooks(cwd, { prompt: "tidy these notes", file: "draft.md" });

/** Every hook of a Claude Code session and of a Codex session (its own payloads) run in `cwd`; each must be quiet. */
async function agentSessions(
  t: Place,
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }[]> {
  const out = [];
  for (const [arg, payload] of claudeSession(cwd))
    out.push(await t.cli(cwd, ["hook", arg], JSON.stringify(payload)));
  const codex = payloads("codex", cwd);
  for (const name of ["SessionStart", "UserPromptSubmit", "PostToolUse", "PreCompact", "Stop", "SessionEnd"])
    out.push(
      await t.cli(cwd, ["hook", codex[name].arg, "--agent", "codex"], JSON.stringify(codex[name].payload)),
    );
  return out;
}

const projectNames = async (db: string) =>
  (await sql(db, "SELECT name FROM projects WHERE deleted = 0 ORDER BY name")).map((r) => r.name);

describe("hooks in a folder that is no project", () => {
  test("a plain folder: Claude Code's and Codex's hooks make no project, write no .mindsave/ nor any file, leave the store exactly as it was", async () => {
    const t = laptopWithPlainFolder();
    expect((await t.cli(t.repo, ["save", "--goal", "ship the shop"])).code).toBe(0);
    const before = await dumpStore(t.db);
    for (const r of await agentSessions(t, t.notes)) expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(readdirSync(t.notes)).toEqual(["draft.md"]);
    expect(readdirSync(join(t.pc.home, "Documents"))).toEqual(["notes"]);
    expect(await dumpStore(t.db)).toBe(before);
  });

  test("the home folder itself, though a git repository (dotfiles), gets no project from a hook", async () => {
    const t = laptopWithPlainFolder();
    gitRepo(t.pc.home, { ".bashrc": "alias ll='ls -l'\n" });
    expect((await t.cli(t.repo, ["save", "--goal", "ship the shop"])).code).toBe(0);
    const before = await dumpStore(t.db);
    for (const r of await agentSessions(t, t.pc.home)) expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await dumpStore(t.db)).toBe(before);
    expect(await projectNames(t.db)).toEqual(["shop"]);
  });

  test("a person's save works in a plain folder, and from then on the hooks act there", async () => {
    const t = laptopWithPlainFolder();
    const saved = await t.cli(t.notes, ["save", "--goal", "整理笔记 tidy the notes"]);
    expect(saved.code).toBe(0);
    expect(await projectNames(t.db)).toEqual(["notes"]);
    const before = await dumpStore(t.db);
    const start = claudeSession(t.notes)[0];
    const r = await t.cli(t.notes, ["hook", start[0]], JSON.stringify(start[1]));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("整理笔记 tidy the notes");
    expect(await dumpStore(t.db)).not.toBe(before);
  });

  test("a folder with a project marker (package.json, no git) still becomes a project at an agent's first edit", async () => {
    const t = laptopWithPlainFolder();
    const app = join(t.base, "app");
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), "{}\n");
    for (const r of await agentSessions(t, app)) expect(r.code).toBe(0);
    expect(await projectNames(t.db)).toEqual(["app"]);
  });
});
