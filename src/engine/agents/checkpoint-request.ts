// Agent-written checkpoints: at the spec's moments (pressure YELLOW and RED, the user ending the
// session) the running agent is asked, in its own channel, to save a checkpoint through MindSave
// with what only it knows (Layer 1 and 2). Where the moment's own event takes context (a tool
// call's YELLOW), the request joins that context; where blocking the turn's end is the agent's way
// (Claude Code, Codex, Gemini CLI, Copilot: "decision: block"), the user's ending is asked at the
// next stop, once. Each moment is asked once per session (never again with stop_hook_active),
// never in a session the user said not to save, and only with `mindsave config checkpoints ask`.
// The mechanical snapshot of the moment is still written (the agent may not answer); the agent's
// own save is newer and supersedes it.
import { getSetting } from "../home/settings.ts";
import { sessionNote } from "./auto-snapshot.ts";
import { resolveProject } from "../projects/resolve.ts";
import { noteOf, withNote, type SessionNote } from "./session-notes.ts";
import { getSignalRow, putSignalRow } from "./signal-row.ts";
import { unlessBusy } from "../unless-busy.ts";
import type { HookPayload } from "./hook-payload.ts";
import type { HookEvent } from "./kinds/kind.ts";
import type { Session } from "../session.ts";

/** The spec's moments a checkpoint is asked at. */
export type CheckpointMoment = "yellow" | "red" | "ending";

const WHY: Record<CheckpointMoment, string> = {
  yellow: "The context window is filling up",
  red: "The context window is nearly full",
  ending: "The user is ending the session",
};

/** The request, one paragraph for the model (its cost in cl100k tokens is in the README). */
export function checkpointRequest(moment: CheckpointMoment): string {
  return (
    `MindSave: ${WHY[moment]}. Save a checkpoint now with MindSave's MCP \`save\` tool (or \`mindsave save\`), ` +
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
  const sessionId = typeof p.session_id === "string" && p.session_id ? p.session_id : null;
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

/**
 * At a stop the agent lets a hook block: the moment kept for it, asked once (never when the stop
 * is a hook's own continuation, nor in a session without work: a Q&A has no checkpoint to write).
 */
export async function askAtStop(
  session: Session,
  p: HookPayload,
  event: HookEvent,
  didWork: () => Promise<boolean>,
): Promise<Ask> {
  const sessionId = typeof p.session_id === "string" && p.session_id ? p.session_id : null;
  if (event !== "stop" || p.stop_hook_active === true || !(await askable(session, sessionId))) return {};
  const note = await sessionNote(session, sessionId);
  // The transcript is read only when a moment waits for this stop.
  const work = !!note?.pending_ask?.length && (await didWork());
  const moment = await withAskNote(session, sessionId!, (n) => {
    const pending = n?.pending_ask?.[0] as CheckpointMoment | undefined;
    if (!pending) return { result: undefined };
    if (!work) return { result: undefined, note: (x) => ({ ...x, pending_ask: [] }) };
    const take = (x: SessionNote): SessionNote => ({
      ...x,
      pending_ask: (x.pending_ask ?? []).slice(1),
      asked: [...(x.asked ?? []), pending],
    });
    // The user said not to save since: the moment is dropped, unasked.
    return { result: n?.no_save ? undefined : pending, note: take };
  });
  return moment ? { block: checkpointRequest(moment) } : {};
}
