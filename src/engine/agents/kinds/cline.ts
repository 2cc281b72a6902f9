// Cline (cline/cline@21cb8d2 apps/vscode/proto/cline/hooks.proto, serialised by ts-proto's toJSON
// in src/core/hooks/hook-factory.ts): clineVersion, hookName, timestamp, taskId, workspaceRoots[],
// userId, model {provider, slug}, and one key per hook — taskStart.taskMetadata {taskId, ulid,
// initialTask}, taskResume {taskMetadata, previousState}, userPromptSubmit {prompt},
// postToolUse {toolName, parameters (strings), result, success, executionTimeMs}, preCompact
// {contextSize, compactionStrategy, tokensIn, tokensOut, …}, taskComplete and taskCancel
// {taskMetadata}. Output: the last JSON object `{cancel?, contextModification?, errorMessage?}`
// (validateHookOutput); we send only `contextModification`, for the task's next request, on
// TaskStart/TaskResume, UserPromptSubmit, PreToolUse and PostToolUse (the CLI's PreToolUse,
// `tool_call` {name, input}, has it join the conversation after the tool's result: @cline/shared
// AgentBeforeToolResult.appendContext). The hooks get no transcript path: snapshots are built from
// the hooks' own trail of the task. The fill is read from the CLI's session file of messages: each
// reply's `metrics.inputTokens` (the whole prompt, cache reads and writes included: @cline/llms
// prices `inputTokens - cacheReadTokens - cacheWriteTokens` as uncached), on disk before the
// reply's tool_result hooks run (seen with 3.0.65).
import {
  firstRoot,
  pick,
  record,
  stamped,
  text,
  trailSource,
  type AgentKind,
  type TranscriptSource,
} from "./kind.ts";
import type { HookPayload } from "../hook-payload.ts";
import { join } from "node:path";
import { readTextNoFollowCapped } from "../../../lib/bounded-read.ts";
import { homedir } from "../../../lib/os.ts";

// The CLI's file tool is `editor` (it creates a file, or replaces or inserts text in one).
const EDITS = new Set(["write_to_file", "replace_in_file", "apply_patch", "new_rule", "editor"]);

/**
 * Cline's CLI (3.x, the Cline SDK) names its events agent_start, tool_result, agent_end, … and
 * runs agent_start without waiting for it: what TaskStart prints never reaches the model, and its
 * payload carries no task text. It says which session the task runs in (sessionContext
 * .rootSessionId), whose file holds the prompt.
 */
const CLI_TOOL_RESULT = "tool_result";

/** The CLI's sessions folder, found as the CLI finds it: CLINE_SESSION_DATA_DIR, CLINE_DATA_DIR, CLINE_DIR, ~/.cline. */
function sessionsDir(env: NodeJS.ProcessEnv): string {
  const data =
    env.CLINE_DATA_DIR?.trim() ||
    join(env.CLINE_DIR?.trim() || join(env.HOME || homedir(), ".cline"), "data");
  return env.CLINE_SESSION_DATA_DIR?.trim() || join(data, "sessions");
}

/** One of the CLI's files of the task's session (`<id>/<id><suffix>`) as JSON, or undefined. */
function sessionFile(
  raw: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  suffix: string,
  max: number,
): Record<string, unknown> | undefined {
  const id = text(record(raw.sessionContext)?.rootSessionId);
  if (!id || !/^[\w.-]+$/.test(id)) return undefined;
  try {
    return record(JSON.parse(readTextNoFollowCapped(join(sessionsDir(env), id, `${id}${suffix}`), max)));
  } catch {
    // No such file (the VS Code extension keeps none there), or not one we can read.
    return undefined;
  }
}

/** The task's prompt from its session's file (`<id>.json`, `prompt`), or undefined. */
const sessionPrompt = (raw: Record<string, unknown>, env: NodeJS.ProcessEnv): string | undefined =>
  text(sessionFile(raw, env, ".json", 1024 * 1024)?.prompt);

/** The newest reply's prompt tokens, from the session's messages (`<id>.messages.json`), as a `usage`. */
function sessionFill(
  raw: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): Record<string, unknown> | undefined {
  const messages = sessionFile(raw, env, ".messages.json", 8 * 1024 * 1024)?.messages;
  if (!Array.isArray(messages)) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = record(messages[i]);
    const tokens = record(m?.metrics)?.inputTokens;
    if (m?.role !== "assistant" || typeof tokens !== "number" || tokens <= 0) continue;
    return { input_tokens: tokens, model: text(record(m.modelInfo)?.id) };
  }
  return undefined;
}

/**
 * A tool's arguments: the CLI's own (tool_result.input) over postToolUse's string copies; the
 * commands of run_commands also as one `command`, the target the hooks read.
 */
function toolInput(raw: Record<string, unknown>, parameters: unknown): Record<string, unknown> | undefined {
  const call = record(raw.tool_result) ?? record(raw.tool_call);
  const input = record(call?.input) ?? record(parameters);
  const commands = input?.commands;
  if (!Array.isArray(commands)) return input;
  return { ...input, command: commands.filter((c) => typeof c === "string").join("\n") };
}

export const CLINE_SOURCE: TranscriptSource = trailSource(EDITS);

export const cline: AgentKind = {
  id: "cline",
  parse(event, raw, env) {
    const hook = text(raw.hookName) ?? "";
    const data = (key: string) => record(raw[key]) ?? {};
    const meta = {
      ...data("taskStart"),
      ...data("taskResume"),
      ...data("taskComplete"),
      ...data("taskCancel"),
    };
    const task = record(meta.taskMetadata) ?? {};
    const p: HookPayload = {};
    const set = (k: string, v: unknown) => v !== undefined && (p[k] = v);
    set("session_id", pick(raw, "taskId") ?? text(task.taskId));
    set("cwd", firstRoot(raw.workspaceRoots) ?? pick(raw, "workspacePath", "cwd"));
    set("model", text(record(raw.model)?.slug));
    const resumed = hook === "TaskResume" || hook === "agent_resume";
    set("source", resumed ? "resume" : event === "session-start" ? "startup" : undefined);
    set(
      "prompt",
      text(data("userPromptSubmit").prompt) ??
        text(task.initialTask) ??
        text(data("taskStart").task) ??
        (event === "session-start" ? sessionPrompt(raw, env) : undefined),
    );
    // The extension's postToolUse or preToolUse; the CLI's tool_result or tool_call (its name and input).
    const tool = { ...data("preToolUse"), ...data("postToolUse") };
    set("tool_name", text(tool.toolName) ?? text(record(raw.tool_call)?.name));
    set("tool_input", toolInput(raw, tool.parameters));
    if (event === "pre-compact") set("trigger", "auto");
    // Only post-tool-use measures the fill: the file is read there alone.
    if (event === "post-tool-use") set("usage", sessionFill(raw, env));
    if (event === "post-tool-use" && tool.success === false) {
      return {
        event: "post-tool-use-failure",
        payload: stamped({ ...p, error: text(tool.result) ?? "failed" }, "cline"),
      };
    }
    // The CLI dropped what TaskStart printed: the first tool result brings the restore block.
    return { event, payload: stamped(p, "cline"), restoreOnce: hook === CLI_TOOL_RESULT };
  },
  source: CLINE_SOURCE,
  stopEndsSession: true,
  render: (event, reply) =>
    reply.context &&
    (event === "session-start" ||
      event === "user-prompt-submit" ||
      event === "pre-tool-use" ||
      event === "post-tool-use")
      ? JSON.stringify({ contextModification: reply.context }) + "\n"
      : "",
};
