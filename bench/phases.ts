// The benchmark's longer measurements: the TUI's first paint, the MCP round trip, import, export
// and sync. Each has a time budget: it always gets its first run, then adds runs while the budget
// lasts; import and export first measure the 1,000-snapshot tree and go on to 10,000 only when the
// rate seen says that fits (otherwise a note says what 10,000 would take).
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeImportTree, type DataSet } from "./gen.ts";
import { mcpLoad, runProc, Tmux, tmuxFirstPaint, tuiFirstPaint, type Sample } from "./measure.ts";
import type { Measurement } from "./report.ts";
import { log, type Work } from "./setup.ts";

export interface PhaseContext {
  exe: string;
  hello: string;
  ds: DataSet;
  work: Work;
  warmups: number;
  heavyRuns: number;
  tiny: boolean;
  notes: string[];
  /** Seconds each phase may use (after its first run). */
  budget: {
    tui: number;
    mcp: number;
    import: number;
    export: number;
    sync: number;
    syncAgain: number;
    doctorFull: number;
  };
}

/** Runs `one` at least `min` times (1), then up to `runs` times while `seconds` last. */
async function budgeted(
  m: Measurement,
  runs: number,
  seconds: number,
  notes: string[],
  one: (i: number) => Promise<Sample>,
  min = 1,
): Promise<Measurement> {
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) {
    if (i >= min && performance.now() - t0 > seconds * 1000) {
      notes.push(`${m.id}: ${i} of ${runs} runs, to stay within its ${Math.round(seconds)} s budget.`);
      break;
    }
    m.samples.push(await one(i));
  }
  return m;
}

const fmtN = (n: number) => n.toLocaleString("en-US");

export async function tuiPhase(c: PhaseContext): Promise<Measurement[]> {
  if (!Tmux.available()) {
    c.notes.push("tmux is not installed: the TUI's first paint is not measured (apt-get install tmux).");
    return [];
  }
  const p0 = c.ds.projects[0];
  const runs = c.tiny ? 1 : 5;
  log(`TUI first paint through tmux: up to ${runs} runs…`);
  const floor: Measurement = {
    id: "tui.floor",
    label: "runtime floor in tmux: hello world's output on screen",
    kind: "floor",
    samples: [],
  };
  const picker: Measurement = {
    id: "tui",
    label: "mindsave ui: first picker row",
    kind: "mindsave",
    floor: "tui.floor",
    samples: [],
  };
  const home: Measurement = {
    id: "tui.home",
    label: "↳ mindsave ui: first home-screen row",
    kind: "mindsave",
    floor: "tui.floor",
    samples: [],
  };
  const once = async (i: number) => {
    const socket = `mindsave-bench-${process.pid}-${i}`;
    const f = await tmuxFirstPaint({
      exe: c.hello,
      cwd: p0.workspace,
      env: c.work.env,
      socket: `${socket}-f`,
      timeFile: join(c.work.dir, `tui-floor-${i}.txt`),
      expect: "hello",
    });
    const t = await tuiFirstPaint({
      exe: c.exe,
      home: c.work.home,
      cwd: p0.workspace,
      env: c.work.env,
      socket,
      timeFile: join(c.work.dir, `tui-${i}.txt`),
      project: p0.name,
    });
    return { f, t };
  };
  for (let w = 0; w < Math.min(1, c.warmups); w++) await once(-1);
  await budgeted(picker, runs, c.budget.tui, c.notes, async (i) => {
    const { f, t } = await once(i);
    floor.samples.push(f);
    if (Number.isFinite(t.home)) home.samples.push({ ...t.sample, wall: t.home });
    return { ...t.sample, wall: t.picker };
  });
  if (!home.samples.length)
    c.notes.push("The TUI opened straight on the current project's picker (no home screen to time).");
  return home.samples.length ? [floor, picker, home] : [floor, picker];
}

export async function mcpPhase(c: PhaseContext): Promise<Measurement[]> {
  const p0 = c.ds.projects[0];
  const runs = c.tiny ? 3 : 10;
  log(`MCP load round trip: up to ${runs} runs…`);
  const m: Measurement = {
    id: "mcp.load",
    label: "mindsave mcp: initialize + tools/call load, to the answer",
    kind: "mindsave",
    floor: "hello",
    samples: [],
  };
  const opts = { exe: c.exe, home: c.work.home, cwd: p0.workspace, env: c.work.env };
  for (let w = 0; w < c.warmups; w++) await mcpLoad(opts);
  await budgeted(m, runs, c.budget.mcp, c.notes, async () => {
    const s = await mcpLoad(opts);
    return { ...s, wall: s.answer };
  });
  return [m];
}

/**
 * Import into a fresh store (host bench-b): the 1,000-snapshot tree, then 10,000 if it fits.
 * The first small import's store is kept (`smallHome`) for the export phase.
 */
export async function importPhase(
  c: PhaseContext,
): Promise<{ measurements: Measurement[]; smallHome: string }> {
  const out: Measurement[] = [];
  const t0 = performance.now();
  const smallHome = join(c.work.dir, "import-small-0");
  const one = (tree: { workspace: string }, i: number, tag: string) => async () => {
    const home = join(c.work.dir, `import-${tag}-${i}`);
    mkdirSync(home, { recursive: true });
    try {
      return await runProc({
        cmd: [c.exe, "import", tree.workspace],
        cwd: tree.workspace,
        env: { ...c.work.env, MINDSAVE_HOME: home, MINDSAVE_HOST: "bench-b" },
      });
    } finally {
      if (home !== smallHome) rmSync(home, { recursive: true, force: true });
    }
  };
  const mid = c.ds.mid!;
  const big = c.ds.big!;
  const midM: Measurement = {
    id: "import.small",
    label: `mindsave import (${fmtN(mid.snapshots)} snapshots, fresh store)`,
    kind: "mindsave",
    floor: "hello",
    samples: [],
    throughput: mid.snapshots,
  };
  log(`import of ${fmtN(mid.snapshots)} snapshots…`);
  midM.samples.push(await one(mid, 0, "small")());
  out.push(midM);
  const rate = mid.snapshots / (midM.samples[0].wall / 1000);
  const left = c.budget.import - (performance.now() - t0) / 1000;
  const projected = big.snapshots / rate;
  if (projected <= left) {
    const bigM: Measurement = {
      id: "import",
      label: `mindsave import (${fmtN(big.snapshots)} snapshots, fresh store)`,
      kind: "mindsave",
      floor: "hello",
      samples: [],
      throughput: big.snapshots,
    };
    log(`import of ${fmtN(big.snapshots)} snapshots: up to ${c.heavyRuns} runs…`);
    await budgeted(bigM, c.heavyRuns, left, c.notes, (i) => one(big, i, "big")());
    out.push(bigM);
  } else {
    c.notes.push(
      `import of ${fmtN(big.snapshots)} snapshots not run: at ${Math.round(rate)}/s it would take about ${Math.round(projected)} s, over the ${c.budget.import} s budget; the import goal is judged on ${fmtN(mid.snapshots)}.`,
    );
    await budgeted(midM, c.heavyRuns, left, c.notes, (i) => one(mid, i + 1, "small")());
  }
  return { measurements: out, smallHome };
}

/**
 * Export of the 1,000-snapshot store the import phase left (`midHome`), then of the 10,000-snapshot
 * store (host bench-b's, from the data set) when that export's rate says it fits.
 */
export async function exportPhase(c: PhaseContext, midHome: string): Promise<Measurement[]> {
  const mid = c.ds.mid!;
  const big = c.ds.big!;
  const t0 = performance.now();
  const one = (home: string, ws: string, i: number) => async () => {
    const dir = join(c.work.dir, `export-${i}`);
    try {
      return await runProc({
        cmd: [c.exe, "export", "--out", dir],
        cwd: ws,
        env: { ...c.work.env, MINDSAVE_HOME: home, MINDSAVE_HOST: "bench-b" },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  log(`export of ${fmtN(mid.snapshots)} snapshots…`);
  const midM: Measurement = {
    id: "export.small",
    label: `mindsave export (${fmtN(mid.snapshots)} snapshots)`,
    kind: "mindsave",
    floor: "hello",
    samples: [],
    throughput: mid.snapshots,
  };
  midM.samples.push(await one(midHome, mid.workspace, 0)());
  const rate = mid.snapshots / (midM.samples[0].wall / 1000);
  const left = c.budget.export - (performance.now() - t0) / 1000;
  const projected = big.snapshots / rate;
  const out = [midM];
  if (projected <= left) {
    const home = join(c.work.dir, "export-big-home");
    cpSync(c.ds.homeB!, home, { recursive: true });
    const bigM: Measurement = {
      id: "export",
      label: `mindsave export (${fmtN(big.snapshots)} snapshots)`,
      kind: "mindsave",
      floor: "hello",
      samples: [],
      throughput: big.snapshots,
    };
    log(`export of ${fmtN(big.snapshots)} snapshots: up to ${c.heavyRuns} runs…`);
    await budgeted(bigM, c.heavyRuns, left, c.notes, (i) => one(home, big.workspace, i + 1)());
    rmSync(home, { recursive: true, force: true });
    out.push(bigM);
  } else {
    c.notes.push(
      `export of ${fmtN(big.snapshots)} snapshots not run: at ${Math.round(rate)}/s it would take about ${Math.round(projected)} s, over the ${c.budget.export} s budget.`,
    );
    await budgeted(midM, c.heavyRuns, left, c.notes, (i) => one(midHome, mid.workspace, i + 1)());
  }
  rmSync(midHome, { recursive: true, force: true });
  return out;
}

/** Sync of this data set's store (A, 10,000 snapshots) with host B's (10,000): the first sync both ways, then after one new snapshot. */
export async function syncPhase(c: PhaseContext): Promise<Measurement[]> {
  const a = c.ds.config.snapshots;
  const b = c.ds.big!.snapshots;
  const p0 = c.ds.projects[0];
  const first: Measurement = {
    id: "sync.first",
    label: `mindsave sync: first, stores of ${fmtN(a)} and ${fmtN(b)} snapshots`,
    kind: "mindsave",
    floor: "hello",
    samples: [],
    throughput: a + b,
  };
  const again: Measurement = {
    id: "sync.one",
    label: "mindsave sync: again, after one new snapshot",
    kind: "mindsave",
    floor: "hello",
    samples: [],
  };
  const oneRuns = c.tiny ? 1 : 5;
  log(`sync: up to ${c.heavyRuns} first syncs, then ${oneRuns} after one new snapshot each…`);
  let pair = "";
  await budgeted(first, c.heavyRuns, c.budget.sync, c.notes, async (i) => {
    if (pair) rmSync(pair, { recursive: true, force: true });
    pair = join(c.work.dir, `sync-${i}`);
    cpSync(c.work.home, join(pair, "a"), { recursive: true });
    cpSync(c.ds.homeB!, join(pair, "b"), { recursive: true });
    return runProc({
      cmd: [c.exe, "sync", join(pair, "b", "mindsave.db")],
      cwd: p0.workspace,
      env: { ...c.work.env, MINDSAVE_HOME: join(pair, "a") },
    });
  });
  const env = { ...c.work.env, MINDSAVE_HOME: join(pair, "a") };
  await budgeted(
    again,
    oneRuns,
    c.budget.syncAgain,
    c.notes,
    async (i) => {
      await runProc({
        cmd: [
          c.exe,
          "save",
          "--goal",
          `bench sync ${i}`,
          "--state",
          "one more snapshot",
          "--next",
          "sync again",
        ],
        cwd: p0.workspace,
        env,
      });
      return runProc({ cmd: [c.exe, "sync", join(pair, "b", "mindsave.db")], cwd: p0.workspace, env });
    },
    Math.min(3, oneRuns),
  );
  rmSync(pair, { recursive: true, force: true });
  return [first, again];
}

/** `doctor --full` (every page of the store): few runs, within its budget (a 100k store takes tens of seconds). */
export async function doctorFullPhase(c: PhaseContext): Promise<Measurement[]> {
  const runs = c.tiny ? 1 : c.ds.config.snapshots >= 100_000 ? 1 : 3;
  log(`doctor --full: up to ${runs} run(s)…`);
  const m: Measurement = {
    id: "doctor.full",
    label: "mindsave doctor --full (every page)",
    kind: "mindsave",
    floor: "hello",
    samples: [],
  };
  const spec = { cmd: [c.exe, "doctor", "--full"], cwd: c.ds.projects[0].workspace, env: c.work.env };
  await budgeted(m, runs, c.budget.doctorFull, c.notes, () => runProc(spec));
  return [m];
}

/**
 * Import of a 1,000-snapshot tree (a new project) into this size's store, once: the import rate
 * and peak memory as the store grows. Run last of a size (it adds to the working copy).
 */
export async function importIntoPhase(c: PhaseContext): Promise<Measurement[]> {
  const snapshots = c.tiny ? 5 : 1000;
  const dir = join(c.work.dir, "import-into");
  const failures = Math.min(40, c.ds.config.failures);
  writeImportTree({
    dir,
    name: "into",
    snapshots,
    failures,
    seed: c.ds.config.seed,
    offset: 3000,
    now: new Date(),
  });
  log(`import of ${fmtN(snapshots)} snapshots into the ${fmtN(c.ds.config.snapshots)}-snapshot store…`);
  const m: Measurement = {
    id: "import.into",
    label: `mindsave import (${fmtN(snapshots)} snapshots, into this store)`,
    kind: "mindsave",
    floor: "hello",
    samples: [],
    throughput: snapshots,
  };
  try {
    m.samples.push(await runProc({ cmd: [c.exe, "import", dir], cwd: dir, env: c.work.env }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return [m];
}
