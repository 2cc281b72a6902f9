// Short commands restart once in place without the JIT's compiling tiers (src/short-run.ts); long
// ones keep them. Seen from a `git` that MindSave runs (a script first on PATH, which records the
// environment its parent MindSave process was exec'd with, from /proc, and its own, then runs the
// real git): the parent's shows whether it restarted, its own that nothing leaks to children.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitProbePath, gitRepo, laptop, ok, tempDir } from "./helpers.ts";

const realGit = Bun.which("git");
const linux = process.platform === "linux" && existsSync("/proc/self/environ");

/** A PATH whose `git` records the environments into `probes`, then runs the real one. */
const probingPath = (probes: string) => gitProbePath(`tr '\\0' '\\n' < /proc/$PPID/environ > "${probes}/parent.$$"\nenv > "${probes}/own.$$"`);

/** Every environment the probe recorded, of the parent or its own, as lists of NAME=VALUE lines. */
function recorded(probes: string, kind: "parent" | "own"): string[][] {
  return readdirSync(probes).filter((f) => f.startsWith(`${kind}.`)).map((f) => readFileSync(join(probes, f), "utf8").split("\n"));
}

describe.skipIf(!linux || !realGit)("short commands run without the JIT's compiling tiers (Linux: read from /proc)", () => {
  /** Runs `args` in a new repository (a new project: MindSave asks git about it) and returns what the probe saw. */
  async function probe(args: string[], extraEnv: Record<string, string> = {}, prepare?: (repo: string) => void) {
    const probes = tempDir();
    const pc = laptop("short-run");
    const repo = gitRepo(join(tempDir(), "repo"));
    prepare?.(repo);
    await ok(args, { cwd: repo, env: { ...pc.env, PATH: probingPath(probes), ...extraEnv } });
    const parents = recorded(probes, "parent");
    const own = recorded(probes, "own");
    expect(parents.length).toBeGreaterThan(0); // MindSave did run git
    return { parents, own };
  }

  test("save restarts once with the tiers off; git, its child, gets the environment as it was", async () => {
    const { parents, own } = await probe(["save", "--goal", "short run", "--state", "s", "--next", "n"]);
    for (const env of parents) expect(env).toContain("BUN_JSC_useBaselineJIT=0");
    for (const env of parents) expect(env).toContain("MINDSAVE_SHORT_RUN=1");
    for (const env of own) expect(env.filter((l) => /^(BUN_JSC_|MINDSAVE_SHORT_RUN)/.test(l))).toEqual([]);
  });

  test("import, bulk work, restarts with only the top tier off; git gets the environment as it was", async () => {
    const tree = (repo: string) => {
      mkdirSync(join(repo, ".mindsave", "snapshots"), { recursive: true });
      writeFileSync(join(repo, ".mindsave", "snapshots", "one_2026-11-20.md"), "---\ncreated_at: 2026-11-20T09:00:00Z\ngoal: imported\nstate: s\nnext_action: n\n---\nbody\n");
    };
    const imported = await probe(["import", "."], {}, tree);
    for (const env of imported.parents) expect(env.filter((l) => /^(BUN_JSC_|MINDSAVE_SHORT_RUN)/.test(l)).sort()).toEqual(["BUN_JSC_useFTLJIT=0", "MINDSAVE_SHORT_RUN=1"]);
    for (const env of imported.own) expect(env.filter((l) => /^(BUN_JSC_|MINDSAVE_SHORT_RUN)/.test(l))).toEqual([]);
  });

  test("a setting of the person's own is left as it is, and MINDSAVE_JIT=on keeps the JIT", async () => {
    const save = ["save", "--goal", "own setting", "--state", "s", "--next", "n"];
    const own = await probe(save, { BUN_JSC_useBaselineJIT: "1" });
    for (const env of own.parents) expect(env.filter((l) => /^(BUN_JSC_|MINDSAVE_SHORT_RUN)/.test(l))).toEqual(["BUN_JSC_useBaselineJIT=1"]);
    const on = await probe(save, { MINDSAVE_JIT: "on" });
    for (const env of on.parents) expect(env.filter((l) => /^(BUN_JSC_|MINDSAVE_SHORT_RUN)/.test(l))).toEqual([]);
  });
});
