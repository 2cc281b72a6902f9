// `exportSeed`: a project written back in the original's `.mindsave/` layout, with relative paths
// and every field, so the original can read it and a round trip loses nothing.
import { existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parseDocument } from "yaml";
import { UserError } from "../../errors.ts";
import { projectSnapshots, snapshotById } from "../snapshots/catalog.ts";
import { failuresFor } from "../failures/record.ts";
import { normaliseItem, toGraphEntry } from "../failures/graph.ts";
import { readSignal, toSignalJson } from "../agents/signal.ts";
import { splitFrontMatter } from "../snapshots/input.ts";
import { snapshotFile } from "../snapshots/manage.ts";
import { snapshotDigest } from "../snapshots/save.ts";
import { recentToolCalls } from "../agents/toollog.ts";
import type { Session } from "../session.ts";
import { requireProject } from "../projects/resolve.ts";
import { projectSwitch } from "../projects/off-switch.ts";
import type { FailureRecord, SnapshotRecord } from "../../store/store.ts";
import { safeName } from "../snapshots/slug.ts";
import { isDir, isSymlink, listDir, readTextNoFollow, staysInside, writeFileAtomic } from "../../lib/fs.ts";
import {
  failureFileStem,
  INDEX_MAX,
  instant,
  isObj,
  sameInstant,
  SEED_DIR,
  unslug,
  type ExportReport,
  type Obj,
} from "./seed-layout.ts";
import { FIELD_ALIASES } from "./seed-read-snapshots.ts";
import { toolCallFromLine, toolKey } from "./seed-read-tool-logs.ts";
import { memoryFiles, MEMORY_FILES } from "./seed-memory.ts";
import { OFF_FILE, offFileText } from "./seed-off.ts";
import { compareCodes, compareText } from "../../lib/text.ts";

/** The front matter of an exported snapshot: the spec's template, plus what only MindSave keeps. */
export function exportedSnapshotFile(
  s: SnapshotRecord,
  storedName: string = s.name,
  hostName?: string,
): string {
  // The record's id and clock: an import into another store is then this record, not a copy that
  // a sync would add a second time (and never an edit that overrides the original).
  // The digest of the record as an import stores it: under its own (safe) name, not the file's.
  const marker: Obj = {
    topic: s.topic,
    kind: s.kind,
    record: s.id,
    clock: s.hlc,
    saved_host: s.saved_host,
    files: s.active_files,
    digest: snapshotDigest({ ...s, name: safeName(storedName, s.id) }),
  };
  if (storedName !== s.name) marker.name = storedName;
  // The saving host's name: a store that never met that host still says "on laptop-a", not its id.
  if (hostName) marker.saved_host_name = hostName;
  if (s.saved_agent) marker.agent = s.saved_agent;
  if (s.plan_times) marker.plan_times = s.plan_times;
  if (s.compressed && Array.isArray(s.compressed.original_constraints))
    marker.original_constraints = s.compressed.original_constraints;
  // `_compressed` written from the engine's own analysis is derived: import recomputes it.
  if (s.compressed) marker.derived_compressed = true;
  return snapshotFile(
    { ...s, extra: { ...(s.extra ?? {}), _mindsave: marker } },
    s.active_files.map((f) => f.path),
  );
}

function layersOf(s: SnapshotRecord): string[] {
  const l2 = s.constraints.length || s.decisions.length || Object.keys(s.failure_graph).length;
  return ["L1", ...(l2 ? ["L2"] : []), ...(s.layer3.trim() ? ["L3"] : [])];
}

/** What an existing snapshot file says it is (id, time, goal), leniently. */
function existingSnapshotIdentity(path: string): { id?: string; created?: number; goal?: string } | null {
  try {
    const text = readTextNoFollow(path);
    const data = parseDocument(splitFrontMatter(text).yaml).toJS() as unknown;
    if (!isObj(data)) return null;
    const pick = (field: string) =>
      [field, ...(FIELD_ALIASES[field] ?? [])].map((k) => data[k]).find((v) => v !== undefined && v !== null);
    const id = pick("snapshot_id");
    const goal = pick("goal");
    return {
      id: id === undefined ? undefined : String(id),
      created: instant(pick("created_at")),
      goal: goal === undefined ? undefined : String(goal).trim(),
    };
  } catch {
    return null;
  }
}

/**
 * One file per snapshot: names two hosts both saved (same name, or names that differ only in case,
 * which are one file on Windows and macOS) are told apart by an id prefix on all but the oldest.
 */
function uniqueFileNames(records: SnapshotRecord[], warnings: string[]): SnapshotRecord[] {
  const groups = new Map<string, SnapshotRecord[]>();
  for (const r of records) groups.set(r.name.toLowerCase(), [...(groups.get(r.name.toLowerCase()) ?? []), r]);
  const renamed = new Map<string, string>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const [, ...later] = [...group].sort(
      (a, b) => compareCodes(a.created_at, b.created_at) || compareCodes(a.id, b.id),
    );
    for (const r of later) renamed.set(r.id, `${r.name}-${r.id.slice(-8)}`);
    warnings.push(
      `${group.length} snapshots share the name ${group[0].name} (saved on different hosts); the later ones are exported as ${later.map((r) => renamed.get(r.id)).join(", ")}.`,
    );
  }
  return records.map((r) => (renamed.has(r.id) ? { ...r, name: renamed.get(r.id)! } : r));
}

/** Where an export goes: the folder given with --out (or the project's root), and the `.mindsave/` folder written there. */
interface ExportPlace {
  /** --out, or the project's root on this host. */
  target: string;
  /** The `.mindsave/` folder written. */
  dir: string;
}

/** The folder an export writes, refused (before anything is written) when it cannot or must not be. */
function exportPlace(root: string | null, projectName: string, out: string | undefined): ExportPlace {
  const target = out ? resolve(out) : root;
  if (!target) throw new UserError(`Project ${projectName} has no root on this host; give --out DIR.`);
  const dir = basename(target) === SEED_DIR ? target : join(target, SEED_DIR);
  if (existsSync(join(dir, "mindsave.db")))
    throw new UserError(`${dir} is a MindSave home (it holds mindsave.db); export to a workspace instead.`);
  if (existsSync(target) && !isDir(target)) throw new UserError(`${target} is not a directory.`);
  // At most the last folder of --out is made: a misspelled parent is a mistake, not a place to fill.
  if (!existsSync(target) && !existsSync(dirname(target)))
    throw new UserError(
      `The folder ${dirname(target)} does not exist; check --out ${out}, or create the folder first.`,
    );
  if (!existsSync(target) && !isDir(dirname(target)))
    throw new UserError(`${dirname(target)} is not a directory.`);
  if (isSymlink(dir))
    throw new UserError(
      `${dir} is a symbolic link; export does not write through links (remove it or export elsewhere with --out).`,
    );
  return { target, dir };
}

/** Write errors that say the folder cannot take the export (a sentence, not a crash). */
const UNWRITABLE = ["ENOENT", "EACCES", "EPERM", "EROFS", "ENOSPC", "ENOTDIR", "EEXIST", "EISDIR"];

/**
 * Writes one file of the export. Every file goes below .mindsave/, never through a link: a name or
 * a folder planted by someone else must not turn an export into a write somewhere else (a name is a
 * slug, but check anyway).
 */
function writeSeedFile({ target, dir }: ExportPlace, path: string, text: string): void {
  if (!staysInside(target, path) || !staysInside(dir, path))
    throw new UserError(
      `Refusing to write ${path}: it is outside ${dir} or reached through a symbolic link. Nothing after it was written.`,
    );
  try {
    writeFileAtomic(path, text);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (!code || !UNWRITABLE.includes(code)) throw e;
    throw new UserError(
      `Cannot write the export to ${dir} (${code}: ${(e as Error).message.replace(/^\w+: /, "")}); give --out a folder you can write.`,
    );
  }
}

/** One export under way: the project written, where, and its warnings so far. */
interface ExportRun {
  session: Session;
  projectId: string;
  place: ExportPlace;
  write: (path: string, text: string) => void;
  now: Date;
  warnings: string[];
}

/**
 * Writes the current project in the original's layout under `{out}/.mindsave/` (default: the
 * project's root on this host). Files for the same snapshots and failures are replaced; anything
 * else already there is left as it is, and tool logs only gain the calls not yet on disk.
 */
export async function exportSeed(session: Session, opts: { out?: string } = {}): Promise<ExportReport> {
  const ctx = await requireProject(session);
  const place = exportPlace(ctx.root, ctx.project.name, opts.out);
  const { dir } = place;
  const projectId = ctx.project.id;
  const run: ExportRun = {
    session,
    projectId,
    place,
    write: (path, text) => writeSeedFile(place, path, text),
    now: session.now(),
    warnings: [],
  };
  const records = await exportSnapshots(run);
  // The project it came from, so `mindsave import` of this folder goes back there (the original ignores it).
  const { id, name, created_at } = ctx.project;
  const index = writeIndex(run, records, { id, name, created_at });
  const counts = await exportFailures(run);
  const logs = await exportToolLogs(run);
  const { signal } = await readSignal(session);
  run.write(join(dir, "signal.json"), JSON.stringify(toSignalJson(signal), null, 2) + "\n");
  // Rules, facts and retirements: files the original ignores; written only when there are some.
  const memory = await memoryFiles(session.reader, projectId);
  for (const name of MEMORY_FILES)
    if (memory[name].length || existsSync(join(dir, name)))
      run.write(join(dir, name), JSON.stringify(memory[name], null, 2) + "\n");
  // The project's off switch goes with its memory: imported elsewhere, it stays off (see seed-off.ts).
  const off = await projectSwitch(session.reader, projectId);
  const offText = offFileText(off, dir);
  if (offText) run.write(join(dir, OFF_FILE), offText);

  return {
    dir,
    project: { id: projectId, name: ctx.project.name },
    snapshots: records.map((s) => s.name),
    index,
    failures: counts,
    tool_calls: logs.calls,
    tool_log_files: logs.files,
    signal: true,
    memory: {
      rules: memory["rules.json"].length,
      facts: memory["facts.json"].length,
      retired: memory["retired.json"].length,
    },
    off: off !== null,
    warnings: run.warnings,
  };
}

/** The project's snapshots, one file each; returns the records as exported (under their file names). */
async function exportSnapshots(run: ExportRun): Promise<SnapshotRecord[]> {
  const { session, warnings } = run;
  const summaries = await projectSnapshots(session, run.projectId);
  const stored: SnapshotRecord[] = [];
  for (const s of summaries) stored.push(await snapshotById(session, s.id));
  // Names stored before names were checked may still be unsafe: they are exported under a safe one.
  const records = uniqueFileNames(
    stored.map((r) => ({ ...r, name: safeName(r.name, r.id) })),
    warnings,
  );
  const snapDir = join(run.place.dir, "snapshots");
  refuseOverwrites(run.place, snapDir, records);

  const storedNames = new Map(stored.map((r) => [r.id, r.name]));
  const hostNames = new Map<string, string | undefined>();
  for (const s of records)
    if (!hostNames.has(s.saved_host))
      hostNames.set(s.saved_host, (await session.reader.getHost(s.saved_host))?.name);
  for (const s of records)
    run.write(
      join(snapDir, `${s.name}.md`),
      exportedSnapshotFile(s, storedNames.get(s.id), hostNames.get(s.saved_host)),
    );
  const names = new Set(records.map((s) => s.name));
  const strays = listDir(snapDir).filter(
    (f) => f.toLowerCase().endsWith(".md") && !names.has(f.replace(/\.md$/i, "")),
  );
  if (strays.length)
    warnings.push(
      `snapshots/ also holds ${strays.length} file(s) that are not in the store, left as they are and not in index.json: ${strays.join(", ")}.`,
    );
  return records;
}

/** Never overwrite a different snapshot that only exists on disk. */
function refuseOverwrites({ target, dir }: ExportPlace, snapDir: string, records: SnapshotRecord[]): void {
  const conflicts: string[] = [];
  for (const s of records) {
    const path = join(snapDir, `${s.name}.md`);
    if (!existsSync(path)) continue;
    const found = existingSnapshotIdentity(path);
    if (found && found.id === s.name && sameInstant(found.created, s.created_at)) continue;
    const inStore =
      found &&
      Number.isFinite(found.created) &&
      records.some((r) => sameInstant(r.created_at, found.created) && (!found.goal || r.goal === found.goal));
    if (!inStore) conflicts.push(`snapshots/${s.name}.md`);
  }
  if (conflicts.length) {
    throw new UserError(
      `${dir} already holds ${conflicts.join(", ")} with a different snapshot that is not in the store; import it first (\`mindsave import ${target}\`) or export elsewhere with --out.`,
    );
  }
}

/**
 * index.json: the newest INDEX_MAX snapshots, as the original lists them, and the project they came
 * from (with when it was made, which an import that makes the same project keeps).
 */
function writeIndex(
  run: ExportRun,
  records: SnapshotRecord[],
  from: { id: string; name: string; created_at: string },
): number {
  const index = records.slice(0, INDEX_MAX).map((s) => ({
    id: s.name,
    path: `${SEED_DIR}/snapshots/${s.name}.md`,
    created_at: s.created_at,
    goal: s.goal,
    active_files: s.active_files.map((f) => f.path),
    blocker: s.blocker,
    layers: layersOf(s),
    auto_trigger:
      s.auto_trigger && s.auto_trigger.reason !== undefined ? String(s.auto_trigger.reason) : null,
  }));
  run.write(
    join(run.place.dir, "index.json"),
    JSON.stringify({ snapshots: index, mindsave_project: from }, null, 2) + "\n",
  );
  return index.length;
}

/** Failure nodes: one file each, named as the original would, with the real name inside. */
async function exportFailures(run: ExportRun): Promise<{ project: number; global: number }> {
  const failures = await failuresFor(run.session, run.projectId);
  const counts = { project: 0, global: 0 };
  for (const scope of ["project", "global"] as const)
    counts[scope] = await exportFailureScope(
      run,
      scope,
      failures.filter((x) => x.scope === scope),
    );
  return counts;
}

/** The node files already in a scope's folder: each one's stem by the item it holds, and all stems in use. */
function nodeFilesOnDisk(scopeDir: string): { byItem: Map<string, string>; used: Set<string> } {
  const byItem = new Map<string, string>();
  const used = new Set<string>();
  for (const name of listDir(scopeDir)) {
    if (!name.toLowerCase().endsWith(".json")) continue;
    const stem = name.replace(/\.json$/i, "");
    used.add(stem.toLowerCase());
    let item = unslug(stem);
    try {
      const data = JSON.parse(readTextNoFollow(join(scopeDir, name))) as unknown;
      const named = isObj(data)
        ? [data.item, data.name].find((v) => typeof v === "string" && v.trim())
        : undefined;
      if (typeof named === "string") item = named.trim();
    } catch {
      // unreadable: keep the name from the file name
    }
    if (!byItem.has(normaliseItem(item))) byItem.set(normaliseItem(item), stem);
  }
  return { byItem, used };
}

/** One scope's failure nodes, each into the file that already holds it or a new one; returns how many. */
async function exportFailureScope(
  run: ExportRun,
  scope: "project" | "global",
  failures: FailureRecord[],
): Promise<number> {
  const scopeDir = join(run.place.dir, "failure_graph", scope);
  const { byItem, used } = nodeFilesOnDisk(scopeDir);
  const written = new Set<string>();
  let count = 0;
  for (const f of [...failures].sort((a, b) => compareText(a.item, b.item))) {
    let stem = byItem.get(normaliseItem(f.item));
    if (!stem) {
      const base = failureFileStem(f.item);
      stem = base;
      for (let n = 2; used.has(stem.toLowerCase()); n++) stem = `${base}-${n}`;
      used.add(stem.toLowerCase());
      byItem.set(normaliseItem(f.item), stem);
    }
    // Which host saw each repeat: an import elsewhere then counts none of them twice after a sync.
    const node = {
      item: f.item,
      ...toGraphEntry(f, run.now),
      _mindsave: { counts: await run.session.reader.failureCounts(f.id), clock: f.hlc },
    };
    run.write(join(scopeDir, `${stem}.json`), JSON.stringify(node, null, 2) + "\n");
    written.add(stem.toLowerCase());
    count++;
  }
  // Nodes of failures the store no longer has (forgotten here since an earlier export): an
  // import of this folder elsewhere would record them again, so they are named, as stray snapshots are.
  const stale = listDir(scopeDir).filter(
    (n) => n.toLowerCase().endsWith(".json") && !written.has(n.replace(/\.json$/i, "").toLowerCase()),
  );
  if (stale.length)
    run.warnings.push(
      `failure_graph/${scope}/ also holds ${stale.length} node(s) of failures that are not in the store (forgotten since an earlier export?), left as they are; an import of this folder would record them again: ${stale.join(", ")}.`,
    );
  return count;
}

/** The tool logs already on disk: each file's lines, and the key of every call they hold. */
function toolLogsOnDisk(logDir: string): { lines: Map<string, string[]>; calls: Set<string> } {
  const calls = new Set<string>();
  const existing = new Map<string, string[]>();
  for (const name of listDir(logDir)) {
    if (!name.toLowerCase().endsWith(".jsonl")) continue;
    let text: string;
    try {
      text = readTextNoFollow(join(logDir, name));
    } catch {
      continue;
    }
    const lines = text.split(/\r?\n/).filter((l) => l.trim());
    existing.set(name, lines);
    for (const line of lines) {
      try {
        const o = JSON.parse(line) as unknown;
        const parsed = isObj(o) ? toolCallFromLine(o, null) : null;
        if (parsed) calls.add(toolKey(parsed.call));
      } catch {
        // not a call
      }
    }
  }
  return { lines: existing, calls };
}

type LogLine = { ts: string; line: string };

/** Tool logs by day; a call already in any log on disk is not written again. */
async function exportToolLogs(run: ExportRun): Promise<{ calls: number; files: string[] }> {
  const logDir = join(run.place.dir, "tool_logs");
  const onDisk = toolLogsOnDisk(logDir);
  const calls = await recentToolCalls(run.session, run.projectId, Number.MAX_SAFE_INTEGER);
  const byDay = new Map<string, LogLine[]>();
  for (const c of calls) {
    if (onDisk.calls.has(toolKey(c))) continue;
    const day = /^\d{4}-\d{2}-\d{2}/.test(c.timestamp) ? c.timestamp.slice(0, 10) : "undated";
    const line: Obj = { timestamp: c.timestamp, action: c.action, target: c.target, summary: c.summary };
    if (c.tool && c.tool !== c.action) line.tool = c.tool;
    if (c.session_id) line.session_id = c.session_id;
    if (!byDay.has(day)) byDay.set(day, []);
    byDay.get(day)!.push({ ts: c.timestamp, line: JSON.stringify(line) });
  }
  const files: string[] = [];
  for (const [day, lines] of byDay) {
    const name = `${day}.jsonl`;
    const old = (onDisk.lines.get(name) ?? []).map((line): LogLine => {
      try {
        const o = JSON.parse(line) as Obj;
        return { ts: String(o.timestamp ?? ""), line };
      } catch {
        return { ts: "", line };
      }
    });
    const all = [...old, ...lines].sort((a, b) => (instant(a.ts) || 0) - (instant(b.ts) || 0));
    run.write(join(logDir, name), all.map((l) => l.line).join("\n") + "\n");
    files.push(`tool_logs/${name}`);
  }
  return { calls: [...byDay.values()].reduce((n, l) => n + l.length, 0), files: files.sort() };
}
