// `bun run bench` (= `bun bench/run.ts`): MindSave at scale, measured as whole processes.
//
//   bun bench/run.ts                 stores of 1k, 10k and 100k snapshots (50 projects each, one
//                                    failure per five snapshots), each cached in .bench/
//   bun bench/run.ts --sizes 1k,10k  a quicker run (any of 1k, 10k, 100k)
//   bun bench/run.ts --tiny          3 projects, 20 snapshots: the smoke test's size
//   options: --runs N (rounds of the quick commands, default 20), --heavy-runs N (import, export,
//            sync; default 3), --warmup N, --results DIR (default bench/results; --tiny:
//            .bench/results-tiny), --cache DIR (default .bench), --exe BIN (skip the build)
//
// Every command runs interleaved with its baselines (the runtime floor: a compiled hello world;
// the spec's file-based way on the same data; the sqlite3 CLI with the same query), so each
// figure is also a ratio to a floor measured in the same run, at the same size. Each size is
// measured alone (its quick commands, `doctor --full`, the TUI, an import into it); the 10k size
// also carries the size-independent parts (import into a fresh store, export, first sync, MCP).
// Growth is each operation's ratio to the floor at the largest size over the same at the
// smallest. Each part has a time budget (BUDGET): past it, fewer runs are made and the results
// say so. The first run generates each size's data set (through `mindsave import`, so its speed
// is the engine's; the 100k store takes many minutes); later runs reuse it from .bench/, keyed by
// the generator's version, its config and the schema. Results: tables on stdout, JSON in
// bench/results/. Never part of `bun test` (test/bench-smoke.test.ts runs the --tiny size only).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { encode } from "gpt-tokenizer/encoding/cl100k_base";
import { quickCases, type Binaries } from "./cases.ts";
import { COMMON_WORD, RARE_WORD, SIZES, TINY, type DataSet, type GenConfig } from "./gen.ts";
import { runProc, stats, useRusageHelper } from "./measure.ts";
import {
  doctorFullPhase,
  exportPhase,
  importIntoPhase,
  importPhase,
  mcpPhase,
  syncPhase,
  tuiPhase,
  type PhaseContext,
} from "./phases.ts";
import {
  compileBaseline,
  compileLibsqlBaseline,
  compileRusageHelper,
  data,
  git,
  hostExe,
  log,
  machine,
  ROOT,
  workCopy,
  type Work,
} from "./setup.ts";
import {
  evaluateGoals,
  growthGoals,
  renderTables,
  type Measurement,
  type Results,
  type SizeResult,
} from "./report.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    tiny: { type: "boolean", default: false },
    sizes: { type: "string" },
    runs: { type: "string" },
    "heavy-runs": { type: "string" },
    results: { type: "string" },
    cache: { type: "string" },
    exe: { type: "string" },
    warmup: { type: "string" },
  },
});
const tiny = values.tiny!;
const sizeNames = tiny ? ["tiny"] : (values.sizes ?? "1k,10k,100k").split(",").map((x) => x.trim());
for (const n of sizeNames)
  if (!tiny && !SIZES[n]) throw new Error(`Unknown size ${n}; choose from ${Object.keys(SIZES).join(", ")}.`);
const configOf = (n: string): GenConfig => (tiny ? TINY : SIZES[n]);
const quickRuns = Number(values.runs ?? (tiny ? 3 : 20));
const heavyRuns = Number(values["heavy-runs"] ?? (tiny ? 1 : 3));
/** Unmeasured runs of each case before its first measured one (the tiny size skips them). */
const warmups = Number(values.warmup ?? (tiny ? 0 : 1));
/**
 * Seconds each part may take before it stops adding runs (every measurement gets at least one
 * run, the quick commands three rounds). The quick commands of each size get QUICK_SECONDS.
 */
const BUDGET = tiny
  ? { economy: 5, tui: 1, mcp: 1, import: 30, export: 30, sync: 2, syncAgain: 1, doctorFull: 1 }
  : { economy: 20, tui: 12, mcp: 10, import: 40, export: 25, sync: 30, syncAgain: 5, doctorFull: 60 };
const QUICK_SECONDS = tiny ? 0 : 75;
const cacheRoot = resolve(values.cache ?? join(ROOT, ".bench"));
const resultsDir = resolve(
  values.results ?? (tiny ? join(cacheRoot, "results-tiny") : join(ROOT, "bench", "results")),
);
const started = performance.now();
const notes: string[] = [];
const loadStart = loadavg()[0];
if (loadStart > 2.5)
  notes.push(
    `The machine was busy when the run started (load average ${loadStart.toFixed(1)} on ${navigator.hardwareConcurrency} cores): wall times are inflated; CPU times much less so.`,
  );

const binDir = join(cacheRoot, "bin");
log(`building the host binary${values.exe ? " (given)" : ""} and the baselines…`);
const exe = await hostExe(values.exe, binDir);
const sqlite = Bun.spawnSync(["sh", "-c", "command -v sqlite3"], { stdout: "pipe" }).stdout.toString().trim();
if (!sqlite) notes.push("sqlite3 is not installed: its baselines are skipped (apt-get install sqlite3).");
const bins: Binaries = {
  exe,
  hello: compileBaseline("hello", binDir),
  specLoad: compileBaseline("spec-load", binDir),
  libsqlFloor: await compileLibsqlBaseline("libsql-select", binDir),
  sqliteFloor: compileBaseline("sqlite-select", binDir),
  sqlite,
};
const ru = compileRusageHelper(binDir);
if (!ru)
  notes.push(
    "No C compiler: CPU and wall come from Bun's resourceUsage(), and max RSS is at least the harness's own RSS (Linux carries the parent's high-water mark into a spawned child), so the memory goal is not judged.",
  );
// Every size's data set first (a missing one is generated, which takes long), then the measurements.
const sets = sizeNames.map((n) => {
  const ds = data(cacheRoot, n, configOf(n), exe);
  log(`${n}: data set ${ds.dir} (generated in ${ds.generatedSeconds.toFixed(1)} s when it was made)`);
  return { name: n, ds };
});
let work: Work | null = null;
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    if (work) rmSync(work.dir, { recursive: true, force: true });
    process.exit(130);
  });
}

/** A part that fails is named in the notes; the others still run and the results are written. */
async function part<T>(name: string, fn: () => Promise<T>): Promise<T | null> {
  try {
    return await fn();
  } catch (e) {
    notes.push(`${name} failed: ${(e as Error).message.split("\n").slice(0, 3).join(" ")}`);
    log(`${name} failed: ${(e as Error).message}`);
    return null;
  }
}

/** Restore economy: the restore block against the file the spec's /load reads, project by project. */
async function restoreEconomy(ds: DataSet, w: Work, size: string): Promise<SizeResult["economy"]> {
  const economy: SizeResult["economy"]["projects"] = [];
  // The biggest project first, then the rest in a fixed shuffled order: a run cut short by the
  // budget still has a fair sample of sizes.
  const order = [
    ds.projects[0],
    ...ds.projects
      .slice(1)
      .map((p, i) => ({ p, k: (i * 7919) % 997 }))
      .sort((a, b) => a.k - b.k)
      .map((x) => x.p),
  ];
  const t0 = performance.now();
  for (const p of order) {
    if (economy.length >= 3 && performance.now() - t0 > BUDGET.economy * 1000) {
      notes.push(
        `${size}: restore economy of ${economy.length} of ${ds.projects.length} projects (a random sample), to stay within its ${BUDGET.economy} s budget.`,
      );
      break;
    }
    const r = await runProc({ cmd: [exe, "load", "--latest", "--json"], cwd: p.workspace, env: w.env });
    const block = JSON.parse(r.stdout) as { tokens?: number; restore_block?: string };
    const index = JSON.parse(readFileSync(join(p.exported, ".mindsave", "index.json"), "utf8")) as {
      snapshots: { path: string }[];
    };
    const file = readFileSync(join(p.exported, index.snapshots[0].path), "utf8");
    economy.push({
      project: p.name,
      snapshots: p.snapshots,
      block_tokens: block.tokens ?? encode(block.restore_block ?? "").length,
      file_tokens: encode(file).length,
    });
  }
  return {
    projects: economy,
    block_tokens: stats(economy.map((e) => e.block_tokens)),
    block_p95: p95(economy.map((e) => e.block_tokens)),
    file_tokens: stats(economy.map((e) => e.file_tokens)),
    file_p95: p95(economy.map((e) => e.file_tokens)),
  };
}

/** The quick commands, round-robin: each round runs every case once, starting one further along. */
async function roundRobin(cases: Measurement[], size: string): Promise<void> {
  log(
    `${size}: quick commands: ${cases.length} cases × up to ${quickRuns} rounds in about ${QUICK_SECONDS} s, interleaved (${warmups} warm-up run(s) each first)…`,
  );
  for (let w = 0; w < warmups; w++) for (const c of cases) await runProc(c.spec!);
  const t0 = performance.now();
  for (let r = 0; r < quickRuns; r++) {
    if (r >= 3 && performance.now() - t0 > QUICK_SECONDS * 1000) {
      notes.push(`${size}: quick commands ${r} of ${quickRuns} rounds, to stay within ${QUICK_SECONDS} s.`);
      break;
    }
    for (let i = 0; i < cases.length; i++) {
      const c = cases[(i + r) % cases.length];
      c.samples.push(await runProc(c.spec!));
    }
  }
}

/** One size: its working copy, economy, quick commands, doctor --full, TUI, and the heavy parts where it has them. */
async function measureSize(name: string, ds: DataSet): Promise<SizeResult> {
  log(`${name}: copying the store…`);
  const w = workCopy(ds, join(cacheRoot, `run-${process.pid}`));
  work = w;
  useRusageHelper(ru, w.dir);
  try {
    const economy = await restoreEconomy(ds, w, name);
    const cases = quickCases(bins, ds, w);
    const phase: PhaseContext = {
      exe,
      hello: bins.hello,
      ds,
      work: w,
      warmups,
      heavyRuns,
      tiny,
      notes,
      budget: BUDGET,
    };
    const heavy: Measurement[] = [];
    // The long ones first (each has a first run it cannot skip); only the size that has their trees.
    if (ds.big) {
      const imported = await part("import", () => importPhase(phase));
      heavy.push(...(imported?.measurements ?? []));
      if (imported)
        heavy.push(...((await part("export", () => exportPhase(phase, imported.smallHome))) ?? []));
      heavy.push(...((await part("sync", () => syncPhase(phase))) ?? []));
    }
    await roundRobin(cases, name);
    heavy.push(...((await part(`${name} doctor --full`, () => doctorFullPhase(phase))) ?? []));
    heavy.push(...((await part(`${name} TUI`, () => tuiPhase(phase))) ?? []));
    if (ds.big) heavy.push(...((await part("MCP", () => mcpPhase(phase))) ?? []));
    heavy.push(...((await part(`${name} import into`, () => importIntoPhase(phase))) ?? []));
    // The table's order: the quick commands, then doctor --full, the TUI, MCP, import, export and sync.
    const rank = (m: Measurement) =>
      ["doctor", "tui", "mcp", "import", "export", "sync"].findIndex((k) => m.id.startsWith(k));
    const all = [...cases, ...heavy.sort((a, b) => rank(a) - rank(b))];
    const size: SizeResult = {
      size: name,
      config: ds.config,
      data_set: ds.dir.split("/").pop()!,
      project_snapshots: ds.projects[0].snapshots,
      measurements: Object.fromEntries(all.map((m) => [m.id, measurementResult(m)])),
      economy,
      goals: [],
    };
    size.goals = evaluateGoals(size);
    return size;
  } finally {
    rmSync(w.dir, { recursive: true, force: true });
    work = null;
  }
}

function measurementResult(m: Measurement): SizeResult["measurements"][string] {
  return {
    label: m.label,
    kind: m.kind,
    floor: m.floor ?? null,
    of: m.of ?? null,
    throughput: m.throughput ?? null,
    command: m.spec?.cmd.map((a) => a.replace(ROOT + "/", "")).join(" ") ?? null,
    n: m.samples.length,
    wall_ms: stats(m.samples.map((s) => s.wall)),
    cpu_ms: stats(m.samples.map((s) => s.cpu)),
    user_ms: stats(m.samples.map((s) => s.user)),
    sys_ms: stats(m.samples.map((s) => s.sys)),
    rss_mb: stats(m.samples.map((s) => s.rss)),
    samples: m.samples.map((s) => ({
      wall_ms: round(s.wall),
      cpu_ms: round(s.cpu),
      user_ms: round(s.user),
      sys_ms: round(s.sys),
      rss_mb: round(s.rss),
    })),
  };
}

const sizes: SizeResult[] = [];
for (const { name, ds } of sets) sizes.push(await measureSize(name, ds));
const commit = git(["rev-parse", "--short=12", "HEAD"]) || "unknown";
const dirty = git(["status", "--porcelain", "--", "src", "ui", "build.ts", "package.json"]) !== "";
const date = new Date().toISOString().slice(0, 10);
const results: Results = {
  date: new Date().toISOString(),
  commit,
  dirty,
  bun: Bun.version,
  machine: { ...machine(), load_average: { start: round(loadStart), end: round(loadavg()[0]) } },
  words: { rare: RARE_WORD, common: COMMON_WORD },
  runs: { quick: quickRuns, heavy: heavyRuns },
  sizes,
  growth: [],
  notes: [...new Set(notes)], // a note said at each size once
  seconds: 0,
};
results.growth = growthGoals(sizes);
results.seconds = round((performance.now() - started) / 1000);
const table = renderTables(results);
console.log(table);
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `${date}-${commit}${dirty ? "-dirty" : ""}.json`);
const json = JSON.stringify(results, null, 1) + "\n";
writeFileSync(file, json);
writeFileSync(join(resultsDir, "latest.json"), json);
writeFileSync(join(resultsDir, "latest.md"), table + "\n");
log(`results: ${file} (${results.seconds} s in all)`);

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)] : NaN;
}
