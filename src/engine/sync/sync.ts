// Sync: two stores merge both ways and both end with the union of everything.
// - Rows: last writer wins by hybrid logical clock (deletes are tombstones and win when newer).
// - A failure's repeat_count: per-host counters merged by max, so counts add up across hosts and
//   a second sync counts nothing twice.
// - Only what changed since the last sync with that peer is read: each store keeps a local change
//   log (a sequence) and, per peer, how far it has pulled the peer's log.
// - Each direction reads the log a page at a time, one transaction per page on the store it writes
//   with the pull mark moved past the page: killed at any moment, both stores stay valid and a
//   re-run goes on from the last page committed.
import { existsSync, mkdirSync, readdirSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { UserError } from "../../errors.ts";
import { DRIVE_MARKER, STORE_FILE, journalModeFor, localHomeDir, type Home } from "../home/home.ts";
import { SCHEMA_VERSION, Store, storeFileKind, type SyncSide } from "../../store/store.ts";
import { compareHlc, parseHlc } from "../../store/hlc.ts";
import { mergeConcurrentPlans } from "../snapshots/plan.ts";
import { encryptionState, openStore } from "../home/encryption.ts";
import { stallIfAsked } from "../stall.ts";
import { backupStore } from "../home/backups.ts";
import { foldLinkedProjects } from "../projects/fold.ts";
import { applyRetentionEverywhere } from "../snapshots/retention.ts";
import { DEFAULT_KEEP } from "../snapshots/layers.ts";
import { keyOf, type Change, type SyncRow } from "../../store/sync.ts";
import { fromStored, notesJoined, putSignalRow, type SignalRow } from "../agents/signal-row.ts";
import { admit, heldKeys, keysToAsk, type Admission, type Refused } from "./peer-rows.ts";
import { syncIds, type Reidentified } from "./copies.ts";
import type { PlanItem, StoreWriter } from "../../store/store.ts";
import type { Session } from "../session.ts";

export const CATEGORIES = [
  "snapshots",
  "failures",
  "rules",
  "facts",
  "retirements",
  "projects",
  "roots",
  "tool_calls",
  "bookkeeping",
] as const;
export type Category = (typeof CATEGORIES)[number];
export type Counts = Record<Category, { added: number; updated: number; deleted: number }>;

const CATEGORY_OF: Record<string, Category> = {
  snapshots: "snapshots",
  failures: "failures",
  failure_counts: "failures",
  failure_links: "failures",
  projects: "projects",
  roots: "roots",
  tool_calls: "tool_calls",
  hosts: "bookkeeping",
  signals: "bookkeeping",
  rules: "rules",
  facts: "facts",
  retirements: "retirements",
  off_switches: "bookkeeping",
};

function emptyCounts(): Counts {
  return Object.fromEntries(CATEGORIES.map((c) => [c, { added: 0, updated: 0, deleted: 0 }])) as Counts;
}

export interface SyncResult {
  peer: string;
  peer_store_id: string;
  dry_run: boolean;
  /** Into this store from the peer, and out of it to the peer. */
  pulled: Counts;
  pushed: Counts;
  /** Change-log entries read on each side: what "only what changed" costs. */
  read: { from_peer: number; from_here: number };
  /** Snapshots whose plan both sides edited since they last synced, merged step by step. */
  plans_merged: string[];
  /** Snapshots completed on one side while the other edited them since they last synced: kept completed. */
  completed_kept: string[];
  /** A side found to be a copy of a store the other had synced with, given an id of its own (copies.ts). */
  reidentified: Reidentified[];
  /** Rows refused (peer-rows.ts: malformed, or a snapshot dated ahead): offered by the peer, and by this store to the peer. */
  refused: { from_peer: Refused[]; from_here: Refused[] };
}

export interface Progress {
  (phase: "pull" | "push", done: number, total: number): void;
}

export interface PeerRef {
  store: Store;
  location: string;
  /** A path on this host when the peer is a file. */
  file: string | null;
}

/** Where a peer is: a libSQL server URL, a store file, a home directory, or a drive's mount point. */
export function peerLocation(spec: string): { url: string } | { file: string } {
  if (/^(libsql|https?|wss?):\/\//i.test(spec)) return { url: spec };
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(spec))
    throw new UserError(
      `${spec} is no place MindSave syncs with: give a drive, a home, a store file or a libSQL server (libsql://, https://, wss://).`,
    );
  const p = resolve(spec);
  // A new store is started only where one obviously belongs: a .db file named in an existing
  // folder, or a drive laid out by `drive init`. Any other folder without a store is refused.
  if (!existsSync(p)) {
    if (p.endsWith(".db") && existsSync(dirname(p))) return { file: p };
    throw new UserError(`There is no store at ${p}.`);
  }
  if (statSync(p).isFile()) return { file: p };
  for (const candidate of [
    join(p, STORE_FILE),
    join(p, "mindsave", STORE_FILE),
    join(p, ".mindsave", STORE_FILE),
  ]) {
    if (existsSync(candidate)) return { file: candidate };
  }
  if (existsSync(join(p, DRIVE_MARKER))) return { file: join(p, STORE_FILE) };
  if (existsSync(join(p, "mindsave", DRIVE_MARKER))) return { file: join(p, "mindsave", STORE_FILE) };
  throw new UserError(
    `${p} holds no MindSave store (looked for ${STORE_FILE}, mindsave/${STORE_FILE} and .mindsave/${STORE_FILE}); to start one there, name the file: ${join(p, STORE_FILE)}.`,
  );
}

/**
 * What can be known of a sync before either store is opened (file headers only): a named peer that
 * is not there or is no store is refused before this home's store is made, and a dry run starts no
 * store on either side. `localDb`: this home's store file.
 */
export function checkBeforeSync(spec: string | undefined, opts: { dryRun: boolean; localDb: string }): void {
  // (An empty file is no store yet either: a dry run would have made one of it.)
  const none = (file: string) => ["missing", "empty"].includes(storeFileKind(file));
  if (opts.dryRun && none(opts.localDb)) {
    throw new UserError(
      `This home has no store yet (${opts.localDb}), and a dry run starts none; run the sync without --dry-run to take in what the peer holds.`,
    );
  }
  if (spec === undefined) return;
  const where = peerLocation(spec);
  if ("url" in where) return;
  if (!none(where.file)) encryptionState(where.file);
  else if (opts.dryRun)
    throw new UserError(
      `There is no store at ${where.file} yet, and a dry run starts none; run the sync without --dry-run to start one there.`,
    );
}

export async function openPeer(spec: string, env: NodeJS.ProcessEnv = process.env): Promise<PeerRef> {
  const where = peerLocation(spec);
  if ("url" in where) {
    return {
      store: await Store.openRemote(where.url, env.MINDSAVE_SYNC_TOKEN || undefined),
      location: where.url,
      file: null,
    };
  }
  const dir = resolve(where.file, "..");
  const home: Home = { dir, dbPath: where.file, reason: "flag", why: "sync peer" };
  // Each side with its own key: an encrypted peer asks for its passphrase (MINDSAVE_PEER_PASSPHRASE first).
  // A peer of an older schema is upgraded on open: backed up first, like this home's own store.
  const store = await openStore(where.file, {
    journalMode: journalModeFor(home),
    env,
    peer: true,
    beforeMigrate: async (s) => void (await backupStore(s, where.file, { at: new Date(), env })),
  });
  return { store, location: where.file, file: where.file };
}

async function storeId(s: SyncSide): Promise<string> {
  const id = await s.meta("store_id");
  if (!id)
    throw new UserError(
      "A store without a store id cannot be synced; open it once with this version of MindSave.",
    );
  return id;
}

const BATCH = 2000;
/**
 * Change-log entries a pull reads, merges and commits at a time: what it holds in memory (a page of
 * snapshots is a few MB), and where a killed pull goes on from. MINDSAVE_SYNC_PAGE sets another
 * size, for tests only (many pages without hundreds of rows); never set in normal use.
 */
function pageSize(env: NodeJS.ProcessEnv): number {
  const asked = Number(env.MINDSAVE_SYNC_PAGE);
  return Number.isSafeInteger(asked) && asked > 0 ? asked : 500;
}

/** Tables in dependency order: projects before their roots and snapshots, failures before counts. */
const PULL_ORDER = [
  "hosts",
  "projects",
  "roots",
  "snapshots",
  "failures",
  "failure_counts",
  "failure_links",
  "signals",
  "tool_calls",
  "rules",
  "facts",
  "retirements",
  "off_switches",
];

interface PullOptions {
  dryRun: boolean;
  progress?: Progress;
  phase: "pull" | "push";
  location: string;
  now: number;
  hostId: string;
  fromId: string;
  toId: string;
  /** Change-log entries a transaction takes (see pageSize). */
  page: number;
}

/** What one pull takes in, gathered table by table. */
interface Intake {
  counts: Counts;
  /** A failure is one thing however many of its rows (counters, links) changed: count it once. */
  touchedFailures: Set<string>;
  failureParts: { added: number; updated: number; deleted: number };
  /** Plans edited on both sides since they last synced, merged. */
  plans: { id: string; name: string; plan: PlanItem[] }[];
  /** Snapshots completed on one side only since they last synced: completed on both. */
  completed: { id: string; name: string }[];
  /** Incoming snapshots with a plan that changed this store: their progress flows on to a newer snapshot's copy. */
  planned: SyncRow[];
  /** Snapshots an incoming row changed here (counted by the merge). */
  changedHere: Set<string>;
  /** Signal rows taken in place of this store's, with the notes of this store's sessions they lacked: to write. */
  notes: { projectId: string; row: SignalRow }[];
  /** The newest clock taken in. */
  newest: string;
  /** Rows read so far, for progress. */
  done: number;
}

/** A pull under way: where its rows come from, what it admits, and what it has taken in. */
interface PullRun {
  src: SyncSide;
  opts: PullOptions;
  admission: Admission;
  /** When the two stores last synced (null: never): edits after it on both sides are concurrent. */
  lastSync: number | null;
  total: number;
  intake: Intake;
  /** What this pull saw of `from`'s log, kept with the pull mark on its last page (copies.ts). */
  anchors: Change[];
  /** Change-log entries read so far. */
  read: number;
  /** Batches merged so far, by table (their numbers name the crash tests' stop points). */
  batches: Map<string, number>;
}

/** Runs a host's own writes inside a sync's transaction (`Store.syncWrite`'s second argument). */
type WriteAs = <R>(hostId: string, now: () => number, write: (w: StoreWriter) => Promise<R>) => Promise<R>;

/** One page of the peer's change log: its entries, the last one's number, and whether it ends the log. */
interface LogPage {
  changes: Change[];
  upTo: number;
  number: number;
  last: boolean;
}

/**
 * Copies `from`'s changes since `to` last pulled them into `to`. Rows that `to` itself sent are
 * skipped (they are tagged with its id in `from`'s log). The log is read a page at a time, each
 * page merged and committed with the pull's mark moved past it, so memory holds one page and a
 * pull killed between pages goes on from there; a dry run is one transaction, rolled back.
 */
async function pull(
  from: Store,
  to: Store,
  opts: PullOptions,
): Promise<{
  counts: Counts;
  read: number;
  plansMerged: string[];
  completed: string[];
  /** Signal rows written with notes of this store's sessions an incoming row lacked. */
  notesKept: number;
  refused: Refused[];
}> {
  const src = from.syncReader();
  const dst = to.syncReader();
  const { fromId, toId } = opts;
  const known = await dst.peer(fromId);
  const anchors = await src.logAnchors();
  const since = known?.pulled_seq ?? 0;
  const held = await heldKeys(dst, fromId);
  const run: PullRun = {
    src,
    opts,
    admission: { now: opts.now, fromId, location: opts.location, held, refused: [] },
    // Edits both stores made after they last synced are concurrent: a plan edited on both is merged.
    lastSync: known?.last_sync ? Date.parse(known.last_sync) : null,
    total: await src.changeCount(since, toId, held),
    intake: emptyIntake(),
    anchors,
    read: 0,
    batches: new Map(),
  };
  const pages = logPages(src, since, toId, opts.page);
  if (opts.dryRun)
    await to.syncWrite(
      async (w, as) => {
        for await (const page of pages) await takePage(w, as, page, run);
      },
      { rollback: true },
    );
  else
    for await (const page of pages) {
      await to.syncWrite((w, as) => takePage(w, as, page, run));
      // What the page held is garbage now: collected before the next page is read, so peak memory
      // stays about one page's at any size. Not after the last page: a small sync (one page each
      // way, the usual one) would pay a full collection per direction for a page's garbage at most.
      if (!page.last) Bun.gc(true);
    }
  const { intake } = run;
  const f = intake.counts.failures;
  f.updated = Math.max(f.updated, intake.touchedFailures.size - f.added - f.deleted);
  return {
    counts: intake.counts,
    read: run.read,
    plansMerged: intake.plans.map((p) => p.name),
    completed: intake.completed.map((c) => c.name),
    notesKept: intake.notes.length,
    refused: run.admission.refused,
  };
}

/** `src`'s change log after `since`, without the rows `toId` sent, a page at a time (the last one may be empty). */
async function* logPages(src: SyncSide, since: number, toId: string, size: number): AsyncGenerator<LogPage> {
  for (let after = since, number = 1; ; number++) {
    const changes = await src.changesSince(after, toId, size);
    if (changes.length) after = changes[changes.length - 1].seq;
    const last = changes.length < size;
    yield { changes, upTo: after, number, last };
    if (last) return;
  }
}

/**
 * One page merged into `w`'s store, in dependency order, its rows tagged with their origin so they
 * are not sent straight back; the pull's mark moved past it. The last page also merges plans
 * across pages, writes what this host does after a pull (`writeHere`) and records the sync.
 */
async function takePage(w: SyncSide, as: WriteAs, page: LogPage, run: PullRun): Promise<void> {
  const { opts, intake } = run;
  await w.setMeta("sync_origin", opts.fromId);
  await stallIfAsked(page.number === 1 ? `${opts.phase}-begin` : `${opts.phase}-page-${page.number}`);
  const byTable = keysToAsk(page.changes, run.admission.held, page.number === 1);
  for (const tbl of PULL_ORDER) await mergeTable(w, tbl, byTable.get(tbl) ?? [], run);
  run.read += page.changes.length;
  if (page.last) {
    await stallIfAsked(`in-${opts.phase}`);
    if (run.lastSync !== null) await planProgressFlowsOn(w, intake.planned, intake.plans, run.lastSync);
  }
  await w.setMeta("sync_origin", null);
  await w.observeClock(intake.newest, opts.now);
  if (!page.last) {
    // Said by doctor until a sync finishes: a kill between pages leaves part of the peer's rows here.
    const since = new Date(opts.now).toISOString();
    await w.setPullUnfinished(opts.fromId, {
      peer: opts.fromId,
      location: opts.location,
      since,
      pages: page.number,
    });
    return w.setPeer(opts.fromId, { pulled_seq: page.upTo, location: opts.location });
  }
  await w.setPullUnfinished(opts.fromId, null);
  await as(
    opts.hostId,
    () => opts.now,
    (hw) => writeHere(hw, intake, opts.now),
  );
  await w.setPeer(opts.fromId, {
    pulled_seq: page.upTo,
    last_sync: new Date(opts.now).toISOString(),
    location: opts.location,
  });
  await w.setPeerAnchors(opts.fromId, run.anchors);
}

function emptyIntake(): Intake {
  return {
    counts: emptyCounts(),
    touchedFailures: new Set(),
    failureParts: { added: 0, updated: 0, deleted: 0 },
    plans: [],
    completed: [],
    planned: [],
    changedHere: new Set(),
    notes: [],
    newest: "",
    done: 0,
  };
}

/** One table's changed rows merged here a batch at a time: admitted, merged, counted, plans compared. */
async function mergeTable(w: SyncSide, tbl: string, keys: string[], run: PullRun): Promise<void> {
  const { intake, opts, lastSync } = run;
  const part = tbl === "failure_counts" || tbl === "failure_links";
  for (let i = 0; i < keys.length; i += BATCH) {
    const offered = [...(await run.src.rowsByKeys(tbl, keys.slice(i, i + BATCH))).values()];
    const rows = await admit(w, tbl, offered, run.admission);
    // Clocks more than 24 h ahead of ours are merged but never move our clock (see docs/sync.md).
    const mine =
      tbl === "snapshots" && lastSync !== null ? await w.snapshotPlans(rows.map((r) => String(r.id))) : null;
    const signalsHere =
      tbl === "signals"
        ? await w.rowsByKeys(
            tbl,
            rows.map((r) => keyOf(tbl, r)),
          )
        : null;
    const hlc = await w.merge(
      tbl,
      rows,
      part ? intake.failureParts : intake.counts[CATEGORY_OF[tbl]],
      opts.now,
      changeNoted(tbl, intake),
    );
    if (mine) {
      intake.plans.push(...concurrentPlans(rows, mine, lastSync!));
      intake.completed.push(...completedOnOneSide(rows, mine, lastSync!));
    }
    if (signalsHere) intake.notes.push(...notesLeftOut(rows, signalsHere));
    if (compareHlc(hlc, intake.newest) > 0) intake.newest = hlc;
    intake.done += offered.length;
    opts.progress?.(opts.phase, intake.done, run.total);
    const batch = (run.batches.get(tbl) ?? 0) + 1;
    run.batches.set(tbl, batch);
    await stallIfAsked(`${opts.phase}-${tbl}-${batch}`);
  }
}

const PLANNED_FIELDS = ["id", "name", "project_id", "created_at", "hlc", "plan"];

/** What the merge notes of a row that changed this store: its snapshot (and plan), or its failure. */
function changeNoted(tbl: string, intake: Intake): ((r: SyncRow) => void) | undefined {
  if (tbl === "snapshots")
    return (r) => {
      intake.changedHere.add(String(r.id));
      // Only what planProgressFlowsOn reads: a pull holds these till its last page, not whole rows.
      if (r.plan && !Number(r.deleted))
        intake.planned.push(Object.fromEntries(PLANNED_FIELDS.map((k) => [k, r[k] ?? null])));
    };
  // A failure counts as changed when one of its rows changed this store (not when it merely came along).
  if (tbl === "failures") return (r) => intake.touchedFailures.add(String(r.id));
  if (tbl === "failure_counts" || tbl === "failure_links")
    return (r) => intake.touchedFailures.add(String(r.failure_id));
  return undefined;
}

/**
 * What the pull writes as this host, stamped after everything taken in so it travels on: rows of a
 * linked project (saved where the link was not known yet) moved to the project it was linked
 * into, merged plans and completions, and this store's retention.
 */
async function writeHere(hw: StoreWriter, intake: Intake, now: number): Promise<void> {
  const { plans, completed, changedHere, counts } = intake;
  await foldLinkedProjects(hw);
  for (const n of intake.notes) await putSignalRow(hw, n.projectId, n.row);
  for (const p of plans) await hw.setSnapshotPlan(p.id, p.plan);
  for (const c of completed) await hw.setSnapshotStatus(c.id, "completed");
  // A merge written here changed this store too: a snapshot no incoming row changed counts as updated.
  for (const id of new Set([...plans, ...completed].map((x) => x.id)))
    if (!changedHere.has(id)) counts.snapshots.updated++;
  // Snapshots taken in meet this store's retention: its views stay short, nothing is deleted
  // (the archived mark is this store's own and never travels).
  if (changedHere.size) await applyRetentionEverywhere(hw, DEFAULT_KEEP, new Date(now));
}

/**
 * The incoming signal rows that replace this store's (`here`, by project) and lack notes of this
 * store's sessions, with those notes joined: a session runs on one host, and a row written later
 * elsewhere knows nothing of what it noted ("don't save", corrections waiting for a snapshot).
 */
function notesLeftOut(
  incoming: SyncRow[],
  here: Map<string, SyncRow>,
): { projectId: string; row: SignalRow }[] {
  const out: { projectId: string; row: SignalRow }[] = [];
  for (const r of incoming) {
    const m = here.get(String(r.project_id));
    if (!m || Number(r.deleted) || Number(m.deleted) || compareHlc(String(r.hlc), String(m.hlc)) <= 0)
      continue;
    const row = notesJoined(signalData(r), signalData(m));
    if (row) out.push({ projectId: String(r.project_id), row });
  }
  return out;
}

/** A signal row's data, or the defaults when it is not JSON of an object. */
function signalData(r: SyncRow): SignalRow {
  try {
    const data = JSON.parse(String(r.data)) as unknown;
    return fromStored(
      data && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : null,
    );
  } catch {
    return fromStored(null);
  }
}

/** A snapshot row's plan, or null. */
function planOf(r: SyncRow): PlanItem[] | null {
  try {
    const p = JSON.parse(String(r.plan ?? "null")) as unknown;
    return Array.isArray(p) ? (p as PlanItem[]) : null;
  } catch {
    return null;
  }
}

/**
 * A plan's progress made on an older snapshot (on a laptop that had not seen the newer one, which
 * carried the plan as it was) flows on to the newest snapshot's copy of the same steps: only edits
 * neither side could know of, the plan's edit and the newer snapshot both after the last sync.
 * Adds to (or updates) `plans`, the merged plans to write.
 */
async function planProgressFlowsOn(
  w: SyncSide,
  planned: SyncRow[],
  plans: { id: string; name: string; plan: PlanItem[] }[],
  lastSync: number,
): Promise<void> {
  const pending = (id: string) => plans.find((p) => p.id === id)?.plan;
  for (const r of planned) {
    if (parseHlc(String(r.hlc)).wall <= lastSync) continue;
    const head = await w.newestSnapshot(String(r.project_id));
    if (
      !head ||
      head.id === r.id ||
      String(head.created_at) < String(r.created_at) ||
      Date.parse(String(head.created_at)) <= lastSync
    )
      continue;
    const kept = pending(String(head.id)) ?? planOf(head);
    const other = pending(String(r.id)) ?? planOf(r);
    const merged = kept && other ? mergeConcurrentPlans(kept, other) : null;
    if (!merged || JSON.stringify(merged) === JSON.stringify(kept)) continue;
    const at = plans.findIndex((p) => p.id === head.id);
    if (at >= 0) plans[at].plan = merged;
    else plans.push({ id: String(head.id), name: String(head.name), plan: merged });
  }
}

/** Plans of snapshots both sides edited since `lastSync` whose merge differs from the version kept. */
function concurrentPlans(
  incoming: SyncRow[],
  mine: Map<string, SyncRow>,
  lastSync: number,
): { id: string; name: string; plan: PlanItem[] }[] {
  const out: { id: string; name: string; plan: PlanItem[] }[] = [];
  for (const r of incoming) {
    const m = mine.get(String(r.id));
    if (!m || Number(r.deleted) || Number(m.deleted) || r.plan === m.plan) continue;
    if (parseHlc(String(r.hlc)).wall <= lastSync || parseHlc(String(m.hlc)).wall <= lastSync) continue;
    const theirsWon = compareHlc(String(r.hlc), String(m.hlc)) > 0;
    const [kept, other] = theirsWon ? [planOf(r), planOf(m)] : [planOf(m), planOf(r)];
    const merged = kept && other ? mergeConcurrentPlans(kept, other) : null;
    if (merged && JSON.stringify(merged) !== JSON.stringify(kept))
      out.push({ id: String(r.id), name: String(r.name), plan: merged });
  }
  return out;
}

/**
 * Snapshots both stores edited after they last synced where the row's later edit would lose the
 * other side's completion (after its save a snapshot's status only moves to completed, and its
 * tags never change): kept completed by a new edit, as a plan's progress is kept.
 */
function completedOnOneSide(
  incoming: SyncRow[],
  mine: Map<string, SyncRow>,
  lastSync: number,
): { id: string; name: string }[] {
  const out: { id: string; name: string }[] = [];
  for (const r of incoming) {
    const m = mine.get(String(r.id));
    if (!m || Number(r.deleted) || Number(m.deleted)) continue;
    if (parseHlc(String(r.hlc)).wall <= lastSync || parseHlc(String(m.hlc)).wall <= lastSync) continue;
    const [won, lost] = compareHlc(String(r.hlc), String(m.hlc)) > 0 ? [r, m] : [m, r];
    if (lost.status === "completed" && won.status !== "completed")
      out.push({ id: String(r.id), name: String(r.name) });
  }
  return out;
}

async function guard(a: Store, b: Store, bFile: string | null): Promise<void> {
  if (bFile && !a.remote && existsSync(a.path) && realpathSync(a.path) === realpathSync(bFile)) {
    throw new UserError(`${bFile} is this store itself; sync needs two different stores.`);
  }
  const [ida, idb] = [await storeId(a.syncReader()), await storeId(b.syncReader())];
  if (ida === idb) {
    throw new UserError(
      "These two stores are copies of one store (the same store id); sync one of them with its original, or keep one.",
    );
  }
  for (const s of [a, b]) {
    const v = await s.schemaVersion();
    if (v !== SCHEMA_VERSION)
      throw new UserError(
        `${s.path} has store schema ${v}, this MindSave uses ${SCHEMA_VERSION}; update the older side first.`,
      );
  }
}

/** Merges the session's store with `peer` both ways. */
export async function syncWith(
  session: Session,
  peer: PeerRef,
  opts: { dryRun?: boolean; progress?: Progress; localLocation: string },
): Promise<SyncResult> {
  const local = session.store;
  await guard(local, peer.store, peer.file);
  const dryRun = !!opts.dryRun;
  const now = session.now().getTime();
  const hostId = session.host.id;
  const ids = await syncIds(
    local,
    peer.store,
    { local: await storeId(local.syncReader()), peer: await storeId(peer.store.syncReader()) },
    dryRun,
  );
  const fromPeer = {
    dryRun,
    progress: opts.progress,
    phase: "pull" as const,
    location: peer.location,
    now,
    hostId,
    fromId: ids.peer,
    toId: ids.local,
    page: pageSize(session.env),
  };
  const pulled = await pull(peer.store, local, fromPeer);
  await stallIfAsked("between");
  const pushed = await pull(local, peer.store, {
    dryRun,
    progress: opts.progress,
    phase: "push",
    location: opts.localLocation,
    now,
    hostId,
    fromId: ids.local,
    toId: ids.peer,
    page: fromPeer.page,
  });
  // Merges the push made in the peer (a plan's steps, a completion, its sessions' notes) are edits
  // made there: brought back, so one sync leaves both the same. (Not counted again: the snapshots
  // are counted, and named.)
  if (!dryRun && (pushed.plansMerged.length || pushed.completed.length || pushed.notesKept)) {
    const back = await pull(peer.store, local, fromPeer);
    pulled.read += back.read;
    for (const k of ["plansMerged", "completed"] as const) pulled[k].push(...back[k]);
  }
  return {
    peer: peer.location,
    peer_store_id: ids.peer,
    dry_run: dryRun,
    reidentified: ids.reidentified,
    pulled: pulled.counts,
    pushed: pushed.counts,
    read: { from_peer: pulled.read, from_here: pushed.read },
    plans_merged: [...new Set([...pulled.plansMerged, ...pushed.plansMerged])],
    completed_kept: [...new Set([...pulled.completed, ...pushed.completed])],
    refused: { from_peer: pulled.refused, from_here: pushed.refused },
  };
}

/**
 * Known peers (recorded by earlier syncs or --add-peer), with whether they can be reached now.
 * `reachable`: the file is there now; for a server it is not checked (null) until a sync tries it.
 */
export async function listPeers(
  session: Session,
): Promise<
  { store_id: string; location: string | null; last_sync: string | null; reachable: boolean | null }[]
> {
  const peers = await session.store.syncReader().peers();
  return peers.map((p) => ({
    store_id: p.store_id,
    location: p.location,
    last_sync: p.last_sync,
    reachable:
      p.location && /^(libsql|https?|wss?):/i.test(p.location)
        ? null
        : !!p.location && existsSync(p.location),
  }));
}

export async function removePeer(
  session: Session,
  spec: string,
): Promise<{ store_id: string; location: string | null }> {
  const peers = await session.store.syncReader().peers();
  const full = /^(libsql|https?|wss?):/i.test(spec) ? spec : resolve(spec);
  const hit = peers.find(
    (p) =>
      p.store_id === spec ||
      p.location === spec ||
      p.location === full ||
      (p.location && dirname(p.location) === full),
  );
  if (!hit) throw new UserError(`No peer ${JSON.stringify(spec)}; see \`mindsave sync --list-peers\`.`);
  await session.store.syncWrite((w) => w.removePeer(hit.store_id));
  return { store_id: hit.store_id, location: hit.location };
}

export async function addPeer(
  session: Session,
  spec: string,
): Promise<{ store_id: string; location: string }> {
  const peer = await openPeer(spec, session.env);
  try {
    await guard(session.store, peer.store, peer.file);
    const id = await storeId(peer.store.syncReader());
    await session.store.syncWrite((w) => w.setPeer(id, { location: peer.location }));
    return { store_id: id, location: peer.location };
  } finally {
    peer.store.close();
  }
}

/** Drives mounted on this host that carry a MindSave store. */
export function mountedDrives(env: NodeJS.ProcessEnv = process.env): string[] {
  const user = env.USER || env.USERNAME || "";
  const roots =
    process.platform === "win32"
      ? "DEFGHIJKLMNOPQRSTUVWXYZ".split("").map((l) => `${l}:\\`)
      : ["/Volumes", `/media/${user}`, "/media", `/run/media/${user}`, "/mnt"];
  const found: string[] = [];
  for (const root of roots) {
    let entries: string[];
    try {
      entries = process.platform === "win32" ? [""] : readdirSync(root);
    } catch {
      continue;
    }
    for (const e of entries) {
      const dir = join(root, e, "mindsave");
      if (existsSync(join(dir, STORE_FILE)) && existsSync(join(dir, DRIVE_MARKER)))
        found.push(join(dir, STORE_FILE));
    }
  }
  return [...new Set(found)];
}

/**
 * The peers of a plain `mindsave sync`: from the drive, this laptop's local home; from a laptop,
 * the peers it knows that are reachable now and any mounted drive.
 */
export async function defaultPeers(session: Session): Promise<string[]> {
  if (session.home.reason === "portable" || existsSync(join(session.home.dir, DRIVE_MARKER))) {
    const local = localHomeDir(session.env);
    mkdirSync(local, { recursive: true });
    const db = join(local, STORE_FILE);
    if (!existsSync(db)) (await Store.open(db)).close();
    return [db];
  }
  const known = (await listPeers(session))
    .filter((p) => p.reachable !== false && p.location)
    .map((p) => p.location!);
  const drives = mountedDrives(session.env);
  const mine = realpathSync(session.home.dbPath);
  return [...new Set([...known, ...drives])].filter(
    (p) => /^(libsql|https?|wss?):/i.test(p) || realpathSync(p) !== mine,
  );
}
