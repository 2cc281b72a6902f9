// Cursor (IDE and `agent` CLI). Payloads (cursor.com/docs/agent/hooks; entireio/cli
// cmd/entire/cli/agent/cursor/AGENT.md, captured payloads 2026-03): conversation_id,
// generation_id, model, hook_event_name, cursor_version, workspace_roots[], user_email,
// transcript_path (null in the CLI); sessionStart session_id; beforeSubmitPrompt prompt; stop
// status, loop_count; postToolUse tool_name, tool_input, tool_output (a call that succeeded);
// postToolUseFailure the same with error_message, failure_type. Output: sessionStart takes
// `{"additional_context": …}` (kept by the CLI, dropped by the IDE); preCompact's output is
// ignored, beforeSubmitPrompt cannot add context and a stop's `followup_message` would start a
// turn: those print nothing. Transcript: ~/.cursor/projects/<root, non-alphanumerics as '-'>/
// agent-transcripts/<conversation_id>.jsonl (the IDE nests it in a folder of that id), lines
// {role, message: {content: [text | tool_use {name, input}]}} (an assistant's text is its reply)
// with tools Write and StrReplace (`path`), Shell (`command`), Read, Grep, Glob; no ids,
// timestamps or token counts.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { objectOf, parseLine, scanLines, type TranscriptFacts } from "../transcript.ts";
import { FactsBuilder, contentText } from "./facts.ts";
import { todosIn } from "./trail.ts";
import { firstRoot, pathOf, pick, record, stamped, type AgentKind, type TranscriptSource } from "./kind.ts";
import { home } from "../registry.ts";
import type { HookPayload } from "../hook-payload.ts";

const EDITS = new Set(["Write", "StrReplace", "Edit", "MultiEdit", "Delete"]);

/** The person's words: the `<user_query>` inside Cursor's wrapping, without its `<timestamp>`. */
function userText(content: unknown): string {
  const t = contentText(content);
  const q = /<user_query>([\s\S]*?)<\/user_query>/.exec(t);
  return (q ? q[1] : t.replace(/^\s*<timestamp>[\s\S]*?<\/timestamp>/, "")).trim();
}

/** The facts of a Cursor agent transcript. */
export function readCursorTranscript(
  path: string,
  budget: { head?: number; tail?: number } = {},
): TranscriptFacts {
  const b = new FactsBuilder();
  const skipped = scanLines(path, budget, (raw, offset, identity) => {
    const line = raw.trim() ? parseLine(raw) : null;
    const content = objectOf(line?.message)?.content;
    if (!line || content === undefined) return;
    if (
      line.role === "user" &&
      !(Array.isArray(content) && content.some((c) => objectOf(c)?.type === "tool_result"))
    )
      b.prompt(userText(content), identity);
    if (!identity && line.role === "assistant" && Array.isArray(content)) assistantLine(b, content, offset);
  });
  return b.done(skipped ?? 0);
}

/**
 * An assistant line's blocks in their order: its tool calls, and its text as the agent's reply, the
 * text after the line's last call only (a call after a text shows the agent went on working).
 */
function assistantLine(b: FactsBuilder, content: unknown[], offset: number): void {
  let said: string[] = [];
  content.forEach((v: unknown, i: number) => {
    const block = objectOf(v);
    if (block?.type === "text" && typeof block.text === "string") said.push(block.text);
    else if (block?.type === "tool_use" && typeof block.name === "string") {
      said = [];
      toolUse(b, block, `@${offset}.${i}`);
    }
  });
  b.reply(said.join("\n"));
}

/** A tool call; `place` (the line's offset and the block's index) is the id of one without its own. */
function toolUse(b: FactsBuilder, block: Record<string, unknown>, place: string): void {
  const name = String(block.name);
  const input = record(block.input) ?? {};
  const file = pathOf(input);
  const id = typeof block.id === "string" && block.id ? block.id : place;
  b.tool(id, name, { ...input, ...(file ? { file_path: file } : {}) }, "");
  if (file && EDITS.has(name)) b.edit(file);
  const todos = todosIn(input);
  if (todos) b.todos(todos);
}

/** Where Cursor keeps a conversation's transcript when the payload does not say (the CLI never does). */
export function cursorTranscriptPath(
  root: string | undefined,
  conversation: string | undefined,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (!root || !conversation || /[/\\]/.test(conversation)) return undefined;
  const dir = join(
    home(env),
    ".cursor",
    "projects",
    root.replace(/^[/\\]+/, "").replace(/[^A-Za-z0-9]/g, "-"),
    "agent-transcripts",
  );
  return [join(dir, `${conversation}.jsonl`), join(dir, conversation, `${conversation}.jsonl`)].find((p) =>
    existsSync(p),
  );
}

export const CURSOR_SOURCE: TranscriptSource = {
  facts: (p) => readCursorTranscript(p.transcript_path ?? ""),
  usage: () => null,
  editedFiles: (tool, input) => {
    const file = pathOf(input);
    return file && EDITS.has(tool) ? [file] : [];
  },
  trail: true,
};

export const cursor: AgentKind = {
  id: "cursor",
  parse(event, raw, env) {
    const p: HookPayload = {};
    const set = (k: string, v: unknown) => v !== undefined && (p[k] = v);
    const session = pick(raw, "conversation_id", "session_id");
    // The workspace, not a tool's `cwd` (a subfolder it ran in): the transcript's folder is named after it.
    const cwd = firstRoot(raw.workspace_roots) ?? pick(raw, "cwd");
    set("session_id", session);
    set("cwd", cwd);
    set("transcript_path", pick(raw, "transcript_path") ?? cursorTranscriptPath(cwd, session, env));
    set("model", pick(raw, "model"));
    set("prompt", pick(raw, "prompt"));
    set("tool_name", pick(raw, "tool_name"));
    set("tool_input", record(raw.tool_input));
    // sessionStart fires for a new conversation: a fresh start, not a resume.
    set("source", pick(raw, "source") ?? (event === "session-start" ? "startup" : undefined));
    set("reason", pick(raw, "reason", "status"));
    if (event === "post-tool-use-failure")
      set("error", pick(raw, "error_message", "error") ?? pick(raw, "failure_type") ?? "failed");
    return { event, payload: stamped(p, "cursor") };
  },
  source: CURSOR_SOURCE,
  render: (event, reply) =>
    event === "session-start" && reply.context
      ? JSON.stringify({ additional_context: reply.context }) + "\n"
      : "",
};
