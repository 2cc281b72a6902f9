// A checkout's identity (its root commit) without running git when the HEAD commit was seen
// before (src/engine/projects/git-roots.ts): HEAD read from git's files must be git's own HEAD in
// every layout, anything unusual must go to git, and the CLI must keep asking git only once per
// new HEAD. Real repositories, real git.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { headCommit, rootCommitsOf } from "../src/engine/projects/git-roots.ts";
import { gitCommonDir, gitRootCommits } from "../src/engine/projects/workspace.ts";
import { git, gitProbePath, gitRepo, laptop, ok, okJson, run, tempDir, type Laptop } from "./helpers.ts";
import { save, type Place } from "./engine-setup.ts";

const head = (root: string) => headCommit(root, gitCommonDir(root)!);

// Saves whose output no case reads run through the engine in this process (with the real git),
// where the CLI's own asking of git is not what is checked.
const saved = (place: Place, goal: string) => save(place, { goal, state: "s", next: "n" });

/** In `cwd` on the default home (~/.mindsave: a CLI run without --home), made as the CLI makes it. */
function atDefaultHome(pc: Laptop, cwd: string): Place {
  const home = join(pc.home, ".mindsave");
  mkdirSync(home, { recursive: true, mode: 0o700 });
  return { home, cwd, env: pc.env };
}

describe("HEAD read from git's files", () => {
  test("is git's HEAD: loose ref, packed ref, a loose ref newer than its packed one, detached, a worktree", () => {
    const repo = gitRepo(join(tempDir(), "repo"));
    expect(head(repo)).toBe(git(repo, "rev-parse", "HEAD"));
    git(repo, "pack-refs", "--all");
    expect(existsSync(join(repo, ".git", "refs", "heads", "main"))).toBe(false);
    expect(head(repo)).toBe(git(repo, "rev-parse", "HEAD"));
    writeFileSync(join(repo, "b.txt"), "b\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "second");
    // The new commit is a loose ref again, while packed-refs still names the first.
    expect(readFileSync(join(repo, ".git", "packed-refs"), "utf8")).toContain("refs/heads/main");
    expect(head(repo)).toBe(git(repo, "rev-parse", "HEAD"));
    git(repo, "checkout", "-q", "--detach", "HEAD~1");
    expect(head(repo)).toBe(git(repo, "rev-parse", "HEAD"));
    const wt = join(tempDir(), "wt");
    git(repo, "worktree", "add", "-q", "-b", "side", wt, "main");
    expect(head(wt)).toBe(git(wt, "rev-parse", "HEAD"));
    expect(head(wt)).not.toBe(head(repo));
  });

  test("unusual layouts go to git: no commit yet, a shallow clone, replaced history", () => {
    const empty = join(tempDir(), "empty");
    mkdirSync(empty);
    git(empty, "init", "-q", "-b", "main");
    expect(head(empty)).toBeNull();
    const origin = gitRepo(join(tempDir(), "origin"));
    const shallow = join(tempDir(), "shallow");
    git(origin, "clone", "-q", "--depth", "1", `file://${origin}`, shallow);
    expect(existsSync(join(shallow, ".git", "shallow"))).toBe(true);
    expect(head(shallow)).toBeNull();
    const replaced = gitRepo(join(tempDir(), "replaced"));
    git(
      replaced,
      "replace",
      git(replaced, "rev-parse", "HEAD"),
      git(replaced, "rev-parse", "HEAD"),
      "--force",
    );
    expect(head(replaced)).toBeNull();
  });
});

describe("the root commit remembered by HEAD commit", () => {
  test("git is asked once per HEAD commit; the answer is git's; without the home folder nothing is kept", () => {
    const repo = gitRepo(join(tempDir(), "repo"));
    const home = tempDir();
    let asked = 0;
    const ask = () => (asked++, gitRootCommits(repo));
    const common = gitCommonDir(repo);
    const first = rootCommitsOf(repo, common, home, ask);
    expect(first).toEqual([git(repo, "rev-list", "--max-parents=0", "HEAD")]);
    expect(rootCommitsOf(repo, common, home, ask)).toEqual(first!);
    expect(asked).toBe(1);
    expect(JSON.parse(readFileSync(join(home, "git-roots.json"), "utf8"))).toEqual({
      [git(repo, "rev-parse", "HEAD")]: first,
    });
    writeFileSync(join(repo, "c.txt"), "c\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "next");
    expect(rootCommitsOf(repo, common, home, ask)).toEqual(first!);
    expect(asked).toBe(2);
    const gone = join(tempDir(), "no-such-home");
    expect(rootCommitsOf(repo, common, gone, ask)).toEqual(first!);
    expect(asked).toBe(3);
    expect(existsSync(gone)).toBe(false);
  });

  test("through the CLI: a new checkout asks git once, later commands in it never", async () => {
    // A `git` first on PATH that notes every rev-list, then runs the real one.
    const log = join(tempDir(), "rev-list.log");
    const pc = laptop("git-roots");
    const repo = gitRepo(join(tempDir(), "repo"));
    const opts = {
      cwd: repo,
      env: { ...pc.env, PATH: gitProbePath(`case "$*" in *rev-list*) echo x >> "${log}";; esac`) },
    };
    const asked = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).length : 0);
    await ok(["save", "--goal", "remembered root", "--state", "s", "--next", "n"], opts);
    expect(asked()).toBe(1);
    for (const args of [["load"], ["snapshots", "list"], ["projects"]]) await ok(args, opts);
    expect(asked()).toBe(1);
    expect(readdirSync(join(pc.home, ".mindsave"))).toContain("git-roots.json");
  });

  test("after commits, git walks only the new ones: the roots come from the remembered earlier HEAD plus what the new commits reach; never across a reset", async () => {
    const log = join(tempDir(), "git.log");
    const pc = laptop("git-roots-since");
    const repo = gitRepo(join(tempDir(), "repo"));
    const opts = {
      cwd: repo,
      env: {
        ...pc.env,
        PATH: gitProbePath(`case "$*" in *rev-list*|*merge-base*) printf '%s\\n' "$*" >> "${log}";; esac`),
      },
    };
    const calls = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []);
    const remembered = () => JSON.parse(readFileSync(join(pc.home, ".mindsave", "git-roots.json"), "utf8"));
    const realRoots = () => git(repo, "rev-list", "--max-parents=0", "HEAD").split("\n").sort();
    await ok(["save", "--goal", "history walked once", "--state", "s", "--next", "n"], opts);
    const first = git(repo, "rev-parse", "HEAD");
    expect(calls().filter((c) => c.includes("rev-list"))).toHaveLength(1);
    // Two commits, then another history merged in (a second root, reached only by the new commits).
    git(repo, "commit", "-q", "--allow-empty", "-m", "two");
    git(repo, "checkout", "-q", "--orphan", "vendored");
    git(repo, "commit", "-q", "--allow-empty", "-m", "vendored root");
    git(repo, "checkout", "-q", "main");
    git(repo, "merge", "-q", "--allow-unrelated-histories", "-m", "merge vendored", "vendored");
    const before = calls().length;
    await ok(["load"], opts);
    const merged = git(repo, "rev-parse", "HEAD");
    expect(calls().slice(before)).toEqual([
      `-C ${repo} merge-base --is-ancestor ${first} HEAD`,
      `-C ${repo} rev-list --max-parents=0 HEAD ^${first}`,
    ]);
    expect(realRoots()).toHaveLength(2);
    expect(remembered()[merged]).toEqual(realRoots());
    // A checkout of another history: the remembered HEAD is no ancestor, so the whole history is asked.
    git(repo, "checkout", "-q", "vendored");
    git(repo, "commit", "-q", "--allow-empty", "-m", "on vendored");
    const was = calls().length;
    const r = await run(["load"], opts);
    expect(r.stderr).not.toContain("internal error");
    expect(calls().slice(was)).toContain(`-C ${repo} rev-list --max-parents=0 HEAD`);
    expect(remembered()[git(repo, "rev-parse", "HEAD")]).toEqual(realRoots());
    expect(realRoots()).toHaveLength(1);
  });

  test("a git too slow to name the root commit never gives the checkout a project.json (a second project split from its history)", async () => {
    const pc = laptop("slow-git");
    const repo = gitRepo(join(tempDir(), "repo"));
    await saved(atDefaultHome(pc, repo), "known by its history");
    git(repo, "commit", "-q", "--allow-empty", "-m", "new HEAD: git is asked again");
    // rev-list outlives MindSave's wait for git.
    const slow = {
      cwd: repo,
      env: { ...pc.env, PATH: gitProbePath(`case "$*" in *rev-list*) exec sleep 60;; esac`) },
    };
    const r = await run(["hook", "post-tool-use"], {
      ...slow,
      stdin: JSON.stringify({ session_id: "s", cwd: repo, tool_name: "Bash", tool_input: { command: "ls" } }),
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(repo);
    expect(existsSync(join(repo, ".mindsave"))).toBe(false);
    expect((await okJson(["projects"], { cwd: repo, env: pc.env })).projects).toHaveLength(1);
  }, 30_000);
});

describe("a checkout with several root commits", () => {
  test("merging another history whose root sorts first keeps the project: its snapshots load and new ones join them", async () => {
    const pc = laptop("merged-roots");
    const repo = gitRepo(join(tempDir(), "repo"));
    const opts = { cwd: repo, env: pc.env };
    await saved(atDefaultHome(pc, repo), "before the merge");
    const original = git(repo, "rev-list", "--max-parents=0", "HEAD");
    // Another history whose root commit sorts before this one's (found by trying commit messages:
    // the dates are pinned, so the same one every run).
    git(repo, "checkout", "-q", "--orphan", "vendored");
    let other = "";
    for (let i = 0; i < 64 && !(other && other < original); i++) {
      git(repo, "commit", "-q", "--allow-empty", "-m", `vendored history ${i}`);
      other = git(repo, "rev-parse", "HEAD");
      if (other > original) git(repo, "update-ref", "-d", "refs/heads/vendored");
    }
    expect(other < original).toBe(true);
    git(repo, "checkout", "-q", "main");
    git(repo, "merge", "-q", "--allow-unrelated-histories", "-m", "merge vendored", "vendored");
    expect(git(repo, "rev-list", "--max-parents=0", "HEAD").split("\n").sort()).toEqual(
      [other, original].sort(),
    );
    expect((await ok(["load"], opts)).stdout).toContain("goal: before the merge");
    await saved(atDefaultHome(pc, repo), "after the merge");
    const list = await okJson(["snapshots", "list", "--json"], opts);
    expect(list.snapshots.map((x: { goal: string }) => x.goal).sort()).toEqual([
      "after the merge",
      "before the merge",
    ]);
    expect((await okJson(["projects", "list", "--json"], opts)).projects).toHaveLength(1);
  });
});

/** A repository of three commits, so a clone `--depth 1` has another first commit than a full one. */
function originOfThreeCommits(base: string): string {
  const origin = gitRepo(join(base, "origin"));
  for (const n of [1, 2]) {
    writeFileSync(join(origin, "README.md"), `# demo ${n}\n`);
    git(origin, "commit", "-q", "-am", `change ${n}`);
  }
  return origin;
}

describe("a shallow clone deepened", () => {
  test("what was saved while it was shallow is what it restores after `git fetch --unshallow`, not another checkout's snapshot", async () => {
    const base = tempDir();
    const pc = laptop("deep", base);
    const home = join(base, "home");
    mkdirSync(home);
    const origin = originOfThreeCommits(base);
    const cli = (cwd: string, ...args: string[]) => okJson([...args, "--home", home], { cwd, env: pc.env });
    const full = join(base, "full");
    git(base, "clone", "-q", "--template=", origin, full);
    await saved({ home, cwd: full, env: pc.env }, "older work in the full clone");
    const shallow = join(base, "shallow");
    git(base, "clone", "-q", "--template=", "--depth", "1", `file://${origin}`, shallow);
    await saved({ home, cwd: shallow, env: pc.env }, "saved in the shallow clone");
    git(shallow, "fetch", "-q", "--unshallow");
    expect((await cli(shallow, "load", "--latest")).layer1.goal).toBe("saved in the shallow clone");
    expect((await cli(full, "load", "--latest")).layer1.goal).toBe("older work in the full clone");
  });
});

/** Laptops a and b with one store on a drive (what sync would give them), and the CLI run on either. */
function twoLaptopsOneDrive() {
  const base = tempDir();
  const [a, b] = [laptop("laptop-a", base), laptop("laptop-b", base)];
  const home = join(base, "drive");
  mkdirSync(home);
  const cli = (pc: Laptop, cwd: string, ...args: string[]) =>
    run([...args, "--home", home], { cwd, env: pc.env });
  /** A save on laptop `pc` in `cwd`, through the engine in this process. */
  const saveOn = (pc: Laptop, cwd: string, goal: string) => saved({ home, cwd, env: pc.env }, goal);
  /** b's checkout `there` restores what a saved in `here` last (`goal`), and a restores what b saves next: one project. */
  const sameProject = async (here: string, there: string, goal: string) => {
    const loaded = await cli(b, there, "--json", "load", "--latest");
    expect(loaded.code).toBe(0);
    expect(JSON.parse(loaded.stdout).layer1.goal).toBe(goal);
    await saveOn(b, there, "saved on laptop b");
    expect(JSON.parse((await cli(a, here, "--json", "load", "--latest")).stdout).layer1.goal).toBe(
      "saved on laptop b",
    );
    expect(JSON.parse((await cli(a, here, "--json", "projects", "list")).stdout).projects).toHaveLength(1);
  };
  return { base, home, a, b, cli, saveOn, sameProject };
}

describe("a shallow clone on another laptop", () => {
  test("is never guessed to be the project of its origin (an orphan branch shares the URL): it says so, and once deepened before its first save it is found by its history", async () => {
    const { base, a, b, cli, saveOn, sameProject } = twoLaptopsOneDrive();
    const origin = originOfThreeCommits(base);
    git(origin, "checkout", "-q", "--orphan", "gh-pages");
    writeFileSync(join(origin, "index.html"), "<p>pages</p>\n");
    git(origin, "add", "-A");
    git(origin, "commit", "-q", "-m", "pages");
    git(origin, "checkout", "-q", "main");
    const full = join(base, "a-full");
    git(base, "clone", "-q", "--template=", `file://${origin}`, full);
    await saveOn(a, full, "saved on the full clone");
    const project = JSON.parse((await cli(a, full, "--json", "projects", "list")).stdout).projects[0];
    for (const branch of ["main", "gh-pages"]) {
      const shallow = join(base, `b-${branch}`);
      git(
        base,
        "clone",
        "-q",
        "--template=",
        "--depth",
        "1",
        "--branch",
        branch,
        `file://${origin}`,
        shallow,
      );
      const said = await cli(b, shallow, "load", "--latest");
      expect(said.code).not.toBe(0);
      expect(said.stderr).toContain("No MindSave project here yet");
      expect(said.stderr).toContain(`cannot tell whether it is ${project.name} (${project.id})`);
    }
    git(join(base, "b-main"), "fetch", "-q", "--unshallow");
    await sameProject(full, join(base, "b-main"), "saved on the full clone");
    // The orphan branch's first save is a project of its own: the full clone still restores its own line of work.
    await saveOn(b, join(base, "b-gh-pages"), "pages work");
    expect(JSON.parse((await cli(a, full, "--json", "load", "--latest")).stdout).layer1.goal).toBe(
      "saved on laptop b",
    );
  });
});

describe("a project made before the repository's first commit", () => {
  test("once it has commits, a clone without its git-ignored .mindsave/ (another laptop, one store) is the same project", async () => {
    const { base, a, saveOn, sameProject, home } = twoLaptopsOneDrive();
    const repo = join(base, "new-repo");
    mkdirSync(repo);
    git(repo, "init", "-q", "--template=", "-b", "main");
    await saveOn(a, repo, "before the first commit");
    expect(
      JSON.parse(readFileSync(join(repo, ".mindsave", "project.json"), "utf8")).before_first_commit,
    ).toBe(true);
    // Until the first commit, commands and hooks there do not ask git for a history it does not have.
    const log = join(base, "git-asked.log");
    const probed = { ...a.env, PATH: gitProbePath(`case "$*" in *rev-list*) echo x >> "${log}";; esac`) };
    expect(
      (
        await run(["--home", home, "hook", "post-tool-use"], {
          cwd: repo,
          env: probed,
          stdin: JSON.stringify({
            cwd: repo,
            session_id: "s1",
            tool_name: "Edit",
            tool_input: { file_path: join(repo, "a.ts") },
          }),
        })
      ).code,
    ).toBe(0);
    expect((await run(["--home", home, "load"], { cwd: repo, env: probed })).code).toBe(0);
    expect(existsSync(log)).toBe(false);
    // `git add -A` takes no part of .mindsave/: its .gitignore ignores it all.
    writeFileSync(join(repo, "README.md"), "# new\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "first");
    expect(git(repo, "ls-files")).toBe("README.md");
    await saveOn(a, repo, "after the first commit");
    const clone = join(base, "clone");
    git(base, "clone", "-q", "--template=", repo, clone);
    expect(existsSync(join(clone, ".mindsave"))).toBe(false);
    await sameProject(repo, clone, "after the first commit");
  });

  test("its project.json is git-ignored: nothing of .mindsave/ shows in git status; in a .mindsave/ someone made, only project.json; a failed command leaves neither", async () => {
    const base = tempDir();
    const pc = laptop("ada", base);
    const home = join(base, "home");
    mkdirSync(home);
    const fresh = (name: string) => {
      const repo = join(base, name);
      mkdirSync(repo);
      git(repo, "init", "-q", "--template=", "-b", "main");
      return repo;
    };
    const status = (repo: string) => git(repo, "status", "--porcelain", "--untracked-files=all");

    const repo = fresh("new-repo");
    await save({ home, cwd: repo, env: pc.env }, { goal: "before the first commit" });
    expect(existsSync(join(repo, ".mindsave", "project.json"))).toBe(true);
    expect(status(repo)).toBe("");

    // A .mindsave/ of the person's own (notes kept there): theirs stays visible to git, project.json does not.
    const kept = fresh("kept-repo");
    mkdirSync(join(kept, ".mindsave"));
    writeFileSync(join(kept, ".mindsave", "notes.md"), "# 笔记\n");
    await save({ home, cwd: kept, env: pc.env }, { goal: "before the first commit" });
    expect(existsSync(join(kept, ".mindsave", "project.json"))).toBe(true);
    expect(status(kept).split("\n").sort()).toEqual(["?? .mindsave/.gitignore", "?? .mindsave/notes.md"]);

    // A command refused for its input takes back the project.json it wrote, and the .gitignore with it.
    const refused = fresh("refused-repo");
    const r = await run(["fail", "thing", "--home", home], { cwd: refused, env: pc.env });
    expect(r.code).toBe(1);
    expect(readdirSync(refused)).toEqual([".git"]);
  });
});
