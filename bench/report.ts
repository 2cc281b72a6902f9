// The benchmark's results: their JSON shape, the goals of issue "Speed at scale", and the table.
import type { ProcSpec, Sample, Stats } from "./measure.ts";
import type { GenConfig } from "./gen.ts";

export interface Measurement {
  id: string;
  label: string;
  /** floor: the runtime floor; mindsave: the product; file/grep/sqlite: a baseline on the same data. */
  kind: "floor" | "mindsave" | "file" | "grep" | "sqlite";
  /** The floor this measurement's CPU is divided by. */
  floor?: string;
  /** For a baseline: the mindsave measurement it is compared with. */
  of?: string;
  /** Snapshots handled by one run (import, export, sync), for a rate. */
  throughput?: number;
  spec?: ProcSpec;
  samples: Sample[];
  extra?: Record<string, unknown>;
}

export interface MeasurementResult {
  label: string;
  kind: Measurement["kind"];
  floor: string | null;
  of: string | null;
  throughput: number | null;
  command: string | null;
  n: number;
  wall_ms: Stats;
  cpu_ms: Stats;
  user_ms: Stats;
  sys_ms: Stats;
  rss_mb: Stats;
  samples: { wall_ms: number; cpu_ms: number; user_ms: number; sys_ms: number; rss_mb: number }[];
}

export interface Goal {
  id: string;
  goal: string;
  value: string;
  met: boolean;
  /** The measurements the goal is about (the table marks them). */
  on: string[];
}

export interface Results {
  date: string;
  commit: string;
  dirty: boolean;
  bun: string;
  machine: {
    cores: number;
    memory_gb: number;
    cpu: string;
    os: string;
    load_average: { start: number; end: number };
  };
  size: "tiny" | "full";
  config: GenConfig;
  data_set: string;
  words: { rare: string; common: string };
  runs: { quick: number; heavy: number };
  measurements: Record<string, MeasurementResult>;
  economy: {
    projects: { project: string; snapshots: number; block_tokens: number; file_tokens: number }[];
    block_tokens: Stats;
    block_p95: number;
    file_tokens: Stats;
    file_p95: number;
  };
  goals: Goal[];
  notes: string[];
  seconds: number;
}

const RSS_LIMIT_MB = 100;

/** CPU median of `id` over the CPU median of its floor. */
export function ratio(r: Results, id: string): number {
  const m = r.measurements[id];
  const f = m?.floor ? r.measurements[m.floor] : undefined;
  return m && f ? m.cpu_ms.median / f.cpu_ms.median : NaN;
}

const x = (v: number) => (Number.isFinite(v) ? `${v.toFixed(v < 10 ? 2 : 1)}×` : "n/a");

export function evaluateGoals(r: Results): Goal[] {
  const goals: Goal[] = [];
  const m = r.measurements;
  // Also each command's CPU over the store floor (opening the store, one SELECT): what is left to
  // MindSave's own code.
  const overFloor = (o: string) =>
    m.sqlite && m[o] && o !== "version"
      ? ` (${x(m[o].cpu_ms.median / m.sqlite.cpu_ms.median)} the store floor)`
      : "";
  const cpuGoal = (id: string, limit: number, on = [id]) => {
    const worst = Math.max(...on.map((o) => ratio(r, o)));
    goals.push({
      id: `cpu:${id}`,
      goal: `${on.map((o) => m[o]?.label ?? o).join(", ")}: CPU ≤ ${limit}× the floor`,
      value: on.map((o) => x(ratio(r, o)) + overFloor(o)).join(", "),
      met: worst <= limit,
      on,
    });
  };
  cpuGoal("version", 1.5);
  cpuGoal("load", 4);
  cpuGoal("recall", 4, ["recall.rare", "recall.common"]);
  cpuGoal("hook.session-start", 4);
  const imp = m.import ? "import" : m["import.small"] ? "import.small" : null;
  if (imp) {
    const rate = (m[imp].throughput ?? 0) / (m[imp].wall_ms.median / 1000);
    goals.push({
      id: "import-rate",
      goal: `import ≥ 2,000 snapshots/s (of ${m[imp].throughput?.toLocaleString("en-US")})`,
      value: `${Math.round(rate).toLocaleString("en-US")}/s`,
      met: rate >= 2000,
      on: [imp],
    });
  }
  const memIds = [
    "version",
    "load",
    "recall.rare",
    "recall.common",
    "hook.session-start",
    "import",
    "import.small",
  ].filter((id) => m[id]);
  const peak = memIds.map((id) => [id, m[id].rss_mb.max] as const).sort((a, b) => b[1] - a[1]);
  const over = peak.filter(([, v]) => v >= RSS_LIMIT_MB);
  goals.push({
    id: "memory",
    goal: `peak memory of those commands < ${RSS_LIMIT_MB} MB`,
    value: over.length
      ? over.map(([id, v]) => `${id} ${v.toFixed(0)} MB`).join(", ")
      : `max ${peak[0]?.[1].toFixed(0)} MB (${peak[0]?.[0]})`,
    met: over.length === 0,
    on: over.map(([id]) => id),
  });
  for (const w of ["rare", "common"]) {
    const a = m[`recall.${w}`];
    const b = m[`recall.${w}.grep`];
    if (a && b)
      goals.push({
        id: `recall-vs-grep:${w}`,
        goal: `recall (${w} word) faster than grep -r over the exported tree (wall)`,
        value: `${a.wall_ms.median.toFixed(1)} vs ${b.wall_ms.median.toFixed(1)} ms`,
        met: a.wall_ms.median < b.wall_ms.median,
        on: [`recall.${w}`],
      });
  }
  goals.push({
    id: "restore-budget",
    goal: "restore block ≤ 800 tokens (max over projects)",
    value: `${r.economy.block_tokens.max} tokens`,
    met: r.economy.block_tokens.max <= 800,
    on: [],
  });
  return goals;
}

function ms(v: number): string {
  if (!Number.isFinite(v)) return "n/a";
  if (v >= 10_000) return `${(v / 1000).toFixed(1)} s`;
  if (v >= 100) return `${Math.round(v)}`;
  return v.toFixed(1);
}

const spread = (s: Stats) => `${ms(s.median)} (${ms(s.p10)}–${ms(s.p90)})`;

/** The results as one markdown table (plus goals and restore economy), as printed and put in the docs. */
export function renderTable(r: Results): string {
  const out: string[] = [];
  const mark = new Map<string, boolean>();
  for (const g of r.goals) for (const id of g.on) mark.set(id, (mark.get(id) ?? true) && g.met);
  out.push(
    `MindSave ${r.commit}${r.dirty ? " (with uncommitted changes)" : ""}, bun ${r.bun}, ${r.machine.cores} cores ${r.machine.cpu}, ${r.machine.memory_gb} GB; ` +
      `load average ${r.machine.load_average.start}; ` +
      `${r.config.projects} projects, ${r.config.snapshots.toLocaleString("en-US")} snapshots, ${r.config.failures.toLocaleString("en-US")} failures; quick commands in project 1 (${r.economy.projects[0]?.snapshots.toLocaleString("en-US")} snapshots), up to ${r.runs.quick} runs each. ` +
      `Times in ms: median (p10–p90); CPU = user + sys of the process; × = CPU over the floor's; max RSS = the process's peak memory (median of the runs).`,
  );
  out.push("");
  out.push("| measurement | wall | CPU | × floor | max RSS MB | note |");
  out.push("|---|---:|---:|---:|---:|---|");
  for (const [id, m] of Object.entries(r.measurements)) {
    const notes: string[] = [];
    if (m.throughput)
      notes.push(
        `${Math.round(m.throughput / (m.wall_ms.median / 1000)).toLocaleString("en-US")} snapshots/s`,
      );
    if (m.of && r.measurements[m.of])
      notes.push(
        `mindsave takes ${(r.measurements[m.of].wall_ms.median / m.wall_ms.median).toFixed(1)}× its wall`,
      );
    if (mark.has(id)) notes.push(mark.get(id) ? "goal met" : "**goal missed**");
    if (m.n < 3) notes.push(`${m.n} run${m.n === 1 ? "" : "s"}`);
    out.push(
      `| ${m.label} | ${spread(m.wall_ms)} | ${spread(m.cpu_ms)} | ${m.floor ? x(ratio(r, id)) : ""} | ${m.rss_mb.median.toFixed(0)} | ${notes.join("; ")} |`,
    );
  }
  out.push("");
  out.push("| goal | value | |");
  out.push("|---|---|---|");
  for (const g of r.goals) out.push(`| ${g.goal} | ${g.value} | ${g.met ? "met" : "**missed**"} |`);
  const e = r.economy;
  out.push("");
  out.push(
    `Restore economy (${e.projects.length} projects, newest snapshot each): restore block ${e.block_tokens.median} tokens median, ${e.block_p95} p95, ${e.block_tokens.max} max; ` +
      `the snapshot file the spec's /load reads: ${e.file_tokens.median} median, ${e.file_p95} p95, ${e.file_tokens.max} max ` +
      `(the block is ${((100 * e.block_tokens.median) / e.file_tokens.median).toFixed(0)}% of the file at the median).`,
  );
  for (const n of r.notes) out.push(`\nNote: ${n}`);
  return out.join("\n");
}
