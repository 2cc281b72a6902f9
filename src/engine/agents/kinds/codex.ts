// OpenAI Codex CLI. Payloads: codex-rs/hooks/schema/generated/*.command.input.schema.json (the
// same keys as Claude Code's: session_id, transcript_path, cwd, model, source, prompt, tool_name,
// tool_input, tool_response, trigger, last_assistant_message). Outputs: SessionStart prints the
// restore block as plain text, which Codex gives the model as context (codex-rs/hooks/src/events/
// session_start.rs): codex-cli 0.154.0 failed every output holding `additionalContext`
// (openai/codex#45999). PostToolUse takes `hookSpecificOutput.additionalContext` (+ `systemMessage`;
// plain text is dropped there); UserPromptSubmit, PreCompact, Stop and SessionEnd (since July 2026,
// openai/codex#33895; its stdout is ignored) print nothing: Stop fails on any output but its own JSON.
// Transcript: the rollout JSONL (codex-rs/protocol RolloutItem: `{timestamp, type, payload}` with
// session_meta, turn_context, response_item, event_msg, compacted; persisted events per
// codex-rs/rollout/src/policy.rs), read within transcript.ts's budget.
import { TAIL_BYTES, scanLines, parseLine, type TranscriptFacts, type Usage } from "../transcript.ts";
import { FactsBuilder, contentText, patchFiles, todoStatus } from "./facts.ts";
import {
  hookSpecificJson,
  record,
  stamped,
  text,
  type AgentKind,
  type Reply,
  type TranscriptSource,
} from "./kind.ts";
import type { HookPayload } from "../hook-payload.ts";

/** A patch text anywhere in a tool input (`{input}`, `{command}`, or the input itself). */
function patchIn(v: unknown): string | null {
  if (typeof v === "string") return v.includes("*** Begin Patch") ? v : null;
  const o = record(v);
  if (!o) return null;
  for (const x of Object.values(o)) {
    const p =
      typeof x === "string" ? patchIn(x) : Array.isArray(x) ? (x.map(patchIn).find(Boolean) ?? null) : null;
    if (p) return p;
  }
  return null;
}

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

/**
 * A token_count event's fill: the last request's total tokens (input, cached included, plus
 * output: what the next request starts from) over the window the event names.
 */
function tokenCount(p: Record<string, any>, model: string | null): Usage | null {
  if (p.type !== "token_count" || !p.info || typeof p.info !== "object") return null;
  const last = p.info.last_token_usage ?? {};
  const n = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : 0);
  const context = n(last.total_tokens) || n(last.input_tokens) + n(last.output_tokens);
  if (context <= 0) return null;
  return {
    input_tokens: Math.max(0, n(last.input_tokens) - n(last.cached_input_tokens)),
    cache_read_input_tokens: n(last.cached_input_tokens),
    cache_creation_input_tokens: 0,
    model,
    context,
    ...(n(p.info.model_context_window) > 0 ? { window: n(p.info.model_context_window) } : {}),
  };
}

/**
 * The newest measured fill, from the end of the rollout only (post-tool-use runs after every call):
 * a small tail first, widened only when it holds no token_count. A fill from before the newest
 * compaction measures a context that no longer exists.
 */
export function lastRolloutUsage(path: string): Usage | null {
  if (path.endsWith(".zst")) return null;
  for (const tail of [256 * 1024, 2 * 1024 * 1024, TAIL_BYTES]) {
    let found: Usage | null = null;
    let compacted = false;
    let model: string | null = null;
    const skipped = scanLines(path, { head: 0, tail }, (raw, _at, identity) => {
      if (identity || !/"(token_count|compacted|turn_context)"/.test(raw)) return;
      const line = parseLine(raw);
      if (line?.type === "turn_context" && typeof line.payload?.model === "string")
        model = line.payload.model;
      if (line?.type === "compacted") [found, compacted] = [null, true];
      const u = line?.type === "event_msg" && line.payload ? tokenCount(line.payload, model) : null;
      if (u) [found, compacted] = [u, false];
    });
    if (found || compacted || !skipped) return found;
  }
  return null;
}

/** One rollout line into the facts. `identity`: the head of a long file, who and when only. */
function addLine(
  b: FactsBuilder,
  raw: string,
  offset: number,
  identity: boolean,
  state: { model: string | null; sawUserEvent: boolean },
): void {
  if (!raw.trim()) return;
  const line = parseLine(raw);
  const p = line?.payload;
  if (!line || !p || typeof p !== "object") return;
  const at = typeof line.timestamp === "string" ? line.timestamp : "";
  if (line.type === "session_meta")
    b.identity({ session_id: p.id ?? p.meta?.id, started_at: p.timestamp ?? at, cwd: p.cwd });
  if (line.type === "turn_context") {
    b.identity({ cwd: p.cwd });
    if (typeof p.model === "string") state.model = p.model;
  }
  const cwd = b.facts.cwd;
  if (line.type === "event_msg" && p.type === "user_message" && typeof p.message === "string") {
    state.sawUserEvent = true;
    b.prompt(p.message, identity);
  }
  // Builds without user_message events: the user's own message items (not the injected context).
  if (line.type === "response_item" && p.type === "message" && p.role === "user" && !state.sawUserEvent) {
    const t = contentText(p.content).trim();
    if (t && !t.startsWith("<")) b.prompt(t, identity);
  }
  if (identity) return;
  if (line.type === "compacted") b.compaction();
  const usage = line.type === "event_msg" ? tokenCount(p, state.model) : null;
  if (usage) b.usage(usage);
  if (
    line.type === "event_msg" &&
    p.type === "patch_apply_end" &&
    p.success !== false &&
    p.changes &&
    typeof p.changes === "object"
  ) {
    for (const path of Object.keys(p.changes)) b.edit(path, cwd);
  }
  if (line.type !== "response_item") return;
  if (p.type === "message" && p.role === "assistant") b.reply(contentText(p.content));
  const id = typeof p.call_id === "string" && p.call_id ? p.call_id : `@${offset}`;
  if (p.type === "function_call" && typeof p.name === "string") {
    const args = record(p.arguments) ?? {};
    if (p.name === "update_plan" && Array.isArray(args.plan)) {
      b.todos(
        args.plan
          .filter((s: any) => typeof s?.step === "string")
          .map((s: any) => ({ content: s.step, status: todoStatus(s.status) })),
      );
    }
    const patch = p.name === "apply_patch" ? (patchIn(args) ?? patchIn(p.arguments)) : null;
    const command = commandOf(args);
    const file = patch ? patchFiles(patch)[0]?.path : undefined;
    b.tool(
      id,
      p.name,
      {
        ...(command ? { command } : {}),
        ...(file ? { file_path: file } : {}),
        ...(text(args.explanation) ? { description: args.explanation } : {}),
      },
      at,
    );
    if (patch) addPatch(b, patch, cwd);
    // `bash -lc "apply_patch <<'EOF' …"`: older builds edited through the shell.
    else if (command && /\bapply_patch\b/.test(command)) addPatch(b, patchIn(command) ?? "", cwd);
  } else if (p.type === "custom_tool_call" && typeof p.name === "string") {
    const patch = p.name === "apply_patch" ? patchIn(p.input) : null;
    b.tool(
      id,
      p.name,
      patch
        ? { file_path: patchFiles(patch)[0]?.path ?? "" }
        : { description: text(p.input)?.slice(0, 200) ?? "" },
      at,
    );
    if (patch) addPatch(b, patch, cwd);
  } else if (p.type === "local_shell_call" && p.action) {
    b.tool(id, "shell", { command: commandOf(p.action) ?? "" }, at);
  } else if (
    (p.type === "function_call_output" || p.type === "custom_tool_call_output") &&
    typeof p.call_id === "string"
  ) {
    // A failed call's output is `{content, success: false}` (a success is a plain string).
    if (p.output && typeof p.output === "object" && p.output.success === false) b.failed(p.call_id);
  }
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
  const state = { model: null as string | null, sawUserEvent: false };
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
  render: (event, reply) =>
    event === "session-start"
      ? plainStart(reply)
      : event === "post-tool-use"
        ? hookSpecificJson("PostToolUse", reply)
        : "",
};
