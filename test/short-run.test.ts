// Quick commands hold JavaScriptCore's JIT back in place (src/short-run.ts): they compile nothing
// and do not restart. An import restarts once in place without the top tier. Seen two ways: the
// runtime's own report of each compilation (BUN_JSC_reportCompileTimes, on stderr), and a `git` that
// MindSave runs (a script first on PATH, which records the environment its parent MindSave process
// was exec'd with, from /proc, and its own, then runs the real git): the parent's shows whether it
// restarted, its own that nothing leaks to children.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitProbePath, gitRepo, laptop, ok, SHIPPED_JIT, tempDir } from "./helpers.ts";
import { terminal, TMUX } from "./terminal.ts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI } from "./helpers.ts";

const realGit = Bun.which("git");
const linux = process.platform === "linux" && existsSync("/proc/self/environ");

/** A PATH whose `git` records the environments into `probes`, then runs the real one. */
const probingPath = (probes: string) =>
  gitProbePath(`tr '\\0' '\\n' < /proc/$PPID/environ > "${probes}/parent.$$"\nenv > "${probes}/own.$$"`);

/** Every environment the probe recorded, of the parent or its own, as lists of NAME=VALUE lines. */
function recorded(probes: string, kind: "parent" | "own"): string[][] {
  return readdirSync(probes)
    .filter((f) => f.startsWith(`${kind}.`))
    .map((f) => readFileSync(join(probes, f), "utf8").split("\n"));
}

/** The runtime's settings and the restart's mark in an environment. */
const tuning = (env: string[]) => env.filter((l) => /^(BUN_JSC_use|MINDSAVE_SHORT_RUN)/.test(l)).sort();
/** How many functions the JIT compiled, from the runtime's report on stderr. */
const compiled = (stderr: string) =>
  stderr.split("\n").filter((l) => /^Optimized .* using (Baseline|DFG|FTL)\b/.test(l)).length;
const REPORT = { BUN_JSC_reportCompileTimes: "1" };

describe.skipIf(!linux || !realGit)(
  "quick commands hold the JIT back; an import restarts without its top tier (Linux: read from /proc)",
  () => {
    /** Runs each of `commands` in one new repository (a new project: MindSave asks git about it) and returns what the probe saw. */
    async function probe(
      commands: string[][],
      extraEnv: Record<string, string> = {},
      prepare?: (repo: string) => void,
    ) {
      const probes = tempDir();
      // (The JIT setting as a person's environment has it: not the interpreter-only runs of other tests.)
      const pc = laptop("short-run");
      const repo = gitRepo(join(tempDir(), "repo"));
      prepare?.(repo);
      const stderr: string[] = [];
      for (const args of commands)
        stderr.push(
          (
            await ok(args, {
              cwd: repo,
              env: {
                ...pc.env,
                PATH: probingPath(probes),
                BUN_JSC_useJIT: undefined,
                BUN_JSC_useFTLJIT: undefined,
                ...extraEnv,
              },
            })
          ).stderr,
        );
      const parents = recorded(probes, "parent");
      const own = recorded(probes, "own");
      expect(parents.length).toBeGreaterThan(0); // MindSave did run git
      return { parents, own, stderr };
    }
    const save = ["save", "--goal", "quick run", "--state", "s", "--next", "n"];

    test("save and recall compile nothing and do not restart; git, their child, gets the environment as it was", async () => {
      const { parents, own, stderr } = await probe([save, ["recall", "quick"]], REPORT);
      expect(stderr.map(compiled)).toEqual([0, 0]);
      for (const env of parents) expect(tuning(env)).toEqual([]);
      for (const env of own) expect(tuning(env)).toEqual([]);
    });

    test("import, bulk work, restarts with only the top tier off; git gets the environment as it was", async () => {
      const tree = (repo: string) => {
        mkdirSync(join(repo, ".mindsave", "snapshots"), { recursive: true });
        writeFileSync(
          join(repo, ".mindsave", "snapshots", "one_2026-11-20.md"),
          "---\ncreated_at: 2026-11-20T09:00:00Z\ngoal: imported\nstate: s\nnext_action: n\n---\nbody\n",
        );
      };
      const imported = await probe([["import", "."]], {}, tree);
      for (const env of imported.parents)
        expect(tuning(env)).toEqual(["BUN_JSC_useFTLJIT=0", "MINDSAVE_SHORT_RUN=1"]);
      for (const env of imported.own) expect(tuning(env)).toEqual([]);
    });

    test("a setting of the person's own is left as it is, and MINDSAVE_JIT=on keeps the JIT: the same save compiles", async () => {
      const own = await probe([save], { ...REPORT, BUN_JSC_useBaselineJIT: "1" });
      for (const env of own.parents) expect(tuning(env)).toEqual(["BUN_JSC_useBaselineJIT=1"]);
      expect(compiled(own.stderr[0])).toBeGreaterThan(0);
      const on = await probe([save], { ...REPORT, MINDSAVE_JIT: "on" });
      for (const env of on.parents) expect(tuning(env)).toEqual([]);
      expect(compiled(on.stderr[0])).toBeGreaterThan(0);
    });
  },
);

describe.skipIf(!TMUX)("the TUI starts as a quick command, then works with the whole JIT (tmux)", () => {
  test("nothing is compiled before its first screen; from the person's first key on, the JIT as shipped", async () => {
    const term = terminal("mindsave-tui-jit-");
    try {
      await term.cli(["save", "--goal", "jit probe", "--state", "s", "--next", "n"]);
      const report = join(term.base, "compiles.txt");
      term.start(["ui"], 120, { env: { ...SHIPPED_JIT, ...REPORT }, stderr: report });
      await term.waitFor((s) => /[›>] +jit_probe/.test(s), "the picker's first row");
      expect(compiled(readFileSync(report, "utf8"))).toBe(0);
      // Moving about the picker (and its help) runs the same code again and again: compiled now.
      for (let i = 0; i < 20; i++) term.send(i % 2 ? "k" : "j", "?", "Escape");
      await term.waitFor(
        () => compiled(readFileSync(report, "utf8")) > 0,
        "a compilation after the first key",
      );
      term.send("q", "q");
      expect((await term.ended()).code).toBe(0);
    } finally {
      term.stop();
    }
  });
});

/** How many functions `mindsave mcp` compiled to answer one load, the JIT as shipped (mcp-client.ts's servers run without it). */
async function mcpLoadCompiles(extraEnv: Record<string, string> = {}): Promise<number> {
  const pc = laptop("short-run-mcp");
  const repo = gitRepo(join(tempDir(), "repo"));
  const home = tempDir();
  await ok(["--home", home, "save", "--goal", "mcp probe", "--state", "s", "--next", "n"], {
    cwd: repo,
    env: pc.env,
  });
  const transport = new StdioClientTransport({
    command: CLI[0],
    args: [...CLI.slice(1), "mcp", "--home", home],
    cwd: repo,
    env: { ...pc.env, PATH: process.env.PATH ?? "", NO_COLOR: "1", ...REPORT, ...extraEnv },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => (transport.onclose = () => resolve()));
  const client = new Client({ name: "short-run-test", version: "0.0.0" });
  await client.connect(transport);
  try {
    const r = (await client.callTool({ name: "load", arguments: {} })) as { content: { text?: string }[] };
    expect(r.content[0].text).toContain("mcp probe");
  } finally {
    await client.close();
  }
  await exited;
  return compiled(stderr);
}

test("the MCP server answers as a quick command: a load through it compiles nothing (with MINDSAVE_JIT=on it does)", async () => {
  expect(await mcpLoadCompiles()).toBe(0);
  expect(await mcpLoadCompiles({ MINDSAVE_JIT: "on" })).toBeGreaterThan(0);
});
