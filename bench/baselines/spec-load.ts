// The spec's file-based `/load`, compiled with `bun build --compile`: read `.mindsave/index.json`,
// take its first (newest) entry and print that snapshot file. Exactly what the original skill's
// load reads, and nothing more (no token budget, no failure graph merge, no path rewriting).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const dir = process.argv[2] ?? ".mindsave";
const index = JSON.parse(readFileSync(join(dir, "index.json"), "utf8")) as { snapshots: { path: string }[] };
const newest = index.snapshots[0];
if (!newest) throw new Error(`${dir}/index.json lists no snapshot`);
process.stdout.write(readFileSync(join(dirname(dir), newest.path), "utf8"));
