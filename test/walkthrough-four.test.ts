// Three defects a fourth walkthrough found, each through the real CLI on real stores: restating a
// fact reset its confidence and time to live (and a sync spread that); after `projects link` the
// linked folder became the project's root even where the other one was in use; `--in` stopped
// finding a project by the folder name it has here once a sync gave it its first name.
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { git, gitRepo, laptop, ok, okJson, run, sql, tempDir, twoLaptops } from "./helpers.ts";

const DAY = 86_400_000;
const span = (f: { confirmed_at: string; expires_at: string | null }) => (f.expires_at === null ? null : Date.parse(f.expires_at) - Date.parse(f.confirmed_at));

describe("restating a fact keeps what it was", () => {
  test("`fact` again without --confidence/--ttl keeps high and never, or its own span; given ones win; `facts renew` alike", async () => {
    const base = tempDir("mindsave-walk4-facts-");
    const pc = laptop("walker", base);
    const home = join(base, "home");
    mkdirSync(home);
    const repo = gitRepo(join(base, "shop"));
    const json = (args: string[]) => okJson([...args, "--home", home], { cwd: repo, env: pc.env });

    await json(["fact", "api frozen", "--confidence", "high", "--ttl", "never"]);
    const again = (await json(["fact", "api frozen"])) as { fact: any; renewed: boolean };
    expect(again.renewed).toBe(true);
    expect(again.fact.confidence).toBe("high");
    expect(again.fact.expires_at).toBeNull();

    await json(["fact", "staging DB read-only", "--ttl", "3d", "--confidence", "low"]);
    const restated = (await json(["fact", "staging DB read-only"])).fact;
    expect(restated.confidence).toBe("low");
    expect(span(restated)).toBe(3 * DAY);
    // New ones given are taken.
    const changed = (await json(["fact", "staging DB read-only", "--ttl", "12h", "--confidence", "high"])).fact;
    expect(changed.confidence).toBe("high");
    expect(span(changed)).toBe(12 * 3_600_000);
    // A new fact still gets the defaults.
    const fresh = (await json(["fact", "the CDN caches 5 min"])).fact;
    expect(fresh.confidence).toBe("medium");
    expect(span(fresh)).toBe(7 * DAY);
    // `facts renew` keeps them too.
    const renewed = (await json(["facts", "renew", "staging DB"])).renewed;
    expect(renewed.confidence).toBe("high");
    expect(span(renewed)).toBe(12 * 3_600_000);
    const stored = await sql(join(home, "mindsave.db"), "SELECT confidence, expires_at FROM facts WHERE text = ? AND deleted = 0", ["api frozen"]);
    expect(stored).toEqual([{ confidence: "high", expires_at: null }]);
  });

  test("a restatement on another laptop keeps the fact high and never-expiring on both after the syncs", async () => {
    const w = twoLaptops("mindsave-walk4-fact-sync-");
    await w.a.json(["fact", "api frozen", "--confidence", "high", "--ttl", "never"]);
    expect((await w.a.cli(["sync", w.drive])).code).toBe(0);
    expect((await w.b.cli(["sync", w.drive])).code).toBe(0);
    expect((await w.b.json(["fact", "api frozen"])).renewed).toBe(true);
    expect((await w.b.cli(["sync", w.drive])).code).toBe(0);
    expect((await w.a.cli(["sync", w.drive])).code).toBe(0);
    for (const pc of [w.a, w.b]) {
      const facts = (await pc.json(["facts"])).facts;
      expect(facts.map((f: any) => [f.text, f.confidence, f.expires_at])).toEqual([["api frozen", "high", null]]);
    }
  }, 60_000);
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
  const save = (cwd: string, goal: string) => json(cwd, ["save", "--goal", goal, "--state", "s", "--next", "n"]);
  await save(app, "app work");
  await save(lib, "lib work");
  await json(app, ["projects", "link", "lib"]);
  return { base, pc, home, db: join(home, "mindsave.db"), app, lib, elsewhere, opts, cli, json, save };
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
    await t.save(t.app, "app again");
    expect((await rootShown(t, t.elsewhere)).root).toBe(t.app);
    expect((await t.json(t.elsewhere, ["--in", "app", "load", "--latest"])).project.root).toBe(t.app);
    await t.save(t.lib, "lib again");
    expect((await rootShown(t, t.elsewhere)).root).toBe(t.lib);
  });

  test("`import EXPORT --into app` run in app stores app as the snapshots' root, and finds their active files there", async () => {
    const t = await linkedPair("mindsave-walk4-import-");
    // An export of a snapshot of app, made on another home, whose active file exists only in app.
    const other = join(t.base, "other-home");
    mkdirSync(other);
    await ok(["save", "--goal", "from the other home", "--state", "s", "--next", "n", "--active-file", "src/app.ts", "--home", other], t.opts(t.app));
    const out = join(t.base, "export");
    await ok(["export", "--out", out, "--home", other], t.opts(t.app));

    const r = await t.cli(t.app, ["import", out, "--into", "app"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`(${t.app})`);
    expect(r.stderr).not.toContain("not found");
    const rows = await sql(t.db, "SELECT saved_root FROM snapshots WHERE goal = ? AND deleted = 0", ["from the other home"]);
    expect(rows).toEqual([{ saved_root: t.app }]);
  });
});

describe("--in finds a project by its folder's name on this host", () => {
  test("after a sync gives B's clones their names from A, `--in` with B's folder name finds it; a folder name of two projects is refused with both", async () => {
    const base = tempDir("mindsave-walk4-in-");
    const origins = [1, 2, 3].map((n) => gitRepo(join(base, `origin-${n}`), { [`src/m${n}.ts`]: `export const m = ${n};\n` }));
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
        home, repos,
        cli: (args: string[], cwd = base) => run([...args, "--home", home], { cwd, env }),
        json: (args: string[], cwd = base) => okJson([...args, "--home", home], { cwd, env }),
      };
    };
    const a = side("a", ["shop-api", "billing", "search"]);
    const b = side("b", ["scratch-copy", "one/svc", "two/svc"]);
    for (const s of [a, b]) for (const repo of s.repos) await s.json(["save", "--goal", `saved in ${repo}`, "--state", "s", "--next", "n"], repo);
    await b.json(["sync", a.home]);
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
