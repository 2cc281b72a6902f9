// Which project a folder belongs to: the nearest of a git repository and a workspace's .mindsave/,
// never a folder `export --out` wrote, never a folder as broad as the temp folder.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { childEnv, gitRepo, laptop, okJson, run, tempDir } from "./helpers.ts";

function setup() {
  const base = tempDir("mindsave-nearest-");
  const pc = laptop("nearest", base);
  const home = join(base, "home");
  mkdirSync(home);
  const json = (args: string[], cwd: string) => okJson([...args, "--home", home], { cwd, env: pc.env });
  return { base, pc, home, json };
}

describe("the nearest workspace wins", () => {
  test("a repository inside a plain folder someone saved in stays its own project: load and session-start restore its state", async () => {
    const t = setup();
    const parent = join(t.base, "work");
    const repo = gitRepo(join(parent, "repo"));
    const mine = (await t.json(["save", "--goal", "fix the login bug", "--state", "s", "--next", "n"], repo))
      .project.id;
    const theirs = (
      await t.json(["save", "--goal", "sort the meeting notes", "--state", "s", "--next", "n"], parent)
    ).project.id;
    expect(theirs).not.toBe(mine);
    expect(existsSync(join(parent, ".mindsave", "project.json"))).toBe(true);
    const load = await t.json(["load", "--latest"], repo);
    expect([load.project.id, load.layer1.goal]).toEqual([mine, "fix the login bug"]);
    const hook = await run(["hook", "session-start", "--home", t.home], {
      cwd: repo,
      env: t.pc.env,
      stdin: JSON.stringify({ session_id: "s1", source: "startup", cwd: repo }),
    });
    expect(hook.code).toBe(0);
    expect(hook.stdout).toContain("fix the login bug");
    expect(hook.stdout).not.toContain("sort the meeting notes");
    // A save in the repository goes on in its own project.
    expect(
      (await t.json(["save", "--goal", "fix the login bug", "--state", "tests pass", "--next", "n"], repo))
        .project.id,
    ).toBe(mine);
  });

  test("a folder `export --out` wrote is no workspace: a folder inside it is a project of its own", async () => {
    const t = setup();
    const repo = gitRepo(join(t.base, "shop"));
    await t.json(["save", "--goal", "exported work", "--state", "s", "--next", "n"], repo);
    const out = join(t.base, "backup");
    await t.json(["export", "--out", out], repo);
    const inside = join(out, "notes");
    mkdirSync(inside);
    const saved = await t.json(
      ["save", "--goal", "notes beside the backup", "--state", "s", "--next", "n"],
      inside,
    );
    expect(saved.project.name).toBe("notes");
    expect(existsSync(join(out, ".mindsave", "project.json"))).toBe(false);
  });

  test("--workspace naming the temp folder is refused, and nothing is written there", async () => {
    const t = setup();
    const temp = childEnv().TMPDIR ?? tmpdir();
    const marker = join(temp, ".mindsave");
    const had = existsSync(marker);
    try {
      const r = await run(["save", "--goal", "everything", "--workspace", temp, "--home", t.home], {
        cwd: t.base,
        env: t.pc.env,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("holds too many unrelated folders to be a project");
      expect(existsSync(marker)).toBe(had);
    } finally {
      if (!had) rmSync(marker, { recursive: true, force: true });
    }
  });
});

describe("a project reached through a symlink", () => {
  test("a file named by the linked path is stored relative to the project (one that is not there yet too)", async () => {
    const { symlinkSync } = await import("node:fs");
    const t = setup();
    const repo = gitRepo(join(t.base, "real", "shop"));
    const link = join(t.base, "linked-shop");
    symlinkSync(repo, link);
    await t.json(
      [
        "save",
        "--goal",
        "through the link",
        "--state",
        "s",
        "--next",
        "n",
        "--active-file",
        join(link, "src", "auth.ts"),
        "--active-file",
        join(link, "notes", "draft.md"),
      ],
      link,
    );
    const shown = await t.json(["snapshots", "show"], repo);
    expect(shown.active_files.map((f: { path: string }) => f.path)).toEqual([
      "src/auth.ts",
      "notes/draft.md",
    ]);
    expect((await t.json(["load", "--latest"], repo)).outside_project).toEqual([]);
  });
});

describe("--in", () => {
  test("files named with --in are stored relative to that project's root here, as without it", async () => {
    const t = setup();
    const repo = gitRepo(join(t.base, "shop"));
    const id = (await t.json(["save", "--goal", "first", "--state", "s", "--next", "n"], repo)).project.id;
    await t.json(
      [
        "--in",
        id,
        "save",
        "--goal",
        "named project",
        "--state",
        "s",
        "--next",
        "n",
        "--active-file",
        "auth.ts",
        "--active-file",
        join(repo, "README.md"),
      ],
      join(repo, "src"),
    );
    const shown = await t.json(["snapshots", "show"], repo);
    expect(shown.goal).toBe("named project");
    expect(shown.active_files.map((f: { path: string }) => f.path)).toEqual(["src/auth.ts", "README.md"]);
  });
});

describe("a file that is not there yet", () => {
  test("saved from a subfolder, the warning says which root its path is taken from", async () => {
    const t = setup();
    const repo = gitRepo(join(t.base, "shop"));
    const r = await run(
      [
        "save",
        "--goal",
        "draft",
        "--state",
        "s",
        "--next",
        "n",
        "--active-file",
        "draft.md",
        "--home",
        t.home,
      ],
      { cwd: join(repo, "src"), env: t.pc.env },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `Active file(s) not found on this host (saved by path only, from the project root ${repo}): draft.md.`,
    );
  });
});
