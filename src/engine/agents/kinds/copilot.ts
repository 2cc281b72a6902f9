// GitHub Copilot CLI. Payloads: github/docs content/copilot/reference/hooks-reference.md
// (@05da5bc) — camelCase for the camelCase events our hooks use (sessionId, timestamp in ms, cwd;
// sessionStart source/initialPrompt; userPromptSubmitted prompt; postToolUse toolName, toolArgs,
// toolResult{resultType, textResultForLlm}, for a call that succeeded; postToolUseFailure the same
// with a string `error`; agentStop and preCompact transcriptPath, trigger), snake_case when it runs
// Claude Code's PascalCase hooks (session_id, tool_input, tool_result{result_type},
// transcript_path). Output: one JSON object; sessionStart ("can inject additionalContext", from
// v1.0.11; only the last hook's is kept), userPromptSubmitted, preToolUse and postToolUse take a
// top-level `additionalContext` (CONTEXT_EVENTS); the other events print nothing.
// Transcript: the session's event log (github/copilot-sdk nodejs/src/generated/session-events.ts:
// lines {type, data, id, timestamp, parentId}; session.start {sessionId, startTime, context.cwd,
// selectedModel}, user.message {content}, assistant.message {content, toolRequests; a sub-agent's
// with the event's agentId}, tool.execution_start {toolCallId, toolName, arguments},
// tool.execution_complete {toolCallId, success}, session.compaction_start {currentTokens,
// tokenLimit}). That transcriptPath names this log is not documented: when it gives nothing the
// hooks' own trail stands in.
import { objectOf, parseLine, scanLines, type Line, type TranscriptFacts } from "../transcript.ts";
import { FactsBuilder, patchFiles, patchIn, todoStatus } from "./facts.ts";
import {
  pathOf,
  pick,
  record,
  stamped,
  stopBlockJson,
  text,
  type AgentKind,
  type HookEvent,
  type TranscriptSource,
} from "./kind.ts";
import type { HookPayload } from "../hook-payload.ts";

const EDITS = new Set(["edit", "create", "write", "str_replace", "apply_patch"]);

/** One event of the log being read: its data and time; `identity`: the head of a long file. */
interface CopilotEvent {
  b: FactsBuilder;
  d: Line;
  at: string;
  identity: boolean;
  todos: SessionTodos;
  /** A sub-agent's event (its agentId; parentToolCallId in older logs), not the session's own agent's. */
  subagent: boolean;
}

/** A SQL literal: a quoted string ('' for a quote), a number, or NULL. */
const LITERAL = /'((?:[^']|'')*)'|(-?\d+(?:\.\d+)?)|\bNULL\b/gi;
const literals = (sql: string): (string | null)[] =>
  [...sql.matchAll(LITERAL)].map((m) => (m[1] !== undefined ? m[1].replace(/''/g, "'") : (m[2] ?? null)));

/** Each statement of a query: split at semicolons outside quoted strings. */
const statements = (sql: string): string[] =>
  (sql.match(/(?:'(?:[^']|'')*'|[^';])+/g) ?? []).map((s) => s.trim()).filter(Boolean);

/** Copilot's statuses as a plan's: "done" is completed; "blocked" waits, as pending does. */
const copilotStatus = (s: unknown) => (s === "blocked" ? "pending" : todoStatus(s));

/**
 * The session's task list as Copilot CLI keeps it: rows of its session database's `todos` table
 * (id, title, description, status: pending, in_progress, done, blocked), written through its `sql`
 * tool with INSERT, UPDATE … SET status = … WHERE id = … / id IN (…), and DELETE.
 */
class SessionTodos {
  private readonly byId = new Map<string, { content: string; status: string }>();

  /** A `sql` call's query; true when it changed the list. */
  apply(query: string): boolean {
    return statements(query)
      .map((s) => this.insert(s) || this.update(s) || this.remove(s))
      .some(Boolean);
  }

  get list(): { content: string; status: string }[] {
    return [...this.byId.values()].map((t) => ({ ...t }));
  }

  private insert(sql: string): boolean {
    const m = /^INSERT\s+(?:OR\s+\w+\s+)?INTO\s+todos\s*\(([^)]*)\)\s*VALUES\s*([\s\S]*)$/i.exec(sql);
    if (!m) return false;
    const columns = m[1].split(",").map((c) => c.trim().toLowerCase());
    for (const tuple of m[2].match(/\((?:'(?:[^']|'')*'|[^'()])*\)/g) ?? []) {
      const row = Object.fromEntries(literals(tuple).map((v, i) => [columns[i], v]));
      if (row.id && row.title)
        this.byId.set(row.id, { content: row.title, status: copilotStatus(row.status) });
    }
    return true;
  }

  private update(sql: string): boolean {
    const m = /^UPDATE\s+todos\s+SET\s+([\s\S]*?)\s+WHERE\s+id\s*(?:=|IN\b)\s*([\s\S]*)$/i.exec(sql);
    if (!m) return false;
    const set = Object.fromEntries(
      [...m[1].matchAll(/(\w+)\s*=\s*'((?:[^']|'')*)'/g)].map((a) => [
        a[1].toLowerCase(),
        a[2].replace(/''/g, "'"),
      ]),
    );
    for (const id of literals(m[2])) {
      const todo = id === null ? undefined : this.byId.get(id);
      if (!todo) continue;
      if (set.status) todo.status = copilotStatus(set.status);
      if (set.title) todo.content = set.title;
    }
    return true;
  }

  private remove(sql: string): boolean {
    const m = /^DELETE\s+FROM\s+todos\s+WHERE\s+id\s*(?:=|IN\b)\s*([\s\S]*)$/i.exec(sql);
    if (!m) return false;
    for (const id of literals(m[1])) if (id !== null) this.byId.delete(id);
    return true;
  }
}

/** One line of the event log into the facts, by its event type. */
function addEvent(b: FactsBuilder, raw: string, identity: boolean, todos: SessionTodos): void {
  const e = raw.trim() ? parseLine(raw) : null;
  const d = objectOf(e?.data);
  if (!e || typeof e.type !== "string" || !d) return;
  const at = typeof e.timestamp === "string" ? e.timestamp : "";
  const read = EVENTS.get(e.type);
  // The head of a long file gives the session's identity and first prompt only.
  const subagent = !!text(e.agentId) || !!text(d.parentToolCallId);
  if (read && (!identity || IDENTITY_EVENTS.has(e.type))) read({ b, d, at, identity, todos, subagent });
}

const IDENTITY_EVENTS = new Set(["session.start", "session.resume", "user.message"]);

const EVENTS = new Map<string, (e: CopilotEvent) => void>([
  ["session.start", sessionStart],
  ["session.resume", sessionStart],
  ["user.message", ({ b, d, identity }) => typeof d.content === "string" && b.prompt(d.content, identity)],
  ["assistant.message", assistantMessage],
  ["tool.execution_start", toolStart],
  ["tool.execution_complete", toolComplete],
  ["session.compaction_complete", ({ b }) => b.compaction()],
  ["session.compaction_start", compactionStart],
]);

function sessionStart({ b, d, at }: CopilotEvent): void {
  b.identity({ session_id: d.sessionId, started_at: d.startTime ?? at, cwd: objectOf(d.context)?.cwd });
}

/** The agent's text: the last reply until a call follows it (its toolRequests start as tool.execution_start). */
function assistantMessage({ b, d, subagent }: CopilotEvent): void {
  if (!subagent && typeof d.content === "string") b.reply(d.content);
}

function toolStart({ b, d, at, todos }: CopilotEvent): void {
  if (typeof d.toolName !== "string") return;
  if (d.toolName === "apply_patch") return applyPatch(b, String(d.toolCallId ?? at), d.arguments, at);
  const args = record(d.arguments) ?? {};
  if (d.toolName === "sql" && typeof args.query === "string" && todos.apply(args.query)) b.todos(todos.list);
  const file = pathOf(args);
  b.tool(String(d.toolCallId ?? at), d.toolName, { ...args, ...(file ? { file_path: file } : {}) }, at);
  if (file && EDITS.has(d.toolName)) b.edit(file, b.facts.cwd);
}

/** An apply_patch call: its arguments are the raw patch text; each file it touches is an edit, with its lines. */
function applyPatch(b: FactsBuilder, id: string, args: unknown, at: string): void {
  const files = patchFiles(patchIn(args) ?? "");
  b.tool(id, "apply_patch", files.length ? { file_path: files[0].path } : {}, at);
  for (const f of files) b.patch(b.edit(f.path, b.facts.cwd), f.added, f.removed);
}

function toolComplete({ b, d }: CopilotEvent): void {
  if (d.success === false && d.toolCallId)
    b.failed(String(d.toolCallId), text(d.error) ?? text(record(d.error)?.message) ?? "");
}

/** A compaction's start measures the context it compacts: the fill, over the limit it names. */
function compactionStart({ b, d }: CopilotEvent): void {
  const tokens = typeof d.currentTokens === "number" ? d.currentTokens : 0;
  if (tokens <= 0) return;
  b.usage({
    input_tokens: tokens,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
    model: text(d.model) ?? null,
    context: tokens,
    ...(typeof d.tokenLimit === "number" && d.tokenLimit > 0 ? { window: d.tokenLimit } : {}),
  });
}

/** The facts of a Copilot CLI session event log. */
export function readCopilotEvents(
  path: string,
  budget: { head?: number; tail?: number } = {},
): TranscriptFacts {
  const b = new FactsBuilder();
  const todos = new SessionTodos();
  const skipped = scanLines(path, budget, (raw, _at, identity) => addEvent(b, raw, identity, todos));
  return b.done(skipped ?? 0);
}

export const COPILOT_SOURCE: TranscriptSource = {
  facts: (p) => readCopilotEvents(p.transcript_path ?? ""),
  // 1.0.102's log keeps a session.usage_record per request, but it is not on disk yet when the
  // request's postToolUse runs (assistant.usage is ephemeral): no fill is measured.
  usage: () => null,
  editedFiles: (tool, input) => {
    const patch = tool === "apply_patch" ? patchIn(input) : null;
    if (patch) return patchFiles(patch).map((f) => f.path);
    const file = pathOf(input);
    return file && EDITS.has(tool) ? [file] : [];
  },
  trail: true,
};

/** A call's arguments as the hooks read them: apply_patch's raw patch text is kept with its first file. */
function toolInput(args: unknown): Record<string, unknown> | undefined {
  const patch = patchIn(args);
  if (patch === null || typeof args !== "string") return record(args);
  const first = patchFiles(patch)[0]?.path;
  return { ...(first ? { file_path: first } : {}), input: patch };
}

/** The hooks' shape from either of Copilot's payload spellings. */
function copilotPayload(raw: Record<string, unknown>): HookPayload {
  const p: HookPayload = {};
  const set = (k: string, v: unknown) => v !== undefined && (p[k] = v);
  set("session_id", pick(raw, "sessionId", "session_id"));
  set("cwd", pick(raw, "cwd"));
  set("transcript_path", pick(raw, "transcriptPath", "transcript_path"));
  set("source", pick(raw, "source"));
  set("prompt", pick(raw, "prompt", "initialPrompt", "initial_prompt"));
  set("tool_name", pick(raw, "toolName", "tool_name"));
  set("tool_input", toolInput(raw.toolArgs ?? raw.tool_input));
  set("trigger", pick(raw, "trigger"));
  set("reason", pick(raw, "reason", "stopReason", "stop_reason"));
  set("model", pick(raw, "model"));
  // agentStop's: the stop a hook's block continued (a checkpoint request is not made twice).
  if (typeof raw.stop_hook_active === "boolean") p.stop_hook_active = raw.stop_hook_active;
  return p;
}

/**
 * The events whose top-level `additionalContext` reaches the model (changelog.json of 1.0.102):
 * sessionStart (1.0.11), postToolUse, preToolUse (1.0.24), userPromptSubmitted (1.0.65).
 */
const CONTEXT_EVENTS: ReadonlySet<HookEvent> = new Set([
  "session-start",
  "user-prompt-submit",
  "pre-tool-use",
  "post-tool-use",
]);

export const copilot: AgentKind = {
  id: "copilot",
  parse(event, raw) {
    const p = copilotPayload(raw);
    const result = record(raw.toolResult ?? raw.tool_result);
    const kind = text(result?.resultType) ?? text(result?.result_type);
    if (event === "post-tool-use-failure" || (event === "post-tool-use" && kind && kind !== "success")) {
      const error =
        text(raw.error) ??
        text(record(raw.error)?.message) ??
        text(result?.textResultForLlm) ??
        text(result?.text_result_for_llm) ??
        kind ??
        "failed";
      return { event: "post-tool-use-failure", payload: stamped({ ...p, error }, "copilot") };
    }
    return { event, payload: stamped(p, "copilot") };
  },
  source: COPILOT_SOURCE,
  // agentStop's block forces another turn with the reason.
  render: (event: HookEvent, reply) =>
    event === "stop"
      ? stopBlockJson(reply)
      : reply.context && CONTEXT_EVENTS.has(event)
        ? JSON.stringify({ additionalContext: reply.context }) + "\n"
        : "",
};
