// The original MindSave skill's on-disk format, both ways. `importSeed` reads a workspace's
// `.mindsave/` as the original skill and SDK write it (snapshots/*.md, index.json,
// failure_graph/{project,global}/*.json, ~/.mindsave/global/*.json, tool_logs/*.jsonl,
// signal.json) into the store; `exportSeed` writes a project back in that layout, with relative
// paths and every field, so the original can read it and a round trip loses nothing.
// Older field names are mapped when they can be identified; everything else is kept (in a
// snapshot's `extra`) or named in a warning, never dropped silently.
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parseDocument } from "yaml";
import { UserError } from "../../errors.ts";
import { failuresFor, projectSnapshots, snapshotById } from "../snapshots/catalog.ts";
import { derivedConfidence, normaliseItem, observeFailure, toGraphEntry, type FailureObservation } from "../failures/graph.ts";
import { localHomeDir } from "../home/home.ts";
import { isAbsoluteAny } from "../projects/paths.ts";
import { saveSnapshot, SNAPSHOT_VERSION } from "../snapshots/save.ts";
import {
  COMPLEXITY_MULTIPLIER, CRITICAL_RANGE, GROWTH_MULTIPLIER, WARNING_RANGE,
  readSignal, toSignalJson, updateSignal, type Complexity, type Growth, type SignalState,
} from "../agents/signal.ts";
import { fromFields, parseSnapshotText, parseStatus, splitFrontMatter, type SnapshotInput } from "../snapshots/input.ts";
import { snapshotFile } from "../snapshots/manage.ts";
import { actionFor, appendToolCalls, recentToolCalls, type ToolCallInput } from "../agents/toollog.ts";
import type { Session } from "../session.ts";
import type { FailureGraphEntry, FailureRecord, SnapshotRecord } from "../../store/store.ts";
import { isDir, listDir, writeFileAtomic } from "../../lib/fs.ts";

export const SEED_DIR = ".mindsave";
/** The original keeps at most this many snapshots in index.json. */
export const INDEX_MAX = 20;
const NO_REASON = "(no reason recorded)";
/** Entries of a `.mindsave/` folder that import understands or knowingly leaves alone. */
const KNOWN_ENTRIES = new Set(["snapshots", "index.json", "signal.json", "failure_graph", "tool_logs", "project.json", "l3_index.json"]);
/** Parts of the original's layout MindSave has no place for: named in a warning, not imported. */
const NOT_KEPT: Record<string, string> = {
  execution_graphs: "MindSave keeps no execution DAGs",
  workspace_snap: "MindSave keeps no workspace copies",
};

export interface SeedLocation {
  /** The workspace root (the folder holding `.mindsave/`). */
  root: string;
  /** The `.mindsave/` folder itself. */
  dir: string;
}

export interface ImportReport {
  source: string;
  root: string;
  project: { id: string; name: string } | null;
  snapshots: { imported: string[]; skipped: string[]; failed: { file: string; reason: string }[] };
  failures: { imported: number; skipped: number };
  tool_calls: { imported: number; skipped: number };
  /** imported: applied to the project's signal; unchanged: already there; older: the store's is newer; absent: no signal.json. */
  signal: "imported" | "unchanged" | "older" | "absent";
  warnings: string[];
}

export interface ExportReport {
  dir: string;
  project: { id: string; name: string };
  snapshots: string[];
  index: number;
  failures: { project: number; global: number };
  tool_calls: number;
  tool_log_files: string[];
  signal: boolean;
  warnings: string[];
}

// ───────────────────────────── small helpers ─────────────────────────────

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);



function mtime(p: string): Date {
  try {
    return new Date(statSync(p).mtimeMs);
  } catch {
    return new Date();
  }
}

function instant(v: unknown): number {
  if (v instanceof Date) return v.getTime();
  if (typeof v === "number") return v;
  if (typeof v !== "string") return NaN;
  const s = v.trim();
  if (!s) return NaN;
  // The original's ids and logs use YYYYMMDD; Date.parse does not.
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  return Date.parse(compact ? `${compact[1]}-${compact[2]}-${compact[3]}` : s);
}

const sameInstant = (a: unknown, b: unknown) => {
  const x = instant(a);
  return Number.isFinite(x) && x === instant(b);
};

function readJson(path: string, label: string, warnings: string[]): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    warnings.push(`${label}: cannot be read (${(e as Error).message}); not imported.`);
    return undefined;
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    warnings.push(`${label}: not valid JSON (${(e as Error).message}); not imported.`);
    return undefined;
  }
}

const asStrings = (v: unknown): string[] =>
  v === null || v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x) => (typeof x === "string" ? x : JSON.stringify(x))).map((s) => s.trim()).filter(Boolean);

/** The original's `_safe_id`: ASCII letters and digits, `_` for the rest, 40 characters. */
export function originalSafeId(name: string): string {
  return name.replace(/[^a-zA-Z0-9]/g, "_").slice(0, 40).replace(/_+/g, "_").replace(/^_+|_+$/g, "");
}

/** A failure node's file name: the original's for ASCII names (so it finds the node), letters of any script otherwise. */
export function failureFileStem(item: string): string {
  if (/^[\x20-\x7e]*$/.test(item)) return originalSafeId(item) || "unknown";
  const s = [...item.normalize("NFC").replace(/[^\p{L}\p{N}\p{M}]+/gu, "_").replace(/^_+|_+$/g, "")].slice(0, 40).join("");
  return s.replace(/_+$/g, "") || "unknown";
}

/** The original rebuilds a node's name from its file name (`_` → space); the best we can do without an `item` field. */
export function unslug(stem: string): string {
  return stem.replace(/_+/g, " ").trim() || stem;
}

// ───────────────────────────── locating ─────────────────────────────

/** DIR may be the workspace root or its `.mindsave/` folder. */
export function locateSeed(input: string): SeedLocation {
  const abs = resolve(input);
  if (!isDir(abs)) throw new UserError(`${abs} is not a directory; give the workspace root or its .mindsave folder.`);
  const dir = basename(abs) === SEED_DIR ? abs : join(abs, SEED_DIR);
  if (!isDir(dir)) throw new UserError(`${abs} has no .mindsave folder; give the workspace root that holds the original MindSave's .mindsave/ (or that folder itself).`);
  if (existsSync(join(dir, "mindsave.db"))) throw new UserError(`${dir} is a MindSave home (it holds mindsave.db), not a workspace's .mindsave folder.`);
  return { root: dirname(dir), dir };
}

// ───────────────────────────── snapshots: reading ─────────────────────────────

/** Older versions' names for the spec's fields (the first one present is used). */
const FIELD_ALIASES: Record<string, string[]> = {
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

const WHO: Record<string, "user" | "system"> = {
  user: "user", human: "user", developer: "user", me: "user", owner: "user",
  system: "system", ai: "system", agent: "system", assistant: "system", model: "system", test: "system", tests: "system",
  ci: "system", bot: "system", tool: "system", build: "system", compiler: "system", linter: "system",
};
const SCOPES: Record<string, "project" | "global"> = { project: "project", local: "project", global: "global", shared: "global", "cross-platform": "global" };
const CONFIDENCE = new Set(["high", "medium", "low"]);

/**
 * One failure-graph entry in the engine's terms: who/scope/confidence synonyms mapped, lists as
 * lists; a value that cannot be mapped is kept in the entry as `original_<field>`, with a warning.
 */
function normaliseEntry(item: string, raw: unknown, warnings: string[], where: string): FailureGraphEntry {
  const e: FailureGraphEntry = isObj(raw) ? { ...raw } : raw === null || raw === undefined ? {} : { reason: String(raw) };
  const fix = (field: "rejected_by" | "scope" | "confidence", map: (s: string) => string | undefined) => {
    const v = e[field];
    if (v === undefined || v === null || v === "") {
      delete e[field];
      return;
    }
    const mapped = map(String(v).trim().toLowerCase());
    if (mapped) e[field] = mapped;
    else {
      delete e[field];
      e[`original_${field}`] = v;
      warnings.push(`${where}: failure ${JSON.stringify(item)} has ${field} ${JSON.stringify(v)}, which MindSave does not know; kept as original_${field}.`);
    }
  };
  fix("rejected_by", (s) => WHO[s]);
  fix("scope", (s) => SCOPES[s]);
  fix("confidence", (s) => (CONFIDENCE.has(s) ? s : undefined));
  for (const list of ["related", "alternatives"] as const) if (e[list] !== undefined) e[list] = asStrings(e[list]);
  if (e.repeat_count !== undefined && typeof e.repeat_count !== "number" && Number.isFinite(Number(e.repeat_count))) e.repeat_count = Number(e.repeat_count);
  return e;
}

/** failure_graph as a mapping, whatever the version wrote: JSON text (the v3.5 SDK), a list, or a mapping. */
function normaliseGraph(v: unknown, data: Obj, kept: Obj, warnings: string[], where: string): Record<string, FailureGraphEntry> | undefined {
  if (v === undefined || v === null || v === "") return undefined;
  let value: unknown = v;
  if (typeof v === "string") {
    try {
      value = JSON.parse(v);
    } catch {
      const doc = parseDocument(v);
      if (doc.errors.length || !isObj(doc.toJS())) {
        kept.failure_graph_text = v;
        warnings.push(`${where}: failure_graph is neither JSON nor YAML; kept as text in failure_graph_text.`);
        return undefined;
      }
      value = doc.toJS();
    }
  }
  const out: Record<string, FailureGraphEntry> = {};
  if (Array.isArray(value)) {
    const rest: unknown[] = [];
    for (const x of value) {
      const name = isObj(x) ? x.item ?? x.name : undefined;
      if (typeof name === "string" && name.trim()) {
        const { item: _i, name: _n, ...entry } = x as Obj;
        out[name.trim()] = normaliseEntry(name.trim(), entry, warnings, where);
      } else if (typeof x === "string" && x.trim()) {
        rest.push(x);
      } else {
        rest.push(x);
      }
    }
    if (rest.length) {
      // Plain lines are the legacy flat list.
      const lines = rest.filter((x): x is string => typeof x === "string");
      if (lines.length) data.excluded_paths = [...asStrings(data.excluded_paths), ...lines];
      const odd = rest.filter((x) => typeof x !== "string");
      if (odd.length) {
        kept.failure_graph_unrecognised = odd;
        warnings.push(`${where}: ${odd.length} failure_graph entr${odd.length === 1 ? "y has" : "ies have"} no item name; kept in failure_graph_unrecognised.`);
      }
    }
    return out;
  }
  if (!isObj(value)) {
    kept.failure_graph_text = v;
    warnings.push(`${where}: failure_graph is not a mapping of item → {reason, …}; kept in failure_graph_text.`);
    return undefined;
  }
  for (const [item, entry] of Object.entries(value)) if (item.trim()) out[item.trim()] = normaliseEntry(item.trim(), entry, warnings, where);
  return out;
}

/** The topic inside an id `{topic}_{YYYY-MM-DD|YYYYMMDD}[_HHMMSS][-N]`, or undefined. */
export function topicFromId(id: string): string | undefined {
  const m = /^(?:OVF_)?(.+?)_(?:\d{4}-\d{2}-\d{2}|\d{8})(?:[_T]\d{4,6})?(?:-\d+)?$/u.exec(id);
  // Longer than a topic may be (the SDK allows 40 characters): the engine's slug shortens it.
  const topic = m?.[1];
  return topic && /^[\p{L}\p{N}\p{M}_]+$/u.test(topic) ? topic : undefined;
}

const SAFE_ID = /^[\p{L}\p{N}\p{M}_][\p{L}\p{N}\p{M}_.-]{0,119}$/u;

interface IndexInfo {
  byId: Map<string, Obj>;
  byFile: Map<string, Obj>;
  /** Workspace roots on the writing host, from the original's absolute index paths. */
  origRoots: string[];
  entries: Obj[];
}

function readIndex(dir: string, warnings: string[]): IndexInfo {
  const info: IndexInfo = { byId: new Map(), byFile: new Map(), origRoots: [], entries: [] };
  const path = join(dir, "index.json");
  if (!existsSync(path)) return info;
  const data = readJson(path, "index.json", warnings);
  if (data === undefined) return info;
  const list = Array.isArray(data) ? data : isObj(data) && Array.isArray(data.snapshots) ? data.snapshots : null;
  if (!list) {
    warnings.push("index.json has no \"snapshots\" list; the snapshot files are imported without it.");
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

/** An active file as the engine takes it: relative ones from the root, the writing host's absolute paths rebased onto this root. */
function rebaseActiveFile(f: string, root: string, origRoots: string[]): string {
  const raw = f.trim();
  if (!isAbsoluteAny(raw)) return resolve(root, raw.replace(/\\/g, "/"));
  const norm = raw.replace(/\\/g, "/");
  for (const o of origRoots) {
    const windows = /^[A-Za-z]:\//.test(o);
    const [a, b] = windows ? [norm.toLowerCase(), o.toLowerCase()] : [norm, o];
    if (a === b) return root;
    if (a.startsWith(b + "/")) return resolve(root, norm.slice(o.length + 1));
  }
  return raw;
}

interface ParsedSnapshot {
  file: string;
  id: string;
  createdAt: Date;
  input: SnapshotInput;
  overflow: boolean;
  warnings: string[];
}

/** Reads one snapshot file; throws a UserError naming what is wrong when it cannot be imported. */
function parseSnapshotFile(text: string, file: string, loc: SeedLocation, index: IndexInfo, fileTime: Date): ParsedSnapshot {
  const where = `snapshots/${file}`;
  const warnings: string[] = [];
  const { yaml: front, body } = splitFrontMatter(text);
  const doc = parseDocument(front, { uniqueKeys: false });
  if (doc.errors.length) {
    parseSnapshotText(text, where); // throws the engine's sentence, with the line
    throw new UserError(`${where} is not valid YAML: ${doc.errors[0].message.split("\n")[0]}`);
  }
  const parsed = doc.toJS() as unknown;
  if (!isObj(parsed)) throw new UserError(`${where} has no snapshot fields (expected YAML front matter with goal, state, next_action, …).`);
  const data: Obj = { ...parsed };
  /** Values import moved aside (each named in its own warning), added to the snapshot's extra. */
  const kept: Obj = {};

  // Written by `mindsave export`: canonical names, plus what the spec's fields cannot carry.
  const marker = isObj(data._mindsave) ? data._mindsave : null;
  delete data._mindsave;

  const mapped: string[] = [];
  if (!marker) {
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
  if (data.status !== undefined && data.status !== null) {
    try {
      data.status = parseStatus(data.status);
    } catch {
      kept.original_status = data.status;
      warnings.push(`${where}: status ${JSON.stringify(data.status)} is not in_progress, completed or blocked; kept as original_status and derived from the blocker.`);
      delete data.status;
    }
  }
  if (data.auto_trigger !== undefined && data.auto_trigger !== null && !isObj(data.auto_trigger)) {
    if (typeof data.auto_trigger === "string" && data.auto_trigger.trim()) data.auto_trigger = { reason: data.auto_trigger.trim() };
    else {
      kept.original_auto_trigger = data.auto_trigger;
      delete data.auto_trigger;
      warnings.push(`${where}: auto_trigger is not a mapping; kept as original_auto_trigger.`);
    }
  }
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

  // The id: the file's, else the index's entry for this file, else the file name.
  const entry = index.byFile.get(file) ?? (typeof data.snapshot_id === "string" ? index.byId.get(data.snapshot_id) : undefined);
  let id = data.snapshot_id !== undefined && data.snapshot_id !== null && String(data.snapshot_id).trim()
    ? String(data.snapshot_id).trim()
    : typeof entry?.id === "string" && entry.id.trim() ? entry.id.trim() : file.replace(/\.md$/i, "");
  if (!SAFE_ID.test(id)) {
    const safe = id.normalize("NFC").replace(/[^\p{L}\p{N}\p{M}_.-]+/gu, "_").replace(/^[._-]+/, "").slice(0, 120) || "snapshot";
    warnings.push(`${where}: snapshot_id ${JSON.stringify(id)} cannot be a file name; imported as ${safe}.`);
    id = safe;
  }
  delete data.snapshot_id;

  let createdAt: Date;
  if (Number.isFinite(instant(data.created_at))) createdAt = new Date(instant(data.created_at));
  else if (Number.isFinite(instant(entry?.created_at))) createdAt = new Date(instant(entry!.created_at));
  else {
    createdAt = fileTime;
    warnings.push(`${where}: no readable created_at${data.created_at !== undefined ? ` (${JSON.stringify(data.created_at)})` : ""}; used the file's modification time ${createdAt.toISOString()}.`);
    if (data.created_at !== undefined && data.created_at !== null) kept.original_created_at = data.created_at;
  }
  delete data.created_at;
  if (!marker && data.version !== undefined && data.version !== null && String(data.version) !== SNAPSHOT_VERSION) {
    kept.original_version = String(data.version);
  }
  delete data.version;
  if (!data.goal && typeof entry?.goal === "string" && entry.goal.trim()) {
    data.goal = entry.goal.trim();
    warnings.push(`${where}: no goal in the file; took the one in index.json.`);
  }

  // Our export keeps the constraints as written when the engine had compressed them: the engine
  // compresses them again on save, to the same result.
  if (marker && Array.isArray(marker.original_constraints)) {
    data.constraints = marker.original_constraints;
    delete data._compressed;
  }
  const topic = typeof marker?.topic === "string" ? marker.topic.replace(/^OVF_/, "") : typeof data.topic === "string" ? undefined : topicFromId(id);

  const input = fromFields(data, body);
  // Our own export's extra fields were named when they were first saved; do not repeat that.
  for (const w of input.warnings) if (!(marker && w.startsWith("Kept fields"))) warnings.push(`${where}: ${w}`);
  input.warnings = [];
  for (const [k, v] of Object.entries(kept)) if (!(k in input.extra)) input.extra[k] = v;
  if (topic) input.topic = topic;
  input.active_files = input.active_files.map((f) => rebaseActiveFile(f, loc.root, index.origRoots));
  const l1Only = !input.constraints.length && !input.decisions.length && !Object.keys(input.failure_graph).length && !input.excluded_paths.length && !input.layer3;
  const overflow = (marker ? marker.kind === "overflow" : id.startsWith("OVF_")) && l1Only;
  return { file: where, id, createdAt, input, overflow, warnings };
}

// ───────────────────────────── failure nodes: reading ─────────────────────────────

interface ParsedNode {
  file: string;
  item: string;
  scope: "project" | "global";
  reason: string;
  rejected_by?: string;
  confidence?: string;
  repeat_count: number;
  related: string[];
  alternatives: string[];
  first_seen: Date;
  last_seen: Date;
}

const NODE_FIELDS = new Set(["schema_version", "rejected_by", "reason", "repeat_count", "confidence", "scope", "related", "alternatives", "first_seen", "last_seen", "item", "name"]);

function readNodes(dir: string, scope: "project" | "global", label: string, warnings: string[]): ParsedNode[] {
  const out: ParsedNode[] = [];
  for (const name of listDir(dir)) {
    const path = join(dir, name);
    const file = `${label}/${name}`;
    if (!name.toLowerCase().endsWith(".json") || isDir(path)) {
      warnings.push(`${file}: not a failure node (.json file); not imported.`);
      continue;
    }
    const data = readJson(path, file, warnings);
    if (data === undefined) continue;
    if (!isObj(data)) {
      warnings.push(`${file}: not a JSON object; not imported.`);
      continue;
    }
    const stem = name.replace(/\.json$/i, "");
    const named = [data.item, data.name].find((v) => typeof v === "string" && v.trim()) as string | undefined;
    const item = named?.trim() ?? unslug(stem);
    const where = `${file} (${JSON.stringify(item)})`;
    const unknown = Object.keys(data).filter((k) => !NODE_FIELDS.has(k));
    if (unknown.length) warnings.push(`${where}: MindSave's failure graph has no place for ${unknown.join(", ")}; not imported.`);
    const e = normaliseEntry(item, data, [], file);
    if (e.scope && e.scope !== scope) warnings.push(`${where}: says scope ${e.scope} but sits in the ${scope} folder; imported as ${scope}.`);
    if ("original_scope" in e) warnings.push(`${where}: scope ${JSON.stringify(e.original_scope)} is not project or global; imported as ${scope} (its folder).`);
    if ("original_rejected_by" in e) warnings.push(`${where}: rejected_by ${JSON.stringify(e.original_rejected_by)} is not user or system; imported as user.`);
    if ("original_confidence" in e) warnings.push(`${where}: confidence ${JSON.stringify(e.original_confidence)} is not high, medium or low; derived from repeats instead.`);
    const fallback = mtime(path);
    const time = (field: "first_seen" | "last_seen"): Date => {
      const t = instant(data[field]);
      if (Number.isFinite(t)) return new Date(t);
      if (data[field] !== undefined) warnings.push(`${where}: ${field} ${JSON.stringify(data[field])} is not a time; used the file's modification time.`);
      return fallback;
    };
    let first_seen = time("first_seen");
    const last_seen = time("last_seen");
    if (first_seen > last_seen) first_seen = last_seen;
    const count = Number(e.repeat_count);
    out.push({
      file, item, scope,
      reason: typeof e.reason === "string" && e.reason.trim() ? e.reason.trim() : e.reason !== undefined && e.reason !== null && String(e.reason).trim() ? String(e.reason).trim() : "",
      rejected_by: typeof e.rejected_by === "string" ? e.rejected_by : undefined,
      confidence: typeof e.confidence === "string" ? e.confidence : undefined,
      repeat_count: Number.isFinite(count) && count >= 1 ? Math.floor(count) : 1,
      related: asStrings(e.related), alternatives: asStrings(e.alternatives), first_seen, last_seen,
    });
  }
  return out;
}

const failureKey = (scope: string, item: string) => `${scope}\0${normaliseItem(item)}`;

/** Is everything this node says already in the store's record? */
function nodeSatisfied(f: FailureRecord | undefined, n: ParsedNode): boolean {
  if (!f) return false;
  const has = (list: string[], want: string[]) => want.every((x) => list.includes(x));
  return f.repeat_count >= n.repeat_count && (!n.reason || f.reason === n.reason) && (!n.rejected_by || f.rejected_by === n.rejected_by) &&
    has(f.related, n.related) && has(f.alternatives, n.alternatives) && Date.parse(f.last_seen) >= n.last_seen.getTime();
}

// ───────────────────────────── tool logs: reading ─────────────────────────────

const TOOL_FIELDS = new Set(["timestamp", "action", "target", "summary", "tool", "session_id"]);

/** One tool-log line in the engine's terms (also used by export to see what is already on disk). */
function toolCallFromLine(o: Obj, sessionFromFile: string | null): { call: ToolCallInput; extras: string[] } | null {
  const ts = instant(o.timestamp);
  if (!Number.isFinite(ts)) return null;
  const raw = typeof o.action === "string" && o.action.trim() ? o.action.trim() : typeof o.tool === "string" ? o.tool : "other";
  const action = actionFor(raw);
  const tool = typeof o.tool === "string" && o.tool.trim() ? o.tool.trim() : action !== raw ? raw : undefined;
  const extras = Object.keys(o).filter((k) => !TOOL_FIELDS.has(k));
  let summary = typeof o.summary === "string" ? o.summary : o.summary === undefined || o.summary === null ? "" : JSON.stringify(o.summary);
  // Fields the tool log has no column for are kept in the summary.
  if (extras.length) summary = [summary, JSON.stringify(Object.fromEntries(extras.map((k) => [k, o[k]])))].filter(Boolean).join(" ");
  const target = typeof o.target === "string" ? o.target : o.target === undefined || o.target === null ? "" : JSON.stringify(o.target);
  const session = typeof o.session_id === "string" && o.session_id ? o.session_id : sessionFromFile;
  return {
    call: { timestamp: new Date(ts).toISOString(), action, tool, target, summary, session_id: session },
    extras,
  };
}

/** The same identity appendToolCalls gives a call (without the session). */
const toolKey = (c: { timestamp: string; action: string; tool?: string; target: string; summary?: string }) =>
  `${c.timestamp}\0${c.tool ?? c.action}\0${c.target}\0${c.summary ?? ""}`;

/** A log named by date holds no session; the v2 skill named its logs by session id. */
const sessionFromFileName = (stem: string) => (/^\d{4}-?\d{2}-?\d{2}$/.test(stem) ? null : stem);

function readToolLogs(dir: string, warnings: string[]): { calls: ToolCallInput[]; bad: number } {
  const calls: ToolCallInput[] = [];
  let bad = 0;
  for (const name of listDir(dir)) {
    const path = join(dir, name);
    const file = `tool_logs/${name}`;
    if (!name.toLowerCase().endsWith(".jsonl") || isDir(path)) {
      warnings.push(`${file}: not a tool log (.jsonl file); not imported.`);
      continue;
    }
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      warnings.push(`${file}: cannot be read (${(e as Error).message}); not imported.`);
      continue;
    }
    const badLines: number[] = [];
    const extraFields = new Set<string>();
    const session = sessionFromFileName(name.replace(/\.jsonl$/i, ""));
    text.replace(/^\uFEFF/, "").split(/\r?\n/).forEach((line, i) => {
      if (!line.trim()) return;
      let o: unknown;
      try {
        o = JSON.parse(line);
      } catch {
        badLines.push(i + 1);
        return;
      }
      const parsed = isObj(o) ? toolCallFromLine(o, session) : null;
      if (!parsed) {
        badLines.push(i + 1);
        return;
      }
      for (const k of parsed.extras) extraFields.add(k);
      calls.push(parsed.call);
    });
    if (badLines.length) {
      bad += badLines.length;
      warnings.push(`${file}: line${badLines.length > 1 ? "s" : ""} ${badLines.join(", ")} ${badLines.length > 1 ? "are not tool calls" : "is not a tool call"} ({"timestamp","action","target","summary"} with a readable timestamp); not imported.`);
    }
    if (extraFields.size) warnings.push(`${file}: fields ${[...extraFields].join(", ")} have no column in the tool log; kept at the end of each call's summary.`);
  }
  return { calls, bad };
}

// ───────────────────────────── signal ─────────────────────────────

const SIGNAL_FIELDS = new Set([
  "last_save", "last_auto_save_time", "last_auto_save_turn", "tool_calls_since_save", "auto_save_count", "trigger_reason",
  "pressure_state", "thresholds", "growth_rate", "complexity", "estimated_tokens_ratio",
]);

/** The raw fields of signal.json the store keeps; the derived ones (pressure, thresholds…) MindSave recomputes. */
function signalFromFile(data: Obj, warnings: string[]): Partial<SignalState> {
  const out: Partial<SignalState> = {};
  const unknown = Object.keys(data).filter((k) => !SIGNAL_FIELDS.has(k));
  if (unknown.length) warnings.push(`signal.json: fields ${unknown.join(", ")} are not part of the spec's signal; not imported.`);
  const time = (k: "last_save" | "last_auto_save_time") => {
    const t = instant(data[k]);
    if (Number.isFinite(t)) out[k] = new Date(t).toISOString();
    else if (data[k] !== undefined && data[k] !== null) warnings.push(`signal.json: ${k} ${JSON.stringify(data[k])} is not a time; not imported.`);
  };
  time("last_save");
  time("last_auto_save_time");
  const count = (k: "last_auto_save_turn" | "tool_calls_since_save" | "auto_save_count") => {
    const n = Number(data[k]);
    if (data[k] !== undefined && data[k] !== null && Number.isInteger(n) && n >= 0) out[k] = n;
  };
  count("last_auto_save_turn");
  count("tool_calls_since_save");
  count("auto_save_count");
  if (typeof data.trigger_reason === "string") out.trigger_reason = data.trigger_reason;
  const ratio = Number(data.estimated_tokens_ratio);
  if (data.estimated_tokens_ratio !== undefined && Number.isFinite(ratio) && ratio >= 0 && ratio <= 1) out.estimated_tokens_ratio = ratio;
  // The base thresholds behind the file's effective ones, when its multipliers are known.
  const g = data.growth_rate as Growth;
  const c = data.complexity as Complexity;
  if (isObj(data.thresholds) && g in GROWTH_MULTIPLIER && c in COMPLEXITY_MULTIPLIER) {
    const m = GROWTH_MULTIPLIER[g] * COMPLEXITY_MULTIPLIER[c];
    const w = Math.round((Number(data.thresholds.warning) / m) * 1000) / 1000;
    const k = Math.round((Number(data.thresholds.critical) / m) * 1000) / 1000;
    if (w >= WARNING_RANGE[0] && w <= WARNING_RANGE[1]) out.base_warning = w;
    if (k >= CRITICAL_RANGE[0] && k <= CRITICAL_RANGE[1]) out.base_critical = k;
  }
  return out;
}

// ───────────────────────────── import ─────────────────────────────

/**
 * Imports a `.mindsave/` folder into the project of its workspace (the session must have been
 * opened with that workspace). Idempotent: a snapshot already in the project (same id, or the same
 * id with a -N suffix, and the same created_at) is skipped; failures and tool calls merge.
 * One snapshot that cannot be read or saved is reported and the rest still land.
 */
export async function importSeed(session: Session, loc: SeedLocation): Promise<ImportReport> {
  const warnings: string[] = [];
  const report: ImportReport = {
    source: loc.dir, root: loc.root, project: null,
    snapshots: { imported: [], skipped: [], failed: [] },
    failures: { imported: 0, skipped: 0 }, tool_calls: { imported: 0, skipped: 0 }, signal: "absent", warnings,
  };

  // What is there.
  for (const name of listDir(loc.dir)) {
    if (KNOWN_ENTRIES.has(name)) continue;
    if (name in NOT_KEPT) {
      const n = listDir(join(loc.dir, name)).length;
      if (n) warnings.push(`${name}/ (${n} entr${n === 1 ? "y" : "ies"}) was not imported: ${NOT_KEPT[name]}.`);
      continue;
    }
    warnings.push(`${name} is not part of the original MindSave layout; not imported.`);
  }
  const fgDir = join(loc.dir, "failure_graph");
  for (const name of listDir(fgDir)) {
    if (name !== "project" && name !== "global") warnings.push(`failure_graph/${name} is neither project/ nor global/; not imported.`);
  }

  const index = readIndex(loc.dir, warnings);
  const snapDir = join(loc.dir, "snapshots");
  const parsed: ParsedSnapshot[] = [];
  const seenFiles = new Set<string>();
  for (const name of listDir(snapDir)) {
    const path = join(snapDir, name);
    if (!name.toLowerCase().endsWith(".md") || isDir(path)) {
      warnings.push(`snapshots/${name}: not a snapshot (.md file); not imported.`);
      continue;
    }
    seenFiles.add(name);
    try {
      parsed.push(parseSnapshotFile(readFileSync(path, "utf8"), name, loc, index, mtime(path)));
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      report.snapshots.failed.push({ file: `snapshots/${name}`, reason: e.message });
    }
  }
  // Index lines name their snapshot by id or snapshot_id, and their file by path or file.
  const entryId = (e: Record<string, unknown>) => [e.id, e.snapshot_id].find((v) => typeof v === "string" && v) as string | undefined;
  const entryFile = (e: Record<string, unknown>) => [e.path, e.file].find((v) => typeof v === "string" && v) as string | undefined;
  const missing = index.entries.filter((e) => {
    const id = entryId(e);
    const path = entryFile(e);
    const file = path ? path.replace(/\\/g, "/").split("/").pop()! : id ? `${id}.md` : "";
    return !seenFiles.has(file) && !(id && seenFiles.has(`${id}.md`));
  });
  if (missing.length) {
    warnings.push(`index.json lists ${missing.length} snapshot(s) whose file is missing, so only their index line exists; not imported: ${missing.map((e) => entryId(e) ?? entryFile(e) ?? "(an entry without id)").join(", ")}.`);
  }

  const nodes = [
    ...readNodes(join(fgDir, "project"), "project", "failure_graph/project", warnings),
    ...readNodes(join(fgDir, "global"), "global", "failure_graph/global", warnings),
  ];
  const homeGlobal = join(localHomeDir(session.env), "global");
  if (resolve(homeGlobal) !== resolve(fgDir, "global")) nodes.push(...readNodes(homeGlobal, "global", "~/.mindsave/global", warnings));
  const logs = readToolLogs(join(loc.dir, "tool_logs"), warnings);
  const signalPath = join(loc.dir, "signal.json");
  const signalData = existsSync(signalPath) ? readJson(signalPath, "signal.json", warnings) : undefined;
  if (signalData !== undefined && !isObj(signalData)) warnings.push("signal.json is not a JSON object; not imported.");

  if (!parsed.length && !report.snapshots.failed.length && !nodes.length && !logs.calls.length && signalData === undefined) {
    throw new UserError(`${loc.dir} holds no snapshots, failure nodes, tool logs or signal.json to import.`);
  }

  const signalBefore = (await readSignal(session)).signal;
  const ctx = await session.write((w) => session.project({ create: true, w }));
  const projectId = ctx.project.id;
  report.project = { id: projectId, name: ctx.project.name };
  const now = session.now();

  // Failures, first pass: nodes new to the store are created at their first_seen, so the
  // snapshots' mentions (later) do not move it.
  const before = new Map((await failuresFor(session, projectId)).map((f) => [failureKey(f.scope, f.item), f]));
  const satisfied = new Set<ParsedNode>(nodes.filter((n) => nodeSatisfied(before.get(failureKey(n.scope, n.item)), n)));
  const observation = (n: ParsedNode, extra: Partial<FailureObservation> = {}): FailureObservation => ({
    item: n.item, scope: n.scope, reason: n.reason || NO_REASON, rejected_by: n.rejected_by,
    // A confidence the original derived from repeats and age stays derived here too.
    confidence: n.confidence && n.confidence !== derivedConfidence(n.repeat_count, n.last_seen.toISOString(), now) ? n.confidence : undefined,
    related: n.related, alternatives: n.alternatives, ...extra,
  });
  const fresh = nodes.filter((n) => !before.has(failureKey(n.scope, n.item)));
  if (fresh.length) {
    await session.write(async (w) => {
      const done = new Set<string>();
      for (const n of [...fresh].sort((a, b) => a.first_seen.getTime() - b.first_seen.getTime())) {
        if (done.has(failureKey(n.scope, n.item))) continue;
        done.add(failureKey(n.scope, n.item));
        await observeFailure(w, projectId, observation(n, { atLeast: 1 }), n.first_seen);
      }
    });
  }

  // Snapshots, oldest first.
  const existing = await projectSnapshots(session, projectId);
  const known = new Set((await failuresFor(session, projectId)).map((f) => normaliseItem(f.item)));
  for (const p of [...parsed].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) {
    const same = existing.find((s) => (s.name === p.id || (s.name.startsWith(`${p.id}-`) && /^\d+$/.test(s.name.slice(p.id.length + 1)))) && sameInstant(s.created_at, p.createdAt));
    if (same) {
      report.snapshots.skipped.push(same.name);
      continue;
    }
    for (const [item, entry] of Object.entries(p.input.failure_graph)) {
      if (!known.has(normaliseItem(item)) && !(typeof entry.reason === "string" ? entry.reason.trim() : entry.reason)) {
        entry.reason = NO_REASON;
        p.warnings.push(`${p.file}: failure ${JSON.stringify(item)} has no reason; recorded as "${NO_REASON}".`);
      }
    }
    try {
      const result = await saveSnapshot(session, { input: p.input, name: p.id, createdAt: p.createdAt, noCleanup: true, overflow: p.overflow });
      const name = result.snapshot.name;
      warnings.push(...p.warnings, ...result.warnings.map((w) => `${p.file}: ${w}`));
      if (name !== p.id) warnings.push(`${p.file}: snapshot_id ${p.id} is already used in this project by another snapshot; imported as ${name}.`);
      report.snapshots.imported.push(name);
      existing.push({ ...result.snapshot, size: 0, has_layer2: false, has_layer3: false });
      for (const item of Object.keys(result.snapshot.failure_graph)) known.add(normaliseItem(item));
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      warnings.push(...p.warnings);
      report.snapshots.failed.push({ file: p.file, reason: e.message });
    }
  }

  // Failures, second pass: each node's full state at its last_seen. A snapshot's mention never
  // moves a failure's last_seen back either.
  const after = await failuresFor(session, projectId);
  await session.write(async (w) => {
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
      // The node file says when it was last seen; the store's own, newer knowledge is kept.
      const at = Math.max(n.last_seen.getTime(), was ? Date.parse(was.last_seen) : 0, floor.get(key) ?? 0);
      floor.set(key, at);
      await observeFailure(w, projectId, observation(n, { atLeast: n.repeat_count, reason: n.reason || current.get(key)?.reason || NO_REASON }), new Date(at));
      report.failures.imported++;
    }
  });

  // Tool calls: the store keys each call, so a second import adds nothing.
  if (logs.calls.length) {
    const added = await session.write((w) => appendToolCalls(w, projectId, logs.calls));
    report.tool_calls = { imported: added, skipped: logs.calls.length - added };
  }

  // The signal: the newest of the store's own, the imported snapshots' and signal.json's saves wins.
  const fileSignal = isObj(signalData) ? signalFromFile(signalData, warnings) : null;
  const afterSaves = (await readSignal(session)).signal;
  const beforeWins = instant(signalBefore.last_save) > instant(afterSaves.last_save);
  const base = beforeWins ? signalBefore : afterSaves;
  let next: SignalState = base;
  if (fileSignal) {
    const fileTime = instant(fileSignal.last_save);
    if (!base.last_save || (Number.isFinite(fileTime) && fileTime >= instant(base.last_save)) || (!fileSignal.last_save && !report.snapshots.imported.length)) {
      next = { ...base, ...fileSignal };
      next.turn = Math.max(next.turn, next.last_auto_save_turn ?? 0);
      const changed = Object.keys(fileSignal).some((k) => JSON.stringify(fileSignal[k as keyof SignalState]) !== JSON.stringify(base[k as keyof SignalState]));
      report.signal = changed ? "imported" : "unchanged";
    } else {
      report.signal = "older";
    }
  }
  if (beforeWins || report.signal === "imported") {
    await updateSignal(session, () => next);
  }
  return report;
}

// ───────────────────────────── export ─────────────────────────────

/** The front matter of an exported snapshot: the spec's template, plus what only MindSave keeps. */
export function exportedSnapshotFile(s: SnapshotRecord): string {
  const marker: Obj = { topic: s.topic, kind: s.kind };
  if (s.compressed && Array.isArray(s.compressed.original_constraints)) marker.original_constraints = s.compressed.original_constraints;
  return snapshotFile({ ...s, extra: { ...(s.extra ?? {}), _mindsave: marker } }, s.active_files.map((f) => f.path));
}

function layersOf(s: SnapshotRecord): string[] {
  const l2 = s.constraints.length || s.decisions.length || Object.keys(s.failure_graph).length;
  return ["L1", ...(l2 ? ["L2"] : []), ...(s.layer3.trim() ? ["L3"] : [])];
}

/** What an existing snapshot file says it is (id, time, goal), leniently. */
function existingSnapshotIdentity(path: string): { id?: string; created?: number; goal?: string } | null {
  try {
    const text = readFileSync(path, "utf8");
    const data = parseDocument(splitFrontMatter(text).yaml).toJS() as unknown;
    if (!isObj(data)) return null;
    const pick = (field: string) => [field, ...(FIELD_ALIASES[field] ?? [])].map((k) => data[k]).find((v) => v !== undefined && v !== null);
    const id = pick("snapshot_id");
    const goal = pick("goal");
    return { id: id === undefined ? undefined : String(id), created: instant(pick("created_at")), goal: goal === undefined ? undefined : String(goal).trim() };
  } catch {
    return null;
  }
}

/**
 * Writes the current project in the original's layout under `{out}/.mindsave/` (default: the
 * project's root on this host). Files for the same snapshots and failures are replaced; anything
 * else already there is left as it is, and tool logs only gain the calls not yet on disk.
 */
export async function exportSeed(session: Session, opts: { out?: string } = {}): Promise<ExportReport> {
  const ctx = await session.requireProject();
  const target = opts.out ? resolve(opts.out) : ctx.root;
  if (!target) throw new UserError(`Project ${ctx.project.name} has no root on this host; give --out DIR.`);
  const dir = basename(target) === SEED_DIR ? target : join(target, SEED_DIR);
  if (existsSync(join(dir, "mindsave.db"))) throw new UserError(`${dir} is a MindSave home (it holds mindsave.db); export to a workspace instead.`);
  if (existsSync(target) && !isDir(target)) throw new UserError(`${target} is not a directory.`);
  const projectId = ctx.project.id;
  const now = session.now();
  const warnings: string[] = [];

  const summaries = await projectSnapshots(session, projectId);
  const records: SnapshotRecord[] = [];
  for (const s of summaries) records.push(await snapshotById(session, s.id));

  // Never overwrite a different snapshot that only exists on disk.
  const snapDir = join(dir, "snapshots");
  const names = new Set(records.map((s) => s.name));
  const conflicts: string[] = [];
  for (const s of records) {
    const path = join(snapDir, `${s.name}.md`);
    if (!existsSync(path)) continue;
    const found = existingSnapshotIdentity(path);
    if (found && found.id === s.name && sameInstant(found.created, s.created_at)) continue;
    const inStore = found && Number.isFinite(found.created) && records.some((r) => sameInstant(r.created_at, found.created) && (!found.goal || r.goal === found.goal));
    if (!inStore) conflicts.push(`snapshots/${s.name}.md`);
  }
  if (conflicts.length) {
    throw new UserError(`${dir} already holds ${conflicts.join(", ")} with a different snapshot that is not in the store; import it first (\`mindsave import ${target}\`) or export elsewhere with --out.`);
  }

  for (const s of records) writeFileAtomic(join(snapDir, `${s.name}.md`), exportedSnapshotFile(s));
  const strays = listDir(snapDir).filter((f) => f.toLowerCase().endsWith(".md") && !names.has(f.replace(/\.md$/i, "")));
  if (strays.length) warnings.push(`snapshots/ also holds ${strays.length} file(s) that are not in the store, left as they are and not in index.json: ${strays.join(", ")}.`);

  const index = records.slice(0, INDEX_MAX).map((s) => ({
    id: s.name,
    path: `${SEED_DIR}/snapshots/${s.name}.md`,
    created_at: s.created_at,
    goal: s.goal,
    active_files: s.active_files.map((f) => f.path),
    blocker: s.blocker,
    layers: layersOf(s),
    auto_trigger: s.auto_trigger && s.auto_trigger.reason !== undefined ? String(s.auto_trigger.reason) : null,
  }));
  writeFileAtomic(join(dir, "index.json"), JSON.stringify({ snapshots: index }, null, 2) + "\n");

  // Failure nodes: one file each, named as the original would, with the real name inside.
  const failures = await failuresFor(session, projectId);
  const counts = { project: 0, global: 0 };
  for (const scope of ["project", "global"] as const) {
    const scopeDir = join(dir, "failure_graph", scope);
    const byItem = new Map<string, string>();
    const used = new Set<string>();
    for (const name of listDir(scopeDir)) {
      if (!name.toLowerCase().endsWith(".json")) continue;
      const stem = name.replace(/\.json$/i, "");
      used.add(stem.toLowerCase());
      let item = unslug(stem);
      try {
        const data = JSON.parse(readFileSync(join(scopeDir, name), "utf8")) as unknown;
        const named = isObj(data) ? [data.item, data.name].find((v) => typeof v === "string" && v.trim()) : undefined;
        if (typeof named === "string") item = named.trim();
      } catch {
        // unreadable: keep the name from the file name
      }
      if (!byItem.has(normaliseItem(item))) byItem.set(normaliseItem(item), stem);
    }
    for (const f of failures.filter((x) => x.scope === scope).sort((a, b) => a.item.localeCompare(b.item))) {
      let stem = byItem.get(normaliseItem(f.item));
      if (!stem) {
        const base = failureFileStem(f.item);
        stem = base;
        for (let n = 2; used.has(stem.toLowerCase()); n++) stem = `${base}-${n}`;
        used.add(stem.toLowerCase());
        byItem.set(normaliseItem(f.item), stem);
      }
      writeFileAtomic(join(scopeDir, `${stem}.json`), JSON.stringify({ item: f.item, ...toGraphEntry(f, now) }, null, 2) + "\n");
      counts[scope]++;
    }
  }

  // Tool logs by day; a call already in any log on disk is not written again.
  const logDir = join(dir, "tool_logs");
  const onDisk = new Set<string>();
  const existingLines = new Map<string, string[]>();
  for (const name of listDir(logDir)) {
    if (!name.toLowerCase().endsWith(".jsonl")) continue;
    let text = "";
    try {
      text = readFileSync(join(logDir, name), "utf8");
    } catch {
      continue;
    }
    const lines = text.split(/\r?\n/).filter((l) => l.trim());
    existingLines.set(name, lines);
    for (const line of lines) {
      try {
        const o = JSON.parse(line) as unknown;
        const parsed = isObj(o) ? toolCallFromLine(o, null) : null;
        if (parsed) onDisk.add(toolKey(parsed.call));
      } catch {
        // not a call
      }
    }
  }
  const calls = await recentToolCalls(session, projectId, Number.MAX_SAFE_INTEGER);
  const byDay = new Map<string, { ts: string; line: string }[]>();
  for (const c of calls) {
    if (onDisk.has(toolKey(c))) continue;
    const day = /^\d{4}-\d{2}-\d{2}/.test(c.timestamp) ? c.timestamp.slice(0, 10) : "undated";
    const line: Obj = { timestamp: c.timestamp, action: c.action, target: c.target, summary: c.summary };
    if (c.tool && c.tool !== c.action) line.tool = c.tool;
    if (c.session_id) line.session_id = c.session_id;
    if (!byDay.has(day)) byDay.set(day, []);
    byDay.get(day)!.push({ ts: c.timestamp, line: JSON.stringify(line) });
  }
  const logFiles: string[] = [];
  for (const [day, lines] of byDay) {
    const name = `${day}.jsonl`;
    const old = (existingLines.get(name) ?? []).map((line) => {
      try {
        const o = JSON.parse(line) as Obj;
        return { ts: String(o.timestamp ?? ""), line };
      } catch {
        return { ts: "", line };
      }
    });
    const all = [...old, ...lines].sort((a, b) => (instant(a.ts) || 0) - (instant(b.ts) || 0));
    writeFileAtomic(join(logDir, name), all.map((l) => l.line).join("\n") + "\n");
    logFiles.push(`tool_logs/${name}`);
  }

  const { signal } = await readSignal(session);
  writeFileAtomic(join(dir, "signal.json"), JSON.stringify(toSignalJson(signal), null, 2) + "\n");

  return {
    dir, project: { id: projectId, name: ctx.project.name },
    snapshots: records.map((s) => s.name), index: index.length, failures: counts,
    tool_calls: [...byDay.values()].reduce((n, l) => n + l.length, 0), tool_log_files: logFiles.sort(), signal: true, warnings,
  };
}
