#!/usr/bin/env bun
// Entry point. Kept tiny so `--version` and `--help` load neither the store nor the UI.
import { runCli } from "./cli.ts";

const argv = process.argv.slice(2);

if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  const { versionLine } = await import("./commands/version.ts");
  process.stdout.write(versionLine() + "\n");
  process.exit(0);
}

process.exitCode = await runCli(argv.length ? argv : ["--help"]);
