// `mindsave ui` (and `mindsave` alone on a terminal): the TUI. The only command that loads ui/,
// and it does so lazily so every other command starts without React or ink.
import { UserError } from "../errors.ts";
import { withSession } from "./shared.ts";
import { releaseJit } from "../short-run.ts";
import type { GlobalOptions } from "../types.ts";

export async function run(_o: unknown, _a: string[], g: GlobalOptions): Promise<number> {
  if (!process.stdin.isTTY || !(process.stdout.isTTY || process.stderr.isTTY)) {
    throw new UserError("The TUI needs a terminal; use the commands instead (`mindsave --help`).");
  }
  const result = await withSession(g, false, async (session) => {
    const { runUi } = await import("../../ui/run.tsx");
    return runUi(session, { onFirstInput: releaseJit });
  });
  if (result.output)
    process.stdout.write(result.output.endsWith("\n") ? result.output : result.output + "\n");
  return 0;
}
