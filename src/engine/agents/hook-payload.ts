// What a hook is given: the agent's payload (Claude Code's shape; other agents' are mapped onto it
// in kinds/), the facts a hook knows beyond the transcript, what a hook flow answers, and the
// model's context window the payload names.
import { derivedId } from "../ids.ts";
import { redact } from "../snapshots/redact.ts";

export const DEFAULT_CONTEXT_WINDOW = 200_000;
export const LARGE_CONTEXT_WINDOW = 1_000_000;

/**
 * The model's context window: MINDSAVE_CONTEXT_WINDOW; 1M for a `[1m]` model (as SessionStart
 * names it); 1M when the context already holds more than 200k tokens; else 200k.
 */
export function contextWindow(
  model: string | null | undefined,
  env: NodeJS.ProcessEnv = process.env,
  context = 0,
): number {
  const fromEnv = Number(env.MINDSAVE_CONTEXT_WINDOW);
  if (Number.isFinite(fromEnv) && fromEnv > 1000) return fromEnv;
  if (model && /\[1m\]|-1m\b/i.test(model)) return LARGE_CONTEXT_WINDOW;
  if (context > DEFAULT_CONTEXT_WINDOW) return LARGE_CONTEXT_WINDOW;
  return DEFAULT_CONTEXT_WINDOW;
}

/** What a hook knows beyond the transcript. */
export interface HookFacts {
  /** The payload's session_id as a key (`sessionKey`): the session every hook snapshot is stamped with. */
  sessionId: string | null;
  /** Stop's `last_assistant_message`: the final reply even when the transcript lags behind it. */
  lastReply?: string;
  /** The agent whose hook this is (`hook --agent`): the snapshot records who saved it. */
  agent?: string;
}

export interface HookPayload {
  session_id?: string;
  transcript_path?: string;
  cwd?: string;
  hook_event_name?: string;
  source?: string;
  model?: string;
  prompt?: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  tool_use_id?: string;
  error?: string;
  is_interrupt?: boolean;
  trigger?: string;
  reason?: string;
  stop_hook_active?: boolean;
  last_assistant_message?: string;
  [k: string]: unknown;
}

/** What a hook flow has to say, agent-neutral: each agent's module renders it in its own output shape. */
export interface HookOutcome {
  /** For the model (Claude Code: hookSpecificOutput.additionalContext). */
  context?: string;
  /** For the person (Claude Code: systemMessage). */
  message?: string;
  saved?: string;
  /** A moment the agent is asked to save a checkpoint at (checkpoint-request.ts). */
  moment?: "yellow" | "red" | "ending";
  /** The moment's hook saw no work of the session: only a stop that sees some may ask. */
  workUnseen?: boolean;
}

/** The last id keyed: a hook asks for its one session's key at every step, the scan runs once. */
let lastKey: { id: string; key: string } | null = null;

/**
 * An agent's session id as the hooks key their notes and snapshots by. An id the secret scan would
 * redact (a JWT, a token's shape) is stored as a hash of itself: redacted, every hook's id would
 * become the same tag and find no note of its session, and kept, a real secret would be stored.
 */
export function sessionKey(id: unknown): string | null {
  if (typeof id !== "string" || !id) return null;
  if (lastKey?.id !== id) lastKey = { id, key: redact(id) === id ? id : derivedId("session", id) };
  return lastKey.key;
}

export function hookFacts(p: HookPayload): HookFacts {
  return {
    sessionId: sessionKey(p.session_id),
    lastReply:
      typeof p.last_assistant_message === "string" && p.last_assistant_message.trim()
        ? p.last_assistant_message
        : undefined,
    ...(typeof p._agent === "string" ? { agent: p._agent } : {}),
  };
}
