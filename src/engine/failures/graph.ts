// The failure graph: rejected approaches with reason, who rejected them, how often, how sure, scope,
// related items and alternatives. One record per (scope, project, item) with an id derived from
// them, so two hosts that reject the same thing converge on one record; repeat_count is the sum of
// per-host counters.
import { derivedId } from "../ids.ts";
import { redactDeep } from "../snapshots/redact.ts";
import { headTokens } from "../snapshots/stored-tokens.ts";
import { UserError } from "../../errors.ts";
import type { FailureGraphEntry, FailureRank, FailureRecord, StoreWriter } from "../../store/store.ts";
import { compareCodePoints, compareCodes, compareText } from "../../lib/text.ts";
import { CONFIDENCE_LEVELS, FAILURE_HALF_LIFE_DAYS, baseWeight } from "../../store/failure-ranks.ts";

export type Confidence = "high" | "medium" | "low";
export type RejectedBy = "user" | "system";
export type FailureScope = "project" | "global";

export interface FailureObservation {
  item: string;
  reason?: string;
  rejected_by?: string;
  scope?: string;
  confidence?: string;
  related?: string[];
  alternatives?: string[];
  /** Count this observation as one more repeat (the `fail` command) … */
  increment?: boolean;
  /** … or make sure the total is at least this many (a snapshot's failure_graph). */
  atLeast?: number;
  /** … or take in these hosts' counters as they are (an import of MindSave's own export). */
  counts?: Record<string, number>;
  /** An edit of a recorded failure (its reason, alternatives), not a new sighting: last seen and the count stay. */
  edit?: boolean;
  /**
   * A snapshot's mention: one no newer than the record's last sighting (an old snapshot imported
   * again) does not rewrite who rejected it, why or how sure; it still counts and adds links.
   */
  mention?: boolean;
}

const DAY = 24 * 60 * 60 * 1000;

/** A timestamp's time (NaN when it is none): each failure's is read once per ranking (sortFailures). */
const timeOf = (iso: string): number => Date.parse(iso);

export function normaliseItem(item: string): string {
  return item.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
}

export function failureId(scope: FailureScope, projectId: string | null, item: string): string {
  return scope === "global"
    ? derivedId("f", "global", normaliseItem(item))
    : derivedId("f", "project", projectId ?? "", normaliseItem(item));
}

/** The original's rule: high at 3+ repeats; medium at 2, or once within 7 days; else low. */
export function derivedConfidence(repeatCount: number, lastSeen: string, now: Date): Confidence {
  return derivedAt(repeatCount, timeOf(lastSeen), now.getTime());
}

/** derivedConfidence on times already read (ms). */
function derivedAt(repeatCount: number, seen: number, nowMs: number): Confidence {
  if (repeatCount >= 3) return "high";
  if (repeatCount === 2) return "medium";
  return Number.isFinite(seen) && nowMs - seen <= 7 * DAY ? "medium" : "low";
}

/**
 * Failures age: a failure not seen again loses one confidence level per half-life since it was last
 * seen (project 30 days, global 90: a project moves on faster than a habit), and its weight in the
 * restore block halves as well, so fresh failures outlive stale ones when the block is trimmed.
 */
export { FAILURE_HALF_LIFE_DAYS };

const LEVELS: readonly Confidence[] = CONFIDENCE_LEVELS;

function halfLives(f: Pick<FailureRecord, "scope" | "last_seen">, now: Date): number {
  return halfLivesAt(f.scope, timeOf(f.last_seen), now.getTime());
}

/** halfLives on times already read (ms). */
function halfLivesAt(scope: string, seen: number, nowMs: number): number {
  const days = Number.isFinite(seen) ? Math.max(0, nowMs - seen) / DAY : 0;
  return days / FAILURE_HALF_LIFE_DAYS[scope === "global" ? "global" : "project"];
}

/** The confidence stated for a failure, else the original's rule: the spec's `confidence` field. */
export function statedConfidence(
  f: Pick<FailureRank, "confidence" | "repeat_count" | "last_seen">,
  now: Date,
): Confidence {
  return (f.confidence as Confidence | null) ?? derivedConfidence(f.repeat_count, f.last_seen, now);
}

/** The confidence the restore block and `mindsave failures` show: the stated one, aged. */
export function effectiveConfidence(
  f: Pick<FailureRank, "confidence" | "repeat_count" | "last_seen" | "scope">,
  now: Date,
): Confidence {
  const base = statedConfidence(f, now);
  return LEVELS[Math.max(0, LEVELS.indexOf(base) - Math.floor(halfLives(f, now)))];
}

/**
 * How much a failure weighs when the block is trimmed: its stated (or derived) confidence, more for
 * a person's rejection, more for each doubling of its repeats, halved every half-life. Repeats weigh
 * on their own: a ×8 failure outranks a ×1 one of the same confidence recorded a second later.
 */
export function failureWeight(f: FailureRank, now: Date): number {
  return weightAt(f, now.getTime());
}

/** failureWeight with its last_seen read once (every load weighs every failure in the interpreter). */
function weightAt(f: FailureRank, nowMs: number): number {
  const seen = timeOf(f.last_seen);
  const base = (f.confidence as Confidence | null) ?? derivedAt(f.repeat_count, seen, nowMs);
  // The same base the store's ranking keys hold (src/store/failure-ranks.ts).
  return (
    baseWeight(LEVELS.indexOf(base), f.rejected_by, f.repeat_count) * 0.5 ** halfLivesAt(f.scope, seen, nowMs)
  );
}

function oneOf<T extends string>(field: string, v: string | undefined, allowed: readonly T[]): T | undefined {
  if (v === undefined || v === null || v === "") return undefined;
  const s = String(v).trim().toLowerCase() as T;
  if (!allowed.includes(s))
    throw new UserError(`${field} must be ${allowed.join(" or ")}, not ${JSON.stringify(v)}.`);
  return s;
}

export function validateObservation(o: FailureObservation): void {
  if (!o.item || !o.item.trim())
    throw new UserError(
      "A failure needs the item that was rejected (e.g. `mindsave fail Tailwind --reason ...`).",
    );
  try {
    oneOf("rejected_by", o.rejected_by, ["user", "system"] as const);
    oneOf("scope", o.scope, ["project", "global"] as const);
    oneOf("confidence", o.confidence, ["high", "medium", "low"] as const);
  } catch (e) {
    throw new UserError(`Failure ${JSON.stringify(o.item.trim())}: ${(e as Error).message}`);
  }
}

/** Removes a failure from the graph (a tombstone, so the removal travels with sync). */
export async function forgetFailure(
  w: StoreWriter,
  projectId: string | null,
  item: string,
  scope?: string,
): Promise<FailureRecord> {
  const candidates = [
    ...(scope !== "global" && projectId ? [failureId("project", projectId, item)] : []),
    ...(scope !== "project" ? [failureId("global", null, item)] : []),
  ];
  for (const id of candidates) {
    const f = await w.getFailure(id);
    if (f && !f.deleted) {
      await w.tombstoneFailure(id);
      // Its alternatives and related items go with it: recorded again later, it starts without them.
      for (const r of f.related)
        await w.putFailureLink(derivedId("l", id, "related", r), id, "related", r, true);
      for (const a of f.alternatives)
        await w.putFailureLink(derivedId("l", id, "alternative", a), id, "alternative", a, true);
      // Its repeats too: the counters only grow, so where they stand now is where it counts from.
      await w.putFailureLink(
        derivedId("l", id, "forgotten"),
        id,
        "forgotten",
        JSON.stringify(await w.failureCounters(id)),
      );
      return f;
    }
  }
  throw new UserError(
    `No failure ${JSON.stringify(item)} in ${scope ? `the ${scope} graph` : "this project's or the global graph"}; see \`mindsave failures\`.`,
  );
}

/** A new failure without its reason; `how` says where to give it (a command names its flag). */
export class MissingReason extends UserError {
  constructor(
    readonly item: string,
    how = "the reason",
  ) {
    super(`A new failure needs a reason: say why ${JSON.stringify(item)} failed or was rejected (${how}).`);
  }
}

const uniq = (xs: string[]) => [...new Set(xs.map((x) => x.trim()).filter(Boolean))];

/** Records an observation of a failure inside the caller's write transaction. */
export async function observeFailure(
  w: StoreWriter,
  projectId: string | null,
  raw: FailureObservation,
  now: Date,
  before?: { reason?: string },
): Promise<FailureRecord> {
  const o = redactDeep(raw);
  validateObservation(o);
  const scope = await scopeOf(w, projectId, o);
  const item = o.item.trim();
  const id = failureId(scope, scope === "global" ? null : projectId, item);
  const existing = await w.getFailure(id);
  const live = existing && !existing.deleted ? existing : null;
  if (before && live) before.reason = live.reason; // what the caller may say was replaced
  if (!live && o.edit)
    throw new UserError(
      `No failure ${JSON.stringify(item)} in the ${scope} graph to edit (forgotten meanwhile?); record it again.`,
    );
  if (!live && !o.reason?.trim()) {
    throw new MissingReason(item);
  }
  const row = failureRow(o, live, { id, scope, projectId, item }, now.toISOString());
  // A repeat that changes nothing of the record is not written again (an import observes each
  // failure once per snapshot that mentions it); its count and links still are, below.
  if (!live || !RECORD_FIELDS.every((k) => live[k] === row[k]))
    await w.upsertFailure({ ...row, head_tokens: headTokens(row) });
  await countRepeat(w, id, o, live);
  await addLinks(w, id, o, live);
  return (await w.getFailure(id))!;
}

/** The graph an observation goes to: its scope, or without one, the graph that already has the item. */
async function scopeOf(
  w: StoreWriter,
  projectId: string | null,
  o: FailureObservation,
): Promise<FailureScope> {
  let scope = oneOf("scope", o.scope, ["project", "global"] as const);
  if (!scope) {
    // Without a scope, an item already in the global graph (and not in the project's) is that one.
    const inProject = projectId ? await w.getFailure(failureId("project", projectId, o.item)) : null;
    const inGlobal = await w.getFailure(failureId("global", null, o.item));
    scope = (!inProject || inProject.deleted) && inGlobal && !inGlobal.deleted ? "global" : "project";
  }
  if (scope === "project" && !projectId)
    throw new UserError("A project-scoped failure needs a project; use --scope global outside a project.");
  return scope;
}

/** The fields of a failure's record an observation may change. */
const RECORD_FIELDS = [
  "item",
  "rejected_by",
  "reason",
  "confidence",
  "schema_version",
  "first_seen",
  "last_seen",
] as const;

/** The failure's record after the observation: what it says over what was recorded. */
function failureRow(
  o: FailureObservation,
  live: FailureRecord | null,
  at: { id: string; scope: FailureScope; projectId: string | null; item: string },
  iso: string,
) {
  // A mention no newer than the record's last sighting says what was true then, not now (the
  // record may hold a failure node's word for that same moment).
  const stale = !!(o.mention && live && iso <= live.last_seen);
  const said: Pick<FailureObservation, "rejected_by" | "reason" | "confidence"> = stale ? {} : o;
  return {
    id: at.id,
    project_id: at.scope === "global" ? null : at.projectId,
    scope: at.scope,
    item: live?.item ?? at.item,
    rejected_by:
      oneOf("rejected_by", said.rejected_by, ["user", "system"] as const) ?? live?.rejected_by ?? "user",
    reason: said.reason?.trim() || live?.reason || "",
    confidence:
      oneOf("confidence", said.confidence, ["high", "medium", "low"] as const) ?? live?.confidence ?? null,
    schema_version: "1.0",
    ...seenTimes(live, iso, !!o.edit),
  };
}

/** First and last seen: an edit is no sighting, and a sighting older than the record's moves neither. */
function seenTimes(
  live: FailureRecord | null,
  iso: string,
  edit: boolean,
): { first_seen: string; last_seen: string } {
  return {
    first_seen: live && live.first_seen < iso ? live.first_seen : iso,
    last_seen: live && (edit || live.last_seen > iso) ? live.last_seen : iso,
  };
}

/** This host's counter after the observation: one more, at least a floor, or another store's counters taken in. */
async function countRepeat(
  w: StoreWriter,
  id: string,
  o: FailureObservation,
  live: FailureRecord | null,
): Promise<void> {
  const total = live?.repeat_count ?? 0;
  const mine = o.counts ? 0 : await w.ownFailureCount(id);
  if (o.counts) {
    await w.mergeFailureCounts(id, o.counts);
  } else if (o.edit) {
    // Not seen again: the count stays.
  } else if (o.increment || !live) {
    const target = Math.max(total + 1, o.atLeast ?? 0);
    await w.setFailureCount(id, mine + (target - total));
  } else if (o.atLeast && o.atLeast > total) {
    await w.setFailureCount(id, mine + (o.atLeast - total));
  }
}

/** Related items and alternatives the record does not have yet, linked. */
async function addLinks(w: StoreWriter, id: string, o: FailureObservation, live: FailureRecord | null) {
  const related = new Set(live?.related ?? []);
  for (const r of uniq(o.related ?? []))
    if (!related.has(r)) await w.putFailureLink(derivedId("l", id, "related", r), id, "related", r);
  const alts = new Set(live?.alternatives ?? []);
  for (const a of uniq(o.alternatives ?? []))
    if (!alts.has(a)) await w.putFailureLink(derivedId("l", id, "alternative", a), id, "alternative", a);
}

/**
 * A failure_graph entry's repeat_count as written: a number, or text that is one (" 3 "); NaN for
 * anything else ("lots", ""). Save refuses NaN; import keeps the value aside.
 */
export function writtenCount(v: unknown): number {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) ? n : NaN;
}

/** A snapshot's failure_graph entry as an observation (the entry's repeat_count is a floor, not an increment). */
export function observationFromEntry(item: string, e: FailureGraphEntry): FailureObservation {
  const count = Number(e.repeat_count);
  return {
    item,
    reason: e.reason === undefined ? undefined : String(e.reason),
    rejected_by: e.rejected_by === undefined ? undefined : String(e.rejected_by),
    scope: e.scope === undefined ? undefined : String(e.scope),
    confidence: e.confidence === undefined ? undefined : String(e.confidence),
    related: Array.isArray(e.related) ? e.related.map(String) : [],
    alternatives: Array.isArray(e.alternatives) ? e.alternatives.map(String) : [],
    atLeast: Number.isFinite(count) && count > 0 ? Math.floor(count) : 1,
    mention: true,
  };
}

/** The spec's v3.5 node shape, as stored in a failure_graph mapping. */
export function toGraphEntry(f: FailureRecord, now: Date): FailureGraphEntry {
  return {
    schema_version: f.schema_version,
    rejected_by: f.rejected_by,
    reason: f.reason,
    repeat_count: f.repeat_count,
    confidence: statedConfidence(f, now),
    scope: f.scope,
    related: f.related,
    alternatives: f.alternatives,
    first_seen: f.first_seen,
    last_seen: f.last_seen,
  };
}

/**
 * `failures` highest priority first: weight (confidence, a person's rejection, aged), then repeats,
 * recency, item. Each weight is computed once and compared as numbers: a restore block sorts every
 * failure of a project and the global ones at each load.
 */
export function sortFailures<T extends FailureRank>(failures: T[], now: Date): T[] {
  const nowMs = now.getTime();
  // Weights are sorted natively (a typed array, no comparator: 800 failures took ~8,000 calls of
  // one in the interpreter); only failures of equal weight go through the comparator's ties.
  // (Plain loops: this runs in the interpreter at every load, where a callback per item costs.)
  const byWeight = new Map<number, number[]>();
  for (let i = 0; i < failures.length; i++) {
    const w = weightAt(failures[i], nowMs);
    const same = byWeight.get(w);
    if (same) same.push(i);
    else byWeight.set(w, [i]);
  }
  const weights = Float64Array.from(byWeight.keys()).sort();
  const out: T[] = [];
  for (let k = weights.length - 1; k >= 0; k--) {
    const same = byWeight.get(weights[k])!;
    if (same.length > 1) same.sort((i, j) => equalWeightOrder(failures[i], failures[j]));
    for (let m = 0; m < same.length; m++) out.push(failures[same[m]]);
  }
  return out;
}

/**
 * Between failures of equal weight: more repeats first, then the more recent, then by item; items
 * the same to the collator (a project's and a global failure of one item) as SQLite's BINARY
 * orders them, then by id. A total order: the ranking never depends on the order rows came in.
 */
function equalWeightOrder(a: FailureRank, b: FailureRank): number {
  return (
    b.repeat_count - a.repeat_count ||
    compareCodes(b.last_seen, a.last_seen) ||
    compareText(a.item, b.item) ||
    compareCodePoints(a.item, b.item) ||
    compareCodes(a.id, b.id)
  );
}
