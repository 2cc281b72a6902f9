#!/usr/bin/env bun
// Entry point. Kept tiny so `--version` and `--help` load neither the store nor the UI, and
// `--version` not even the command line's parser (the CLI module is imported after it).
export {};

const argv = process.argv.slice(2);

// Before anything touches process.stdout (making Node's stream is a cost of its own): console.log is Bun's own.
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  const { versionLine } = await import("./commands/version.ts");
  console.log(versionLine());
  process.exit(0);
}

// Quick commands hold the JIT back; an import restarts without its top tier (see short-run.ts).
const { tuneJitFor } = await import("./short-run.ts");
tuneJitFor(argv);

// A reader that stops early (`mindsave projects | head -1`) is not an error. Commands print
// through lib/out.ts, which handles that without making Node's streams; the TUI and the
// MCP server write through the streams, which get the same handling.
const { guardStreams, isTerminal } = await import("./lib/out.ts");
const { commandWords } = await import("./cli-only.ts");
const [word, sub] = commandWords(argv) ?? [];
// (`mcp install|uninstall` print like any other command; only the server writes through the streams.)
if (word === undefined || word === "ui" || (word === "mcp" && sub !== "install" && sub !== "uninstall"))
  guardStreams();

/** True when argv holds only global options (`mindsave --home /media/usb/mindsave`). */
function onlyGlobalOptions(args: string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--json") continue;
    if (/^--(home|workspace|in)=/.test(a)) continue;
    if (/^--(home|workspace|in)$/.test(a) && i + 1 < args.length) {
      i++;
      continue;
    }
    return false;
  }
  return true;
}

// `mindsave` alone (or with only global options) opens the TUI for a person at a terminal,
// and prints help otherwise.
const interactive = () => isTerminal(0) && (isTerminal(1) || isTerminal(2));
// An installed hook's command line skips commander: it runs on every tool call (see cli-hook.ts).
const { hookCall } = await import("./cli-hook.ts");
const hook = hookCall(argv);
if (hook) {
  const { run } = await import("./commands/hook.ts");
  process.exitCode = await run(hook.opts, hook.args, hook.globals);
} else {
  const { runCli } = await import("./cli.ts");
  process.exitCode = await runCli(
    onlyGlobalOptions(argv) ? [...argv, interactive() ? "ui" : "--help"] : argv,
  );
}
