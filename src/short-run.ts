// A command that runs for tens of milliseconds (every hook, load, save) spends a third of
// its CPU compiling JavaScript that runs a few hundred times at most: JavaScriptCore's baseline
// JIT and its optimising tiers. Such a command restarts itself in place (execve: the same process,
// its stdin, its pid) with those tiers off (`BUN_JSC_useBaselineJIT=0`, read by the runtime at
// start only); regular expressions keep their JIT. Measured in docs/benchmarks.md: `load` ~11 ms,
// `hook session-start` ~14 ms, `save` ~45 ms less CPU, the restart included. `import` restarts
// with only the top tier (FTL) off: its compiles cost more CPU than they save there, and ~10 MB of
// memory. The TUI, the MCP server and other bulk work (export, sync, scan…) keep the whole JIT,
// which pays off there; so does `recall`, whose FTS query leaves the JIT too little to compile for
// a restart to pay for itself.
import { commandWord } from "./cli-only.ts";

const SHORT = new Set([
  "save", "load", "snapshots", "projects", "fail", "failures", "forget", "signal", "hook",
  "rules", "retire", "fact", "facts", "plan", "diff", "agents", "hooks",
]);

/** Set in the restarted process, so it neither restarts again nor passes the setting on. */
const MARK = "MINDSAVE_SHORT_RUN";
const TIER = "BUN_JSC_useBaselineJIT";
const TOP_TIER = "BUN_JSC_useFTLJIT";

/** The runtime setting a command restarts with, if any. */
function settingFor(word: string | undefined): string | undefined {
  if (word === undefined) return undefined;
  if (SHORT.has(word)) return TIER;
  return word === "import" ? TOP_TIER : undefined;
}

/**
 * Restarts this process without the JIT's compiling tiers when `argv` runs a short command (without
 * the top tier for `import`); returns when it does not (or cannot: Windows has no execve; then it
 * simply runs here, with the whole JIT).
 */
export function restartForShortRun(argv: string[]): void {
  const env = process.env;
  if (env[MARK] === "1") {
    // The restarted process: its children (git, an agent's tools) get the environment as it was.
    delete env[MARK];
    delete env[TIER];
    delete env[TOP_TIER];
    return;
  }
  // Someone chose the runtime's settings themselves, or this runtime cannot restart in place.
  if (env[TIER] !== undefined || env[TOP_TIER] !== undefined || env.MINDSAVE_JIT === "on" || typeof process.execve !== "function" || process.platform === "win32") return;
  const setting = settingFor(commandWord(argv));
  if (setting === undefined) return;
  // A compiled binary's argv[1] is its own script inside the binary; from source it is main.ts.
  const compiled = import.meta.path.startsWith("/$bunfs/");
  const args = compiled ? [process.execPath, ...argv] : [process.execPath, ...process.execArgv, ...process.argv.slice(1)];
  try {
    process.execve(process.execPath, args, { ...env, [MARK]: "1", [setting]: "0" });
  } catch {
    // Not restarted: run here.
  }
}
