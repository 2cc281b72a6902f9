// A snapshot's fields as the engine takes them (SnapshotInput), from any source: the mapping a
// snapshot's YAML reads as (input.ts), command-line flags, or MCP arguments. Unknown fields are
// kept (in `extra`) with a warning naming them, never dropped. No YAML parser here: hooks and the
// MCP server build snapshots from fields, and should not pay for loading one.
// Every text read here loses its control characters and is measured (input-limits.ts).
import { UserError } from "../../errors.ts";
import { trimLines, trimValue } from "../../lib/text.ts";
import { normaliseItem, writtenCount } from "../failures/graph.ts";
import { checkSizes, controlWarning, stripControl, stripControlDeep } from "./input-limits.ts";
import { parsePlan } from "./plan.ts";
import { shownKey } from "./redact.ts";
import type { FailureGraphEntry, PlanItem, SnapshotStatus } from "../../store/store.ts";
import { SNAPSHOT_STATUSES } from "../../store/records.ts";

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
  /** The agent's plan, verbatim (null: none given; the save carries the previous one forward). */
  plan?: PlanItem[] | null;
  /** MindSave's times of the plan's steps, from its own export (see SnapshotRecord.plan_times). */
  plan_times?: (string | null)[] | null;
  tags?: string[];
  /** Which agent is saving (a hook's `--agent`); absent for a person's save. */
  agent?: string;
  extra: Record<string, unknown>;
  warnings: string[];
}

/** Front-matter fields the spec defines; everything else goes to `extra`. */
export const KNOWN = new Set([
  "snapshot_id",
  "created_at",
  "version",
  "goal",
  "state",
  "next_action",
  "active_files",
  "blocker",
  "constraints",
  "decisions",
  "failure_graph",
  "excluded_paths",
  "auto_trigger",
  "status",
  "topic",
  "layer3",
  "plan",
  "tags",
]);

const STATUS_ALIASES: Record<string, SnapshotStatus> = {
  in_progress: "in_progress",
  "in progress": "in_progress",
  "in-progress": "in_progress",
  active: "in_progress",
  wip: "in_progress",
  completed: "completed",
  complete: "completed",
  done: "completed",
  blocked: "blocked",
};

export { SNAPSHOT_STATUSES };

export function parseStatus(value: unknown): SnapshotStatus {
  const s = String(value).trim().toLowerCase();
  const status = STATUS_ALIASES[s];
  if (!status)
    throw new UserError(
      `status must be in_progress, completed or blocked, not ${JSON.stringify(String(value))}.`,
    );
  return status;
}

export function emptyInput(): SnapshotInput {
  return {
    goal: "",
    state: "",
    next_action: "",
    active_files: [],
    blocker: "none",
    constraints: [],
    decisions: [],
    failure_graph: {},
    excluded_paths: [],
    layer3: "",
    extra: {},
    warnings: [],
  };
}

function text(field: string, v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return trimValue(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  throw new UserError(
    `${field} must be a single line of text, not a ${Array.isArray(v) ? "list" : "mapping"}.`,
  );
}

function list(field: string, v: unknown): string[] {
  if (v === null || v === undefined) return [];
  if (typeof v === "string") return trimValue(v) ? [trimValue(v)] : [];
  if (!Array.isArray(v)) throw new UserError(`${field} must be a list of text items.`);
  return v
    .map((item, i) => {
      if (item !== null && typeof item === "object") {
        // `- {path: src/a.ts}` style entries from other tools: keep the text we can identify.
        const o = item as Record<string, unknown>;
        const t = o.path ?? o.file ?? o.text ?? o.value;
        if (typeof t === "string") return trimValue(t);
        throw new UserError(`${field}[${i}] must be text, not a mapping.`);
      }
      return text(`${field}[${i}]`, item);
    })
    .filter((s) => s !== "");
}

/** Words that say there is no blocker ("none", "n/a", "无", "没有"…): such a snapshot is not blocked. */
const NO_BLOCKER = /^(?:none|nothing|no|n\/?a|nil|null|-+|—|无|没有|暂无|无阻塞|没有阻塞)$/i;

export function noBlocker(blocker: string): boolean {
  const b = blocker.trim().replace(/[.。!！]+$/u, "");
  return b === "" || NO_BLOCKER.test(b);
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
  if (typeof v !== "object" || Array.isArray(v))
    throw new UserError("failure_graph must be a mapping of item → {reason, rejected_by, …}.");
  const out: Record<string, FailureGraphEntry> = {};
  // One failure per item, told apart as the store tells them apart (case and spacing aside).
  const named = new Map<string, string>();
  for (const [raw, entry] of Object.entries(v as Record<string, unknown>)) {
    const item = raw.trim();
    if (!item) continue;
    const twice = named.get(normaliseItem(item));
    if (twice !== undefined)
      throw new UserError(
        `failure_graph names one failure twice, ${JSON.stringify(twice)} and ${JSON.stringify(raw)} (failures are told apart without case or spacing); give it once.`,
      );
    named.set(normaliseItem(item), raw);
    if (entry === null || entry === undefined) out[item] = {};
    else if (typeof entry === "string") out[item] = { reason: entry };
    else if (typeof entry === "object" && !Array.isArray(entry))
      out[item] = failureEntry(item, entry as Record<string, unknown>);
    else throw new UserError(`failure_graph entry ${JSON.stringify(item)} must be a mapping.`);
  }
  return out;
}

/** One failure_graph entry, checked: what cannot be kept as written is refused, never changed. */
function failureEntry(item: string, e: Record<string, unknown>): FailureGraphEntry {
  const where = `failure_graph entry ${JSON.stringify(item)}`;
  // A count that is no whole number ("lots", 2.7) would be stored as something else: refused.
  const count = e.repeat_count;
  if (
    count !== undefined &&
    count !== null &&
    !(Number.isInteger(writtenCount(count)) && writtenCount(count) >= 0)
  ) {
    throw new UserError(
      `${where} has repeat_count ${JSON.stringify(count)}; give a whole number (how many times it was tried).`,
    );
  }
  const out: Record<string, unknown> = { ...e };
  for (const k of ["reason", "rejected_by", "scope", "confidence"]) {
    const x = e[k];
    if (x !== undefined && x !== null && typeof x === "object")
      throw new UserError(`${where} has a ${k} that is a list or a mapping; give it as one text.`);
  }
  // A list field given one value is a list of one.
  for (const k of ["related", "alternatives"]) {
    const x = e[k];
    if (x === undefined || x === null) continue;
    if (typeof x === "string" || typeof x === "number" || typeof x === "boolean") out[k] = [String(x)];
    else if (!Array.isArray(x) || x.some((y) => y !== null && typeof y === "object"))
      throw new UserError(
        `${where} has ${k} that is not a list of texts; give a list, e.g. ${k}: ["a", "b"].`,
      );
  }
  return out as FailureGraphEntry;
}

export function fromFields(raw: Record<string, unknown>, rawBody = ""): SnapshotInput {
  const tally = { dropped: 0 };
  const data = stripControlDeep(raw, tally);
  const body = stripControl(rawBody, tally);
  const input = emptyInput();
  input.warnings.push(...controlWarning(tally));
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
  if (data.plan !== undefined && data.plan !== null) input.plan = parsePlan(data.plan);
  if (data.tags !== undefined && data.tags !== null) input.tags = list("tags", data.tags);
  const layer3 = [typeof data.layer3 === "string" ? trimLines(data.layer3) : "", trimLines(body)].filter(
    Boolean,
  );
  input.layer3 = layer3.join("\n\n");
  const unknown = Object.keys(data).filter((k) => !KNOWN.has(k));
  // Defined, not assigned: a field named `__proto__` is kept like any other.
  for (const k of unknown)
    Object.defineProperty(input.extra, k, {
      value: data[k],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  if (unknown.length) {
    // A key may itself be a secret: the warning shows it as it will be stored, redacted.
    input.warnings.push(
      `Kept fields the spec does not define (stored with the snapshot's Layer 3): ${unknown.map(shownKey).join(", ")}.`,
    );
  }
  return checkSizes(input);
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
  tag?: string[];
}

/** Flags override the same fields read from YAML; list flags add to the YAML's lists. */
export function applyFlags(input: SnapshotInput, flags: FlagFields): SnapshotInput {
  const tally = { dropped: 0 };
  const f = stripControlDeep(flags, tally);
  input.warnings.push(...controlWarning(tally));
  if (f.goal !== undefined) input.goal = f.goal.trim();
  if (f.state !== undefined) input.state = f.state.trim();
  if (f.next !== undefined) input.next_action = f.next.trim();
  if (f.blocker !== undefined) input.blocker = f.blocker.trim() || "none";
  if (f.topic !== undefined) input.topic = f.topic.trim();
  if (f.status !== undefined) input.status = parseStatus(f.status);
  input.active_files.push(...(f.activeFile ?? []).map((s) => s.trim()).filter(Boolean));
  input.constraints.push(...(f.constraint ?? []).map(trimValue).filter(Boolean));
  input.decisions.push(...(f.decision ?? []).map(trimValue).filter(Boolean));
  input.excluded_paths.push(...(f.failed ?? []).map((s) => s.trim()).filter(Boolean));
  if (f.tag?.length) input.tags = [...(input.tags ?? []), ...f.tag];
  return checkSizes(input);
}
