// One interface for every coding agent MindSave's hooks serve: what its hook payload gives us (in
// the shape the hook flows read: Claude Code's), what its transcript gives us (TranscriptFacts),
// and what it accepts back on stdout for each event. One module per agent implements it
// (claude.ts, codex.ts, …); index.ts looks them up and tells who really called.
import type { HookPayload } from "../hook-payload.ts";
import { emptyFacts, type TranscriptFacts, type Usage } from "../transcript.ts";
import type { HookEvent } from "../agent-hooks.ts";
import type { AgentId } from "../registry.ts";

export type { HookEvent, AgentId };

/** What a hook has to say, agent-neutral: context for the model, a line for the person. */
export interface Reply {
  context?: string;
  message?: string;
  /** Why the turn's end is blocked (a checkpoint request): the agent carries on with it. */
  block?: string;
}

/** Where the facts of a session come from: the agent's transcript, or what its hooks noted. */
export interface TranscriptSource {
  /** The agent's transcript facts (empty facts when it keeps none we can read). */
  facts(p: HookPayload): TranscriptFacts;
  /** The newest measured context fill, read from the end of the transcript only. */
  usage(p: HookPayload): Usage | null;
  /** The files a successful tool call edited. */
  editedFiles(tool: string, input: Record<string, unknown>): string[];
  /** The hooks keep a trail of the session's prompts and tool calls (the transcript alone may say nothing). */
  trail: boolean;
}

export interface ParsedHook {
  /** The event the flows run: a post-tool-use whose payload says it failed becomes post-tool-use-failure. */
  event: HookEvent;
  payload: HookPayload;
  /**
   * The agent dropped what its session start printed (Cline's CLI runs TaskStart without waiting
   * for it): this event's reply brings the restore block, once per session.
   */
  restoreOnce?: boolean;
}

export interface AgentKind {
  id: AgentId;
  /** Reads this agent's payload for `event` into the hooks' shape (session_id, cwd, transcript_path, prompt, tool_name …). */
  parse(event: HookEvent, raw: Record<string, unknown>, env: NodeJS.ProcessEnv): ParsedHook;
  source: TranscriptSource;
  /** stdout for `event` exactly as this agent accepts it; "" prints nothing. */
  render(event: HookEvent, reply: Reply): string;
  /** Its compaction hook can carry context into the summary (opencode): pre-compact replies with the restore block. */
  compactionContext?: boolean;
  /**
   * Its compaction hook's output becomes the summariser's instructions (Claude Code's PreCompact
   * stdout): pre-compact replies with the guide (compaction-guide.ts), as plain text.
   */
  compactionGuide?: boolean;
  /**
   * No event follows its compaction (Gemini CLI): a compaction its pre-compaction event announces
   * brings the restore block with the next event whose reply reaches the model.
   */
  restoreAfterCompaction?: boolean;
  /** Its plan tool, when that fires no tool hook (Codex's update_plan): a stop looks for its calls in the transcript. */
  planToolUnhooked?: string;
  /**
   * Its stop is the end of the session too (Cline's TaskComplete; opencode's session.idle, the last
   * event of `opencode run`): there it is the final save, inside the auto-save cooldown too.
   */
  stopEndsSession?: boolean;
}

/** A string field, or undefined. */
export const text = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

/** An object field, or undefined; a JSON text of an object is parsed (Copilot's toolArgs may be one). */
export function record(v: unknown): Record<string, unknown> | undefined {
  if (typeof v === "string" && v.trim().startsWith("{")) {
    try {
      v = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** The first of `keys` that holds a non-empty string. */
export function pick(raw: Record<string, unknown>, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = text(raw[k]);
    if (v) return v;
  }
  return undefined;
}

/** The first workspace root of a payload that names roots instead of a cwd (Cursor, Cline). */
export const firstRoot = (v: unknown): string | undefined =>
  Array.isArray(v) ? v.map(text).find(Boolean) : undefined;

/** Claude Code's hook JSON for an event that takes context: `hookSpecificOutput` under the event's own name. */
export function hookSpecificJson(eventName: string | undefined, reply: Reply): string {
  if (!eventName || !reply.context) return "";
  const out = {
    ...(reply.message ? { systemMessage: reply.message } : {}),
    hookSpecificOutput: { hookEventName: eventName, additionalContext: reply.context },
  };
  return JSON.stringify(out) + "\n";
}

/** A stop's reply that blocks the turn's end with a reason (Claude Code, Codex, Gemini CLI, Copilot share the shape); "" without one. */
export function stopBlockJson(reply: Reply): string {
  return reply.block ? JSON.stringify({ decision: "block", reason: reply.block }) + "\n" : "";
}

const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);

/**
 * A fill the payload carries as `usage` (Usage's token fields: what opencode's plugin sends, what
 * Cline's parse reads from its session), or null without one.
 */
export function passedUsage(v: unknown): Usage | null {
  const u = record(v);
  const [input, read, created] = [
    count(u?.input_tokens),
    count(u?.cache_read_input_tokens),
    count(u?.cache_creation_input_tokens),
  ];
  if (input + read + created === 0) return null;
  return {
    input_tokens: input,
    cache_read_input_tokens: read,
    cache_creation_input_tokens: created,
    model: text(u?.model) ?? null,
    context: input + read + created,
  };
}

/** A tool input's path under any of the names agents give it. */
export const pathOf = (input: Record<string, unknown>): string | undefined =>
  text(input.file_path) ?? text(input.path) ?? text(input.filePath) ?? text(input.notebook_path);

/** Marks the payload with the agent that sent it (the snapshot records who saved it). */
export function stamped(p: HookPayload, agent: AgentId): HookPayload {
  return { ...p, _agent: agent };
}

/**
 * The source of an agent with no transcript (Cline, opencode): the hooks keep their own trail of
 * the session; the tools in `edits` are the ones that write a file.
 */
export function trailSource(edits: ReadonlySet<string>): TranscriptSource {
  return {
    facts: () => emptyFacts(),
    // No transcript to read it from: the fill is what the agent's parse passed in the payload, if any.
    usage: (p) => passedUsage(p.usage),
    editedFiles: (tool, input) => {
      const file = pathOf(input);
      return file && edits.has(tool) ? [file] : [];
    },
    trail: true,
  };
}
