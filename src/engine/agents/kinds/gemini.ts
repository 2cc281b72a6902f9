// Gemini CLI (google-gemini/gemini-cli@5411f11). Payloads: docs/hooks/reference.md and
// packages/core/src/hooks/types.ts (session_id, transcript_path, cwd, hook_event_name, timestamp;
// SessionStart `source`, BeforeAgent `prompt`, AfterAgent `prompt_response`, AfterTool `tool_name`,
// `tool_input`, `tool_response` {llmContent, returnDisplay, error}, PreCompress `trigger`). Outputs:
// SessionStartOutput / AfterToolOutput `hookSpecificOutput {hookEventName, additionalContext}`;
// plain text would become a message to the person, so other events print nothing.
// Transcript (transcript_path = chatRecordingService's file): JSONL since v0.39 — a metadata line
// {sessionId, projectHash, startTime, …}, message records {id, timestamp, type: user|gemini|info|
// error|warning, content, toolCalls?[{id, name, args, status, timestamp}], tokens?{input, …},
// model?} where a repeated id replaces the earlier record, `{"$set": …}` metadata and
// `{"$rewindTo": id}` dropping that message and everything after it; older files are one JSON
// ConversationRecord {sessionId, startTime, messages[]}.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import {
  HEAD_BYTES,
  TAIL_BYTES,
  objectOf,
  parseLine,
  REPLY_MAX,
  scanLines,
  type Line,
  type TranscriptFacts,
  type Usage,
} from "../transcript.ts";
import { FactsBuilder, contentText, todoStatus } from "./facts.ts";
import {
  hookSpecificJson,
  record,
  stamped,
  stopBlockJson,
  text,
  type AgentKind,
  type HookEvent,
  type TranscriptSource,
} from "./kind.ts";
import type { HookPayload } from "../hook-payload.ts";

/** What a message record contributes, kept small (the record itself may hold a whole file). */
interface Slim {
  type: string;
  at: string;
  prompt?: string;
  /** The model's text in a `gemini` record: the last reply, unless a tool call follows it. */
  reply?: string;
  tools?: { id: string; name: string; args: Record<string, unknown>; failed: boolean; at: string }[];
  usage?: Usage;
}

/** Gemini models' context window (1,048,576 tokens for the 2.x/3.x models Gemini CLI runs). */
const GEMINI_WINDOW = 1_048_576;

/**
 * A user record that is not the person's words, as Gemini CLI itself tells them apart
 * (isIgnoredUserContent): a slash command, a "?" help request, the session context it injects,
 * a hook's context (MindSave's restore block among them).
 */
const NOT_A_PROMPT = /^(?:\/|\?|<session_context>|<hook_context>)/;

function slim(r: Line): Slim {
  const s: Slim = { type: String(r.type), at: typeof r.timestamp === "string" ? r.timestamp : "" };
  const text = r.type === "user" ? contentText(r.content).trim() : "";
  if (text && !NOT_A_PROMPT.test(text)) s.prompt = text.slice(0, 10_000);
  const reply = r.type === "gemini" ? contentText(r.content).trim() : "";
  if (reply) s.reply = reply.slice(0, REPLY_MAX);
  if (Array.isArray(r.toolCalls)) {
    s.tools = r.toolCalls.flatMap((v: unknown) => {
      const t = objectOf(v);
      if (typeof t?.name !== "string") return [];
      const at = typeof t.timestamp === "string" ? t.timestamp : s.at;
      return [
        {
          id: String(t.id ?? ""),
          name: t.name,
          args: record(t.args) ?? {},
          failed: t.status === "error",
          at,
        },
      ];
    });
  }
  const tokens = objectOf(r.tokens);
  const input = typeof tokens?.input === "number" ? tokens.input : 0;
  if (input > 0) {
    const model = typeof r.model === "string" ? r.model : null;
    s.usage = {
      input_tokens: input,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      model,
      context: input,
      ...(model && /^gemini-/i.test(model) ? { window: GEMINI_WINDOW } : {}),
    };
  }
  return s;
}

const isMessage = (r: Line) => typeof r.id === "string" && typeof r.type === "string";

/**
 * The messages in order, a repeated id replacing its earlier record, a rewind dropping from its id
 * on, and a checkpoint (`{"$set": {messages}}`, written on /rewind and on a resume) replacing them all.
 */
class Records {
  readonly byId = new Map<string, Slim>();
  meta: Record<string, unknown> = {};
  add(r: Line): void {
    const set = objectOf(r.$set);
    if (typeof r.$rewindTo === "string") this.rewind(r.$rewindTo);
    else if (isMessage(r)) this.message(r);
    else if (set) this.checkpoint(set);
    else if (typeof r.sessionId === "string") this.meta = { ...r, ...this.meta };
  }

  private rewind(to: string): void {
    let found = false;
    for (const id of [...this.byId.keys()]) if ((found ||= id === to)) this.byId.delete(id);
    if (!found) this.byId.clear();
  }

  private message(r: Line): void {
    this.byId.delete(String(r.id));
    this.byId.set(String(r.id), slim(r));
  }

  /** A `$set`: metadata merged in; its `messages`, when it has them, are the whole conversation from here on. */
  private checkpoint(set: Line): void {
    const { messages, ...meta } = set;
    if (Array.isArray(messages)) {
      this.byId.clear();
      for (const m of messages.map(objectOf)) if (m && isMessage(m)) this.message(m);
    }
    this.meta = { ...this.meta, ...meta };
  }
}

function facts(rec: Records, skipped: number): TranscriptFacts {
  const b = new FactsBuilder();
  b.identity({ session_id: rec.meta.sessionId, started_at: rec.meta.startTime });
  for (const m of rec.byId.values()) {
    if (m.prompt !== undefined) b.prompt(m.prompt);
    if (m.usage) b.usage(m.usage);
    // The record's text came before its tool calls: a call after it ends it as the last reply.
    if (m.reply) b.reply(m.reply);
    for (const [i, t] of (m.tools ?? []).entries()) {
      const id = t.id || `${m.at}#${i}`;
      const command = text(t.args.command);
      // A shell call's dir_path is where it ran, not what it was about: its command is.
      const file = text(t.args.file_path) ?? (command ? undefined : text(t.args.dir_path));
      b.tool(
        id,
        t.name,
        { ...t.args, ...(file ? { file_path: file } : {}), ...(command ? { command } : {}) },
        t.at,
      );
      if (t.failed) b.failed(id);
      if (t.failed) continue;
      if ((t.name === "write_file" || t.name === "replace") && text(t.args.file_path))
        b.edit(t.args.file_path as string);
      if (t.name === "write_todos" && Array.isArray(t.args.todos)) {
        b.todos(
          t.args.todos.flatMap((v: unknown) => {
            const x = objectOf(v);
            return typeof x?.description === "string"
              ? [{ content: x.description, status: todoStatus(x.status) }]
              : [];
          }),
        );
      }
    }
  }
  return b.done(skipped);
}

/** A pre-JSONL session file: one JSON document, read only when within the budget. */
function readLegacy(path: string, rec: Records): boolean {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return false;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > HEAD_BYTES + TAIL_BYTES) return false;
    const buf = Buffer.alloc(st.size);
    readSync(fd, buf, 0, st.size, 0);
    const doc = parseLine(buf.toString("utf8"));
    if (!doc || !Array.isArray(doc.messages)) return false;
    rec.add({ sessionId: doc.sessionId, startTime: doc.startTime });
    for (const m of doc.messages) if (m && typeof m === "object") rec.add(m);
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** The facts of a Gemini CLI chat recording. */
export function readChatRecording(
  path: string,
  budget: { head?: number; tail?: number } = {},
): TranscriptFacts {
  const rec = new Records();
  if (path.endsWith(".json")) {
    readLegacy(path, rec);
    return facts(rec, 0);
  }
  const skipped = scanLines(path, budget, (raw, _at, identity) => {
    const r = raw.trim() ? parseLine(raw) : null;
    if (!r) return;
    // The head of a long file gives the session's identity and first prompt only.
    if (identity && !(typeof r.sessionId === "string" || r.type === "user")) return;
    rec.add(r);
  });
  return facts(rec, skipped ?? 0);
}

export const GEMINI_SOURCE: TranscriptSource = {
  facts: (p) => readChatRecording(p.transcript_path ?? ""),
  usage: (p) =>
    p.transcript_path ? readChatRecording(p.transcript_path, { head: 0, tail: 2 * 1024 * 1024 }).usage : null,
  editedFiles: (tool, input) =>
    (tool === "write_file" || tool === "replace") && text(input.file_path) ? [input.file_path as string] : [],
  trail: false,
};

/** Gemini's own names of the events whose output takes context. */
const CONTEXT_EVENTS: Partial<Record<HookEvent, string>> = {
  "session-start": "SessionStart",
  "user-prompt-submit": "BeforeAgent",
  "post-tool-use": "AfterTool",
};

export const gemini: AgentKind = {
  id: "gemini",
  parse(event, raw) {
    const p: HookPayload = { ...(raw as HookPayload) };
    // AfterAgent's reply is the turn's final text, as Claude Code's Stop gives it.
    if (typeof raw.prompt_response === "string") p.last_assistant_message = raw.prompt_response;
    // A tool whose response carries an error failed.
    const response = record(raw.tool_response);
    if (event === "post-tool-use" && response?.error)
      return {
        event: "post-tool-use-failure",
        payload: stamped(
          { ...p, error: text(response.error) ?? text(record(response.error)?.message) ?? "failed" },
          "gemini",
        ),
      };
    return { event, payload: stamped(p, "gemini") };
  },
  source: GEMINI_SOURCE,
  // AfterAgent's block: Gemini CLI rejects the reply and runs a turn with the reason as its prompt.
  render: (event, reply) =>
    event === "stop" ? stopBlockJson(reply) : hookSpecificJson(CONTEXT_EVENTS[event], reply),
  // PreCompress's output reaches no model and no SessionStart follows a compression (0.61.0).
  restoreAfterCompaction: true,
};
