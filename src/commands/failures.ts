// `mindsave failures`: the project's and the global failure graph.
import { effectiveConfidence, toGraphEntry } from "../engine/failures.ts";
import { failuresFor } from "../engine/catalog.ts";
import { print, printJson, withSession } from "./shared.ts";
import type { GlobalOptions } from "../cli.ts";

export async function run(opts: { scope?: "project" | "global" }, _a: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, false, async (session) => {
    const now = session.now();
    const ctx = await session.project({ create: false });
    let failures = await failuresFor(session, ctx?.project.id ?? null);
    if (opts.scope) failures = failures.filter((f) => f.scope === opts.scope);
    if (g.json) {
      printJson({ failure_graph: Object.fromEntries(failures.map((f) => [f.item, toGraphEntry(f, now)])) });
      return 0;
    }
    if (!failures.length) {
      print(`No failures recorded${ctx ? ` for ${ctx.project.name}` : ""}${opts.scope ? ` (${opts.scope} scope)` : ""}.`);
      return 0;
    }
    print(`Failure graph${ctx ? ` of ${ctx.project.name}` : ""} (${failures.length}):`);
    for (const f of failures) {
      print(`- ${f.item} [${f.scope}, ${f.rejected_by}, ×${f.repeat_count}, ${effectiveConfidence(f, now)}]: ${f.reason}`);
      if (f.alternatives.length) print(`    instead: ${f.alternatives.join("; ")}`);
      if (f.related.length) print(`    related: ${f.related.join(", ")}`);
    }
    return 0;
  });
}
