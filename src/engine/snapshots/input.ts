// Reading a snapshot from the spec's format: YAML front matter (Layer 1 and Layer 2 fields) and a
// markdown body (Layer 3), or a plain YAML mapping, or command-line flags. Unknown fields are
// kept (in `extra`) with a warning naming them, never dropped.
// Every text read here loses its control characters and is measured (input-limits.ts).
import {
  isAlias,
  isCollection,
  isMap,
  isPair,
  isScalar,
  Lexer,
  parseDocument,
  visit,
  YAMLParseError,
  type Document,
} from "yaml";
import { UserError } from "../../errors.ts";
import { trimLines, trimValue } from "../../lib/text.ts";
import { normaliseItem, writtenCount } from "../failures/graph.ts";
import {
  checkSizes,
  controlWarning,
  stripControl,
  stripControlDeep,
  FIELD_MAX,
  LAYER3_MAX,
} from "./input-limits.ts";
import { asWritten, parsePlan, planAsWritten } from "./plan.ts";
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
const KNOWN = new Set([
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

/** Splits `---\nfront matter\n---\nbody`; a document without front matter is all YAML. */
export function splitFrontMatter(source: string): { yaml: string; body: string; hasFrontMatter: boolean } {
  const src = source.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const m = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n([\s\S]*))?$/.exec(src);
  // The closing line break belongs to the YAML: a block scalar ending the front matter keeps its own.
  if (m) return { yaml: `${m[1]}\n`, body: trimLines(m[2] ?? ""), hasFrontMatter: true };
  return { yaml: src, body: "", hasFrontMatter: false };
}

export function parseSnapshotText(source: string, origin = "the snapshot"): SnapshotInput {
  if (!source.trim()) throw new UserError(`${origin} is empty; a snapshot needs at least a goal.`);
  const { yaml, body, hasFrontMatter } = splitFrontMatter(source);
  checkFrontMatter(yaml, origin);
  // A field given twice is refused, not decided by its last value (which one the writer meant is unknown).
  const doc = parseDocument(yaml, { prettyErrors: true });
  if (doc.errors.length) {
    const e = doc.errors[0];
    // Lines are counted in the whole input: front matter starts after its opening `---` (a
    // document without a closing one is all YAML, that line included).
    const offset = hasFrontMatter ? 1 : 0;
    const line = e instanceof YAMLParseError && e.linePos ? e.linePos[0].line + offset : null;
    const where = line === null ? "" : ` at line ${line}`;
    if (e.code === "DUPLICATE_KEY") {
      const key = yaml
        .slice(e.pos[0])
        .split("\n")[0]
        .replace(/\s*:(\s.*)?$/, "")
        .replace(/^["']|["']$/g, "");
      throw new UserError(
        `${origin} gives ${JSON.stringify(key)} twice${where ? ` (the second${where})` : ""}; give each field once.`,
      );
    }
    const what = e.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
    throw new UserError(`${origin} is not valid YAML${where}: ${what}.`.replace(/\.\.$/, "."));
  }
  if (hasAliases(doc) && expandedSize(doc) > EXPANDED_MAX) {
    throw new UserError(
      `${origin} uses YAML aliases (*name) that would expand it to more than ${EXPANDED_MAX / 1024 / 1024} MB of text; write the values out instead.`,
    );
  }
  textAsWritten(doc);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (e) {
    // Aliases that were never anchored, or so many that they look like a "billion laughs".
    throw new UserError(`${origin} is not valid YAML: ${(e as Error).message}.`.replace(/\.\.$/, "."));
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new UserError(`${origin} must be a YAML mapping of snapshot fields (goal, state, next_action, …).`);
  }
  return fromFields(data as Record<string, unknown>, body);
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

/** Fields of one text, and fields that list texts: what YAML reads there as a number or boolean is text. */
const TEXT_FIELDS = new Set([
  "goal",
  "state",
  "next_action",
  "blocker",
  "topic",
  "snapshot_id",
  "layer3",
  "active_files",
  "constraints",
  "decisions",
  "excluded_paths",
  "tags",
]);

/**
 * The snapshot's text fields as written: `tags: [1.10]` is the tag "1.10", not 1.1, and `goal: 1e3`
 * is "1e3", not "1000". So are failure items and their texts (not repeat_count) and plan steps.
 */
function textAsWritten(doc: Document): void {
  if (!isMap(doc.contents)) return;
  for (const pair of doc.contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : "";
    if (TEXT_FIELDS.has(key)) asWritten(pair.value);
    else if (key === "plan") planAsWritten(pair.value);
    else if (key === "failure_graph" && isMap(pair.value)) {
      for (const entry of pair.value.items) {
        asWritten(entry.key);
        if (isMap(entry.value))
          for (const f of entry.value.items)
            if (!(isScalar(f.key) && f.key.value === "repeat_count")) asWritten(f.value);
      }
    } else if (!KNOWN.has(key)) numbersAsWritten(pair.value);
  }
}

/**
 * A field of the writer's own, kept as it came: a number YAML would write back otherwise (`1.10`,
 * `0x1F`, `1e3`) is the text it was written with; `42`, `true` and `null` stay what they are.
 */
function numbersAsWritten(node: unknown): void {
  if (isScalar(node)) {
    if (
      typeof node.value === "number" &&
      typeof node.source === "string" &&
      node.source !== String(node.value)
    )
      node.value = node.source;
  } else if (isCollection(node)) {
    for (const item of node.items) numbersAsWritten(isPair(item) ? item.value : item);
  }
}

/**
 * The most characters of a snapshot's YAML (its front matter, or the whole of a plain YAML
 * mapping): Layer 3 written there at its cap, twice over for quoting. More could never be saved,
 * and parsing it would cost seconds and a multiple of its size in memory.
 */
const FRONT_MATTER_MAX = 2 * LAYER3_MAX;

/**
 * The most pieces (keys, values, list items, indicators: the YAML lexer's tokens) a snapshot's YAML
 * may have. Parsed, each costs hundreds of bytes of memory; a snapshot's fields are a few thousand
 * at most (Layer 2 fits in 500 tokens).
 */
const FRONT_MATTER_PIECES = 200_000;

/**
 * Refuses YAML too long, or of too many pieces, to be a snapshot's, before it is parsed: its size,
 * then (past FRONT_MATTER_PIECES characters, where there can be that many) its pieces counted by
 * the lexer, which holds none of them.
 */
export function checkFrontMatter(yaml: string, origin: string): void {
  const n = (x: number) => x.toLocaleString("en-US");
  if (yaml.length > FRONT_MATTER_MAX) {
    throw new UserError(
      `${origin} has ${n(yaml.length)} characters of YAML fields; a snapshot's are at most ${n(FRONT_MATTER_MAX)} (a Layer 1 field or Layer 2 item at most ${n(FIELD_MAX)}, Layer 3 at most ${n(LAYER3_MAX)}), so they were not read. Nothing was saved.`,
    );
  }
  if (yaml.length <= FRONT_MATTER_PIECES) return;
  let pieces = 0;
  for (const _ of new Lexer().lex(yaml)) {
    if (++pieces > FRONT_MATTER_PIECES) {
      throw new UserError(
        `${origin} has more than ${n(FRONT_MATTER_PIECES)} pieces of YAML (keys, values, list items); a snapshot's fields are far fewer, so they were not read. Put long lists in Layer 3 (the markdown body). Nothing was saved.`,
      );
    }
  }
}

/** Whether a document uses an alias (`*name`) anywhere: only then can it stand for more text than it holds. */
function hasAliases(doc: Document): boolean {
  let found = false;
  visit(doc, { Alias: () => ((found = true), visit.BREAK) });
  return found;
}

/** Alias uses (counting those inside aliased lists and mappings) a document may make: the yaml package's own default. */
const MAX_ALIASES = 100;
/** The most characters a snapshot's YAML may stand for once its aliases are expanded: more could never be saved. */
const EXPANDED_MAX = 2 * LAYER3_MAX;

/**
 * How many characters of text `doc` stands for with every alias expanded, counted on the parsed
 * nodes (each node once) before anything is built: a "billion laughs" of few aliases to long
 * strings is refused here, where the alias count alone would let it through. Stops counting past EXPANDED_MAX.
 */
function expandedSize(doc: Document): number {
  const known = new Map<object, number>();
  const open = new Set<object>();
  const size = (node: unknown): number => {
    if (!node || typeof node !== "object") return 0;
    if (isAlias(node)) {
      const target = node.resolve(doc);
      return target && !open.has(target) ? size(target) : 0;
    }
    const seen = known.get(node);
    if (seen !== undefined) return seen;
    let n = 1;
    if (isScalar(node)) n += String(node.value ?? "").length;
    else if (isPair(node)) n += size(node.key) + size(node.value);
    else if (isCollection(node)) {
      open.add(node);
      for (const item of node.items) if ((n += size(item)) > EXPANDED_MAX) break;
      open.delete(node);
    }
    known.set(node, n);
    return n;
  };
  return size(doc.contents);
}
