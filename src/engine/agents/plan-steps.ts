// The spec's "sub-task done" moment: a step of the agent's plan completed in this session. A tool
// call that may have completed one (a TodoWrite, write_todos, update_plan or TaskUpdate marking a
// step done; MindSave's own `plan done`) is noted by the tool hook, which sees only the call; the
// next stop names the steps from the transcript's task list and MindSave's plan, and asks once per
// step (checkpoint-request.ts). The transcript is read at a stop only after such a call: reading
// a long one costs a few hundred milliseconds. Where the plan tool fires no tool hook (Codex's
// update_plan), the stop looks for it in the bytes the transcript gained since the last stop.
import { readSync } from "node:fs";
import { resolveProject } from "../projects/resolve.ts";
import { TAIL_BYTES, withTranscript } from "./transcript.ts";
import { todoStatus } from "./kinds/facts.ts";
import type { HookPayload } from "./hook-payload.ts";
import type { TranscriptFacts } from "./transcript.ts";
import type { Session } from "../session.ts";

/** The longest step name kept in a session's note and named in a request. */
const STEP_CHARS = 200;
const step = (content: string) => content.replace(/\s+/g, " ").trim().slice(0, STEP_CHARS);

/** A tool that keeps a task list or a plan, by any agent's name for it (MindSave's MCP `plan` too). */
const PLAN_TOOL = /todo|task|plan/i;
/** A shell command that marks a step of MindSave's plan done. */
const PLAN_DONE_COMMAND = /\bmindsave\s+plan\s+done\b/;

/** A list of steps in a tool's input, by the names agents give it: TodoWrite's and write_todos' `todos`, update_plan's `plan`. */
function listedSteps(input: Record<string, unknown>): { content: string; status: string }[] | null {
  const list = Array.isArray(input.todos) ? input.todos : Array.isArray(input.plan) ? input.plan : null;
  if (!list) return null;
  return list.flatMap((v: unknown) => {
    const t = v && typeof v === "object" ? (v as Record<string, unknown>) : {};
    const content = t.content ?? t.step ?? t.description ?? t.subject;
    return typeof content === "string" ? [{ content: step(content), status: todoStatus(t.status) }] : [];
  });
}

/**
 * Whether this successful tool call may have completed a plan step not yet asked about (`known`:
 * the steps this session was asked about). A list that names its steps is checked against them;
 * a call that names no step (TaskUpdate's task id, `mindsave plan done 2`) may have.
 */
export function mayCompleteStep(p: HookPayload, known: readonly string[] = []): boolean {
  const tool = typeof p.tool_name === "string" ? p.tool_name : "";
  const input = p.tool_input && typeof p.tool_input === "object" ? p.tool_input : {};
  if (typeof input.command === "string" && PLAN_DONE_COMMAND.test(input.command)) return true;
  // Copilot CLI keeps its list in a session table its `sql` tool updates.
  if (!PLAN_TOOL.test(tool) && !/\btodos\b/i.test(String(input.query ?? ""))) return false;
  const listed = listedSteps(input);
  if (listed) return listed.some((t) => t.status === "completed" && !known.includes(t.content));
  return /\b(?:completed?|done)\b/i.test(JSON.stringify(input));
}

/** The newest snapshots whose plan is read: the stop's own mechanical snapshot may have none, the one before it the plan. */
const RECENT = 3;

/**
 * The plan steps completed in this session: the transcript's task list, and the steps of MindSave's
 * plan (in the newest snapshots) marked completed since the session began. Each once, in order.
 */
export async function completedSteps(session: Session, facts: TranscriptFacts): Promise<string[]> {
  const done = (facts.todos ?? []).filter((t) => todoStatus(t.status) === "completed").map((t) => t.content);
  const since = facts.started_at ? Date.parse(facts.started_at) : NaN;
  const ctx = Number.isFinite(since) ? await resolveProject(session, { create: false }) : null;
  const recent = ctx
    ? await session.store.consistentRead(async (q) => {
        const rows = await q.listSnapshots(ctx.project.id, { limit: RECENT, listed: true });
        return Promise.all(rows.map((r) => q.getSnapshot(r.id)));
      })
    : [];
  for (const s of recent.reverse())
    s?.plan?.forEach((p, i) => {
      const at = Date.parse(s.plan_times?.[i] ?? "");
      if (p.status === "completed" && at >= since) done.push(p.content);
    });
  return [...new Set(done.map(step).filter(Boolean))];
}

/**
 * Whether the transcript's bytes written since `from` name `tool` (an agent whose plan tool fires
 * no tool hook: Codex's update_plan), and its size now. Only the newest TAIL_BYTES of them are read.
 */
export function planCallSince(path: string, from: number, tool: string): { size: number; seen: boolean } {
  return withTranscript(path, { size: from, seen: false }, (fd, size) => {
    // A file shorter than what was read before is another one (or rewritten): read it again.
    const start = Math.max(from <= size ? from : 0, size - TAIL_BYTES);
    if (start >= size) return { size, seen: false };
    const buf = Buffer.allocUnsafe(size - start);
    const n = readSync(fd, buf, 0, buf.length, start);
    return { size, seen: buf.subarray(0, n).includes(`"${tool}"`) };
  });
}
