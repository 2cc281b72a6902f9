#!/usr/bin/env bun
// Entry point. Kept tiny so `--version` and `--help` load neither the store nor the UI.
import { runCli } from "./cli.ts";

const argv = process.argv.slice(2);

// A reader that stops early (`mindsave projects | head -1`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw e;
  });
}

if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  const { versionLine } = await import("./commands/version.ts");
  process.stdout.write(versionLine() + "\n");
  process.exit(0);
}

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
const interactive = process.stdin.isTTY && (process.stdout.isTTY || process.stderr.isTTY);
process.exitCode = await runCli(onlyGlobalOptions(argv) ? [...argv, interactive ? "ui" : "--help"] : argv);
