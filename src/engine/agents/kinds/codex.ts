// OpenAI Codex CLI. Payloads: codex-rs/hooks/schema/generated/*.command.input.schema.json (the
// same keys as Claude Code's: session_id, transcript_path, cwd, model, source, prompt, tool_name,
// tool_input, tool_response, trigger, last_assistant_message). Outputs: SessionStart prints the
// restore block as plain text, which Codex gives the model as context (codex-rs/hooks/src/events/
// session_start.rs): codex-cli 0.154.0 failed every output holding `additionalContext`
// (openai/codex#45999). PreToolUse takes `hookSpecificOutput.additionalContext` without a
// permissionDecision, for the model (events/pre_tool_use.rs). PostToolUse takes
// `hookSpecificOutput.additionalContext` (+ `systemMessage`; plain text is dropped there);
// PreCompact and SessionEnd (since July 2026, openai/codex#33895; its stdout is ignored) print
// nothing. Stop fails on any output but its own JSON: `{decision: "block", reason}`
// (stop.command.output.schema.json) only for a checkpoint request.
// Transcript: the rollout JSONL (codex-rs/protocol RolloutItem: `{timestamp, type, payload}` with
// session_meta, turn_context, response_item, event_msg, compacted; persisted events per
// codex-rs/rollout/src/policy.rs), read within transcript.ts's budget.
import {
  TAIL_BYTES,
  objectOf,
  scanLines,
  parseLine,
  type Line,
  type TranscriptFacts,
  type Usage,
} from "../transcript.ts";
import { FactsBuilder, contentText, patchFiles, patchIn, todoStatus } from "./facts.ts";
import {
  hookSpecificJson,
  record,
  stopBlockJson,
  stamped,
  text,
  type AgentKind,
  type Reply,
  type TranscriptSource,
} from "./kind.ts";
import type { HookPayload } from "../hook-payload.ts";

/** A shell call's command as one line: `shell` gives argv, `shell_command` a string, `exec_command` `cmd`. */
function commandOf(args: Record<string, unknown>): string | undefined {
  const c = args.command ?? args.cmd;
  if (Array.isArray(c)) {
    const argv = c.map(String);
    // `bash -lc "…"`: the script is what was run.
    return argv.length === 3 && /^(ba|z)?sh$/.test(argv[0].split("/").pop() ?? "") && argv[1].startsWith("-")
      ? argv[2]
      : argv.join(" ");
  }
  return text(c);
}

const n = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : 0);

/**
 * A request's fill: its total tokens (input, cached included, plus output: what the next request
 * starts from) over the window, when one is known (0: not known).
 */
function requestFill(last: Line, model: string | null, window: number): Usage | null {
  const context = n(last.total_tokens) || n(last.input_tokens) + n(last.output_tokens);
  if (context <= 0) return null;
  return {
    input_tokens: Math.max(0, n(last.input_tokens) - n(last.cached_input_tokens)),
    cache_read_input_tokens: n(last.cached_input_tokens),
    cache_creation_input_tokens: 0,
    model,
    context,
    ...(window > 0 ? { window } : {}),
  };
}

/** A token_count event's fill: the last request's, over the window the event names. */
function tokenCount(p: Line, model: string | null): Usage | null {
  const info = objectOf(p.info);
  if (p.type !== "token_count" || !info) return null;
  return requestFill(objectOf(info.last_token_usage) ?? {}, model, n(info.model_context_window));
}

/** The fill a rollout line records: a token_count event's, or a token_usage_record's over the window known so far. */
function lineFill(line: Line | null, model: string | null, window: number): Usage | null {
  const payload = objectOf(line?.payload);
  if (line?.type === "event_msg" && payload) return tokenCount(payload, model);
  if (line?.type === "token_usage_record" && payload)
    return requestFill(objectOf(payload.usage) ?? {}, model, window);
  return null;
}

/**
 * The newest measured fill, from the end of the rollout only (post-tool-use runs after every call):
 * a small tail first, widened only when it holds no token_count. A fill from before the newest
 * compaction measures a context that no longer exists. Codex 0.169 writes a token_usage_record
 * line as a response completes and its token_count event only later (after the turn's tool calls
 * and their hooks): post-tool-use finds the record, over the window task_started named.
 */
export function lastRolloutUsage(path: string): Usage | null {
  if (path.endsWith(".zst")) return null;
  for (const tail of [256 * 1024, 2 * 1024 * 1024, TAIL_BYTES]) {
    let found: Usage | null = null;
    let compacted = false;
    let model: string | null = null;
    let window = 0;
    const skipped = scanLines(path, { head: 0, tail }, (raw, _at, identity) => {
      if (identity || !/"(token_count|token_usage_record|task_started|compacted|turn_context)"/.test(raw))
        return;
      const line = parseLine(raw);
      const payload = objectOf(line?.payload);
      if (line?.type === "turn_context" && typeof payload?.model === "string") model = payload.model;
      if (line?.type === "compacted") [found, compacted] = [null, true];
      if (n(payload?.model_context_window) > 0) window = n(payload?.model_context_window);
      const u = lineFill(line, model, window);
      if (u) [found, compacted] = [u, false];
    });
    if (found || compacted || !skipped) return found;
  }
  return null;
}

/** What reading a rollout remembers from line to line. */
interface RolloutState {
  model: string | null;
  sawUserEvent: boolean;
  /**
   * The prompt a user message item just gave: builds that write user_message events write one
   * right after the item, for the same prompt (codex-rs core, record_input_and_rollout_usermsg).
   */
  itemPrompt: string | null;
}

/** One rollout line being read: its payload, time and byte offset; `identity`: the head of a long file. */
interface RolloutItem {
  b: FactsBuilder;
  p: Line;
  at: string;
  offset: number;
  identity: boolean;
  state: RolloutState;
}

/** One rollout line into the facts, by its type. `identity`: the head of a long file, who and when only. */
function addLine(b: FactsBuilder, raw: string, offset: number, identity: boolean, state: RolloutState): void {
  if (!raw.trim()) return;
  const line = parseLine(raw);
  const p = objectOf(line?.payload);
  if (!line || !p || typeof line.type !== "string") return;
  const at = typeof line.timestamp === "string" ? line.timestamp : "";
  ROLLOUT_LINES.get(line.type)?.({ b, p, at, offset, identity, state });
}

const ROLLOUT_LINES = new Map<string, (r: RolloutItem) => void>([
  ["session_meta", sessionMeta],
  ["turn_context", turnContext],
  ["event_msg", eventMsg],
  ["response_item", responseItem],
  ["compacted", (r) => !r.identity && r.b.compaction()],
]);

function sessionMeta({ b, p, at }: RolloutItem): void {
  b.identity({ session_id: p.id ?? objectOf(p.meta)?.id, started_at: p.timestamp ?? at, cwd: p.cwd });
}

function turnContext({ b, p, state }: RolloutItem): void {
  b.identity({ cwd: p.cwd });
  if (typeof p.model === "string") state.model = p.model;
}

/** An event: the person's message, a token count, a patch applied. */
function eventMsg({ b, p, identity, state }: RolloutItem): void {
  if (p.type === "user_message" && typeof p.message === "string") {
    state.sawUserEvent = true;
    if (!samePrompt(state.itemPrompt, p.message)) b.prompt(p.message, identity);
    state.itemPrompt = null;
  }
  if (identity) return;
  const usage = tokenCount(p, state.model);
  if (usage) b.usage(usage);
  const changes = objectOf(p.changes);
  if (p.type === "patch_apply_end" && p.success !== false && changes)
    for (const path of Object.keys(changes)) b.edit(path, b.facts.cwd);
}

/** A response item: a message, a tool call (by its kind) or a call's output. */
function responseItem(r: RolloutItem): void {
  if (r.p.type === "message") message(r);
  else if (!r.identity) RESPONSE_ITEMS.get(String(r.p.type))?.(r);
}

/**
 * What Codex itself puts in a user message item: its <environment_context> and other tagged context,
 * and the AGENTS.md files it sends ahead of the first prompt ("# AGENTS.md instructions for …").
 */
const NOT_A_PROMPT = /^(?:<|# AGENTS\.md instructions\b)/;

/** The event's words are the item's (its parts may be joined otherwise): one prompt, not two. */
const samePrompt = (item: string | null, event: string) =>
  item !== null && item.replace(/\s+/g, "") === event.replace(/\s+/g, "");

/**
 * The agent's reply; the person's own message items (not the injected context) until the rollout
 * shows it has user_message events, which then give the prompts.
 */
function message({ b, p, identity, state }: RolloutItem): void {
  if (p.role === "user" && !state.sawUserEvent) {
    const t = contentText(p.content).trim();
    if (t && !NOT_A_PROMPT.test(t)) {
      b.prompt(t, identity);
      // The head of a long file keeps only the first prompt: its event in the tail is still one to keep.
      state.itemPrompt = identity ? null : t;
    }
  }
  if (p.role === "assistant" && !identity) b.reply(contentText(p.content));
}

const callId = ({ p, offset }: RolloutItem) =>
  typeof p.call_id === "string" && p.call_id ? p.call_id : `@${offset}`;

const RESPONSE_ITEMS = new Map<string, (r: RolloutItem) => void>([
  ["function_call", functionCall],
  ["custom_tool_call", customToolCall],
  ["local_shell_call", localShellCall],
  ["function_call_output", callOutput],
  ["custom_tool_call_output", callOutput],
]);

/** A function call: a shell command, an apply_patch, update_plan's steps. */
function functionCall(r: RolloutItem): void {
  const { b, p } = r;
  if (typeof p.name !== "string") return;
  const args = record(p.arguments) ?? {};
  if (p.name === "update_plan") planUpdate(b, args);
  const patch = p.name === "apply_patch" ? (patchIn(args) ?? patchIn(p.arguments)) : null;
  const command = commandOf(args);
  const file = patch ? patchFiles(patch)[0]?.path : undefined;
  const input = {
    ...(command ? { command } : {}),
    ...(file ? { file_path: file } : {}),
    ...(text(args.explanation) ? { description: args.explanation } : {}),
  };
  // An MCP tool's call names its server as a namespace ("mcp__mindsave", "save"): named whole, as
  // Claude Code names it, so MindSave's own `save` is known for what it is.
  const name = typeof p.namespace === "string" && p.namespace ? `${p.namespace}__${p.name}` : p.name;
  b.tool(callId(r), name, input, r.at);
  if (patch) addPatch(b, patch, b.facts.cwd);
  // `bash -lc "apply_patch <<'EOF' …"`: older builds edited through the shell.
  else if (command && /\bapply_patch\b/.test(command)) addPatch(b, patchIn(command) ?? "", b.facts.cwd);
}

/** update_plan's steps as the session's task list. */
function planUpdate(b: FactsBuilder, args: Record<string, unknown>): void {
  if (!Array.isArray(args.plan)) return;
  b.todos(
    args.plan.flatMap((v: unknown) => {
      const s = objectOf(v);
      return typeof s?.step === "string" ? [{ content: s.step, status: todoStatus(s.status) }] : [];
    }),
  );
}

/** A freeform tool call (apply_patch's raw patch in newer builds). */
function customToolCall(r: RolloutItem): void {
  const { b, p } = r;
  if (typeof p.name !== "string") return;
  const patch = p.name === "apply_patch" ? patchIn(p.input) : null;
  const input = patch
    ? { file_path: patchFiles(patch)[0]?.path ?? "" }
    : { description: text(p.input)?.slice(0, 200) ?? "" };
  // An MCP tool's call names its server as a namespace ("mcp__mindsave", "save"): named whole, as
  // Claude Code names it, so MindSave's own `save` is known for what it is.
  const name = typeof p.namespace === "string" && p.namespace ? `${p.namespace}__${p.name}` : p.name;
  b.tool(callId(r), name, input, r.at);
  if (patch) addPatch(b, patch, b.facts.cwd);
}

function localShellCall(r: RolloutItem): void {
  const action = objectOf(r.p.action);
  if (action) r.b.tool(callId(r), "shell", { command: commandOf(action) ?? "" }, r.at);
}

/** A failed call's output is `{content, success: false}` (a success is a plain string). */
function callOutput({ b, p }: RolloutItem): void {
  const output = objectOf(p.output);
  if (typeof p.call_id === "string" && output?.success === false)
    b.failed(p.call_id, typeof output.content === "string" ? output.content : "");
}

function addPatch(b: FactsBuilder, patch: string, cwd: string | null): void {
  for (const f of patchFiles(patch)) {
    const path = b.edit(f.path, cwd);
    b.patch(path, f.added, f.removed);
  }
}

/** The facts of a Codex rollout file (a compressed `.jsonl.zst` one gives none). */
export function readRollout(path: string, budget: { head?: number; tail?: number } = {}): TranscriptFacts {
  const b = new FactsBuilder();
  const state: RolloutState = { model: null, sawUserEvent: false, itemPrompt: null };
  const skipped = path.endsWith(".zst")
    ? null
    : scanLines(path, budget, (raw, at, identity) => addLine(b, raw, at, identity, state));
  return b.done(skipped ?? 0);
}

const EDITS = new Set(["apply_patch", "Edit", "Write"]);

export const CODEX_SOURCE: TranscriptSource = {
  facts: (p) => readRollout(p.transcript_path ?? ""),
  usage: (p) => (p.transcript_path ? lastRolloutUsage(p.transcript_path) : null),
  editedFiles(tool, input) {
    if (!EDITS.has(tool)) return [];
    const patch = patchIn(input);
    if (patch) return patchFiles(patch).map((f) => f.path);
    const file = text(input.file_path);
    return file ? [file] : [];
  },
  trail: false,
};

/** SessionStart's plain text: the context, then the line for the person (plain text has no place of its own for it). */
function plainStart(reply: Reply): string {
  if (!reply.context) return "";
  return [reply.context.replace(/\n+$/, ""), ...(reply.message ? [reply.message] : [])].join("\n\n") + "\n";
}

export const codex: AgentKind = {
  id: "codex",
  parse(event, raw) {
    const p: HookPayload = { ...(raw as HookPayload) };
    // A Stop's last message may be null (the schema's NullableString).
    if (p.last_assistant_message === null) delete p.last_assistant_message;
    if (p.transcript_path === null) delete p.transcript_path;
    return { event, payload: stamped(p, "codex") };
  },
  source: CODEX_SOURCE,
  // update_plan fires no PostToolUse: its handler (codex-rs/core/src/tools/handlers/plan.rs) gives no hook payload.
  planToolUnhooked: "update_plan",
  render: (event, reply) =>
    event === "session-start"
      ? plainStart(reply)
      : event === "post-tool-use"
        ? hookSpecificJson("PostToolUse", reply)
        : event === "user-prompt-submit" || event === "pre-tool-use"
          ? hookSpecificJson(event === "pre-tool-use" ? "PreToolUse" : "UserPromptSubmit", reply)
          : event === "stop"
            ? stopBlockJson(reply)
            : "",
};
