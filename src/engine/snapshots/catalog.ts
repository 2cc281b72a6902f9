// Read and change what is in the store, by id: the functions the CLI and the TUI share, so
// neither reaches the store itself.
import { UserError } from "../../errors.ts";
import { restore, type LoadResult } from "./restore.ts";
import { verifyFiles, type FileCheck } from "./verify.ts";
import { listNumbers } from "./summaries.ts";
import { listWhatLoadRestores } from "./retention.ts";
import { nextSteps } from "../projects/next-steps.ts";
import type { Session } from "../session.ts";
import { projectById, requireProject, resolveProject, type ProjectContext } from "../projects/resolve.ts";
import type { SnapshotRecord, SnapshotSummary, SnapshotStatus } from "../../store/store.ts";
import type { SnapshotFilter, SnapshotPageQuery } from "../../store/queries.ts";

export type { SnapshotRecord, SnapshotSummary, SnapshotStatus, FileCheck, LoadResult, ProjectContext };

/**
 * The list use case: a page of the current project's snapshots, newest first; the archived ones
 * only with `all` (how many there are is told either way). `page` (1 the first) of `limit` rows;
 * `total`: how many the list holds with its filters; `before`: the listed ones newer than the page
 * (where its list numbers go on from).
 */
export async function snapshotList(
  session: Session,
  opts: { limit?: number; tag?: string; all?: boolean; page?: number } = {},
): Promise<{
  context: ProjectContext;
  snapshots: SnapshotSummary[];
  archived: number;
  total: number;
  /** Each row's list number, as `load N`, `diff` and `delete` take it (none for an archived one). */
  numbers: (number | undefined)[];
}> {
  // Outside a project it says where to go, as load and recall do.
  const context = await requireProject(session, () => nextSteps(session, null));
  const id = context.project.id;
  const filter = { tag: opts.tag, listed: !opts.all };
  const offset = opts.limit !== undefined ? ((opts.page ?? 1) - 1) * opts.limit : 0;
  const snapshots = await projectSnapshots(session, id, { ...filter, limit: opts.limit, offset });
  return {
    context,
    snapshots,
    archived: await archivedCount(session, id, opts.tag),
    total: await session.store.countSnapshots(id, filter),
    numbers: await listNumbersOf(session, id, snapshots, opts.all ? undefined : offset, opts.tag),
  };
}

/**
 * The list numbers of a page of the list (1 = the newest listed), whatever it is filtered by: a
 * row of a list filtered by a tag keeps its number in the whole list, since the commands that take
 * a number (`load N`, `delete N`) take that one. `offset`: listed rows ahead of an unfiltered page
 * of listed rows (undefined: counted).
 */
async function listNumbersOf(
  session: Session,
  projectId: string,
  rows: SnapshotSummary[],
  offset: number | undefined,
  tag: string | undefined,
): Promise<(number | undefined)[]> {
  if (tag === undefined)
    return listNumbers(rows, offset ?? (await listedBefore(session, projectId, rows[0])));
  // A listed row's number: how many listed ones there are, less those older than it.
  const listed = await listedCount(session, projectId);
  const numbers: (number | undefined)[] = [];
  for (const r of rows)
    numbers.push(
      r.archived
        ? undefined
        : listed - (await session.store.countSnapshots(projectId, { listed: true, after: r })),
    );
  return numbers;
}

/** How many listed snapshots are newer than `first` (none without it): the list number before it. */
async function listedBefore(session: Session, projectId: string, first: SnapshotSummary | undefined) {
  if (!first) return 0;
  const listed = await session.store.countSnapshots(projectId, { listed: true });
  const older = await session.store.countSnapshots(projectId, { listed: true, after: first });
  return listed - older - (first.archived ? 0 : 1);
}

/** How many snapshots a project's list holds (archived ones left out): the numbers `load N` takes. */
export function listedCount(session: Session, projectId: string): Promise<number> {
  return session.store.countSnapshots(projectId, { listed: true });
}

/** How many of a project's snapshots (with `tag`) retention archived (left out of the default views). */
export async function archivedCount(session: Session, projectId: string, tag?: string): Promise<number> {
  return (
    (await session.store.countSnapshots(projectId, { tag })) -
    (await session.store.countSnapshots(projectId, { tag, listed: true }))
  );
}

/** How many of a project's snapshots a list holds with these filters (a tag, `listed`), without reading them. */
export function snapshotCount(session: Session, projectId: string, filter: SnapshotFilter): Promise<number> {
  return session.store.countSnapshots(projectId, filter);
}

/** Which of snapshots `ids` a list with these filters (a tag, `listed`) shows: the picker's marks not hidden by its filter. */
export async function shownAmong(
  session: Session,
  projectId: string,
  ids: string[],
  filter: Pick<SnapshotFilter, "tag" | "listed">,
): Promise<string[]> {
  if (!ids.length) return [];
  return (await session.store.listSnapshots(projectId, { ...filter, ids })).map((s) => s.id);
}

/**
 * The snapshot saved before `id` in the project's list (`listed`: archived ones left out), or null
 * when it is the oldest; undefined when `id` is no live snapshot. A keyset step, not the whole list.
 */
export async function snapshotBefore(
  session: Session,
  projectId: string,
  id: string,
  opts: { listed: boolean },
): Promise<{ snapshot: SnapshotRecord; before: SnapshotSummary | null } | undefined> {
  const snapshot = await session.store.getSnapshot(id);
  if (!snapshot || snapshot.project_id !== projectId) return undefined;
  const [before] = await session.store.listSnapshots(projectId, { ...opts, after: snapshot, limit: 1 });
  return { snapshot, before: before ?? null };
}

/** Which of `ids` are still live snapshots: a mark on one another process deleted goes with it. */
export async function liveSnapshotIds(session: Session, ids: string[]): Promise<string[]> {
  const live: string[] = [];
  for (const id of ids) if (await session.store.getSnapshot(id)) live.push(id);
  return live;
}

/** A project's snapshots, newest first: every one (export, sync), or with `listed` those retention left in the views. */
export function projectSnapshots(
  session: Session,
  projectId: string,
  opts: SnapshotPageQuery = {},
): Promise<SnapshotSummary[]> {
  return session.store.listSnapshots(projectId, opts);
}

export async function snapshotById(session: Session, id: string): Promise<SnapshotRecord> {
  const s = await session.store.getSnapshot(id);
  if (!s) throw new UserError(`Snapshot ${id} no longer exists.`);
  return s;
}

/** `snapshots stats`: every snapshot of the project, archived ones too; `archived` says how many are, `listed` the others. */
export async function snapshotStats(session: Session, projectId: string) {
  const st = await session.store.snapshotStats(projectId);
  const listed = await listedCount(session, projectId);
  return { ...st, listed, archived: Math.max(0, st.count - listed) };
}

export async function setStatusById(
  session: Session,
  id: string,
  status: SnapshotStatus,
): Promise<SnapshotRecord> {
  const s = await snapshotById(session, id);
  return session.write(async (w) => {
    await w.setSnapshotStatus(s.id, status);
    return (await w.getSnapshot(s.id))!;
  });
}

export async function deleteById(session: Session, id: string): Promise<SnapshotRecord> {
  const s = await snapshotById(session, id);
  await session.write(async (w) => {
    await w.tombstoneSnapshot(s.id);
    await listWhatLoadRestores(w, s.project_id);
  });
  return s;
}

/** The TUI's load: the restore use case (restore.ts) for a snapshot of any project, by its record id. */
export async function restoreById(
  session: Session,
  id: string,
  opts: { verify?: boolean } = {},
): Promise<LoadResult> {
  const s = await snapshotById(session, id);
  const r = await restore(session, await projectById(session, s.project_id), s.id, opts);
  // A key always names one snapshot or is refused; never a list.
  if (r.kind !== "restored") throw new UserError(`No snapshot ${JSON.stringify(id)}.`);
  return r.result;
}

export function verifyById(session: Session, s: SnapshotRecord, root: string | null): FileCheck[] {
  return verifyFiles(s, root, session.host.id);
}

/**
 * The project of the current directory (or the one chosen with --in) and whether it has a
 * snapshot; null outside any project. Where the TUI opens: on this project's snapshots, else the list.
 */
export async function currentProject(
  session: Session,
): Promise<{ id: string; name: string; hasSnapshots: boolean } | null> {
  const ctx = await resolveProject(session, { create: false }).catch(() => null);
  if (!ctx) return null;
  // One row of its list, not a count: counting reads the project's whole index (22,250 entries
  // in the bench's largest project at 100k), before the TUI's first row.
  const newest = await session.store.listSnapshots(ctx.project.id, { limit: 1 });
  return { id: ctx.project.id, name: ctx.project.name, hasSnapshots: newest.length > 0 };
}
