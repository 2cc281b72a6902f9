// Reading the original's tool logs (tool_logs/*.jsonl) as the engine's tool calls; export uses the
// same line reader to see which calls are already on disk.
import { join } from "node:path";
import { actionFor, type ToolCallInput } from "../agents/toollog.ts";
import { isDir, listDirNoFollow } from "../../lib/fs.ts";
import { readTextNoFollowCapped } from "../../lib/bounded-read.ts";
import { instant, isObj, type Obj } from "./seed-layout.ts";

/**
 * The most bytes of one tool log (a day's, or a session's): 80,000 calls or so. Its calls are
 * held until the import writes them, at many times their size in memory.
 */
const TOOL_LOG_MAX = 8 * 1024 * 1024;

const TOOL_FIELDS = new Set(["timestamp", "action", "target", "summary", "tool", "session_id"]);

/** One tool-log line in the engine's terms (also used by export to see what is already on disk). */
export function toolCallFromLine(
  o: Obj,
  sessionFromFile: string | null,
): { call: ToolCallInput; extras: string[] } | null {
  const ts = instant(o.timestamp);
  if (!Number.isFinite(ts)) return null;
  const raw =
    typeof o.action === "string" && o.action.trim()
      ? o.action.trim()
      : typeof o.tool === "string"
        ? o.tool
        : "other";
  const action = actionFor(raw);
  const tool = typeof o.tool === "string" && o.tool.trim() ? o.tool.trim() : action !== raw ? raw : undefined;
  const extras = Object.keys(o).filter((k) => !TOOL_FIELDS.has(k));
  let summary =
    typeof o.summary === "string"
      ? o.summary
      : o.summary === undefined || o.summary === null
        ? ""
        : JSON.stringify(o.summary);
  // Fields the tool log has no column for are kept in the summary.
  if (extras.length)
    summary = [summary, JSON.stringify(Object.fromEntries(extras.map((k) => [k, o[k]])))]
      .filter(Boolean)
      .join(" ");
  const target =
    typeof o.target === "string"
      ? o.target
      : o.target === undefined || o.target === null
        ? ""
        : JSON.stringify(o.target);
  const session = typeof o.session_id === "string" && o.session_id ? o.session_id : sessionFromFile;
  return {
    call: { timestamp: new Date(ts).toISOString(), action, tool, target, summary, session_id: session },
    extras,
  };
}

/** The same identity appendToolCalls gives a call (without the session). */
export const toolKey = (c: {
  timestamp: string;
  action: string;
  tool?: string;
  target: string;
  summary?: string;
}) => `${c.timestamp}\0${c.tool ?? c.action}\0${c.target}\0${c.summary ?? ""}`;

/** A log named by date holds no session; the v2 skill named its logs by session id. */
const sessionFromFileName = (stem: string) => (/^\d{4}-?\d{2}-?\d{2}$/.test(stem) ? null : stem);

export function readToolLogs(dir: string, warnings: string[]): { calls: ToolCallInput[]; bad: number } {
  const calls: ToolCallInput[] = [];
  let bad = 0;
  for (const name of listDirNoFollow(dir)) {
    const path = join(dir, name);
    const file = `tool_logs/${name}`;
    if (!name.toLowerCase().endsWith(".jsonl") || isDir(path)) {
      warnings.push(`${file}: not a tool log (.jsonl file); not imported.`);
      continue;
    }
    let text: string;
    try {
      text = readTextNoFollowCapped(path, TOOL_LOG_MAX);
    } catch (e) {
      warnings.push(`${file}: cannot be read (${(e as Error).message}); not imported.`);
      continue;
    }
    const badLines: number[] = [];
    const extraFields = new Set<string>();
    const session = sessionFromFileName(name.replace(/\.jsonl$/i, ""));
    text
      .replace(/^\uFEFF/, "")
      .split(/\r?\n/)
      .forEach((line, i) => {
        if (!line.trim()) return;
        let o: unknown;
        try {
          o = JSON.parse(line);
        } catch {
          badLines.push(i + 1);
          return;
        }
        const parsed = isObj(o) ? toolCallFromLine(o, session) : null;
        if (!parsed) {
          badLines.push(i + 1);
          return;
        }
        for (const k of parsed.extras) extraFields.add(k);
        calls.push(parsed.call);
      });
    if (badLines.length) {
      bad += badLines.length;
      warnings.push(
        `${file}: line${badLines.length > 1 ? "s" : ""} ${badLines.join(", ")} ${badLines.length > 1 ? "are not tool calls" : "is not a tool call"} ({"timestamp","action","target","summary"} with a readable timestamp); not imported.`,
      );
    }
    if (extraFields.size)
      warnings.push(
        `${file}: fields ${[...extraFields].join(", ")} have no column in the tool log; kept at the end of each call's summary.`,
      );
  }
  return { calls, bad };
}
