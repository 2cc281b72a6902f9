// `mindsave failures [--scope]`: the project's and the global failure graph; `failures forget ITEM`.
import { effectiveConfidence, toGraphEntry } from "../engine/failures/graph.ts";
import { failuresFor, removeFailure } from "../engine/failures/record.ts";
import { age } from "../lib/text.ts";
import { print, printJson, withSession } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";
import { inline } from "../engine/snapshots/layers.ts";
import { resolveProject } from "../engine/projects/resolve.ts";

export async function run(
  opts: { scope?: "project" | "global" },
  _a: string[],
  g: GlobalOptions,
): Promise<number> {
  return withSession(g, false, async (session) => {
    const now = session.now();
    const ctx = await resolveProject(session, { create: false });
    let failures = await failuresFor(session, ctx?.project.id ?? null);
    if (opts.scope) failures = failures.filter((f) => f.scope === opts.scope);
    if (g.json) {
      // Keyed by item within each scope: the same item may be rejected in both.
      const graph = (scope: string) =>
        Object.fromEntries(
          failures.filter((f) => f.scope === scope).map((f) => [f.item, toGraphEntry(f, now)]),
        );
      printJson({
        project: ctx ? { id: ctx.project.id, name: ctx.project.name } : null,
        failure_graph: { project: graph("project"), global: graph("global") },
      });
      return 0;
    }
    // Outside a project only the global graph exists.
    const whose =
      opts.scope === "global" || !ctx
        ? "Global failure graph"
        : `Failure graph of ${ctx.project.name}${opts.scope ? "" : " and the global one"}`;
    if (!failures.length) {
      print(`${whose}: nothing recorded.`);
      return 0;
    }
    print(`${whose} (${failures.length}):`);
    for (const f of failures) {
      // One line a value, as in the restore block: a line break in a peer's text starts no line of its own.
      print(
        `- ${inline(f.item)} [${f.scope}, ${f.rejected_by}, ×${f.repeat_count}, ${effectiveConfidence(f, now)}, last seen ${age(f.last_seen, now, "long")}]: ${inline(f.reason)}`,
      );
      if (f.alternatives.length) print(`    instead: ${f.alternatives.map(inline).join("; ")}`);
      if (f.related.length) print(`    related: ${f.related.map(inline).join(", ")}`);
    }
    return 0;
  });
}

export async function forget(
  opts: { scope?: "project" | "global" },
  args: string[],
  g: GlobalOptions,
): Promise<number> {
  return withSession(g, true, async (session) => {
    const f = await removeFailure(session, args[0], opts.scope);
    if (g.json) printJson({ forgotten: f.item, scope: f.scope, id: f.id });
    else print(`Removed ${inline(f.item)} from the ${f.scope} failure graph.`);
    return 0;
  });
}
