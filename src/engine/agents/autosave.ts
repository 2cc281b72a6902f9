// Auto-snapshots built deterministically from what the agent did (its transcript), and the hook
// flows that write them: post-tool-use (pressure), pre-compact, stop and session-end.
import { spawnSync } from "node:child_process";
import { UserError } from "../../errors.ts";
import { emptyInput, type SnapshotInput } from "../snapshots/input.ts";
import { saveSnapshot, type SaveResult } from "../snapshots/save.ts";
import { selectSnapshot, loadSnapshot } from "../snapshots/restore.ts";
import { cooldownOver, decideAutoSave, fromStored, recompute, recordToolCall, recordTurn, type SignalState } from "./signal.ts";
import { actionFor, appendToolCalls } from "./toollog.ts";
import { lastUsage, readTranscript, toolTarget, type TranscriptFacts } from "./transcript.ts";
import { isAbsoluteAny, toStoredPath } from "../projects/paths.ts";
import type { Session } from "../session.ts";
import type { SnapshotRecord } from "../../store/store.ts";

export const DEFAULT_CONTEXT_WINDOW = 200_000;

/** The model's context window: MINDSAVE_CONTEXT_WINDOW, 1M for a `[1m]` model, else 200k. */
export function contextWindow(model: string | null, env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = Number(env.MINDSAVE_CONTEXT_WINDOW);
  if (Number.isFinite(fromEnv) && fromEnv > 1000) return fromEnv;
  if (model && /\[1m\]|-1m\b/i.test(model)) return 1_000_000;
  return DEFAULT_CONTEXT_WINDOW;
}

function oneLine(text: string, max = 240): string {
  const first = text.replace(/\s+/g, " ").trim();
  if (first.length <= max) return first;
  const cut = first.slice(0, max);
  const stop = Math.max(cut.lastIndexOf(". "), cut.lastIndexOf("。"));
  return (stop > 60 ? cut.slice(0, stop + 1) : cut.replace(/\s+\S*$/, "") + "…").trim();
}

function gitDiffStat(root: string | null): string {
  if (!root) return "";
  try {
    const r = spawnSync("git", ["-C", root, "diff", "--stat", "HEAD"], { encoding: "utf8", timeout: 1500, stdio: ["ignore", "pipe", "ignore"] });
    return r.status === 0 ? r.stdout.trimEnd() : "";
  } catch {
    return "";
  }
}

/**
 * A snapshot from the transcript: goal from the newest snapshot or else the first prompt; state
 * and next action from the latest TodoWrite list; active files from Edit/Write/MultiEdit; Layer 3
 * from the last tool calls and file changes. Layer 2 carries over from the newest snapshot, so an
 * auto-snapshot restores everything the last manual one did.
 */
export function autoSnapshotInput(facts: TranscriptFacts, newestAny: SnapshotRecord | null, root: string | null, reason: string, toolCallsSinceLast: number): SnapshotInput {
  const input = emptyInput();
  // The newest snapshot speaks for this session only if it was saved during it; a snapshot from an
  // earlier session is another task, and this session's first prompt says what this one is about.
  const savedIn = newestAny?.auto_trigger?.session_id;
  const sameSession = !newestAny ? false
    : savedIn ? savedIn === facts.session_id
    : !facts.first_prompt || !facts.started_at || newestAny.created_at >= facts.started_at;
  const newest = sameSession ? newestAny : null;
  const todos = facts.todos ?? [];
  const doing = todos.find((t) => t.status === "in_progress");
  const pending = todos.find((t) => t.status === "pending");
  const done = todos.filter((t) => t.status === "completed");
  input.goal = newest?.goal || oneLine(facts.first_prompt ?? "") || "Continue the current task";
  if (doing) input.state = oneLine(`In progress: ${doing.activeForm || doing.content} (${done.length}/${todos.length} steps done)`);
  else if (todos.length) input.state = oneLine(`${done.length}/${todos.length} steps done`);
  else {
    const last = facts.tool_uses.at(-1);
    input.state = oneLine(last ? `Last action: ${last.name} ${toolTarget(last)} (${facts.tool_uses.length} tool calls this session)` : "No tool calls yet this session");
  }
  input.next_action = pending ? oneLine(pending.content) : doing ? oneLine(doing.content) : newest?.next_action || "Review the latest changes and continue";
  const files = [...facts.edited_files].reverse().slice(0, 10);
  input.active_files = files.map((f) => (root && isAbsoluteAny(f) ? toStoredPath(f, root, root) : f));
  input.blocker = newest?.status === "blocked" ? newest.blocker : "none";
  // Constraints and decisions are the project's knowledge: they carry over from any newest snapshot.
  if (newestAny) {
    input.constraints = [...newestAny.constraints];
    input.decisions = [...newestAny.decisions];
  }
  input.topic = newest?.topic.replace(/^(ovf_)+/i, "") || undefined;
  input.auto_trigger = { reason, tool_calls_since_last: toolCallsSinceLast, ...(facts.session_id ? { session_id: facts.session_id } : {}) };
  const l3: string[] = [];
  if (done.length) l3.push("### Completed Steps", ...done.map((t, i) => `${i + 1}. ${t.content}`));
  const changes = facts.patches.map((p) => ` ${root && isAbsoluteAny(p.path) ? toStoredPath(p.path, root, root) : p.path} | +${p.added} -${p.removed}`);
  const stat = gitDiffStat(root);
  if (changes.length || stat) l3.push("", "### File Changes", ...(changes.length ? changes : []), ...(stat ? ["", "git diff --stat:", stat] : []));
  const recent = facts.tool_uses.slice(-5);
  if (recent.length) l3.push("", "### Recent Tool Calls", ...recent.map((t, i) => `${i + 1}. ${t.name} ${toolTarget(t)}${t.is_error ? " (failed)" : ""}`));
  input.layer3 = l3.join("\n").trim();
  return input;
}

/** The same Layer 1 as the newest snapshot: nothing to save. */
function sameLayer1(a: SnapshotInput, b: SnapshotRecord | null, root: string | null): boolean {
  if (!b) return false;
  const files = (xs: string[]) => xs.map((f) => (root ? toStoredPath(f, root, root) : f)).join("\n");
  return a.goal === b.goal && a.state === b.state && a.next_action === b.next_action && a.blocker === b.blocker && files(a.active_files) === b.active_files.map((f) => f.path).join("\n");
}

export interface HookPayload {
  session_id?: string;
  transcript_path?: string;
  cwd?: string;
  source?: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  tool_use_id?: string;
  trigger?: string;
  reason?: string;
  [k: string]: unknown;
}

export interface HookOutcome {
  /** JSON for the agent on stdout, or nothing. */
  output?: Record<string, unknown>;
  saved?: string;
}

async function newestSnapshot(session: Session, projectId: string): Promise<SnapshotRecord | null> {
  const sel = await selectSnapshot(session, projectId, undefined, { latest: true });
  return sel.kind === "snapshot" ? sel.snapshot : null;
}

/** session-start: the newest snapshot's restore block as additional context; nothing without one. */
export async function onSessionStart(session: Session, p: HookPayload): Promise<HookOutcome> {
  const ctx = await session.project({ create: false });
  if (!ctx) return {};
  const newest = await newestSnapshot(session, ctx.project.id);
  // A new session starts its own turn and tool-call counts.
  await session.write(async (w) => {
    const s = fromStored((await w.getSignal(ctx.project.id))?.data) as SignalState & { session_id?: string | null };
    if (p.session_id && s.session_id !== p.session_id) {
      await w.putSignal(ctx.project.id, { ...recompute({ ...s, turn: 0, recent_tool_calls: [] }, session.now()), session_id: p.session_id } as unknown as Record<string, unknown>);
    }
  });
  if (!newest) return {};
  // After a resume or a compaction the agent carries on; a fresh start or /clear may be about
  // something else, so there the block is offered as context, not as an order to continue.
  const r = await loadSnapshot(session, newest, ctx, { resume: p.source === "resume" || p.source === "compact" || !p.source });
  // Once per session: which project this checkout was taken as, when it could be several.
  const notice = session.notices.length ? { systemMessage: `MindSave: ${session.notices.join(" ")}` } : {};
  return { output: { ...notice, hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: r.block.text } } };
}

/** Did this session do anything a snapshot could say? A missing, lagging or Q&A-only transcript did not. */
export function hasWork(facts: TranscriptFacts): boolean {
  return facts.tool_uses.length > 0 || (facts.todos?.length ?? 0) > 0 || facts.edited_files.length > 0;
}

async function writeAuto(session: Session, facts: TranscriptFacts, reason: string, opts: { overflow?: boolean; force?: boolean }): Promise<SaveResult | null> {
  // A snapshot that knows less than the newest one must never become "latest": skip it.
  if (!hasWork(facts)) return null;
  const ctx = await session.project({ create: false });
  const newest = ctx ? await newestSnapshot(session, ctx.project.id) : null;
  const root = ctx?.root ?? session.workspace(false)?.root ?? null;
  const signal = ctx ? fromStored((await session.store.getSignal(ctx.project.id))?.data) : fromStored(null);
  const input = autoSnapshotInput(facts, newest, root, reason, signal.tool_calls_since_save);
  if (!opts.force && sameLayer1(input, newest, root)) return null;
  try {
    return await saveSnapshot(session, { input, overflow: opts.overflow, auto: true });
  } catch (e) {
    // Over budget even as an auto-snapshot: keep Layer 1 only rather than lose the checkpoint.
    if (e instanceof UserError && !opts.overflow) return saveSnapshot(session, { input, overflow: true, auto: true });
    throw e;
  }
}

/**
 * post-tool-use: count the call, read the real context fill from the transcript, recompute the
 * pressure; YELLOW writes a checkpoint (with the cooldown), RED an emergency Layer 1 snapshot.
 */
export async function onPostToolUse(session: Session, p: HookPayload): Promise<HookOutcome> {
  const usage = p.transcript_path ? lastUsage(p.transcript_path) : null;
  const now = session.now();
  const file = typeof p.tool_input?.file_path === "string" ? p.tool_input.file_path : null;
  const { signal, projectId } = await session.write(async (w) => {
    const ctx = await session.project({ create: true, w });
    let s = fromStored((await w.getSignal(ctx.project.id))?.data) as SignalState & { session_files?: string[] };
    s = recordToolCall(s, now);
    if (usage) s.estimated_tokens_ratio = Math.round((usage.context / contextWindow(usage.model, session.env)) * 1000) / 1000;
    const sessionFiles = new Set(s.session_files ?? []);
    if (file && ["Edit", "Write", "MultiEdit", "NotebookEdit"].includes(String(p.tool_name))) sessionFiles.add(file);
    s.session_files = [...sessionFiles].slice(-50);
    s.active_files = Math.max(s.active_files, sessionFiles.size);
    s = recompute(s, now) as typeof s;
    await w.putSignal(ctx.project.id, s as unknown as Record<string, unknown>);
    // The tool log is filled from the transcript (stop, pre-compact, session-end, ingest), where
    // every call has a stable id; logging here too would count each call twice.
    return { signal: s, projectId: ctx.project.id };
  });
  const decision = decideAutoSave(signal, now);
  if (decision.action === "none" || !p.transcript_path) return {};
  // One emergency save per cooldown: at RED every tool call would otherwise write another one.
  const lastEmergency = (signal as SignalState & { last_emergency_time?: string; last_emergency_turn?: number });
  if (decision.action === "emergency" && lastEmergency.last_emergency_time
    && !cooldownOver({ ...signal, last_auto_save_time: lastEmergency.last_emergency_time, last_auto_save_turn: lastEmergency.last_emergency_turn ?? signal.turn }, now)) return {};
  const facts = readTranscript(p.transcript_path);
  const saved = await writeAuto(session, facts, decision.reason, { overflow: decision.action === "emergency" });
  if (saved && decision.action === "emergency") {
    await session.write(async (w) => {
      const s = fromStored((await w.getSignal(projectId))?.data);
      await w.putSignal(projectId, { ...s, last_emergency_time: now.toISOString(), last_emergency_turn: s.turn } as unknown as Record<string, unknown>);
    });
  }
  if (!saved) return {};
  const pct = Math.round(signal.estimated_tokens_ratio * 100);
  return {
    saved: saved.snapshot.name,
    output: {
      systemMessage: decision.action === "emergency"
        ? `⚠️ Context overflow imminent (${pct}%). MindSave auto-saved ${saved.snapshot.name} (Layer 1). Start a new conversation with /load.`
        : `Context pressure rising (${pct}%). MindSave auto-checkpoint saved: ${saved.snapshot.name}.`,
    },
  };
}

/** pre-compact, stop, session-end: a snapshot from the transcript, and its tool calls into the tool log. */
export async function onCheckpoint(session: Session, p: HookPayload, event: "pre-compact" | "stop" | "session-end"): Promise<HookOutcome> {
  if (!p.transcript_path) return {};
  const facts = readTranscript(p.transcript_path);
  const now = session.now();
  const signal = await session.write(async (w) => {
    const ctx = await session.project({ create: true, w });
    await appendToolCalls(w, ctx.project.id, facts.tool_uses.map((t) => ({
      timestamp: t.timestamp || now.toISOString(), action: actionFor(t.name), tool: t.name, target: toolTarget(t),
      summary: t.is_error ? "failed" : "", session_id: facts.session_id ?? p.session_id ?? null, source_id: t.id || undefined,
    })));
    let s = fromStored((await w.getSignal(ctx.project.id))?.data);
    if (event === "stop") s = recordTurn(s, now);
    await w.putSignal(ctx.project.id, s as unknown as Record<string, unknown>);
    return s;
  });
  // Stop fires after every reply: it checkpoints only when the cooldown allows. Compaction and
  // the end of a session lose context, so they always save (unless nothing changed).
  if (event === "stop" && decideAutoSave({ ...signal, pressure_state: "YELLOW" }, now).action !== "checkpoint") return {};
  const reason = event === "pre-compact" ? `pre-compact${p.trigger ? `:${p.trigger}` : ""}` : event === "stop" ? "turn-end" : "session-end";
  const saved = await writeAuto(session, facts, reason, {});
  return saved ? { saved: saved.snapshot.name } : {};
}

/** `mindsave ingest TRANSCRIPT`: the transcript's tool calls into the project's tool log. */
export async function ingestTranscript(session: Session, path: string): Promise<{ added: number; seen: number; project: string }> {
  const facts = readTranscript(path);
  if (!facts.tool_uses.length && !facts.session_id) throw new UserError(`${path} holds no Claude Code transcript lines.`);
  const now = session.now().toISOString();
  return session.write(async (w) => {
    const ctx = await session.project({ create: true, w });
    const added = await appendToolCalls(w, ctx.project.id, facts.tool_uses.map((t) => ({
      timestamp: t.timestamp || now, action: actionFor(t.name), tool: t.name, target: toolTarget(t),
      summary: t.is_error ? "failed" : "", session_id: facts.session_id, source_id: t.id || undefined,
    })));
    return { added, seen: facts.tool_uses.length, project: ctx.project.name };
  });
}
