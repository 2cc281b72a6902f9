// A command that runs for tens of milliseconds (every hook, load, save) spends a third of
// its CPU compiling JavaScript that runs a few hundred times at most: JavaScriptCore's baseline
// JIT and its optimising tiers. Such a command restarts itself in place (execve: the same process,
// its stdin, its pid) with those tiers off (`BUN_JSC_useBaselineJIT=0`, read by the runtime at
// start only); regular expressions keep their JIT. Measured in docs/benchmarks.md: `load` ~11 ms,
// `hook session-start` ~14 ms, `save` ~45 ms less CPU, the restart included. The TUI, the MCP
// server and bulk work (import, export, sync, scan…) keep the JIT, which pays off there; so does
// `recall`, whose FTS query leaves the JIT too little to compile for a restart to pay for itself.
import { commandWord } from "./cli-only.ts";

const SHORT = new Set([
  "save", "load", "snapshots", "projects", "fail", "failures", "forget", "signal", "hook",
  "rules", "retire", "fact", "facts", "plan", "diff", "agents", "hooks",
]);

/** Set in the restarted process, so it neither restarts again nor passes the setting on. */
const MARK = "MINDSAVE_SHORT_RUN";
const TIER = "BUN_JSC_useBaselineJIT";

/**
 * Restarts this process without the JIT's compiling tiers when `argv` runs a short command; returns
 * when it does not (or cannot: Windows has no execve; then it simply runs here, with the JIT).
 */
export function restartForShortRun(argv: string[]): void {
  const env = process.env;
  if (env[MARK] === "1") {
    // The restarted process: its children (git, an agent's tools) get the environment as it was.
    delete env[MARK];
    delete env[TIER];
    return;
  }
  // Someone chose the runtime's settings themselves, or this runtime cannot restart in place.
  if (env[TIER] !== undefined || env.MINDSAVE_JIT === "on" || typeof process.execve !== "function" || process.platform === "win32") return;
  const word = commandWord(argv);
  if (word === undefined || !SHORT.has(word)) return;
  // A compiled binary's argv[1] is its own script inside the binary; from source it is main.ts.
  const compiled = import.meta.path.startsWith("/$bunfs/");
  const args = compiled ? [process.execPath, ...argv] : [process.execPath, ...process.execArgv, ...process.argv.slice(1)];
  try {
    process.execve(process.execPath, args, { ...env, [MARK]: "1", [TIER]: "0" });
  } catch {
    // Not restarted: run here.
  }
}
