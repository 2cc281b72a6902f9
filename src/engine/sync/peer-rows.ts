// A peer's rows before they enter this store: each passes the caps and shapes a save or an import
// holds a row to (field sizes, the JSON columns' types, status and kind values, dates, clocks). A
// row that does not is refused (quarantined), never merged: a drive anyone can write to cannot put
// into this store what its own writes never would (a malformed JSON column stops every later write
// of the search index; a snapshot dated years ahead would be what `load --latest` restores forever).
import { FIELD_MAX, LAYER3_MAX } from "../snapshots/input-limits.ts";
import { PLAN_ITEM_MAX, PLAN_MAX_ITEMS } from "../snapshots/plan.ts";
import { safeName } from "../snapshots/slug.ts";
import { headTokens, lineTokens } from "../snapshots/stored-tokens.ts";
import { MAX_AHEAD_MS } from "../../store/hlc.ts";
import { keyOf, type SyncRow, type SyncSide } from "../../store/sync.ts";
import { SNAPSHOT_STATUSES } from "../../store/records.ts";

type Value = SyncRow[string];
/** What is wrong with a value, as the end of a sentence that names it ("is not text"); null when it is fine. */
type Check = (v: Value) => string | null;

const n = (x: number) => x.toLocaleString("en-US");
const DAY_MS = 24 * 60 * 60 * 1000;
/** The longest id or key a row may carry (ours are at most a few dozen characters). */
const ID_MAX = 256;
/** A clock as MindSave writes it; a 5-digit counter is one written before the overflow rule (see hlc.ts). */
const CLOCK = /^\d{13}-\d{4,5}-[A-Za-z0-9._:-]{0,64}$/;

/** Text of at most `max` characters (`empty`: may be blank). */
const text =
  (max: number, empty = true): Check =>
  (v) => {
    if (typeof v !== "string") return "is not text";
    if (v.length > max) return `is ${n(v.length)} characters, more than ${n(max)}`;
    return !empty && !v.trim() ? "is empty" : null;
  };
const orNull =
  (check: Check): Check =>
  (v) =>
    v === null ? null : check(v);
const id = text(ID_MAX, false);
const clock: Check = (v) => (typeof v === "string" && CLOCK.test(v) ? null : "is not a clock");
const flag: Check = (v) => (v === 0 || v === 1 ? null : "is not 0 or 1");
const count: Check = (v) =>
  typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? null : "is not a count";
const date: Check = (v) =>
  typeof v === "string" && v.length <= 40 && /^\d{4}-\d\d-\d\d/.test(v) && Number.isFinite(Date.parse(v))
    ? null
    : "is not a date";
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === "string" && values.includes(v) ? null : `is not one of ${values.join(", ")}`;

/** A JSON column: text that parses, and whose value `shape` accepts. */
const json =
  (what: string, shape: (x: unknown) => boolean): Check =>
  (v) => {
    if (typeof v !== "string") return `is not ${what}`;
    try {
      return shape(JSON.parse(v)) ? null : `is not ${what}`;
    } catch {
      return `is not valid JSON (${what})`;
    }
  };
const isMap = (x: unknown): x is Record<string, unknown> => !!x && typeof x === "object" && !Array.isArray(x);
const short = (x: unknown) => typeof x === "string" && x.length <= FIELD_MAX;
const textList = json("a list of text", (x) => Array.isArray(x) && x.every(short));
const files = json("a list of files", (x) => Array.isArray(x) && x.every((f) => isMap(f) && short(f.path)));
const map = json("a mapping", isMap);
/** A failure_graph: each item a mapping, its text fields within a field's size. */
const graphEntry = ([item, e]: [string, unknown]) =>
  short(item) && isMap(e) && Object.values(e).every((f) => typeof f !== "string" || short(f));
const graph = json("a failure graph", (x) => isMap(x) && Object.entries(x).every(graphEntry));
const planStep = (s: unknown) =>
  isMap(s) &&
  typeof s.content === "string" &&
  s.content.length <= PLAN_ITEM_MAX &&
  ["pending", "in_progress", "completed"].includes(String(s.status));
const plan = json(
  "a plan (a list of steps with content and status)",
  (x) => Array.isArray(x) && x.length <= PLAN_MAX_ITEMS && x.every(planStep),
);

/** Every synced table's columns and what each must be. */
const REPLICATED = { hlc: clock, host: text(ID_MAX), deleted: flag };
const FIELD = text(FIELD_MAX);
const SHAPES: Record<string, Record<string, Check>> = {
  hosts: { id, name: FIELD, platform: FIELD, first_seen: date, last_seen: date, ...REPLICATED },
  projects: {
    id,
    identity: FIELD,
    name: FIELD,
    remote: orNull(FIELD),
    created_at: date,
    merged_into: orNull(id),
    ...REPLICATED,
  },
  roots: { id, project_id: id, host_id: id, path: FIELD, last_used: date, ...REPLICATED },
  snapshots: {
    id,
    project_id: id,
    name: FIELD,
    topic: FIELD,
    kind: oneOf("full", "overflow"),
    status: oneOf(...SNAPSHOT_STATUSES),
    created_at: date,
    version: text(64),
    goal: FIELD,
    state: FIELD,
    next_action: FIELD,
    blocker: FIELD,
    active_files: files,
    constraints: textList,
    decisions: textList,
    failure_graph: graph,
    compressed: orNull(map),
    layer3: text(LAYER3_MAX),
    auto_trigger: orNull(map),
    extra: orNull(map),
    l1_tokens: count,
    l2_tokens: count,
    saved_host: text(ID_MAX),
    saved_root: orNull(FIELD),
    plan: orNull(plan),
    tags: textList,
    saved_agent: orNull(text(ID_MAX)),
    ...REPLICATED,
  },
  failures: {
    id,
    project_id: orNull(id),
    scope: oneOf("project", "global"),
    item: text(FIELD_MAX, false),
    rejected_by: oneOf("user", "system"),
    reason: FIELD,
    confidence: orNull(oneOf("high", "medium", "low")),
    schema_version: text(64),
    first_seen: date,
    last_seen: date,
    ...REPLICATED,
  },
  failure_counts: { failure_id: id, host_id: id, count, hlc: clock },
  failure_links: {
    id,
    failure_id: id,
    kind: oneOf("related", "alternative", "forgotten"),
    value: FIELD,
    ...REPLICATED,
  },
  signals: { project_id: id, data: map, ...REPLICATED },
  tool_calls: {
    id,
    project_id: id,
    session_id: orNull(FIELD),
    timestamp: FIELD,
    action: FIELD,
    tool: FIELD,
    target: FIELD,
    summary: FIELD,
    ...REPLICATED,
  },
  rules: {
    id,
    project_id: orNull(id),
    scope: oneOf("project", "global"),
    text: FIELD,
    created_at: date,
    ...REPLICATED,
  },
  facts: {
    id,
    project_id: orNull(id),
    scope: oneOf("project", "global"),
    text: FIELD,
    confidence: oneOf("low", "medium", "high"),
    created_at: date,
    confirmed_at: date,
    expires_at: orNull(date),
    ...REPLICATED,
  },
  retirements: {
    id,
    project_id: id,
    kind: oneOf("constraint", "decision"),
    text: FIELD,
    reason: FIELD,
    retired_at: date,
    retired_by: FIELD,
    ...REPLICATED,
  },
  off_switches: {
    id,
    scope: oneOf("project", "host"),
    project_id: orNull(id),
    host_id: orNull(id),
    off_at: date,
    ...REPLICATED,
  },
};

/**
 * Why a peer's row of `tbl` may not enter this store (one phrase naming the column), or null when
 * it may. `now`: this host's wall clock; a snapshot dated more than MAX_AHEAD_MS after it is refused.
 */
export function refusal(tbl: string, row: SyncRow, now: number): string | null {
  const shape = SHAPES[tbl];
  if (!shape) return null;
  for (const [column, check] of Object.entries(shape)) {
    // A column this version knows that the peer's row lacks: the store's default applies.
    if (!(column in row)) continue;
    const wrong = check(row[column]);
    if (wrong) return `${column} ${wrong}`;
  }
  if (tbl === "snapshots") return snapshotRefusal(row, now);
  return null;
}

/** What only a snapshot as a whole can break: Layer 3's size, and a date ahead of this host's clock. */
function snapshotRefusal(row: SyncRow, now: number): string | null {
  const layer3 = String(row.layer3).length + (row.extra === null ? 0 : String(row.extra).length);
  if (layer3 > LAYER3_MAX)
    return `Layer 3 (layer3 and extra) is ${n(layer3)} characters, more than ${n(LAYER3_MAX)}`;
  const ahead = Date.parse(String(row.created_at)) - now;
  if (ahead > MAX_AHEAD_MS)
    return `created_at is ${Math.floor(ahead / DAY_MS)} day(s) ahead of this host's clock`;
  return null;
}

/** A row one side offered and the other refused: not merged, kept by name in the refusing store (`mindsave doctor`). */
export interface Refused {
  table: string;
  key: string;
  why: string;
}

/**
 * A peer's row as it may enter this store: a snapshot name that is not a safe file name (`../..`,
 * `CON`, a NUL) is renamed the same way on every store, so a hostile peer cannot steer an export.
 */
function fromOutside(tbl: string, row: SyncRow): SyncRow {
  if (tbl !== "snapshots" || typeof row.name !== "string") return row;
  const name = safeName(row.name, String(row.id));
  return name === row.name ? row : { ...row, name };
}

/**
 * A peer's row with the token counts this store keeps with its text (stored-tokens.ts), counted
 * here: a peer's own (absent before schema 9, or wrong) are never taken; null counts at restore.
 */
function withTokenCounts(tbl: string, row: SyncRow): SyncRow {
  // A deleted snapshot's text is gone: no counts, as tombstoneSnapshot leaves it.
  if (tbl === "snapshots" && row.deleted) return { ...row, line_tokens: null };
  if (tbl === "failures") {
    const { item, reason } = row;
    const known = typeof item === "string" && typeof reason === "string";
    return { ...row, head_tokens: known ? headTokens({ item, reason }) : null };
  }
  if (tbl !== "snapshots") return row;
  const { constraints, decisions } = row;
  const known = typeof constraints === "string" && typeof decisions === "string";
  // (The shape checks above passed: both are lists of text.)
  const counts = known
    ? lineTokens({ constraints: JSON.parse(constraints), decisions: JSON.parse(decisions) })
    : null;
  return { ...row, line_tokens: counts && JSON.stringify(counts) };
}

/**
 * The most characters of a refused row's key kept and shown: a key that long is itself what is
 * wrong (ids are at most ID_MAX), and a hostile one may be megabytes.
 */
const KEY_KEPT = 4 * ID_MAX;

/** What `admit` needs to know of a pull: whose rows, refused before, and where to list refusals. */
export interface Admission {
  now: number;
  fromId: string;
  location: string;
  /** Keys of the rows refused from this peer before, by table. */
  held: Map<string, Set<string>>;
  refused: Refused[];
}

/**
 * The rows of one batch that may enter `w`'s store: each passes the shape checks of a save or an
 * import (`refusal` above), or it is refused: kept there by name (never merged, never blocking the
 * others) and listed in `refused`. A row refused before and offered well formed now is let go.
 */
export async function admit(w: SyncSide, tbl: string, offered: SyncRow[], a: Admission): Promise<SyncRow[]> {
  const out: SyncRow[] = [];
  for (const row of offered) {
    const key = keyOf(tbl, row);
    const why = refusal(tbl, row, a.now);
    if (why) {
      const kept = key.slice(0, KEY_KEPT);
      a.refused.push({ table: tbl, key: kept, why });
      await w.quarantine({
        peer: a.fromId,
        location: a.location,
        tbl,
        key: kept,
        why,
        hlc: String(row.hlc ?? "").slice(0, KEY_KEPT),
        at: new Date(a.now).toISOString(),
      });
      continue;
    }
    if (a.held.get(tbl)?.has(key)) await w.release(a.fromId, tbl, key);
    out.push(withTokenCounts(tbl, fromOutside(tbl, row)));
  }
  return out;
}

/** The rows refused from `fromId` before, by table: asked for again at each pull (fixed there since, or now in time). */
export async function heldKeys(dst: SyncSide, fromId: string): Promise<Map<string, Set<string>>> {
  const held = new Map<string, Set<string>>();
  for (const q of await dst.quarantined(fromId)) held.set(q.tbl, (held.get(q.tbl) ?? new Set()).add(q.key));
  return held;
}

/**
 * The keys one page of a pull asks the peer for, by table: the page's changes, and on the first
 * page the rows refused from it before (`held`: fixed there since, or a snapshot dated ahead that
 * is within a day of this host's clock now: they go in), asked once, on that page only.
 */
export function keysToAsk(
  changes: { tbl: string; key: string }[],
  held: Map<string, Set<string>>,
  firstPage: boolean,
): Map<string, string[]> {
  const asked = new Map<string, Set<string>>();
  const ask = (tbl: string, key: string) => asked.set(tbl, (asked.get(tbl) ?? new Set()).add(key));
  for (const c of changes) if (firstPage || !held.get(c.tbl)?.has(c.key)) ask(c.tbl, c.key);
  if (firstPage) for (const [tbl, keys] of held) for (const key of keys) ask(tbl, key);
  return new Map([...asked].map(([tbl, keys]) => [tbl, [...keys]]));
}
