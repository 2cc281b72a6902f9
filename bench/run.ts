// `bun run bench` (= `bun bench/run.ts`): MindSave at scale, measured as whole processes.
//
//   bun bench/run.ts                 50 projects, 10,000 snapshots, 2,000 failures (cached in .bench/)
//   bun bench/run.ts --tiny          3 projects, 20 snapshots: the smoke test's size
//   options: --runs N (rounds of the quick commands, default 20), --heavy-runs N (import, export,
//            sync; default 3), --warmup N, --results DIR (default bench/results; --tiny:
//            .bench/results-tiny), --cache DIR (default .bench), --exe BIN (skip the build)
//
// Every command runs interleaved with its baselines (the runtime floor: a compiled hello world;
// the spec's file-based way on the same data; the sqlite3 CLI with the same query), so each
// figure is also a ratio. Each part has a time budget (BUDGET): past it, fewer runs are made and
// the results say so, so a slow engine still gets a full report in about 5 minutes. The first run
// generates the data set (through `mindsave import`, so its speed is the engine's); later runs
// reuse it from .bench/. Results: a table on stdout, JSON in bench/results/. Never part of `bun
// test` (test/bench-smoke.test.ts runs the --tiny size only).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { encode } from "gpt-tokenizer/encoding/cl100k_base";
import { COMMON_WORD, FULL, RARE_WORD, TINY } from "./gen.ts";
import { runProc, stats, useRusageHelper, type ProcSpec } from "./measure.ts";
import { exportPhase, importPhase, mcpPhase, syncPhase, tuiPhase, type PhaseContext } from "./phases.ts";
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
} from "./setup.ts";
import { evaluateGoals, renderTable, type Measurement, type Results } from "./report.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    tiny: { type: "boolean", default: false },
    runs: { type: "string" },
    "heavy-runs": { type: "string" },
    results: { type: "string" },
    cache: { type: "string" },
    exe: { type: "string" },
    warmup: { type: "string" },
  },
});
const tiny = values.tiny!;
const config = tiny ? TINY : FULL;
const quickRuns = Number(values.runs ?? (tiny ? 3 : 20));
const heavyRuns = Number(values["heavy-runs"] ?? (tiny ? 1 : 3));
/** Unmeasured runs of each case before its first measured one (the tiny size skips them). */
const warmups = Number(values.warmup ?? (tiny ? 0 : 1));
/**
 * Seconds each part may take before it stops adding runs (every measurement gets at least one
 * run, the quick commands three rounds). The quick commands run last but one and get what is left
 * of TOTAL_SECONDS (keeping RESERVE_SECONDS for the TUI and MCP), so a slow engine still gets a
 * whole report in about 5 minutes.
 */
const BUDGET = tiny
  ? { economy: 5, tui: 1, mcp: 1, import: 5, export: 5, sync: 2, syncAgain: 1 }
  : { economy: 45, tui: 12, mcp: 10, import: 40, export: 25, sync: 30, syncAgain: 5 };
const TOTAL_SECONDS = tiny ? 0 : 280;
const RESERVE_SECONDS = 25;
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
const hello = compileBaseline("hello", binDir);
const specLoad = compileBaseline("spec-load", binDir);
const libsqlFloor = await compileLibsqlBaseline("libsql-select", binDir);
const sqliteFloor = compileBaseline("sqlite-select", binDir);
const ds = data(cacheRoot, tiny ? "tiny" : "full", config, exe);
log(`data set ${ds.dir} (generated in ${ds.generatedSeconds.toFixed(1)} s when it was made)`);
const work = workCopy(ds, join(cacheRoot, `run-${process.pid}`));
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    rmSync(work.dir, { recursive: true, force: true });
    process.exit(130);
  });
}
const env = work.env;
const ru = compileRusageHelper(binDir);
useRusageHelper(ru, work.dir);
if (!ru)
  notes.push(
    "No C compiler: CPU and wall come from Bun's resourceUsage(), and max RSS is at least the harness's own RSS (Linux carries the parent's high-water mark into a spawned child), so the memory goal is not judged.",
  );
const p0 = ds.projects[0];
const exported = join(p0.exported, ".mindsave");

const sqlite = Bun.spawnSync(["sh", "-c", "command -v sqlite3"], { stdout: "pipe" }).stdout.toString().trim();
if (!sqlite) notes.push("sqlite3 is not installed: its baselines are skipped (apt-get install sqlite3).");
const sql = (q: string) => (sqlite ? [sqlite, "-readonly", work.db, q] : []);
let projectId = "";
if (sqlite) {
  const r = Bun.spawnSync(
    [
      sqlite,
      "-readonly",
      work.db,
      `SELECT id FROM projects WHERE identity = 'file:${p0.id}' AND deleted = 0`,
    ],
    { stdout: "pipe" },
  );
  projectId = r.stdout.toString().trim().split("\n")[0] ?? "";
}
const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;

try {
  // ---------------------------------------------------------------------------------------------
  // Restore economy, on the untouched copy: the restore block against the file the spec's /load reads.
  log("restore economy…");
  const economy: { project: string; snapshots: number; block_tokens: number; file_tokens: number }[] = [];
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
  const economyStart = performance.now();
  for (const p of order) {
    if (economy.length >= 3 && performance.now() - economyStart > BUDGET.economy * 1000) {
      notes.push(
        `Restore economy: ${economy.length} of ${ds.projects.length} projects (a random sample), to stay within its ${BUDGET.economy} s budget.`,
      );
      break;
    }
    const r = await runProc({ cmd: [exe, "load", "--latest", "--json"], cwd: p.workspace, env });
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

  // ---------------------------------------------------------------------------------------------
  // The quick commands and their baselines (run after the long measurements, below).
  const payload = (name: string, o: Record<string, unknown>) => {
    const path = join(work.dir, `payload-${name}.json`);
    writeFileSync(
      path,
      JSON.stringify({
        session_id: "bench-session",
        transcript_path: ds.transcript,
        cwd: p0.workspace,
        ...o,
      }),
    );
    return path;
  };
  const payloads = {
    "session-start": payload("session-start", { hook_event_name: "SessionStart", source: "startup" }),
    "post-tool-use": payload("post-tool-use", {
      hook_event_name: "PostToolUse",
      tool_name: "Edit",
      tool_input: { file_path: join(p0.workspace, "src/auth/token.ts"), old_string: "a", new_string: "b" },
      tool_response: { success: true },
    }),
    stop: payload("stop", { hook_event_name: "Stop", stop_hook_active: false }),
  };
  const sh = (cmd: string): string[] => ["sh", "-c", cmd];
  const q = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const at = (cmd: string[], extra: Partial<ProcSpec> = {}): ProcSpec => ({
    cmd,
    cwd: p0.workspace,
    env,
    ...extra,
  });
  const cases: Measurement[] = [];
  const add = (m: Omit<Measurement, "samples">) => {
    if (m.spec && !m.spec.cmd.length) return; // a baseline whose tool is missing
    cases.push({ ...m, samples: [] });
  };
  add({ id: "hello", label: "runtime floor: compiled hello world", kind: "floor", spec: at([hello]) });
  add({
    id: "hello-pipe",
    label: "runtime floor for hooks: sh, cat payload | hello",
    kind: "floor",
    spec: at(sh(`cat ${q(payloads["post-tool-use"])} | ${q(hello)}`)),
  });
  // Our stack's own floor: opening the store with Bun's SQLite, one SELECT (and with libSQL's
  // native module, what an encrypted store pays).
  add({
    id: "sqlite",
    label: "store floor: compiled, opens the store read-only with Bun's SQLite, one SELECT",
    kind: "floor",
    floor: "hello",
    spec: at([sqliteFloor, work.db]),
  });
  add({
    id: "libsql",
    label: "libSQL floor (encrypted stores): compiled, loads libSQL, opens the store read-only, one SELECT",
    kind: "floor",
    floor: "hello",
    spec: at([libsqlFloor, work.db]),
  });
  add({
    id: "version",
    label: "mindsave --version",
    kind: "mindsave",
    floor: "hello",
    spec: at([exe, "--version"]),
  });
  add({
    id: "load",
    label: "mindsave load --latest",
    kind: "mindsave",
    floor: "hello",
    spec: at([exe, "load", "--latest"]),
  });
  add({
    id: "load.file",
    label: "↳ spec's file load (index.json + 1 file)",
    kind: "file",
    of: "load",
    floor: "hello",
    spec: at([specLoad, exported]),
  });
  add({
    id: "load.sqlite",
    label: "↳ sqlite3, same queries",
    kind: "sqlite",
    of: "load",
    floor: "hello",
    spec: at(
      sql(
        `SELECT * FROM snapshots WHERE project_id = ${lit(projectId)} AND deleted = 0 ORDER BY created_at DESC, id DESC LIMIT 1; SELECT * FROM failures WHERE deleted = 0 AND (project_id = ${lit(projectId)} OR scope = 'global') ORDER BY last_seen DESC;`,
      ),
    ),
  });
  add({
    id: "save",
    label: "mindsave save (YAML on stdin, 10 KB Layer 3)",
    kind: "mindsave",
    floor: "hello",
    spec: at([exe, "save"], { stdinFile: ds.saveInput }),
  });
  for (const [word, which] of [
    [RARE_WORD, "rare"],
    [COMMON_WORD, "common"],
  ] as const) {
    add({
      id: `recall.${which}`,
      label: `mindsave recall ${word} (${which})`,
      kind: "mindsave",
      floor: "hello",
      spec: at([exe, "recall", word]),
    });
    add({
      id: `recall.${which}.grep`,
      label: `↳ grep -r ${word} .mindsave/`,
      kind: "grep",
      of: `recall.${which}`,
      floor: "hello",
      spec: at(["grep", "-r", word, ".mindsave"], { cwd: p0.exported, ok: [0, 1] }),
    });
    add({
      id: `recall.${which}.sqlite`,
      label: "↳ sqlite3, same FTS query",
      kind: "sqlite",
      of: `recall.${which}`,
      floor: "hello",
      spec: at(
        sql(
          `SELECT s.id, s.name, s.created_at, s.goal, substr(f.layer3, max(1, instr(lower(f.layer3), ${lit(word)}) - 80), 240) FROM snapshot_search f JOIN snapshots s ON s.rowid = f.rowid WHERE s.deleted = 0 AND snapshot_search MATCH ${lit(`"${word}"`)} AND s.project_id = ${lit(projectId)} ORDER BY s.created_at DESC, s.id DESC LIMIT 21;`,
        ),
      ),
    });
  }
  add({
    id: "list",
    label: "mindsave snapshots list",
    kind: "mindsave",
    floor: "hello",
    spec: at([exe, "snapshots", "list"]),
  });
  add({
    id: "list.sqlite",
    label: "↳ sqlite3, same query",
    kind: "sqlite",
    of: "list",
    floor: "hello",
    spec: at(
      sql(
        `SELECT id, name, kind, status, created_at, goal, blocker, length(CAST(goal || state || next_action || blocker || active_files || constraints || decisions || failure_graph || layer3 AS BLOB)) FROM snapshots WHERE project_id = ${lit(projectId)} AND deleted = 0 ORDER BY created_at DESC, id DESC;`,
      ),
    ),
  });
  add({
    id: "stats",
    label: "mindsave snapshots stats",
    kind: "mindsave",
    floor: "hello",
    spec: at([exe, "snapshots", "stats"]),
  });
  add({
    id: "stats.sqlite",
    label: "↳ sqlite3, same queries",
    kind: "sqlite",
    of: "stats",
    floor: "hello",
    spec: at(
      sql(
        `SELECT count(*), sum(length(goal) + length(state) + length(next_action) + length(blocker) + length(active_files)), sum(length(constraints) + length(decisions) + length(failure_graph)), sum(length(layer3)), min(created_at), max(created_at) FROM snapshots WHERE project_id = ${lit(projectId)} AND deleted = 0; SELECT status, count(*) FROM snapshots WHERE project_id = ${lit(projectId)} AND deleted = 0 GROUP BY status;`,
      ),
    ),
  });
  for (const event of ["session-start", "post-tool-use", "stop"] as const) {
    add({
      id: `hook.${event}`,
      label: `mindsave hook ${event}${event === "session-start" ? "" : " (5 MB transcript)"}`,
      kind: "mindsave",
      floor: "hello-pipe",
      spec: at(sh(`cat ${q(payloads[event])} | ${q(exe)} hook ${event}`)),
    });
  }

  // ---------------------------------------------------------------------------------------------
  const phase: PhaseContext = { exe, hello, ds, work, warmups, heavyRuns, tiny, notes, budget: BUDGET };
  const heavy: Measurement[] = [];
  /** A part that fails is named in the notes; the others still run and the results are written. */
  const part = async <T>(name: string, fn: () => Promise<T>): Promise<T | null> => {
    try {
      return await fn();
    } catch (e) {
      notes.push(`${name} failed: ${(e as Error).message.split("\n").slice(0, 3).join(" ")}`);
      log(`${name} failed: ${(e as Error).message}`);
      return null;
    }
  };
  // The long ones first (each has a first run it cannot skip), so what is left is known.
  const imported = await part("import", () => importPhase(phase));
  heavy.push(...(imported?.measurements ?? []));
  if (imported) heavy.push(...((await part("export", () => exportPhase(phase, imported.smallHome))) ?? []));
  heavy.push(...((await part("sync", () => syncPhase(phase))) ?? []));

  // The quick commands, round-robin: each round runs every case once, starting one further along.
  const quickSeconds = TOTAL_SECONDS
    ? Math.max(0, TOTAL_SECONDS - RESERVE_SECONDS - (performance.now() - started) / 1000)
    : 0;
  log(
    `quick commands: ${cases.length} cases × up to ${quickRuns} rounds in about ${Math.round(quickSeconds)} s, interleaved (${warmups} warm-up run(s) each first)…`,
  );
  for (let w = 0; w < warmups; w++) for (const c of cases) await runProc(c.spec!);
  const quickStart = performance.now();
  for (let r = 0; r < quickRuns; r++) {
    if (r >= 3 && performance.now() - quickStart > quickSeconds * 1000) {
      notes.push(
        `Quick commands: ${r} of ${quickRuns} rounds, to stay within the time left for them (${Math.round(quickSeconds)} s).`,
      );
      break;
    }
    for (let i = 0; i < cases.length; i++) {
      const c = cases[(i + r) % cases.length];
      c.samples.push(await runProc(c.spec!));
    }
  }
  heavy.push(
    ...((await part("TUI", () => tuiPhase(phase))) ?? []),
    ...((await part("MCP", () => mcpPhase(phase))) ?? []),
  );

  // ---------------------------------------------------------------------------------------------
  // The table's order: the quick commands, then the TUI, MCP, import, export and sync.
  const rank = (m: Measurement) =>
    ["tui", "mcp", "import", "export", "sync"].findIndex((k) => m.id.startsWith(k));
  const all = [...cases, ...heavy.sort((a, b) => rank(a) - rank(b))];
  const commit = git(["rev-parse", "--short=12", "HEAD"]) || "unknown";
  const dirty = git(["status", "--porcelain", "--", "src", "ui", "build.ts", "package.json"]) !== "";
  const date = new Date().toISOString().slice(0, 10);
  const results: Results = {
    date: new Date().toISOString(),
    commit,
    dirty,
    bun: Bun.version,
    machine: { ...machine(), load_average: { start: round(loadStart), end: round(loadavg()[0]) } },
    size: tiny ? "tiny" : "full",
    config,
    data_set: ds.dir.split("/").pop()!,
    words: { rare: RARE_WORD, common: COMMON_WORD },
    runs: { quick: quickRuns, heavy: heavyRuns },
    measurements: Object.fromEntries(
      all.map((m) => [
        m.id,
        {
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
        },
      ]),
    ),
    economy: {
      projects: economy,
      block_tokens: stats(economy.map((e) => e.block_tokens)),
      block_p95: p95(economy.map((e) => e.block_tokens)),
      file_tokens: stats(economy.map((e) => e.file_tokens)),
      file_p95: p95(economy.map((e) => e.file_tokens)),
    },
    goals: [],
    notes,
    seconds: 0,
  };
  results.goals = evaluateGoals(results);
  results.seconds = round((performance.now() - started) / 1000);
  const table = renderTable(results);
  console.log(table);
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${date}-${commit}${dirty ? "-dirty" : ""}.json`);
  const json = JSON.stringify(results, null, 1) + "\n";
  writeFileSync(file, json);
  writeFileSync(join(resultsDir, "latest.json"), json);
  writeFileSync(join(resultsDir, "latest.md"), table + "\n");
  log(`results: ${file} (${results.seconds} s in all)`);
} finally {
  rmSync(work.dir, { recursive: true, force: true });
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)] : NaN;
}
