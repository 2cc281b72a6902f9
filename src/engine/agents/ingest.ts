// `mindsave ingest` and the hooks' tool log: a transcript's tool calls into the project's tool log
// (Layer 3, never restored on its own).
import { UserError } from "../../errors.ts";
import { actionFor, appendToolCalls } from "./toollog.ts";
import { readTranscript, toolTarget, type TranscriptFacts } from "./transcript.ts";
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

/** `mindsave ingest TRANSCRIPT`: the transcript's tool calls into the project's tool log. */
export async function ingestTranscript(
  session: Session,
  path: string,
): Promise<{ added: number; seen: number; project: string }> {
  const facts = readTranscript(path);
  if (!facts.tool_uses.length && !facts.session_id)
    throw new UserError(`${path} holds no Claude Code transcript lines.`);
  const now = session.now();
  return session.write(async (w) => {
    const ctx = await resolveProject(session, { create: true, w });
    const added = await logToolCalls(w, ctx.project.id, facts, null, now);
    return { added, seen: facts.tool_uses.length, project: ctx.project.name };
  });
}
