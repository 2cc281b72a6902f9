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
  expect(json.size).toBe("tiny");
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
    "list",
    "stats",
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
    const m = json.measurements[id];
    expect(m, id).toBeDefined();
    expect(m.n, id).toBeGreaterThan(0);
    expect(m.samples.length, id).toBe(m.n);
    for (const field of ["wall_ms", "cpu_ms", "rss_mb"])
      expect(m[field].median, `${id} ${field}`).toBeGreaterThan(0);
  }
  expect(json.goals.length).toBeGreaterThanOrEqual(8);
  for (const g of json.goals) expect(typeof g.met, g.id).toBe("boolean");
  expect(json.economy.projects.length).toBe(3);
  for (const e of json.economy.projects) {
    expect(e.block_tokens).toBeGreaterThan(0);
    expect(e.file_tokens).toBeGreaterThan(0);
  }
  expect(r.stdout.toString()).toContain("| measurement |");
}, 60_000);
