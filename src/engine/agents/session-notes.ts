// What the hooks remember about each Claude Code session, kept in the project's signal row next
// to the pressure state: the session's model (its context window), whether the user said not to
// save, corrections waiting to become constraints, and repeated tool failures waiting to become
// failure-graph entries. Bounded: a few sessions, a few items each.
import { toolTarget } from "./transcript.ts";
import { redact, redactHead } from "../snapshots/redact.ts";
import { stripControl } from "../snapshots/input-limits.ts";
import type { FailureGraphEntry } from "../../store/store.ts";
import { compareCodes } from "../../lib/text.ts";

/** A tool call that failed in this session, counted by its tool and target. */
export interface FailureTally {
  tool: string;
  target: string;
  count: number;
  /** The last error's first lines. */
  reason: string;
  /** The count a snapshot last recorded in the failure graph. */
  recorded?: number;
}

export interface SessionNote {
  /** The model SessionStart named, e.g. `claude-opus-4-5[1m]`. */
  model?: string;
  /** The user said not to save ("don't save", "不需要保存"): no auto-snapshots in this session. */
  no_save?: boolean;
  /** The user's corrections, for the next full snapshot's constraints. */
  constraints?: string[];
  failures?: Record<string, FailureTally>;
  /** When RED was last handled in this session (its emergency snapshot and warning), and at which turn. */
  red_at?: string;
  red_turn?: number;
  /** When the restore block went to the model with a later event (an agent that drops its session start's reply). */
  restored?: string;
  /** What this session's hooks saw, for agents whose transcript says nothing we can read (kinds/trail.ts). */
  trail?: Trail;
  /** The failures a repeat warning named in this session (repeat-warning.ts): each is named once. */
  warned?: string[];
  /** The checkpoint moments this session's agent was asked to save at, or will be at its next stop (checkpoint-request.ts). */
  asked?: string[];
  pending_ask?: string[];
  /** A tool call may have completed a plan step since the last stop read them; the steps this session was asked about (plan-steps.ts). */
  steps_unread?: boolean;
  done_steps?: string[];
  /** How far a stop read the transcript for a plan tool that fires no tool hook (Codex's update_plan). */
  plan_read_to?: number;
  /** A compaction happened with no event after it: the restore block goes with the next reply that reaches the model (compaction-guide.ts). */
  restore_due?: boolean;
  /** Per event, the hook configuration (`--agent`) that last handled it: an agent that also runs Claude Code's hooks fires twice. */
  fired?: Record<string, { at: string; via: string }>;
  /** When a hook last saw this session (the oldest are forgotten first). */
  seen: string;
}

/** A session as its hook payloads told it: prompts, tool calls, edited files, the task list. Bounded. */
export interface Trail {
  first_prompt?: string;
  last_prompt?: string;
  started?: string;
  tools?: { name: string; field?: string; target: string; at: string; failed?: boolean; error?: string }[];
  files?: string[];
  todos?: { content: string; status: string }[];
}

/** Where the notes are kept: the signal row (signal-row.ts). */
interface WithNotes {
  sessions?: Record<string, SessionNote>;
}

const KEEP_SESSIONS = 8;
const KEEP_ITEMS = 20;
const ITEM_CHARS = 300;
/** Identical failures in one session that make a failure-graph candidate. */
export const FAILURE_CANDIDATE_AT = 3;

export function noteOf(s: WithNotes, sessionId: string | null | undefined): SessionNote | null {
  return sessionId ? (s.sessions?.[sessionId] ?? null) : null;
}

/** The signal with `sessionId`'s note changed by `change` (a new note when there is none). */
export function withNote<S extends WithNotes>(
  s: S,
  sessionId: string | null | undefined,
  now: Date,
  change: (n: SessionNote) => SessionNote,
): S {
  if (!sessionId) return s;
  const sessions = { ...(s.sessions ?? {}) };
  sessions[sessionId] = {
    ...change({ ...(sessions[sessionId] ?? { seen: now.toISOString() }) }),
    seen: now.toISOString(),
  };
  return { ...s, sessions: newestNotes(sessions) };
}

/** The notes of the sessions seen most recently, KEEP_SESSIONS of them: the oldest are forgotten. */
function newestNotes(sessions: Record<string, SessionNote>): Record<string, SessionNote> {
  return Object.fromEntries(
    Object.entries(sessions)
      .sort((a, b) => compareCodes(b[1].seen, a[1].seen))
      .slice(0, KEEP_SESSIONS),
  );
}

/**
 * `s` with the notes of `other`'s sessions it lacks or saw less recently: two rows of one project
 * (a sync's, a link's) each hold what their own host's sessions noted, a "don't save" among them.
 */
export function joinNotes<S extends WithNotes>(s: S, other: WithNotes): S {
  const sessions = Object.fromEntries(notesOf(s));
  for (const [id, note] of notesOf(other))
    if (!sessions[id] || compareCodes(note.seen, sessions[id].seen) > 0) sessions[id] = note;
  return { ...s, sessions: newestNotes(sessions) };
}

/** A row's session notes that are notes (a peer's row may hold anything under `sessions`). */
function notesOf(s: WithNotes): [string, SessionNote][] {
  const sessions: unknown = s.sessions;
  if (!sessions || typeof sessions !== "object" || Array.isArray(sessions)) return [];
  return Object.entries(sessions as Record<string, unknown>).filter(
    (e): e is [string, SessionNote] =>
      !!e[1] && typeof e[1] === "object" && typeof (e[1] as SessionNote).seen === "string",
  );
}

/** The model of the session seen most recently (a /clear or a recovered session may not name one). */
export function latestModel(s: WithNotes): string | undefined {
  return Object.values(s.sessions ?? {})
    .filter((n) => n.model)
    .sort((a, b) => compareCodes(b.seen, a.seen))[0]?.model;
}

const clip = (text: string) => redactHead(text.replace(/\s+/g, " ").trim(), ITEM_CHARS);

export function addConstraint(n: SessionNote, text: string): SessionNote {
  const line = clip(text);
  const have = n.constraints ?? [];
  if (!line || have.includes(line)) return n;
  return { ...n, constraints: [...have, line].slice(-KEEP_ITEMS) };
}

/** What a hook's tool call was about (its command, file, pattern …), as failures are counted by it. */
export function callTarget(tool: string, input: Record<string, unknown>): string {
  return redact(stripControl(toolTarget({ name: tool, input })));
}

export function failureKey(tool: string, target: string): string {
  return `${tool} ${target}`.trim().slice(0, 200);
}

export function countFailure(n: SessionNote, tool: string, target: string, reason: string): SessionNote {
  const key = failureKey(tool, target);
  const all = { ...(n.failures ?? {}) };
  const prev = all[key];
  delete all[key]; // re-added last: insertion order is recency
  all[key] = {
    ...prev,
    tool,
    target: target.slice(0, 200),
    count: (prev?.count ?? 0) + 1,
    reason: clip(reason) || prev?.reason || "",
  };
  return { ...n, failures: Object.fromEntries(Object.entries(all).slice(-KEEP_ITEMS * 2)) };
}

/** A call that succeeded after failing: how often it had failed, and the note without its tally. */
export function recovered(
  n: SessionNote,
  tool: string,
  target: string,
): { failed: number; note: SessionNote } {
  const key = failureKey(tool, target);
  const failed = n.failures?.[key]?.count ?? 0;
  if (!failed) return { failed, note: n };
  const failures = { ...n.failures };
  delete failures[key];
  return { failed, note: { ...n, failures } };
}

/** Failures repeated often enough to be recorded: as a snapshot's failure_graph (rejected by the system). */
export function failureCandidates(n: SessionNote | null): Record<string, FailureGraphEntry> {
  const out: Record<string, FailureGraphEntry> = {};
  for (const [key, f] of Object.entries(n?.failures ?? {})) {
    if (f.count < FAILURE_CANDIDATE_AT || f.count <= (f.recorded ?? 0)) continue;
    out[key] = {
      rejected_by: "system",
      reason: `failed ${f.count} times in one session${f.reason ? `: ${f.reason}` : ""}`,
      repeat_count: f.count,
      scope: "project",
    };
  }
  return out;
}

/** Has the session something for the next full snapshot's Layer 2? */
export function hasCandidates(n: SessionNote | null): boolean {
  return !!n?.constraints?.length || Object.keys(failureCandidates(n)).length > 0;
}

/**
 * The note after a full snapshot took its candidates: the corrections are done; a failure stays
 * counted, so failing again raises its repeat count in the graph with the next snapshot.
 */
export function consumed(
  n: SessionNote,
  taken: { constraints: string[]; failures: Record<string, FailureGraphEntry> },
): SessionNote {
  const failures = { ...(n.failures ?? {}) };
  for (const [k, e] of Object.entries(taken.failures))
    if (failures[k]) failures[k] = { ...failures[k], recorded: Number(e.repeat_count) };
  return { ...n, constraints: (n.constraints ?? []).filter((c) => !taken.constraints.includes(c)), failures };
}
