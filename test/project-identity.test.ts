// Projects are what the user means: a checkout that could be several projects says so, `projects
// attach` settles it, an export comes back into its own project, a plain folder's root is found,
// and folder paths compare as the file system does.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, gitRepo, laptop, ok, okJson, run, tempDir } from "./helpers.ts";
import { pathKey, samePath } from "../src/engine/projects/paths.ts";
import { save } from "./engine-setup.ts";

/** One home used by two hosts (as after a sync), and clones of one repository. */
function world() {
  const base = tempDir("mindsave-identity-");
  const origin = gitRepo(join(base, "origin"));
  const home = join(base, "home");
  mkdirSync(home);
  const pc = laptop("pc", base);
  const clone = (name: string) => {
    const dir = join(base, name, "shop");
    git(base, "clone", "-q", origin, dir);
    return dir;
  };
  const as = (host: string, cwd: string) => ({ cwd, env: { ...pc.env, MINDSAVE_HOST: host } });
  /** A save whose output no case reads, through the engine in this process as `host` in `cwd`. */
  const saveAs = (host: string, cwd: string, goal: string) => save({ home, ...as(host, cwd) }, { goal });
  return { base, home, clone, as, saveAs, pc };
}

describe("project identity", () => {
  test("a checkout that could be two projects says so on every command; attach settles it without renaming", async () => {
    const w = world();
    const upstream = w.clone("upstream");
    const fork = w.clone("fork");
    await w.saveAs("host-a", upstream, "upstream work");
    await w.saveAs("host-a", fork, "fork work");
    const projects = (await okJson(["projects", "--home", w.home], w.as("host-a", fork))).projects;
    expect(projects).toHaveLength(2);
    const forkProject = projects.find((p: any) => p.current);
    const upstreamProject = projects.find((p: any) => !p.current);

    // Host B, a fresh clone: both projects share its history and neither has a root here.
    const fresh = w.clone("fresh");
    for (const args of [["load", "--latest"], ["snapshots", "list"], ["failures"]]) {
      const r = await run([...args, "--home", w.home], w.as("host-b", fresh));
      expect(r.code).toBe(0);
      expect(r.stderr).toContain("could be any of 2 projects");
      expect(r.stderr).toContain(forkProject.name);
      expect(r.stderr).toContain(upstreamProject.name);
      expect(r.stderr).toContain("mindsave projects attach");
    }

    const attached = await ok(
      ["projects", "attach", forkProject.name, "--home", w.home],
      w.as("host-b", fresh),
    );
    expect(attached.stdout).toContain(`is now project ${forkProject.name}`);
    const after = await run(["load", "--latest", "--home", w.home], w.as("host-b", fresh));
    expect(after.stderr).toBe("");
    expect(after.stdout).toContain("goal: fork work");
    const names = (await okJson(["projects", "--home", w.home], w.as("host-b", fresh))).projects
      .map((p: any) => p.name)
      .sort();
    expect(names).toEqual([forkProject.name, upstreamProject.name].sort());

    // A project of another history cannot be attached: that is what link is for.
    const other = gitRepo(join(w.base, "other"), { "a.txt": "other\n" });
    await w.saveAs("host-b", other, "other work");
    const refused = await run(
      ["projects", "attach", forkProject.name, "--home", w.home],
      w.as("host-b", other),
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("projects link");
  }, 60_000);

  test("an export folder imports back into the project it came from; --into chooses another; no project.json is written", async () => {
    const w = world();
    const repo = w.clone("work");
    await w.saveAs("host-a", repo, "exported work");
    const out = join(w.base, "backup-folder");
    await ok(["export", "--out", out, "--home", w.home], w.as("host-a", repo));
    const back = await okJson(["import", out, "--home", w.home], w.as("host-a", w.base));
    const here = (await okJson(["projects", "--home", w.home], w.as("host-a", repo))).projects;
    expect(here).toHaveLength(1);
    expect(back.project.id).toBe(here[0].id);
    expect(back.snapshots.skipped).toHaveLength(1);
    expect(existsSync(join(out, ".mindsave", "project.json"))).toBe(false);

    const notes = join(w.pc.home, "notes");
    mkdirSync(notes, { recursive: true });
    await w.saveAs("host-a", notes, "notes");
    const into = await okJson(["import", out, "--into", "notes", "--home", w.home], w.as("host-a", w.base));
    expect(into.project.name).toBe("notes");
    expect(into.snapshots.imported).toHaveLength(1);
    const missing = await run(["import", out, "--into", "nope", "--home", w.home], w.as("host-a", w.base));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No project matches");
  }, 60_000);

  test("outside git, a first save from a subfolder makes the top-most folder below the home directory the workspace", async () => {
    const w = world();
    const deeper = join(w.pc.home, "Documents", "book", "part1", "chapter3");
    mkdirSync(deeper, { recursive: true });
    await w.saveAs("host-a", deeper, "draft chapter 3");
    const projects = (await okJson(["projects", "--home", w.home], w.as("host-a", deeper))).projects;
    expect(projects.map((p: any) => [p.name, p.root])).toEqual([
      ["book", join(w.pc.home, "Documents", "book")],
    ]);
    // A later save from a sibling folder lands in the same project.
    const sibling = join(w.pc.home, "Documents", "book", "part2");
    mkdirSync(sibling, { recursive: true });
    await w.saveAs("host-a", sibling, "draft part 2");
    expect((await okJson(["projects", "--home", w.home], w.as("host-a", sibling))).projects).toHaveLength(1);
  });

  test("outside git, a folder with its own project marker under a plain folder's workspace is a project of its own", async () => {
    const w = world();
    const chapter = join(w.pc.home, "notes", "book", "ch3");
    mkdirSync(chapter, { recursive: true });
    await w.saveAs("host-a", chapter, "draft chapter 3");
    const webapp = join(w.pc.home, "notes", "webapp");
    mkdirSync(webapp, { recursive: true });
    writeFileSync(join(webapp, "package.json"), "{}\n");
    await w.saveAs("host-a", webapp, "web work");
    const projects = (await okJson(["projects", "--home", w.home], w.as("host-a", webapp))).projects;
    expect(projects.map((p: any) => [p.name, p.root]).sort()).toEqual([
      ["notes", join(w.pc.home, "notes")],
      ["webapp", webapp],
    ]);
    expect((await okJson(["load", "--latest", "--home", w.home], w.as("host-a", chapter))).layer1.goal).toBe(
      "draft chapter 3",
    );
  });

  test("folder paths compare as the file system does: case-folded on Windows and macOS, exact on Linux", () => {
    expect(samePath("C:\\Code\\app", "c:/code/app/", "win32")).toBe(true);
    expect(samePath("C:\\Code\\app", "C:\\Code\\App2", "win32")).toBe(false);
    expect(samePath("\\\\server\\share\\App", "//SERVER/share/app", "win32")).toBe(true);
    expect(pathKey("C:\\", "win32")).toBe("c:/");
    expect(pathKey("C:", "win32")).toBe("c:/");
    expect(samePath("/Users/Ada/App", "/users/ada/app/", "darwin")).toBe(true);
    expect(samePath("/home/ada/App", "/home/ada/app", "linux")).toBe(false);
    expect(samePath("/home/ada/app/", "/home/ada/app", "linux")).toBe(true);
    expect(samePath("/home/ada/café", "/home/ada/cafe\u0301", "linux")).toBe(true);
  });
});
