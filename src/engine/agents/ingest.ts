// `mindsave ingest` and the hooks' tool log: a transcript's tool calls into the project's tool log
// (Layer 3, never restored on its own).
import { readSync } from "node:fs";
import { UserError } from "../../errors.ts";
import { readRollout } from "./kinds/codex.ts";
import { readCopilotEvents } from "./kinds/copilot.ts";
import { readCursorTranscript } from "./kinds/cursor.ts";
import { readChatRecording } from "./kinds/gemini.ts";
import { actionFor, appendToolCalls } from "./toollog.ts";
import { abandonedApproaches, recordAbandoned } from "./abandoned.ts";
import { readTranscript, toolTarget, withTranscript, type TranscriptFacts } from "./transcript.ts";
import type { Session } from "../session.ts";
import { resolveProject } from "../projects/resolve.ts";
import type { StoreWriter } from "../../store/store.ts";

/** The transcript's tool calls into the project's tool log, inside the caller's transaction. */
export function logToolCalls(
  w: StoreWriter,
  projectId: string,
  facts: TranscriptFacts,
  sessionId: string | null,
  now: Date,
): Promise<number> {
  return appendToolCalls(
    w,
    projectId,
    facts.tool_uses.map((t) => ({
      timestamp: t.timestamp || now.toISOString(),
      action: actionFor(t.name),
      tool: t.name,
      target: toolTarget(t),
      summary: t.is_error ? "failed" : "",
      session_id: facts.session_id ?? sessionId,
      source_id: t.id || undefined,
    })),
  );
}

type TranscriptReader = (path: string) => TranscriptFacts;

/**
 * The first record of a transcript (a JSONL line), or null: for one JSON document over several
 * lines, and for what is not a regular file (a FIFO is opened non-blocking, never waited on).
 */
function firstRecord(path: string): Record<string, unknown> | null {
  return withTranscript(path, null, (fd, size) => {
    const head = Buffer.alloc(Math.min(size, 64 * 1024));
    const text = head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString("utf8");
    try {
      const parsed: unknown = JSON.parse(text.split("\n", 1)[0]!.trim());
      return parsed && typeof parsed === "object" && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)
        : null;
    } catch {
      // Not a JSON line: the readers below decide.
      return null;
    }
  });
}

const CODEX_RECORDS = new Set(["session_meta", "turn_context", "response_item", "event_msg", "compacted"]);

/**
 * The reader for the agent that wrote a transcript, told by its first record: Codex's rollout
 * (`session_meta`…), Copilot CLI's event log (`session.start`…), Gemini CLI's chat recording
 * (`sessionId` with `projectHash`), Cursor's (`role` and `message`, no `type`), else Claude Code's.
 */
function readerFor(path: string): TranscriptReader {
  const first = firstRecord(path);
  const type = typeof first?.type === "string" ? first.type : "";
  if (CODEX_RECORDS.has(type)) return readRollout;
  if (/^[a-z]+\.[a-z_.]+$/.test(type)) return readCopilotEvents;
  if (first && "projectHash" in first) return readChatRecording;
  if (!first && /\.json$/i.test(path)) return readChatRecording;
  if (first && !type && "role" in first && "message" in first) return readCursorTranscript;
  return readTranscript;
}

/** A transcript's facts, read by the reader of the agent that wrote it. */
export const readAgentTranscript = (path: string): TranscriptFacts => readerFor(path)(path);

/**
 * `mindsave ingest TRANSCRIPT`: the transcript's tool calls into the project's tool log, whichever
 * agent wrote it, and the approaches its session abandoned into the project's failure graph (a
 * transcript ingested is a session over: one recorded already is only seen again).
 */
export async function ingestTranscript(
  session: Session,
  path: string,
): Promise<{ added: number; seen: number; abandoned: string[]; project: string }> {
  const facts = readAgentTranscript(path);
  if (!facts.tool_uses.length && !facts.session_id)
    throw new UserError(
      `${path} holds no transcript lines MindSave reads (Claude Code, Codex CLI, Gemini CLI, Copilot CLI, Cursor).`,
    );
  const now = session.now();
  return session.write(async (w) => {
    const ctx = await resolveProject(session, { create: true, w });
    const added = await logToolCalls(w, ctx.project.id, facts, null, now);
    const abandoned = abandonedApproaches(facts, true);
    await recordAbandoned(w, ctx.project.id, abandoned, now);
    return {
      added,
      seen: facts.tool_uses.length,
      abandoned: Object.keys(abandoned),
      project: ctx.project.name,
    };
  });
}
