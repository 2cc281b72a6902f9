// Retention keeps the views short and never deletes: a snapshot past the rules is archived (left
// out of `snapshots list`, `load`'s numbered list and the picker's default view, still whole for
// recall, `load ID`, export and sync). Only a person deletes: `snapshots delete` or `snapshots prune`.
import { UserError } from "../../errors.ts";
import { stallIfAsked } from "../stall.ts";
import type { Session } from "../session.ts";
import type { RetentionRow, SnapshotStatus, StoreWriter } from "../../store/store.ts";

export const COMPLETED_MAX_AGE_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface RetentionOptions {
  /** Snapshots left listed per project (the newest ones, whatever their status). */
  keep: number;
  now: Date;
  /** A snapshot never archived by this pass (the one a save just wrote). */
  spare?: string;
  /** Say what would be archived, write nothing. */
  dryRun?: boolean;
}

/**
 * The spec's cleanup, as archiving: completed snapshots older than 30 days, then the oldest listed
 * ones past the newest `keep`, in progress or not. Never what `load` restores (the newest snapshot
 * and the newest full one): those are taken out of the archive if they were in it. Returns the
 * names archived, oldest first. Reads only the listed snapshots, by an index (see migration 5).
 */
export async function applyRetention(
  w: StoreWriter,
  projectId: string,
  opts: RetentionOptions,
): Promise<string[]> {
  const spared = new Set([...(await w.restoredIds(projectId)), ...(opts.spare ? [opts.spare] : [])]);
  if (!opts.dryRun) await w.unarchiveSnapshots([...spared]);
  await stallIfAsked("retention-unarchived");
  const listed = await w.listedForRetention(projectId);
  const chosen = toArchive(listed, spared, w.hostId, opts);
  if (!opts.dryRun) await w.archiveSnapshots(chosen.map((s) => s.id));
  await stallIfAsked("retention-archived");
  return chosen.map((s) => s.name);
}

/** Which of the listed snapshots (newest first) the rules archive, oldest first. */
function toArchive(
  listed: RetentionRow[],
  spared: Set<string>,
  hostId: string,
  opts: RetentionOptions,
): RetentionRow[] {
  const cutoff = opts.now.getTime() - COMPLETED_MAX_AGE_DAYS * DAY_MS;
  // Ages are told by one clock only: this host's. A laptop whose clock runs a month ahead would
  // otherwise find every other laptop's completed snapshots "old".
  const mine = (s: RetentionRow) => s.saved_host === null || s.saved_host === hostId;
  const old = (s: RetentionRow) => s.status === "completed" && mine(s) && Date.parse(s.created_at) < cutoff;
  const chosen = new Set(listed.filter((s) => !spared.has(s.id) && old(s)).map((s) => s.id));
  // Keep N counts every listed snapshot, the spared ones included: the newest of the rest fill what is left.
  const rest = listed.filter((s) => !spared.has(s.id) && !chosen.has(s.id));
  const room = Math.max(0, opts.keep - listed.filter((s) => spared.has(s.id)).length);
  for (const s of rest.slice(room)) chosen.add(s.id);
  return listed.filter((s) => chosen.has(s.id)).reverse();
}

/**
 * Lists again what `load` restores in a project that snapshots left (a delete, a split): the
 * newest and the newest full one are never archived, and those that take their place may have been
 * (a picker, `load` and a session start read only listed snapshots; a prune deletes archived ones).
 */
export async function listWhatLoadRestores(w: StoreWriter, projectId: string): Promise<void> {
  await w.unarchiveSnapshots(await w.restoredIds(projectId));
}

/** Whether retention archived this snapshot: out of the default lists, still whole (load by id, recall). */
export async function isArchived(session: Session, snapshotId: string): Promise<boolean> {
  return !(await session.store.isListed(snapshotId));
}

/** Retention on every project of the store (after a sync pulled snapshots in). */
export async function applyRetentionEverywhere(w: StoreWriter, keep: number, now: Date): Promise<number> {
  let archived = 0;
  for (const p of await w.listProjects()) archived += (await applyRetention(w, p.id, { keep, now })).length;
  return archived;
}

export interface PruneOptions {
  /** Only snapshots saved more than this many days ago. */
  olderThanDays?: number;
  status?: SnapshotStatus;
  now: Date;
}

/**
 * What `snapshots prune` deletes: archived snapshots only (so never the newest, nor the newest full
 * one, which are never archived), narrowed by age and status, oldest first.
 */
export async function pruneCandidates(
  session: Session,
  projectId: string,
  opts: PruneOptions,
): Promise<RetentionRow[]> {
  return session.store.archivedSnapshots(projectId, pruneFilter(opts));
}

/** Deletes (tombstones, as `snapshots delete` does) what pruneCandidates found, in one transaction; the names deleted. */
export async function pruneSnapshots(
  session: Session,
  projectId: string,
  opts: PruneOptions,
  expected: RetentionRow[],
  progress?: (done: number, total: number) => void,
): Promise<string[]> {
  return session.write(async (w) => {
    // Read again under the write lock: only what was shown (and is still archived) is deleted.
    const still = new Set((await w.archivedSnapshots(projectId, pruneFilter(opts))).map((s) => s.id));
    const doomed = expected.filter((s) => still.has(s.id));
    for (const [i, s] of doomed.entries()) {
      await w.tombstoneSnapshot(s.id);
      progress?.(i + 1, doomed.length);
    }
    return doomed.map((s) => s.name);
  });
}

function pruneFilter(opts: PruneOptions): { before?: string; status?: string } {
  return {
    before:
      opts.olderThanDays === undefined
        ? undefined
        : new Date(opts.now.getTime() - opts.olderThanDays * DAY_MS).toISOString(),
    status: opts.status,
  };
}

/** `--older-than 90d` or `12w` (a bare number is days, as `fact --ttl` counts days and weeks) as a number of days. */
export function parseAge(text: string): number {
  const m = /^\s*(\d+)\s*([dw]?)\s*$/i.exec(text);
  if (!m)
    throw new UserError(
      `--older-than takes a number of days or weeks, like 90d or 12w; ${JSON.stringify(text)} is not one.`,
    );
  return Number(m[1]) * (m[2].toLowerCase() === "w" ? 7 : 1);
}
