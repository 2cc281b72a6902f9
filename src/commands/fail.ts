// `mindsave fail ITEM --reason R …`: record (or repeat) a rejected approach.
import { failureSummary, recordFailure } from "../engine/failures/record.ts";
import { MissingReason } from "../engine/failures/graph.ts";
import { print, printJson, withSession } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

interface FailFlags {
  reason?: string;
  by?: string;
  scope?: string;
  confidence?: string;
  related?: string[];
  alt?: string[];
}

export async function run(opts: FailFlags, args: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, true, async (session) => {
    const r = await recordFailure(session, {
      item: args[0],
      reason: opts.reason,
      rejected_by: opts.by,
      scope: opts.scope,
      confidence: opts.confidence,
      related: opts.related,
      alternatives: opts.alt,
      increment: true,
    }).catch((e) => {
      throw e instanceof MissingReason ? new MissingReason(e.item, 'give it with --reason "…"') : e;
    });
    if (g.json)
      printJson({
        ...r.failure,
        confidence: r.confidence,
        ...(r.replacedReason ? { replaced_reason: r.replacedReason } : {}),
      });
    else print(failureSummary(r));
    return 0;
  });
}
