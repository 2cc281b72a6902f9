// `mindsave diff [A] [B]`: what changed between two snapshots (default: the two newest).
import { diffInProject, diffText } from "../engine/snapshots/diff.ts";
import { print, printJson, withSession } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

export async function run(_o: unknown, args: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, false, async (session) => {
    const d = await diffInProject(session, args[0], args[1]);
    if (g.json)
      printJson({
        ...d,
        failures: {
          added: d.failures.added.map((f) => f.item),
          repeated: d.failures.repeated.map((f) => f.item),
        },
      });
    else print(diffText(d).join("\n"));
    return 0;
  });
}
