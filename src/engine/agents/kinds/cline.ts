// Cline (cline/cline@21cb8d2 apps/vscode/proto/cline/hooks.proto, serialised by ts-proto's toJSON
// in src/core/hooks/hook-factory.ts): clineVersion, hookName, timestamp, taskId, workspaceRoots[],
// userId, model {provider, slug}, and one key per hook — taskStart.taskMetadata {taskId, ulid,
// initialTask}, taskResume {taskMetadata, previousState}, userPromptSubmit {prompt},
// postToolUse {toolName, parameters (strings), result, success, executionTimeMs}, preCompact
// {contextSize, compactionStrategy, tokensIn, tokensOut, …}, taskComplete and taskCancel
// {taskMetadata}. Output: the last JSON object `{cancel?, contextModification?, errorMessage?}`
// (validateHookOutput); we send only `contextModification`, for the task's next request, on
// TaskStart/TaskResume and PostToolUse. The hooks get no transcript path: snapshots are built from
// the hooks' own trail of the task.
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

const EDITS = new Set(["write_to_file", "replace_in_file", "apply_patch", "new_rule"]);

export const CLINE_SOURCE: TranscriptSource = trailSource(EDITS);

export const cline: AgentKind = {
  id: "cline",
  parse(event, raw) {
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
    set("source", hook === "TaskResume" ? "resume" : event === "session-start" ? "startup" : undefined);
    set(
      "prompt",
      text(data("userPromptSubmit").prompt) ?? text(task.initialTask) ?? text(data("taskStart").task),
    );
    const tool = data("postToolUse");
    set("tool_name", text(tool.toolName));
    set("tool_input", record(tool.parameters));
    if (event === "pre-compact") set("trigger", "auto");
    if (event === "post-tool-use" && tool.success === false) {
      return {
        event: "post-tool-use-failure",
        payload: stamped({ ...p, error: text(tool.result) ?? "failed" }, "cline"),
      };
    }
    return { event, payload: stamped(p, "cline") };
  },
  source: CLINE_SOURCE,
  stopEndsSession: true,
  render: (event, reply) =>
    reply.context && (event === "session-start" || event === "post-tool-use")
      ? JSON.stringify({ contextModification: reply.context }) + "\n"
      : "",
};
