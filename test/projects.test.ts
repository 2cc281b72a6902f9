// Projects identified the same on every host: git root commit, project.json outside git,
// per-host roots, second checkouts on one host, link and split.
import { describe, expect, test } from "bun:test";
import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git, gitRepo, laptop, laptopWithApp as setup, ok, okJson, run, sql, tempDir } from "./helpers.ts";
import { atPlace, save, syncAt } from "./engine-setup.ts";
import { linkProjects } from "../src/engine/projects/projects.ts";
import { cleanSnapshots } from "../src/engine/snapshots/manage.ts";
import { newestSnapshot } from "../src/engine/snapshots/select.ts";
import { requireProject } from "../src/engine/projects/resolve.ts";

// A save whose own output no test here reads runs through the engine in this process, at the same
// home, folder and environment: which project a folder is stays the engine's answer, checked after
// through the CLI.

/** One laptop, one home, and a git checkout `app`: where second checkouts are made beside it. */
function appOnOneHost() {
  const base = tempDir();
  const home = join(base, "home");
  mkdirSync(home);
  return { base, home, pc: laptop("p", base), original: gitRepo(join(base, "app")) };
}

describe("projects across hosts", () => {
  test("one repo cloned at two paths by two laptops (two HOMEs) sharing one --home is one project with a root per host", async () => {
    const base = tempDir();
    const shared = join(base, "drive");
    mkdirSync(shared);
    const origin = gitRepo(join(base, "origin"));
    const a = laptop("laptop-a", base);
    const b = laptop("laptop-b", base);
    const cloneA = join(base, "a-work", "project");
    const cloneB = join(base, "b-elsewhere", "renamed-checkout");
    git(base, "clone", "-q", origin, cloneA);
    git(base, "clone", "-q", origin, cloneB);
    // B changes its remote; identity is the root commit, so nothing changes.
    git(cloneB, "remote", "set-url", "origin", "git@example.com:someone/else.git");

    await save(
      { home: shared, cwd: cloneA, env: a.env },
      { goal: "started on A", activeFile: ["src/auth.ts"] },
    );
    const onB = await okJson(["load", "--home", shared], { cwd: join(cloneB, "src"), env: b.env });
    expect(onB.layer1.goal).toBe("started on A");
    // The path is printed for the host that loads it.
    expect(onB.layer1.active_files).toEqual([join(cloneB, "src", "auth.ts")]);
    expect(onB.project.root).toBe(cloneB);

    await save({ home: shared, cwd: cloneB, env: b.env }, { goal: "continued on B" });
    const fromA = await okJson(["projects", "--home", shared], { cwd: cloneA, env: a.env });
    expect(fromA.projects).toHaveLength(1);
    expect(fromA.projects[0].root).toBe(cloneA);
    expect(fromA.projects[0].snapshots).toBe(2);
    expect(fromA.projects[0].other_hosts).toEqual([{ host: "laptop-b", path: cloneB }]);
    const roots = await sql(
      join(shared, "mindsave.db"),
      "SELECT count(DISTINCT host_id) AS hosts, count(*) AS n FROM roots WHERE deleted = 0",
    );
    expect(roots[0]).toMatchObject({ hosts: 2, n: 2 });

    // A project with no root on this host says so.
    const c = laptop("laptop-c", base);
    const elsewhere = join(base, "c-home");
    mkdirSync(elsewhere);
    const fromC = await ok(["projects", "--home", shared], { cwd: elsewhere, env: c.env });
    expect(fromC.stdout).toContain("not on this host");
  });

  test("MINDSAVE_HOST plays several laptops with one HOME", async () => {
    const base = tempDir();
    const home = join(base, "home");
    mkdirSync(home);
    const repo = gitRepo(join(base, "repo"));
    const pc = laptop("x", base);
    await save({ home, cwd: repo, env: { ...pc.env, MINDSAVE_HOST: "host-one" } }, { goal: "g" });
    await save({ home, cwd: repo, env: { ...pc.env, MINDSAVE_HOST: "host-two" } }, { goal: "g2" });
    const hosts = await sql(join(home, "mindsave.db"), "SELECT id FROM hosts ORDER BY id");
    expect(hosts.map((h) => h.id)).toEqual(["host-one", "host-two"]);
    const snaps = await sql(
      join(home, "mindsave.db"),
      "SELECT saved_host, host, hlc FROM snapshots ORDER BY created_at",
    );
    expect(snaps.map((s) => s.saved_host)).toEqual(["host-one", "host-two"]);
    expect(String(snaps[1].hlc)).toMatch(/^\d{13}-\d{4}-host-two$/);
    const bad = await run(["save", "--goal", "g", "--home", home], {
      cwd: repo,
      env: { ...pc.env, MINDSAVE_HOST: "bad host/../x" },
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("MINDSAVE_HOST must be");
  });

  test("outside git, an id is written once into .mindsave/project.json and survives moving the folder", async () => {
    const base = tempDir();
    const home = join(base, "home");
    mkdirSync(home);
    const pc = laptop("p", base);
    const dir = join(base, "notes");
    mkdirSync(join(dir, "sub"), { recursive: true });
    writeFileSync(join(dir, "package.json"), "{}");
    await save({ home, cwd: join(dir, "sub"), env: pc.env }, { goal: "plain folder" });
    const file = join(dir, ".mindsave", "project.json");
    expect(existsSync(file)).toBe(true);
    const id = JSON.parse(readFileSync(file, "utf8")).id;
    await save({ home, cwd: dir, env: pc.env }, { goal: "again" });
    expect(JSON.parse(readFileSync(file, "utf8")).id).toBe(id);
    // Moved folder: same project, root updated.
    const moved = join(base, "moved-notes");
    renameSync(dir, moved);
    const list = await okJson(["snapshots", "list", "--home", home], { cwd: moved, env: pc.env });
    expect(list.snapshots).toHaveLength(2);
    await save({ home, cwd: moved, env: pc.env }, { goal: "after move" });
    const projects = await okJson(["projects", "--home", home], { cwd: moved, env: pc.env });
    expect(projects.projects).toHaveLength(1);
    expect(projects.projects[0].root).toBe(moved);
  });

  test("a second checkout on the same host is told apart, and can be linked or split", async () => {
    const { base, home, pc, original } = appOnOneHost();
    const fork = join(base, "app-fork");
    git(base, "clone", "-q", original, fork);
    await save({ home, cwd: original, env: pc.env }, { goal: "work in the original" });
    const forked = await run(["save", "--goal", "work in the fork", "--home", home], {
      cwd: fork,
      env: pc.env,
    });
    expect(forked.code).toBe(0);
    expect(forked.stderr).toContain("tracked as a separate project");
    const projects = await okJson(["projects", "--home", home], { cwd: fork, env: pc.env });
    expect(projects.projects).toHaveLength(2);
    const forkProject = projects.projects.find((p: any) => p.current);
    const origProject = projects.projects.find((p: any) => !p.current);
    expect(forkProject.root).toBe(fork);
    expect((await okJson(["load", "--home", home], { cwd: original, env: pc.env })).layer1.goal).toBe(
      "work in the original",
    );

    // Link names a project whole: a prefix of its id or name merges nothing.
    const prefixed = await run(["projects", "link", forkProject.id.slice(0, 6), "--home", home], {
      cwd: original,
      env: pc.env,
    });
    expect(prefixed.code).toBe(1);
    expect(prefixed.stderr).toContain(`No project has the name or id "${forkProject.id.slice(0, 6)}"`);
    expect((await okJson(["projects", "--home", home], { cwd: fork, env: pc.env })).projects).toHaveLength(2);
    // Link: the fork's snapshots join the original's project.
    const linked = await okJson(["projects", "link", forkProject.id, "--home", home], {
      cwd: original,
      env: pc.env,
    });
    expect(linked.snapshots).toBe(1);
    const after = await okJson(["projects", "--home", home], { cwd: fork, env: pc.env });
    expect(after.projects).toHaveLength(1);
    expect(after.projects[0].id).toBe(origProject.id);
    expect(
      (await okJson(["snapshots", "list", "--home", home], { cwd: fork, env: pc.env })).snapshots,
    ).toHaveLength(2);

    // Split: the fork becomes its own project again, taking the snapshot saved there.
    const split = await okJson(["projects", "split", "--home", home], { cwd: fork, env: pc.env });
    expect(split.snapshots).toBe(1);
    expect(
      (await okJson(["snapshots", "list", "--home", home], { cwd: fork, env: pc.env })).snapshots.map(
        (s: any) => s.goal,
      ),
    ).toEqual(["work in the fork"]);
    expect(
      (await okJson(["snapshots", "list", "--home", home], { cwd: original, env: pc.env })).snapshots.map(
        (s: any) => s.goal,
      ),
    ).toEqual(["work in the original"]);
  });

  test("`projects link` run from a second checkout, as MindSave's hint says, keeps the project's name and id", async () => {
    const { base, home, pc, original } = appOnOneHost();
    await save({ home, cwd: original, env: pc.env }, { goal: "work in the original" });
    const app = (await okJson(["projects", "--home", home], { cwd: original, env: pc.env })).projects[0];
    expect(app.name).toBe("app");
    const names = async (cwd: string) =>
      (await okJson(["projects", "--home", home], { cwd, env: pc.env })).projects.map((p: any) => [
        p.id,
        p.name,
      ]);

    // A clone with no project yet: `load` there says to link, and linking renames nothing.
    const copy = join(base, "app-copy");
    git(base, "clone", "-q", original, copy);
    const hint = await run(["load", "--home", home], { cwd: copy, env: pc.env });
    // The project by its name, unique here (clearer than an id), as the command to paste.
    expect(hint.stderr).toContain("load that one with `mindsave load --in app`");
    expect(hint.stderr).toContain("merge them by running `mindsave projects link app` here");
    const linked = await okJson(["projects", "link", "app", "--home", home], { cwd: copy, env: pc.env });
    expect(linked.into).toBe(app.id);
    expect(await names(copy)).toEqual([[app.id, "app"]]);
    expect(await names(original)).toEqual([[app.id, "app"]]);
    expect(
      (await okJson(["save", "--goal", "work in the copy", "--home", home], { cwd: copy, env: pc.env }))
        .project,
    ).toMatchObject({ id: app.id, name: "app" });

    // A fork that saved first is its own project, with the same hint: linked from there, it joins "app".
    const fork = join(base, "app-fork");
    git(base, "clone", "-q", original, fork);
    const forked = await run(["save", "--goal", "work in the fork", "--home", home], {
      cwd: fork,
      env: pc.env,
    });
    expect(forked.stderr).toContain("run `mindsave projects link app` here to merge them");
    const text = (await ok(["projects", "link", "app", "--home", home], { cwd: fork, env: pc.env })).stdout;
    expect(text).toBe("Linked app-fork into app: moved 1 snapshot(s) and 0 failure(s).\n");
    for (const cwd of [original, copy, fork]) expect(await names(cwd)).toEqual([[app.id, "app"]]);
    const goals = (await okJson(["snapshots", "list", "--home", home], { cwd: fork, env: pc.env })).snapshots
      .map((s: any) => s.goal)
      .sort();
    expect(goals).toEqual(["work in the copy", "work in the fork", "work in the original"]);
  });

  test("a git worktree is the same project as its main checkout", async () => {
    const base = tempDir();
    const home = join(base, "home");
    mkdirSync(home);
    const pc = laptop("p", base);
    const repo = gitRepo(join(base, "repo"));
    const wt = join(base, "repo-feature");
    git(repo, "worktree", "add", "-q", "-b", "feature", wt);
    await save({ home, cwd: repo, env: pc.env }, { goal: "main checkout" });
    const r = await run(["save", "--goal", "in the worktree", "--home", home], { cwd: wt, env: pc.env });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("separate project");
    expect((await okJson(["projects", "--home", home], { cwd: wt, env: pc.env })).projects).toHaveLength(1);
  });

  test("--workspace overrides the root, and --in acts on a project by name from anywhere", async () => {
    const base = tempDir();
    const home = join(base, "home");
    mkdirSync(home);
    const pc = laptop("p", base);
    const repo = gitRepo(join(base, "service"));
    await ok(["save", "--goal", "via workspace flag", "--workspace", repo, "--home", home], {
      cwd: base,
      env: pc.env,
    });
    const viaName = await okJson(["load", "--in", "service", "--home", home], { cwd: base, env: pc.env });
    expect(viaName.layer1.goal).toBe("via workspace flag");
    const none = await run(["load", "--in", "nope", "--home", home], { cwd: base, env: pc.env });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('No project matches "nope"');
  });
});

describe("a folder that holds everything is never made a project", () => {
  test("the system's temp folder: save refuses in one sentence and a hook does nothing; no .mindsave/ is written there", async () => {
    // (Once written, its project.json would make every plain folder below it part of one project.)
    const top = realpathSync(tmpdir());
    const dot = join(top, ".mindsave");
    const had = existsSync(dot);
    const pc = laptop("broad", tempDir("mindsave-broad-"));
    // The walk ends at the temp folder: a marker in one of its parents is not what this is about.
    const env = { ...pc.env, MINDSAVE_ROOT_CEILING: top };
    try {
      const r = await run(["save", "--goal", "scratch work"], { cwd: top, env });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `mindsave: ${top} holds too many unrelated folders to be a project; run MindSave inside a project folder, or give its folder (--workspace, or the MCP tools' workspace).\n`,
      );
      const hook = await run(["hook", "post-tool-use"], {
        cwd: top,
        env,
        stdin: JSON.stringify({
          session_id: "t",
          cwd: top,
          tool_name: "Bash",
          tool_input: { command: "ls" },
        }),
      });
      expect([hook.code, hook.stdout]).toEqual([0, ""]);
      expect(existsSync(dot)).toBe(had);
    } finally {
      if (!had) rmSync(dot, { recursive: true, force: true });
    }
  });
});

describe("--in finds a project by its folder's name on this host", () => {
  test("after a sync gives B's clones their names from A, `--in` with B's folder name finds it; a folder name of two projects is refused with both", async () => {
    const base = tempDir("mindsave-walk4-in-");
    const origins = [1, 2, 3].map((n) =>
      gitRepo(join(base, `origin-${n}`), { [`src/m${n}.ts`]: `export const m = ${n};\n` }),
    );
    const side = (name: string, folders: string[]) => {
      const pc = laptop(name, base);
      const home = join(base, `${name}-home`);
      mkdirSync(home);
      const repos = folders.map((f, i) => {
        const repo = join(base, `${name}-work`, f);
        git(base, "clone", "-q", origins[i], repo);
        return repo;
      });
      const env = { ...pc.env, MINDSAVE_HOST: `host-${name}` };
      return {
        home,
        repos,
        env,
        cli: (args: string[], cwd = base) => run([...args, "--home", home], { cwd, env }),
        json: (args: string[], cwd = base) => okJson([...args, "--home", home], { cwd, env }),
      };
    };
    const a = side("a", ["shop-api", "billing", "search"]);
    const b = side("b", ["scratch-copy", "one/svc", "two/svc"]);
    for (const s of [a, b])
      for (const repo of s.repos)
        await save(
          { home: s.home, cwd: repo, env: s.env },
          { goal: `saved in ${repo}`, state: "s", next: "n" },
        );
    await syncAt({ home: b.home, cwd: base, env: b.env }, a.home);
    const names = (await b.json(["projects"])).projects.map((p: any) => p.name).sort();
    expect(names).toEqual(["billing", "search", "shop-api"]);

    const found = await b.json(["--in", "scratch-copy", "snapshots", "list"]);
    expect(found.project.name).toBe("shop-api");
    expect(found.snapshots.map((s: any) => s.goal)).toContain(`saved in ${b.repos[0]}`);
    // The name it has everywhere still works, and a name prefix too.
    expect((await b.json(["--in", "shop-api", "snapshots", "list"])).project.name).toBe("shop-api");
    expect((await b.json(["--in", "bill", "snapshots", "list"])).project.name).toBe("billing");

    const r = await b.cli(["--in", "svc", "snapshots", "list"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain('"svc" is the folder of 2 projects on this host');
    for (const x of ["billing", "search", b.repos[1], b.repos[2]]) expect(r.stderr).toContain(x);
    // No folder and no project is called that here.
    expect((await b.cli(["--in", "scratch", "snapshots", "list"])).code).toBe(1);
  }, 60_000);
});

describe("projects split", () => {
  test("split refuses a checkout that is its project's only root; a second clone gets a free name", async () => {
    const t = setup();
    await save({ home: t.home, cwd: t.repo, env: t.pc.env }, { goal: "g" });
    const r = await run(["projects", "split", "--home", t.home], t.at(t.repo));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("only root");
    const copy = join(t.base, "app-copy");
    git(t.base, "clone", "-q", t.repo, copy);
    const hint = await run(["load", "--home", t.home], t.at(copy));
    expect(hint.code).toBe(1);
    expect(hint.stderr).toContain("shares its history with project app");
    await save({ home: t.home, cwd: copy, env: t.pc.env }, { goal: "in the copy" });
    const names = (await okJson(["projects", "--home", t.home], t.at(copy))).projects
      .map((p: any) => p.name)
      .sort();
    expect(names).toEqual(["app", "app-copy"]);
  });

  test("a checkout split off with only archived snapshots restores its newest: it is listed again", async () => {
    const { base, home, pc, original } = appOnOneHost();
    const fork = join(base, "app-fork");
    git(base, "clone", "-q", original, fork);
    const [inOriginal, inFork] = [original, fork].map((cwd) => ({ home, cwd, env: pc.env }));
    await save(inOriginal, { goal: "work in the original" });
    await save(inFork, { goal: "work in the fork 分支" });
    await atPlace(inOriginal, (s) => linkProjects(s, "app-fork"));
    await save(inOriginal, { goal: "later in the original" });
    // Every snapshot but the newest archived: the fork's among them.
    await atPlace(inOriginal, (s) => cleanSnapshots(s, { keep: 1 }));
    const split = await okJson(["projects", "split", "--home", home], { cwd: fork, env: pc.env });
    expect(split.snapshots).toBe(1);
    const newest = (place: typeof inFork) =>
      atPlace(
        place,
        async (s) => (await newestSnapshot(s.store, (await requireProject(s)).project.id))?.goal,
      );
    expect(await newest(inFork)).toBe("work in the fork 分支");
    expect(await newest(inOriginal)).toBe("later in the original");
  });
});
