// Reading a snapshot from the spec's format: YAML front matter (Layer 1 and Layer 2 fields) and a
// markdown body (Layer 3), or a plain YAML mapping, or command-line flags. Unknown fields are
// kept (in `extra`) with a warning naming them, never dropped.
import { parseDocument, YAMLParseError } from "yaml";
import { UserError } from "../../errors.ts";
import type { FailureGraphEntry, SnapshotStatus } from "../../store/store.ts";

export interface SnapshotInput {
  goal: string;
  state: string;
  next_action: string;
  active_files: string[];
  blocker: string;
  constraints: string[];
  decisions: string[];
  failure_graph: Record<string, FailureGraphEntry>;
  /** Legacy v3.4 flat list; converted into failure_graph entries on save. */
  excluded_paths: string[];
  status?: SnapshotStatus;
  topic?: string;
  snapshot_id?: string;
  auto_trigger?: Record<string, unknown>;
  layer3: string;
  extra: Record<string, unknown>;
  warnings: string[];
}

/** Front-matter fields the spec defines; everything else goes to `extra`. */
const KNOWN = new Set([
  "snapshot_id", "created_at", "version", "goal", "state", "next_action", "active_files", "blocker",
  "constraints", "decisions", "failure_graph", "excluded_paths", "auto_trigger", "status", "topic", "layer3",
]);

const STATUS_ALIASES: Record<string, SnapshotStatus> = {
  in_progress: "in_progress", "in progress": "in_progress", "in-progress": "in_progress", active: "in_progress", wip: "in_progress",
  completed: "completed", complete: "completed", done: "completed",
  blocked: "blocked",
};

export function parseStatus(value: unknown): SnapshotStatus {
  const s = String(value).trim().toLowerCase();
  const status = STATUS_ALIASES[s];
  if (!status) throw new UserError(`status must be in_progress, completed or blocked, not ${JSON.stringify(String(value))}.`);
  return status;
}

export function emptyInput(): SnapshotInput {
  return {
    goal: "", state: "", next_action: "", active_files: [], blocker: "none", constraints: [], decisions: [],
    failure_graph: {}, excluded_paths: [], layer3: "", extra: {}, warnings: [],
  };
}

function text(field: string, v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v.trim();
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  throw new UserError(`${field} must be a single line of text, not a ${Array.isArray(v) ? "list" : "mapping"}.`);
}

function list(field: string, v: unknown): string[] {
  if (v === null || v === undefined) return [];
  if (typeof v === "string") return v.trim() ? [v.trim()] : [];
  if (!Array.isArray(v)) throw new UserError(`${field} must be a list of text items.`);
  return v.map((item, i) => {
    if (item !== null && typeof item === "object") {
      // `- {path: src/a.ts}` style entries from other tools: keep the text we can identify.
      const o = item as Record<string, unknown>;
      const t = o.path ?? o.file ?? o.text ?? o.value;
      if (typeof t === "string") return t.trim();
      throw new UserError(`${field}[${i}] must be text, not a mapping.`);
    }
    return text(`${field}[${i}]`, item);
  }).filter((s) => s !== "");
}

/** The v3.5 SDK writes failure_graph as JSON text inside a YAML block scalar; accept both. */
function failureGraph(v: unknown): Record<string, FailureGraphEntry> {
  if (v === null || v === undefined || v === "") return {};
  if (typeof v === "string") {
    try {
      return failureGraph(JSON.parse(v));
    } catch {
      throw new UserError("failure_graph must be a mapping of item → {reason, rejected_by, …}.");
    }
  }
  if (typeof v !== "object" || Array.isArray(v)) throw new UserError("failure_graph must be a mapping of item → {reason, rejected_by, …}.");
  const out: Record<string, FailureGraphEntry> = {};
  for (const [item, entry] of Object.entries(v as Record<string, unknown>)) {
    if (!item.trim()) continue;
    if (entry === null || entry === undefined) out[item.trim()] = {};
    else if (typeof entry === "string") out[item.trim()] = { reason: entry };
    else if (typeof entry === "object" && !Array.isArray(entry)) out[item.trim()] = entry as FailureGraphEntry;
    else throw new UserError(`failure_graph entry ${JSON.stringify(item)} must be a mapping.`);
  }
  return out;
}

/** Splits `---\nfront matter\n---\nbody`; a document without front matter is all YAML. */
export function splitFrontMatter(source: string): { yaml: string; body: string; hasFrontMatter: boolean } {
  const src = source.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const m = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n([\s\S]*))?$/.exec(src);
  if (m) return { yaml: m[1], body: (m[2] ?? "").trim(), hasFrontMatter: true };
  return { yaml: src, body: "", hasFrontMatter: false };
}

export function parseSnapshotText(source: string, origin = "the snapshot"): SnapshotInput {
  if (!source.trim()) throw new UserError(`${origin} is empty; a snapshot needs at least a goal.`);
  const { yaml, body } = splitFrontMatter(source);
  const doc = parseDocument(yaml, { uniqueKeys: false, prettyErrors: true });
  if (doc.errors.length) {
    const e = doc.errors[0];
    // Lines are counted in the whole input: front matter starts after its opening `---`.
    const offset = source.replace(/^\uFEFF/, "").startsWith("---") ? 1 : 0;
    const where = e instanceof YAMLParseError && e.linePos ? ` at line ${e.linePos[0].line + offset}` : "";
    const what = e.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
    throw new UserError(`${origin} is not valid YAML${where}: ${what}.`.replace(/\.\.$/, "."));
  }
  const data = doc.toJS() as unknown;
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new UserError(`${origin} must be a YAML mapping of snapshot fields (goal, state, next_action, …).`);
  }
  return fromFields(data as Record<string, unknown>, body);
}

export function fromFields(data: Record<string, unknown>, body = ""): SnapshotInput {
  const input = emptyInput();
  input.goal = text("goal", data.goal);
  input.state = text("state", data.state);
  input.next_action = text("next_action", data.next_action);
  input.active_files = list("active_files", data.active_files);
  input.blocker = text("blocker", data.blocker) || "none";
  input.constraints = list("constraints", data.constraints);
  input.decisions = list("decisions", data.decisions);
  input.failure_graph = failureGraph(data.failure_graph);
  input.excluded_paths = list("excluded_paths", data.excluded_paths);
  if (data.status !== undefined && data.status !== null) input.status = parseStatus(data.status);
  if (data.topic !== undefined && data.topic !== null) input.topic = text("topic", data.topic);
  if (typeof data.snapshot_id === "string") input.snapshot_id = data.snapshot_id.trim();
  if (data.auto_trigger && typeof data.auto_trigger === "object" && !Array.isArray(data.auto_trigger)) {
    input.auto_trigger = data.auto_trigger as Record<string, unknown>;
  }
  const layer3 = [typeof data.layer3 === "string" ? data.layer3.trim() : "", body.trim()].filter(Boolean);
  input.layer3 = layer3.join("\n\n");
  const unknown = Object.keys(data).filter((k) => !KNOWN.has(k));
  for (const k of unknown) input.extra[k] = data[k];
  if (unknown.length) {
    input.warnings.push(`Kept fields the spec does not define (stored with the snapshot's Layer 3): ${unknown.join(", ")}.`);
  }
  return input;
}

export interface FlagFields {
  goal?: string;
  state?: string;
  next?: string;
  activeFile?: string[];
  blocker?: string;
  constraint?: string[];
  decision?: string[];
  failed?: string[];
  topic?: string;
  status?: string;
}

/** Flags override the same fields read from YAML; list flags add to the YAML's lists. */
export function applyFlags(input: SnapshotInput, f: FlagFields): SnapshotInput {
  if (f.goal !== undefined) input.goal = f.goal.trim();
  if (f.state !== undefined) input.state = f.state.trim();
  if (f.next !== undefined) input.next_action = f.next.trim();
  if (f.blocker !== undefined) input.blocker = f.blocker.trim() || "none";
  if (f.topic !== undefined) input.topic = f.topic.trim();
  if (f.status !== undefined) input.status = parseStatus(f.status);
  input.active_files.push(...(f.activeFile ?? []).map((s) => s.trim()).filter(Boolean));
  input.constraints.push(...(f.constraint ?? []).map((s) => s.trim()).filter(Boolean));
  input.decisions.push(...(f.decision ?? []).map((s) => s.trim()).filter(Boolean));
  input.excluded_paths.push(...(f.failed ?? []).map((s) => s.trim()).filter(Boolean));
  return input;
}

/**
 * A legacy `excluded_paths` line ("Don't use Tailwind — causes style conflict") as a failure:
 * the item before the first separator with its leading negation removed, the rest as the reason.
 */
export function legacyExcludedPath(line: string): { item: string; entry: FailureGraphEntry } {
  const sep = /\s+[—–-]{1,2}\s+|:\s+|;\s+|,?\s+because\s+|[,，]?\s*因为\s*|[：；]\s*/i.exec(line);
  let item = (sep ? line.slice(0, sep.index) : line).trim();
  const reason = sep ? line.slice(sep.index + sep[0].length).trim() : "";
  item = item.replace(/^(?:don'?t|do not|never|avoid|no longer|stop)\s+(?:use|using|try|trying)?\s*|^no\s+|^(?:不要|别|禁止|避免|不)(?:用|使用|再用)?/i, "").trim() || line.trim();
  return { item, entry: { rejected_by: "system", reason: reason || "(no reason recorded)" } };
}
