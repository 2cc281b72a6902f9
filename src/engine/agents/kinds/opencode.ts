// opencode has no command hooks: MindSave's plugin (written by `hooks install --agent opencode`)
// runs `mindsave hook EVENT --agent opencode` with the JSON of OpencodePayload (agent-hooks.ts) on
// stdin and uses what it prints as plain text: session-start → the session's system prompt,
// user-prompt-submit → the system prompt of the requests answering that message,
// pre-compact → the compaction's context (so the summary keeps the task state), post-tool-use →
// appended to the tool's output; stop prints nothing. Tool arguments are opencode's own
// (anomalyco/opencode packages/opencode/src/tool: edit and write take `filePath`, bash `command`,
// todowrite `todos` [{content, status}]). No transcript reaches the hook: the trail stands in, and
// the fill is the one the plugin passes with post-tool-use (its newest finished step's tokens).
import { pathOf, pick, record, stamped, trailSource, type AgentKind, type TranscriptSource } from "./kind.ts";
import type { HookPayload } from "../hook-payload.ts";

const EDITS = new Set(["edit", "write", "patch", "multiedit"]);

// The fill is the one the plugin passed (OpencodePayload.usage), as trailSource reads it.
export const OPENCODE_SOURCE: TranscriptSource = trailSource(EDITS);

/**
 * `opencode run` joins its words into the message, each word that holds a space wrapped in double
 * quotes with its own quotes escaped (packages/opencode/src/cli/cmd/run.ts, 1.18.33): `opencode run
 * "continue where we left off"` sends `"continue where we left off"`. Such a prompt is the person's
 * words unwrapped; quotes of their own (a quoted word alone, quotes mid-prompt) stay.
 */
function runPrompt(prompt: string | undefined): string | undefined {
  if (!prompt || prompt.length < 3 || !prompt.startsWith('"') || !prompt.endsWith('"')) return prompt;
  const inner = prompt.slice(1, -1);
  if (!inner.includes(" ") || /(?:^|[^\\])"/.test(inner)) return prompt;
  return inner.replace(/\\"/g, '"');
}

export const opencode: AgentKind = {
  id: "opencode",
  parse(event, raw) {
    const p: HookPayload = {};
    const set = (k: string, v: unknown) => v !== undefined && (p[k] = v);
    set("session_id", pick(raw, "session_id", "sessionID"));
    set("cwd", pick(raw, "cwd", "directory", "worktree"));
    set("source", pick(raw, "source"));
    set("prompt", runPrompt(pick(raw, "prompt")));
    set("model", pick(raw, "model"));
    set("tool_name", pick(raw, "tool_name", "tool"));
    const input = record(raw.tool_input ?? raw.args);
    // opencode names a file `filePath`: the hooks read `file_path`.
    const file = input ? pathOf(input) : undefined;
    set("tool_input", input ? { ...input, ...(file ? { file_path: file } : {}) } : undefined);
    set("usage", record(raw.usage));
    return { event, payload: stamped(p, "opencode") };
  },
  source: OPENCODE_SOURCE,
  render: (event, reply) =>
    reply.context &&
    (event === "session-start" ||
      event === "user-prompt-submit" ||
      event === "pre-compact" ||
      event === "post-tool-use")
      ? reply.context.replace(/\n*$/, "\n")
      : "",
  compactionContext: true,
  stopEndsSession: true,
};
