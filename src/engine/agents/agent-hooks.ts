// Which of each agent's own hook events MindSave listens to, and as which of its own events
// (`mindsave hook <EVENT> --agent <ID>`); where each agent keeps its hooks, in which format, with
// which timeout unit; and what each agent lacks. Data, read by the installers (`hooks install
// --agent`), by `mindsave agents`, and by the hook runtime. Sources, checked 2026-09:
//   codex    openai/codex codex-rs/config/src/hook_config.rs, codex-rs/hooks/src/engine/discovery.rs
//   gemini   google-gemini/gemini-cli@5411f11 docs/hooks/index.md, packages/core/src/hooks/hookRunner.ts
//   copilot  github/docs content/copilot/reference/hooks-reference.md
//   cursor   cursor.com/docs/agent/hooks, cursor.com/docs/reference/third-party-hooks
//   cline    cline/cline@21cb8d2 apps/vscode/src/core/hooks/{utils,hook-factory}.ts, .clinerules/hooks/README.md
//   opencode anomalyco/opencode packages/plugin/src/index.ts, packages/web/src/content/docs/plugins.mdx
import { join } from "node:path";
import { home, type AgentId, type Place, type Scope } from "./registry.ts";

/** One of MindSave's hook events (HOOK_ARGS below). */
export type HookEvent =
  | "session-start"
  | "user-prompt-submit"
  | "pre-tool-use"
  | "post-tool-use"
  | "post-tool-use-failure"
  | "pre-compact"
  | "stop"
  | "session-end";

export interface AgentHookEvent {
  /** The agent's own event name (for Cline the script's name, for opencode the plugin hook). */
  event: string;
  arg: HookEvent;
  /** The agent's matcher; none means every occurrence. */
  matcher?: string;
  /** In the agent's own unit (`timeoutUnit`); none: the agent's default. */
  timeout?: number;
}

/** How the hooks are written: Claude-style matcher groups, flat entries, executables, a JS plugin. */
export type HookFormat = "claude" | "grouped" | "flat" | "scripts" | "plugin";

export interface AgentHooksSpec {
  agent: AgentId;
  format: HookFormat;
  /** The file (for Cline the folder) of a scope; null where the agent has no such scope. */
  file: (scope: Scope, p: Place) => string | null;
  timeoutUnit: "s" | "ms" | "fixed 30 s" | "none";
  events: AgentHookEvent[];
  /** Which of MindSave's events the agent has no hook for, and other limits of its hooks. */
  lacks: string[];
  /** Where this agent also runs Claude Code's hooks: with both installed, both would fire. */
  runsClaudeHooks?: Scope[];
  /** What the user must do before the hooks run, printed by install. */
  afterInstall?: string;
}

/**
 * The tools Claude Code's PreToolUse runs for: those whose input proposes an approach (a command,
 * a file written, an MCP call). Reads and searches would each start a process for nothing.
 */
export const PRE_TOOL_MATCHER = "Bash|Write|Edit|MultiEdit|NotebookEdit|mcp__.*";

// Claude Code's events, as `hooks install` writes them into its settings (hooks.ts); their args are
// what `mindsave hook EVENT` accepts, for every agent (kept here, apart from the installer, so the
// hook runtime loads none of it). PreToolUse is synchronous too (its context must come before the
// tool runs); it never denies.
// PostToolUse stays synchronous: its warnings must reach the user (an async hook's systemMessage
// is not shown) and its emergency snapshot must be written before the context is lost.
// PostToolUseFailure only counts failures in the signal, so it runs in the background.
export const HOOK_EVENTS: readonly {
  event: string;
  matcher?: string;
  arg: string;
  timeout: number;
  async?: true;
}[] = [
  { event: "SessionStart", matcher: "startup|resume|clear|compact|fork", arg: "session-start", timeout: 10 },
  { event: "UserPromptSubmit", arg: "user-prompt-submit", timeout: 10 },
  { event: "PreToolUse", matcher: PRE_TOOL_MATCHER, arg: "pre-tool-use", timeout: 5 },
  { event: "PostToolUse", matcher: "", arg: "post-tool-use", timeout: 5 },
  { event: "PostToolUseFailure", matcher: "", arg: "post-tool-use-failure", timeout: 5, async: true },
  { event: "PreCompact", matcher: "manual|auto", arg: "pre-compact", timeout: 10 },
  { event: "Stop", arg: "stop", timeout: 10 },
  { event: "SessionEnd", arg: "session-end", timeout: 10 },
];

/** What `mindsave hook EVENT` accepts. */
export const HOOK_ARGS = HOOK_EVENTS.map((h) => h.arg);

const inProject = (p: Place, ...parts: string[]) => (p.root ? join(p.root, ...parts) : null);
const codexHome = (env: NodeJS.ProcessEnv) => env.CODEX_HOME || join(home(env), ".codex");
const copilotHome = (env: NodeJS.ProcessEnv) => env.COPILOT_HOME || join(home(env), ".copilot");
const xdgConfig = (env: NodeJS.ProcessEnv) => env.XDG_CONFIG_HOME || join(home(env), ".config");

export const AGENT_HOOKS: readonly AgentHooksSpec[] = [
  {
    agent: "claude",
    format: "claude",
    file: (scope, p) =>
      scope === "user"
        ? join(home(p.env), ".claude", "settings.json")
        : inProject(p, ".claude", "settings.json"),
    timeoutUnit: "s",
    // Written by hooks.ts from its own HOOK_EVENTS, which this list mirrors.
    events: [
      {
        event: "SessionStart",
        arg: "session-start",
        matcher: "startup|resume|clear|compact|fork",
        timeout: 10,
      },
      { event: "UserPromptSubmit", arg: "user-prompt-submit", timeout: 10 },
      { event: "PreToolUse", arg: "pre-tool-use", matcher: PRE_TOOL_MATCHER, timeout: 5 },
      { event: "PostToolUse", arg: "post-tool-use", matcher: "", timeout: 5 },
      { event: "PostToolUseFailure", arg: "post-tool-use-failure", matcher: "", timeout: 5 },
      { event: "PreCompact", arg: "pre-compact", matcher: "manual|auto", timeout: 10 },
      { event: "Stop", arg: "stop", timeout: 10 },
      { event: "SessionEnd", arg: "session-end", timeout: 10 },
    ],
    lacks: [],
  },
  {
    // hooks.json beside each config layer (Codex also reads [hooks] in config.toml; see hooks-json.ts).
    agent: "codex",
    format: "grouped",
    file: (scope, p) =>
      scope === "user" ? join(codexHome(p.env), "hooks.json") : inProject(p, ".codex", "hooks.json"),
    timeoutUnit: "s",
    events: [
      { event: "SessionStart", arg: "session-start", timeout: 10 },
      { event: "UserPromptSubmit", arg: "user-prompt-submit", timeout: 10 },
      // Its additionalContext reaches the model (codex-rs/hooks/src/events/pre_tool_use.rs).
      { event: "PreToolUse", arg: "pre-tool-use", timeout: 5 },
      { event: "PostToolUse", arg: "post-tool-use", timeout: 5 },
      { event: "PreCompact", arg: "pre-compact", timeout: 10 },
      { event: "Stop", arg: "stop", timeout: 10 },
      // Codex caps SessionEnd at 3 s (codex-rs/hooks/src/events/session_end.rs); killed later, a
      // save rolls back whole, and Stop and PreCompact have saved already.
      { event: "SessionEnd", arg: "session-end", timeout: 3 },
    ],
    lacks: [
      "no tool-failure event",
      "PreCompact cannot add context",
      "new hooks are skipped until the user trusts them (/hooks); project hooks need a trusted project",
    ],
    afterInstall:
      "Codex skips new hooks until you trust them: start codex and approve MindSave's hooks in /hooks (or the \"Hooks need review\" screen), or run `mindsave hooks install --agent codex --trust` to trust them through Codex's app-server now; after an upgrade that changes them, do it again.",
  },
  {
    agent: "gemini",
    format: "grouped",
    file: (scope, p) =>
      scope === "user"
        ? join(home(p.env), ".gemini", "settings.json")
        : inProject(p, ".gemini", "settings.json"),
    timeoutUnit: "ms",
    events: [
      { event: "SessionStart", arg: "session-start", timeout: 10000 },
      { event: "BeforeAgent", arg: "user-prompt-submit", timeout: 10000 },
      { event: "AfterTool", arg: "post-tool-use", timeout: 5000 },
      { event: "PreCompress", arg: "pre-compact", timeout: 10000 },
      { event: "AfterAgent", arg: "stop", timeout: 10000 },
      { event: "SessionEnd", arg: "session-end", timeout: 10000 },
    ],
    lacks: [
      "no tool-failure event",
      "BeforeTool cannot add context (it only blocks or rewrites the call): no repeat warning before a tool runs",
      "no event after compression (PreCompress is advisory)",
      "plain hook output reaches the user, not the model",
      "project hooks run only in trusted folders and warn when they change",
    ],
  },
  {
    // A file of MindSave's own in the hooks folder; Copilot runs every *.json there.
    agent: "copilot",
    format: "flat",
    file: (scope, p) =>
      scope === "user"
        ? join(copilotHome(p.env), "hooks", "mindsave.json")
        : inProject(p, ".github", "hooks", "mindsave.json"),
    timeoutUnit: "s",
    events: [
      { event: "sessionStart", arg: "session-start", timeout: 10 },
      { event: "userPromptSubmitted", arg: "user-prompt-submit", timeout: 10 },
      // An error or a timeout here denies the tool (changelog 1.0.57): the hook always exits 0, within 4 s.
      { event: "preToolUse", arg: "pre-tool-use", timeout: 5 },
      { event: "postToolUse", arg: "post-tool-use", timeout: 5 },
      // postToolUse fires only for a call that succeeded; a failed one comes here.
      { event: "postToolUseFailure", arg: "post-tool-use-failure", timeout: 5 },
      { event: "preCompact", arg: "pre-compact", timeout: 10 },
      { event: "agentStop", arg: "stop", timeout: 10 },
      { event: "sessionEnd", arg: "session-end", timeout: 10 },
    ],
    lacks: [
      "preCompact only notifies (no context added)",
      "sessionStart context needs v1.0.11+ and only the last hook's is kept",
      "userPromptSubmitted context needs v1.0.65+, preToolUse context v1.0.24+",
    ],
    runsClaudeHooks: ["project"],
  },
  {
    agent: "cursor",
    format: "flat",
    file: (scope, p) =>
      scope === "user" ? join(home(p.env), ".cursor", "hooks.json") : inProject(p, ".cursor", "hooks.json"),
    // cursor.com/docs/hooks: `timeout` is "Execution timeout in seconds".
    timeoutUnit: "s",
    events: [
      { event: "sessionStart", arg: "session-start", timeout: 10 },
      { event: "beforeSubmitPrompt", arg: "user-prompt-submit", timeout: 10 },
      { event: "postToolUse", arg: "post-tool-use", timeout: 5 },
      // postToolUse fires only for a call that succeeded; a failed one comes here.
      { event: "postToolUseFailure", arg: "post-tool-use-failure", timeout: 5 },
      { event: "preCompact", arg: "pre-compact", timeout: 10 },
      { event: "stop", arg: "stop", timeout: 10 },
      { event: "sessionEnd", arg: "session-end", timeout: 10 },
    ],
    lacks: [
      "the IDE drops sessionStart context (the CLI keeps it)",
      "preCompact output is ignored",
      "beforeSubmitPrompt cannot add context: no repeat warning at the prompt",
      "preToolUse and beforeShellExecution only allow or deny (nothing reaches the model on an allow): no repeat warning before a tool runs",
    ],
    // With "third-party skills" on, Cursor runs ~/.claude/settings.json and the project's too.
    runsClaudeHooks: ["user", "project"],
  },
  {
    // Executables named after the event (on Windows `<Event>.ps1`, run by PowerShell); 30 s each.
    agent: "cline",
    format: "scripts",
    file: (scope, p) =>
      scope === "user"
        ? join(home(p.env), "Documents", "Cline", "Hooks")
        : inProject(p, ".clinerules", "hooks"),
    timeoutUnit: "fixed 30 s",
    events: [
      { event: "TaskStart", arg: "session-start" },
      { event: "TaskResume", arg: "session-start" },
      { event: "UserPromptSubmit", arg: "user-prompt-submit" },
      // Its contextModification joins the conversation after the tool's result (the model's next request).
      { event: "PreToolUse", arg: "pre-tool-use" },
      { event: "PostToolUse", arg: "post-tool-use" },
      { event: "PreCompact", arg: "pre-compact" },
      { event: "TaskComplete", arg: "stop" },
      { event: "TaskCancel", arg: "session-end" },
    ],
    lacks: [
      "no per-turn stop (TaskComplete stands in)",
      "hooks get no transcript path or model",
      "hooks run only once the user enables them",
    ],
    afterInstall:
      "Cline runs hooks only when they are enabled: VS Code → Cline settings → Feature Settings → Enable Hooks (CLI: `cline config set hooks-enabled=true`).",
  },
  {
    agent: "opencode",
    format: "plugin",
    file: (scope, p) =>
      scope === "user"
        ? join(xdgConfig(p.env), "opencode", "plugins", "mindsave.js")
        : inProject(p, ".opencode", "plugins", "mindsave.js"),
    timeoutUnit: "none",
    events: [
      { event: "experimental.chat.system.transform", arg: "session-start", timeout: 10000 },
      { event: "chat.message", arg: "user-prompt-submit", timeout: 5000 },
      { event: "tool.execute.after", arg: "post-tool-use", timeout: 5000 },
      { event: "experimental.session.compacting", arg: "pre-compact", timeout: 10000 },
      { event: "session.idle", arg: "stop", timeout: 10000 },
    ],
    lacks: [
      "no command hooks (a JS plugin runs the CLI)",
      "no session-start hook: the restore block is asked for at a session's first request and joins its system prompt",
      "no session-end event; the plugin forwards no tool failures",
      "tool.execute.before can only change the call's arguments: no repeat warning before a tool runs",
    ],
  },
];

export function agentHooks(agent: AgentId): AgentHooksSpec {
  const spec = AGENT_HOOKS.find((a) => a.agent === agent);
  if (!spec) throw new Error(`no hooks table for ${agent}`);
  return spec;
}

/** The MindSave events an agent's hooks cover (what `mindsave agents` lists as missing is the rest). */
export function coveredEvents(agent: AgentId): HookEvent[] {
  return [...new Set(agentHooks(agent).events.map((e) => e.arg))];
}

/**
 * The JSON the opencode plugin sends on stdin to `mindsave hook EVENT --agent opencode` (opencode
 * has no command hooks, so this shape is ours; the runtime reads exactly these keys). What the
 * hook prints (plain text) goes: session-start → the system prompt of that session's requests;
 * user-prompt-submit → the system prompt of the requests answering that message; pre-compact →
 * the compaction's context; post-tool-use → appended to the tool's output the model sees; stop →
 * nowhere.
 */
export interface OpencodePayload {
  /** opencode's hook: "session.start" (first system transform of a session, again after a compaction), "chat.message", "session.compacting", "tool.execute.after", "session.idle". */
  hook_event_name:
    "session.start" | "chat.message" | "session.compacting" | "tool.execute.after" | "session.idle";
  session_id: string;
  /** The project directory opencode runs in. */
  cwd: string;
  worktree?: string;
  /** chat.message: the text parts of the person's message (cut to 4,000 characters): the session's goal, as a prompt is for other agents. */
  prompt?: string;
  /** session.start: "startup" for a session's first request, "compact" after a compaction. */
  source?: "startup" | "compact";
  /** tool.execute.after: opencode's tool id (`edit`, `write`, `bash`…), its arguments, and its result (output cut to 4,000 characters). */
  tool_name?: string;
  tool_input?: unknown;
  tool_response?: { title?: string; output?: string };
  /**
   * tool.execute.after: the prompt of the session's newest finished step (an assistant message's
   * `tokens`: input, cache read and write), the fill post-tool-use measures; absent before one.
   */
  usage?: {
    input_tokens: number;
    cache_read_input_tokens: number;
    cache_creation_input_tokens: number;
    model?: string;
  };
}

const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const psQuote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * The command an agent's hook runs: `<mindsave> hook <EVENT> --agent <ID>`. By default the same
 * portable line as Claude Code's hooks (hooks.ts `hookCommand`): the copy `mindsave install` put
 * in ~/.mindsave/bin, else `mindsave` on PATH, else nothing (exit 0, quietly), so a project's file
 * can be committed. `binary` (`--command`): that binary by its path. PowerShell for the agents
 * that run hooks in it on Windows (Copilot's `powershell` field, Gemini CLI there).
 */
export function agentHookCommand(
  agent: AgentId,
  binary: string | null,
  arg: HookEvent,
  shell: "sh" | "powershell" = "sh",
): string {
  const tail = `hook ${arg} --agent ${agent}`;
  if (shell === "powershell") {
    if (binary) return `& ${psQuote(binary)} ${tail}`;
    return `$m = Join-Path $HOME '.mindsave\\bin\\mindsave.exe'; if (-not (Test-Path $m)) { $m = (Get-Command mindsave -ErrorAction SilentlyContinue).Source }; if ($m) { $input | & $m ${tail} }`;
  }
  if (binary) return `${shQuote(binary)} ${tail}`;
  return `m="$HOME/.mindsave/bin/mindsave"; [ -x "$m" ] || m=$(command -v mindsave) || exit 0; exec "$m" ${tail}`;
}

/** True for a command MindSave's `hooks install --agent <agent>` wrote (any binary, any event). */
export function isAgentHookCommand(agent: AgentId, command: unknown): boolean {
  return (
    typeof command === "string" &&
    /mindsave/i.test(command) &&
    new RegExp(`\\bhook [a-z-]+ --agent ${agent}\\b`).test(command)
  );
}
