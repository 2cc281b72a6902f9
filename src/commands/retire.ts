// `mindsave retire [N|TEXT] [--reason] [--undo]`: mark a constraint or decision no longer true.
import { retire, retireCandidates, retireListText, unretire } from "../engine/memory/retire.ts";
import { print, printJson, withSession } from "./shared.ts";
import { UserError } from "../errors.ts";
import type { GlobalOptions } from "../types.ts";

export async function run(
  opts: { reason?: string; undo?: boolean },
  args: string[],
  g: GlobalOptions,
): Promise<number> {
  const key = args.join(" ").trim();
  if (!key) {
    if (opts.undo)
      throw new UserError("--undo needs the retired item: its number in `mindsave retire` or its text.");
    return withSession(g, false, async (session) => {
      const { candidates, retired } = await retireCandidates(session);
      if (g.json)
        printJson({
          candidates: candidates.map((c, i) => ({ number: i + 1, ...c })),
          retired: retired.map((r, i) => ({
            number: i + 1,
            kind: r.kind,
            text: r.text,
            reason: r.reason,
            retired_at: r.retired_at,
            retired_by: r.retired_by,
          })),
        });
      else print(retireListText(candidates, retired));
      return 0;
    });
  }
  return withSession(g, true, async (session) => {
    if (opts.undo) {
      const r = await unretire(session, key);
      if (g.json) printJson({ unretired: { kind: r.kind, text: r.text } });
      else
        print(`Brought back the ${r.kind}: ${r.text} (the next snapshot that states it carries it again).`);
      return 0;
    }
    const r = await retire(session, key, { reason: opts.reason });
    if (g.json)
      printJson({
        retired: {
          kind: r.kind,
          text: r.text,
          reason: r.reason,
          retired_at: r.retired_at,
          retired_by: r.retired_by,
        },
      });
    else
      print(
        `Retired the ${r.kind}: ${r.text}. Later snapshots do not carry it and no restore block shows it (\`mindsave retire --undo\` brings it back).`,
      );
    return 0;
  });
}
