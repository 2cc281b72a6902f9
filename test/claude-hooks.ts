// Claude Code's hooks of one session, as it sends them (the shapes of its hooks reference): what
// tests that run a whole Claude Code session through `mindsave hook` use.
import { join } from "node:path";

/** The hooks of a Claude Code session in `cwd`: start, a prompt, an edit of `file`, a compaction, a stop, the end. */
export function claudeSessionHooks(
  cwd: string,
  o: { prompt: string; file: string; sessionId?: string },
): [string, Record<string, unknown>][] {
  const base = {
    session_id: o.sessionId ?? "c0ffee00-1111-4222-8333-444455556666",
    cwd,
    transcript_path: "",
  };
  return [
    [
      "session-start",
      { ...base, hook_event_name: "SessionStart", source: "startup", model: "claude-opus-4-5" },
    ],
    ["user-prompt-submit", { ...base, hook_event_name: "UserPromptSubmit", prompt: o.prompt }],
    [
      "post-tool-use",
      {
        ...base,
        hook_event_name: "PostToolUse",
        tool_name: "Edit",
        tool_input: { file_path: join(cwd, o.file), old_string: "1", new_string: "2" },
        tool_response: { success: true },
      },
    ],
    ["pre-compact", { ...base, hook_event_name: "PreCompact", trigger: "auto", custom_instructions: "" }],
    ["stop", { ...base, hook_event_name: "Stop", stop_hook_active: false }],
    ["session-end", { ...base, hook_event_name: "SessionEnd", reason: "other" }],
  ];
}
