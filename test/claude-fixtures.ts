// Claude Code as the hooks meet it: transcripts written line by line in the shape Claude Code
// writes them (assistant lines with message.usage, tool_use and tool_result blocks, TodoWrite,
// `<synthetic>` lines, interruptions, compaction boundaries and summaries), hook payloads with the
// fields the hooks reference documents for each event, and a laptop with MindSave on it.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { gitRepo, laptop, run, tempDir, type RunResult } from "./helpers.ts";

export type Line = Record<string, unknown>;
export type Todo = { content: string; status: "pending" | "in_progress" | "completed"; activeForm: string };

/** The usage of an assistant reply whose prompt held `context` tokens (mostly read from the cache). */
export function usage(context: number): Record<string, unknown> {
  return {
    input_tokens: 8,
    cache_creation_input_tokens: 1_200,
    cache_read_input_tokens: context - 1_208,
    output_tokens: 310,
    service_tier: "standard",
  };
}

/** One session's transcript file, appended to as the session goes on. */
export class Transcript {
  readonly path: string;
  private clock: number;
  private parent: string | null = null;
  private n = 0;
  private readonly model: string;

  constructor(
    dir: string,
    readonly cwd: string,
    readonly sessionId = "sess-1",
    opts: { startedAt?: number; model?: string } = {},
  ) {
    this.path = join(dir, `${sessionId}-${crypto.randomUUID()}.jsonl`);
    this.clock = opts.startedAt ?? Date.now() - 10 * 60_000;
    this.model = opts.model ?? "claude-opus-4-5-20251101";
    writeFileSync(this.path, "");
  }

  private line(type: string, extra: Line): Line {
    const uuid = crypto.randomUUID();
    const l = {
      parentUuid: this.parent,
      isSidechain: false,
      userType: "external",
      cwd: this.cwd,
      sessionId: this.sessionId,
      version: "2.1.220",
      gitBranch: "main",
      type,
      uuid,
      timestamp: new Date((this.clock += 1000)).toISOString(),
      ...extra,
    };
    this.parent = uuid;
    appendFileSync(this.path, JSON.stringify(l) + "\n");
    return l;
  }

  prompt(text: string): this {
    this.line("user", { message: { role: "user", content: text } });
    return this;
  }

  /** An assistant reply with text only. */
  reply(text: string, context?: number): this {
    this.line("assistant", {
      requestId: `req_${++this.n}`,
      message: {
        id: `msg_${this.n}`,
        type: "message",
        role: "assistant",
        model: this.model,
        content: [{ type: "text", text }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: usage(context ?? 20_000),
      },
    });
    return this;
  }

  /** A tool call and its result; returns the tool_use id. */
  tool(
    name: string,
    input: Record<string, unknown>,
    context: number,
    result: { error?: string; patch?: { file: string; lines: string[] }; toolUseResult?: Line } = {},
  ): string {
    const id = `toolu_${String(++this.n).padStart(4, "0")}${crypto.randomUUID().slice(0, 8)}`;
    this.line("assistant", {
      requestId: `req_${this.n}`,
      message: {
        id: `msg_${this.n}`,
        type: "message",
        role: "assistant",
        model: this.model,
        content: [{ type: "tool_use", id, name, input }],
        stop_reason: "tool_use",
        stop_sequence: null,
        usage: usage(context),
      },
    });
    const toolUseResult = result.patch
      ? {
          filePath: result.patch.file,
          oldString: "",
          newString: "",
          structuredPatch: [
            {
              oldStart: 1,
              oldLines: 1,
              newStart: 1,
              newLines: result.patch.lines.length,
              lines: result.patch.lines,
            },
          ],
          userModified: false,
          replaceAll: false,
        }
      : result.error
        ? `Error: ${result.error}`
        : (result.toolUseResult ?? { stdout: "ok", stderr: "", interrupted: false, isImage: false });
    this.line("user", {
      message: {
        role: "user",
        content: [
          {
            tool_use_id: id,
            type: "tool_result",
            content: result.error ?? "ok",
            ...(result.error ? { is_error: true } : {}),
          },
        ],
      },
      toolUseResult,
    });
    return id;
  }

  todos(todos: Todo[], context: number): string {
    return this.tool("TodoWrite", { todos }, context, { toolUseResult: { oldTodos: [], newTodos: todos } });
  }

  /** What Claude Code writes after an interruption or an API error: a `<synthetic>` reply with zero usage. */
  synthetic(text = "No response requested."): this {
    this.line("assistant", {
      message: {
        id: crypto.randomUUID(),
        type: "message",
        role: "assistant",
        model: "<synthetic>",
        content: [{ type: "text", text }],
        stop_reason: "stop_sequence",
        stop_sequence: "",
        usage: {
          input_tokens: 0,
          output_tokens: 0,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          server_tool_use: { web_search_requests: 0 },
          service_tier: null,
        },
      },
      isApiErrorMessage: false,
    });
    return this;
  }

  interrupted(): this {
    this.line("user", {
      message: { role: "user", content: [{ type: "text", text: "[Request interrupted by user]" }] },
    });
    return this;
  }

  /** A compaction: the boundary, then the summary Claude Code puts in as a user line. */
  compact(
    trigger: "auto" | "manual" = "auto",
    summary = "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below: Analysis: the user asked for rate limiting…",
  ): this {
    this.line("system", {
      subtype: "compact_boundary",
      content: "Conversation compacted",
      isMeta: false,
      level: "info",
      compactMetadata: { trigger, preTokens: 171_000 },
    });
    this.line("user", {
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
      message: { role: "user", content: summary },
    });
    return this;
  }
}

/** The payload Claude Code sends a hook: the common fields plus the event's own. */
export function payload(
  event: string,
  t: { sessionId: string; path: string | null; cwd: string },
  fields: Line = {},
): Line {
  return {
    session_id: t.sessionId,
    transcript_path: t.path,
    cwd: t.cwd,
    permission_mode: "default",
    hook_event_name: event,
    ...fields,
  };
}

export const events = {
  sessionStart: (source: "startup" | "resume" | "clear" | "compact" | "fork", model?: string): Line => ({
    source,
    ...(model ? { model } : {}),
  }),
  prompt: (prompt: string): Line => ({ prompt }),
  postToolUse: (tool_name: string, tool_input: Line, tool_use_id: string): Line => ({
    tool_name,
    tool_input,
    tool_response: { stdout: "ok", stderr: "", interrupted: false, isImage: false },
    tool_use_id,
    duration_ms: 412,
  }),
  postToolUseFailure: (tool_name: string, tool_input: Line, tool_use_id: string, error: string): Line => ({
    tool_name,
    tool_input,
    tool_use_id,
    error,
    is_interrupt: false,
    duration_ms: 4187,
  }),
  preCompact: (trigger: "auto" | "manual"): Line => ({ trigger, custom_instructions: "" }),
  stop: (last_assistant_message: string): Line => ({
    stop_hook_active: false,
    last_assistant_message,
    background_tasks: [],
    session_crons: [],
  }),
  sessionEnd: (reason = "prompt_input_exit"): Line => ({ reason }),
};

/** The hook argument each Claude Code event runs. */
export const HOOK_ARG: Record<string, string> = {
  SessionStart: "session-start",
  UserPromptSubmit: "user-prompt-submit",
  PostToolUse: "post-tool-use",
  PostToolUseFailure: "post-tool-use-failure",
  PreCompact: "pre-compact",
  Stop: "stop",
  SessionEnd: "session-end",
};

/** The field a matcher filters for each event (the hooks reference's table). */
const MATCHED: Record<string, string> = {
  SessionStart: "source",
  PostToolUse: "tool_name",
  PostToolUseFailure: "tool_name",
  PreCompact: "trigger",
  SessionEnd: "reason",
};

function matches(matcher: unknown, value: unknown): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  const m = String(matcher);
  if (/^[A-Za-z0-9_\- ,|]+$/.test(m))
    return m
      .split(/[|,]/)
      .map((x) => x.trim())
      .includes(String(value));
  return new RegExp(m).test(String(value));
}

/** A laptop with a git project and MindSave's local home; `exe` is the binary under test. */
export function claudeLaptop(exe: string) {
  const base = tempDir("mindsave-claude-");
  const repo = gitRepo(join(base, "shop"), {
    "src/auth.ts": "export const auth = 1;\n",
    "src/login.tsx": "a\n",
    "src/limit.ts": "export {};\n",
  });
  const pc = laptop("agent-laptop", base);
  const home = join(pc.home, ".mindsave");
  const cli = (args: string[], env: Record<string, string> = {}) =>
    run(args, { cwd: repo, env: { ...pc.env, ...env }, bin: [exe] });
  const json = async (args: string[]) => JSON.parse((await cli(["--json", ...args])).stdout);
  /** Runs `mindsave hook ARG` directly with a payload (or raw stdin text). */
  const hook = (arg: string, body: Line | string, env: Record<string, string> = {}): Promise<RunResult> =>
    run(["hook", arg], {
      cwd: repo,
      env: { ...pc.env, ...env },
      bin: [exe],
      stdin:
        typeof body === "string"
          ? body
          : JSON.stringify({ session_id: "sess-1", cwd: repo, hook_event_name: arg, ...body }),
    });
  /**
   * What Claude Code does for `event`: every installed hook whose matcher matches runs with the
   * payload on stdin through the shell, as the settings file says. The outputs, in order.
   */
  const fire = (event: string, body: Line): RunResult[] => {
    const settings = JSON.parse(readFileSync(join(pc.home, ".claude", "settings.json"), "utf8"));
    const out: RunResult[] = [];
    for (const group of settings.hooks?.[event] ?? []) {
      if (!matches(group.matcher, body[MATCHED[event] ?? ""])) continue;
      for (const h of group.hooks) {
        const r = spawnSync("sh", ["-c", h.command], {
          cwd: repo,
          input: JSON.stringify(body),
          encoding: "utf8",
          env: { ...process.env, ...pc.env, CLAUDE_PROJECT_DIR: repo },
          timeout: h.timeout * 1000,
        });
        out.push({ code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr });
      }
    }
    return out;
  };
  const skillsInstalled = () => existsSync(join(pc.home, ".claude", "skills", "load", "SKILL.md"));
  return { base, repo, pc, home, db: join(home, "mindsave.db"), cli, json, hook, fire, skillsInstalled };
}
