// Row mappers for the store: database rows to records, the value helpers they use, and the
// shared column lists of the read queries.
import type { Exec, Row } from "./db.ts";
import type {
  FactRecord,
  FailureRank,
  FailureRecord,
  HostRecord,
  ProjectRecord,
  PlanItem,
  RetentionRow,
  RetirementRecord,
  RootRecord,
  OffSwitchRecord,
  RuleRecord,
  SnapshotRecord,
  SnapshotSummary,
} from "./records.ts";

export type { Exec };

export function json<T>(v: unknown, fallback: T): T {
  if (v === null || v === undefined || v === "") return fallback;
  try {
    return JSON.parse(String(v)) as T;
  } catch {
    return fallback;
  }
}

export const str = (v: unknown): string => (v === null || v === undefined ? "" : String(v));
export const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function replicated(r: Row) {
  return { hlc: str(r.hlc), host: str(r.host), deleted: Number(r.deleted ?? 0) === 1 };
}

export function toProject(r: Row): ProjectRecord {
  return {
    id: str(r.id),
    identity: str(r.identity),
    name: str(r.name),
    remote: strOrNull(r.remote),
    created_at: str(r.created_at),
    merged_into: strOrNull(r.merged_into),
    ...replicated(r),
  };
}

export function toRoot(r: Row): RootRecord {
  return {
    id: str(r.id),
    project_id: str(r.project_id),
    host_id: str(r.host_id),
    path: str(r.path),
    last_used: str(r.last_used),
    ...replicated(r),
  };
}

export function toHost(r: Row): HostRecord {
  return {
    id: str(r.id),
    name: str(r.name),
    platform: str(r.platform),
    first_seen: str(r.first_seen),
    last_seen: str(r.last_seen),
    ...replicated(r),
  };
}

/**
 * The key a stored plan step keeps MindSave's time of its last status change under: taken out of
 * the verbatim step when read (toSnapshot), put back when written (storedPlan). A sync merges the
 * stored steps as they are (engine/snapshots/plan.ts mergeConcurrentPlans).
 */
export const PLAN_STATUS_AT = "mindsave_status_at";

/** A stored plan read: the steps as the agent gave them, and MindSave's times apart. */
function readPlan(raw: unknown): { plan: PlanItem[] | null; plan_times: (string | null)[] | null } {
  const stored = json<PlanItem[] | null>(raw, null);
  if (!Array.isArray(stored)) return { plan: stored, plan_times: null };
  const times = stored.map((s) =>
    s && typeof s === "object" && typeof s[PLAN_STATUS_AT] === "string"
      ? (s[PLAN_STATUS_AT] as string)
      : null,
  );
  const plan = stored.map((s) => {
    if (!s || typeof s !== "object" || !(PLAN_STATUS_AT in s)) return s;
    const { [PLAN_STATUS_AT]: _time, ...step } = s;
    return step as PlanItem;
  });
  return { plan, plan_times: times.some((t) => t !== null) ? times : null };
}

/** A plan as stored: each step with its time, where MindSave knows one. */
export function storedPlan(plan: PlanItem[] | null, times?: (string | null)[] | null): string | null {
  if (!plan) return null;
  return JSON.stringify(
    times
      ? plan.map((s, i) => (typeof times[i] === "string" ? { ...s, [PLAN_STATUS_AT]: times[i] } : s))
      : plan,
  );
}

export function toSnapshot(r: Row): SnapshotRecord {
  return {
    id: str(r.id),
    project_id: str(r.project_id),
    name: str(r.name),
    topic: str(r.topic),
    kind: str(r.kind) as SnapshotRecord["kind"],
    status: str(r.status) as SnapshotRecord["status"],
    created_at: str(r.created_at),
    version: str(r.version),
    goal: str(r.goal),
    state: str(r.state),
    next_action: str(r.next_action),
    blocker: str(r.blocker),
    active_files: json(r.active_files, []),
    constraints: json(r.constraints, []),
    decisions: json(r.decisions, []),
    failure_graph: json(r.failure_graph, {}),
    compressed: json(r.compressed, null),
    layer3: str(r.layer3),
    auto_trigger: json(r.auto_trigger, null),
    extra: json(r.extra, null),
    l1_tokens: Number(r.l1_tokens ?? 0),
    l2_tokens: Number(r.l2_tokens ?? 0),
    saved_host: str(r.saved_host),
    saved_root: strOrNull(r.saved_root),
    ...readPlan(r.plan),
    tags: json(r.tags, []),
    saved_agent: strOrNull(r.saved_agent),
    line_tokens: json(r.line_tokens, null),
    ...replicated(r),
  };
}

export function toRule(r: Row): RuleRecord {
  return {
    id: str(r.id),
    project_id: strOrNull(r.project_id),
    scope: str(r.scope) === "global" ? "global" : "project",
    text: str(r.text),
    created_at: str(r.created_at),
    ...replicated(r),
  };
}

export function toOffSwitch(r: Row): OffSwitchRecord {
  return {
    id: str(r.id),
    scope: str(r.scope) === "host" ? "host" : "project",
    project_id: strOrNull(r.project_id),
    host_id: strOrNull(r.host_id),
    off_at: str(r.off_at),
    ...replicated(r),
  };
}

export function toFact(r: Row): FactRecord {
  const c = str(r.confidence);
  return {
    id: str(r.id),
    project_id: strOrNull(r.project_id),
    scope: str(r.scope) === "global" ? "global" : "project",
    text: str(r.text),
    confidence: c === "low" || c === "high" ? c : "medium",
    created_at: str(r.created_at),
    confirmed_at: str(r.confirmed_at),
    expires_at: strOrNull(r.expires_at),
    ...replicated(r),
  };
}

export function toRetirement(r: Row): RetirementRecord {
  return {
    id: str(r.id),
    project_id: str(r.project_id),
    kind: str(r.kind) === "decision" ? "decision" : "constraint",
    text: str(r.text),
    reason: str(r.reason),
    retired_at: str(r.retired_at),
    retired_by: str(r.retired_by),
    ...replicated(r),
  };
}

/** A snapshot carries the tag (one parameter; case folded as SQLite folds it: ASCII). */
export const TAGGED = "EXISTS (SELECT 1 FROM json_each(tags) WHERE lower(json_each.value) = lower(?))";

/**
 * The most characters of a goal a summary reads: what a goal may hold (8 KB). A longer one, stored
 * by an older version or a peer, is shown whole only where the whole snapshot is read.
 */
const SUMMARY_GOAL_MAX = 8 * 1024;

/** Columns whose bytes make a snapshot's size: measured one by one, never joined into one text first. */
const SIZED = [
  "goal",
  "state",
  "next_action",
  "blocker",
  "active_files",
  "constraints",
  "decisions",
  "failure_graph",
  "coalesce(compressed, '')",
  "layer3",
];

/** A snapshot has a cold archive: its size from the row's header, the text itself not read. */
export const HAS_LAYER3 = "octet_length(snapshots.layer3) > 0";

// A list reads no more of a snapshot than it shows: a long stored goal is cut in SQL, and a
// snapshot's size is summed column by column from each text's length in the row's header
// (octet_length), never read nor joined into one text.
export const SUMMARY_COLUMNS = `id, snapshots.project_id, name, kind, status, snapshots.created_at, substr(goal, 1, ${SUMMARY_GOAL_MAX}) AS goal, blocker, l1_tokens, l2_tokens, saved_host, tags,
  ${SIZED.map((c) => `octet_length(${c})`).join(" + ")} AS size,
  (constraints <> '[]' OR decisions <> '[]' OR failure_graph <> '{}') AS has_layer2,
  ${HAS_LAYER3} AS has_layer3,
  NOT EXISTS (SELECT 1 FROM listed_snapshots ls WHERE ls.snapshot_id = snapshots.id) AS archived`;

export function toRetentionRow(r: Row): RetentionRow {
  return {
    id: str(r.id),
    name: str(r.name),
    kind: str(r.kind) as RetentionRow["kind"],
    status: str(r.status) as RetentionRow["status"],
    created_at: str(r.created_at),
    saved_host: strOrNull(r.saved_host),
  };
}

export function toSummary(r: Row): SnapshotSummary {
  return {
    id: str(r.id),
    project_id: str(r.project_id),
    name: str(r.name),
    kind: str(r.kind) as SnapshotSummary["kind"],
    status: str(r.status) as SnapshotSummary["status"],
    created_at: str(r.created_at),
    goal: str(r.goal),
    blocker: str(r.blocker),
    l1_tokens: Number(r.l1_tokens),
    l2_tokens: Number(r.l2_tokens),
    saved_host: str(r.saved_host),
    tags: json(r.tags, []),
    size: Number(r.size),
    has_layer2: Number(r.has_layer2) === 1,
    has_layer3: Number(r.has_layer3) === 1,
    archived: Number(r.archived) === 1,
  };
}

/**
 * What counter `c` stood at when its failure was last forgotten (a `forgotten` link holds each
 * host's counter then, as JSON); 0 when it never was. Counters only grow (sync keeps the larger),
 * so a forgotten failure seen again counts from there.
 */
const FORGOTTEN_AT = `coalesce((SELECT json_extract(b.value, '$."' || c.host_id || '"') FROM failure_links b
  WHERE b.failure_id = c.failure_id AND b.kind = 'forgotten' AND b.deleted = 0 AND json_valid(b.value)), 0)`;

/** Each host's repeats of a failure since it was last forgotten. */
export const HOST_REPEATS = `max(0, c.count - ${FORGOTTEN_AT})`;

/** A failure's repeat_count: the sum of its per-host repeats since it was last forgotten. */
export const FAILURE_REPEATS = `(SELECT coalesce(sum(${HOST_REPEATS}), 0) FROM failure_counts c WHERE c.failure_id = f.id)`;

/** A failure's live related/alternative sets. */
const FAILURE_LINKS = `(SELECT json_group_array(value) FROM (SELECT value FROM failure_links l WHERE l.failure_id = f.id AND l.kind = 'related' AND l.deleted = 0 ORDER BY hlc, value)) AS related,
  (SELECT json_group_array(value) FROM (SELECT value FROM failure_links l WHERE l.failure_id = f.id AND l.kind = 'alternative' AND l.deleted = 0 ORDER BY hlc, value)) AS alternatives`;

/** A failure with its summed per-host counters and its live related/alternative sets. */
export const FAILURE_SELECT = `SELECT f.*, ${FAILURE_REPEATS} AS repeat_count,
  ${FAILURE_LINKS}
  FROM failures f`;

/** A failure and its sets without its repeats: for one whose repeats were just read (a rank's). */
export const FAILURE_TEXT_SELECT = `SELECT f.*, ${FAILURE_LINKS} FROM failures f`;

/** What ranks a failure in the restore block (see failure-ranks.ts). */
export const FAILURE_RANK_SELECT = `SELECT f.id, f.scope, f.item, f.rejected_by, f.confidence, f.last_seen, ${FAILURE_REPEATS} AS repeat_count FROM failures f`;

export function toFailureRank(r: Row): FailureRank {
  return {
    id: str(r.id),
    scope: str(r.scope) as FailureRank["scope"],
    item: str(r.item),
    rejected_by: str(r.rejected_by),
    confidence: strOrNull(r.confidence),
    last_seen: str(r.last_seen),
    repeat_count: Number(r.repeat_count ?? 0),
  };
}

export function toFailure(r: Row): FailureRecord {
  return {
    id: str(r.id),
    project_id: strOrNull(r.project_id),
    scope: str(r.scope) as FailureRecord["scope"],
    item: str(r.item),
    rejected_by: str(r.rejected_by),
    reason: str(r.reason),
    confidence: strOrNull(r.confidence),
    schema_version: str(r.schema_version),
    first_seen: str(r.first_seen),
    last_seen: str(r.last_seen),
    repeat_count: Number(r.repeat_count ?? 0),
    related: json(r.related, []),
    alternatives: json(r.alternatives, []),
    head_tokens: r.head_tokens === null || r.head_tokens === undefined ? null : Number(r.head_tokens),
    ...replicated(r),
  };
}
