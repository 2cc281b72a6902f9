// `bun run test:agents [files…]`: the real-agent suite. Builds MindSave's host binary (as `bun run
// test` does), installs the pinned agents once (install.ts), says which agents will skip and why,
// then runs the scenario files. They are named *.agent.ts, which `bun test`'s default glob never
// picks up, so the main suite does not run them; here they are passed by path.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { agentCacheRoot, ensureAgents, STATUS_ENV } from "./install.ts";
import { AGENT_NAMES, AGENTS } from "./versions.ts";

const REPO = resolve(import.meta.dir, "../..");
const started = performance.now();

// MINDSAVE_AGENT_BIN: a binary given to test (harness.ts), so none is built.
if (!process.env.MINDSAVE_AGENT_BIN) {
  const build = spawnSync("bun", ["build.ts", "--target", "host", "--outdir", ".cache/test-bin", "--quiet"], {
    cwd: REPO,
    stdio: "inherit",
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const status = ensureAgents((line) => console.log(line));
const skipped = AGENT_NAMES.filter((a) => status[a].skip);
for (const agent of AGENT_NAMES) {
  const { title, version } = AGENTS[agent];
  console.log(status[agent].skip ? `SKIP ${title}: ${status[agent].skip}` : `${title} ${version}: ready`);
}

// Paths choose scenario files; anything else (-t <pattern>, --bail) goes to bun test as is.
const args = process.argv.slice(2);
const flags = args.filter((a, i) => a.startsWith("-") || args[i - 1] === "-t");
const asked = args.filter((a) => !flags.includes(a));
const files = asked.length
  ? asked.map((f) => `./${relative(REPO, resolve(f))}`)
  : readdirSync(import.meta.dir)
      .filter((f) => f.endsWith(".agent.ts"))
      .sort()
      .map((f) => `./${relative(REPO, join(import.meta.dir, f))}`);

const tests = spawnSync("bun", ["test", "--timeout", "600000", ...flags, ...files], {
  cwd: REPO,
  stdio: "inherit",
  env: { ...process.env, MINDSAVE_AGENT_CACHE: agentCacheRoot(), [STATUS_ENV]: JSON.stringify(status) },
});
const seconds = ((performance.now() - started) / 1000).toFixed(0);
const skipLine = skipped.length ? `; ${skipped.length} agent(s) skipped: ${skipped.join(", ")}` : "";
console.log(`Agent suite: ${seconds} s${skipLine}`);
process.exit(tests.status ?? 1);
