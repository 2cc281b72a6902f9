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
  type ParsedSnapshot,
} from "./seed-read-snapshots.ts";
import { failureKey, nodeSatisfied, readNodes, type ParsedNode } from "./seed-read-failures.ts";
import { readToolLogs } from "./seed-read-tool-logs.ts";
import { signalFromFile } from "./seed-read-signal.ts";
import { importMemory, MEMORY_FILES, readMemory } from "./seed-memory.ts";

const NO_REASON = "(no reason recorded)";
/** Snapshots saved between two full garbage collections of an import. */
const GC_EVERY = 1_000;
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
]);
/** Parts of the original's layout MindSave has no place for: named in a warning, not imported. */
const NOT_KEPT: Record<string, string> = {
  execution_graphs: "MindSave keeps no execution DAGs",
  workspace_snap: "MindSave keeps no workspace copies",
};

/**
 * Imports a `.mindsave/` folder into the project of its workspace (the session must have been
 * opened with that workspace). Idempotent: a snapshot already in the project (same id, or the same
 * id with a -N suffix, and the same created_at) is skipped; failures and tool calls merge.
 * One snapshot that cannot be read or saved is reported and the rest still land.
 */
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

type Named = { name: string; created_at: string };
type NameIndex = Map<string, Named[]>;

/** Indexes a snapshot by its name and by the name before a "-N" suffix (an import of the same file saved as name-2). */
function rememberName(index: NameIndex, x: Named): void {
  for (const key of new Set([x.name, x.name.replace(/-\d+$/, "")]))
    index.set(key, [...(index.get(key) ?? []), x]);
}

/** The indexed snapshot this file is: its name (or that name with a -N suffix) at the same time. */
function sameSnapshot(index: NameIndex, p: ParsedSnapshot): Named | undefined {
  return (index.get(p.id) ?? []).find(
    (s) =>
      (s.name === p.id || /^-\d+$/.test(s.name.slice(p.id.length))) && sameInstant(s.created_at, p.createdAt),
  );
}

export async function importSeed(
  session: Session,
  loc: SeedLocation,
  opts: { into?: string; restoreDeleted?: boolean } = {},
): Promise<ImportReport> {
  const warnings: string[] = [];
  const report: ImportReport = {
    source: loc.dir,
    root: loc.root,
    project: null,
    snapshots: { imported: [], skipped: [], deleted: [], failed: [], archived: [] },
    failures: { imported: 0, skipped: 0 },
    tool_calls: { imported: 0, skipped: 0 },
    signal: "absent",
    memory: { rules: 0, facts: 0, retired: 0 },
    warnings,
  };

  // What is there.
  for (const name of listDir(loc.dir)) {
    if (isSymlink(join(loc.dir, name))) {
      warnings.push(`${name} is a symbolic link; not followed, not imported.`);
      continue;
    }
    if (KNOWN_ENTRIES.has(name)) continue;
    if (name in NOT_KEPT) {
      const n = listDir(join(loc.dir, name)).length;
      if (n)
        warnings.push(`${name}/ (${n} entr${n === 1 ? "y" : "ies"}) was not imported: ${NOT_KEPT[name]}.`);
      continue;
    }
    warnings.push(`${name} is not part of the original MindSave layout; not imported.`);
  }
  const fgDir = join(loc.dir, "failure_graph");
  for (const name of listDir(fgDir)) {
    if (name !== "project" && name !== "global")
      warnings.push(`failure_graph/${name} is neither project/ nor global/; not imported.`);
  }

  const index = readIndex(loc.dir, warnings);
  const snapDir = join(loc.dir, "snapshots");
  // Every file's time now (it orders the saves), and only that: each file is read whole again when
  // it is saved, so an import holds one snapshot at a time, however many there are.
  const files: { name: string; path: string; at: number }[] = [];
  const seenFiles = new Set<string>();
  for (const name of listDirNoFollow(snapDir)) {
    const path = join(snapDir, name);
    if (!name.toLowerCase().endsWith(".md") || isDir(path)) {
      warnings.push(`snapshots/${name}: not a snapshot (.md file); not imported.`);
      continue;
    }
    seenFiles.add(name);
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
  // Index lines name their snapshot by id or snapshot_id, and their file by path or file.
  const entryId = (e: Record<string, unknown>) =>
    [e.id, e.snapshot_id].find((v) => typeof v === "string" && v) as string | undefined;
  const entryFile = (e: Record<string, unknown>) =>
    [e.path, e.file].find((v) => typeof v === "string" && v) as string | undefined;
  const missing = index.entries.filter((e) => {
    const id = entryId(e);
    const path = entryFile(e);
    const file = path ? path.replace(/\\/g, "/").split("/").pop()! : id ? `${id}.md` : "";
    return !seenFiles.has(file) && !(id && seenFiles.has(`${id}.md`));
  });
  if (missing.length) {
    warnings.push(
      `index.json lists ${missing.length} snapshot(s) whose file is missing, so only their index line exists; not imported: ${missing.map((e) => entryId(e) ?? entryFile(e) ?? "(an entry without id)").join(", ")}.`,
    );
  }

  const nodes = [
    ...readNodes(join(fgDir, "project"), "project", "failure_graph/project", warnings),
    ...readNodes(join(fgDir, "global"), "global", "failure_graph/global", warnings),
  ];
  const homeGlobal = join(localHomeDir(session.env), "global");
  if (resolve(homeGlobal) !== resolve(fgDir, "global"))
    nodes.push(...readNodes(homeGlobal, "global", "~/.mindsave/global", warnings));
  const logs = readToolLogs(join(loc.dir, "tool_logs"), warnings);
  const signalPath = join(loc.dir, "signal.json");
  const signalData = existsSync(signalPath) ? readJson(signalPath, "signal.json", warnings) : undefined;
  if (signalData !== undefined && !isObj(signalData))
    warnings.push("signal.json is not a JSON object; not imported.");

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

  // Where it goes: the project named with --into; else the project this folder was exported from,
  // when this store has it; else the project of the folder's workspace. A folder written by
  // `export --out` is no workspace: its snapshots go to the project of the current directory
  // (the session's workspace), never to a project made of the export folder.
  const exported = exportedFrom(loc.dir);
  const pinned = opts.into
    ? await pinProject(session, opts.into).then(() => true)
    : exported
      ? await pinProject(session, exported.id).then(
          () => true,
          () => false,
        )
      : false;
  if (!pinned && isStandaloneExport(loc)) {
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
  const signalBefore = (await readSignal(session)).signal;
  // The source workspace's project.json, when this import is what writes it (see below).
  const projectFile = join(loc.root, ".mindsave", "project.json");
  const hadProjectFile = existsSync(projectFile);
  // One transaction for all of it: a kill or an error leaves the store as it was, never half an import.
  return session.write(async (w) => {
    const ctx = await resolveProject(session, { create: true, w });
    const projectId = ctx.project.id;
    report.project = { id: projectId, name: ctx.project.name };
    report.root = ctx.root;
    const now = session.now();

    // The project it was exported from is this one, or was linked into it since (an alias): its
    // snapshots kept their ids, and its failures are this project's now.
    const links = new Map((await w.mergedProjects()).map((p) => [p.id, p.merged_into!]));
    const isHere = (id: string) => id === projectId || linkTarget(id, links) === projectId;
    const fromHere = !!exported && isHere(exported.id);
    const ownClock = (n: ParsedNode) => !!n.clock && (n.scope === "global" || fromHere);

    // A failure forgotten here since it was exported stays forgotten (a later edit, never undone).
    for (let i = nodes.length - 1; i >= 0; i--) {
      const n = nodes[i];
      if (!ownClock(n)) continue;
      const here = await w.recordClock(
        "failures",
        failureId(n.scope, n.scope === "global" ? null : projectId, n.item),
      );
      if (!here?.deleted || compareHlc(here.hlc, n.clock) < 0) continue;
      warnings.push(
        `${n.file}: failure ${JSON.stringify(n.item)} was forgotten in this store after it was exported; not brought back.`,
      );
      nodes.splice(i, 1);
    }

    // Failures, first pass: nodes new to the store are created at their first_seen, so the
    // snapshots' mentions (later) do not move it.
    const before = new Map((await w.listFailures(projectId)).map((f) => [failureKey(f.scope, f.item), f]));
    const satisfied = new Set<ParsedNode>(
      nodes.filter((n) => nodeSatisfied(before.get(failureKey(n.scope, n.item)), n)),
    );
    const observation = (n: ParsedNode, extra: Partial<FailureObservation> = {}): FailureObservation => ({
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
    });
    const fresh = nodes.filter((n) => !before.has(failureKey(n.scope, n.item)));
    // Failures this store never had (not even removed): they keep the exporting store's clock.
    const unknownHere = new Map<ParsedNode, string>();
    for (const n of fresh) {
      const id = failureId(n.scope, n.scope === "global" ? null : projectId, n.item);
      if (ownClock(n) && !(await w.recordClock("failures", id))) unknownHere.set(n, id);
    }
    const done = new Set<string>();
    for (const n of [...fresh].sort((a, b) => a.first_seen.getTime() - b.first_seen.getTime())) {
      if (done.has(failureKey(n.scope, n.item))) continue;
      done.add(failureKey(n.scope, n.item));
      await observeFailure(
        w,
        projectId,
        observation(n, n.counts ? { counts: n.counts } : { atLeast: 1 }),
        n.first_seen,
      );
    }
    // MindSave's own export says which host saw each repeat: those counters are taken in (each the
    // larger of the two) before any snapshot mentions the failure, so the host that exported and
    // this one, once they sync, count each repeat once.
    for (const n of nodes) {
      const was = before.get(failureKey(n.scope, n.item));
      if (n.counts && was && !was.deleted) await w.mergeFailureCounts(was.id, n.counts);
    }

    // Snapshots, oldest first.
    // Snapshots already here by name, and by the name before a "-N" suffix (an import of the same
    // file saved as name-2): one lookup each, not a scan per imported file.
    const byName: NameIndex = new Map();
    const remember = (x: Named) => rememberName(byName, x);
    for (const x of await w.listSnapshots(projectId)) remember(x);
    // Deleted here (by name and time, as the original's files carry no record id): not brought back.
    const deletedByName: NameIndex = new Map();
    for (const x of await w.deletedSnapshots(projectId)) rememberName(deletedByName, x);
    const known = new Set((await w.listFailures(projectId)).map((f) => normaliseItem(f.item)));
    const importOne = async ({ name, path, at }: { name: string; path: string; at: number }) => {
      let p: ParsedSnapshot;
      try {
        p = parseSnapshotFile(readSnapshotText(path, `snapshots/${name}`), name, index, mtime(path));
        // Saved in the order of the first reading: a file whose time reads differently now changed in between.
        if (p.createdAt.getTime() !== at)
          throw new UserError(`snapshots/${name} changed while it was being imported; run the import again.`);
      } catch (e) {
        if (!(e instanceof UserError)) throw e;
        report.snapshots.failed.push({ file: `snapshots/${name}`, reason: e.message });
        return;
      }
      // A record of MindSave's own export keeps its id and clock when it goes back into the project
      // it came from: the store that exported it and this one then hold one record, not two.
      let record = p.record && fromHere ? p.record : undefined;
      if (record) {
        const trace = await w.snapshotTrace(record.id);
        if (
          trace &&
          !trace.deleted &&
          isHere(trace.project_id) &&
          sameInstant(trace.created_at, p.createdAt)
        ) {
          report.snapshots.skipped.push(trace.name);
          return;
        }
        // Deleted here since it was exported: a later edit, which an import undoes only when asked
        // (as a new record: the tombstone keeps its id, so the delete still travels). Brought back
        // so once, it is that live snapshot now, skipped by name below.
        if (trace?.deleted && isHere(trace.project_id) && !opts.restoreDeleted && !sameSnapshot(byName, p)) {
          warnings.push(
            `${p.file}: this snapshot (${trace.name}) was deleted in this store; not brought back.`,
          );
          report.snapshots.deleted.push(trace.name);
          return;
        }
        if (trace && !trace.deleted)
          warnings.push(
            `${p.file}: its record id is another snapshot's in this store (${trace.name}); imported as a new record.`,
          );
        if (trace) record = undefined;
      }
      const same = sameSnapshot(byName, p);
      if (same) {
        report.snapshots.skipped.push(same.name);
        return;
      }
      const deleted = !record && !opts.restoreDeleted && sameSnapshot(deletedByName, p);
      if (deleted) {
        report.snapshots.deleted.push(deleted.name);
        return;
      }
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
      try {
        const wanted = record?.name ?? p.id;
        const result = await saveSnapshot(session, {
          input: p.input,
          name: wanted,
          createdAt: p.createdAt,
          noRetention: true,
          overflow: p.overflow,
          storedRoot: ctx.root,
          record,
        });
        // A host this store never met gets its name from the export, so the block says who saved it.
        if (record?.hostName && !(await w.getHost(record.savedHost))) {
          const at = p.createdAt.toISOString();
          await w.upsertHost({
            id: record.savedHost,
            name: record.hostName,
            platform: "unknown",
            first_seen: at,
            last_seen: at,
          });
        }
        const name = result.snapshot.name;
        warnings.push(...p.warnings, ...result.warnings.map((w) => `${p.file}: ${w}`));
        if (name !== wanted)
          warnings.push(
            `${p.file}: snapshot_id ${p.id} is already used in this project by another snapshot; imported as ${name}.`,
          );
        report.snapshots.imported.push(name);
        await stallIfAsked(`import-${report.snapshots.imported.length}`);
        // The name and time only: the record holds the whole Layer 3.
        remember({ name, created_at: result.snapshot.created_at });
        for (const item of Object.keys(result.snapshot.failure_graph)) known.add(normaliseItem(item));
      } catch (e) {
        if (!(e instanceof UserError)) throw e;
        warnings.push(...p.warnings);
        report.snapshots.failed.push({ file: p.file, reason: e.message });
      }
    };
    // The full-text index is filled once, for all of them, when they are saved (see the store).
    await w.withSearchDeferred(async () => {
      let n = 0;
      for (const file of files.sort((a, b) => a.at - b.at)) {
        await importOne(file);
        // A full collection now and then: left to itself the runtime ran none for thousands of
        // snapshots (10,000: peak 166 → 133 MB, same CPU; docs/benchmarks.md).
        if (++n % GC_EVERY === 0) Bun.gc(true);
      }
    });
    await stallIfAsked("import-indexed");
    // Retention once, at the end: the views show the newest; the rest is archived, none deleted.
    if (report.snapshots.imported.length)
      report.snapshots.archived = await applyRetention(w, projectId, {
        keep: DEFAULT_KEEP,
        now: session.now(),
      });

    // Failures, second pass: each node's full state at its last_seen. A snapshot's mention never
    // moves a failure's last_seen back either.
    const after = await w.listFailures(projectId);
    {
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
        if (ownClock(n) && was && compareHlc(was.hlc, n.clock!) >= 0) {
          report.failures.skipped++;
          continue;
        }
        // The node file says when it was last seen; the store's own, newer knowledge is kept.
        const at = Math.max(n.last_seen.getTime(), was ? Date.parse(was.last_seen) : 0, floor.get(key) ?? 0);
        floor.set(key, at);
        const count = n.counts ? { counts: n.counts } : { atLeast: n.repeat_count };
        await observeFailure(
          w,
          projectId,
          observation(n, { ...count, reason: n.reason || current.get(key)?.reason || NO_REASON }),
          new Date(at),
        );
        report.failures.imported++;
      }
    }

    for (const [n, id] of unknownHere) await w.restampFailure(id, n.clock!);

    // Tool calls: the store keys each call, so a second import adds nothing.
    if (logs.calls.length) {
      const added = await appendToolCalls(w, projectId, logs.calls);
      report.tool_calls = { imported: added, skipped: logs.calls.length - added };
    }

    // Rules, facts and retirements after the snapshots: a retirement never strips an imported
    // snapshot (it was saved before the retirement), it only keeps later ones from carrying the item.
    if (hasMemory)
      report.memory = await importMemory(w, projectId, memory, now, {
        sameProject: exported?.id === projectId,
        warnings,
      });

    // The signal: the newest of the store's own, the imported snapshots' and signal.json's saves wins.
    const fileSignal = isObj(signalData) ? signalFromFile(signalData, warnings) : null;
    const afterSaves = recompute(await getSignalRow(w, projectId), session.now());
    const beforeWins = instant(signalBefore.last_save) > instant(afterSaves.last_save);
    const base = beforeWins ? signalBefore : afterSaves;
    let next: SignalState = base;
    if (fileSignal) {
      const fileTime = instant(fileSignal.last_save);
      if (
        !base.last_save ||
        (Number.isFinite(fileTime) && fileTime >= instant(base.last_save)) ||
        (!fileSignal.last_save && !report.snapshots.imported.length)
      ) {
        next = { ...base, ...fileSignal };
        next.turn = Math.max(next.turn, next.last_auto_save_turn ?? 0);
        const changed = Object.keys(fileSignal).some(
          (k) =>
            JSON.stringify(fileSignal[k as keyof SignalState]) !==
            JSON.stringify(base[k as keyof SignalState]),
        );
        report.signal = changed ? "imported" : "unchanged";
      } else {
        report.signal = "older";
      }
    }
    if (beforeWins || report.signal === "imported") {
      await updateSignal(session, () => next);
    }
    // Every file refused and nothing else taken in: an error, and the transaction (the project it
    // made included) rolls back, rather than "imported" with an empty project left behind.
    const s = report.snapshots;
    const m = report.memory;
    if (
      s.failed.length &&
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
    ) {
      const first = s.failed[0];
      // Nor a project.json left in the source for a project the rollback takes back.
      if (!hadProjectFile) rmSync(projectFile, { force: true });
      const reason = first.reason.includes(first.file) ? first.reason : `${first.file}: ${first.reason}`;
      throw new UserError(
        `Nothing was imported from ${loc.dir}: ${s.failed.length === 1 ? "its one snapshot could not be read" : `none of its ${s.failed.length} snapshots could be read`} (${reason.replace(/\.$/, "")}); fix and run import again.`,
      );
    }
    return report;
  });
}
