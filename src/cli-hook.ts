// A hook runs on every tool call of an agent session. The command lines `hooks install` writes
// (`mindsave hook EVENT [--agent NAME]`, with --home or --workspace where a person added one) are
// read here without commander, whose loading, declaring and parsing cost a hook about an eighth of
// its run (docs/benchmarks.md, "Speed tricks"). Every other command line, help included, goes to
// commander, which reads these the same way (test/speed-paths.test.ts compares the two).
import type { GlobalOptions } from "./types.ts";

/** What `mindsave hook` runs with: its own options, its event, the global options. */
export interface HookCall {
  opts: { agent?: string };
  args: [string];
  globals: GlobalOptions;
}

/** The options such a command line may hold, each with a value; `--agent` is the hook's own. */
const VALUED = { "--agent": "agent", "--home": "home", "--workspace": "workspace" } as const;
type Valued = keyof typeof VALUED;

/** The option and its value at `argv[i]` (`--home DIR` or `--home=DIR`), how many words it took; null when it is none of them. */
function valued(
  argv: string[],
  i: number,
): { key: (typeof VALUED)[Valued]; value: string; words: number } | null {
  const a = argv[i];
  const eq = a.indexOf("=");
  const flag = (eq > 0 ? a.slice(0, eq) : a) as Valued;
  if (!Object.hasOwn(VALUED, flag)) return null;
  return eq > 0
    ? { key: VALUED[flag], value: a.slice(eq + 1), words: 1 }
    : { key: VALUED[flag], value: argv[i + 1] ?? "", words: 2 };
}

/** The hook `argv` runs, as commander would read it; null for any other command line. */
export function hookCall(argv: string[]): HookCall | null {
  const values: { agent?: string; home?: string; workspace?: string } = {};
  const words: string[] = [];
  for (let i = 0; i < argv.length;) {
    const option = valued(argv, i);
    if (option) {
      // A value missing, empty or like an option, one given twice, `--agent` before `hook`: commander's to judge.
      if (!option.value || option.value.startsWith("-") || values[option.key] !== undefined) return null;
      if (option.key === "agent" && words.length === 0) return null;
      values[option.key] = option.value;
      i += option.words;
    } else if (argv[i].startsWith("-")) return null;
    else words.push(argv[i++]);
  }
  if (words.length !== 2 || words[0] !== "hook") return null;
  const { agent, home, workspace } = values;
  return {
    opts: agent === undefined ? {} : { agent },
    args: [words[1]],
    globals: { home, workspace, project: undefined, json: undefined },
  };
}
