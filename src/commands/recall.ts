// `mindsave recall [KEYWORD…]`: Layer 3 of a snapshot, or a full-text search with a context line per hit.
import { UserError } from "../errors.ts";
import { layer3Text, search } from "../engine/snapshots/recall.ts";
import { selectSnapshot } from "../engine/snapshots/restore.ts";
import { listProjects } from "../engine/projects/projects.ts";
import { recentToolCalls } from "../engine/agents/toollog.ts";
import { print, printJson, withSession } from "./shared.ts";
import { padEnd, truncate } from "../lib/text.ts";
import type { GlobalOptions } from "../types.ts";

export async function run(opts: { snapshot?: string; allProjects?: boolean; limit: number; tools?: boolean }, words: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, false, async (session) => {
    if (opts.tools) {
      const ctx = await session.requireProject();
      const calls = await recentToolCalls(session, ctx.project.id, opts.limit);
      if (g.json) printJson({ project: ctx.project.name, tool_calls: calls });
      else if (!calls.length) print(`The tool log of ${ctx.project.name} is empty (hooks and \`mindsave ingest\` fill it).`);
      else {
        print(`Tool log of ${ctx.project.name}, the newest ${calls.length} call(s), oldest first:`);
        for (const c of calls) print(`${c.timestamp.slice(0, 19).replace("T", " ")}  ${padEnd(c.action, 6)} ${padEnd(c.tool, 10)} ${truncate(c.target, 90)}${c.summary ? `  (${c.summary})` : ""}`);
      }
      return 0;
    }
    if (words.length) {
      const ctx = opts.allProjects ? null : await session.requireProject();
      const { hits, more } = await search(session, ctx?.project.id ?? null, words, opts.limit);
      if (g.json) {
        printJson({ query: words.join(" "), hits, more });
        return 0;
      }
      if (!hits.length) {
        print(`No snapshot mentions ${JSON.stringify(words.join(" "))}${ctx ? ` in project ${ctx.project.name}` : ""}.`);
        return 0;
      }
      const names = opts.allProjects ? new Map((await listProjects(session)).map((p) => [p.id, p.name])) : null;
      const label = (h: (typeof hits)[number]) => `${names ? `${names.get(h.project_id) ?? h.project_id} / ` : ""}${h.name}`;
      const w = Math.max(...hits.map((h) => Bun.stringWidth(label(h))));
      const lines = hits.map((h) => `${padEnd(label(h), w)}  ${h.created_at.slice(0, 16).replace("T", " ")}  ${truncate(h.goal, 60)}\n    ${h.context}`);
      const head = more ? `More than ${hits.length} snapshots match; the newest ${hits.length} (see more with --limit N):` : `${hits.length} snapshot(s) match, newest first:`;
      print(`${head}\n${lines.join("\n")}`);
      return 0;
    }
    const ctx = await session.requireProject();
    const sel = await selectSnapshot(session, ctx.project.id, opts.snapshot, { latest: true });
    if (sel.kind !== "snapshot") throw new UserError(`No snapshots in project ${ctx.project.name} yet.`);
    const s = sel.snapshot;
    const text = layer3Text(s);
    if (g.json) printJson({ snapshot_id: s.name, id: s.id, layer3: s.layer3, extra: s.extra ?? {}, compressed: s.compressed ?? null });
    else print(`## Layer 3: Cold Archive of ${s.name}\n\n${text || "(empty: this snapshot has no cold archive)"}`);
    return 0;
  });
}
