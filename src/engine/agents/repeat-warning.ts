// The repeat warning as a hook flow: what the agent is about to do (the user's prompt, or a tool's
// input before the tool runs) matched against the failure graph (failures/repeat-warnings.ts); a
// failure is named once per agent session, at the prompt or at a tool, the ids warned of kept in
// the session's note. It never blocks the agent: a store busy with another writer gets the warning
// without the note (it may come once more), and a tool is never denied, only warned of.
import { hookFacts, type HookOutcome, type HookPayload } from "./hook-payload.ts";
import { noteOf, withNote } from "./session-notes.ts";
import { getSignalRow, putSignalRow } from "./signal-row.ts";
import { readsOnly } from "./shell-words.ts";
import { repeatedFailures, repeatWarning } from "../failures/repeat-warnings.ts";
import { resolveProject } from "../projects/resolve.ts";
import { unlessBusy } from "../unless-busy.ts";
import type { Session } from "../session.ts";
import type { FailureRecord } from "../../store/store.ts";

/** How many warned ids a session's note keeps (the oldest are forgotten first). */
const KEEP_WARNED = 50;

/**
 * A text's repeat check: the warning (none when it proposes no rejected approach, or only ones
 * warned of), and the failures it names when this session had been warned of none (the search
 * left nothing out, so the prompt's pointer reads them instead of searching again).
 */
export interface RepeatCheck {
  warning?: string;
  named?: FailureRecord[];
}

/** The repeat check of `text` in this session. */
export async function repeatWarningFor(session: Session, p: HookPayload, text: string): Promise<RepeatCheck> {
  if (!text.trim()) return {};
  const { sessionId } = hookFacts(p);
  const ctx = await resolveProject(session, { create: false });
  const projectId = ctx?.project.id ?? null;
  const row = ctx ? await getSignalRow(session.reader, ctx.project.id) : null;
  const warned = new Set(row ? (noteOf(row, sessionId)?.warned ?? []) : []);
  const found = await repeatedFailures(session.reader, projectId, text, warned);
  const named = warned.size ? undefined : found;
  if (!found.length) return { named };
  if (ctx && sessionId) {
    const now = session.now();
    await unlessBusy(true, undefined, () =>
      session.write(async (w) => {
        const s = await getSignalRow(w, ctx.project.id);
        const next = withNote(s, sessionId, now, (n) => ({
          ...n,
          warned: [...(n.warned ?? []), ...found.map((f) => f.id)].slice(-KEEP_WARNED),
        }));
        await putSignalRow(w, ctx.project.id, next);
      }),
    );
  }
  return { warning: repeatWarning(found), named };
}

/** The most of a tool's input matched: a command or an MCP call whole, within this. */
const TOOL_TEXT_MAX = 2000;
/** A file's new content is matched by its head: what the file is, not every line of it. */
const CONTENT_HEAD = 500;
/** Inputs that hold the text a call replaces: what is taken out is not what is proposed. */
const REPLACED = new Set(["old_string", "old_str", "oldString", "old_text"]);
/** Inputs that hold a file's new content. */
const CONTENT = new Set([
  "content",
  "contents",
  "new_string",
  "new_str",
  "newString",
  "file_text",
  "new_source",
]);
/** A patch (apply_patch's, a unified diff): its removed lines are not proposed either. */
const PATCH = /^(?:\*\*\* Begin Patch|diff --git|@@ )/m;

/** A string of a tool's input as matched: a patch without its removed lines, content by its head. */
function proposed(key: string, v: string): string {
  const text = PATCH.test(v)
    ? v
        .split("\n")
        .filter((l) => !/^-(?!--)/.test(l))
        .join("\n")
    : v;
  return text.slice(0, CONTENT.has(key) ? CONTENT_HEAD : TOOL_TEXT_MAX);
}

/**
 * The text of a tool's input the failure graph is matched against: its strings in order (the
 * command, the path, the content's head, an MCP call's arguments), nested ones too, bounded.
 */
export function toolInputText(input: Record<string, unknown>): string {
  const parts: string[] = [];
  let size = 0;
  const visit = (key: string, v: unknown, depth: number): void => {
    if (size >= TOOL_TEXT_MAX || depth > 4) return;
    if (typeof v === "string") {
      const text = proposed(key, v);
      parts.push(text);
      size += text.length + 1;
    } else if (Array.isArray(v)) for (const x of v) visit(key, x, depth + 1);
    else if (v && typeof v === "object")
      for (const [k, x] of Object.entries(v)) if (!REPLACED.has(k)) visit(k, x, depth + 1);
  };
  visit("", input, 0);
  return parts.join("\n").slice(0, TOOL_TEXT_MAX);
}

/**
 * What a tool call proposes, as matched: its input's text; nothing for a command that only reads,
 * nor for MindSave's own calls (recording a failure names it).
 */
export function toolProposal(tool: string, input: Record<string, unknown>): string {
  if (/mindsave/i.test(tool)) return "";
  const command = typeof input.command === "string" ? input.command : input.cmd;
  if (typeof command === "string" && (readsOnly(command) || /^\s*mindsave\b/.test(command))) return "";
  return toolInputText(input);
}

/**
 * pre-tool-use: what the tool call proposes matched as a prompt is; on a match the warning goes
 * into the agent's context before the tool runs. Quiet otherwise; never a deny.
 */
export async function onPreToolUse(session: Session, p: HookPayload): Promise<HookOutcome> {
  const tool = typeof p.tool_name === "string" ? p.tool_name : "";
  const input = p.tool_input && typeof p.tool_input === "object" ? p.tool_input : {};
  const { warning } = await repeatWarningFor(session, p, toolProposal(tool, input));
  return warning ? { context: warning } : {};
}
