// A folder written by `mindsave export --out DIR` is no workspace: importing it puts the snapshots
// back into the project they came from (or the current directory's project on another laptop),
// with the active files relative to that project's root — never to the export folder — and never
// writes into the folder it reads.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { git, gitRepo, laptop, ok, okJson, run, tempDir } from "./helpers.ts";

/** Every file under `dir`, relative, sorted. */
const filesUnder = (dir: string): string[] => (readdirSync(dir, { recursive: true }) as string[]).sort();

function setup() {
  const base = tempDir("mindsave-trip-");
  const pc = laptop("alpha", base);
  const repo = gitRepo(join(base, "my proj 项目"), { "src/auth.ts": "export const auth = 1;\n", "README.md": "# demo\n" });
  const home = join(base, "home-a");
  mkdirSync(home);
  const out = join(base, "usb export");
  return { base, pc, repo, home, out };
}

describe("import of an `export --out` folder", () => {
  test("into the same store from outside the project: back into its project, active files relative to its root", async () => {
    const { base, pc, repo, home, out } = setup();
    const at = { cwd: repo, env: pc.env };
    const saved = await okJson(["save", "--home", home, "--goal", "fix auth", "--state", "s", "--next", "n", "--active-file", "src/auth.ts"], at);
    const name = saved.saved;
    await ok(["export", "--home", home, "--out", out], at);
    const exported = filesUnder(out);
    await ok(["snapshots", "delete", name, "--home", home], at);

    const r = await okJson(["import", out, "--home", home], { cwd: base, env: pc.env });
    expect(r.snapshots.imported).toEqual([name]);
    expect(r.root).toBe(repo);
    expect(r.warnings.join("\n")).not.toContain("not found");
    const show = await okJson(["snapshots", "show", name, "--home", home], at);
    expect(show.active_files.map((f: any) => f.path)).toEqual(["src/auth.ts"]);
    const load = await ok(["load", name, "--verify", "--home", home], at);
    expect(load.stdout).toContain(join(repo, "src", "auth.ts"));
    expect(load.stdout).not.toContain(out);
    // Nothing was written into the folder read.
    expect(filesUnder(out)).toEqual(exported);
  });

  test("on a second laptop with a fresh store: into the project of the clone it is run from; refused from a plain folder", async () => {
    const { base, pc, repo, home, out } = setup();
    await okJson(["save", "--home", home, "--goal", "fix auth", "--state", "s", "--next", "n", "--active-file", "src/auth.ts"], { cwd: repo, env: pc.env });
    await ok(["export", "--home", home, "--out", out], { cwd: repo, env: pc.env });
    const exported = filesUnder(out);

    const pc2 = laptop("beta", base);
    const home2 = join(base, "home-b");
    mkdirSync(home2);
    const plain = join(base, "plain");
    mkdirSync(plain);
    const refused = await run(["import", out, "--home", home2], { cwd: plain, env: pc2.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(`mindsave: ${join(out, ".mindsave")} was exported from project my proj 项目, which this store does not have yet; run the import from that project's folder on this host, or give --into PROJECT.`);
    expect(existsSync(join(plain, ".mindsave"))).toBe(false);

    const clone = join(base, "clone");
    git(base, "clone", "-q", repo, clone);
    const r = await okJson(["import", out, "--home", home2], { cwd: clone, env: pc2.env });
    expect(r.root).toBe(clone);
    expect(r.snapshots.imported.length).toBe(1);
    const show = await okJson(["snapshots", "show", r.snapshots.imported[0], "--home", home2], { cwd: clone, env: pc2.env });
    expect(show.active_files.map((f: any) => f.path)).toEqual(["src/auth.ts"]);
    expect((await ok(["load", "--latest", "--home", home2], { cwd: clone, env: pc2.env })).stdout).toContain(join(clone, "src", "auth.ts"));
    expect(filesUnder(out)).toEqual(exported);
  });
});
