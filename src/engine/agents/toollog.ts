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
  /** A stable key from the source (a transcript's tool_use id), so re-ingesting adds nothing. */
  source_id?: string;
}

/** The spec's action words from a tool name. */
export function actionFor(tool: string): string {
  const t = tool.toLowerCase();
  if (["read", "glob", "grep", "ls", "notebookread", "webfetch", "websearch"].includes(t)) return "read";
  if (["write", "notebookedit"].includes(t)) return "write";
  if (["edit", "multiedit"].includes(t)) return "edit";
  if (["bash", "shell", "run_terminal_cmd", "bashoutput"].includes(t)) return "bash";
  return ["read", "write", "edit", "bash"].includes(t) ? t : "other";
}

/**
 * Appends tool calls inside the caller's transaction; returns how many were new. Every path into
 * the tool log (ingest, hooks, import) comes through here: each text field is redacted.
 */
export async function appendToolCalls(w: StoreWriter, projectId: string, calls: ToolCallInput[]): Promise<number> {
  let added = 0;
  for (const c of calls) {
    const key = c.source_id ?? `${c.timestamp}\0${c.tool ?? c.action}\0${c.target}\0${c.summary ?? ""}`;
    const rec: ToolCallRecord = {
      id: derivedId("t", projectId, c.session_id ?? "", key),
      project_id: projectId,
      session_id: c.session_id ? redactHead(c.session_id, 200) : null,
      timestamp: redactHead(c.timestamp, 100),
      action: redactHead(c.action, 100),
      tool: redactHead(c.tool ?? c.action, 200),
      target: redactHead(c.target, 2000),
      summary: redactHead(c.summary ?? "", 2000),
    };
    if (await w.addToolCall(rec)) added++;
  }
  return added;
}

export function recentToolCalls(session: Session, projectId: string, limit = 50): Promise<ToolCallRecord[]> {
  return session.store.listToolCalls(projectId, limit);
}
