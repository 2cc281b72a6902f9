// The benchmark harness on a tiny store (3 projects, 20 snapshots, one run each): it must finish
// and write results JSON with every measurement present and every figure above zero. No time is
// asserted here; speed lives in docs/benchmarks.md (`bun run bench`).
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { hostBinary, tempDir } from "./helpers.ts";

const ROOT = join(import.meta.dir, "..");

test("bun bench/run.ts --tiny writes results with every measurement", async () => {
  const exe = await hostBinary();
  const results = tempDir("mindsave-bench-");
  const r = Bun.spawnSync(
    [
      process.execPath,
      join(ROOT, "bench", "run.ts"),
      "--tiny",
      "--runs",
      "1",
      "--exe",
      exe,
      "--results",
      results,
    ],
    { cwd: ROOT, stdout: "pipe", stderr: "pipe" },
  );
  if (r.exitCode !== 0) throw new Error(`the harness failed:\n${r.stderr.toString().slice(-3000)}`);
  const latest = join(results, "latest.json");
  expect(existsSync(latest)).toBe(true);
  const json = JSON.parse(readFileSync(latest, "utf8"));
  expect(json.sizes.map((s: { size: string }) => s.size)).toEqual(["tiny"]);
  const size = json.sizes[0];
  expect(json.commit).toBeTruthy();
  expect(json.machine.cores).toBeGreaterThan(0);
  const expected = [
    "hello",
    "hello-pipe",
    "sqlite",
    "libsql",
    "version",
    "load",
    "load.file",
    "save",
    "recall.rare",
    "recall.rare.grep",
    "recall.common",
    "recall.common.grep",
    "recall.newhost",
    "recall.all",
    "recall.archive",
    "diff",
    "list",
    "stats",
    "doctor",
    "doctor.full",
    "import.into",
    "hook.session-start",
    "hook.post-tool-use",
    "hook.stop",
    "mcp.load",
    "import.small",
    "import",
    "export.small",
    "export",
    "sync.first",
    "sync.one",
  ];
  // Where the machine has them: the sqlite3 baselines and the TUI through tmux.
  const has = (cmd: string) => Bun.spawnSync(["sh", "-c", `command -v ${cmd}`]).exitCode === 0;
  if (has("sqlite3"))
    expected.push("load.sqlite", "recall.rare.sqlite", "recall.common.sqlite", "list.sqlite", "stats.sqlite");
  if (has("tmux")) expected.push("tui.floor", "tui");
  for (const id of expected) {
    const m = size.measurements[id];
    expect(m, id).toBeDefined();
    expect(m.n, id).toBeGreaterThan(0);
    expect(m.samples.length, id).toBe(m.n);
    for (const field of ["wall_ms", "cpu_ms", "rss_mb"])
      expect(m[field].median, `${id} ${field}`).toBeGreaterThan(0);
  }
  expect(size.goals.length).toBeGreaterThanOrEqual(8);
  for (const g of size.goals) expect(typeof g.met, g.id).toBe("boolean");
  expect(size.economy.projects.length).toBe(3);
  for (const e of size.economy.projects) {
    expect(e.block_tokens).toBeGreaterThan(0);
    expect(e.file_tokens).toBeGreaterThan(0);
  }
  expect(r.stdout.toString()).toContain("| measurement |");
}, 120_000);

test("growth compares each operation at the largest size with the smallest, against that size's floor", async () => {
  const { growthGoals } = await import("../bench/report.ts");
  const stat = (median: number) => ({ n: 3, median, p10: median, p90: median, min: median, max: median });
  const m = (cpu: number, wall: number, floor: string | null, throughput: number | null = null) => ({
    label: "x",
    kind: "mindsave" as const,
    floor,
    of: null,
    throughput,
    command: null,
    n: 3,
    wall_ms: stat(wall),
    cpu_ms: stat(cpu),
    user_ms: stat(cpu),
    sys_ms: stat(0),
    rss_mb: stat(50),
    samples: [],
  });
  const size = (name: string, floorCpu: number, loadCpu: number, tuiWall: number, importWall: number) => ({
    size: name,
    config: {
      projects: 1,
      snapshots: 1,
      failures: 0,
      bigSnapshots: 0,
      midSnapshots: 0,
      transcriptBytes: 0,
      seed: 1,
    },
    data_set: name,
    project_snapshots: 1,
    measurements: {
      hello: m(floorCpu, floorCpu, null),
      load: m(loadCpu, loadCpu, "hello"),
      tui: m(50, tuiWall, null),
      "import.into": m(1000, importWall, "hello", 1000),
    },
    economy: {} as never,
    goals: [],
  });
  // The floor is faster at the large size: load's own CPU grows 1.5x, its ratio to the floor 2x.
  const g = growthGoals([size("1k", 5, 10, 100, 1000), size("100k", 3.75, 15, 120, 4000)]);
  const by = Object.fromEntries(g.map((x) => [x.id, x]));
  expect(Object.keys(by).sort()).toEqual(["import.into", "load", "tui"]);
  expect(by.load.growth).toBeCloseTo(2, 5);
  expect(by.load.met).toBe(false);
  expect(by.tui.growth).toBeCloseTo(1.2, 5);
  expect(by.tui.met).toBe(true);
  expect(by["import.into"].growth).toBeCloseTo(4, 5); // 1,000/s then 250/s
  expect(by["import.into"].limit).toBeNull();
  expect(growthGoals([size("1k", 5, 10, 100, 1000)])).toEqual([]);
});
