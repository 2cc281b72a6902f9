// `bun bench/ab.ts CASE ROUNDS EXE...`: one command run by several builds of MindSave, interleaved
// round by round (every other round in reverse order), on a copy of the benchmark's data set
// (made by `bun run bench`, or here on first use), measured as `bun run bench` measures (bench/ru.c).
// Prints, per build: the median CPU (user + sys), the median of its ratio to the first build's CPU
// in the same round (what the machine's load moves least), and the median peak RSS. How each speed
// trick was measured (docs/benchmarks.md, "Speed tricks"): a build without it against one with it.
//   CASE: load, recall-rare, recall-common, session-start, post-tool-use, import (1,000 snapshots
//   into a fresh store), import-big (10,000). Options: --cache DIR (default .bench), --data DIR
//   (a data set already made, its ready.json read as it is).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { COMMON_WORD, FULL, RARE_WORD, type DataSet } from "./gen.ts";
import { percentile, runProc, useRusageHelper, type ProcSpec } from "./measure.ts";
import { compileRusageHelper, data, ROOT, workCopy } from "./setup.ts";

const { values, positionals } = parseArgs({
  args: Bun.argv.slice(2),
  options: { cache: { type: "string" }, data: { type: "string" } },
  allowPositionals: true,
});
const [kase, roundsText, ...exes] = positionals;
const rounds = Number(roundsText);
if (!kase || !(rounds >= 1) || !exes.length) {
  console.error("usage: bun bench/ab.ts CASE ROUNDS EXE... (see the top of bench/ab.ts)");
  process.exit(1);
}
const cacheRoot = resolve(values.cache ?? join(ROOT, ".bench"));
const ds: DataSet = values.data
  ? JSON.parse(readFileSync(join(values.data, "ready.json"), "utf8"))
  : data(cacheRoot, "10k", FULL, resolve(exes[0]));
const work = workCopy(ds, join(cacheRoot, `ab-${process.pid}`));
useRusageHelper(compileRusageHelper(join(cacheRoot, "bin")), work.dir);
const p0 = ds.projects[0].workspace;

/** A hook's payload for the largest project, in a file (the hook's stdin). */
function payload(o: Record<string, unknown>): string {
  const path = join(work.dir, "payload.json");
  writeFileSync(path, JSON.stringify({ session_id: "ab", transcript_path: ds.transcript, cwd: p0, ...o }));
  return path;
}

/** The command line of CASE, where it runs, its stdin; an import gets a fresh store for each run. */
function caseSpec(): { args: string[]; cwd: string; stdinFile?: string; freshHome?: boolean } {
  switch (kase) {
    case "load":
      return { args: ["load", "--latest"], cwd: p0 };
    case "recall-rare":
      return { args: ["recall", RARE_WORD], cwd: p0 };
    case "recall-common":
      return { args: ["recall", COMMON_WORD], cwd: p0 };
    case "session-start":
      return {
        args: ["hook", "session-start"],
        cwd: p0,
        stdinFile: payload({ hook_event_name: "SessionStart", source: "startup" }),
      };
    case "post-tool-use":
      return {
        args: ["hook", "post-tool-use"],
        cwd: p0,
        stdinFile: payload({
          hook_event_name: "PostToolUse",
          tool_name: "Edit",
          tool_input: { file_path: join(p0, "src/auth/token.ts"), old_string: "a", new_string: "b" },
          tool_response: { success: true },
        }),
      };
    case "import":
      return { args: ["import", ds.mid!.workspace], cwd: ds.mid!.workspace, freshHome: true };
    case "import-big":
      return { args: ["import", ds.big!.workspace], cwd: ds.big!.workspace, freshHome: true };
  }
  throw new Error(`No case ${kase}.`);
}

const c = caseSpec();
const samples = exes.map(() => [] as { cpu: number; rss: number }[]);
try {
  for (let r = 0; r < rounds; r++) {
    const order = exes.map((_, i) => i);
    if (r % 2) order.reverse();
    for (const i of order) {
      const home = c.freshHome ? join(work.dir, `import-${r}-${i}`) : work.home;
      mkdirSync(home, { recursive: true });
      const spec: ProcSpec = {
        cmd: [resolve(exes[i]), ...c.args],
        cwd: c.cwd,
        env: { ...work.env, MINDSAVE_HOME: home },
        stdinFile: c.stdinFile,
      };
      const s = await runProc(spec);
      if (c.freshHome) rmSync(home, { recursive: true, force: true });
      samples[i].push({ cpu: s.cpu, rss: s.rss });
    }
  }
} finally {
  rmSync(work.dir, { recursive: true, force: true });
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
for (const [i, exe] of exes.entries()) {
  const ratio = median(samples[i].map((s, r) => s.cpu / samples[0][r].cpu));
  console.log(
    `${kase}  ${exe}  n=${rounds}  cpu ${median(samples[i].map((s) => s.cpu)).toFixed(1)} ms  ` +
      `×${ratio.toFixed(3)} of the first  peak RSS ${median(samples[i].map((s) => s.rss)).toFixed(1)} MB`,
  );
}
