// Sync benchmark: `bun bench/sync.ts [--snapshots N]`. Times a first sync of a store with N
// snapshots into an empty one, then a sync after one new snapshot (the incremental case).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Session } from "../src/engine/session.ts";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { fromFields } from "../src/engine/snapshots/input.ts";
import { newId } from "../src/engine/ids.ts";

const { values } = parseArgs({ args: Bun.argv.slice(2), options: { snapshots: { type: "string", default: "10000" } } });
const n = Number(values.snapshots);
const dir = mkdtempSync(join(tmpdir(), "mindsave-bench-sync-"));
try {
  const a = join(dir, "a");
  const b = join(dir, "b");
  mkdirSync(a);
  mkdirSync(b);
  const env = { ...process.env, HOME: dir, MINDSAVE_HOST: "bench-a" };
  const s = await Session.open({ home: a, workspace: dir, env }, { write: true });
  const first = await saveSnapshot(s, { input: fromFields({ goal: "seed", state: "s", next_action: "n", constraints: ["c"], decisions: ["d"] }, "### Completed Steps\n1. x") });
  await s.write(async (w) => {
    for (let i = 0; i < n; i++) await w.insertSnapshot({ ...first.snapshot, id: newId(), name: `bulk_${i}`, goal: `bulk ${i}` });
  });
  s.close();
  const cli = (args: string[]) => {
    const t0 = performance.now();
    const r = Bun.spawnSync([process.execPath, join(import.meta.dir, "..", "src", "main.ts"), ...args, "--home", a, "--workspace", dir], { env, stdout: "pipe", stderr: "inherit" });
    if (r.exitCode !== 0) throw new Error(`${args.join(" ")} failed`);
    return performance.now() - t0;
  };
  const full = cli(["sync", b]);
  cli(["save", "--goal", "one more"]);
  const one = cli(["sync", b]);
  const none = cli(["sync", b]);
  console.log(`| first sync of ${n + 1} snapshots into an empty store | ${(full / 1000).toFixed(2)} s |`);
  console.log(`| sync after one new snapshot (${n + 2} stored) | ${one.toFixed(0)} ms |`);
  console.log(`| sync with nothing new | ${none.toFixed(0)} ms |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
