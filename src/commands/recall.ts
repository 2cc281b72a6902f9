// `mindsave recall [KEYWORD…]`: Layer 3 of a snapshot, or a full-text search with a context line per hit.
import { recallArchive, recallSearch } from "../engine/snapshots/recall.ts";
import { archiveText, recallHitsText } from "../engine/snapshots/summaries.ts";
import { recentToolCalls } from "../engine/agents/toollog.ts";
import { nextSteps } from "../engine/projects/next-steps.ts";
import { print, printJson, withSession } from "./shared.ts";
import { padEnd, truncate } from "../lib/text.ts";
import type { GlobalOptions } from "../types.ts";
import { requireProject } from "../engine/projects/resolve.ts";

export async function run(
  opts: { snapshot?: string; allProjects?: boolean; limit: number; tools?: boolean; tag?: string },
  words: string[],
  g: GlobalOptions,
): Promise<number> {
  return withSession(g, false, async (session) => {
    if (opts.tools) {
      const ctx = await requireProject(session);
      const calls = await recentToolCalls(session, ctx.project.id, opts.limit);
      if (g.json) printJson({ project: ctx.project.name, tool_calls: calls });
      else if (!calls.length)
        print(`The tool log of ${ctx.project.name} is empty (hooks and \`mindsave ingest\` fill it).`);
      else {
        print(`Tool log of ${ctx.project.name}, the newest ${calls.length} call(s), oldest first:`);
        for (const c of calls)
          print(
            `${c.timestamp.slice(0, 19).replace("T", " ")}  ${padEnd(c.action, 6)} ${padEnd(c.tool, 10)} ${truncate(c.target, 90)}${c.summary ? `  (${c.summary})` : ""}`,
          );
      }
      return 0;
    }
    if (words.length) {
      const r = await recallSearch(session, words, {
        allProjects: opts.allProjects,
        limit: opts.limit,
        tag: opts.tag,
        nextSteps: () => nextSteps(session, null, { allProjects: true }),
      });
      if (g.json)
        printJson({
          query: r.query,
          hits: r.hits,
          more: r.more,
          ...(r.tag ? { tag: r.tag.name, tag_carried: r.tag.carried } : {}),
          retired: r.retired.map((x) => ({
            kind: x.kind,
            text: x.text,
            reason: x.reason,
            retired_at: x.retired_at,
            retired_by: x.retired_by,
          })),
        });
      else print(recallHitsText(r, "see more with --limit N"));
      return 0;
    }
    const {
      snapshot: s,
      text,
      newest,
    } = await recallArchive(session, {
      key: opts.snapshot,
      tag: opts.tag,
      allProjects: opts.allProjects,
      nextSteps: () => nextSteps(session, null),
    });
    if (g.json)
      printJson({
        snapshot_id: s.name,
        id: s.id,
        layer3: s.layer3,
        extra: s.extra ?? {},
        compressed: s.compressed ?? null,
        ...(newest ? { newest_without_layer3: newest } : {}),
      });
    else print(archiveText(s, text, newest, opts.tag));
    return 0;
  });
}
