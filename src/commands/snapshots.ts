// `mindsave snapshots list|stats|clean|show|complete|delete`.
import { UserError } from "../errors.ts";
import { sameNameLabels, selectSnapshot } from "../engine/snapshots/select.ts";
import { snapshotList, snapshotStats } from "../engine/snapshots/catalog.ts";
import { cleanSnapshots, deleteSnapshot, layer2MovedText, setSnapshotStatus, snapshotFile } from "../engine/snapshots/manage.ts";
import { toHostPath } from "../engine/projects/paths.ts";
import { print, printJson, warn, withSession } from "./shared.ts";
import { age, padEnd, truncate } from "../lib/text.ts";
import { terminalColumns } from "../lib/out.ts";
import type { GlobalOptions } from "../types.ts";

const kb = (n: number) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`);

export async function list(opts: { limit?: number; tag?: string }, _args: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, false, async (session) => {
    const { context: ctx, snapshots: rows } = await snapshotList(session, { limit: opts.limit, tag: opts.tag });
    if (g.json) {
      printJson({ project: { id: ctx.project.id, name: ctx.project.name }, snapshots: rows });
      return 0;
    }
    if (!rows.length) {
      print(opts.tag !== undefined ? `No snapshot of ${ctx.project.name} is tagged ${JSON.stringify(opts.tag)}.` : `No snapshots in project ${ctx.project.name} yet.`);
      return 0;
    }
    const now = session.now();
    // Two snapshots of one name (two hosts, then a sync): each says its host and id prefix.
    const labels = await sameNameLabels(session, ctx.project.id, rows);
    const names = rows.map((r) => (labels.has(r.id) ? `${r.name} (${labels.get(r.id)})` : r.name));
    // Ids are what `show`, `complete` and `delete` take: never cut them; the goal gives way.
    const nameW = Math.max(...names.map((n) => Bun.stringWidth(n)));
    const goalW = Math.max(20, (terminalColumns() || 120) - nameW - 50);
    // One write for the whole list (a line at a time is a system call per snapshot).
    const lines = [`Snapshots of ${ctx.project.name}${opts.tag !== undefined ? ` tagged ${JSON.stringify(opts.tag)}` : ""}, newest first (the layers each holds, its size):`];
    rows.forEach((r, i) => {
      const layers = ["L1", r.has_layer2 ? "L2" : "", r.has_layer3 ? "L3" : ""].filter(Boolean).join("+");
      lines.push(`${String(i + 1).padStart(3)}. ${padEnd(names[i], nameW)}  ${padEnd(age(r.created_at, now, "long"), 12)} ${padEnd(r.status, 11)} ${padEnd(layers, 8)} ${padEnd(kb(r.size), 8)} ${truncate(r.goal + (r.tags.length ? `  #${r.tags.join(" #")}` : ""), goalW)}`);
    });
    print(lines.join("\n"));
    return 0;
  });
}

export async function stats(_o: unknown, _args: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, false, async (session) => {
    const ctx = await session.requireProject();
    const st = await snapshotStats(session, ctx.project.id);
    if (g.json) {
      printJson({ project: { id: ctx.project.id, name: ctx.project.name }, ...st });
      return 0;
    }
    const pct = (n: number) => (st.bytes ? `${Math.round((n / st.bytes) * 100)}%` : "0%");
    print([
      `Project ${ctx.project.name}: ${st.count} snapshot(s), ${kb(st.bytes)} of text.`,
      `By status: ${Object.entries(st.by_status).map(([k, v]) => `${k} ${v}`).join(", ") || "none"}.`,
      `Layer 1: ${kb(st.layer1)} (${pct(st.layer1)}), ${st.count ? Math.round(st.l1_tokens / st.count) : 0} tokens on average.`,
      `Layer 2: ${kb(st.layer2)} (${pct(st.layer2)}), ${st.count ? Math.round(st.l2_tokens / st.count) : 0} tokens on average.`,
      `Layer 3: ${kb(st.layer3)} (${pct(st.layer3)}).`,
      st.count ? `Oldest ${st.oldest?.slice(0, 10)}, newest ${st.newest?.slice(0, 10)}.` : "",
    ].filter(Boolean).join("\n"));
    return 0;
  });
}

export async function clean(opts: { keep: number; dryRun?: boolean }, _args: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, true, async (session) => {
    const r = await cleanSnapshots(session, { keep: opts.keep, dryRun: opts.dryRun });
    if (g.json) printJson({ dry_run: !!opts.dryRun, ...r });
    else {
      print(r.removed.length ? `${opts.dryRun ? "Would remove" : "Removed"} ${r.removed.length} snapshot(s): ${r.removed.join(", ")}.` : "Nothing to remove.");
      const kept = `${r.remaining} snapshot(s) ${opts.dryRun ? "would remain" : "remain"}`;
      print(r.remaining > opts.keep ? `${kept}: ${r.protected} of them are in progress, blocked or have a blocker, which cleanup never removes, and it never removes the newest snapshot (and the newest full one), which load restores.` : `${kept}.`);
    }
    return 0;
  });
}

export async function show(_o: unknown, args: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, false, async (session) => {
    const ctx = await session.requireProject();
    const sel = await selectSnapshot(session, ctx.project.id, args[0], { latest: true });
    if (sel.kind !== "snapshot") throw new UserError(`No snapshots in project ${ctx.project.name} yet.`);
    const s = sel.snapshot;
    if (g.json) printJson(s);
    else print(snapshotFile(s, s.active_files.map((f) => toHostPath(f.path, ctx.root))));
    return 0;
  });
}

export async function complete(_o: unknown, args: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, true, async (session) => {
    const s = await setSnapshotStatus(session, args[0], "completed");
    if (g.json) printJson({ completed: s.name, id: s.id });
    else print(`Marked ${s.name} completed.`);
    return 0;
  });
}

export async function remove(_o: unknown, args: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, true, async (session) => {
    const { deleted: s, moved } = await deleteSnapshot(session, args[0]);
    // An overflow snapshot restores the Layer 2 of the full one it builds on: say where it comes from now.
    const warnings = layer2MovedText(s.name, moved, true);
    if (g.json) printJson({ deleted: s.name, id: s.id, layer2_moved: moved, warnings });
    else {
      print(`Deleted ${s.name}.`);
      for (const w of warnings) warn(w);
    }
    return 0;
  });
}
