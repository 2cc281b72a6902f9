// Declaring every command and its options is a large part of the command line's start-up, and a
// hook runs on every tool call of an agent session: a run declares only the command it runs
// (the gain: docs/benchmarks.md, "Speed tricks"). Help, `help X` and a word that is no command
// still get the whole program (its listing and its "did you mean").
import type { Command } from "commander";

/** The global options that take a value (they may come before the command). */
const VALUED = new Set(["--home", "--workspace", "--in"]);

/** The command `argv` runs, when it runs one without asking for help; else undefined (declare all). */
export function commandWord(argv: string[]): string | undefined {
  return commandWords(argv)?.[0];
}

/** The command word and the word right after it (a subcommand such as `mcp install`), as commandWord finds them. */
export function commandWords(argv: string[]): [string, string | undefined] | undefined {
  if (argv.some((a) => a === "--help" || a === "-h")) return undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") return undefined;
    if (VALUED.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith("-")) continue;
    const next = argv[i + 1];
    return a === "help" ? undefined : [a, next !== undefined && !next.startsWith("-") ? next : undefined];
  }
  return undefined;
}

/** Stands in for a command that is not declared: every method a declaration chain calls on it does nothing and returns it. */
const SKIP: Command = new Proxy(() => {}, {
  get: (_t, key) => (key === "then" ? undefined : () => SKIP),
}) as unknown as Command;

/** From now on `program.command(…)` declares only `name`; the other declarations do nothing. */
export function declareOnly(program: Command, name: string): void {
  const declare = program.command.bind(program) as (...a: unknown[]) => Command;
  program.command = ((nameAndArgs: string, ...rest: unknown[]) =>
    nameAndArgs.split(/\s/)[0] === name ? declare(nameAndArgs, ...rest) : SKIP) as Command["command"];
}

/** Whether `program` declares `name` (so a program built for it alone can run it). */
export function declares(program: Command, name: string): boolean {
  return program.commands.some((c) => c.name() === name || c.aliases().includes(name));
}
