// Row shapes as the engine sees them. JSON columns are parsed here, at the store's edge.

export interface Replicated {
  hlc: string;
  host: string;
  deleted: boolean;
}

export interface HostRecord extends Replicated {
  id: string;
  name: string;
  platform: string;
  first_seen: string;
  last_seen: string;
}

export interface ProjectRecord extends Replicated {
  id: string;
  identity: string;
  name: string;
  remote: string | null;
  created_at: string;
  merged_into: string | null;
}

export interface RootRecord extends Replicated {
  id: string;
  project_id: string;
  host_id: string;
  path: string;
  last_used: string;
}

/** An active file as stored: a path relative to the project root, POSIX separators. */
export interface StoredFile {
  path: string;
  /** Size and mtime (ms) and content hash when the file existed at save time; used by --verify. */
  size?: number;
  mtime?: number;
  sha256?: string;
}

export interface FailureGraphEntry {
  schema_version?: string;
  rejected_by?: string;
  reason?: string;
  repeat_count?: number;
  confidence?: string;
  scope?: string;
  related?: string[];
  alternatives?: string[];
  [other: string]: unknown;
}

/** Every status a snapshot may have: checked by save, prune and sync alike. */
export const SNAPSHOT_STATUSES = ["in_progress", "completed", "blocked"] as const;
export type SnapshotStatus = (typeof SNAPSHOT_STATUSES)[number];
export type SnapshotKind = "full" | "overflow";

export interface SnapshotRecord extends Replicated {
  id: string;
  project_id: string;
  name: string;
  topic: string;
  kind: SnapshotKind;
  status: SnapshotStatus;
  created_at: string;
  version: string;
  goal: string;
  state: string;
  next_action: string;
  blocker: string;
  active_files: StoredFile[];
  constraints: string[];
  decisions: string[];
  failure_graph: Record<string, FailureGraphEntry>;
  compressed: Record<string, unknown> | null;
  layer3: string;
  auto_trigger: Record<string, unknown> | null;
  extra: Record<string, unknown> | null;
  l1_tokens: number;
  l2_tokens: number;
  saved_host: string;
  saved_root: string | null;
  /** The agent's task list as it was, statuses included (null: none recorded). */
  plan: PlanItem[] | null;
  /** When MindSave saw each plan step's status change (ISO; null: not known), by step, apart from the verbatim plan (see rows.ts storedPlan). */
  plan_times?: (string | null)[] | null;
  tags: string[];
  /** Which agent saved it (claude, codex, …); null for a person's save or an older snapshot. */
  saved_agent: string | null;
  /** The token counts of its constraint and decision lines, stored when it was written; null: count them (stored-tokens.ts). */
  line_tokens?: LineTokens | null;
}

/** A snapshot's Layer 2 lines' token counts, one per constraint and per decision, in their order. */
export interface LineTokens {
  constraints: number[];
  decisions: number[];
}

export type PlanStatus = "pending" | "in_progress" | "completed";

/** One step of an agent's plan, verbatim (TodoWrite's content/status/activeForm; other keys kept). */
export interface PlanItem {
  content: string;
  status: PlanStatus;
  activeForm?: string;
  [other: string]: unknown;
}

/** A standing rule: restored first in every block of its scope, never trimmed. */
export interface RuleRecord extends Replicated {
  id: string;
  project_id: string | null;
  scope: "project" | "global";
  text: string;
  created_at: string;
}

export type FactConfidence = "low" | "medium" | "high";

/** A belief about the world with a time to live; expired facts are never restored. */
export interface FactRecord extends Replicated {
  id: string;
  project_id: string | null;
  scope: "project" | "global";
  text: string;
  confidence: FactConfidence;
  created_at: string;
  /** When it was last stated or renewed. */
  confirmed_at: string;
  /** Null: it does not expire. */
  expires_at: string | null;
}

/** A constraint or decision marked no longer true. Tombstoned = un-retired. */
export interface RetirementRecord extends Replicated {
  id: string;
  project_id: string;
  kind: "constraint" | "decision";
  text: string;
  reason: string;
  retired_at: string;
  /** "host-name" or "host-name (agent)". */
  retired_by: string;
}

/** MindSave switched off: for a project (it syncs to every host), or for every project on one host. Tombstoned = on. */
export interface OffSwitchRecord extends Replicated {
  id: string;
  scope: "project" | "host";
  project_id: string | null;
  host_id: string | null;
  off_at: string;
}

/** The columns a list or picker needs, without the large ones. */
export type SnapshotSummary = Pick<
  SnapshotRecord,
  | "id"
  | "project_id"
  | "name"
  | "kind"
  | "status"
  | "created_at"
  | "goal"
  | "blocker"
  | "l1_tokens"
  | "l2_tokens"
  | "saved_host"
  | "tags"
> & {
  size: number;
  has_layer2: boolean;
  has_layer3: boolean;
  /** Past the retention rules: out of the default views, still whole. */ archived: boolean;
};

/** What the retention pass and a prune decide by: a snapshot's id, name, kind, status, time and saving host. */
export type RetentionRow = Pick<SnapshotRecord, "id" | "name" | "kind" | "status" | "created_at"> & {
  saved_host: string | null;
};

export interface SearchHit {
  id: string;
  project_id: string;
  name: string;
  created_at: string;
  status: SnapshotStatus;
  goal: string;
  context: string;
  /** Retention left it out of the default views (still whole). */
  archived: boolean;
}

export interface FailureRecord extends Replicated {
  id: string;
  project_id: string | null;
  scope: "project" | "global";
  item: string;
  rejected_by: string;
  reason: string;
  confidence: string | null;
  schema_version: string;
  first_seen: string;
  last_seen: string;
  repeat_count: number;
  related: string[];
  alternatives: string[];
  /** The token count of its line's head (item and reason), stored when they were written; null: count it (stored-tokens.ts). */
  head_tokens?: number | null;
}

/** The columns of a failure that rank it in the restore block: read for every failure, the rest only for those shown. */
export type FailureRank = Pick<
  FailureRecord,
  "id" | "scope" | "item" | "rejected_by" | "confidence" | "last_seen" | "repeat_count"
>;

export interface SignalRecord {
  project_id: string;
  data: Record<string, unknown>;
  hlc: string;
  host: string;
}

/** One tool call in a project's tool log (the spec's tool_logs/*.jsonl line, plus where it came from). */
export interface ToolCallRecord {
  id: string;
  project_id: string;
  session_id: string | null;
  timestamp: string;
  /** read | write | edit | bash | other */
  action: string;
  tool: string;
  target: string;
  summary: string;
}
