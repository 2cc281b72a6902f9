// Reading a snapshot from the spec's format: YAML front matter (Layer 1 and Layer 2 fields) and a
// markdown body (Layer 3), or a plain YAML mapping, or command-line flags. Unknown fields are
// kept (in `extra`) with a warning naming them, never dropped.
// Every text read here loses its control characters and is measured (input-limits.ts).
import { isAlias, isCollection, isMap, isPair, isScalar, parseDocument, YAMLParseError, type Document } from "yaml";
import { UserError } from "../../errors.ts";
import { trimLines, trimValue } from "../../lib/text.ts";
import { writtenCount } from "../failures/graph.ts";
import { checkSizes, controlWarning, stripControl, stripControlDeep, LAYER3_MAX } from "./input-limits.ts";
import { asWritten, parsePlan, planAsWritten } from "./plan.ts";
import type { FailureGraphEntry, PlanItem, SnapshotStatus } from "../../store/store.ts";

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
  "snapshot_id", "created_at", "version", "goal", "state", "next_action", "active_files", "blocker",
  "constraints", "decisions", "failure_graph", "excluded_paths", "auto_trigger", "status", "topic", "layer3",
  "plan", "tags",
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
  if (typeof v === "string") return trimValue(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  throw new UserError(`${field} must be a single line of text, not a ${Array.isArray(v) ? "list" : "mapping"}.`);
}

function list(field: string, v: unknown): string[] {
  if (v === null || v === undefined) return [];
  if (typeof v === "string") return trimValue(v) ? [trimValue(v)] : [];
  if (!Array.isArray(v)) throw new UserError(`${field} must be a list of text items.`);
  return v.map((item, i) => {
    if (item !== null && typeof item === "object") {
      // `- {path: src/a.ts}` style entries from other tools: keep the text we can identify.
      const o = item as Record<string, unknown>;
      const t = o.path ?? o.file ?? o.text ?? o.value;
      if (typeof t === "string") return trimValue(t);
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
    else if (typeof entry === "object" && !Array.isArray(entry)) {
      // A count that is no number ("lots") would be stored as written and counted as 1: refused.
      const count = (entry as FailureGraphEntry).repeat_count as unknown;
      if (count !== undefined && count !== null && Number.isNaN(writtenCount(count))) {
        throw new UserError(`failure_graph entry ${JSON.stringify(item.trim())} has repeat_count ${JSON.stringify(count)}; give a number (how many times it was tried).`);
      }
      out[item.trim()] = entry as FailureGraphEntry;
    }
    else throw new UserError(`failure_graph entry ${JSON.stringify(item)} must be a mapping.`);
  }
  return out;
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
      const key = yaml.slice(e.pos[0]).split("\n")[0].replace(/\s*:(\s.*)?$/, "").replace(/^["']|["']$/g, "");
      throw new UserError(`${origin} gives ${JSON.stringify(key)} twice${where ? ` (the second${where})` : ""}; give each field once.`);
    }
    const what = e.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
    throw new UserError(`${origin} is not valid YAML${where}: ${what}.`.replace(/\.\.$/, "."));
  }
  if (expandedSize(doc) > EXPANDED_MAX) {
    throw new UserError(`${origin} uses YAML aliases (*name) that would expand it to more than ${EXPANDED_MAX / 1024 / 1024} MB of text; write the values out instead.`);
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
  const layer3 = [typeof data.layer3 === "string" ? trimLines(data.layer3) : "", trimLines(body)].filter(Boolean);
  input.layer3 = layer3.join("\n\n");
  const unknown = Object.keys(data).filter((k) => !KNOWN.has(k));
  // Defined, not assigned: a field named `__proto__` is kept like any other.
  for (const k of unknown) Object.defineProperty(input.extra, k, { value: data[k], enumerable: true, writable: true, configurable: true });
  if (unknown.length) {
    input.warnings.push(`Kept fields the spec does not define (stored with the snapshot's Layer 3): ${unknown.join(", ")}.`);
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

// Legacy `excluded_paths` lines, as the spec writes them: "Don't use Tailwind — causes style
// conflict", "websocket reconnect failed 3 times, switched to polling", "不要用Redux：太重了".

const NUMBER_WORDS: Record<string, number> = {
  once: 1, twice: 2, thrice: 3, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10,
};
const COUNT = String.raw`(?:(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s*(?:times|x|tries|attempts)|[x×]\s*(\d+)|(once|twice|thrice))(?![a-z])`;
const ZH_COUNT = String.raw`(?:了|过)?\s*(\d+|[一二两三四五六七八九十])\s*[次遍回]`;
const CLAUSE_END = String.raw`(?=\s*(?:[,，;；.。]|$))`;
/** "tried SSR twice": the item sits between the verb and the count, which ends its clause ("tried it once more" is no count). */
const TRIED_FIRST = new RegExp(String.raw`^(?:tried|attempted|retried)\s+(.+?)\s+${COUNT}${CLAUSE_END}`, "i");
/** "X failed 3 times", "X failed" (at the end of its clause), "X失败了3次", "X试了两次". */
const FAILED = new RegExp(String.raw`\s*(?:\b(failed|tried|attempted|retried)\s+${COUNT}|\b(failed)${CLAUSE_END}|(失败|试|尝试|重试)${ZH_COUNT}|(失败)(?:了)?${CLAUSE_END})`, "i");
const ALTERNATIVES = [
  String.raw`(?:and\s+|so\s+|then\s+)?(?:switched|switching|switch|moved|moving|migrated|migrating|fell\s+back|falling\s+back|fall\s+back|went|going)\s+(?:back\s+|over\s+)?(?:to|with)\s+([^,;，；]+?)(?:\s+instead)?`,
  String.raw`(?:so\s+|then\s+)?(?:use|using|used|try|trying|went\s+with)\s+([^,;，；]+?)\s+instead`,
  String.raw`instead,?\s+(?:use|using|used)\s+([^,;，；]+?)`,
  String.raw`replaced\s+(?:it\s+|them\s+)?(?:with|by)\s+([^,;，；]+?)`,
].map((src) => new RegExp(String.raw`(?:^|\s*[,;]\s*|\s+[—–-]+\s+|\s+)${src}(?=\s*(?:[,;，；。]|\.(?:\s|$)|$))`, "gi"));
const ZH_ALTERNATIVES = [
  /[，,；;]?\s*(?:改用|换成|换用|改为|改成|切换到|切换为|转用|换到)\s*([^，,；;。]+)/g,
  /[，,；;]?\s*(?:用|使用)\s*([^，,；;。]+?)\s*(?:代替|替代)(?=[，,；;。]|$)/g,
];
/** "use Y instead of X", "用Y代替X": the whole line names the replacement first. */
const SWAPS = [
  /^(?:use|using|used|switched\s+to|switch\s+to|went\s+with)\s+(.+?)\s+(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+/i,
  /^(?:用|使用|改用)\s*(.+?)\s*(?:代替|替代|取代)\s*/,
];
const EDGES = /^[\s,，;；:：—–-]+|[\s,，;；:：—–.。-]+$/g;

/** The first group that is a count ("3", "twice", "两"). */
function countOf(m: RegExpExecArray): number | undefined {
  for (const g of m.slice(1)) {
    const n = g === undefined ? NaN : /^\d+$/.test(g) ? Number(g) : NUMBER_WORDS[g.toLowerCase()] ?? NaN;
    if (n > 0) return n;
  }
  return undefined;
}

/**
 * A legacy line as a failure: the item (its leading "don't use"/"tried"/不要用 removed), why it
 * failed, how often ("3 times", "twice", "3x", "失败了3次" → repeat_count) and what replaced it
 * ("switched to polling", "use Y instead", "改用Y" → alternatives).
 */
export function legacyExcludedPath(line: string): { item: string; entry: FailureGraphEntry } {
  const alternatives: string[] = [];
  let rest = line.trim();
  for (const re of SWAPS) {
    const m = re.exec(rest);
    if (m && m[0].length < rest.length) {
      alternatives.push(m[1].replace(EDGES, ""));
      rest = rest.slice(m[0].length);
    }
  }
  for (const re of [...ALTERNATIVES, ...ZH_ALTERNATIVES]) {
    rest = rest.replace(re, (_m, alt: string) => {
      const a = alt.replace(EDGES, "");
      if (a && !alternatives.includes(a)) alternatives.push(a);
      return "";
    });
  }
  rest = rest.replace(EDGES, "") || line.trim();

  let item: string;
  let reason: string;
  let failure = "";
  let tried = "";
  let repeat: number | undefined;
  const first = TRIED_FIRST.exec(rest);
  if (first) {
    // "tried SSR twice, too slow"
    item = first[1];
    repeat = countOf(first);
    tried = first[0].replace(first[1], "").replace(/\s+/g, " ").trim();
    reason = rest.slice(first[0].length).replace(EDGES, "");
  } else {
    const sep = /\s+[—–-]{1,2}\s+|:\s+|;\s+|,?\s+because\s+|[,，]?\s*因为\s*|[：；]\s*/i.exec(rest);
    item = (sep ? rest.slice(0, sep.index) : rest).trim();
    reason = sep ? rest.slice(sep.index + sep[0].length).trim() : "";
    const fail = FAILED.exec(item);
    if (fail && fail.index > 0) {
      // "websocket reconnect failed 3 times behind the proxy": the item, then what happened.
      const phrase = fail[0].trim();
      const after = item.slice(fail.index + fail[0].length).replace(EDGES, "");
      item = item.slice(0, fail.index);
      repeat = countOf(fail);
      if (/^(?:failed|失败)/i.test(phrase)) failure = [phrase, after].filter(Boolean).join(" ");
      else { tried = phrase; reason = [after, reason].filter(Boolean).join(": "); }
    } else {
      // "Redis cache — failed twice": the count is in the reason, which stays as written.
      const inReason = FAILED.exec(reason);
      if (inReason) repeat = countOf(inReason);
    }
  }
  item = item.replace(EDGES, "")
    .replace(/^(?:don'?t|do not|never|avoid|no longer|stop)\s+(?:use|using|try|trying)?\s*|^no\s+|^(?:tried|attempted)\s+|^(?:不要|别|禁止|避免|不)(?:用|使用|再用)?/i, "")
    .trim() || line.trim();
  const entry: FailureGraphEntry = { rejected_by: "system", reason: [failure, reason].filter(Boolean).join(": ") || tried || "(no reason recorded)" };
  if (repeat !== undefined) entry.repeat_count = repeat;
  if (alternatives.length) entry.alternatives = alternatives;
  return { item, entry };
}

/**
 * The failure graph with the legacy lines added. A line whose item a failure already names is kept
 * under its whole text, so no two are merged into one; only a line that repeats one is left out.
 */
export function withLegacyFailures(graph: Record<string, FailureGraphEntry>, lines: string[], warn: (message: string) => void): Record<string, FailureGraphEntry> {
  const out = { ...graph };
  for (const line of lines) {
    const { item, entry } = legacyExcludedPath(line);
    const key = [item, line.trim()].find((k) => out[k] === undefined);
    if (key === undefined) warn(`Failure "${line.trim()}" was left out: it repeats the failure "${item}".`);
    else out[key] = entry;
  }
  return out;
}

/** Fields of one text, and fields that list texts: what YAML reads there as a number or boolean is text. */
const TEXT_FIELDS = new Set(["goal", "state", "next_action", "blocker", "topic", "snapshot_id", "layer3", "active_files", "constraints", "decisions", "excluded_paths", "tags"]);

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
        if (isMap(entry.value)) for (const f of entry.value.items) if (!(isScalar(f.key) && f.key.value === "repeat_count")) asWritten(f.value);
      }
    }
  }
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
