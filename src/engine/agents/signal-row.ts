// The project's signal row (the signals table's `data` JSON): the spec's signal.json fields with
// the pressure model's bookkeeping (signal.ts), and what the hooks remember beside them (session
// notes, the last emergency). Its shape is declared here once, and the row is read and written only
// through this module: every change goes through one put (which the store redacts as a whole).
import { joinNotes, type SessionNote } from "./session-notes.ts";
import type { Queries, StoreWriter } from "../../store/store.ts";
import { redactDeep } from "../snapshots/redact.ts";

export type Pressure = "GREEN" | "YELLOW" | "RED";
export type Growth = "slow" | "normal" | "fast";
export type Complexity = "low" | "medium" | "high";

export const BASE_WARNING = 0.6;
export const BASE_CRITICAL = 0.8;

export interface SignalState {
  last_save: string | null;
  last_auto_save_time: string | null;
  last_auto_save_turn: number | null;
  tool_calls_since_save: number;
  auto_save_count: number;
  trigger_reason: string | null;
  pressure_state: Pressure;
  thresholds: { warning: number; critical: number };
  growth_rate: Growth;
  complexity: Complexity;
  estimated_tokens_ratio: number;
  // Bookkeeping beyond the spec's fields (kept in the store, shown with --json).
  base_warning: number;
  base_critical: number;
  turn: number;
  recent_tool_calls: string[];
  /** When the calls began to be counted (the session's start); the oldest call kept when unknown. */
  calls_counted_since: string | null;
  active_files: number;
  decisions: number;
  constraints: number;
  updated_at: string | null;
}

export function defaultSignal(): SignalState {
  return {
    last_save: null,
    last_auto_save_time: null,
    last_auto_save_turn: null,
    tool_calls_since_save: 0,
    auto_save_count: 0,
    trigger_reason: null,
    pressure_state: "GREEN",
    thresholds: { warning: BASE_WARNING, critical: BASE_CRITICAL },
    growth_rate: "normal",
    complexity: "low",
    estimated_tokens_ratio: 0,
    base_warning: BASE_WARNING,
    base_critical: BASE_CRITICAL,
    turn: 0,
    recent_tool_calls: [],
    calls_counted_since: null,
    active_files: 0,
    decisions: 0,
    constraints: 0,
    updated_at: null,
  };
}

/** The row as the hooks keep it: the signal plus their bookkeeping. */
export interface SignalRow extends SignalState {
  session_id?: string | null;
  session_files?: string[];
  /** The last time RED was handled (emergency snapshot and warning), once per cooldown. */
  last_emergency_time?: string;
  last_emergency_turn?: number;
  /** The emergency snapshot RED then saved; null: none (nothing newer than the newest one, or nothing to save). */
  last_emergency_snapshot?: string | null;
  /**
   * The last time a checkpoint was due and the hooks, having read the transcript, found nothing new
   * to save: the cooldown runs from it as from an auto-save (else every tool call reads it again).
   */
  last_auto_check_time?: string;
  last_auto_check_turn?: number;
  sessions?: Record<string, SessionNote>;
}

/** A stored row with every field: what it lacks (an older version's row, none yet) is the default. */
export function fromStored(data: Record<string, unknown> | null | undefined): SignalRow {
  return { ...defaultSignal(), ...(data ?? {}) };
}

/** The project's row, in a transaction (`w`) or outside one (the store); the defaults without a project. */
export async function getSignalRow(
  r: Pick<Queries, "getSignal">,
  projectId: string | null | undefined,
): Promise<SignalRow> {
  return fromStored(projectId ? (await r.getSignal(projectId))?.data : null);
}

/**
 * The words of the row MindSave writes itself: its field names, its thresholds' and a session
 * note's (the note's trail, tallies and tool calls are rarer; they are scanned). One scanned name
 * (`critical`) builds the rules and the keyword scan; `estimated_tokens_ratio` sets off the
 * assignment rules too.
 */
const OWN_NAMES = new Set<string>([
  ...Object.keys(defaultSignal()),
  ...(["warning", "critical"] satisfies (keyof SignalState["thresholds"])[]),
  ...([
    "session_id",
    "session_files",
    "last_emergency_time",
    "last_emergency_turn",
    "last_emergency_snapshot",
    "last_auto_check_time",
    "last_auto_check_turn",
    "sessions",
  ] satisfies (keyof SignalRow)[]),
  ...([
    "model",
    "no_save",
    "constraints",
    "failures",
    "red_at",
    "red_turn",
    "restored",
    "trail",
    "warned",
    "asked",
    "pending_ask",
    "steps_unread",
    "done_steps",
    "plan_read_to",
    "restore_due",
    "fired",
    "seen",
  ] satisfies (keyof SessionNote)[]),
]);

/** A time as MindSave writes it (`toISOString`): digits in fixed places, never a secret. */
const OWN_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * The row as it may be stored: every string from outside (the agent's session ids, models, files,
 * prompts, tool names and errors, an imported trigger) redacted; the row's own field names and
 * times, which redaction would leave as they are, kept without building its scans.
 */
export function scrubSignal<T extends object>(row: T): T {
  return redactDeep(row, (s) => OWN_NAMES.has(s) || OWN_TIME.test(s));
}

/** The one write of the row. */
export function putSignalRow(w: StoreWriter, projectId: string, row: SignalRow): Promise<void> {
  return w.putSignal(projectId, row);
}

/** Reads the project's row, applies `change` and writes the result, inside the caller's transaction. */
export async function changeSignalRow<R extends SignalRow>(
  w: StoreWriter,
  projectId: string,
  change: (row: SignalRow) => R,
): Promise<R> {
  const next = change(await getSignalRow(w, projectId));
  await putSignalRow(w, projectId, next);
  return next;
}

/**
 * A folded project's row goes to the project it joins; where that one has its own, its sessions'
 * notes join that row's.
 */
export async function moveSignalRow(w: StoreWriter, from: string, to: string): Promise<void> {
  const row = await w.getSignal(from);
  if (!row) return;
  const there = await w.getSignal(to);
  const moved = there ? notesJoined(fromStored(there.data), fromStored(row.data)) : fromStored(row.data);
  if (moved) await putSignalRow(w, to, moved);
  await w.tombstoneSignal(from);
}

/**
 * `row` with the session notes of `other` it lacks (see joinNotes), or null when it lacks none: a
 * project's row taken in place of another (a sync's later row, a link) keeps what the other's
 * sessions noted.
 */
export function notesJoined(row: SignalRow, other: SignalRow): SignalRow | null {
  const joined = joinNotes(row, other);
  return JSON.stringify(joined.sessions ?? {}) === JSON.stringify(row.sessions ?? {}) ? null : joined;
}
