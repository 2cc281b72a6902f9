// Two laptops, one snapshot name: A and B save "Fix login bug" on the same day and sync through a
// drive. No name-based command may then pick one of the two silently, on either laptop.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { git, gitRepo, laptop, okJson, run, tempDir, twoLaptops } from "./helpers.ts";
import { inClone, save, saveText, syncScene } from "./engine-setup.ts";

const NAME = "fix_login_bug_2026-11-22";

/** The same snapshot id on both laptops, as two saves of one goal on one day give. */
const snapshot = (goal: string) => `---\nsnapshot_id: "${NAME}"\ngoal: "${goal}"\nstate: "started"\n---\n`;

/**
 * The laptops' saves (`mindsave save` of `snapshot(goal)` on stdin) and syncs through the drive,
 * in this process: they only bring both snapshots to both laptops; the names are what is tested.
 */
async function bothSaved(w: ReturnType<typeof twoLaptops>) {
  await saveText(inClone(w.a), snapshot("Fix login bug (A: the cookie path)"));
  await saveText(inClone(w.b), snapshot("Fix login bug (B: the redirect loop)"));
  for (const pc of [w.a, w.b, w.a]) await syncScene(inClone(pc), w.drive);
}

describe("names across hosts", () => {
  test("after a sync, load/show/delete/complete/recall by an ambiguous name refuse with the candidates; number and id prefix choose", async () => {
    const w = twoLaptops();
    await bothSaved(w);

    for (const pc of [w.a, w.b]) {
      const list = (await pc.json(["snapshots", "list"])).snapshots;
      expect(list.map((s: any) => s.name)).toEqual([NAME, NAME]);
      for (const cmd of [
        ["load", NAME],
        ["snapshots", "show", NAME],
        ["snapshots", "delete", NAME],
        ["snapshots", "complete", NAME],
        ["recall", "--snapshot", NAME],
        ["load", "fix_login"],
      ]) {
        const r = await pc.cli(cmd);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(`"${NAME}" names 2 snapshots`);
        expect(r.stderr).toContain("laptop-a");
        expect(r.stderr).toContain("laptop-b");
        expect(r.stderr).toContain("#1");
        expect(r.stderr).toContain("#2");
      }
      // Nothing was deleted or completed by the refusals.
      expect((await pc.json(["snapshots", "list"])).snapshots.map((s: any) => s.status)).toEqual([
        "in_progress",
        "in_progress",
      ]);
    }

    // load's list to choose from tells them apart as `snapshots list` does.
    const choose = (await w.a.cli(["load"])).stdout;
    expect(choose).toMatch(/1\. fix_login_bug_2026-11-22 \((this host|laptop-b), id [0-9a-f-]+\)/);
    expect(choose).toMatch(/2\. fix_login_bug_2026-11-22 \((this host|laptop-b), id [0-9a-f-]+\)/);

    // On B, delete A's snapshot by its id prefix (the one the refusal offers); the next sync carries exactly that.
    const listB = (await w.b.json(["snapshots", "list"])).snapshots;
    const aSnap = listB.find((s: any) => s.goal.includes("(A:"));
    const refusal = (await w.b.cli(["snapshots", "delete", NAME])).stderr;
    const offered = [...refusal.matchAll(/ id ([0-9a-f-]+) /g)].map((m) => m[1]);
    expect(offered).toHaveLength(2);
    const prefix = offered.find((p) => aSnap.id.startsWith(p))!;
    expect(prefix.length).toBeLessThan(aSnap.id.length);
    expect((await w.b.cli(["snapshots", "delete", prefix])).code).toBe(0);
    for (const pc of [w.b, w.a]) await syncScene(inClone(pc), w.drive);
    for (const pc of [w.a, w.b]) {
      const left = (await pc.json(["snapshots", "list"])).snapshots;
      expect(left.map((s: any) => s.goal)).toEqual(["Fix login bug (B: the redirect loop)"]);
      // One left: the name is no longer ambiguous.
      expect((await pc.cli(["load", NAME])).stdout).toContain("the redirect loop");
    }
  }, 60_000);

  test("load by list number picks the one shown there; export writes both snapshots to two files", async () => {
    const w = twoLaptops();
    await bothSaved(w);
    const list = (await w.a.json(["snapshots", "list"])).snapshots;
    for (const [i, s] of list.entries()) expect((await w.a.json(["load", String(i + 1)])).id).toBe(s.id);

    const out = join(w.base, "export");
    const r = await w.a.cli(["export", "--out", out]);
    expect(r.code).toBe(0);
    const files = readdirSync(join(out, ".mindsave", "snapshots")).sort();
    expect(files).toHaveLength(2);
    const texts = await Promise.all(
      files.map((f) => Bun.file(join(out, ".mindsave", "snapshots", f)).text()),
    );
    expect(texts.some((t) => t.includes("the cookie path"))).toBe(true);
    expect(texts.some((t) => t.includes("the redirect loop"))).toBe(true);
    const index = JSON.parse(await Bun.file(join(out, ".mindsave", "index.json")).text()).snapshots;
    expect(index.map((e: any) => `${e.id}.md`).sort()).toEqual(files);
  }, 60_000);
});

describe("project names across hosts", () => {
  test("a project keeps the name it was first given: a sync with a laptop whose clone has another folder name renames it on neither", async () => {
    const base = tempDir("mindsave-project-name-");
    const origin = gitRepo(join(base, "origin"));
    const side = (name: string, folder: string) => {
      const pc = laptop(name, base);
      const home = join(base, `${name}-home`);
      mkdirSync(home);
      const repo = join(base, `${name}-work`, folder);
      git(base, "clone", "-q", origin, repo);
      const env = { ...pc.env, MINDSAVE_HOST: `host-${name}` };
      return {
        home,
        place: { home, cwd: repo, env },
        cli: (args: string[], cwd = repo) => run([...args, "--home", home], { cwd, env }),
        json: (args: string[], cwd = repo) => okJson([...args, "--home", home], { cwd, env }),
      };
    };
    const a = side("a", "shop-api");
    const b = side("b", "scratch-copy");
    await save(a.place, { goal: "on a", state: "s", next: "n" });
    await save(b.place, { goal: "on b", state: "s", next: "n" });
    await b.json(["sync", a.home]);
    for (const s of [a, b]) {
      expect((await s.json(["projects"])).projects.map((p: any) => p.name)).toEqual(["shop-api"]);
      expect((await s.cli(["--in", "shop-api", "snapshots", "list"], base)).code).toBe(0);
    }
    // B's clone is still found by its history, under the shared name.
    expect((await b.cli(["load", "--latest"])).stdout).toContain("on b");
  });
});
