// The agents the hook runtime serves, by the name `hook --agent` takes, and who really called: an
// agent that also runs Claude Code's hooks (Copilot CLI, Cursor) reaches `--agent claude` too.
import { claude } from "./claude.ts";
import { codex } from "./codex.ts";
import { gemini } from "./gemini.ts";
import { copilot } from "./copilot.ts";
import { cursor } from "./cursor.ts";
import { cline } from "./cline.ts";
import { opencode } from "./opencode.ts";
import type { AgentId, AgentKind } from "./kind.ts";

const KINDS: Record<AgentId, AgentKind> = { claude, codex, gemini, copilot, cursor, cline, opencode };

/** The agent named by `--agent` (none: Claude Code), or null for a name we do not know. */
export function agentKind(name: string | undefined): AgentKind | null {
  if (name === undefined) return claude;
  return Object.hasOwn(KINDS, name) ? KINDS[name as AgentId] : null;
}

export const agentKindNames = (): string[] => Object.keys(KINDS);

/**
 * Who sent a payload that arrived through Claude Code's hooks. Cursor's carry `cursor_version`,
 * `conversation_id` and `workspace_roots`; Copilot CLI's camelCase ones `sessionId`, its
 * Claude-compatible ones a `timestamp` (Claude Code's carry none, and always `permission_mode`).
 */
export function callerOf(route: AgentKind, raw: Record<string, unknown>): AgentKind {
  if (route.id !== "claude") return route;
  if ("cursor_version" in raw || "conversation_id" in raw || Array.isArray(raw.workspace_roots))
    return cursor;
  if ("sessionId" in raw || (raw.timestamp !== undefined && !("permission_mode" in raw))) return copilot;
  return claude;
}

/** Agents that run Claude Code's hooks beside their own: the same event may come twice. */
export const RUNS_CLAUDE_HOOKS: ReadonlySet<AgentId> = new Set(["copilot", "cursor"]);
