// Reading the original's snapshots: index.json, older field names, and one snapshot file
// (`parseSnapshotFile`, or its head and then its body) into the engine's input; its failure graph
// is read by seed-read-failure-graph.ts.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { UserError } from "../../errors.ts";
import { isAbsoluteAny, normaliseRelative } from "../projects/paths.ts";
import { redact, redactDeep } from "../snapshots/redact.ts";
import { stripControl } from "../snapshots/input-limits.ts";
import { SNAPSHOT_VERSION, type ExportedRecord } from "../snapshots/save.ts";
import { HOST_ID } from "../home/host.ts";
import {
  checkFrontMatter,
  fromFields,
  parseSnapshotText,
  parseStatus,
  splitFrontMatter,
  type SnapshotInput,
} from "../snapshots/input.ts";
import type { StoredFile } from "../../store/store.ts";
import { normaliseGraph } from "./seed-read-failure-graph.ts";
import { asStrings, instant, isObj, readJson, RECORD_CLOCK, RECORD_ID, type Obj } from "./seed-layout.ts";

/** Older versions' names for the spec's fields (the first one present is used). */
export const FIELD_ALIASES: Record<string, string[]> = {
  snapshot_id: ["id", "snapshotId"],
  created_at: ["created", "timestamp", "createdAt", "saved_at", "savedAt", "date"],
  goal: ["task_goal", "taskGoal", "title", "task", "objective"],
  state: ["current_state", "currentState"],
  next_action: ["next", "next_step", "nextAction", "nextStep", "next_steps", "nextSteps"],
  active_files: ["files", "activeFiles", "active_file", "activeFile"],
  blocker: ["blockers", "blocked_by", "blockedBy"],
  constraints: ["constraint"],
  decisions: ["decision", "key_decisions"],
  excluded_paths: ["excluded", "failed_approaches", "failedApproaches", "excludedPaths"],
  failure_graph: ["failureGraph"],
  auto_trigger: ["autoTrigger"],
};

const TEXT_FIELDS = ["goal", "state", "next_action", "blocker"] as const;

/** The topic inside an id `{topic}_{YYYY-MM-DD|YYYYMMDD}[_HHMMSS][-N]`, or undefined. */
export function topicFromId(id: string): string | undefined {
  const m = /^(?:OVF_)?(.+?)_(?:\d{4}-\d{2}-\d{2}|\d{8})(?:[_T]\d{4,6})?(?:-\d+)?$/u.exec(id);
  // Longer than a topic may be (the SDK allows 40 characters): the engine's slug shortens it.
  const topic = m?.[1];
  return topic && /^[\p{L}\p{N}\p{M}_]+$/u.test(topic) ? topic : undefined;
}

const SAFE_ID = /^[\p{L}\p{N}\p{M}_][\p{L}\p{N}\p{M}_.-]{0,119}$/u;

export interface IndexInfo {
  byId: Map<string, Obj>;
  byFile: Map<string, Obj>;
  /** Workspace roots on the writing host, from the original's absolute index paths. */
  origRoots: string[];
  entries: Obj[];
}

export function readIndex(dir: string, warnings: string[]): IndexInfo {
  const info: IndexInfo = { byId: new Map(), byFile: new Map(), origRoots: [], entries: [] };
  const path = join(dir, "index.json");
  if (!existsSync(path)) return info;
  const data = readJson(path, "index.json", warnings);
  if (data === undefined) return info;
  const list = Array.isArray(data)
    ? data
    : isObj(data) && Array.isArray(data.snapshots)
      ? data.snapshots
      : null;
  if (!list) {
    warnings.push('index.json has no "snapshots" list; the snapshot files are imported without it.');
    return info;
  }
  const roots = new Set<string>();
  for (const e of list) {
    if (!isObj(e)) continue;
    info.entries.push(e);
    if (typeof e.id === "string") info.byId.set(e.id, e);
    if (typeof e.path === "string" && e.path) {
      const p = e.path.replace(/\\/g, "/");
      info.byFile.set(p.split("/").pop()!, e);
      const m = /^(.*)\/\.mindsave\/snapshots\/[^/]+$/.exec(p);
      if (m && isAbsoluteAny(p)) roots.add(m[1]);
    }
  }
  info.origRoots = [...roots].sort((a, b) => b.length - a.length);
  return info;
}

/**
 * An active file in the stored form, whatever folder it is imported from: a relative one as it
 * is (relative to the project root, as the spec and `mindsave export` write it), the writing
 * host's absolute paths under its workspace made relative to it, any other absolute path as it is.
 */
function storedActiveFile(f: string, origRoots: string[]): string {
  const raw = f.trim();
  if (!isAbsoluteAny(raw)) return normaliseRelative(raw);
  const norm = raw.replace(/\\/g, "/");
  for (const o of origRoots) {
    const windows = /^[A-Za-z]:\//.test(o);
    const [a, b] = windows ? [norm.toLowerCase(), o.toLowerCase()] : [norm, o];
    if (a === b) return ".";
    if (a.startsWith(b + "/")) return normaliseRelative(norm.slice(o.length + 1));
  }
  return norm;
}

export interface ParsedSnapshot {
  file: string;
  id: string;
  createdAt: Date;
  input: SnapshotInput;
  overflow: boolean;
  warnings: string[];
  /** From MindSave's own export: the record it was (and its stored name when exported under another). */
  record?: ExportedRecord & { name?: string; hostName?: string };
}

/** A snapshot file read but for its body: the front matter mapped to the spec's fields, its id and time. */
interface SnapshotHead {
  file: string;
  id: string;
  createdAt: Date;
  warnings: string[];
  data: Obj;
  kept: Obj;
  marker: Obj | null;
  topic: string | undefined;
}

/** Reads one snapshot file; throws a UserError naming what is wrong when it cannot be imported. */
export function parseSnapshotFile(
  text: string,
  file: string,
  index: IndexInfo,
  fileTime: Date,
): ParsedSnapshot {
  return withBody(readSnapshotHead(text, file, index, fileTime), text, index);
}

/** An ISO time with its zone, alone on a top-level `created_at:` line (quoted or not). */
const CREATED_AT_LINE =
  /^created_at:[ \t]+(["']?)(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))\1[ \t]*$/m;

/**
 * The time a snapshot file was saved, read from its front matter without parsing the YAML, when
 * one line decides it: `created_at` appears once, on a line of its own at column 0 with an ISO time
 * that names its zone. Such a line is always a top-level key (the YAML parser refuses a quoted or
 * flow value continued at column 0), and the key's value is what `readSnapshotHead` uses first.
 * Otherwise undefined: the caller reads the head. Import orders its files by this time and checks
 * it against the whole reading of each file.
 */
export function quickCreatedAt(text: string): number | undefined {
  const { yaml: front, hasFrontMatter } = splitFrontMatter(text);
  if (!hasFrontMatter || front.indexOf("created_at") !== front.lastIndexOf("created_at")) return undefined;
  const m = CREATED_AT_LINE.exec(front);
  const at = m ? Date.parse(m[2]) : NaN;
  return Number.isFinite(at) ? at : undefined;
}

/** The front matter's mapping, redacted as read; throws a UserError naming what is wrong. */
function frontMatterData(text: string, where: string): Obj {
  const { yaml: front } = splitFrontMatter(text);
  checkFrontMatter(front, where);
  const doc = parseDocument(front, { uniqueKeys: false });
  if (doc.errors.length) {
    parseSnapshotText(text, where); // throws the engine's sentence, with the line
    throw new UserError(`${where} is not valid YAML: ${doc.errors[0].message.split("\n")[0]}`);
  }
  const parsed = doc.toJS() as unknown;
  if (!isObj(parsed))
    throw new UserError(
      `${where} has no snapshot fields (expected YAML front matter with goal, state, next_action, …).`,
    );
  return redactDeep({ ...parsed });
}

/**
 * An older version's `next_steps` list is a plan: its steps pending, the first one the next action
 * (joined into one text it said no step's order, and no restore showed its progress).
 */
function readNextSteps(data: Obj, where: string, warnings: string[]): void {
  const key = ["next_steps", "nextSteps"].find((k) => Array.isArray(data[k]));
  if (!key || data.plan !== undefined || data.next_action !== undefined) return;
  const steps = asStrings(data[key] as unknown[]).filter((x) => x.trim());
  delete data[key];
  if (!steps.length) return;
  data.plan = steps;
  data.next_action = steps[0];
  warnings.push(
    `${where}: read ${key} (${steps.length} steps) as the plan; its first step is the next action.`,
  );
}

// The original's body sections that hold Layer 2 (the preferences the spec says to always save).
const CONSTRAINT_SECTION = /^(?:key context|important|constraints?)$/i;
const DECISION_SECTION = /^(?:decisions?|key decisions)$/i;

/** The list items of a body's `## Key Context`, `## Important`, `## Constraints` and `## Decisions` sections. */
function bodyLayerTwo(body: string): { constraints: string[]; decisions: string[] } {
  const out = { constraints: [] as string[], decisions: [] as string[] };
  let into: string[] | null = null;
  for (const line of body.split("\n")) {
    const heading = /^#{2,4}\s+(.+?)\s*$/.exec(line);
    if (heading) {
      const name = heading[1];
      into = CONSTRAINT_SECTION.test(name)
        ? out.constraints
        : DECISION_SECTION.test(name)
          ? out.decisions
          : null;
      continue;
    }
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.+?)\s*$/.exec(line);
    if (into && item) into.push(item[1]);
  }
  return out;
}

/** The body's Layer 2 sections added to the front matter's constraints and decisions (each once). */
function liftBodyLayerTwo(input: SnapshotInput, body: string, where: string, warnings: string[]): void {
  const { constraints, decisions } = bodyLayerTwo(body);
  const fresh = (have: string[], more: string[]) => more.filter((x) => !have.includes(x));
  const c = fresh(input.constraints, constraints);
  const d = fresh(input.decisions, decisions);
  if (!c.length && !d.length) return;
  input.constraints = [...input.constraints, ...c];
  input.decisions = [...input.decisions, ...d];
  warnings.push(
    `${where}: read the body's context sections into Layer 2 (${c.length} constraint(s), ${d.length} decision(s)).`,
  );
}

/** A field under an older version's name is moved to the spec's name. */
function mapOlderNames(data: Obj, where: string, warnings: string[]): void {
  const mapped: string[] = [];
  for (const [field, aliases] of Object.entries(FIELD_ALIASES)) {
    if (data[field] !== undefined) continue;
    const alias = aliases.find((a) => data[a] !== undefined && data[a] !== null);
    if (!alias) continue;
    data[field] = data[alias];
    delete data[alias];
    mapped.push(`${alias} → ${field}`);
  }
  if (mapped.length) warnings.push(`${where}: read older field names as the spec's: ${mapped.join(", ")}.`);
}

/** goal, state, next_action and blocker are one text each: a list is joined, a mapping kept as JSON. */
function flattenTextFields(data: Obj, where: string, warnings: string[]): void {
  for (const field of TEXT_FIELDS) {
    const v = data[field];
    if (Array.isArray(v)) {
      data[field] = asStrings(v).join("; ");
      if (v.length > 1) warnings.push(`${where}: ${field} was a list of ${v.length}; joined with "; ".`);
    } else if (isObj(v)) {
      data[field] = JSON.stringify(v);
      warnings.push(`${where}: ${field} was a mapping; kept as its JSON text.`);
    }
  }
}

/** A status the engine does not know is kept aside (original_status); the engine derives one. */
function readStatus(data: Obj, kept: Obj, where: string, warnings: string[]): void {
  if (data.status === undefined || data.status === null) return;
  try {
    data.status = parseStatus(data.status);
  } catch {
    kept.original_status = data.status;
    warnings.push(
      `${where}: status ${JSON.stringify(data.status)} is not in_progress, completed or blocked; kept as original_status and derived from the blocker.`,
    );
    delete data.status;
  }
}

/** auto_trigger as a mapping: a plain text is its reason; anything else is kept aside. */
function readAutoTrigger(data: Obj, kept: Obj, where: string, warnings: string[]): void {
  if (data.auto_trigger === undefined || data.auto_trigger === null || isObj(data.auto_trigger)) return;
  if (typeof data.auto_trigger === "string" && data.auto_trigger.trim())
    data.auto_trigger = { reason: data.auto_trigger.trim() };
  else {
    kept.original_auto_trigger = data.auto_trigger;
    delete data.auto_trigger;
    warnings.push(`${where}: auto_trigger is not a mapping; kept as original_auto_trigger.`);
  }
}

/** failure_graph as a mapping (see normaliseGraph), and `_compressed` parsed when it is JSON text. */
function readLayerTwo(data: Obj, kept: Obj, where: string, warnings: string[]): void {
  if (data.failure_graph !== undefined) {
    const graph = normaliseGraph(data.failure_graph, data, kept, warnings, where);
    if (graph) data.failure_graph = graph;
    else delete data.failure_graph;
  }
  // The v3.5 SDK writes _compressed as JSON text in a block scalar.
  if (typeof data._compressed === "string") {
    try {
      data._compressed = JSON.parse(data._compressed);
    } catch {
      // kept as text
    }
  }
}

/** The id: the file's, else the index's entry for this file, else the file name; made safe as a file name. */
function snapshotId(
  data: Obj,
  entry: Obj | undefined,
  file: string,
  where: string,
  warnings: string[],
): string {
  // The index's id and the file name are redacted too: a re-import finds the snapshot by this id.
  const id = redact(
    data.snapshot_id !== undefined && data.snapshot_id !== null && String(data.snapshot_id).trim()
      ? String(data.snapshot_id).trim()
      : typeof entry?.id === "string" && entry.id.trim()
        ? entry.id.trim()
        : file.replace(/\.md$/i, ""),
  );
  if (SAFE_ID.test(id)) return id;
  const safe =
    id
      .normalize("NFC")
      .replace(/[^\p{L}\p{N}\p{M}_.-]+/gu, "_")
      .replace(/^[._-]+/, "")
      .slice(0, 120) || "snapshot";
  warnings.push(`${where}: snapshot_id ${JSON.stringify(id)} cannot be a file name; imported as ${safe}.`);
  return safe;
}

/** When it was saved: the file's created_at, else the index's, else the file's modification time. */
function snapshotTime(
  data: Obj,
  entry: Obj | undefined,
  fileTime: Date,
  kept: Obj,
  where: string,
  warnings: string[],
): Date {
  if (Number.isFinite(instant(data.created_at))) return new Date(instant(data.created_at));
  if (Number.isFinite(instant(entry?.created_at))) return new Date(instant(entry!.created_at));
  warnings.push(
    `${where}: no readable created_at${data.created_at !== undefined ? ` (${JSON.stringify(data.created_at)})` : ""}; used the file's modification time ${fileTime.toISOString()}.`,
  );
  if (data.created_at !== undefined && data.created_at !== null) kept.original_created_at = data.created_at;
  return fileTime;
}

/** A version other than the engine's, in a file not of MindSave's own export, is kept as original_version. */
function keepOtherVersion(data: Obj, marker: Obj | null, kept: Obj): void {
  if (
    !marker &&
    data.version !== undefined &&
    data.version !== null &&
    String(data.version) !== SNAPSHOT_VERSION
  )
    kept.original_version = String(data.version);
  delete data.version;
}

/**
 * Our export keeps the constraints as written when the engine had compressed them: the engine
 * compresses them again on save, to the same result. In our own export `_compressed` (folded
 * groups, contradictions) is derived: the save recomputes it.
 */
function readExportedConstraints(data: Obj, marker: Obj | null): void {
  if (!marker) return;
  if (Array.isArray(marker.original_constraints)) data.constraints = marker.original_constraints;
  if (marker.derived_compressed === true || Array.isArray(marker.original_constraints))
    delete data._compressed;
}

/** The topic: our export's, else none when the file names one (the engine reads it), else the id's. */
function headTopic(marker: Obj | null, data: Obj, id: string): string | undefined {
  if (typeof marker?.topic === "string") return marker.topic.replace(/^OVF_/, "");
  return typeof data.topic === "string" ? undefined : topicFromId(id);
}

/** The head of one snapshot file (all of it but the body); throws a UserError naming what is wrong. */
export function readSnapshotHead(text: string, file: string, index: IndexInfo, fileTime: Date): SnapshotHead {
  const where = `snapshots/${file}`;
  const warnings: string[] = [];
  const data = frontMatterData(text, where);
  // Values import moved aside (each named in its own warning), added to the snapshot's extra.
  const kept: Obj = {};

  // Written by `mindsave export`: canonical names, plus what the spec's fields cannot carry.
  const marker = isObj(data._mindsave) ? data._mindsave : null;
  delete data._mindsave;
  if (!marker) readNextSteps(data, where, warnings);
  if (!marker) mapOlderNames(data, where, warnings);
  flattenTextFields(data, where, warnings);
  readStatus(data, kept, where, warnings);
  readAutoTrigger(data, kept, where, warnings);
  readLayerTwo(data, kept, where, warnings);

  const entry =
    index.byFile.get(file) ??
    (typeof data.snapshot_id === "string" ? index.byId.get(data.snapshot_id) : undefined);
  const id = snapshotId(data, entry, file, where, warnings);
  delete data.snapshot_id;
  const createdAt = snapshotTime(data, entry, fileTime, kept, where, warnings);
  delete data.created_at;
  keepOtherVersion(data, marker, kept);
  if (!data.goal && typeof entry?.goal === "string" && entry.goal.trim()) {
    data.goal = entry.goal.trim();
    warnings.push(`${where}: no goal in the file; took the one in index.json.`);
  }
  readExportedConstraints(data, marker);
  const topic = headTopic(marker, data, id);
  return { file: where, id, createdAt, warnings, data, kept, marker, topic };
}

/** The whole snapshot: its head and the body of `text` (the same file's text). */
function withBody(head: SnapshotHead, text: string, index: IndexInfo): ParsedSnapshot {
  const { file: where, id, createdAt, warnings, data, kept, marker, topic } = head;
  const { body: rawBody } = splitFrontMatter(text);
  // Redacted as read, before it is joined with any field (which could break a secret up past
  // recognition); the save redacts again, finding nothing more.
  const body = redact(rawBody);
  const input = fromFields(data, body);
  // Our own export's extra fields were named when they were first saved; do not repeat that.
  for (const w of input.warnings)
    if (!(marker && w.startsWith("Kept fields"))) warnings.push(`${where}: ${w}`);
  input.warnings = [];
  if (!marker) liftBodyLayerTwo(input, body, where, warnings);
  for (const [k, v] of Object.entries(kept)) if (!(k in input.extra)) input.extra[k] = v;
  if (topic) input.topic = topic;
  if (typeof marker?.agent === "string" && marker.agent.trim())
    input.agent = marker.agent.trim().slice(0, 64);
  // A file without a plan had none: an import never borrows the previous snapshot's.
  if (input.plan === undefined) input.plan = null;
  readPlanTimes(input, marker);
  input.active_files = input.active_files.map((f) => storedActiveFile(f, index.origRoots));
  const overflow = (marker ? marker.kind === "overflow" : id.startsWith("OVF_")) && layerOneOnly(input);
  return { file: where, id, createdAt, input, overflow, warnings, record: exportedRecord(marker) };
}

/** Our export's times of the plan's steps (one per step; anything else is no time). */
function readPlanTimes(input: SnapshotInput, marker: Obj | null): void {
  const times = marker?.plan_times;
  if (input.plan && Array.isArray(times) && times.length === input.plan.length) {
    input.plan_times = times.map((t) =>
      typeof t === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,3})?Z$/.test(t) ? t : null,
    );
  }
}

/** Whether the snapshot holds Layer 1 only (what an overflow snapshot may hold). */
function layerOneOnly(input: SnapshotInput): boolean {
  return (
    !input.constraints.length &&
    !input.decisions.length &&
    !Object.keys(input.failure_graph).length &&
    !input.excluded_paths.length &&
    !input.layer3
  );
}

/** The active files' fingerprints as our export writes them; undefined when one is not a file entry. */
function exportedFingerprints(files: unknown[]): StoredFile[] | undefined {
  const fingerprints: StoredFile[] = [];
  for (const f of files) {
    if (!isObj(f) || typeof f.path !== "string") return undefined;
    const fp: StoredFile = { path: f.path };
    if (Number.isSafeInteger(f.size) && (f.size as number) >= 0) fp.size = f.size as number;
    if (Number.isSafeInteger(f.mtime)) fp.mtime = f.mtime as number;
    if (typeof f.sha256 === "string" && /^[0-9a-f]{64}$/.test(f.sha256)) fp.sha256 = f.sha256;
    fingerprints.push(fp);
  }
  return fingerprints;
}

/** The record id and clock `mindsave export` writes, when both are well formed. */
function exportedRecord(marker: Obj | null): ParsedSnapshot["record"] {
  if (!marker) return undefined;
  const { record, clock, saved_host: host, files, digest } = marker;
  if (
    typeof record !== "string" ||
    !RECORD_ID.test(record) ||
    typeof clock !== "string" ||
    !RECORD_CLOCK.test(clock)
  )
    return undefined;
  if (
    typeof host !== "string" ||
    !HOST_ID.test(host) ||
    typeof digest !== "string" ||
    !/^[0-9a-f]{32}$/.test(digest) ||
    !Array.isArray(files)
  )
    return undefined;
  const fingerprints = exportedFingerprints(files);
  if (!fingerprints) return undefined;
  const name = typeof marker.name === "string" && marker.name.trim() ? marker.name.trim() : undefined;
  const hostName =
    typeof marker.saved_host_name === "string"
      ? redact(stripControl(marker.saved_host_name)).trim().slice(0, 200) || undefined
      : undefined;
  return { id: record, clock, savedHost: host, files: fingerprints, digest, name, hostName };
}
