// The pieces every command declaration uses: lazy loading of a command module, command groups with
// a default, repeatable options and number parsing. No command, engine or store module is imported here.
import type { Command } from "commander";
import { UserError } from "./errors.ts";
import type { GlobalOptions } from "./types.ts";

export const collect = (value: string, previous: string[] = []) => [...previous, value];

// Each command declares the shape of its own options, and commander has already checked them
// against its declaration: a runner takes its own shape (`never` here accepts every runner).
export type Runner = (opts: never, args: string[], globals: GlobalOptions) => Promise<number | void>;

/** What a command's `run` is given, read from the command commander parsed. */
export function actionInputs(cmd: Command): {
  opts: Record<string, unknown>;
  args: string[];
  globals: GlobalOptions;
} {
  // `snapshots list --limit 1`: commander gives an option both a group and its command declare to
  // the group, so the group's values count for the command too (the command's own win).
  const group = cmd.parent && cmd.parent.parent ? cmd.parent.opts() : {};
  const own = Object.fromEntries(Object.entries(cmd.opts()).filter(([, v]) => v !== undefined));
  const all = cmd.optsWithGlobals() as GlobalOptions & { in?: string };
  return {
    opts: { ...group, ...own },
    args: cmd.args,
    globals: { home: all.home, workspace: all.workspace, project: all.in, json: all.json },
  };
}

/** Wraps a lazily imported command module's `run`. */
export function lazy(load: () => Promise<{ run: Runner }>) {
  return async (...params: unknown[]) => {
    const { opts, args, globals } = actionInputs(params[params.length - 1] as Command);
    const { run } = await load();
    const code = await run(opts as never, args, globals);
    if (typeof code === "number" && code !== 0) process.exitCode = code;
  };
}

/**
 * The action of a command group (`snapshots`, `projects`…): alone it runs its default command;
 * with a word that is not one of its commands it says so, with a suggestion.
 */
export function groupDefault(load: (() => Promise<{ run: Runner }>) | null) {
  const runDefault = load ? lazy(load) : null;
  return async (...params: unknown[]) => {
    const cmd = params[params.length - 1] as Command;
    const names = cmd.commands.map((c) => c.name());
    if (cmd.args.length || !runDefault) {
      const word = cmd.args[0];
      if (word === undefined)
        throw new UserError(`\`mindsave ${cmd.name()}\` needs a command: ${names.join(", ")}.`);
      const near = names.find((n) => editDistance(n, word) <= 2);
      throw new UserError(
        `Unknown command \`mindsave ${cmd.name()} ${word}\`; choose ${names.join(", ")}.${near ? ` Did you mean ${near}?` : ""}`,
      );
    }
    return runDefault(...params);
  };
}

/** A command whose words may start with `-` (recall): commander's "unknown option '-x'" says how to give one. */
export function dashWordHint(cmd: Command): Command {
  const error = cmd.error.bind(cmd);
  cmd.error = (message, options) =>
    error(
      options?.code === "commander.unknownOption"
        ? message.replace(
            /^(error: unknown option '[^']*')/,
            "$1 (put -- before a keyword that starts with -)",
          )
        : message,
      options,
    );
  return cmd;
}

export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

export function parseCount(flag: string, v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < 1)
    throw new UserError(`${flag} must be a whole number of at least 1, not ${JSON.stringify(v)}.`);
  return n;
}

export function parseRatio(v: string, [lo, hi]: [number, number] = [0, 1], flag = "A ratio"): number {
  const n = Number(v);
  if (!v.trim() || !Number.isFinite(n) || n < lo || n > hi) {
    throw new UserError(
      `${flag} must be a number from ${lo.toFixed(lo % 1 ? 2 : 0)} to ${hi.toFixed(hi % 1 ? 2 : 0)}, not ${JSON.stringify(v)}.`,
    );
  }
  return n;
}

/**
 * A snapshot key as given (`load KEY`, `--snapshot KEY`): an empty or blank one names no snapshot,
 * and must not pass for no key at all (`load ""` showed the list).
 */
export function snapshotKey(v: string): string {
  if (!v.trim())
    throw new UserError(
      `An empty snapshot key names no snapshot: give its name, id prefix or list number (see \`mindsave snapshots list\`).`,
    );
  return v;
}

/** A `--tag` as given: an empty or blank one is no tag, refused before anything is read or saved. */
export function tagName(v: string): string {
  if (!v.trim())
    throw new UserError(`--tag needs a tag, not an empty one (\`mindsave tags\` lists those in use).`);
  return v;
}

/**
 * A command whose snapshot argument is required (`snapshots delete`): missing, it is asked for in
 * MindSave's words, not commander's "missing required argument 'snapshot'".
 */
export function needsSnapshot(cmd: Command): Command {
  const error = cmd.error.bind(cmd);
  cmd.error = (message, options) =>
    error(
      options?.code === "commander.missingArgument"
        ? `error: \`mindsave ${cmd.parent?.name()} ${cmd.name()}\` needs a snapshot: its name, id prefix or list number (see \`mindsave snapshots list\`)`
        : message,
      options,
    );
  return cmd;
}
