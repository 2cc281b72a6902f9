// The coding agents MindSave knows: where each keeps its settings, its MCP servers and its
// instructions, which executables it ships, and what it can and cannot do for a memory tool
// (from docs/agents in the README, itself from each agent's published docs and source). Data,
// one entry per agent; the engine functions that read and write these files live beside it.
import { existsSync } from "node:fs";
import { homedir } from "../../lib/os.ts";
import { join } from "node:path";

export const AGENT_IDS = ["claude", "codex", "gemini", "copilot", "cursor", "cline", "opencode"] as const;
export type AgentId = (typeof AGENT_IDS)[number];
export type Scope = "user" | "project";

/** Where a command runs: its environment (HOME, CODEX_HOME…) and the project's root, when in one. */
export interface Place {
  env: NodeJS.ProcessEnv;
  root: string | null;
}

export interface McpSpec {
  format: "json" | "toml";
  /** The config file of a scope; null when the agent has no such scope. */
  file: (scope: Scope, p: Place) => string | null;
  /**
   * The keys of the servers object in that file (opencode 2 nests them one deeper), given what the
   * file holds at a path: the caller reads the file (no JSONC parser loads with this table).
   */
  keys: (at: (path: string[]) => unknown) => string[];
  /** The server entry, in the agent's documented shape, for a `command` that takes `mcp`. */
  entry: (command: string, keys: string[]) => Record<string, unknown>;
}

export interface AgentSpec {
  id: AgentId;
  name: string;
  /** Folders whose presence means the agent is (or was) used here. */
  dirs: (env: NodeJS.ProcessEnv) => string[];
  executables: string[];
  mcp: McpSpec;
  /** Its instructions file per scope; for Claude Code the skill (`mindsave skill --install`) instead. */
  instructions: ((scope: Scope, p: Place) => string | null) | null;
  /** A file of our own (a rule file) rather than a section of a shared file. */
  ownInstructionsFile?: boolean;
  transcript: string;
  /** What the agent lacks beyond its hooks (those are in agent-hooks.ts). */
  gaps: string[];
}

export const home = (env: NodeJS.ProcessEnv) => env.HOME || env.USERPROFILE || homedir();
const codexHome = (env: NodeJS.ProcessEnv) => env.CODEX_HOME || join(home(env), ".codex");
const xdgConfig = (env: NodeJS.ProcessEnv) => env.XDG_CONFIG_HOME || join(home(env), ".config");
const inProject = (p: Place, ...parts: string[]) => (p.root ? join(p.root, ...parts) : null);
const pick = (scope: Scope, user: string | null, project: string | null) =>
  scope === "user" ? user : project;
const MCP_SERVERS = () => ["mcpServers"];
const plain = (command: string) => ({ command, args: ["mcp"] });

/** VS Code's per-user storage of the Cline extension (saoudrizwan.claude-dev). */
function clineExtensionDir(env: NodeJS.ProcessEnv): string {
  const storage = ["User", "globalStorage", "saoudrizwan.claude-dev"];
  if (process.platform === "darwin")
    return join(home(env), "Library", "Application Support", "Code", ...storage);
  if (process.platform === "win32")
    return join(env.APPDATA || join(home(env), "AppData", "Roaming"), "Code", ...storage);
  return join(xdgConfig(env), "Code", ...storage);
}

/** Cline's MCP settings: CLINE_MCP_SETTINGS_PATH, else the CLI's (~/.cline) when present, else the VS Code extension's. */
function clineMcpFile(env: NodeJS.ProcessEnv): string {
  if (env.CLINE_MCP_SETTINGS_PATH) return env.CLINE_MCP_SETTINGS_PATH;
  const cli = join(home(env), ".cline");
  if (existsSync(cli)) return join(cli, "data", "settings", "cline_mcp_settings.json");
  return join(clineExtensionDir(env), "settings", "cline_mcp_settings.json");
}

/** opencode 2's `mcp.servers` object (opencode 1 would take it for a server, which has a `type`). */
function isV2Servers(v: unknown): boolean {
  return !!v && typeof v === "object" && !Array.isArray(v) && !("type" in v);
}

/** opencode reads opencode.json or opencode.jsonc; an existing .jsonc is the one to edit. */
function opencodeFile(dir: string): string {
  return existsSync(join(dir, "opencode.jsonc")) && !existsSync(join(dir, "opencode.json"))
    ? join(dir, "opencode.jsonc")
    : join(dir, "opencode.json");
}

export const AGENTS: readonly AgentSpec[] = [
  {
    id: "claude",
    name: "Claude Code",
    dirs: (env) => [join(home(env), ".claude")],
    executables: ["claude"],
    mcp: {
      format: "json",
      // `claude mcp add -s user` writes ~/.claude.json's top-level mcpServers; `-s project` the project's .mcp.json.
      file: (scope, p) => pick(scope, join(home(p.env), ".claude.json"), inProject(p, ".mcp.json")),
      keys: MCP_SERVERS,
      entry: (command) => ({ type: "stdio", ...plain(command) }),
    },
    instructions: null,
    transcript: "read (JSONL): auto-snapshots from real token counts",
    gaps: [],
  },
  {
    id: "codex",
    name: "Codex CLI",
    dirs: (env) => [codexHome(env)],
    executables: ["codex"],
    mcp: {
      format: "toml",
      // [mcp_servers.NAME] in $CODEX_HOME/config.toml, or a trusted project's .codex/config.toml.
      file: (scope, p) =>
        pick(scope, join(codexHome(p.env), "config.toml"), inProject(p, ".codex", "config.toml")),
      keys: () => ["mcp_servers"],
      entry: plain,
    },
    instructions: (scope, p) => pick(scope, join(codexHome(p.env), "AGENTS.md"), inProject(p, "AGENTS.md")),
    transcript:
      "read (rollout JSONL): prompts, update_plan, apply_patch files, tool calls, context fill from token_count",
    gaps: [],
  },
  {
    id: "gemini",
    name: "Gemini CLI",
    dirs: (env) => [join(home(env), ".gemini")],
    executables: ["gemini"],
    mcp: {
      format: "json",
      file: (scope, p) =>
        pick(scope, join(home(p.env), ".gemini", "settings.json"), inProject(p, ".gemini", "settings.json")),
      keys: MCP_SERVERS,
      entry: plain,
    },
    instructions: (scope, p) =>
      pick(scope, join(home(p.env), ".gemini", "GEMINI.md"), inProject(p, "GEMINI.md")),
    transcript: "read (chat recording): prompts, write_todos, edited files, tool calls, context fill",
    gaps: [],
  },
  {
    id: "copilot",
    name: "GitHub Copilot CLI",
    dirs: (env) => [join(home(env), ".copilot")],
    executables: ["copilot"],
    mcp: {
      format: "json",
      // ~/.copilot/mcp-config.json; per repository .github/mcp.json (or .mcp.json, which Claude Code reads too).
      file: (scope, p) =>
        pick(scope, join(home(p.env), ".copilot", "mcp-config.json"), inProject(p, ".github", "mcp.json")),
      keys: MCP_SERVERS,
      entry: (command) => ({ type: "local", ...plain(command), tools: ["*"] }),
    },
    instructions: (scope, p) =>
      pick(
        scope,
        join(home(p.env), ".copilot", "copilot-instructions.md"),
        inProject(p, ".github", "copilot-instructions.md"),
      ),
    transcript:
      "read (the session event log its hooks name; format unverified): prompts, edits, tool calls; no context fill",
    gaps: ["workspace MCP files load only in trusted folders"],
  },
  {
    id: "cursor",
    name: "Cursor",
    dirs: (env) => [join(home(env), ".cursor")],
    executables: ["cursor", "cursor-agent"],
    mcp: {
      format: "json",
      file: (scope, p) =>
        pick(scope, join(home(p.env), ".cursor", "mcp.json"), inProject(p, ".cursor", "mcp.json")),
      keys: MCP_SERVERS,
      entry: plain,
    },
    // User rules live in Cursor's settings, not in a file.
    instructions: (scope, p) => pick(scope, null, inProject(p, ".cursor", "rules", "mindsave.mdc")),
    ownInstructionsFile: true,
    transcript: "read (JSONL under ~/.cursor/projects): prompts, edits, tool calls; no context fill",
    gaps: [],
  },
  {
    id: "cline",
    name: "Cline",
    dirs: (env) => [join(home(env), ".cline"), clineExtensionDir(env), join(home(env), "Documents", "Cline")],
    executables: ["cline"],
    mcp: {
      format: "json",
      // One global file; Cline has no per-project MCP settings.
      file: (scope, p) => pick(scope, clineMcpFile(p.env), null),
      keys: MCP_SERVERS,
      entry: (command) => ({ ...plain(command), disabled: false, autoApprove: [] }),
    },
    instructions: (scope, p) =>
      pick(
        scope,
        join(home(p.env), "Documents", "Cline", "Rules", "mindsave.md"),
        inProject(p, ".clinerules", "mindsave.md"),
      ),
    ownInstructionsFile: true,
    transcript:
      "none: built from the hook payloads of the task; the context fill from its session's messages file (metrics.inputTokens)",
    gaps: [],
  },
  {
    id: "opencode",
    name: "opencode",
    dirs: (env) => [join(xdgConfig(env), "opencode")],
    executables: ["opencode"],
    mcp: {
      format: "json",
      file: (scope, p) =>
        pick(scope, opencodeFile(join(xdgConfig(p.env), "opencode")), p.root ? opencodeFile(p.root) : null),
      // opencode 2 keeps servers under mcp.servers (and reads 1's mcp.NAME); a file already in the new shape gets the new shape.
      keys: (at) => (isV2Servers(at(["mcp", "servers"])) ? ["mcp", "servers"] : ["mcp"]),
      entry: (command, keys) => ({
        type: "local",
        command: [command, "mcp"],
        ...(keys.length === 1 ? { enabled: true } : {}),
      }),
    },
    instructions: (scope, p) =>
      pick(scope, join(xdgConfig(p.env), "opencode", "AGENTS.md"), inProject(p, "AGENTS.md")),
    transcript:
      "none: built from what the plugin sends; the context fill is its newest finished step's tokens (the step before a tool's)",
    gaps: [],
  },
];

export function agentSpec(id: string): AgentSpec {
  const a = AGENTS.find((x) => x.id === id);
  if (!a) throw new Error(`unknown agent ${id}`);
  return a;
}
