// `importSeed`: a workspace's `.mindsave/` as the original skill and SDK write it, into the store.
// Older field names are mapped when they can be identified; everything else is kept (in a
// snapshot's `extra`) or named in a warning, never dropped silently.
import { existsSync, realpathSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { UserError } from "../../errors.ts";
import {
  derivedConfidence,
  failureId,
  normaliseItem,
  observeFailure,
  type FailureObservation,
} from "../failures/graph.ts";
import { localHomeDir } from "../home/home.ts";
import { samePath } from "../projects/paths.ts";
import { findRoot } from "../projects/workspace.ts";
import { linkTarget } from "../projects/aliases.ts";
import { saveSnapshot } from "../snapshots/save.ts";
import { applyRetention } from "../snapshots/retention.ts";
import { DEFAULT_KEEP } from "../snapshots/layers.ts";
import { readSignal, recompute, updateSignal, type SignalState } from "../agents/signal.ts";
import { getSignalRow } from "../agents/signal-row.ts";
import { appendToolCalls } from "../agents/toollog.ts";
import type { Session } from "../session.ts";
import { pinProject, resolveProject } from "../projects/resolve.ts";
import { isDir, isSymlink, listDir, listDirNoFollow } from "../../lib/fs.ts";
import { readTextNoFollowCapped, TooLarge } from "../../lib/bounded-read.ts";
import { DOCUMENT_MAX, documentTooLarge } from "../snapshots/input-limits.ts";
import { stallIfAsked } from "../stall.ts";
import { compareHlc } from "../../store/hlc.ts";
import type { FailureRecord, StoreWriter } from "../../store/store.ts";
import {
  exportedFrom,
  instant,
  isObj,
  isStandaloneExport,
  mtime,
  readJson,
  sameInstant,
  type ImportReport,
  type SeedLocation,
} from "./seed-layout.ts";
import {
  parseSnapshotFile,
  quickCreatedAt,
  readIndex,
  readSnapshotHead,
  type IndexInfo,
  type ParsedSnapshot,
} from "./seed-read-snapshots.ts";
import { failureKey, nodeSatisfied, readNodes, type ParsedNode } from "./seed-read-failures.ts";
import { readToolLogs } from "./seed-read-tool-logs.ts";
import { signalFromFile } from "./seed-read-signal.ts";
import { importMemory, MEMORY_FILES, readMemory } from "./seed-memory.ts";
import { OFF_FILE, readOffFile } from "./seed-off.ts";
import { keepOff } from "../projects/off-switch.ts";

const NO_REASON = "(no reason recorded)";
/** Snapshots saved between two full garbage collections of an import. */
const GC_EVERY = 1_000;
/**
 * Snapshot files an import takes per transaction: each batch commits whole, so a kill keeps the
 * batches before it (a rerun skips them), and the WAL is folded after each instead of growing with
 * the import. MINDSAVE_IMPORT_BATCH sets another size, for crash tests only (a kill at a batch's
 * end without hundreds of files); never set in normal use.
 */
function importBatch(env: NodeJS.ProcessEnv): number {
  const asked = Number(env.MINDSAVE_IMPORT_BATCH);
  return Number.isSafeInteger(asked) && asked > 0 ? asked : 500;
}
/** Entries of a `.mindsave/` folder that import understands or knowingly leaves alone. */
const KNOWN_ENTRIES = new Set([
  "snapshots",
  "index.json",
  "signal.json",
  "failure_graph",
  "tool_logs",
  "project.json",
  "l3_index.json",
  ...MEMORY_FILES,
  OFF_FILE,
]);
/** Parts of the original's layout MindSave has no place for: named in a warning, not imported. */
const NOT_KEPT: Record<string, string> = {
  execution_graphs: "MindSave keeps no execution DAGs",
  workspace_snap: "MindSave keeps no workspace copies",
};

/**
 * A snapshot file's text; a link, a non-file or a file too large to be a snapshot (known from its
 * size, before it is read) is refused as the file's failure, never followed.
 */
function readSnapshotText(path: string, file: string): string {
  try {
    return readTextNoFollowCapped(path, DOCUMENT_MAX);
  } catch (e) {
    if (e instanceof TooLarge) throw documentTooLarge(file, e.size, e.whole, false);
    throw new UserError(`cannot be read (${(e as Error).message})`);
  }
}

/**
 * The project's snapshot this file is: its name (or that name with a -N suffix: an import of the
 * same file saved as name-2) at the same time. `deleted`: among the tombstones (deleted here, by name
 * and time, as the original's files carry no record id). Asked of the store for each file, so the
 * import holds none of the project's snapshots, however many it has.
 */
async function sameSnapshot(
  run: ImportRun,
  p: ParsedSnapshot,
  deleted = false,
): Promise<{ name: string } | undefined> {
  return (await run.w.snapshotsNamed(run.projectId, p.id, deleted)).find(
    (s) =>
      (s.name === p.id || /^-\d+$/.test(s.name.slice(p.id.length))) && sameInstant(s.created_at, p.createdAt),
  );
}

/** A snapshot file to import, and the time it says it was saved (the order of the saves). */
interface SnapshotFile {
  name: string;
  path: string;
  at: number;
}

/** What import read from the folder before it opens its transaction. */
interface SeedContents {
  index: IndexInfo;
  files: SnapshotFile[];
  nodes: ParsedNode[];
  logs: ReturnType<typeof readToolLogs>;
  signalData: unknown;
  memory: ReturnType<typeof readMemory>;
  hasMemory: boolean;
}

function emptyReport(loc: SeedLocation): ImportReport {
  return {
    source: loc.dir,
    root: loc.root,
    project: null,
    snapshots: { imported: [], skipped: [], deleted: [], failed: [], archived: [] },
    failures: { imported: 0, skipped: 0 },
    tool_calls: { imported: 0, skipped: 0 },
    signal: "absent",
    memory: { rules: 0, facts: 0, retired: 0 },
    off: false,
    warnings: [],
  };
}

/** What is there: a warning for each entry of the folder import does not take in. */
function warnUnknownEntries(dir: string, warnings: string[]): void {
  for (const name of listDir(dir)) {
    if (isSymlink(join(dir, name))) {
      warnings.push(`${name} is a symbolic link; not followed, not imported.`);
      continue;
    }
    if (KNOWN_ENTRIES.has(name)) continue;
    if (name in NOT_KEPT) {
      const n = listDir(join(dir, name)).length;
      if (n)
        warnings.push(`${name}/ (${n} entr${n === 1 ? "y" : "ies"}) was not imported: ${NOT_KEPT[name]}.`);
      continue;
    }
    warnings.push(`${name} is not part of the original MindSave layout; not imported.`);
  }
  for (const name of listDir(join(dir, "failure_graph"))) {
    if (name !== "project" && name !== "global")
      warnings.push(`failure_graph/${name} is neither project/ nor global/; not imported.`);
  }
}

/**
 * Every snapshot file's time now (it orders the saves), and only that: each file is read whole again
 * when it is saved, so an import holds one snapshot at a time, however many there are. A file that
 * cannot be read is a failure in the report; `seen` holds the names of all the snapshot files.
 */
function listSnapshotFiles(
  dir: string,
  index: IndexInfo,
  report: ImportReport,
): { files: SnapshotFile[]; seen: Set<string> } {
  const snapDir = join(dir, "snapshots");
  const files: SnapshotFile[] = [];
  const seen = new Set<string>();
  for (const name of listDirNoFollow(snapDir)) {
    const path = join(snapDir, name);
    if (!name.toLowerCase().endsWith(".md") || isDir(path)) {
      report.warnings.push(`snapshots/${name}: not a snapshot (.md file); not imported.`);
      continue;
    }
    seen.add(name);
    try {
      const text = readSnapshotText(path, `snapshots/${name}`);
      files.push({
        name,
        path,
        at: quickCreatedAt(text) ?? readSnapshotHead(text, name, index, mtime(path)).createdAt.getTime(),
      });
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      report.snapshots.failed.push({ file: `snapshots/${name}`, reason: e.message });
    }
  }
  return { files, seen };
}

// Index lines name their snapshot by id or snapshot_id, and their file by path or file.
const entryId = (e: Record<string, unknown>) =>
  [e.id, e.snapshot_id].find((v) => typeof v === "string" && v) as string | undefined;
const entryFile = (e: Record<string, unknown>) =>
  [e.path, e.file].find((v) => typeof v === "string" && v) as string | undefined;

/** A warning naming the snapshots index.json lists whose file is not in snapshots/. */
function warnMissingFiles(index: IndexInfo, seen: Set<string>, warnings: string[]): void {
  const missing = index.entries.filter((e) => {
    const id = entryId(e);
    const path = entryFile(e);
    const file = path ? path.replace(/\\/g, "/").split("/").pop()! : id ? `${id}.md` : "";
    return !seen.has(file) && !(id && seen.has(`${id}.md`));
  });
  if (missing.length) {
    warnings.push(
      `index.json lists ${missing.length} snapshot(s) whose file is missing, so only their index line exists; not imported: ${missing.map((e) => entryId(e) ?? entryFile(e) ?? "(an entry without id)").join(", ")}.`,
    );
  }
}

/** The folder's failure nodes, project and global, and this home's global ones (`~/.mindsave/global`). */
function readFailureNodes(session: Session, dir: string, warnings: string[]): ParsedNode[] {
  const fgDir = join(dir, "failure_graph");
  const nodes = [
    ...readNodes(join(fgDir, "project"), "project", "failure_graph/project", warnings),
    ...readNodes(join(fgDir, "global"), "global", "failure_graph/global", warnings),
  ];
  const homeGlobal = join(localHomeDir(session.env), "global");
  if (resolve(homeGlobal) !== resolve(fgDir, "global"))
    nodes.push(...readNodes(homeGlobal, "global", "~/.mindsave/global", warnings));
  return nodes;
}

/** signal.json as parsed (undefined: none, or unreadable); anything but an object is named in a warning. */
function readSignalFile(dir: string, warnings: string[]): unknown {
  const signalPath = join(dir, "signal.json");
  const signalData = existsSync(signalPath) ? readJson(signalPath, "signal.json", warnings) : undefined;
  if (signalData !== undefined && !isObj(signalData))
    warnings.push("signal.json is not a JSON object; not imported.");
  return signalData;
}

/** Reads all the folder holds; refuses a folder with nothing to import. */
function readSeed(session: Session, loc: SeedLocation, report: ImportReport): SeedContents {
  const warnings = report.warnings;
  const index = readIndex(loc.dir, warnings);
  const { files, seen } = listSnapshotFiles(loc.dir, index, report);
  warnMissingFiles(index, seen, warnings);
  const nodes = readFailureNodes(session, loc.dir, warnings);
  const logs = readToolLogs(join(loc.dir, "tool_logs"), warnings);
  const signalData = readSignalFile(loc.dir, warnings);
  const memory = readMemory(loc.dir, warnings, existsSync);
  const hasMemory = MEMORY_FILES.some((n) => memory[n].length);
  if (
    !files.length &&
    !report.snapshots.failed.length &&
    !nodes.length &&
    !logs.calls.length &&
    signalData === undefined &&
    !hasMemory
  ) {
    throw new UserError(`${loc.dir} holds no snapshots, failure nodes, tool logs or signal.json to import.`);
  }
  return { index, files, nodes, logs, signalData, memory, hasMemory };
}

/**
 * Where it goes: the project named with --into; else the project this folder was exported from,
 * when this store has it; else the project of the folder's workspace. A folder written by
 * `export --out` is no workspace: its snapshots go to the project of the current directory
 * (the session's workspace), never to a project made of the export folder.
 */
async function pinDestination(
  session: Session,
  loc: SeedLocation,
  exported: ReturnType<typeof exportedFrom>,
  into: string | undefined,
): Promise<void> {
  const pinned = into
    ? await pinProject(session, into).then(() => true)
    : exported
      ? await pinProject(session, exported.id).then(
          () => true,
          () => false,
        )
      : false;
  if (pinned || !isStandaloneExport(loc)) return;
  // (Found, not created: a plain folder or the export folder itself must not become a project.)
  const ws = session.opts.workspace
    ? { root: resolve(session.opts.workspace), marker: "flag" }
    : findRoot(session.cwd, session.env);
  if (ws.marker === "directory" || samePath(realpathSync(ws.root), realpathSync(loc.root))) {
    throw new UserError(
      `${loc.dir} was exported from project ${exported!.name}, which this store does not have yet; run the import from that project's folder on this host, or give --into PROJECT.`,
    );
  }
}

/**
 * Imports a `.mindsave/` folder into the project of its workspace (the session must have been
 * opened with that workspace). Idempotent: a snapshot already in the project (same id, or the same
 * id with a -N suffix, and the same created_at) is skipped; failures and tool calls merge.
 * One snapshot that cannot be read or saved is reported and the rest still land.
 */
export async function importSeed(
  session: Session,
  loc: SeedLocation,
  opts: { into?: string; restoreDeleted?: boolean; progress?: ImportProgress } = {},
): Promise<ImportReport> {
  const report = emptyReport(loc);
  warnUnknownEntries(loc.dir, report.warnings);
  const seed = readSeed(session, loc, report);
  const exported = exportedFrom(loc.dir);
  await pinDestination(session, loc, exported, opts.into);
  const signalBefore = (await readSignal(session)).signal;
  const offAt = readOffFile(loc.dir, report.warnings, session.now());
  // The source workspace's project.json: when this import is what writes it, a refused import takes it back.
  const projectFile = join(loc.root, ".mindsave", "project.json");
  const hadProjectFile = existsSync(projectFile);
  // Memory that grows with the store, not the batch: kept on disk (see the store).
  await session.store.tempOnDisk();
  // One write: the snapshots commit batch by batch (importSnapshots), the rest with the last batch.
  // An import refused (nothing taken in) commits nothing: the store is as it was.
  return session.write(async (w) => {
    const run = await openRun(session, w, report, exported, !!opts.restoreDeleted);
    await dropForgottenFailures(run, seed.nodes);
    const first = await failuresFirstPass(run, seed.nodes);
    await importSnapshots(run, seed.files, seed.index, opts.progress);
    await failuresSecondPass(run, seed.nodes, first);
    for (const [n, id] of first.unknownHere) await w.restampFailure(id, n.clock!);
    // Tool calls: the store keys each call, so a second import adds nothing.
    if (seed.logs.calls.length) {
      const added = await appendToolCalls(w, run.projectId, seed.logs.calls);
      report.tool_calls = { imported: added, skipped: seed.logs.calls.length - added };
    }
    // Rules, facts and retirements after the snapshots: a retirement never strips an imported
    // snapshot (it was saved before the retirement), it only keeps later ones from carrying the item.
    if (seed.hasMemory)
      report.memory = await importMemory(w, run.projectId, seed.memory, run.now, {
        sameProject: exported?.id === run.projectId,
        warnings: report.warnings,
      });
    await importSignal(run, seed.signalData, signalBefore);
    // The export's off switch: the project stays off here too. An import never turns a project on.
    if (offAt) report.off = await keepOff(w, run.projectId, offAt);
    if (nothingTakenIn(report)) {
      // Nor a project.json left in the source for a project the rollback takes back.
      if (!hadProjectFile) rmSync(projectFile, { force: true });
      refuseNothingImported(loc, report);
    }
    // Last, once the rest is in: it commits step by step.
    await w.mergeSearchAfterImport(report.snapshots.imported.length);
    return report;
  });
}

/** One import inside its transaction: the project it goes to, and its report so far. */
interface ImportRun {
  session: Session;
  w: StoreWriter;
  projectId: string;
  root: string | null;
  now: Date;
  report: ImportReport;
  /** Whether a project id is this project's, or a project's linked into it since (an alias). */
  isHere: (id: string) => boolean;
  /** Exported from this project: its snapshots kept their ids, and its failures are this project's now. */
  fromHere: boolean;
  restoreDeleted: boolean;
}

/** The project the import goes to (made when it is new), and whether the folder came from it. */
async function openRun(
  session: Session,
  w: StoreWriter,
  report: ImportReport,
  exported: ReturnType<typeof exportedFrom>,
  restoreDeleted: boolean,
): Promise<ImportRun> {
  const existed = exported ? await w.getProject(exported.id) : null;
  const ctx = await resolveProject(session, { create: true, w });
  const projectId = ctx.project.id;
  // The project made here for the folder it was exported from is that project: it keeps when it was
  // made there, so the two stores hold one record of it, not two that a sync tells apart.
  const made = exported?.created_at;
  if (made && !existed && exported.id === projectId && made < ctx.project.created_at)
    await w.setProjectMadeAt(projectId, made);
  report.project = { id: projectId, name: ctx.project.name };
  report.root = ctx.root;
  const now = session.now();
  // The project it was exported from is this one, or was linked into it since (an alias).
  const links = new Map((await w.mergedProjects()).map((p) => [p.id, p.merged_into!]));
  const isHere = (id: string) => id === projectId || linkTarget(id, links) === projectId;
  return {
    session,
    w,
    projectId,
    root: ctx.root,
    now,
    report,
    isHere,
    fromHere: !!exported && isHere(exported.id),
    restoreDeleted,
  };
}

/** Whether the node's clock is the exporting store's record of this failure (so it can be compared). */
const ownClock = (run: ImportRun, n: ParsedNode) => !!n.clock && (n.scope === "global" || run.fromHere);

const nodeFailureId = (run: ImportRun, n: ParsedNode) =>
  failureId(n.scope, n.scope === "global" ? null : run.projectId, n.item);

/** A failure forgotten here since it was exported stays forgotten (a later edit, never undone). */
async function dropForgottenFailures(run: ImportRun, nodes: ParsedNode[]): Promise<void> {
  for (let i = nodes.length - 1; i >= 0; i--) {
    const n = nodes[i];
    if (!ownClock(run, n)) continue;
    const here = await run.w.recordClock("failures", nodeFailureId(run, n));
    if (!here?.deleted || compareHlc(here.hlc, n.clock) < 0) continue;
    run.report.warnings.push(
      `${n.file}: failure ${JSON.stringify(n.item)} was forgotten in this store after it was exported; not brought back.`,
    );
    nodes.splice(i, 1);
  }
}

/** What a node says of its failure, as the engine records an observation. */
function observation(n: ParsedNode, now: Date, extra: Partial<FailureObservation> = {}): FailureObservation {
  return {
    item: n.item,
    scope: n.scope,
    reason: n.reason || NO_REASON,
    rejected_by: n.rejected_by,
    // A confidence the original derived from repeats and age stays derived here too.
    confidence:
      n.confidence && n.confidence !== derivedConfidence(n.repeat_count, n.last_seen.toISOString(), now)
        ? n.confidence
        : undefined,
    related: n.related,
    alternatives: n.alternatives,
    ...extra,
  };
}

/** The store's failures before the import, and what the first pass learnt of the nodes. */
interface FirstPass {
  before: Map<string, FailureRecord>;
  /** Nodes that say nothing the store does not already hold. */
  satisfied: Set<ParsedNode>;
  /** Failures this store never had (not even removed): they keep the exporting store's clock. */
  unknownHere: Map<ParsedNode, string>;
}

/**
 * Failures, first pass: nodes new to the store are created at their first_seen, so the snapshots'
 * mentions (later) do not move it.
 */
async function failuresFirstPass(run: ImportRun, nodes: ParsedNode[]): Promise<FirstPass> {
  const { w, projectId } = run;
  const before = new Map((await w.listFailures(projectId)).map((f) => [failureKey(f.scope, f.item), f]));
  const satisfied = new Set<ParsedNode>(
    nodes.filter((n) => nodeSatisfied(before.get(failureKey(n.scope, n.item)), n)),
  );
  const fresh = nodes.filter((n) => !before.has(failureKey(n.scope, n.item)));
  const unknownHere = new Map<ParsedNode, string>();
  for (const n of fresh) {
    const id = nodeFailureId(run, n);
    if (ownClock(run, n) && !(await w.recordClock("failures", id))) unknownHere.set(n, id);
  }
  const done = new Set<string>();
  for (const n of [...fresh].sort((a, b) => a.first_seen.getTime() - b.first_seen.getTime())) {
    if (done.has(failureKey(n.scope, n.item))) continue;
    done.add(failureKey(n.scope, n.item));
    const count = n.counts ? { counts: n.counts } : { atLeast: 1 };
    await observeFailure(w, projectId, observation(n, run.now, count), n.first_seen);
  }
  // MindSave's own export says which host saw each repeat: those counters are taken in (each the
  // larger of the two) before any snapshot mentions the failure, so the host that exported and
  // this one, once they sync, count each repeat once.
  for (const n of nodes) {
    const was = before.get(failureKey(n.scope, n.item));
    if (n.counts && was && !was.deleted) await w.mergeFailureCounts(was.id, n.counts);
  }
  return { before, satisfied, unknownHere };
}

/** How many of the snapshot files an import has taken (saved, skipped or refused), of how many. */
export type ImportProgress = (done: number, total: number) => void;

/** The failures the project knows as the snapshot saves find them, kept up to date as they land. */
interface SnapshotsHere {
  /** Failure items the project knows (normalised). */
  known: Set<string>;
}

/** Snapshots, oldest first, then retention once. */
async function importSnapshots(
  run: ImportRun,
  files: SnapshotFile[],
  index: IndexInfo,
  progress?: ImportProgress,
): Promise<void> {
  const { w, projectId } = run;
  const here: SnapshotsHere = {
    known: new Set((await w.listFailures(projectId)).map((f) => normaliseItem(f.item))),
  };
  const oldestFirst = files.sort((a, b) => a.at - b.at);
  const batch = importBatch(run.session.env);
  for (let from = 0; from < oldestFirst.length; from += batch) {
    if (from) await commitBatches(run, from / batch);
    // The full-text index is filled once per batch, for all of it, before it commits (see the store).
    await w.withSearchDeferred(async () => {
      for (const [i, file] of oldestFirst.slice(from, from + batch).entries()) {
        await importSnapshotFile(run, here, index, file);
        const n = from + i + 1;
        progress?.(n, files.length);
        // A full collection now and then: left to itself the runtime ran none for thousands of
        // snapshots (the peak it saves: docs/benchmarks.md, "Speed tricks").
        if (n % GC_EVERY === 0) Bun.gc(true);
      }
    });
  }
  await stallIfAsked("import-indexed");
  // Retention once, at the end: the views show the newest; the rest is archived, none deleted.
  if (run.report.snapshots.imported.length)
    run.report.snapshots.archived = await applyRetention(w, projectId, {
      keep: DEFAULT_KEEP,
      now: run.session.now(),
    });
}

/**
 * Commits the batches saved so far (`done` of them), once the import took a snapshot in: until then
 * it may still be refused, and a refusal leaves the store as it was.
 */
async function commitBatches(run: ImportRun, done: number): Promise<void> {
  const s = run.report.snapshots;
  if (!s.imported.length && !s.skipped.length && !s.deleted.length) return;
  await run.w.commitSoFar();
  await stallIfAsked(`import-batch-${done}`);
}

/** One snapshot file: read again, checked against what the project has, saved. */
async function importSnapshotFile(
  run: ImportRun,
  here: SnapshotsHere,
  index: IndexInfo,
  file: SnapshotFile,
): Promise<void> {
  const p = readForSave(run.report, index, file);
  if (!p) return;
  const record = await recordToKeep(run, p);
  if (record === null) return;
  const same = await sameSnapshot(run, p);
  if (same) {
    run.report.snapshots.skipped.push(same.name);
    return;
  }
  const deleted = !record && !run.restoreDeleted && (await sameSnapshot(run, p, true));
  if (deleted) {
    run.report.snapshots.deleted.push(deleted.name);
    return;
  }
  fillMissingReasons(p, here.known);
  await saveImported(run, here, p, record);
}

/** The file read whole; undefined (a failure in the report) when it cannot be, or changed since it was listed. */
function readForSave(report: ImportReport, index: IndexInfo, file: SnapshotFile): ParsedSnapshot | undefined {
  const { name, path, at } = file;
  try {
    const p = parseSnapshotFile(readSnapshotText(path, `snapshots/${name}`), name, index, mtime(path));
    // Saved in the order of the first reading: a file whose time reads differently now changed in between.
    if (p.createdAt.getTime() !== at)
      throw new UserError(`snapshots/${name} changed while it was being imported; run the import again.`);
    return p;
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    report.snapshots.failed.push({ file: `snapshots/${name}`, reason: e.message });
    return undefined;
  }
}

/**
 * A record of MindSave's own export keeps its id and clock when it goes back into the project it
 * came from: the store that exported it and this one then hold one record, not two. The record to
 * save the file as (undefined: a new one), or null when the store already has it or deleted it.
 */
async function recordToKeep(run: ImportRun, p: ParsedSnapshot): Promise<ParsedSnapshot["record"] | null> {
  const record = p.record && run.fromHere ? p.record : undefined;
  if (!record) return undefined;
  const { report, isHere } = run;
  const trace = await run.w.snapshotTrace(record.id);
  if (!trace) return record;
  if (!trace.deleted && isHere(trace.project_id) && sameInstant(trace.created_at, p.createdAt)) {
    report.snapshots.skipped.push(trace.name);
    return null;
  }
  // Deleted here since it was exported: a later edit, which an import undoes only when asked
  // (as a new record: the tombstone keeps its id, so the delete still travels). Brought back
  // so once, it is that live snapshot now, skipped by name (importSnapshotFile).
  if (trace.deleted && isHere(trace.project_id) && !run.restoreDeleted && !(await sameSnapshot(run, p))) {
    report.warnings.push(
      `${p.file}: this snapshot (${trace.name}) was deleted in this store; not brought back.`,
    );
    report.snapshots.deleted.push(trace.name);
    return null;
  }
  if (!trace.deleted)
    report.warnings.push(
      `${p.file}: its record id is another snapshot's in this store (${trace.name}); imported as a new record.`,
    );
  return undefined;
}

/** A failure new to the project needs a reason: one the file leaves out is recorded as NO_REASON. */
function fillMissingReasons(p: ParsedSnapshot, known: Set<string>): void {
  for (const [item, entry] of Object.entries(p.input.failure_graph)) {
    if (
      !known.has(normaliseItem(item)) &&
      !(typeof entry.reason === "string" ? entry.reason.trim() : entry.reason)
    ) {
      entry.reason = NO_REASON;
      p.warnings.push(
        `${p.file}: failure ${JSON.stringify(item)} has no reason; recorded as "${NO_REASON}".`,
      );
    }
  }
}

/** Saves the snapshot; one the engine refuses is a failure in the report, and the rest still land. */
async function saveImported(
  run: ImportRun,
  here: SnapshotsHere,
  p: ParsedSnapshot,
  record: ParsedSnapshot["record"],
): Promise<void> {
  const report = run.report;
  const warnings = report.warnings;
  try {
    const wanted = record?.name ?? p.id;
    const result = await saveSnapshot(run.session, {
      input: p.input,
      name: wanted,
      createdAt: p.createdAt,
      noRetention: true,
      overflow: p.overflow,
      storedRoot: run.root,
      record,
    });
    await rememberHost(run.w, record, p.createdAt);
    const name = result.snapshot.name;
    warnings.push(...p.warnings, ...result.warnings.map((w) => `${p.file}: ${w}`));
    if (name !== wanted)
      warnings.push(
        `${p.file}: snapshot_id ${p.id} is already used in this project by another snapshot; imported as ${name}.`,
      );
    report.snapshots.imported.push(name);
    await stallIfAsked(`import-${report.snapshots.imported.length}`);
    for (const item of Object.keys(result.snapshot.failure_graph)) here.known.add(normaliseItem(item));
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    warnings.push(...p.warnings);
    report.snapshots.failed.push({ file: p.file, reason: e.message });
  }
}

/** A host this store never met gets its name from the export, so the block says who saved it. */
async function rememberHost(
  w: StoreWriter,
  record: ParsedSnapshot["record"],
  createdAt: Date,
): Promise<void> {
  if (!record?.hostName || (await w.getHost(record.savedHost))) return;
  const at = createdAt.toISOString();
  await w.upsertHost({
    id: record.savedHost,
    name: record.hostName,
    platform: "unknown",
    first_seen: at,
    last_seen: at,
  });
}

/**
 * Failures, second pass: each node's full state at its last_seen. A snapshot's mention never
 * moves a failure's last_seen back either.
 */
async function failuresSecondPass(run: ImportRun, nodes: ParsedNode[], first: FirstPass): Promise<void> {
  const { w, projectId, report } = run;
  const { before, satisfied } = first;
  const after = await w.listFailures(projectId);
  for (const f of after) {
    const was = before.get(failureKey(f.scope, f.item));
    if (was && Date.parse(was.last_seen) > Date.parse(f.last_seen)) {
      await observeFailure(w, projectId, { item: f.item, scope: f.scope }, new Date(was.last_seen));
    }
  }
  const current = new Map(after.map((f) => [failureKey(f.scope, f.item), f]));
  const floor = new Map<string, number>();
  for (const n of nodes) {
    if (satisfied.has(n)) {
      report.failures.skipped++;
      continue;
    }
    const key = failureKey(n.scope, n.item);
    const was = before.get(key);
    // Changed here since it was exported (an edit, or forgotten and seen again): the store's stands.
    if (ownClock(run, n) && was && compareHlc(was.hlc, n.clock!) >= 0) {
      report.failures.skipped++;
      continue;
    }
    // The node file says when it was last seen; the store's own, newer knowledge is kept.
    const at = Math.max(n.last_seen.getTime(), was ? Date.parse(was.last_seen) : 0, floor.get(key) ?? 0);
    floor.set(key, at);
    const count = n.counts ? { counts: n.counts } : { atLeast: n.repeat_count };
    const reason = n.reason || current.get(key)?.reason || NO_REASON;
    await observeFailure(w, projectId, observation(n, run.now, { ...count, reason }), new Date(at));
    report.failures.imported++;
  }
}

/** The signal: the newest of the store's own, the imported snapshots' and signal.json's saves wins. */
async function importSignal(run: ImportRun, signalData: unknown, signalBefore: SignalState): Promise<void> {
  const { report } = run;
  const fileSignal = isObj(signalData) ? signalFromFile(signalData, report.warnings) : null;
  const afterSaves = recompute(await getSignalRow(run.w, run.projectId), run.session.now());
  const beforeWins = instant(signalBefore.last_save) > instant(afterSaves.last_save);
  const base = beforeWins ? signalBefore : afterSaves;
  let next: SignalState = base;
  if (fileSignal) {
    if (fileSignalWins(fileSignal, base, report.snapshots.imported.length > 0)) {
      next = { ...base, ...fileSignal };
      next.turn = Math.max(next.turn, next.last_auto_save_turn ?? 0);
      const changed = Object.keys(fileSignal).some(
        (k) =>
          JSON.stringify(fileSignal[k as keyof SignalState]) !== JSON.stringify(base[k as keyof SignalState]),
      );
      report.signal = changed ? "imported" : "unchanged";
    } else {
      report.signal = "older";
    }
  }
  if (beforeWins || report.signal === "imported") {
    await updateSignal(run.session, () => next);
  }
}

/** Whether signal.json's save is at least as new as the project's (or the project has none to compare). */
function fileSignalWins(
  fileSignal: Partial<SignalState>,
  base: SignalState,
  savedSnapshots: boolean,
): boolean {
  const fileTime = instant(fileSignal.last_save);
  return (
    !base.last_save ||
    (Number.isFinite(fileTime) && fileTime >= instant(base.last_save)) ||
    (!fileSignal.last_save && !savedSnapshots)
  );
}

/** Every snapshot file refused, and nothing else taken in? */
function nothingTakenIn(report: ImportReport): boolean {
  const s = report.snapshots;
  const m = report.memory;
  return (
    s.failed.length > 0 &&
    !s.imported.length &&
    !s.skipped.length &&
    !s.deleted.length &&
    !report.failures.imported &&
    !report.failures.skipped &&
    !report.tool_calls.imported &&
    !report.tool_calls.skipped &&
    !m.rules &&
    !m.facts &&
    !m.retired &&
    report.signal !== "imported"
  );
}

/**
 * An error rather than "imported" with an empty project left behind: the transaction (the project
 * it made included) rolls back. Names the first file refused and why.
 */
function refuseNothingImported(loc: SeedLocation, report: ImportReport): never {
  const failed = report.snapshots.failed;
  const first = failed[0];
  const reason = first.reason.includes(first.file) ? first.reason : `${first.file}: ${first.reason}`;
  throw new UserError(
    `Nothing was imported from ${loc.dir}: ${failed.length === 1 ? "its one snapshot could not be read" : `none of its ${failed.length} snapshots could be read`} (${reason.replace(/\.$/, "")}); fix and run import again.`,
  );
}
