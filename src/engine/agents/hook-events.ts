// The hook flows of a session's life: session-start (restore, the session's model, counts
// afresh), post-tool-use (measured pressure: a checkpoint at YELLOW, an emergency snapshot and a
// warning at RED), and pre-compact, stop and session-end (snapshots from the transcript).
import {
  cooldownOver,
  decideAutoSave,
  recompute,
  recordCheck,
  recordToolCall,
  recordTurn,
  type AutoSaveDecision,
} from "./signal.ts";
import { contextWindow, hookFacts, type HookOutcome, type HookPayload } from "./hook-payload.ts";
import { sessionNote, writeAuto } from "./auto-snapshot.ts";
import { newestSnapshot } from "../snapshots/select.ts";
import { logToolCalls } from "./ingest.ts";
import { callTarget, latestModel, noteOf, recovered, withNote, type SessionNote } from "./session-notes.ts";
import { changeSignalRow, getSignalRow, putSignalRow, type SignalRow } from "./signal-row.ts";
import { restore } from "../snapshots/restore.ts";
import { rulesOnlyBlock } from "../memory/rules.ts";
import { stripControl } from "../snapshots/input-limits.ts";
import type { Usage } from "./transcript.ts";
import type { SaveResult } from "../snapshots/save.ts";
import type { Session } from "../session.ts";
import type { SnapshotRecord } from "../../store/store.ts";
import { currentWorkspace, resolveProject, type ProjectContext } from "../projects/resolve.ts";
import { unlessBusy } from "../unless-busy.ts";
import { CLAUDE_SOURCE } from "./kinds/claude.ts";
import { canRead, factsFor, pendingModel, rememberPendingModel } from "./kinds/trail.ts";
import type { TranscriptSource } from "./kinds/kind.ts";

/** Sources after which the agent carries on with the same task. */
const CONTINUING = new Set(["resume", "compact", "fork"]);

/** The model SessionStart names (Claude Code's "[1m]" marks a 1M-token window). */
function payloadModel(p: HookPayload): string | undefined {
  return typeof p.model === "string" && p.model.trim()
    ? stripControl(p.model.trim()).slice(0, 100)
    : undefined;
}

/**
 * session-start: remembers the session's model (its context window) and starts its turn, tool-call
 * and context counts afresh; gives the newest restore block as additional context.
 */
export async function onSessionStart(session: Session, p: HookPayload): Promise<HookOutcome> {
  const now = session.now();
  const { sessionId } = hookFacts(p);
  let ctx: ProjectContext | null;
  // A project is created here only for a workspace that has its own identity (a git history),
  // never by writing into the folder; elsewhere the first tool call creates it. (The workspace is
  // asked first: with one, the write finds the project itself.)
  if (currentWorkspace(session, false) || (ctx = await resolveProject(session, { create: false }))) {
    // Busy with another process's write (a long sync): the block is restored all the same.
    ctx = await unlessBusy(true, null, () =>
      session.write(async (w) => {
        const c = await resolveProject(session, { create: true, w });
        let s = await getSignalRow(w, c.project.id);
        if (sessionId && s.session_id !== sessionId) {
          // Its tool calls are counted from now: a growth rate needs five minutes watched (signal.ts).
          s = {
            ...s,
            session_id: sessionId,
            turn: 0,
            recent_tool_calls: [],
            calls_counted_since: now.toISOString(),
            session_files: [],
          };
          if (s.last_auto_save_turn !== null) s.last_auto_save_turn = 0;
          if (s.last_emergency_turn !== undefined) s.last_emergency_turn = 0;
        }
        // A new, cleared, resumed or compacted context: the next reply measures it again.
        s.estimated_tokens_ratio = 0;
        // A fresh context may be another task: its complexity is its own (its edits, its save), never the last save's.
        if (!CONTINUING.has(p.source ?? "")) s = { ...s, active_files: 0, decisions: 0, constraints: 0 };
        const model = payloadModel(p);
        const inherited = latestModel(s);
        s = withNote(s, sessionId, now, (n) => ({ ...n, model: model ?? n.model ?? inherited }));
        await putSignalRow(w, c.project.id, recompute(s, now));
        return c;
      }),
    );
  } else if (sessionId && payloadModel(p)) {
    // No project before the first commit: the model (its window) waits for the first tool call.
    const model = payloadModel(p)!;
    await unlessBusy(true, undefined, () =>
      session.write((w) => rememberPendingModel(w, sessionId, model, now)),
    );
  }
  // (The project the write found or made: not looked up a third time.)
  const context = await restoreContext(session, p.source, ctx);
  if (context === undefined) return {};
  // Once per session: which project this checkout was taken as, when it could be several.
  return {
    context,
    ...(session.notices.length ? { message: `MindSave: ${session.notices.join(" ")}` } : {}),
  };
}

/**
 * The newest snapshot's restore block for the current project (undefined: none). After a resume,
 * a fork or a compaction the agent carries on; a fresh start or /clear may be about something
 * else, so there the block is offered as context, not as an order to continue.
 */
export async function restoreContext(
  session: Session,
  source?: string,
  known?: ProjectContext | null,
): Promise<string | undefined> {
  const ctx = known ?? (await resolveProject(session, { create: false }));
  // No source, or one we do not know: a fresh start (offering the state never orders the agent on).
  const r = ctx ? await restore(session, ctx, undefined, { resume: CONTINUING.has(source ?? "") }) : null;
  // No snapshot yet (or no project): the standing rules apply all the same.
  if (r?.kind !== "restored") return rulesOnlyBlock(session, ctx?.project.id ?? null);
  return r.result.block.text;
}

const pct = (x: number) => Math.round(x * 100);

/** The window a fill is measured against: MINDSAVE_CONTEXT_WINDOW, else the one the transcript records, else the model's. */
function windowOf(usage: Usage, model: string | undefined, env: NodeJS.ProcessEnv): number {
  const fromEnv = Number(env.MINDSAVE_CONTEXT_WINDOW);
  if (!(Number.isFinite(fromEnv) && fromEnv > 1000) && usage.window && usage.window > 1000)
    return usage.window;
  return contextWindow(model ?? usage.model, env, usage.context);
}

/** A warning for the user and the same facts for the model. */
function warning(user: string, model: string): Pick<HookOutcome, "message" | "context"> {
  return { message: user, context: model };
}

/**
 * post-tool-use: counts the call, reads the real context fill from the transcript (over the
 * session's context window), recomputes the pressure. YELLOW writes a checkpoint (with the
 * cooldown) and says so; a call that succeeds after failing twice writes one silently; RED writes
 * an emergency Layer 1 snapshot and warns, once per cooldown, even when nothing new was saved.
 */
export async function onPostToolUse(
  session: Session,
  p: HookPayload,
  src: TranscriptSource = CLAUDE_SOURCE,
): Promise<HookOutcome> {
  const usage = src.usage(p);
  const now = session.now();
  const hook = hookFacts(p);
  const tool = String(p.tool_name ?? "");
  const input = p.tool_input && typeof p.tool_input === "object" ? p.tool_input : {};
  const edited = tool ? src.editedFiles(tool, input) : [];
  const { signal, projectId, note, failedBefore } = await session.write(async (w) => {
    const ctx = await resolveProject(session, { create: true, w });
    let s = recordToolCall(await getSignalRow(w, ctx.project.id), now);
    const before = noteOf(s, hook.sessionId);
    // A session that started before its folder was a project: the model it started with.
    const model = before?.model ?? (await pendingModel(w, hook.sessionId));
    if (model && !before?.model) s = withNote(s, hook.sessionId, now, (n) => ({ ...n, model }));
    if (usage)
      s.estimated_tokens_ratio =
        Math.round((usage.context / windowOf(usage, model, session.env)) * 1000) / 1000;
    const back =
      before && tool ? recovered(before, tool, callTarget(tool, input)) : { failed: 0, note: before };
    if (back.failed) s = withNote(s, hook.sessionId, now, () => back.note!);
    const sessionFiles = new Set(s.session_files ?? []);
    for (const file of edited) sessionFiles.add(file);
    s.session_files = [...sessionFiles].slice(-50);
    s.active_files = Math.max(s.active_files, sessionFiles.size);
    s = recompute(s, now);
    await putSignalRow(w, ctx.project.id, s);
    // The tool log is filled from the transcript (stop, pre-compact, session-end, ingest), where
    // every call has a stable id; logging here too would count each call twice.
    return {
      signal: s,
      projectId: ctx.project.id,
      note: noteOf(s, hook.sessionId),
      failedBefore: back.failed,
    };
  });
  let decision: AutoSaveDecision = decideAutoSave(signal, now);
  // The spec's "error recovered": failed twice or more, then succeeded. A checkpoint, if the cooldown allows.
  if (decision.action === "none" && failedBefore >= 2 && cooldownOver(signal, now))
    decision = { action: "checkpoint", reason: "error-recovered", cooling: false };
  if (decision.action === "none" || !canRead(src, p)) return {};
  if (decision.action === "emergency") return onRed(session, p, signal, projectId, note, src);
  if (note?.no_save) return {};
  const saved = await writeAuto(session, await factsFor(session, src, p), hook, decision.reason, {});
  if (!saved) await markChecked(session, projectId);
  // Only pressure is worth a word; the tool-count and recovery checkpoints are silent (the spec).
  if (decision.reason !== "context-pressure") return saved ? { saved: saved.snapshot.name } : {};
  // Pressure is a moment to ask the agent for its checkpoint, saved mechanically or not.
  if (!saved) return { moment: "yellow" };
  const ratio = pct(signal.estimated_tokens_ratio);
  const after = await signalAfterSave(session, projectId);
  return {
    saved: saved.snapshot.name,
    moment: "yellow",
    ...warning(
      `Context pressure rising (${ratio}%). MindSave auto-checkpoint saved: ${saved.snapshot.name}.`,
      `MindSave: the context window is ${ratio}% full (warning threshold ${pct(after.thresholds.warning)}%). The task state was checkpointed automatically as snapshot ${saved.snapshot.name}.`,
    ),
  };
}

/**
 * The signal as a save left it, as `mindsave signal` shows it next: the save tells it the task's
 * active files, decisions and constraints, which set the complexity and so the thresholds.
 */
async function signalAfterSave(session: Session, projectId: string): Promise<SignalRow> {
  return recompute(await getSignalRow(session.store, projectId), session.now());
}

/** What RED's warning says of the task's snapshot: the one just saved, the newest that holds it, or why there is none. */
function redSnapshotLine(
  saved: SaveResult | null,
  newest: SnapshotRecord | null,
  extended: SnapshotRecord | null,
  note: SessionNote | null,
): string {
  if (saved)
    return `MindSave auto-saved ${saved.snapshot.name} (Layer 1${extended ? `; constraints and decisions from ${extended.name}` : ""}).`;
  if (newest) return `MindSave's snapshot ${newest.name} already holds the current task state.`;
  return note?.no_save
    ? "MindSave is not saving this session (you said not to)."
    : "MindSave has no snapshot of this task yet.";
}

/**
 * A checkpoint was due and the transcript held nothing new to save: the next look waits a cooldown,
 * as after a save (a long session's transcript is megabytes, and tool calls come every few seconds).
 */
async function markChecked(session: Session, projectId: string): Promise<void> {
  const now = session.now();
  await session.write((w) => changeSignalRow(w, projectId, (s) => recordCheck(s, now)));
}

/** RED, at most once per cooldown: an emergency Layer 1 snapshot when Layer 1 changed, and always the warning. */
async function onRed(
  session: Session,
  p: HookPayload,
  signal: SignalRow,
  projectId: string,
  note: SessionNote | null,
  src: TranscriptSource,
): Promise<HookOutcome> {
  const now = session.now();
  const { sessionId } = hookFacts(p);
  // Per session (two sessions in one project each hear it); without a session id, per project.
  const last = sessionId
    ? { time: note?.red_at, turn: note?.red_turn }
    : { time: signal.last_emergency_time, turn: signal.last_emergency_turn };
  if (
    last.time &&
    !cooldownOver(
      {
        ...signal,
        last_auto_save_time: last.time,
        last_auto_save_turn: last.turn ?? signal.turn,
        last_auto_check_time: undefined,
      },
      now,
    )
  )
    return {};
  let saved: SaveResult | null = null;
  if (!note?.no_save)
    saved = await writeAuto(session, await factsFor(session, src, p), hookFacts(p), "context-critical", {
      overflow: true,
    });
  // The thresholds as the save left them (`mindsave signal` shows the same).
  const after = await session.write(async (w) => {
    const s = await getSignalRow(w, projectId);
    const marked = {
      ...s,
      last_emergency_time: now.toISOString(),
      last_emergency_turn: s.turn,
      last_emergency_snapshot: saved?.snapshot.name ?? null,
    };
    await putSignalRow(
      w,
      projectId,
      withNote(marked, sessionId, now, (n) => ({ ...n, red_at: now.toISOString(), red_turn: s.turn })),
    );
    return recompute(s, now);
  });
  const newest =
    saved?.snapshot ??
    (note?.no_save ? null : await session.store.consistentRead((q) => newestSnapshot(q, projectId)));
  const extended = newest?.auto_trigger?.extends
    ? await session.store.getSnapshot(String(newest.auto_trigger.extends))
    : null;
  // (The skill's module is the installer's side: loaded on this rare path only, not by every hook.)
  const { loadCommand } = await import("./skill.ts");
  const load = loadCommand(session.env);
  const ratio = pct(signal.estimated_tokens_ratio);
  const what = redSnapshotLine(saved, newest, extended, note);
  // A save that found the task simpler than guessed raises the threshold, possibly above the fill.
  const past = after.pressure_state === "RED" ? "past" : "close to";
  return {
    ...(saved ? { saved: saved.snapshot.name } : {}),
    moment: "red",
    ...warning(
      `⚠️ Context overflow imminent (${ratio}%). ${what} Start a new conversation with ${load} to continue (or run /compact).`,
      `MindSave: the context window is ${ratio}% full, ${past} the critical threshold (${pct(after.thresholds.critical)}%). ${what} A new conversation restores the task with ${load}; /compact continues it here.`,
    ),
  };
}

/**
 * pre-compact, stop, session-end: a snapshot from the transcript, and its tool calls into the tool
 * log. Stop fires after every reply: it counts the turn and, inside the cooldown, ends there
 * without reading the transcript. Compaction and the end of a session lose context, so they
 * always save (unless nothing changed). Nothing is saved in a session the user said not to save.
 */
export async function onCheckpoint(
  session: Session,
  p: HookPayload,
  event: "pre-compact" | "stop" | "session-end",
  src: TranscriptSource = CLAUDE_SOURCE,
  stopEndsSession = false,
): Promise<HookOutcome> {
  const now = session.now();
  const hook = hookFacts(p);
  let note: SessionNote | null;
  // A stop that ends the session, inside the cooldown: only work since the newest snapshot is saved.
  let workOnly = false;
  // The project of a stop's turn, whose cooldown a look that saves nothing starts again.
  let stopProject: string | null = null;
  if (event === "stop") {
    const { signal, n, projectId } = await session.write(async (w) => {
      const ctx = await resolveProject(session, { create: true, w });
      const s = recordTurn(await getSignalRow(w, ctx.project.id), now);
      await putSignalRow(w, ctx.project.id, s);
      return { signal: s, n: noteOf(s, hook.sessionId), projectId: ctx.project.id };
    });
    note = n;
    stopProject = projectId;
    if (decideAutoSave({ ...signal, pressure_state: "YELLOW" }, now).action !== "checkpoint") {
      if (!stopEndsSession) return {};
      workOnly = true;
    }
  } else note = await sessionNote(session, hook.sessionId);
  if (note?.no_save || !canRead(src, p)) return {};
  const facts = await factsFor(session, src, p);
  let logged = 0;
  if (facts.tool_uses.length) {
    logged = await session.write(async (w) => {
      const ctx = await resolveProject(session, { create: true, w });
      return logToolCalls(w, ctx.project.id, facts, hook.sessionId, now);
    });
  }
  const reason =
    event === "pre-compact"
      ? `pre-compact${p.trigger ? `:${p.trigger}` : ""}`
      : event === "stop"
        ? "turn-end"
        : "session-end";
  const saved = await writeAuto(session, facts, hook, reason, {
    ...(event === "session-end" || (event === "stop" && stopEndsSession)
      ? { final: { logged, workOnly } }
      : {}),
  });
  if (!saved && stopProject && !stopEndsSession) await markChecked(session, stopProject);
  return saved ? { saved: saved.snapshot.name } : {};
}
