// For agents whose hooks give no transcript we can read (Cline, opencode; Cursor's CLI and
// Copilot CLI when the file says nothing), the hooks keep a trail of the session in its note: the
// prompts, the last tool calls with their targets, the edited files and the task list. A snapshot
// is then built from that trail instead of a transcript. Bounded: a few dozen items per session.
import { hasWork, sessionNote } from "../auto-snapshot.ts";
import { sessionKey, type HookPayload } from "../hook-payload.ts";
import { callTarget, withNote, type SessionNote, type Trail } from "../session-notes.ts";
import { changeSignalRow } from "../signal-row.ts";
import { clean, emptyFacts, ERROR_MAX, objectOf, TARGET_KEYS, type TranscriptFacts } from "../transcript.ts";
import { todoStatus } from "./facts.ts";
import { record, text, type HookEvent, type TranscriptSource } from "./kind.ts";
import { redactDeep } from "../../snapshots/redact.ts";
import type { Session } from "../../session.ts";
import type { StoreWriter } from "../../../store/store.ts";
import { currentWorkspace, resolveProject } from "../../projects/resolve.ts";

const KEEP_TOOLS = 20;
const KEEP_FILES = 20;
const KEEP_TODOS = 30;

/** A task list in a tool's input: `todos` [{content|description, status}] or Cline's `task_progress` checklist. */
export function todosIn(input: Record<string, unknown>): { content: string; status: string }[] | null {
  if (Array.isArray(input.todos)) {
    const list = input.todos
      .map((v: unknown) => {
        const t = objectOf(v);
        return { content: text(t?.content) ?? text(t?.description) ?? "", status: todoStatus(t?.status) };
      })
      .filter((t) => t.content);
    return list.length ? list : null;
  }
  const progress = text(input.task_progress);
  if (!progress) return null;
  const list = progress
    .split("\n")
    .map((l) => /^\s*[-*]\s*\[([ xX])\]\s*(.+)$/.exec(l))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => ({ content: m[2].trim(), status: m[1] === " " ? "pending" : "completed" }));
  // The first open step is the one in progress.
  const open = list.find((t) => t.status === "pending");
  if (open) open.status = "in_progress";
  return list.length ? list : null;
}

/** The note with what this event's payload adds to the trail. */
export function noteTrail(
  n: SessionNote,
  event: HookEvent,
  p: HookPayload,
  src: TranscriptSource,
  now: Date,
): SessionNote {
  const t: Trail = { ...(n.trail ?? {}) };
  t.started ??= now.toISOString();
  const prompt = typeof p.prompt === "string" ? clean(p.prompt, 1000).trim() : "";
  if (prompt && (event === "user-prompt-submit" || event === "session-start")) {
    t.first_prompt ??= prompt;
    t.last_prompt = prompt;
  }
  const tool = typeof p.tool_name === "string" ? clean(p.tool_name, 200) : "";
  // A failure's error, its first lines: the reason an approach abandoned is recorded with (abandoned.ts).
  const failed =
    event === "post-tool-use-failure" ? { error: clean(String(p.error ?? ""), ERROR_MAX).trim() } : null;
  if (tool && (event === "post-tool-use" || event === "post-tool-use-failure"))
    trailTool(t, tool, record(p.tool_input) ?? {}, failed, src, now);
  return { ...n, trail: t };
}

/** A tool call into the trail: the call with its target; a call that succeeded, its edited files and task list too. */
function trailTool(
  t: Trail,
  tool: string,
  input: Record<string, unknown>,
  failed: { error: string } | null,
  src: TranscriptSource,
  now: Date,
): void {
  const field = TARGET_KEYS.find((k) => typeof input[k] === "string" && input[k]);
  const target = callTarget(tool, input).slice(0, 300);
  t.tools = [
    ...(t.tools ?? []),
    {
      name: tool,
      ...(field && target ? { field } : {}),
      target,
      at: now.toISOString(),
      ...(failed ? { failed: true, ...(failed.error ? { error: failed.error } : {}) } : {}),
    },
  ].slice(-KEEP_TOOLS);
  if (failed) return;
  const files = src.editedFiles(tool, input).map((f) => clean(f));
  if (files.length)
    t.files = [...(t.files ?? []).filter((f) => !files.includes(f)), ...files].slice(-KEEP_FILES);
  const todos = todosIn(input);
  if (todos)
    t.todos = todos.slice(0, KEEP_TODOS).map((x) => ({ content: clean(x.content, 300), status: x.status }));
}

/** The events whose payloads carry something for the trail (a prompt, a tool call). */
const TRAILED = new Set<HookEvent>([
  "session-start",
  "user-prompt-submit",
  "post-tool-use",
  "post-tool-use-failure",
]);

/**
 * Trails of sessions in a folder that is no project yet (a plain folder before its first save, a
 * repository before its first commit): kept in this store's meta (never synced), redacted, by
 * session id, until a save makes the project; the session's first task is then not lost. With the
 * model SessionStart named (its context window: Claude Code's "[1m]"). At most KEEP_PENDING, the
 * oldest go first.
 */
const PENDING = "pending_trails";
const KEEP_PENDING = 16;
type PendingTrails = Record<string, { trail?: Trail; model?: string; seen: string }>;

/** The newest KEEP_PENDING sessions' entries. */
const newestPending = (all: PendingTrails): PendingTrails =>
  Object.fromEntries(
    Object.entries(all)
      .sort((a, b) => (a[1].seen < b[1].seen ? 1 : -1))
      .slice(0, KEEP_PENDING),
  );

async function pendingTrails(q: { getMeta(key: string): Promise<string | null> }): Promise<PendingTrails> {
  try {
    const v = JSON.parse((await q.getMeta(PENDING)) ?? "{}");
    return v && typeof v === "object" && !Array.isArray(v) ? (v as PendingTrails) : {};
  } catch {
    return {};
  }
}

/** The trail a session kept before its folder was a project, if any. */
export async function pendingTrail(session: Session, sessionId: string | null): Promise<Trail | undefined> {
  return sessionId ? (await pendingTrails(session.reader))[sessionId]?.trail : undefined;
}

/** The note with what waited for the project: the trail and the model, where it has none of its own. */
function withPending(n: SessionNote, waiting: PendingTrails[string] | undefined): SessionNote {
  if (!waiting) return n;
  return { ...n, trail: n.trail ?? waiting.trail, model: n.model ?? waiting.model };
}

/** Remembers the model a session started with while its folder is no project yet. */
export async function rememberPendingModel(
  w: StoreWriter,
  sessionId: string,
  model: string,
  now: Date,
): Promise<void> {
  const all = await pendingTrails(w);
  all[sessionId] = { ...all[sessionId], model, seen: now.toISOString() };
  await w.setMeta(PENDING, JSON.stringify(newestPending(all)));
}

/** The model a session started with before its folder was a project, if any. */
export async function pendingModel(
  q: { getMeta(key: string): Promise<string | null> },
  sessionId: string | null,
): Promise<string | undefined> {
  return sessionId ? (await pendingTrails(q))[sessionId]?.model : undefined;
}

/** Adds this event to the session's trail (one transaction); nothing without a session id. */
export async function recordTrail(
  session: Session,
  event: HookEvent,
  p: HookPayload,
  src: TranscriptSource,
): Promise<void> {
  const sessionId = sessionKey(p.session_id);
  if (!sessionId || !src.trail || !TRAILED.has(event)) return;
  const now = session.now();
  // As session-start does: a project is made here only for a workspace with its own identity. A
  // plain folder's trail waits in the meta until a save makes its project.
  if (!currentWorkspace(session, false) && !(await resolveProject(session, { create: false }))) {
    await session.write(async (w) => {
      const all = await pendingTrails(w);
      const trail = noteTrail(
        { seen: now.toISOString(), trail: all[sessionId]?.trail },
        event,
        p,
        src,
        now,
      ).trail!;
      all[sessionId] = { ...all[sessionId], trail: redactDeep(trail) as Trail, seen: now.toISOString() };
      await w.setMeta(PENDING, JSON.stringify(newestPending(all)));
    });
    return;
  }
  await session.write(async (w) => {
    const ctx = await resolveProject(session, { create: true, w });
    const all = await pendingTrails(w);
    const waiting = all[sessionId];
    await changeSignalRow(w, ctx.project.id, (s) =>
      withNote(s, sessionId, now, (n) => noteTrail(withPending(n, waiting), event, p, src, now)),
    );
    if (waiting) {
      delete all[sessionId];
      await w.setMeta(PENDING, JSON.stringify(all));
    }
  });
}

/** Facts from a session's trail: its prompts, the calls it made (stable ids: the tool log adds each once), its files and list. */
export function trailFacts(trail: Trail | undefined, sessionId: string | null): TranscriptFacts {
  const f = emptyFacts();
  if (!trail) return f;
  f.session_id = sessionId;
  f.started_at = trail.started ?? null;
  f.first_prompt = trail.first_prompt ?? null;
  f.last_prompt = trail.last_prompt ?? null;
  f.tool_uses = (trail.tools ?? []).map((u) => ({
    id: `${u.at}|${u.name}|${u.target}`,
    name: u.name,
    timestamp: u.at,
    input: u.field ? { [u.field]: u.target } : {},
    ...(u.failed ? { is_error: true, ...(u.error ? { error: u.error } : {}) } : {}),
  }));
  f.edited_files = [...(trail.files ?? [])];
  f.todos = trail.todos?.length ? trail.todos.map((t) => ({ ...t })) : null;
  return f;
}

/** A payload the source can read facts from: a transcript path, or a session the trail follows. */
export function canRead(src: TranscriptSource, p: HookPayload): boolean {
  return !!p.transcript_path || (src.trail && typeof p.session_id === "string" && !!p.session_id);
}

/** The session's facts: the transcript's when it has any work in it, else the trail's. */
export async function factsFor(
  session: Session,
  src: TranscriptSource,
  p: HookPayload,
): Promise<TranscriptFacts> {
  const facts = src.facts(p);
  if (!src.trail || hasWork(facts)) return facts;
  const sessionId = sessionKey(p.session_id);
  return trailFacts(
    (await sessionNote(session, sessionId))?.trail ?? (await pendingTrail(session, sessionId)),
    sessionId,
  );
}
