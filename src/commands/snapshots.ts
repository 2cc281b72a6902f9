// `mindsave snapshots list|stats|clean|prune|show|complete|delete`.
import { UserError } from "../errors.ts";
import { LIST_PAGE, sameNameLabels, selectSnapshot } from "../engine/snapshots/select.ts";
import { snapshotList, snapshotStats } from "../engine/snapshots/catalog.ts";
import {
  cleanSnapshots,
  deleteSnapshot,
  layer2MovedText,
  setSnapshotStatus,
  type Layer2Moved,
  snapshotFile,
} from "../engine/snapshots/manage.ts";
import { toHostPath } from "../engine/projects/paths.ts";
import { pruneCandidates, pruneSnapshots, parseAge } from "../engine/snapshots/retention.ts";
import { ageColumn, archivedCountText, listRows, someNames } from "../engine/snapshots/summaries.ts";
import { SNAPSHOT_STATUSES } from "../engine/snapshots/input-fields.ts";
import { confirm, print, printJson, terminalProgress, warn, withSession } from "./shared.ts";
import { truncate, utcMinute } from "../lib/text.ts";
import { terminalColumns } from "../lib/out.ts";
import type { GlobalOptions } from "../types.ts";
import type { SnapshotStatus, SnapshotSummary } from "../engine/snapshots/catalog.ts";
import type { SnapshotRecord } from "../store/store.ts";
import { requireProject } from "../engine/projects/resolve.ts";
import { filteredTagFirst } from "../engine/snapshots/tags.ts";

const kb = (n: number) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`);

export async function list(
  opts: { limit?: number; page?: number; tag?: string; all?: boolean },
  _args: string[],
  g: GlobalOptions,
): Promise<number> {
  return withSession(g, false, async (session) => {
    const limit = opts.limit ?? LIST_PAGE;
    const page = opts.page ?? 1;
    const {
      context: ctx,
      snapshots: rows,
      archived,
      total,
      numbers,
    } = await snapshotList(session, { limit, page, tag: opts.tag, all: opts.all });
    if (!rows.length && total)
      throw new UserError(
        `There is no page ${page}: the list holds ${total} snapshot(s), ${Math.ceil(total / limit)} page(s) of ${limit}.`,
      );
    if (g.json) {
      printJson({
        project: { id: ctx.project.id, name: ctx.project.name },
        snapshots: rows,
        archived,
        total,
        page,
        limit,
      });
      return 0;
    }
    const more = !opts.all && archived ? archivedCountText(archived, "cli", opts.tag) : "";
    if (!rows.length) {
      print(
        opts.tag !== undefined
          ? `No snapshot of ${ctx.project.name} is tagged ${JSON.stringify(opts.tag)}.`
          : `No snapshots in project ${ctx.project.name} yet.`,
      );
      if (more) print(more);
      return 0;
    }
    print(
      listLines(rows, ctx.project.name, await sameNameLabels(session, ctx.project.id, rows), session.now(), {
        ...opts,
        numbers,
      }).join("\n"),
    );
    const offset = (page - 1) * limit;
    if (offset + rows.length < total) print(nextPageText(opts, { offset, shown: rows.length, total, limit }));
    if (more) print(more);
    return 0;
  });
}

/** The line under a page that has more after it: which it showed, and the command for the next. */
function nextPageText(
  opts: { limit?: number; page?: number; tag?: string; all?: boolean },
  at: { offset: number; shown: number; total: number; limit: number },
): string {
  const flags = [
    opts.all ? " --all" : "",
    opts.tag !== undefined ? ` --tag ${JSON.stringify(opts.tag)}` : "",
    opts.limit !== undefined ? ` --limit ${opts.limit}` : "",
  ].join("");
  const next = Math.min(at.limit, at.total - at.offset - at.shown);
  return `${at.offset + 1}–${at.offset + at.shown} of ${at.total} shown; \`mindsave snapshots list${flags} --page ${(opts.page ?? 1) + 1}\` shows the next ${next}.`;
}

/** The list's lines: numbered as `load N` takes them; an archived snapshot has no number and says it is archived. */
function listLines(
  rows: SnapshotSummary[],
  project: string,
  labels: Map<string, string>,
  now: Date,
  opts: { tag?: string; all?: boolean; numbers: (number | undefined)[] },
): string[] {
  // Piped, names stay whole (a script may take them) and the goal gives way. On a terminal each
  // row fits its width (listRows): the layers and size give way first, then the age; a long name
  // is cut in its middle, its number or its start still selects it.
  const cols = terminalColumns();
  const layers = rows.map((r) =>
    ["L1", r.has_layer2 ? "L2" : "", r.has_layer3 ? "L3" : ""].filter(Boolean).join("+"),
  );
  const layersColumn = { cells: layers, width: 8, givesWay: 0 };
  const parts = {
    lead: opts.numbers.map((n) => (n === undefined ? "    " : `${String(n).padStart(3)}.`)),
    // Two snapshots of one name (two hosts, then a sync): each says its host and id prefix.
    names: rows.map((r) => (labels.has(r.id) ? `${r.name} (${labels.get(r.id)})` : r.name)),
    archived: rows.map((r) => !!r.archived),
    between: [
      ageColumn(rows, now, !!cols),
      { cells: rows.map((r) => r.status), width: 11, givesWay: 3 },
      layersColumn,
      { cells: rows.map((r) => kb(r.size)), width: 8, givesWay: 0 },
    ],
    goals: rows.map(
      (r) => r.goal + (r.tags.length ? `  #${filteredTagFirst(r.tags, opts.tag).join(" #")}` : ""),
    ),
    goalLeast: 20,
  };
  const { lines, kept } = listRows(parts, cols || null);
  // What the columns are, said only where the layers and size are shown.
  const shown = kept.includes(layersColumn) ? " (the layers each holds, its size)" : "";
  return [
    `Snapshots of ${project}${opts.tag !== undefined ? ` tagged ${JSON.stringify(opts.tag)}` : ""}, newest first${opts.all ? ", archived ones included" : ""}${shown}:`,
    ...lines,
  ];
}

export async function stats(_o: unknown, _args: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, false, async (session) => {
    const ctx = await requireProject(session);
    const st = await snapshotStats(session, ctx.project.id);
    if (g.json) {
      printJson({ project: { id: ctx.project.id, name: ctx.project.name }, ...st });
      return 0;
    }
    const pct = (n: number) => (st.bytes ? `${Math.round((n / st.bytes) * 100)}%` : "0%");
    print(
      [
        // Archived snapshots are counted in every line below: say so, as the list says it leaves them out.
        `Project ${ctx.project.name}: ${st.count} snapshot(s)${st.archived ? `, ${st.archived} of them archived (counted here; \`snapshots list\` shows them with --all)` : ""}, ${kb(st.bytes)} of text.`,
        `By status: ${
          Object.entries(st.by_status)
            .map(([k, v]) => `${k} ${v}`)
            .join(", ") || "none"
        }.`,
        `Layer 1: ${kb(st.layer1)} (${pct(st.layer1)}), ${st.count ? Math.round(st.l1_tokens / st.count) : 0} tokens on average.`,
        `Layer 2: ${kb(st.layer2)} (${pct(st.layer2)}), ${st.count ? Math.round(st.l2_tokens / st.count) : 0} tokens on average.`,
        `Layer 3: ${kb(st.layer3)} (${pct(st.layer3)}).`,
        st.count ? `Oldest ${st.oldest?.slice(0, 10)}, newest ${st.newest?.slice(0, 10)}.` : "",
      ]
        .filter(Boolean)
        .join("\n"),
    );
    return 0;
  });
}

export async function clean(
  opts: { keep: number; dryRun?: boolean },
  _args: string[],
  g: GlobalOptions,
): Promise<number> {
  return withSession(g, true, async (session) => {
    const r = await cleanSnapshots(session, { keep: opts.keep, dryRun: opts.dryRun });
    if (g.json) printJson({ dry_run: !!opts.dryRun, ...r });
    else {
      print(
        r.archived.length
          ? `${opts.dryRun ? "Would archive" : "Archived"} ${r.archived.length} snapshot(s): ${someNames(r.archived)}.`
          : "Nothing to archive.",
      );
      print(
        `${r.listed} snapshot(s) ${opts.dryRun ? "would stay" : "stay"} listed. Archiving deletes nothing: \`mindsave snapshots list --all\`, recall and \`mindsave load ID\` still reach every snapshot; \`mindsave snapshots prune\` deletes archived ones.`,
      );
    }
    return 0;
  });
}

export async function prune(
  opts: { olderThan?: string; status?: string; dryRun?: boolean; yes?: boolean },
  _args: string[],
  g: GlobalOptions,
): Promise<number> {
  const filter = pruneOptions(opts);
  return withSession(g, !opts.dryRun, async (session) => {
    const ctx = await requireProject(session);
    const found = await pruneCandidates(session, ctx.project.id, { ...filter, now: session.now() });
    if (g.json && (opts.dryRun || !found.length)) {
      printJson({
        dry_run: !!opts.dryRun,
        deleted: [],
        would_delete: opts.dryRun ? found.map((s) => s.name) : [],
      });
      return 0;
    }
    if (!found.length) {
      print("No archived snapshot matches; nothing to delete.");
      return 0;
    }
    // Without a terminal the refusal comes first and alone: thousands of names before it hid it.
    if (!opts.yes && !opts.dryRun && !process.stdin.isTTY) {
      throw new UserError(
        `Pruning deletes ${found.length} snapshot(s) for good (${someNames(
          found.map((s) => s.name),
          10,
        )}) and there is no terminal to ask on; add --yes to confirm (or --dry-run to list them all). Nothing was deleted.`,
      );
    }
    const head = `${opts.dryRun ? "Would delete" : "Pruning deletes these"} ${found.length} archived snapshot(s) of ${ctx.project.name} for good:`;
    // Before the question, a screenful at most: the heading, the list, the question, its outcome
    // and the shell's next prompt stay on one screen. --dry-run and --yes list every one.
    const most = opts.yes || opts.dryRun ? Infinity : Math.max(5, (process.stdout.rows || 24) - 5);
    if (!g.json) print([head, ...pruneLines(found, most)].join("\n"));
    if (opts.dryRun) return 0;
    if (!opts.yes) {
      if (!(await confirm(`Delete these ${found.length} snapshot(s)?`))) {
        print("Nothing was deleted.");
        return 0;
      }
    }
    const progress = terminalProgress(g);
    const deleted = await pruneSnapshots(
      session,
      ctx.project.id,
      { ...filter, now: session.now() },
      found,
      progress && ((done, total) => progress("deleting snapshots", done, total)),
    );
    if (g.json) printJson({ dry_run: false, deleted, would_delete: [] });
    else print(`Deleted ${deleted.length} snapshot(s).`);
    return 0;
  });
}

type PruneRow = Pick<SnapshotSummary, "name" | "status" | "created_at">;

/** The snapshots a prune would delete, one a line; past `most`, how many more and how to see them. */
function pruneLines(found: PruneRow[], most: number): string[] {
  const line = (s: PruneRow) => `  ${s.name} (${s.status}, saved ${s.created_at.slice(0, 10)})`;
  if (found.length <= most) return found.map(line);
  const shown = found.slice(0, most - 1);
  return [
    ...shown.map(line),
    `  … and ${found.length - shown.length} more (the same prune with --dry-run lists them all)`,
  ];
}

/** The prune's filters, checked before the store is opened. */
function pruneOptions(opts: { olderThan?: string; status?: string }): {
  olderThanDays?: number;
  status?: SnapshotStatus;
} {
  if (opts.status !== undefined && !SNAPSHOT_STATUSES.includes(opts.status as SnapshotStatus)) {
    throw new UserError(
      `--status takes one of ${SNAPSHOT_STATUSES.join(", ")}; ${JSON.stringify(opts.status)} is not one.`,
    );
  }
  return {
    olderThanDays: opts.olderThan === undefined ? undefined : parseAge(opts.olderThan),
    status: opts.status as SnapshotStatus | undefined,
  };
}

export async function show(_o: unknown, args: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, false, async (session) => {
    const ctx = await requireProject(session);
    const sel = await selectSnapshot(session, ctx.project.id, args[0], { latest: true });
    if (sel.kind !== "snapshot") throw new UserError(`No snapshots in project ${ctx.project.name} yet.`);
    const s = sel.snapshot;
    if (g.json) printJson(s);
    else
      print(
        snapshotFile(
          s,
          s.active_files.map((f) => toHostPath(f.path, ctx.root)),
        ),
      );
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

export async function remove(opts: { yes?: boolean }, args: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, true, async (session) => {
    // As prune: a person on a terminal is asked first (list numbers shift after a delete, so a
    // command run twice would take two); scripts and agents, with no terminal, are not.
    const ask =
      !opts.yes && process.stdin.isTTY
        ? (s: SnapshotRecord, moved: Layer2Moved[]) => askDelete(s, moved, g)
        : undefined;
    const done = await deleteSnapshot(session, args[0], ask);
    if (!done) {
      print("Nothing was deleted.");
      return 0;
    }
    const { deleted: s, moved } = done;
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

/** The question before a delete on a terminal: which snapshot (name, status, time, goal), what moves, y/N. */
async function askDelete(s: SnapshotRecord, moved: Layer2Moved[], g: GlobalOptions): Promise<boolean> {
  if (!g.json) {
    const goal = truncate(s.goal, Math.max(20, (terminalColumns() || 120) - 9));
    print(
      [
        "Deleting this snapshot for good:",
        `  ${s.name} (${s.status}, saved ${utcMinute(s.created_at)})`,
        `  goal: ${goal}`,
        ...layer2MovedText("this one", moved, false),
      ].join("\n"),
    );
  }
  return confirm(`Delete ${s.name}?`);
}
