// Facts from a Claude Code transcript (JSONL, one object per line): the real context fill, the
// first user prompt, the latest TodoWrite list, the files edited, the tool calls and their patches.
// Deterministic: the same file gives the same facts.
import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";

export interface Todo {
  content: string;
  status: string;
  activeForm?: string;
}

export interface ToolUse {
  id: string;
  name: string;
  input: Record<string, unknown>;
  timestamp: string;
  is_error?: boolean;
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
}

export interface TranscriptFacts {
  session_id: string | null;
  /** The first line's timestamp: when this session began. */
  started_at: string | null;
  cwd: string | null;
  first_prompt: string | null;
  usage: Usage | null;
  todos: Todo[] | null;
  edited_files: string[];
  tool_uses: ToolUse[];
  patches: FilePatch[];
  compactions: number;
}

type Line = Record<string, any>;

function parseLine(text: string): Line | null {
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" ? v : null;
  } catch {
    return null; // a torn last line while the agent is still writing, or junk: skip it
  }
}

function usageOf(line: Line): Usage | null {
  const u = line?.message?.usage;
  if (line?.type !== "assistant" || !u || typeof u !== "object") return null;
  const n = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : 0);
  const input = n(u.input_tokens), read = n(u.cache_read_input_tokens), created = n(u.cache_creation_input_tokens);
  return {
    input_tokens: input, cache_read_input_tokens: read, cache_creation_input_tokens: created,
    model: typeof line.message.model === "string" ? line.message.model : null, context: input + read + created,
  };
}

/** The newest assistant usage, read from the end of the file only: fast on a long session. */
export function lastUsage(path: string, tailBytes = 512 * 1024): Usage | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    let end = size;
    let carry = "";
    while (end > 0) {
      const start = Math.max(0, end - tailBytes);
      const buf = Buffer.alloc(end - start);
      readSync(fd, buf, 0, buf.length, start);
      const chunk = buf.toString("utf8") + carry;
      const lines = chunk.split("\n");
      carry = start > 0 ? lines.shift() ?? "" : "";
      for (let i = lines.length - 1; i >= 0; i--) {
        if (!lines[i].includes('"usage"')) continue;
        const u = usageOf(parseLine(lines[i]) ?? {});
        if (u) return u;
      }
      end = start;
    }
    return null;
  } finally {
    closeSync(fd);
  }
}

function promptText(line: Line): string | null {
  if (line.type !== "user" || line.isMeta || line.isSidechain) return null;
  const c = line.message?.content;
  let text = "";
  if (typeof c === "string") text = c;
  else if (Array.isArray(c)) {
    if (c.some((b) => b?.type === "tool_result")) return null;
    text = c.filter((b) => b?.type === "text").map((b) => String(b.text ?? "")).join("\n");
  }
  text = text.trim();
  // Slash-command wrappers and caveats are the client's, not the person's words.
  if (!text || text.startsWith("<command-") || text.startsWith("<local-command") || text.startsWith("Caveat:")) return null;
  return text;
}

const EDIT_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);

export function readTranscript(path: string): TranscriptFacts {
  const facts: TranscriptFacts = {
    session_id: null, started_at: null, cwd: null, first_prompt: null, usage: null, todos: null,
    edited_files: [], tool_uses: [], patches: [], compactions: 0,
  };
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return facts;
  }
  const errors = new Set<string>();
  const lines = text.split("\n");
  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n];
    if (!raw.trim()) continue;
    const line = parseLine(raw);
    if (!line) continue;
    facts.started_at ??= typeof line.timestamp === "string" && line.timestamp ? line.timestamp : null;
    facts.session_id ??= typeof line.sessionId === "string" ? line.sessionId : null;
    facts.cwd ??= typeof line.cwd === "string" ? line.cwd : null;
    if (line.type === "system" && line.subtype === "compact_boundary") facts.compactions++;
    if (facts.first_prompt === null) facts.first_prompt = promptText(line);
    const usage = usageOf(line);
    if (usage) facts.usage = usage;
    const content = line.message?.content;
    if (Array.isArray(content)) {
      for (let b = 0; b < content.length; b++) {
        const block = content[b];
        if (block?.type === "tool_use" && typeof block.name === "string") {
          const input = block.input && typeof block.input === "object" ? block.input : {};
          // Without an id, the call's place in the file identifies it, so re-reading adds nothing.
          facts.tool_uses.push({ id: String(block.id ?? `line${n}.${b}`), name: block.name, input, timestamp: String(line.timestamp ?? "") });
          if (block.name === "TodoWrite" && Array.isArray(input.todos)) {
            facts.todos = input.todos.filter((t: any) => t && typeof t.content === "string").map((t: any) => ({ content: t.content, status: String(t.status ?? "pending"), activeForm: t.activeForm }));
          }
          if (EDIT_TOOLS.has(block.name)) {
            const file = input.file_path ?? input.notebook_path;
            if (typeof file === "string" && file) {
              facts.edited_files = facts.edited_files.filter((f) => f !== file);
              facts.edited_files.push(file);
            }
          }
        } else if (block?.type === "tool_result" && block.is_error && block.tool_use_id) {
          errors.add(String(block.tool_use_id));
        }
      }
    }
    const result = line.toolUseResult;
    if (result && typeof result === "object" && typeof result.filePath === "string" && Array.isArray(result.structuredPatch)) {
      let added = 0;
      let removed = 0;
      for (const hunk of result.structuredPatch) {
        for (const l of Array.isArray(hunk?.lines) ? hunk.lines : []) {
          if (typeof l !== "string") continue;
          if (l.startsWith("+")) added++;
          else if (l.startsWith("-")) removed++;
        }
      }
      const prev = facts.patches.find((p) => p.path === result.filePath);
      if (prev) {
        prev.added += added;
        prev.removed += removed;
      } else facts.patches.push({ path: result.filePath, added, removed });
    }
  }
  for (const t of facts.tool_uses) if (errors.has(t.id)) t.is_error = true;
  return facts;
}

/** What a tool call was about, in a few words: its file, command, pattern or URL. */
export function toolTarget(t: { name: string; input: Record<string, unknown> }): string {
  const i = t.input;
  const pick = (...keys: string[]) => keys.map((k) => i[k]).find((v) => typeof v === "string" && v) as string | undefined;
  if (t.name === "TodoWrite" && Array.isArray(i.todos)) return `${i.todos.length} todo(s)`;
  return (pick("file_path", "notebook_path", "path", "command", "pattern", "url", "query", "description", "prompt") ?? "").replace(/\s+/g, " ").slice(0, 300);
}
