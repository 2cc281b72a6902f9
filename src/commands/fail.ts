// `mindsave fail ITEM --reason R …`: record (or repeat) a rejected approach.
import { effectiveConfidence, observeFailure } from "../engine/failures/graph.ts";
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
    const now = session.now();
    const f = await session.write(async (w) => {
      const ctx = opts.scope === "global" ? null : await session.project({ create: true, w });
      return observeFailure(w, ctx?.project.id ?? null, {
        item: args[0], reason: opts.reason, rejected_by: opts.by, scope: opts.scope, confidence: opts.confidence,
        related: opts.related, alternatives: opts.alt, increment: true,
      }, now);
    });
    if (g.json) printJson({ ...f, confidence: effectiveConfidence(f, now) });
    else print(`Failure graph: ${f.item} (${f.scope}) rejected by ${f.rejected_by}, seen ${f.repeat_count} time(s), confidence ${effectiveConfidence(f, now)}.`);
    return 0;
  });
}
