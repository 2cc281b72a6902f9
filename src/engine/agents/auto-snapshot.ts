// Auto-snapshots built deterministically from what the agent did (its transcript) and what the
// hooks noted about the session; the hook flows that call them are in hook-events.ts and
// semantic.ts. Layer 2 always comes from the newest FULL snapshot: an overflow (OVF_) snapshot
// holds Layer 1 only and points at the full snapshot it extends.
import { UserError } from "../../errors.ts";
import { getSetting } from "../home/settings.ts";
import { emptyInput, type SnapshotInput } from "../snapshots/input-fields.ts";
import { checkLayer1, saveSnapshot, type SaveResult } from "../snapshots/save.ts";
import { countTokens } from "../snapshots/tokens.ts";
import { newestSnapshot } from "../snapshots/select.ts";
import { parsePlan } from "../snapshots/plan.ts";
import { writtenConstraints } from "../snapshots/layers.ts";
import { sameTask } from "../snapshots/same-task.ts";
import { toolTarget, type Todo, type ToolUse, type TranscriptFacts } from "./transcript.ts";
import {
  consumed,
  failureCandidates,
  hasCandidates,
  noteOf,
  withNote,
  type SessionNote,
} from "./session-notes.ts";
import { changeSignalRow, getSignalRow } from "./signal-row.ts";
import { abandonedApproaches, besides, freshAbandoned, recordAbandoned } from "./abandoned.ts";
import { readsOnly } from "./shell-words.ts";
import { asksNoWork, isBareReply, namesNoTask, promptRules, taskOf } from "./task-words.ts";
import { nextStepOf } from "./next-step.ts";
import { foldDuplicates } from "../snapshots/constraint-hygiene.ts";
import { isAbsoluteAny, toStoredPath } from "../projects/paths.ts";
import { gitChangedSince, gitDiffStat } from "../projects/workspace.ts";
import { sessionKey, type HookFacts } from "./hook-payload.ts";
import type { Session } from "../session.ts";
import { currentWorkspace, resolveProject } from "../projects/resolve.ts";
import type { PlanItem, SnapshotRecord } from "../../store/store.ts";

export function oneLine(text: string, max = 240): string {
  const first = text.replace(/\s+/g, " ").trim();
  if (first.length <= max) return first;
  const cut = first.slice(0, /[\uD800-\uDBFF]/.test(first[max - 1]) ? max - 1 : max); // never half a surrogate pair
  const stop = Math.max(cut.lastIndexOf(". "), cut.lastIndexOf("。"));
  if (stop > 60) return cut.slice(0, stop + 1).trim();
  // Back to the end of a word, unless no space is near (Chinese): "In progress: 重构…" kept its prefix only.
  const space = cut.lastIndexOf(" ");
  return (space > max / 2 ? cut.slice(0, space) : cut).trim() + "…";
}

export interface AutoContext extends HookFacts {
  /** The newest snapshot of any kind, and the newest full one (the source of Layer 2). */
  newest: SnapshotRecord | null;
  full: SnapshotRecord | null;
  root: string | null;
  reason: string;
  toolCalls: number;
  note?: SessionNote | null;
  /** Approaches this session abandoned that the project's graph does not hold yet (abandoned.ts). */
  abandoned?: SnapshotInput["failure_graph"];
}

/** The states an auto-snapshot makes when it knows only the last call or reply, not the task's state. */
const ONLY_LAST = /^(?:Last action: |Last reply: |No tool calls yet this session$)/;

// Carrying on with a thing named in a few words, the task it is part of left unsaid ("continue with
// the import", "let's get back to the migration", "接着做导出那块").
const ON_WITH = String.raw`(?:let'?s )?(?:continue|carry on|keep going|go on|get back to|resume|pick up)(?: with| on)? (?:the|your|our|that|this) [\p{L}\p{N}_-]+(?: [\p{L}\p{N}_-]+){0,2}|(?:继续|接着)(?:做|搞|写|弄)(?:那个|这个|上次的?)?\p{Script=Han}{1,6}`;
// Prompts that name no task, only "carry on" (whole prompt, politeness and punctuation allowed).
const GO_ON = String.raw`(?:continue|go on|keep going|carry on|resume|proceed|go ahead|next|ok(?:ay)?|yes|yep|yeah|sure|please|thanks|let'?s (?:continue|go on|keep going|carry on|resume|proceed)|(?:continue|pick up|carry on) (?:from )?where (?:you|we) left off|continue (?:with )?(?:the|your|our) (?:previous |last |current )?(?:task|work)|keep working|${ON_WITH}|继续|继续吧|继续做|继续工作|继续任务|继续上次的?任务|接着|接着做|接着来|好|好的|嗯|行|可以|开始吧|请|吧)`;
const CONTINUATION = new RegExp(String.raw`^(?:${GO_ON}[\s,，.!！。~…]*)+$`, "iu");

/**
 * The goal of an auto-snapshot when neither a prompt nor an earlier snapshot names one (an agent
 * whose hooks pass no prompt, such as opencode's plugin): marked unknown, never an instruction.
 */
export const UNKNOWN_GOAL = "(unknown: no prompt of this session reached MindSave)";
/** The same when prompts did reach MindSave but none named a task ("hi", "where were we?"). */
export const UNNAMED_GOAL = "(unknown: no prompt of this session named a task)";
const UNKNOWN_GOALS = new Set([UNKNOWN_GOAL, UNNAMED_GOAL]);
const UNKNOWN_TOPIC = "unknown_goal";
const knownGoal = (goal: string | undefined) => (goal && !UNKNOWN_GOALS.has(goal) ? goal : "");

/** A prompt that only says to go on ("continue", "go on", "继续", "ok", …): it names no task of its own. */
export function isContinuation(prompt: string): boolean {
  const text = prompt
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, " ")
    .trim();
  return text.length <= 80 && CONTINUATION.test(text);
}

/**
 * The task this session's first prompt names, or null when it names none: no prompt, only
 * "continue", or only words that name no work ("where were we?", "我们上次做到哪了？").
 */
const intentOf = (facts: TranscriptFacts): string | null =>
  facts.first_prompt && !isContinuation(facts.first_prompt) && !namesNoTask(facts.first_prompt)
    ? facts.first_prompt
    : null;

/** A MindSave save run as a command: `mindsave save`, `mindsave --home H save`, `mindsave.exe save`. */
const SAVE_COMMAND = /\bmindsave(?:\.exe|\.cmd)?["']?(?:\s+(?!save\b)\S+){0,6}\s+save\b/i;

/** Whether a tool call saves a MindSave snapshot: a command, or MindSave's MCP `save`. */
function isSaveCall(t: ToolUse): boolean {
  const texts = (v: unknown): string[] =>
    typeof v === "string"
      ? [v]
      : Array.isArray(v)
        ? [v.filter((x) => typeof x === "string").join(" "), ...v.flatMap(texts)]
        : v && typeof v === "object"
          ? Object.values(v).flatMap(texts)
          : [];
  return (
    (/mindsave/i.test(t.name) && /(?:^|[^a-z])save$/i.test(t.name)) ||
    texts(t.input).some((x) => SAVE_COMMAND.test(x))
  );
}

/** Whether this session's agent saved a snapshot itself, as far as its transcript tells. */
const savedByThisSession = (facts: TranscriptFacts): boolean => facts.tool_uses.some(isSaveCall);

/**
 * The newest snapshot is the checkpoint this session's agent saved itself (through MindSave, not a
 * hook) and nothing was done since: its last tool call was that save and no file changed after it.
 * The agent's Layer 1 and 2 say more than a transcript does; a mechanical snapshot would replace
 * them with less (its state a count of tool calls).
 */
function agentCheckpointStands(facts: TranscriptFacts, newest: SnapshotRecord | null, root: string | null) {
  if (!newest || newest.auto_trigger) return false;
  if (facts.started_at && newest.created_at < facts.started_at) return false;
  const last = facts.tool_uses.at(-1);
  return !!last && isSaveCall(last) && !gitChangedSince(root, Date.parse(newest.created_at));
}

/**
 * A first prompt that asks for no work of its own ("k lets continue") in a session whose first tool
 * call goes to a file the newest snapshot was working on: the session picks that task up.
 */
function resumesNewest(facts: TranscriptFacts, newest: SnapshotRecord, intent: string): boolean {
  const first = facts.tool_uses[0];
  if (!first || !asksNoWork(intent)) return false;
  // Whole paths, not the tail of another file's name ("a.ts" in "data.ts").
  const named = toolTarget(first).split(/[\s"'`=]+/);
  return newest.active_files.some(
    (f) =>
      !!f.path && named.some((n) => n === f.path || n.endsWith(`/${f.path}`) || n.endsWith(`\\${f.path}`)),
  );
}

/**
 * Whether this session carries on the newest snapshot's task, so that snapshot speaks for it: it
 * was saved during this session, or this session named no task of its own (no prompt, or only
 * "continue"). A snapshot from an earlier session is another task when this session's first prompt
 * names one. A snapshot saved by hand during this session is its own when its transcript shows it
 * saving, or when it names this session's task: another session on the same project saves by hand too.
 */
function carriesOnNewest(
  facts: TranscriptFacts,
  newest: SnapshotRecord | null,
  intent: string | null,
  sessionId: string | null | undefined,
): boolean {
  if (!newest) return false;
  if (!intent || resumesNewest(facts, newest, intent)) return true;
  const savedIn = newest.auto_trigger?.session_id;
  if (savedIn) return savedIn === sessionId;
  const sinceStart = !facts.started_at || newest.created_at >= facts.started_at;
  return sinceStart && (savedByThisSession(facts) || sameTask(newest.goal, intent));
}

/** The session's task list as progress: the step in progress, the first pending one, the completed ones. */
interface PlanProgress {
  todos: Todo[];
  doing: Todo | undefined;
  pending: Todo | undefined;
  done: Todo[];
}

function planProgress(facts: TranscriptFacts): PlanProgress {
  const todos = facts.todos ?? [];
  return {
    todos,
    doing: todos.find((t) => t.status === "in_progress"),
    pending: todos.find((t) => t.status === "pending"),
    done: todos.filter((t) => t.status === "completed"),
  };
}

const calls = (n: number) => `${n} tool call${n === 1 ? "" : "s"}`;

/**
 * The state: the plan's progress when there is a plan; else, without edits, the newest's state when
 * it is a real one or another session saved it (what this session last did or said, a look around,
 * is no news about the task); else the final reply; else the last tool call.
 */
function stateOf(
  facts: TranscriptFacts,
  plan: PlanProgress,
  newest: SnapshotRecord | null,
  lastReply: string,
  sessionId: string | null | undefined,
): string {
  const { todos, doing, done } = plan;
  const steps = `${done.length}/${todos.length} steps done`;
  if (doing) return oneLine(`In progress: ${doing.activeForm || doing.content} (${steps})`);
  // What was done: the completed steps by name.
  if (todos.length)
    return oneLine(`${steps}${done.length ? `: ${done.map((t) => t.content).join("; ")}` : ""}`);
  const savedHere = newest?.auto_trigger?.session_id === sessionId;
  if (newest?.state && !facts.edited_files.length && (!ONLY_LAST.test(newest.state) || !savedHere))
    return newest.state;
  const n = facts.tool_uses.length;
  const changed = facts.edited_files.map((f) => f.split(/[\\/]/).pop() ?? f);
  // "done" says nothing of the task: the files it changed do.
  if (changed.length && isBareReply(lastReply))
    return oneLine(`Changed ${[...new Set(changed)].reverse().join(", ")} (after ${calls(n)})`);
  if (lastReply) return oneLine(`Last reply: ${oneLine(lastReply, 180)} (after ${calls(n)})`);
  const last = facts.tool_uses.at(-1);
  return oneLine(
    last
      ? `Last action: ${last.name} ${toolTarget(last)} (${calls(n)} this session)`
      : "No tool calls yet this session",
  );
}

/**
 * The next action by the order of evidence of next-step.ts: the plan's step in progress (a pending
 * one when none is), the agent's own next step, a request the user's last prompt put off for later
 * or left unfinished, a command that failed last, the newest's next action; none ("") rather than a guess.
 */
function nextActionOf(
  facts: TranscriptFacts,
  plan: PlanProgress,
  newest: SnapshotRecord | null,
  lastReply: string,
): string {
  // The newest prompt, when it is not the one that named the task.
  const later = facts.prompts?.at(-1);
  const step = plan.doing ?? plan.pending;
  const last = facts.tool_uses.at(-1);
  const command = last?.is_error && typeof last.input.command === "string" ? last.input.command : null;
  const next = nextStepOf({
    planStep: step?.content ?? null,
    lastReply,
    laterPrompt: later && later !== facts.first_prompt ? later : null,
    failed: command ? { command: oneLine(command, 120), error: last?.error } : null,
    carried: newest?.next_action ?? null,
    changedFiles: facts.edited_files.length > 0 || facts.patches.length > 0,
  });
  return next && oneLine(next);
}

/** A path as a snapshot stores it: relative to the project's root when it lies there. */
const storedPath = (path: string, root: string | null) =>
  root && isAbsoluteAny(path) ? toStoredPath(path, root, root) : path;

/** Tools that read a file: Claude Code's Read, Gemini's read_file, Copilot's view, Cursor's Read. */
const READ_TOOL = /^(?:Read|read_file|read_many_files|view|NotebookRead)$/;

/**
 * Tools that only read or search (Claude Code's, Gemini CLI's, Cline's, Copilot's): calls of these
 * change nothing.
 */
const READER_TOOL =
  /^(?:Read|read_file|read_many_files|view|NotebookRead|Grep|Glob|LS|WebFetch|WebSearch|grep|glob|search_file_content|list_directory|google_web_search|web_fetch|list_files|search_files|list_code_definition_names)$/;

/**
 * Whether every call of this session that worked only read: a reader tool, or a command known to
 * change nothing (a script or a deploy may have changed anything: that is work).
 */
function onlyRead(facts: TranscriptFacts): boolean {
  return facts.tool_uses.every((t) => {
    if (t.is_error || READER_TOOL.test(t.name)) return true;
    return typeof t.input.command === "string" && readsOnly(t.input.command);
  });
}

/** The files this session read, newest first (a read's target is its file_path or path). */
function readFiles(facts: TranscriptFacts): string[] {
  return facts.tool_uses
    .filter((t) => READ_TOOL.test(t.name) && !t.is_error)
    .map((t) => t.input.file_path ?? t.input.absolute_path ?? t.input.path)
    .filter((f): f is string => typeof f === "string" && !!f)
    .reverse();
}

/** The files this session edited, newest first, then those it read; without either, the newest snapshot's. */
function activeFilesOf(facts: TranscriptFacts, root: string | null, newest: SnapshotRecord | null): string[] {
  const edited = [...facts.edited_files].reverse();
  const files = [...new Set([...edited, ...(edited.length ? readFiles(facts) : [])])].slice(0, 10);
  if (files.length) return files.map((f) => storedPath(f, root));
  return newest?.active_files.map((f) => f.path) ?? [];
}

/** The newest's topic while its goal stands; a goal still unknown is named so (unknown_goal_<date>). */
function topicOf(goal: string, newest: SnapshotRecord | null): string | undefined {
  if (UNKNOWN_GOALS.has(goal)) return UNKNOWN_TOPIC;
  if (!newest || !knownGoal(newest.goal)) return undefined;
  return newest.topic.replace(/^(ovf_)+/i, "") || undefined;
}

/** Layer 3's file changes: the transcript's patches and the working tree's `git diff --stat`. */
function fileChanges(facts: TranscriptFacts, root: string | null): string[] {
  const changes = facts.patches.map((p) => ` ${storedPath(p.path, root)} | +${p.added} -${p.removed}`);
  const stat = gitDiffStat(root);
  if (!changes.length && !stat) return [];
  return ["", "### File Changes", ...changes, ...(stat ? ["", "git diff --stat:", stat] : [])];
}

/** Layer 3: completed steps, file changes, the last tool calls, the last prompt and the final reply. */
function layer3Of(
  facts: TranscriptFacts,
  plan: PlanProgress,
  root: string | null,
  lastReply: string,
): string {
  const l3: string[] = [];
  if (plan.done.length) l3.push("### Completed Steps", ...plan.done.map((t, i) => `${i + 1}. ${t.content}`));
  l3.push(...fileChanges(facts, root));
  const recent = facts.tool_uses.slice(-5);
  if (recent.length)
    l3.push(
      "",
      "### Recent Tool Calls",
      ...recent.map((t, i) => `${i + 1}. ${t.name} ${toolTarget(t)}${t.is_error ? " (failed)" : ""}`),
    );
  // Readers that track the newest prompt (not Claude Code's) say what was asked last.
  if (facts.last_prompt && facts.last_prompt !== facts.first_prompt)
    l3.push("", "### Last Prompt", oneLine(facts.last_prompt, 500));
  if (lastReply) l3.push("", "### Last Reply", lastReply.slice(0, 1000));
  return l3.join("\n").trim();
}

/**
 * Layer 2. Constraints and decisions are the project's knowledge: from the newest full snapshot (an
 * overflow one has none), plus what this session taught (corrections, repeated failures).
 */
function layer2Of(
  facts: TranscriptFacts,
  c: AutoContext,
): Pick<SnapshotInput, "constraints" | "decisions" | "failure_graph"> {
  const known = [...(c.full ? writtenConstraints(c.full) : []), ...(c.note?.constraints ?? [])];
  const prompts = facts.prompts ?? [facts.first_prompt, facts.last_prompt].filter((p): p is string => !!p);
  const repeated = failureCandidates(c.note ?? null);
  return {
    // The rules the user stated in this session's prompts, each once (the save compresses them by the spec's rules).
    constraints: foldDuplicates([...known, ...promptRules(prompts, known)]).kept,
    decisions: [...(c.full?.decisions ?? [])],
    failure_graph: { ...repeated, ...besides(repeated, c.abandoned ?? {}) },
  };
}

/**
 * A snapshot from the transcript: goal from the newest snapshot of the task this session carries on
 * or else its first prompt; state and completed steps from the latest TodoWrite list; the next
 * action by its order of evidence (nextActionOf); active files from Edit/Write/MultiEdit; Layer 2
 * from the newest full snapshot plus the session's corrections and repeated failures; Layer 3 from
 * the last tool calls, file changes and the final reply.
 */
export function autoSnapshotInput(facts: TranscriptFacts, c: AutoContext): SnapshotInput {
  const input = emptyInput();
  const sessionId = c.sessionId ?? sessionKey(facts.session_id);
  const intent = intentOf(facts);
  const newest = carriesOnNewest(facts, c.newest, intent, sessionId) ? c.newest : null;
  const plan = planProgress(facts);
  // Stop's payload gives the final reply; PreCompact and SessionEnd find it in the transcript.
  const lastReply = (c.lastReply?.trim() || facts.last_reply?.trim()) ?? "";
  // Layer 1 never knows less than the newest snapshot of the task it carries on: each field this
  // session has nothing of its own for (goal, next action, files, a real state) keeps the newest's;
  // the next action only while this session has not likely done it (next-step.ts, carriedStep).
  input.goal =
    knownGoal(newest?.goal) ||
    oneLine(taskOf(intent ?? "")) ||
    (facts.first_prompt?.trim() ? UNNAMED_GOAL : UNKNOWN_GOAL);
  input.state = stateOf(facts, plan, newest, lastReply, sessionId);
  input.next_action = nextActionOf(facts, plan, newest, lastReply);
  input.active_files = activeFilesOf(facts, c.root, newest);
  input.blocker = newest?.status === "blocked" ? newest.blocker : "none";
  Object.assign(input, layer2Of(facts, c));
  // The plan verbatim, statuses included (the restore block shows its progress line).
  if (plan.todos.length) input.plan = planOrNull(plan.todos);
  input.topic = topicOf(input.goal, newest);
  input.auto_trigger = {
    reason: c.reason,
    tool_calls_since_last: c.toolCalls,
    ...(sessionId ? { session_id: sessionId } : {}),
  };
  if (c.agent) input.agent = c.agent;
  input.layer3 = layer3Of(facts, plan, c.root, lastReply);
  return fitLayer1(input);
}

/**
 * Layer 1 cut to its budget. 240 characters a field fit it in English, not in Chinese (about a
 * token a character), nor beside a file path of thousands of characters: such an auto-snapshot
 * was not saved at all. The item with the most tokens gives way first: a text field is shortened
 * (never below 20 characters), a file is left out (a shortened path would name another file) and
 * Layer 3 says how many were.
 */
function fitLayer1(input: SnapshotInput): SnapshotInput {
  let dropped = 0;
  for (;;) {
    try {
      checkLayer1(input);
      break;
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
    }
    const field = (["goal", "state", "next_action"] as const).reduce((a, b) =>
      countTokens(input[b]) > countTokens(input[a]) ? b : a,
    );
    const chars = [...input[field]]; // whole code points: a cut never splits a surrogate pair
    const files = input.active_files.map(countTokens);
    const worst = files.indexOf(Math.max(-1, ...files));
    if (worst >= 0 && (files[worst] >= countTokens(input[field]) || chars.length <= 20)) {
      input.active_files.splice(worst, 1);
      dropped++;
    } else if (chars.length > 20) {
      input[field] =
        chars
          .slice(0, Math.floor(chars.length * 0.8))
          .join("")
          .trimEnd() + "…";
    } else break;
  }
  if (dropped)
    input.layer3 =
      `${input.layer3}\n\n(${dropped} active file(s) left out of Layer 1 to keep it within its budget.)`.trim();
  return input;
}

/** A transcript's task list as a plan; one this reader cannot make sense of is left out, not guessed. */
function planOrNull(todos: unknown[]): PlanItem[] | undefined {
  try {
    return parsePlan(todos, "the transcript's task list");
  } catch {
    return undefined;
  }
}

/** The same Layer 1 as the newest snapshot: nothing to save. */
function sameLayer1(a: SnapshotInput, b: SnapshotRecord | null, root: string | null): boolean {
  if (!b) return false;
  const files = (xs: string[]) => xs.map((f) => (root ? toStoredPath(f, root, root) : f)).join("\n");
  return (
    a.goal === b.goal &&
    a.state === b.state &&
    a.next_action === b.next_action &&
    a.blocker === b.blocker &&
    files(a.active_files) === b.active_files.map((f) => f.path).join("\n")
  );
}

/** Did this session do anything a snapshot could say? A missing, lagging or Q&A-only transcript did not. */
export function hasWork(facts: TranscriptFacts): boolean {
  return facts.tool_uses.length > 0 || (facts.todos?.length ?? 0) > 0 || facts.edited_files.length > 0;
}

/** The session's note, read outside a transaction (null without a project or a session id). */
export async function sessionNote(session: Session, sessionId: string | null): Promise<SessionNote | null> {
  const ctx = await resolveProject(session, { create: false });
  return ctx ? noteOf(await getSignalRow(session.store, ctx.project.id), sessionId) : null;
}

/** What an auto-snapshot is written from: the project's newest and newest full snapshots, its root, the signal row and the session's note. */
async function autoSources(session: Session, facts: TranscriptFacts, hook: HookFacts) {
  const ctx = await resolveProject(session, { create: false });
  const newest = ctx ? await session.store.consistentRead((q) => newestSnapshot(q, ctx.project.id)) : null;
  const full = !ctx
    ? null
    : newest?.kind === "full"
      ? newest
      : await session.store.newestFullSnapshot(ctx.project.id);
  const root = ctx?.root ?? currentWorkspace(session, false)?.root ?? null;
  const signal = await getSignalRow(session.store, ctx?.project.id);
  const sessionId = hook.sessionId ?? sessionKey(facts.session_id);
  const projectId = ctx?.project.id ?? null;
  return { projectId, newest, full, root, signal, sessionId, note: noteOf(signal, sessionId) };
}

/** Saves the auto-snapshot; over budget even as one, Layer 1 only rather than lose the checkpoint. */
async function saveOrOverflow(
  session: Session,
  input: SnapshotInput,
  full: SnapshotRecord | null,
  overflow: boolean,
): Promise<SaveResult> {
  const overflowInput = () => ({
    ...input,
    auto_trigger: { ...input.auto_trigger, ...(full ? { extends: full.id } : {}) },
  });
  try {
    return await saveSnapshot(session, { input: overflow ? overflowInput() : input, overflow, auto: true });
  } catch (e) {
    if (!(e instanceof UserError) || overflow) throw e;
    return await saveSnapshot(session, { input: overflowInput(), overflow: true, auto: true });
  }
}

/** A full snapshot took the session's corrections and failures: they are not candidates any more. */
async function takeCandidates(
  session: Session,
  saved: SaveResult,
  note: SessionNote | null,
  sessionId: string | null,
  failures: SnapshotInput["failure_graph"],
): Promise<void> {
  if (saved.snapshot.kind !== "full" || !note || !sessionId || !hasCandidates(note)) return;
  const taken = { constraints: note.constraints ?? [], failures };
  const projectId = saved.snapshot.project_id;
  await session.write((w) =>
    changeSignalRow(w, projectId, (s) => withNote(s, sessionId, session.now(), (n) => consumed(n, taken))),
  );
}

/**
 * The final save of an agent session, judged by what happened in the project since its newest
 * snapshot, whichever hook saw it, not by what the closing hook logged itself: "skip" when nothing
 * did after this session's own snapshot (the one with the turn's reply stays); "save" when a file
 * of the working tree changed since (work through a shell command leaves Layer 1 as it was, and is
 * saved all the same, cooldown or not). `calls`: tool calls since the last save, as every hook
 * counted them, plus those the closing hook found new.
 */
function finalSave(
  newest: SnapshotRecord | null,
  root: string | null,
  calls: number,
  sessionId: string | null,
): "skip" | "save" | "as-usual" {
  if (!newest) return "as-usual";
  if (gitChangedSince(root, Date.parse(newest.created_at))) return "save";
  const own = !!sessionId && newest.auto_trigger?.session_id === sessionId;
  return own && calls === 0 ? "skip" : "as-usual";
}

/**
 * A session that only read and answered (no edit, no plan, no call that may write, nothing changed
 * in the working tree since the newest snapshot) about a question of its own, not the newest's
 * task: a snapshot of it would replace the project's task with the question, so it writes none.
 */
function answeredOnly(
  facts: TranscriptFacts,
  newest: SnapshotRecord | null,
  root: string | null,
  sessionId: string | null,
): boolean {
  if (!newest || facts.edited_files.length || facts.patches.length || facts.todos?.length) return false;
  if (!onlyRead(facts)) return false;
  if (carriesOnNewest(facts, newest, intentOf(facts), sessionId)) return false;
  return !gitChangedSince(root, Date.parse(newest.created_at));
}

/** Without a snapshot to carry them, the session's abandoned approaches go straight into the project's graph. */
async function recordWithoutSnapshot(
  session: Session,
  projectId: string | null,
  abandoned: SnapshotInput["failure_graph"],
): Promise<null> {
  if (projectId && Object.keys(abandoned).length)
    await session.write((w) => recordAbandoned(w, projectId, abandoned, session.now()));
  return null;
}

/**
 * Writes an auto-snapshot from the transcript, unless there is nothing to say: no work, the user
 * said not to save, the session only answered a question (answeredOnly), or the same Layer 1 as
 * the newest snapshot with no new Layer 2 candidates (corrections, failures, abandoned approaches).
 * `overflow`: Layer 1 only, pointing at the full snapshot it extends. `final`: the session's end
 * (see finalSave), with the tool calls the closing hook logged; `workOnly`: only work is saved.
 */
export async function writeAuto(
  session: Session,
  facts: TranscriptFacts,
  hook: HookFacts,
  reason: string,
  opts: { overflow?: boolean; force?: boolean; final?: { logged: number; workOnly?: boolean } },
): Promise<SaveResult | null> {
  // A snapshot that knows less than the newest one must never become "latest": skip it.
  if (!hasWork(facts)) return null;
  // `mindsave config checkpoints off`: the hooks write no checkpoint of their own either.
  if ((await getSetting(session, "checkpoints")) === "off") return null;
  const { projectId, newest, full, root, signal, sessionId, note } = await autoSources(session, facts, hook);
  if (note?.no_save) return null;
  // A session's end is a moment it moved on from what it had not got working.
  const abandoned = await freshAbandoned(session, projectId, abandonedApproaches(facts, !!opts.final));
  if (answeredOnly(facts, newest, root, sessionId))
    return recordWithoutSnapshot(session, projectId, abandoned);
  // The agent's own checkpoint, saved as its last act, stays the newest snapshot.
  if (agentCheckpointStands(facts, newest, root)) return recordWithoutSnapshot(session, projectId, abandoned);
  const learned = Object.keys(abandoned).length > 0 && !opts.overflow;
  const end = opts.final
    ? finalSave(newest, root, signal.tool_calls_since_save + opts.final.logged, sessionId)
    : "as-usual";
  if (!learned && (end === "skip" || (opts.final?.workOnly && end !== "save"))) return null;
  const input = autoSnapshotInput(facts, {
    ...hook,
    sessionId,
    newest,
    full,
    root,
    reason,
    toolCalls: signal.tool_calls_since_save,
    note,
    abandoned,
  });
  const candidates = (hasCandidates(note) || learned) && !opts.overflow;
  if (!opts.force && end !== "save" && !candidates && sameLayer1(input, newest, root)) return null;
  const saved = await saveOrOverflow(session, input, full, !!opts.overflow);
  await takeCandidates(session, saved, note, sessionId, input.failure_graph);
  return saved;
}
