// Facts from a Claude Code transcript (JSONL, one object per line): the real context fill, the
// first user prompt, the latest TodoWrite list, the files edited, the tool calls and their patches.
// Deterministic: the same file gives the same facts.
//
// Bounded work on any file: only a regular file is read (a FIFO, a device such as /dev/zero or a
// directory gives no facts), never more than HEAD_BYTES from its start plus TAIL_BYTES from its
// end, in chunks, a line at a time, so memory stays constant however long the session ran (a
// 500 MB transcript costs what a 9 MB one does). A file within HEAD_BYTES + TAIL_BYTES is read
// whole. Past that, the head gives only the session's identity (its id, start, cwd, first prompt)
// and everything else comes from the tail window: tool calls, edits, patches, compactions and
// TodoWrite lists older than the last TAIL_BYTES are not seen (`skipped_bytes` says how much was
// skipped), and of the tool calls only the newest MAX_TOOL_USES are kept (so an auto-snapshot's
// "N tool calls this session" counts those). Hooks run after every turn, so older calls were logged
// by earlier hooks; `ingest` of a long old transcript takes the newest calls of its tail window
// only. A tool call without an id is identified by its line's byte offset (`@offset.block`).
// Text that goes into snapshots and the tool log has its control characters removed here, and its
// secrets redacted before any of it is cut short (a secret cut in half is no longer recognised).
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { stripControl } from "../snapshots/input-limits.ts";
import { redactHead } from "../snapshots/redact.ts";

/** The start of a transcript read for its identity when the file is longer than the budget. */
export const HEAD_BYTES = 1024 * 1024;
/** The end of a transcript read for its facts. */
export const TAIL_BYTES = 8 * 1024 * 1024;
const CHUNK = 1024 * 1024;
/**
 * The input keys that name a tool call's target, in the order toolTarget picks them. Tool inputs are
 * kept only as far as a snapshot or the tool log shows them: these keys.
 */
export const TARGET_KEYS = [
  "file_path",
  "notebook_path",
  "path",
  "command",
  "pattern",
  "url",
  "query",
  "description",
  "prompt",
];
const INPUT_TEXT_MAX = 1000;
/** The most of a prompt, a todo or a path kept (a prompt becomes a one-line goal). */
const TEXT_MAX = 2000;
/** The newest tool calls kept: what one hook writes to the tool log is bounded too. */
export const MAX_TOOL_USES = 2000;
/** The most of a failed call's error kept: the failure graph's reason takes its first line or two. */
export const ERROR_MAX = 200;

export interface Todo {
  content: string;
  status: string;
  activeForm?: string;
}

export interface ToolUse {
  id: string;
  name: string;
  /** The input's short text fields (file, command, pattern, …; at most 1,000 characters each) and a TodoWrite's todos. */
  input: Record<string, unknown>;
  timestamp: string;
  is_error?: boolean;
  /** A failed call's error, as its result gave it (cleaned, at most ERROR_MAX characters), where a reader keeps it. */
  error?: string;
}

export interface FilePatch {
  path: string;
  added: number;
  removed: number;
}

export interface Usage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  model: string | null;
  /** input + cache read + cache creation: what the model saw. */
  context: number;
  /** The model's context window when the transcript records it (Codex's token_count). */
  window?: number;
}

export interface TranscriptFacts {
  session_id: string | null;
  /** The first line's timestamp: when this session began. */
  started_at: string | null;
  cwd: string | null;
  first_prompt: string | null;
  /** The newest prompt, where a reader tracks it (not Claude Code's: its snapshots never used one). */
  last_prompt?: string | null;
  /** The user's prompts read (the newest MAX_PROMPTS), where a reader keeps them: their rules go to Layer 2. */
  prompts?: string[];
  /**
   * The agent's newest reply that no tool call followed (the turn's last words, as Stop's payload
   * gives them): PreCompact and SessionEnd payloads carry none. Where a reader tracks it.
   */
  last_reply?: string | null;
  usage: Usage | null;
  todos: Todo[] | null;
  edited_files: string[];
  tool_uses: ToolUse[];
  patches: FilePatch[];
  compactions: number;
  /** Bytes between the head and the tail window that were not read (0: the whole file was read). */
  skipped_bytes: number;
}

/** A parsed JSONL line: whatever the agent wrote, read through narrowing. */
export type Line = Record<string, unknown>;

/** A JSON object, or undefined: how a reader looks inside a line's fields. */
export function objectOf(v: unknown): Line | undefined {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Line) : undefined;
}

const num = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : 0);

/** Facts that know nothing yet. */
export function emptyFacts(): TranscriptFacts {
  return {
    session_id: null,
    started_at: null,
    cwd: null,
    first_prompt: null,
    usage: null,
    todos: null,
    edited_files: [],
    tool_uses: [],
    patches: [],
    compactions: 0,
    skipped_bytes: 0,
  };
}

export function parseLine(text: string): Line | null {
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" ? v : null;
  } catch {
    return null; // a torn last line while the agent is still writing, or junk: skip it
  }
}

function usageOf(line: Line): Usage | null {
  const message = objectOf(line.message);
  const u = objectOf(message?.usage);
  if (line.type !== "assistant" || !message || !u) return null;
  const input = num(u.input_tokens),
    read = num(u.cache_read_input_tokens),
    created = num(u.cache_creation_input_tokens);
  // A `<synthetic>` line (an interruption, an API error) carries zero usage: not a measurement.
  if (message.model === "<synthetic>" || input + read + created === 0) return null;
  return {
    input_tokens: input,
    cache_read_input_tokens: read,
    cache_creation_input_tokens: created,
    model: typeof message.model === "string" ? message.model : null,
    context: input + read + created,
  };
}

/**
 * Runs `fn` on a transcript opened for reading with its size, or gives `fallback`: for a missing
 * file and for anything that is not a regular file (opened non-blocking, so a FIFO cannot hang us).
 */
export function withTranscript<T>(path: string, fallback: T, fn: (fd: number, size: number) => T): T {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return fallback;
  }
  try {
    const st = fstatSync(fd);
    return st.isFile() ? fn(fd, st.size) : fallback;
  } catch {
    return fallback;
  } finally {
    closeSync(fd);
  }
}

/**
 * Each line of bytes [start, end) of `fd` with its byte offset, read CHUNK bytes at a time, so no
 * line is longer than the window. A line that began before `start` is skipped; a last line without
 * its newline is given only `atEof` (else it goes on past the window).
 */
function eachLine(
  fd: number,
  start: number,
  end: number,
  atEof: boolean,
  fn: (text: string, offset: number) => void,
): void {
  const buf = Buffer.allocUnsafe(CHUNK);
  let parts: Buffer[] = [];
  let lineStart = start;
  // From the byte before the window: when that is a newline, the window starts with a whole line.
  let skipping = start > 0;
  for (let pos = skipping ? start - 1 : start; pos < end;) {
    const n = readSync(fd, buf, 0, Math.min(CHUNK, end - pos), pos);
    if (n <= 0) break;
    const chunk = buf.subarray(0, n);
    let from = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, from)) {
      if (!skipping) {
        parts.push(chunk.subarray(from, nl));
        fn(Buffer.concat(parts).toString("utf8"), lineStart);
      }
      parts = [];
      skipping = false;
      from = nl + 1;
      lineStart = pos + from;
    }
    if (!skipping && from < n) parts.push(Buffer.from(chunk.subarray(from))); // copied: buf is reused
    pos += n;
  }
  if (atEof && !skipping && parts.length) fn(Buffer.concat(parts).toString("utf8"), lineStart);
}

/**
 * The end of a transcript lastUsage reads first. The newest usage is nearly always in the last few
 * KB (a reply, then its tool's result); a long result after it costs a wider window, read again.
 */
const USAGE_WINDOW = 16 * 1024;

/** The newest assistant usage, read from the end of the file only (at most `tailBytes`): fast on a long session. */
export function lastUsage(path: string, tailBytes = TAIL_BYTES): Usage | null {
  return withTranscript(path, null, (fd, size) => {
    // Widened fourfold while the window holds neither a usage nor a compaction.
    for (let window = Math.min(USAGE_WINDOW, tailBytes); ; window = Math.min(window * 4, tailBytes)) {
      const start = Math.max(0, size - window);
      let found: Usage | null = null;
      let compacted = false;
      eachLine(fd, start, size, true, (text) => {
        if (!text.includes('"usage"') && !text.includes("compact_boundary")) return;
        const line = parseLine(text) ?? {};
        const u = usageOf(line);
        if (u) [found, compacted] = [u, false];
        else if (line.type === "system" && line.subtype === "compact_boundary")
          [found, compacted] = [null, true];
      });
      // A usage from before the newest compaction measures a context that no longer exists.
      if (found || compacted || start === 0 || window >= tailBytes) return found;
    }
  });
}

function promptText(line: Line): string | null {
  if (line.type !== "user" || line.isMeta || line.isSidechain || line.isCompactSummary) return null;
  const c = objectOf(line.message)?.content;
  let text = "";
  if (typeof c === "string") text = c;
  else if (Array.isArray(c)) {
    const blocks = c.map((b) => objectOf(b) ?? {});
    if (blocks.some((b) => b.type === "tool_result")) return null;
    text = blocks
      .filter((b) => b.type === "text")
      .map((b) => String(b.text ?? ""))
      .join("\n");
  }
  text = redactHead(text, TEXT_MAX, stripControl).trim();
  // Slash-command wrappers and caveats are the client's, not the person's words.
  if (
    !text ||
    text.startsWith("<command-") ||
    text.startsWith("<local-command") ||
    text.startsWith("Caveat:")
  )
    return null;
  // Nor are an interruption marker and a compaction's summary (also without its flag) a prompt.
  if (
    text.startsWith("[Request interrupted by user") ||
    text.startsWith("This session is being continued from a previous conversation")
  )
    return null;
  return text;
}

const EDIT_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);

const str = (v: unknown): string | null => (typeof v === "string" ? stripControl(v) : null);
/** A text as facts keep it: control characters stripped, secrets redacted, at most `max` characters. */
export const clean = (v: string, max = TEXT_MAX): string => redactHead(v, max, stripControl);

/** The parts of a tool's input that facts and `toolTarget` use, without control characters or secrets. */
export function slimInput(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of TARGET_KEYS)
    if (typeof input[k] === "string") out[k] = clean(input[k] as string, INPUT_TEXT_MAX);
  if (Array.isArray(input.todos)) {
    out.todos = input.todos.flatMap((v: unknown) => {
      const t = objectOf(v);
      if (typeof t?.content !== "string") return [];
      return [
        {
          content: clean(t.content),
          status: stripControl(String(t.status ?? "pending")),
          activeForm: typeof t.activeForm === "string" ? clean(t.activeForm) : undefined,
        },
      ];
    });
  }
  return out;
}

/** The most prompts facts keep: the newest ones. */
const MAX_PROMPTS = 20;

/** A user's prompt into the facts' list, the oldest dropped beyond MAX_PROMPTS. */
export function keepPrompt(facts: TranscriptFacts, prompt: string): void {
  const list = (facts.prompts ??= []);
  list.push(prompt);
  if (list.length > MAX_PROMPTS) list.shift();
}

/** The longest reply kept: the snapshot uses its first 1,000 characters. */
export const REPLY_MAX = 4000;

/** An assistant message's blocks: its text is the last reply, until a tool call follows it. */
function replyOf(facts: TranscriptFacts, content: unknown[]): void {
  const blocks = content.map((b) => objectOf(b) ?? {});
  if (blocks.some((b) => b.type === "tool_use")) facts.last_reply = null;
  const text = blocks
    .flatMap((b) => (b.type === "text" && typeof b.text === "string" ? [b.text] : []))
    .join("\n")
    .trim();
  if (text) facts.last_reply = text.slice(0, REPLY_MAX);
}

/** An edit's `toolUseResult`: its file with the lines its structured patch added and removed. */
function structuredPatch(v: unknown): FilePatch | null {
  const result = objectOf(v);
  if (typeof result?.filePath !== "string" || !Array.isArray(result.structuredPatch)) return null;
  let added = 0;
  let removed = 0;
  for (const hunk of result.structuredPatch) {
    const lines = objectOf(hunk)?.lines;
    for (const l of Array.isArray(lines) ? lines : []) {
      if (typeof l !== "string") continue;
      if (l.startsWith("+")) added++;
      else if (l.startsWith("-")) removed++;
    }
  }
  return { path: clean(result.filePath), added, removed };
}

/** The text of a tool result's content: a string, or its text blocks. */
const resultText = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((b) => String(objectOf(b)?.text ?? "")).join("\n")
      : "";

/**
 * Claude Code's task list from TaskCreate and TaskUpdate (the plan of 2.1.x, which writes no
 * TodoWrite): a task's id is in its TaskCreate's result (`toolUseResult.task.id`, or the result's
 * text "Task #7 created successfully: …"); TaskUpdate names it by `taskId`.
 */
class TaskList {
  private readonly byId = new Map<string, Todo>();
  /** TaskCreate calls by their tool_use id, until their result gives the task's id. */
  private readonly awaiting = new Map<string, Todo>();

  create(callId: string, input: Line): void {
    if (typeof input.subject !== "string" || !input.subject.trim()) return;
    const activeForm = typeof input.activeForm === "string" ? clean(input.activeForm) : undefined;
    this.awaiting.set(callId, {
      content: clean(input.subject),
      status: "pending",
      ...(activeForm ? { activeForm } : {}),
    });
  }

  /** A tool result: true when it was a TaskCreate's and added its task. */
  created(block: Line, line: Line): boolean {
    const callId = String(block.tool_use_id ?? "");
    const task = this.awaiting.get(callId);
    if (!task || block.is_error) return false;
    this.awaiting.delete(callId);
    const given = objectOf(objectOf(line.toolUseResult)?.task)?.id;
    const id =
      given !== undefined ? String(given) : /Task #(\S+) created/.exec(resultText(block.content))?.[1];
    if (!id) return false;
    this.byId.set(id, task);
    return true;
  }

  /** A TaskUpdate: true when it named a known task (a "deleted" one leaves the list). */
  update(input: Line): boolean {
    const id = String(input.taskId ?? "");
    const task = this.byId.get(id);
    if (!task) return false;
    if (input.status === "deleted") return this.byId.delete(id);
    if (typeof input.status === "string") task.status = stripControl(input.status);
    if (typeof input.subject === "string" && input.subject.trim()) task.content = clean(input.subject);
    if (typeof input.activeForm === "string") task.activeForm = clean(input.activeForm);
    return true;
  }

  get todos(): Todo[] {
    return [...this.byId.values()].map((t) => ({ ...t }));
  }
}

/** Collects facts line by line; `identity` lines (the head of a long file) give only who and when. */
class Collector {
  readonly facts: TranscriptFacts = emptyFacts();
  /** Failed calls by their tool_use id, with their error text. */
  private errors = new Map<string, string>();
  // Insertion order is recency: an edited file is deleted and added again.
  private edited = new Set<string>();
  private patches = new Map<string, FilePatch>();
  private tasks = new TaskList();

  add(raw: string, offset: number, identity: boolean): void {
    if (!raw.trim()) return;
    const line = parseLine(raw);
    if (!line) return;
    this.identity(line);
    if (identity) return;
    const prompt = promptText(line);
    if (prompt) keepPrompt(this.facts, clean(prompt));
    if (line.type === "system" && line.subtype === "compact_boundary") this.facts.compactions++;
    const usage = usageOf(line);
    if (usage) this.facts.usage = usage;
    const message = objectOf(line.message);
    const content = Array.isArray(message?.content) ? message.content : [];
    // (A `<synthetic>` line is Claude Code's stand-in after an interruption, not the agent's words.)
    if (line.type === "assistant" && !line.isSidechain && message?.model !== "<synthetic>" && content.length)
      replyOf(this.facts, content);
    content.forEach((b, i) => this.block(objectOf(b) ?? {}, line, `@${offset}.${i}`));
    const patch = structuredPatch(line.toolUseResult);
    if (patch) this.patch(patch);
  }

  /** Who and when (the head of a long file gives only these): the first value of each wins. */
  private identity(line: Line): void {
    const facts = this.facts;
    facts.started_at ??= typeof line.timestamp === "string" && line.timestamp ? line.timestamp : null;
    facts.session_id ??= str(line.sessionId);
    facts.cwd ??= typeof line.cwd === "string" ? line.cwd : null;
    if (facts.first_prompt === null) facts.first_prompt = promptText(line);
  }

  /** A message block: a tool call, or a tool result (one that failed; one that created a task). */
  private block(block: Line, line: Line, place: string): void {
    if (block.type === "tool_use" && typeof block.name === "string") this.toolUse(block, line, place);
    if (block.type !== "tool_result") return;
    if (block.is_error && block.tool_use_id)
      this.errors.set(String(block.tool_use_id), clean(resultText(block.content), ERROR_MAX));
    if (this.tasks.created(block, line)) this.facts.todos = this.tasks.todos;
  }

  private patch(p: FilePatch): void {
    const prev = this.patches.get(p.path);
    if (prev) {
      prev.added += p.added;
      prev.removed += p.removed;
    } else this.patches.set(p.path, p);
  }

  /** `place`: the line's byte offset and the block's index, the id of a call that has none. */
  private toolUse(block: Line, line: Line, place: string): void {
    const input = slimInput(objectOf(block.input) ?? {});
    const name = clean(String(block.name), 200);
    // Without an id, the call's place in the file identifies it, so re-reading adds nothing.
    const uses = this.facts.tool_uses;
    uses.push({
      id: String(block.id ?? place),
      name,
      input,
      timestamp: stripControl(String(line.timestamp ?? "")),
    });
    if (uses.length >= 2 * MAX_TOOL_USES) uses.splice(0, uses.length - MAX_TOOL_USES);
    if (name === "TodoWrite" && Array.isArray(input.todos)) this.facts.todos = input.todos as Todo[];
    const raw = objectOf(block.input) ?? {};
    if (name === "TaskCreate") this.tasks.create(String(block.id ?? place), raw);
    if (name === "TaskUpdate" && this.tasks.update(raw)) this.facts.todos = this.tasks.todos;
    if (EDIT_TOOLS.has(name)) {
      const file = input.file_path ?? input.notebook_path;
      if (typeof file === "string" && file) {
        this.edited.delete(file);
        this.edited.add(file);
      }
    }
  }

  done(): TranscriptFacts {
    this.facts.tool_uses = this.facts.tool_uses.slice(-MAX_TOOL_USES);
    for (const t of this.facts.tool_uses) failedWith(t, this.errors);
    this.facts.edited_files = [...this.edited];
    this.facts.patches = [...this.patches.values()];
    return this.facts;
  }
}

/** Marks a call failed, with its error text, when `errors` holds it. */
export function failedWith(t: ToolUse, errors: Map<string, string>): void {
  if (!errors.has(t.id)) return;
  t.is_error = true;
  const error = errors.get(t.id);
  if (error) t.error = error;
}

/**
 * Each line of a transcript within the read budget, with its byte offset: the whole file when it
 * is at most `head + tail` bytes, else the first `head` bytes as `identity` lines (who and when
 * only) and the last `tail` bytes. Gives the bytes skipped between the two, or null for a missing
 * file or anything not a regular file. Every agent's reader goes through here.
 */
export function scanLines(
  path: string,
  budget: { head?: number; tail?: number },
  fn: (text: string, offset: number, identity: boolean) => void,
): number | null {
  const head = budget.head ?? HEAD_BYTES,
    tail = budget.tail ?? TAIL_BYTES;
  return withTranscript(path, null as number | null, (fd, size) => {
    if (size <= head + tail) {
      eachLine(fd, 0, size, true, (text, at) => fn(text, at, false));
      return 0;
    }
    eachLine(fd, 0, head, false, (text, at) => fn(text, at, true));
    eachLine(fd, size - tail, size, true, (text, at) => fn(text, at, false));
    return size - tail - head;
  });
}

/**
 * The facts of a transcript, within the read budget: the whole file when it is at most
 * `head + tail` bytes, else its identity from the first `head` bytes and its facts from the last
 * `tail` bytes (see the top of this file for what that leaves out).
 */
export function readTranscript(path: string, budget: { head?: number; tail?: number } = {}): TranscriptFacts {
  const c = new Collector();
  const skipped = scanLines(path, budget, (text, at, identity) => c.add(text, at, identity));
  if (skipped === null) return c.facts;
  const facts = c.done();
  facts.skipped_bytes = skipped;
  return facts;
}

/** What a tool call was about, in a few words: its file, command, pattern or URL. */
export function toolTarget(t: { name: string; input: Record<string, unknown> }): string {
  const i = t.input;
  const pick = (...keys: string[]) =>
    keys.map((k) => i[k]).find((v) => typeof v === "string" && v) as string | undefined;
  if (t.name === "TodoWrite" && Array.isArray(i.todos)) return `${i.todos.length} todo(s)`;
  return (pick(...TARGET_KEYS) ?? "").replace(/\s+/g, " ").slice(0, 300);
}
