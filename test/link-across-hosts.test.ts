// `projects link` across laptops: a project linked into another is an alias of it everywhere. What
// the other laptop saved in the linked project before it heard of the link joins the merged project
// when the sync brings it; the linked checkout, `--in` and a root all resolve to the merged project.
// On one host, the root shown for a linked project is the folder in use.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, gitRepo, laptop, laptopAndHome, okJson, run, sql, tempDir, type RunResult } from "./helpers.ts";
import { addRuleAt, atPlace, fail, hookAt, save, syncAt, type Place } from "./engine-setup.ts";
import { getSignalRow } from "../src/engine/agents/signal-row.ts";
import { noteOf } from "../src/engine/agents/session-notes.ts";
import { linkProjects, splitProject } from "../src/engine/projects/projects.ts";
import { retire, retireCandidates } from "../src/engine/memory/retire.ts";
import { addFact, factsHere } from "../src/engine/memory/facts.ts";
import { rulesHere } from "../src/engine/memory/rules.ts";
import { failuresFor } from "../src/engine/failures/record.ts";
import { requireProject, resolveProject } from "../src/engine/projects/resolve.ts";
import { exportSeed } from "../src/engine/formats/seed-export.ts";

/** `mindsave projects link PROJECT` at `place`, in this process, as set-up. */
const linkAt = (place: Place, project: string) => atPlace(place, (s) => linkProjects(s, project));

/** Laptops A and B, each with its own home and clones of two unrelated repositories, web and api. */
function twoLaptopsTwoRepos() {
  const base = tempDir("mindsave-link-");
  const origins = {
    web: gitRepo(join(base, "origin-web"), { "index.html": "<h1>web</h1>\n" }),
    api: gitRepo(join(base, "origin-api"), { "server.ts": "export const api = 1;\n" }),
  };
  const mk = (name: string, hostId: string) => {
    const pc = laptop(name, base);
    const home = join(base, `${name}-home`);
    mkdirSync(home);
    const repos = { web: join(base, `${name}-work`, "web"), api: join(base, `${name}-work`, "api") };
    for (const r of ["web", "api"] as const) git(base, "clone", "-q", origins[r], repos[r]);
    const env = { ...pc.env, MINDSAVE_HOST: hostId };
    const cli = (repo: "web" | "api", args: string[]): Promise<RunResult> =>
      run([...args, "--home", home], { cwd: repos[repo], env });
    const json = async (repo: "web" | "api", args: string[]) => {
      const r = await cli(repo, ["--json", ...args]);
      if (r.code !== 0) throw new Error(`${args.join(" ")} in ${repo}: ${r.stderr}`);
      return JSON.parse(r.stdout);
    };
    // Where a CLI run in that clone acts, for the set-up run in this process.
    const at = (repo: "web" | "api"): Place => ({ home, cwd: repos[repo], env });
    return { home, repos, db: join(home, "mindsave.db"), cli, json, at };
  };
  return { a: mk("laptop-a", "host-a"), b: mk("laptop-b", "host-b") };
}

type Laptop = ReturnType<typeof twoLaptopsTwoRepos>["a"];

const goals = async (l: Laptop, repo: "web" | "api", extra: string[] = []) =>
  (await l.json(repo, [...extra, "snapshots", "list"])).snapshots.map((s: any) => s.goal).sort();
const projectIds = async (l: Laptop) => (await l.json("web", ["projects"])).projects.map((p: any) => p.id);

describe("a project linked into another is an alias of it on every host", () => {
  test("a snapshot saved on B in the project A linked meanwhile is listed in the merged project on both hosts", async () => {
    const { a, b } = twoLaptopsTwoRepos();
    const web = (await save(a.at("web"), { goal: "web 1", state: "s", next: "n" })).context.project.id;
    await save(a.at("api"), { goal: "api 1", state: "s", next: "n" });
    await syncAt(b.at("web"), a.db);
    await linkAt(a.at("web"), "api");
    // B has not heard of the link: its save goes to project api.
    await save(b.at("api"), { goal: "api 2 from B", state: "s", next: "n" });
    await syncAt(b.at("api"), a.db);
    await syncAt(a.at("web"), b.db);

    const all = ["api 1", "api 2 from B", "web 1"];
    expect(await goals(a, "web")).toEqual(all);
    expect(await goals(b, "web")).toEqual(all);
    // The linked checkout on either host, and --in with the linked project's name, are the merged project.
    for (const l of [a, b]) {
      expect((await l.json("api", ["snapshots", "list"])).project.id).toBe(web);
      expect(await goals(l, "api")).toEqual(all);
      expect((await l.json("api", ["--in", "api", "snapshots", "list"])).project.id).toBe(web);
      expect(await projectIds(l)).toEqual([web]);
    }
    // Both stores hold the same snapshots, all in the merged project.
    const rows = (db: string) =>
      sql(db, "SELECT id, project_id FROM snapshots WHERE deleted = 0 ORDER BY id");
    const [ra, rb] = [await rows(a.db), await rows(b.db)];
    expect(ra.map((r) => r.project_id)).toEqual([web, web, web]);
    expect(rb).toEqual(ra);

    // B's next save in its api checkout goes to the merged project too: no third project.
    const next = await b.json("api", ["save", "--goal", "api 3 from B", "--state", "s", "--next", "n"]);
    expect(next.project.id).toBe(web);
    expect(await projectIds(b)).toEqual([web]);
  });

  test("on the host that linked, the linked checkout is the merged project: a save there makes no new project; split, it is its own again", async () => {
    const { a } = twoLaptopsTwoRepos();
    const web = (await save(a.at("web"), { goal: "web 1" })).context.project.id;
    const api = (await save(a.at("api"), { goal: "api 1" })).context.project.id;
    await linkAt(a.at("web"), api);
    const list = await a.json("api", ["snapshots", "list"]);
    expect(list.project.id).toBe(web);
    expect(list.snapshots.map((s: any) => s.goal).sort()).toEqual(["api 1", "web 1"]);
    expect((await a.json("api", ["save", "--goal", "api 2"])).project.id).toBe(web);
    const projects = (await a.json("web", ["projects"])).projects;
    expect(projects.map((p: any) => p.id)).toEqual([web]);
    expect((await a.json("web", ["--in", "api", "load", "1"])).layer1.goal).toBe("api 2");

    // Split off again, the checkout is a project of its own history, with what was saved there.
    await atPlace(a.at("api"), (s) => splitProject(s));
    const apart = await a.json("api", ["snapshots", "list"]);
    expect(apart.project.id).not.toBe(web);
    expect(apart.snapshots.map((s: any) => s.goal).sort()).toEqual(["api 1", "api 2"]);
    expect(await goals(a, "web")).toEqual(["web 1"]);
  });

  test("failures, rules, facts and retirements B recorded in the linked project join the merged one; a failure seen before the link counts once", async () => {
    const { a, b } = twoLaptopsTwoRepos();
    await save(a.at("web"), { goal: "web 1" });
    await save(a.at("api"), { goal: "api 1" });
    await fail(a.at("api"), "Redis sessions", "no Redis in staging");
    await syncAt(b.at("web"), a.db);
    await linkAt(a.at("web"), "api");
    // Meanwhile on B, still in project api: the same failure again, a rule, a fact, a retirement.
    await save(b.at("api"), { goal: "api 2 from B", constraint: ["no new deps"] });
    await atPlace(b.at("api"), (s) => retire(s, "no new deps"));
    await fail(b.at("api"), "Redis sessions", "no Redis in staging");
    await addRuleAt(b.at("api"), "Never push to main");
    await atPlace(b.at("api"), (s) => addFact(s, "staging DB is read-only", { ttl: "3d", scope: "project" }));
    await syncAt(b.at("api"), a.db);
    await syncAt(a.at("web"), b.db);

    // Read in this process by what `failures`, `rules`, `facts` and `retire` list, in each checkout.
    for (const l of [a, b]) {
      for (const repo of ["web", "api"] as const) {
        const here = await atPlace(l.at(repo), async (s) => {
          const ctx = await resolveProject(s, { create: false });
          return {
            failures: (await failuresFor(s, ctx!.project.id)).filter((f) => f.scope === "project"),
            rules: (await rulesHere(s)).rules,
            facts: await factsHere(s),
            retired: (await retireCandidates(s)).retired,
          };
        });
        // Seen once on A, once on B: two, however many times the moves met.
        expect(here.failures.map((f) => [f.item, f.repeat_count])).toEqual([["Redis sessions", 2]]);
        expect(here.rules.map((r) => r.text)).toEqual(["Never push to main"]);
        expect(here.facts.map((f) => f.text)).toEqual(["staging DB is read-only"]);
        expect(here.retired.map((r) => r.text)).toEqual(["no new deps"]);
      }
    }
    // Recording it again after the sync adds to the same failure.
    await fail(b.at("api"), "Redis sessions");
    expect((await b.json("web", ["failures"])).failure_graph.project["Redis sessions"].repeat_count).toBe(3);
  });

  test("two hosts that linked the two projects each into the other end with one project holding everything", async () => {
    const { a, b } = twoLaptopsTwoRepos();
    await save(a.at("web"), { goal: "web 1" });
    await save(a.at("api"), { goal: "api 1" });
    await syncAt(b.at("web"), a.db);
    await linkAt(a.at("web"), "api");
    await linkAt(b.at("api"), "web");
    await save(b.at("api"), { goal: "api 2 from B" });
    await syncAt(b.at("api"), a.db);
    await syncAt(a.at("web"), b.db);

    const ids = await projectIds(a);
    expect(ids).toHaveLength(1);
    expect(await projectIds(b)).toEqual(ids);
    for (const l of [a, b]) {
      for (const repo of ["web", "api"] as const) {
        expect((await l.json(repo, ["snapshots", "list"])).project.id).toBe(ids[0]);
        expect(await goals(l, repo)).toEqual(["api 1", "api 2 from B", "web 1"]);
      }
    }
  });
});

/** Projects app and lib (two unrelated repos) on one laptop, each saved in, app first: a link moves lib's rows into app. */
async function appAndLib(prefix: string) {
  const { base, home, pc } = laptopAndHome(prefix);
  const [app, lib] = ["app", "lib"].map((name) => ({
    home,
    cwd: gitRepo(join(base, name), { [`${name}.ts`]: `export const ${name} = 1;\n` }),
    env: pc.env,
  }));
  await save(app, { goal: "app work" });
  await save(lib, { goal: "lib work" });
  return { home, pc, app, lib };
}

describe("a failure both linked projects recorded", () => {
  test("keeps what the later record says of it, whichever project it was in", async () => {
    const { app, lib } = await appAndLib("mindsave-link-words-");
    await fail(lib, "Redis sessions", "no Redis in staging");
    await fail(app, "Redis sessions", "Redis is in staging now, but sessions must survive its restarts");
    await fail(app, "moment.js", "too large for the bundle");
    await fail(lib, "moment.js", "unmaintained: use date-fns", { rejected_by: "system" });
    await linkAt(app, "lib");
    const graph = await atPlace(app, async (s) => {
      const ctx = await resolveProject(s, { create: false });
      return (await failuresFor(s, ctx!.project.id)).map((f) => [
        f.item,
        f.reason,
        f.rejected_by,
        f.repeat_count,
      ]);
    });
    expect(graph.sort()).toEqual([
      ["Redis sessions", "Redis is in staging now, but sessions must survive its restarts", "user", 2],
      ["moment.js", "unmaintained: use date-fns", "system", 2],
    ]);
  });
});

describe("a session's notes in a project linked into another that has its own", () => {
  test("join the notes there: a 'don't save' said in the linked project still holds", async () => {
    const { home, pc, app, lib } = await appAndLib("mindsave-link-notes-");
    const prompt = (place: Place, id: string, text: string) => {
      const transcript = join(home, `${id}.jsonl`);
      writeFileSync(transcript, "");
      const raw = { session_id: id, transcript_path: transcript, cwd: place.cwd, prompt: text };
      const t = { home, repo: place.cwd, pc };
      return hookAt(t, undefined, "user-prompt-submit", { ...raw, hook_event_name: "UserPromptSubmit" });
    };
    await prompt(lib, "in-lib", "don't save this session");
    await prompt(app, "in-app", "不需要保存");
    await linkAt(app, "lib");
    const row = await atPlace(lib, async (s) => getSignalRow(s.store, (await requireProject(s)).project.id));
    expect([noteOf(row, "in-lib")?.no_save, noteOf(row, "in-app")?.no_save]).toEqual([true, true]);
  });
});

/** Folders app and lib (two unrelated git repos) each saved in, then lib linked into app from app. */
async function linkedPair(prefix: string) {
  const base = tempDir(prefix);
  const pc = laptop("walker", base);
  const home = join(base, "home");
  mkdirSync(home);
  const app = gitRepo(join(base, "app"), { "src/app.ts": "export const app = 1;\n" });
  const lib = gitRepo(join(base, "lib"), { "src/lib.ts": "export const lib = 1;\n" });
  const elsewhere = join(base, "elsewhere");
  mkdirSync(elsewhere);
  const opts = (cwd: string, env: Record<string, string> = {}) => ({ cwd, env: { ...pc.env, ...env } });
  const cli = (cwd: string, args: string[]) => run([...args, "--home", home], opts(cwd));
  const json = (cwd: string, args: string[]) => okJson([...args, "--home", home], opts(cwd));
  // The set-up's saves and link run in this process, where a CLI run in that folder would act.
  const at = (cwd: string): Place => ({ home, cwd, env: pc.env });
  const saveIn = (cwd: string, goal: string) => save(at(cwd), { goal, state: "s", next: "n" });
  await saveIn(app, "app work");
  await saveIn(lib, "lib work");
  await linkAt(at(app), "lib");
  return { base, pc, home, db: join(home, "mindsave.db"), app, lib, elsewhere, opts, cli, json, saveIn };
}

const rootShown = async (t: Awaited<ReturnType<typeof linkedPair>>, cwd: string) => {
  const projects = (await t.json(cwd, ["projects"])).projects;
  expect(projects).toHaveLength(1);
  return projects[0];
};

describe("a linked project's root on this host is the folder in use", () => {
  test("`projects` run in either folder shows that folder as the project's root, marked as this folder's", async () => {
    const t = await linkedPair("mindsave-walk4-list-");
    for (const folder of [t.app, t.lib]) {
      const p = await rootShown(t, folder);
      expect(p.root).toBe(folder);
      expect(p.current).toBe(true);
      // The list as people read it: this folder's project, at this folder.
      const line = (await t.cli(folder, ["projects"])).stdout.split("\n").find((l) => l.startsWith("* "));
      expect(line?.trimEnd().endsWith(folder)).toBe(true);
    }
  });

  test("elsewhere, the root shown is the folder used last: app after a save there, lib after one in lib", async () => {
    const t = await linkedPair("mindsave-walk4-used-");
    await t.saveIn(t.app, "app again");
    expect((await rootShown(t, t.elsewhere)).root).toBe(t.app);
    expect((await t.json(t.elsewhere, ["--in", "app", "load", "--latest"])).project.root).toBe(t.app);
    await t.saveIn(t.lib, "lib again");
    expect((await rootShown(t, t.elsewhere)).root).toBe(t.lib);
  });

  test("`import EXPORT --into app` run in app stores app as the snapshots' root, and finds their active files there", async () => {
    const t = await linkedPair("mindsave-walk4-import-");
    // An export of a snapshot of app, made on another home, whose active file exists only in app.
    const other = join(t.base, "other-home");
    mkdirSync(other);
    const there: Place = { home: other, cwd: t.app, env: t.pc.env };
    await save(there, { goal: "from the other home", state: "s", next: "n", activeFile: ["src/app.ts"] });
    const out = join(t.base, "export");
    await atPlace(there, (s) => exportSeed(s, { out }));

    const r = await t.cli(t.app, ["import", out, "--into", "app"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`(${t.app})`);
    expect(r.stderr).not.toContain("not found");
    const rows = await sql(t.db, "SELECT saved_root FROM snapshots WHERE goal = ? AND deleted = 0", [
      "from the other home",
    ]);
    expect(rows).toEqual([{ saved_root: t.app }]);
  });
});
