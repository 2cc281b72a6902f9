// The spec's adaptive pressure model. Thresholds are not fixed: they scale with how fast the
// context grows (tool calls per 5 minutes) and how expensive the task's state is to re-derive
// (active files, decisions, constraints). Stored per project in its signal row (signal-row.ts);
// `toSignalJson` gives the spec's signal.json shape.

import {
  changeSignalRow,
  getSignalRow,
  type Complexity,
  type Growth,
  type Pressure,
  type SignalRow,
  type SignalState,
} from "./signal-row.ts";

// The stored shape and its defaults live with the row's repository; the library's `signal` namespace still offers them here.
export {
  BASE_CRITICAL,
  BASE_WARNING,
  defaultSignal,
  fromStored,
  type Complexity,
  type Growth,
  type Pressure,
  type SignalState,
} from "./signal-row.ts";

export const WARNING_RANGE = [0.5, 0.7] as const;
export const CRITICAL_RANGE = [0.7, 0.9] as const;
export const GROWTH_MULTIPLIER: Record<Growth, number> = { slow: 1.2, normal: 1.0, fast: 0.8 };
export const COMPLEXITY_MULTIPLIER: Record<Complexity, number> = { low: 1.0, medium: 0.95, high: 0.85 };
export const COOLDOWN_MS = 5 * 60 * 1000;
export const COOLDOWN_TURNS = 10;
export const TOOL_CALL_TRIGGER = 10;
const WINDOW_MS = 5 * 60 * 1000;
const KEEP_CALLS = 64;

/**
 * Tool calls in the last five minutes: ≤2 slow, 3–6 normal, ≥7 fast. Slow raises the thresholds, so
 * it takes five whole minutes watched (`countedSince`, the session's start, else the oldest call
 * kept): a session's first minutes, with one call or none, are no evidence of a slow session and
 * read as the spec's typical rate, normal.
 */
export function growthRate(
  toolCallTimes: readonly string[],
  now: Date,
  countedSince: string | null = null,
): Growth {
  const since = now.getTime() - WINDOW_MS;
  const n = toolCallTimes.filter((t) => {
    const ms = Date.parse(t);
    return ms > since && ms <= now.getTime();
  }).length;
  if (n >= 7) return "fast";
  if (n >= 3) return "normal";
  return watchedSince(toolCallTimes, countedSince) <= since ? "slow" : "normal";
}

/** Since when tool calls were counted: `countedSince`, or the oldest call kept (never: +Infinity). */
function watchedSince(toolCallTimes: readonly string[], countedSince: string | null): number {
  const times = [countedSince, ...toolCallTimes].map((t) => (t ? Date.parse(t) : NaN));
  return Math.min(Infinity, ...times.filter((ms) => Number.isFinite(ms)));
}

/** 1–2 active files low; 3–5 or some decisions medium; more than 5 or many constraints/decisions high. */
export function complexityOf(activeFiles: number, decisions: number, constraints: number): Complexity {
  const reasoning = decisions + constraints;
  if (activeFiles > 5 || reasoning >= 8) return "high";
  if (activeFiles >= 3 || decisions >= 2 || reasoning >= 4) return "medium";
  return "low";
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const clamp = (x: number, [lo, hi]: readonly [number, number]) => Math.min(hi, Math.max(lo, x));

export function thresholds(
  baseWarning: number,
  baseCritical: number,
  growth: Growth,
  complexity: Complexity,
): { warning: number; critical: number } {
  const m = GROWTH_MULTIPLIER[growth] * COMPLEXITY_MULTIPLIER[complexity];
  return {
    warning: round(clamp(baseWarning, WARNING_RANGE) * m),
    critical: round(Math.min(0.99, clamp(baseCritical, CRITICAL_RANGE) * m)),
  };
}

export function pressure(ratio: number, t: { warning: number; critical: number }): Pressure {
  if (ratio >= t.critical) return "RED";
  if (ratio >= t.warning) return "YELLOW";
  return "GREEN";
}

/** Recomputes the derived fields (growth, complexity, thresholds, pressure) from the raw ones. */
export function recompute<S extends SignalState>(s: S, now: Date): S {
  const growth_rate = growthRate(s.recent_tool_calls, now, s.calls_counted_since);
  const complexity = complexityOf(s.active_files, s.decisions, s.constraints);
  const t = thresholds(s.base_warning, s.base_critical, growth_rate, complexity);
  return {
    ...s,
    growth_rate,
    complexity,
    thresholds: t,
    pressure_state: pressure(s.estimated_tokens_ratio, t),
    updated_at: now.toISOString(),
  };
}

export function recordToolCall<S extends SignalState>(s: S, now: Date, count = 1): S {
  const calls = [...s.recent_tool_calls];
  for (let i = 0; i < count; i++) calls.push(now.toISOString());
  return recompute(
    {
      ...s,
      tool_calls_since_save: s.tool_calls_since_save + count,
      recent_tool_calls: calls.slice(-KEEP_CALLS),
    },
    now,
  );
}

export function recordTurn<S extends SignalState>(s: S, now: Date): S {
  return recompute({ ...s, turn: s.turn + 1 }, now);
}

export function recordSave<S extends SignalState>(
  s: S,
  now: Date,
  opts: { auto: boolean; reason: string; activeFiles: number; decisions: number; constraints: number },
): S {
  const iso = now.toISOString();
  return recompute(
    {
      ...s,
      last_save: iso,
      tool_calls_since_save: 0,
      trigger_reason: opts.reason,
      active_files: opts.activeFiles,
      decisions: opts.decisions,
      constraints: opts.constraints,
      ...(opts.auto
        ? { last_auto_save_time: iso, last_auto_save_turn: s.turn, auto_save_count: s.auto_save_count + 1 }
        : {}),
    },
    now,
  );
}

export interface AutoSaveDecision {
  action: "none" | "checkpoint" | "emergency";
  reason: string;
  /** True when a save is wanted but the cooldown holds it back. */
  cooling: boolean;
}

/** What the cooldown runs from: the spec's signal, and the hooks' last look that saved nothing. */
type CooldownMarks = SignalState & Pick<SignalRow, "last_auto_check_time" | "last_auto_check_turn">;

/**
 * The cooldown ends after 5 minutes or 10 turns, whichever comes first, since the last auto-save or
 * the last check that found nothing new to save, whichever is later.
 */
export function cooldownOver(s: CooldownMarks, now: Date): boolean {
  const checkedLater =
    !!s.last_auto_check_time &&
    (!s.last_auto_save_time || Date.parse(s.last_auto_check_time) > Date.parse(s.last_auto_save_time));
  const since = checkedLater
    ? { time: s.last_auto_check_time!, turn: s.last_auto_check_turn ?? s.turn }
    : { time: s.last_auto_save_time, turn: s.last_auto_save_turn ?? 0 };
  if (!since.time) return true;
  const elapsed = now.getTime() - Date.parse(since.time);
  return elapsed >= COOLDOWN_MS || s.turn - since.turn >= COOLDOWN_TURNS;
}

/** A checkpoint was due and nothing new was found to save: the cooldown starts again from `now`. */
export function recordCheck<S extends SignalRow>(s: S, now: Date): S {
  return { ...s, last_auto_check_time: now.toISOString(), last_auto_check_turn: s.turn };
}

/**
 * What an auto-save hook should do now. RED is an emergency L1 save and ignores the cooldown
 * (losing the session costs more than one extra snapshot); YELLOW and the tool-call trigger are
 * checkpoints that respect it.
 */
export function decideAutoSave(s: CooldownMarks, now: Date): AutoSaveDecision {
  if (s.pressure_state === "RED") return { action: "emergency", reason: "context-critical", cooling: false };
  let reason = "";
  if (s.pressure_state === "YELLOW") reason = "context-pressure";
  else if (s.tool_calls_since_save >= TOOL_CALL_TRIGGER) reason = "tool-threshold";
  if (!reason) return { action: "none", reason: "", cooling: false };
  if (!cooldownOver(s, now)) return { action: "none", reason, cooling: true };
  return { action: "checkpoint", reason, cooling: false };
}

/** The spec's signal.json shape, exactly its fields. */
export function toSignalJson(s: SignalState): Record<string, unknown> {
  return {
    last_save: s.last_save,
    last_auto_save_time: s.last_auto_save_time,
    last_auto_save_turn: s.last_auto_save_turn,
    tool_calls_since_save: s.tool_calls_since_save,
    auto_save_count: s.auto_save_count,
    trigger_reason: s.trigger_reason,
    pressure_state: s.pressure_state,
    thresholds: s.thresholds,
    growth_rate: s.growth_rate,
    complexity: s.complexity,
    estimated_tokens_ratio: s.estimated_tokens_ratio,
  };
}

import type { Session } from "../session.ts";
import { resolveProject } from "../projects/resolve.ts";

/** Reads the project's signal, applies `change`, recomputes and stores it in one transaction. */
export async function updateSignal(
  session: Session,
  change: (s: SignalRow, now: Date) => SignalRow,
): Promise<{ signal: SignalRow; decision: AutoSaveDecision; project: string }> {
  const now = session.now();
  return session.write(async (w) => {
    const ctx = await resolveProject(session, { create: true, w });
    const signal = await changeSignalRow(w, ctx.project.id, (current) =>
      recompute(change(current, now), now),
    );
    return { signal, decision: decideAutoSave(signal, now), project: ctx.project.name };
  });
}

export async function readSignal(
  session: Session,
): Promise<{ signal: SignalRow; decision: AutoSaveDecision; project: string | null }> {
  const now = session.now();
  const ctx = await resolveProject(session, { create: false });
  const signal = recompute(await getSignalRow(session.store, ctx?.project.id), now);
  return { signal, decision: decideAutoSave(signal, now), project: ctx?.project.name ?? null };
}

/** What a hook or an agent observed, as `mindsave signal`'s flags say it. */
export interface SignalObservation {
  ratio?: number;
  toolCalls?: number;
  turn?: boolean;
  baseWarning?: number;
  baseCritical?: number;
}

/** The signal use case: record an observation (none: just read the state). */
export function observeSignal(session: Session, o: SignalObservation): ReturnType<typeof readSignal> {
  const changes =
    o.ratio !== undefined ||
    o.toolCalls !== undefined ||
    o.turn ||
    o.baseWarning !== undefined ||
    o.baseCritical !== undefined;
  if (!changes) return readSignal(session);
  return updateSignal(session, (s, now) => {
    let next = { ...s };
    if (o.baseWarning !== undefined) next.base_warning = o.baseWarning;
    if (o.baseCritical !== undefined) next.base_critical = o.baseCritical;
    if (o.ratio !== undefined) next.estimated_tokens_ratio = o.ratio;
    if (o.turn) next = recordTurn(next, now);
    if (o.toolCalls !== undefined) next = recordToolCall(next, now, o.toolCalls);
    return next;
  });
}
