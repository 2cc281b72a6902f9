// Claude Code: the payloads are already the hooks' shape, the transcript is transcript.ts's JSONL,
// and the output is `hookSpecificOutput` JSON. Source: code.claude.com/docs/en/hooks.
import { lastUsage, readTranscript, emptyFacts } from "../transcript.ts";
import {
  hookSpecificJson,
  stamped,
  stopBlockJson,
  type AgentKind,
  type HookEvent,
  type TranscriptSource,
} from "./kind.ts";
import type { HookPayload } from "../hook-payload.ts";

const EDIT_TOOLS = ["Edit", "Write", "MultiEdit", "NotebookEdit"];

export const CLAUDE_SOURCE: TranscriptSource = {
  facts: (p) => (p.transcript_path ? readTranscript(p.transcript_path) : emptyFacts()),
  usage: (p) => (p.transcript_path ? lastUsage(p.transcript_path) : null),
  editedFiles(tool, input) {
    const file = typeof input.file_path === "string" ? input.file_path : null;
    return file && EDIT_TOOLS.includes(tool) ? [file] : [];
  },
  trail: false,
};

/** Claude Code's own names of the events whose output takes context. */
const CONTEXT_EVENTS: Partial<Record<HookEvent, string>> = {
  "session-start": "SessionStart",
  "user-prompt-submit": "UserPromptSubmit",
  // Context only, never a permissionDecision: a repeat warning does not stop the tool.
  "pre-tool-use": "PreToolUse",
  "post-tool-use": "PostToolUse",
};

export const claude: AgentKind = {
  id: "claude",
  parse: (event, raw) => ({ event, payload: stamped(raw as HookPayload, "claude") }),
  source: CLAUDE_SOURCE,
  // PreCompact's stdout is the compaction prompt's "Additional Instructions" (plain text, 10,000
  // characters at most: checked in the 2.1.328 binary).
  render: (event, reply) =>
    event === "stop"
      ? stopBlockJson(reply)
      : event === "pre-compact"
        ? (reply.context?.replace(/\n*$/, "\n") ?? "")
        : hookSpecificJson(CONTEXT_EVENTS[event], reply),
  compactionGuide: true,
};
