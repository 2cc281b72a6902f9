// Agent-written checkpoints: at the spec's moments (pressure YELLOW and RED, the user ending the
// session, a plan step done: plan-steps.ts) the running agent is asked, in its own channel, to
// save a checkpoint through MindSave with what only it knows (Layer 1 and 2). Where the moment's
// own event takes context (a tool call's YELLOW), the request joins that context; where blocking
// the turn's end is the agent's way (Claude Code, Codex, Gemini CLI, Copilot: "decision: block"),
// the user's ending is asked at the next stop, once, and so is a step done, once per step. Each
// moment is asked once per session (never again with stop_hook_active), never in a session the
// user said not to save, and only with `mindsave config checkpoints ask`. The mechanical snapshot
// of the moment is still written (the agent may not answer); the agent's own save is newer and
// supersedes it.
import { getSetting } from "../home/settings.ts";
import { sessionNote } from "./auto-snapshot.ts";
import { resolveProject } from "../projects/resolve.ts";
import { noteOf, withNote, type SessionNote } from "./session-notes.ts";
import { getSignalRow, putSignalRow } from "./signal-row.ts";
import { unlessBusy } from "../unless-busy.ts";
import { sessionKey, type HookPayload } from "./hook-payload.ts";
import type { HookEvent } from "./kinds/kind.ts";
import type { Session } from "../session.ts";
import type { TranscriptFacts } from "./transcript.ts";
import { completedSteps, mayCompleteStep, planCallSince } from "./plan-steps.ts";

/** The spec's moments a checkpoint is asked at. */
export type CheckpointMoment = "yellow" | "red" | "ending" | "subtask";

const WHY: Record<CheckpointMoment, string> = {
  yellow: "The context window is filling up",
  red: "The context window is nearly full",
  ending: "The user is ending the session",
  subtask: "A step of the plan is done",
};

/** The steps a request names: the first three, quoted, and how many more. */
function namedSteps(steps: string[]): string {
  const more = steps.length > 3 ? ` and ${steps.length - 3} more` : "";
  return ` (${steps
    .slice(0, 3)
    .map((s) => JSON.stringify(s))
    .join(", ")}${more})`;
}

/** The request, one paragraph for the model (its cost in cl100k tokens is in the README); a step done names its steps. */
export function checkpointRequest(moment: CheckpointMoment, steps: string[] = []): string {
  return (
    `MindSave: ${WHY[moment]}${steps.length ? namedSteps(steps) : ""}. Save a checkpoint now with MindSave's MCP \`save\` tool (or \`mindsave save\`), ` +
    "filling what you know: goal (the task, one sentence), state (what is done), next_action (the next concrete step), " +
    "active_files, constraints (the user's rules and preferences), decisions (with why) and failed (approaches " +
    "abandoned, with why). Then carry on as before, without mentioning this request."
  );
}

/** Where a hook can carry the request: in the event's context, or by blocking the turn's end. */
export interface Channel {
  /** This event's reply takes context for the model. */
  context: boolean;
  /** The agent's stop can be blocked with a reason it then acts on. */
  stopBlock: boolean;
}

/** What the request adds to the hook's reply. */
export interface Ask {
  context?: string;
  block?: string;
}

/** Asking is on: `checkpoints ask`, and a session id to ask once per moment by. */
async function askable(session: Session, sessionId: string | null): Promise<boolean> {
  if (!sessionId) return false;
  return (await getSetting(session, "checkpoints")) === "ask";
}

/** Changes the session's note in one write; gives what `decide` returns (undefined when busy). */
async function withAskNote<T>(
  session: Session,
  sessionId: string,
  decide: (n: SessionNote | null) => { note?: (n: SessionNote) => SessionNote; result: T },
): Promise<T | undefined> {
  const now = session.now();
  // Busy with another process's write: this hook asks nothing (the moment may come again).
  return unlessBusy(true, undefined, () =>
    session.write(async (w) => {
      const ctx = await resolveProject(session, { create: true, w });
      const row = await getSignalRow(w, ctx.project.id);
      const { note, result } = decide(noteOf(row, sessionId));
      if (note) await putSignalRow(w, ctx.project.id, withNote(row, sessionId, now, note));
      return result;
    }),
  );
}

const has = (xs: string[] | undefined, x: string) => (xs ?? []).includes(x);

/**
 * A moment reached at `event`: asked now in the event's context, or kept for the next stop when
 * the agent's stop can be blocked and this is the user's ending (the agent answers "done" first).
 */
export async function askAtMoment(
  session: Session,
  p: HookPayload,
  moment: CheckpointMoment,
  channel: Channel,
  workUnseen = false,
): Promise<Ask> {
  const sessionId = sessionKey(p.session_id);
  if (!(await askable(session, sessionId))) return {};
  const atStop = channel.stopBlock && (moment === "ending" || !channel.context);
  // Asked now only for a session known to have worked (a Q&A has no checkpoint to write).
  if (!atStop && (!channel.context || workUnseen)) return {};
  const asked = await withAskNote(session, sessionId!, (n) => {
    if (n?.no_save || has(n?.asked, moment) || has(n?.pending_ask, moment)) return { result: false };
    return {
      result: true,
      note: (x) =>
        atStop
          ? { ...x, pending_ask: [...(x.pending_ask ?? []), moment] }
          : { ...x, asked: [...(x.asked ?? []), moment] },
    };
  });
  return asked && !atStop ? { context: checkpointRequest(moment) } : {};
}

/** What a stop reads of the session, only when a moment waits for it (each read at most once). */
export interface StopReads {
  /** The session's facts: its transcript's, or its trail's. */
  facts: () => Promise<TranscriptFacts>;
  /** The session did work (a Q&A has no checkpoint to write). */
  didWork: () => Promise<boolean>;
}

/** The most step names a session's note keeps (the oldest forgotten first). */
const KEEP_STEPS = 50;

/**
 * A tool call that may have completed a plan step: the next stop reads which (askAtStop). Noted only
 * when asking is on, in a session that may be asked.
 */
export async function noteStepCall(session: Session, p: HookPayload): Promise<void> {
  const sessionId = sessionKey(p.session_id);
  if (!mayCompleteStep(p) || !(await askable(session, sessionId))) return;
  await withAskNote(session, sessionId!, (n) =>
    n?.no_save || !mayCompleteStep(p, n?.done_steps) || n?.steps_unread
      ? { result: undefined }
      : { result: undefined, note: (x) => ({ ...x, steps_unread: true }) },
  );
}

/**
 * At a stop of an agent whose plan tool fires no tool hook: a call of `tool` in the transcript since
 * the last stop is noted as noteStepCall notes one (and where the transcript was read up to).
 */
export async function noteStepsInTranscript(session: Session, p: HookPayload, tool: string): Promise<void> {
  const sessionId = sessionKey(p.session_id);
  if (!p.transcript_path || p.stop_hook_active === true || !(await askable(session, sessionId))) return;
  const from = (await sessionNote(session, sessionId))?.plan_read_to ?? 0;
  const { size, seen } = planCallSince(p.transcript_path, from, tool);
  if (size === from && !seen) return;
  await withAskNote(session, sessionId!, (n) => ({
    result: undefined,
    note: (x) => ({ ...x, plan_read_to: size, ...(seen && !n?.no_save ? { steps_unread: true } : {}) }),
  }));
}

/** What a stop asks: the moment kept for it, else the steps done since the last ask; and the note after. */
function stopDecision(
  n: SessionNote | null,
  work: boolean,
  steps: string[],
): {
  note?: (n: SessionNote) => SessionNote;
  result: { moment: CheckpointMoment; steps: string[] } | undefined;
} {
  const fresh = steps.filter((s) => !has(n?.done_steps, s));
  const pending = n?.pending_ask?.[0] as CheckpointMoment | undefined;
  // Steps read are known from now on: a checkpoint asked now holds them; none is asked twice.
  const read = (x: SessionNote): SessionNote =>
    n?.steps_unread || fresh.length
      ? { ...x, steps_unread: false, done_steps: [...(x.done_steps ?? []), ...fresh].slice(-KEEP_STEPS) }
      : x;
  if (pending && work) {
    const take = (x: SessionNote): SessionNote => ({
      ...read(x),
      pending_ask: (x.pending_ask ?? []).slice(1),
      asked: [...(x.asked ?? []), pending],
    });
    // The user said not to save since: the moment is dropped, unasked.
    return { result: n?.no_save ? undefined : { moment: pending, steps: [] }, note: take };
  }
  const dropped = (x: SessionNote): SessionNote => (pending ? { ...read(x), pending_ask: [] } : read(x));
  const subtask = fresh.length && !n?.no_save ? { moment: "subtask" as const, steps: fresh } : undefined;
  // (The steps asked are kept in done_steps: `asked` holds the once-per-session moments.)
  return { result: subtask, note: dropped };
}

/**
 * At a stop the agent lets a hook block: the moment kept for it, else the plan steps completed
 * since the last stop that read them, asked once (never when the stop is a hook's own
 * continuation; a moment kept never in a session without work: a Q&A has no checkpoint to write).
 */
export async function askAtStop(
  session: Session,
  p: HookPayload,
  event: HookEvent,
  reads: StopReads,
): Promise<Ask> {
  const sessionId = sessionKey(p.session_id);
  if (event !== "stop" || p.stop_hook_active === true || !(await askable(session, sessionId))) return {};
  const note = await sessionNote(session, sessionId);
  // The transcript is read only when a moment or a step waits for this stop.
  const pending = !!note?.pending_ask?.length;
  if (!pending && !note?.steps_unread) return {};
  const work = pending && (await reads.didWork());
  const steps = note?.steps_unread || work ? await completedSteps(session, await reads.facts()) : [];
  const asked = await withAskNote(session, sessionId!, (n) => stopDecision(n, work, steps));
  return asked ? { block: checkpointRequest(asked.moment, asked.steps) } : {};
}
