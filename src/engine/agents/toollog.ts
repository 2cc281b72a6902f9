// The project's tool log: the cold archive of what an agent did (the spec's tool_logs/*.jsonl).
// Never restored; appended by `ingest`, the stop hook and import; secrets redacted on the way in.
import { derivedId } from "../ids.ts";
import { redactHead } from "../snapshots/redact.ts";
import type { Session } from "../session.ts";
import type { StoreWriter, ToolCallRecord } from "../../store/store.ts";

export type { ToolCallRecord };

export interface ToolCallInput {
  timestamp: string;
  action: string;
  tool?: string;
  target: string;
  summary?: string;
  session_id?: string | null;
  /**
   * A stable key from the source, so re-ingesting adds nothing: the agent's own id of the call (a
   * transcript's or a hook's tool_use id), or a place in the file starting with "@" (PLACE_ID).
   */
  source_id?: string;
}

/** A source id that is a call's place in one file (`@offset.block`), not the agent's id of it. */
const PLACE_ID = /^@/;

/** A call's content, its key when the source gives none (an imported log). */
const contentKey = (c: ToolCallInput) =>
  `${c.timestamp}\0${c.tool ?? c.action}\0${c.target}\0${c.summary ?? ""}`;

/** The row id every earlier version gave a call: its session, then its key. */
const sessionRowId = (projectId: string, c: ToolCallInput) =>
  derivedId("t", projectId, c.session_id ?? "", c.source_id ?? contentKey(c));

/**
 * A call's row: the agent's own id of the call names it wherever it is read (a hook, `ingest`, a
 * resumed session's second transcript with another session id), so it lands on one row and sync
 * merges the copies; a place in a file or a content key means something only within its session.
 */
function toolCallRowId(projectId: string, c: ToolCallInput, sessionRow: string): string {
  return c.source_id && !PLACE_ID.test(c.source_id)
    ? derivedId("t", projectId, "call", c.source_id)
    : sessionRow;
}

/** The spec's action words from a tool name. */
export function actionFor(tool: string): string {
  const t = tool.toLowerCase();
  if (["read", "glob", "grep", "ls", "notebookread", "webfetch", "websearch"].includes(t)) return "read";
  if (["write", "notebookedit"].includes(t)) return "write";
  if (["edit", "multiedit", "apply_patch"].includes(t)) return "edit";
  if (["bash", "shell", "run_terminal_cmd", "bashoutput"].includes(t)) return "bash";
  return ["read", "write", "edit", "bash"].includes(t) ? t : "other";
}

/**
 * Appends tool calls inside the caller's transaction; returns how many were new. Every path into
 * the tool log (ingest, hooks, import) comes through here: each text field is redacted.
 */
export async function appendToolCalls(
  w: StoreWriter,
  projectId: string,
  calls: ToolCallInput[],
): Promise<number> {
  let added = 0;
  for (const c of calls) {
    // A call logged before rows were named by the agent's id is there under its session's row id.
    const earlier = sessionRowId(projectId, c);
    const rec: ToolCallRecord = {
      id: toolCallRowId(projectId, c, earlier),
      project_id: projectId,
      session_id: c.session_id ? redactHead(c.session_id, 200) : null,
      timestamp: redactHead(c.timestamp, 100),
      action: redactHead(c.action, 100),
      tool: redactHead(c.tool ?? c.action, 200),
      target: redactHead(c.target, 2000),
      summary: redactHead(c.summary ?? "", 2000),
    };
    if (await w.addToolCall(rec, earlier === rec.id ? [] : [earlier])) added++;
  }
  return added;
}

export function recentToolCalls(session: Session, projectId: string, limit = 50): Promise<ToolCallRecord[]> {
  return session.store.listToolCalls(projectId, limit);
}

/**
 * The newest `limit` calls of this agent session, oldest first: the session of the newest call
 * logged on this host in the project. Another session's calls, or another laptop's (synced here),
 * never are; none when no call of a session was logged here.
 */
export function sessionToolCalls(
  session: Session,
  projectId: string,
  limit: number,
): Promise<ToolCallRecord[]> {
  return session.store.newestSessionToolCalls(projectId, session.host.id, limit);
}
