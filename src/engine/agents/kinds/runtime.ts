// `mindsave hook EVENT --agent NAME` as one use case: the agent's payload read into the hooks'
// shape, the same flows for every agent (restore, pressure, semantic triggers, snapshots), the
// reply rendered the way that agent's hook configuration accepts it.
import { onCheckpoint, onPostToolUse, onSessionStart, restoreContext } from "../hook-events.ts";
import { onPostToolUseFailure, onUserPromptSubmit } from "../semantic.ts";
import { onPreToolUse } from "../repeat-warning.ts";
import { claimEvent } from "./dedupe.ts";
import { RUNS_CLAUDE_HOOKS, agentKind, callerOf } from "./index.ts";
import { canRead, factsFor, recordTrail } from "./trail.ts";
import { hasWork } from "../auto-snapshot.ts";
import type { AgentKind, HookEvent, Reply } from "./kind.ts";
import { sessionKey, type HookPayload } from "../hook-payload.ts";
import type { Session } from "../../session.ts";
import { hookMayAct, resolveProject } from "../../projects/resolve.ts";
import { isOff, offHere } from "../../projects/off.ts";
import { noteOf, withNote } from "../session-notes.ts";
import { getSignalRow, putSignalRow } from "../signal-row.ts";
import { unlessBusy } from "../../unless-busy.ts";
import { printable } from "../../../lib/text.ts";
import {
  askAtMoment,
  askAtStop,
  noteStepCall,
  noteStepsInTranscript,
  type Ask,
} from "../checkpoint-request.ts";
import type { TranscriptFacts } from "../transcript.ts";
import {
  compactionGuide,
  compressesNow,
  noteCompaction,
  restoreAfterCompaction,
} from "../compaction-guide.ts";
import type { HookOutcome } from "../hook-payload.ts";

export interface HookCall {
  /** The configuration the hook was installed by (`--agent`): the output's shape. */
  route: AgentKind;
  /** The agent that sent the payload (the route, unless another agent ran Claude Code's hooks). */
  caller: AgentKind;
  event: HookEvent;
  payload: HookPayload;
  /** This event's reply brings the restore block, once per session (kind.ts ParsedHook). */
  restoreOnce?: boolean;
}

/** A hook call from `--agent` and the payload, or null for an agent we do not know. */
export function readHook(
  agent: string | undefined,
  event: HookEvent,
  raw: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): HookCall | null {
  const route = agentKind(agent);
  if (!route) return null;
  const caller = callerOf(route, raw);
  const parsed = caller.parse(event, raw, env);
  return { route, caller, event: parsed.event, payload: parsed.payload, restoreOnce: parsed.restoreOnce };
}

/**
 * The restore block, the first time a session asks for it (noted in its session note); undefined
 * after that, without a session id, or when the store cannot be written now.
 */
async function firstRestore(session: Session, p: HookPayload): Promise<string | undefined> {
  const sessionId = sessionKey(p.session_id);
  if (!sessionId) return undefined;
  const now = session.now();
  const first = await unlessBusy(true, false, () =>
    session.write(async (w) => {
      const ctx = await resolveProject(session, { create: true, w });
      const row = await getSignalRow(w, ctx.project.id);
      if (noteOf(row, sessionId)?.restored) return false;
      await putSignalRow(
        w,
        ctx.project.id,
        withNote(row, sessionId, now, (n) => ({ ...n, restored: now.toISOString() })),
      );
      return true;
    }),
  );
  return first ? restoreContext(session) : undefined;
}

/**
 * The checkpoint request this hook carries, in the route's own channel: the context of an event
 * whose reply takes it, or the block of a stop (each found by what the route renders).
 */
async function checkpointAsk(session: Session, call: HookCall, outcome: HookOutcome): Promise<Ask> {
  const { route, event, payload: p } = call;
  const stopBlock = route.render("stop", { block: "-" }) !== "";
  // A plan step done is asked at the next stop: only where a stop can be blocked.
  if (event === "post-tool-use" && stopBlock) await noteStepCall(session, p);
  if (event === "stop" && stopBlock && call.caller.planToolUnhooked)
    await noteStepsInTranscript(session, p, call.caller.planToolUnhooked);
  if (outcome.moment) {
    const context = route.render(event, { context: "-" }) !== "";
    return askAtMoment(session, p, outcome.moment, { context, stopBlock }, outcome.workUnseen);
  }
  let read: Promise<TranscriptFacts> | undefined;
  const facts = () => (read ??= factsFor(session, call.caller.source, p));
  const didWork = async () => canRead(call.caller.source, p) && hasWork(await facts());
  return stopBlock ? askAtStop(session, p, event, { facts, didWork }) : {};
}

/**
 * An agent with no event after its compaction: its pre-compaction event notes one, and the next
 * event whose reply reaches the model brings the restore block first.
 */
async function withRestoreAfterCompaction(session: Session, call: HookCall, reply: Reply): Promise<Reply> {
  const { route, event, payload: p } = call;
  if (event === "pre-compact") {
    await noteCompaction(session, p);
    return reply;
  }
  // (A session start restores anyway.)
  if (event === "session-start" || route.render(event, { context: "-" }) === "") return reply;
  const block = await restoreAfterCompaction(session, p);
  return block ? { ...reply, context: [block, reply.context].filter(Boolean).join("\n\n") } : reply;
}

/** The event's own flow (restore, prompt, repeat warning, pressure, snapshots): what it has to say. */
function eventFlow(session: Session, call: HookCall): Promise<HookOutcome> {
  const { caller, event, payload: p } = call;
  const src = caller.source;
  switch (event) {
    case "session-start":
      return onSessionStart(session, p);
    case "user-prompt-submit":
      return onUserPromptSubmit(session, p, src);
    case "pre-tool-use":
      return onPreToolUse(session, p);
    case "post-tool-use":
      return onPostToolUse(session, p, src);
    case "post-tool-use-failure":
      return onPostToolUseFailure(session, p);
    default:
      return onCheckpoint(session, p, event, src, !!caller.stopEndsSession);
  }
}

/** Runs the hook; gives what to print on stdout ("" for nothing). */
export async function runHook(session: Session, call: HookCall): Promise<string> {
  const { route, caller, event, payload: p } = call;
  // A folder that is no project (no marker, or the home folder) gets none from a hook: quiet.
  if (!(await hookMayAct(session))) return "";
  // Switched off (`mindsave off`, for this project or this host): nothing saved, nothing restored.
  if (isOff(await offHere(session))) return "";
  const src = caller.source;
  // Gemini CLI's PreCompress fires before every compression check: one that compresses nothing is
  // no compaction, so no snapshot of it either (it would cost a transcript read every turn).
  if (event === "pre-compact" && route.restoreAfterCompaction && !compressesNow(session, p, src)) return "";
  // At session start the restore block matters more than this bookkeeping: when another
  // MindSave holds the write lock (a long sync), it is left out, not the block.
  const restoring = event === "session-start";
  if (
    RUNS_CLAUDE_HOOKS.has(caller.id) &&
    !(await unlessBusy(restoring, true, () => claimEvent(session, sessionKey(p.session_id), event, route.id)))
  )
    return "";
  if (src.trail) await unlessBusy(restoring, undefined, () => recordTrail(session, event, p, src));
  const outcome = await eventFlow(session, call);
  const ask = await checkpointAsk(session, call, outcome);
  let reply: Reply = {
    context: [outcome.context, ask.context].filter(Boolean).join("\n\n") || undefined,
    message: outcome.message,
    block: ask.block,
  };
  // Where compaction can carry context (opencode), the summary keeps the task state just saved.
  if (event === "pre-compact" && route.compactionContext)
    reply = { context: await restoreContext(session, "compact") };
  // Where the hook's output instructs the summariser (Claude Code), it names what the summary keeps.
  if (event === "pre-compact" && route.compactionGuide) reply = { context: await compactionGuide(session) };
  if (route.restoreAfterCompaction) reply = await withRestoreAfterCompaction(session, call, reply);
  if (call.restoreOnce) {
    const block = await firstRestore(session, p);
    if (block) reply = { ...reply, context: [block, reply.context].filter(Boolean).join("\n\n") };
  }
  // What goes into the model's context holds no escape sequence, whatever the store holds (a JSON
  // reply would carry one escaped, and the agent would decode it).
  return route.render(event, {
    context: reply.context && printable(reply.context),
    message: reply.message && printable(reply.message),
    block: reply.block,
  });
}
