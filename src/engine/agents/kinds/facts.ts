// Builds TranscriptFacts for the agents whose transcripts are not Claude Code's (Codex, Gemini,
// Copilot, Cursor) and from the hooks' own trail: the same bounded rules as transcript.ts (texts
// cleaned and redacted before they are cut, the newest MAX_TOOL_USES calls kept, edited files in
// order of recency).
import { isAbsolute, resolve } from "node:path";
import {
  ERROR_MAX,
  MAX_TOOL_USES,
  REPLY_MAX,
  clean,
  emptyFacts,
  failedWith,
  keepPrompt,
  objectOf,
  slimInput,
  type FilePatch,
  type Todo,
  type TranscriptFacts,
  type Usage,
} from "../transcript.ts";
import { stripControl } from "../../snapshots/input-limits.ts";

export class FactsBuilder {
  readonly facts: TranscriptFacts = emptyFacts();
  private readonly errors = new Map<string, string>();
  private readonly edited = new Set<string>();
  private readonly patches = new Map<string, FilePatch>();

  /** Who and when: the first value given wins. */
  identity(id: { session_id?: unknown; started_at?: unknown; cwd?: unknown }): void {
    const f = this.facts;
    if (typeof id.session_id === "string" && id.session_id) f.session_id ??= clean(id.session_id, 200);
    if (typeof id.started_at === "string" && id.started_at)
      f.started_at ??= stripControl(id.started_at).slice(0, 40);
    if (typeof id.cwd === "string" && id.cwd) f.cwd ??= id.cwd;
  }

  /** A person's prompt: the first one is the session's, the last one the newest. */
  prompt(raw: string, identity = false): void {
    const t = clean(raw).trim();
    if (!t) return;
    this.facts.first_prompt ??= t;
    if (identity) return;
    this.facts.last_prompt = t;
    keepPrompt(this.facts, t);
  }

  /** The agent's reply: the last one stands until a tool call follows it (see TranscriptFacts.last_reply). */
  reply(raw: string): void {
    const t = raw.trim();
    if (t) this.facts.last_reply = t.slice(0, REPLY_MAX);
  }

  /** A tool call: its input as facts keep it (the short text fields; `todos` lists), with a stable id. */
  tool(id: string, name: string, input: Record<string, unknown>, timestamp: string): void {
    const uses = this.facts.tool_uses;
    this.facts.last_reply = null;
    uses.push({ id, name: clean(name, 200), input: slimInput(input), timestamp: stripControl(timestamp) });
    if (uses.length >= 2 * MAX_TOOL_USES) uses.splice(0, uses.length - MAX_TOOL_USES);
  }

  /** A failed call, with its error text when the transcript gives one. */
  failed(id: string, error = ""): void {
    this.errors.set(id, clean(error, ERROR_MAX));
  }

  /** An edited file; a relative path is taken from `cwd` when that is known. */
  edit(path: string, cwd?: string | null): string {
    const p = clean(cwd && !isAbsolute(path) && isAbsolute(cwd) ? resolve(cwd, path) : path);
    this.edited.delete(p);
    this.edited.add(p);
    return p;
  }

  patch(path: string, added: number, removed: number): void {
    const prev = this.patches.get(path);
    if (prev) {
      prev.added += added;
      prev.removed += removed;
    } else this.patches.set(path, { path, added, removed });
  }

  todos(list: Todo[]): void {
    this.facts.todos = list.map((t) => ({
      content: clean(t.content),
      status: stripControl(t.status),
      ...(t.activeForm ? { activeForm: clean(t.activeForm) } : {}),
    }));
  }

  usage(u: Usage): void {
    this.facts.usage = u;
  }

  compaction(): void {
    this.facts.compactions++;
  }

  done(skipped = 0): TranscriptFacts {
    const f = this.facts;
    f.tool_uses = f.tool_uses.slice(-MAX_TOOL_USES);
    for (const t of f.tool_uses) failedWith(t, this.errors);
    f.edited_files = [...this.edited];
    f.patches = [...this.patches.values()];
    f.skipped_bytes = skipped;
    return f;
  }
}

/** A todo status as the snapshot's plan knows them (pending, in_progress, completed; others kept). */
export function todoStatus(s: unknown): string {
  const v =
    typeof s === "string"
      ? s
          .trim()
          .toLowerCase()
          .replace(/[\s-]+/g, "_")
      : "";
  return v === "done" || v === "complete"
    ? "completed"
    : v === "inprogress" || v === "active"
      ? "in_progress"
      : v || "pending";
}

/**
 * A patch text anywhere in a tool input (`{input}`, `{command}`, or the input itself: Copilot's
 * apply_patch arguments are the raw patch string).
 */
export function patchIn(v: unknown): string | null {
  if (typeof v === "string") return v.includes("*** Begin Patch") ? v : null;
  const o = objectOf(v);
  if (!o) return null;
  for (const x of Object.values(o)) {
    const p =
      typeof x === "string" ? patchIn(x) : Array.isArray(x) ? (x.map(patchIn).find(Boolean) ?? null) : null;
    if (p) return p;
  }
  return null;
}

/** The files an apply_patch text touches (`*** Add/Update/Delete File:`, `*** Move to:`), with its added and removed lines. */
export function patchFiles(patch: string): { path: string; added: number; removed: number }[] {
  const out: { path: string; added: number; removed: number }[] = [];
  let cur: { path: string; added: number; removed: number } | null = null;
  for (const line of patch.split("\n")) {
    const m = /^\*\*\* (?:(Add|Update|Delete) File|Move to): (.+)$/.exec(line.trimEnd());
    if (m) {
      if (m[1] || !cur) out.push((cur = { path: m[2].trim(), added: 0, removed: 0 }));
      else cur.path = m[2].trim();
      continue;
    }
    if (!cur || line.startsWith("***") || line.startsWith("@@")) continue;
    if (line.startsWith("+")) cur.added++;
    else if (line.startsWith("-")) cur.removed++;
  }
  return out;
}

/** The added and removed lines of a unified diff. */
export function diffCounts(diff: string): { added: number; removed: number } {
  let added = 0,
    removed = 0;
  for (const l of diff.split("\n")) {
    if (l.startsWith("+++") || l.startsWith("---")) continue;
    if (l.startsWith("+")) added++;
    else if (l.startsWith("-")) removed++;
  }
  return { added, removed };
}

/** The text of a message's content: a string, or text parts (`{text}` / `{type:"text"|"input_text", text}`). */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  const parts = Array.isArray(content) ? content : content && typeof content === "object" ? [content] : [];
  return parts
    .map((v: unknown) => {
      if (typeof v === "string") return v;
      const p = objectOf(v);
      return typeof p?.text === "string" && (!p.type || /text/.test(String(p.type))) ? p.text : "";
    })
    .filter(Boolean)
    .join("\n");
}
