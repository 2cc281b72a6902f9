// A quick command (every hook, load, save, recall) runs for tens of milliseconds: compiling its
// JavaScript costs more than the compiled code saves. It holds the JIT back in place: the runtime's
// JIT policy (`Bun.unsafe.setJITPolicy`) multiplies every tier-up threshold by QUICK_POLICY, so its
// code stays in the interpreter, yet a loop that runs millions of times (a megabyte of Layer 3)
// still gets compiled; regular expressions keep their JIT. `import` restarts once with only the top
// tier (FTL) off, an engine option Bun reads from the environment at start only: FTL's compiles
// cost a bulk import more CPU and memory than they save. The TUI starts as a quick command (its
// first screen is such a run) and gets the whole JIT at the person's first key (releaseJit); the
// MCP server's calls are quick runs too. Other bulk work (export, sync, scan…) keeps the whole JIT.
// The gains: docs/benchmarks.md, "Speed tricks".
import { commandWord } from "./cli-only.ts";

const QUICK = new Set([
  "save",
  "load",
  "snapshots",
  "projects",
  "fail",
  "failures",
  "forget",
  "signal",
  "hook",
  "rules",
  "retire",
  "fact",
  "facts",
  "plan",
  "diff",
  "agents",
  "hooks",
  "recall",
  "tags",
  // The MCP server: each tool call is such a run, seconds or minutes apart.
  "mcp",
]);

/** How many times more reluctant to compile a quick command's JIT is (no higher value does better). */
const QUICK_POLICY = 10_000;

/** Set in the restarted import, so it neither restarts again nor passes the setting on. */
const MARK = "MINDSAVE_SHORT_RUN";
const TIER = "BUN_JSC_useBaselineJIT";
const TOP_TIER = "BUN_JSC_useFTLJIT";

/**
 * Holds the JIT back when `argv` runs a quick command; restarts an import in place with the top
 * tier off (not where there is no execve: Windows; there it simply runs here, with the whole JIT).
 */
export function tuneJitFor(argv: string[]): void {
  const env = process.env;
  if (env[MARK] === "1") {
    // The restarted import: its children (git, an agent's tools) get the environment as it was.
    delete env[MARK];
    delete env[TOP_TIER];
    return;
  }
  // Someone chose the runtime's settings themselves.
  if (env[TIER] !== undefined || env[TOP_TIER] !== undefined || env.MINDSAVE_JIT === "on") return;
  const word = commandWord(argv);
  // The TUI starts as one too (`mindsave` alone opens it on a terminal; else it prints a help).
  if (word === undefined || word === "ui" || QUICK.has(word)) {
    // (Bun 1.4.5 has it; a runtime without it runs with the whole JIT.)
    Bun.unsafe.setJITPolicy?.(QUICK_POLICY);
    return;
  }
  if (word !== "import" || typeof process.execve !== "function" || process.platform === "win32") return;
  // A compiled binary's argv[1] is its own script inside the binary; from source it is main.ts.
  const compiled = import.meta.path.startsWith("/$bunfs/");
  const args = compiled
    ? [process.execPath, ...argv]
    : [process.execPath, ...process.execArgv, ...process.argv.slice(1)];
  try {
    process.execve(process.execPath, args, { ...env, [MARK]: "1", [TOP_TIER]: "0" });
  } catch {
    // Not restarted: run here.
  }
}

/** The whole JIT again: the TUI's, from the person's first key on (interactive work, not a quick run). */
export function releaseJit(): void {
  Bun.unsafe.setJITPolicy?.(1);
}
