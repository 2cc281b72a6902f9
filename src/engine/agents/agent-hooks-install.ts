// `mindsave hooks install|uninstall --agent NAME [--project|--user]` for all seven agents, one
// table: each agent's file or folder for the scope (agent-hooks.ts) and the writer of its format —
// Claude Code's settings (hooks.ts), the other agents' JSON (hooks-json.ts), Cline's scripts
// (hooks-cline.ts), opencode's plugin (hooks-opencode.ts) — and what the user still has to do and
// where Claude Code's hooks fire as well.
import { existsSync, readFileSync } from "node:fs";
import { UserError } from "../../errors.ts";
import { AGENT_HOOKS, agentHooks, type AgentHooksSpec, type HookFormat } from "./agent-hooks.ts";
import { claudeHooksState, installHooks, uninstallHooks, type HooksResult } from "./hooks.ts";
import { clineHooksState, installClineHooks, uninstallClineHooks } from "./hooks-cline.ts";
import { installJsonHooks, jsonHooksState, uninstallJsonHooks, type HooksState } from "./hooks-json.ts";
import { installOpencodePlugin, opencodeHooksState, uninstallOpencodePlugin } from "./hooks-opencode.ts";
import { readJsonc } from "./json-edit.ts";
import { agentSpec, type AgentId, type Place, type Scope } from "./registry.ts";

export interface AgentHooksResult {
  agent: AgentId;
  scope: Scope;
  /** The file (Cline: the folder) written. */
  path: string;
  action: "installed" | "updated" | "unchanged" | "removed" | "absent";
  /** The file was created by install, or deleted by uninstall (Cline: the scripts). */
  wholeFile: boolean;
  /** Uninstall gave a shared file back exactly as it was before install. */
  exact?: boolean;
  /** The agent's own events MindSave's hooks listen to. */
  events: string[];
  /** Files left alone: a Cline script of the user's own under an event's name. */
  skipped: string[];
  /** Claude Code settings files holding MindSave's hooks that this agent runs too. */
  alsoFires: string[];
  /** What the user has to do before the hooks run. */
  todo?: string;
}

/** The agent's hooks file (Cline: folder) for the scope; one sentence when it has no such scope. */
export function agentHooksFile(agent: AgentId, scope: Scope, place: Place): string {
  const file = agentHooks(agent).file(scope, place);
  if (file) return file;
  if (scope === "project" && !place.root)
    throw new UserError("--project needs a workspace: run it inside the project (or give --workspace).");
  throw new UserError(
    `${agentSpec(agent).name} has no ${scope} hooks; use --${scope === "user" ? "project" : "user"}.`,
  );
}

/** What one install or uninstall did: Claude Code's settings (hooks.ts's report) or another agent's file. */
export type HooksOutcome = ({ agent: "claude" } & HooksResult) | AgentHooksResult;

/** What the outcome of an agent's file says beside its writer's own report. */
type Frame = Omit<AgentHooksResult, "action" | "wholeFile" | "exact">;

/** How one format of hooks is read, installed and uninstalled. */
interface HooksWriter {
  state(spec: AgentHooksSpec, path: string, env: NodeJS.ProcessEnv): HooksState;
  install(
    spec: AgentHooksSpec,
    path: string,
    binary: string | null,
    env: NodeJS.ProcessEnv,
    frame: Frame,
  ): HooksOutcome;
  uninstall(spec: AgentHooksSpec, path: string, env: NodeJS.ProcessEnv, frame: Frame): HooksOutcome;
}

const JSON_WRITER: HooksWriter = {
  state: jsonHooksState,
  install: (spec, path, binary, env, frame) => ({ ...frame, ...installJsonHooks(spec, path, binary, env) }),
  uninstall: (spec, path, env, frame) => ({ ...frame, ...uninstallJsonHooks(spec, path, env) }),
};

const WRITERS: Record<HookFormat, HooksWriter> = {
  // Claude Code's report is its own (settings, added, updated, removed, backup), as `--json` has always shown it.
  claude: {
    state: (_spec, path, env) => claudeHooksState(path, env),
    install: (_spec, path, binary, env) => ({
      agent: "claude",
      ...installHooks(path, binary, env, new Date()),
    }),
    uninstall: (_spec, path, env) => ({ agent: "claude", ...uninstallHooks(path, env, new Date()) }),
  },
  grouped: JSON_WRITER,
  flat: JSON_WRITER,
  scripts: {
    state: (_spec, path) => clineHooksState(path),
    install: (_spec, path, binary, env, frame) => {
      const c = installClineHooks(path, binary, env, frame.scope === "project");
      return { ...frame, action: c.action, wholeFile: c.files.length > 0, skipped: c.skipped };
    },
    uninstall: (_spec, path, env, frame) => {
      const c = uninstallClineHooks(path, env);
      return { ...frame, action: c.action, wholeFile: c.files.length > 0 };
    },
  },
  plugin: {
    state: (_spec, path) => opencodeHooksState(path),
    install: (_spec, path, binary, env, frame) => ({ ...frame, ...installOpencodePlugin(path, binary, env) }),
    uninstall: (_spec, path, env, frame) => ({ ...frame, ...uninstallOpencodePlugin(path, env) }),
  },
};

export function agentHooksState(agent: AgentId, path: string, env: NodeJS.ProcessEnv): HooksState {
  const spec = agentHooks(agent);
  return WRITERS[spec.format].state(spec, path, env);
}

/** True when a Claude Code settings file holds MindSave's hooks (`… hook <event>` without `--agent`). */
export function hasClaudeHooks(path: string): boolean {
  if (!existsSync(path)) return false;
  try {
    const hooks =
      (readJsonc(readFileSync(path, "utf8"), path) as { hooks?: Record<string, unknown> }).hooks ?? {};
    return Object.values(hooks).some((groups) =>
      (Array.isArray(groups) ? groups : []).some((g) =>
        ((g as { hooks?: unknown[] })?.hooks ?? []).some((h) => {
          const c = (h as { command?: unknown })?.command;
          return typeof c === "string" && /mindsave/i.test(c) && / hook [a-z-]+$/.test(c);
        }),
      ),
    );
  } catch {
    return false;
  }
}

/** The Claude Code settings files with MindSave's hooks that `agent` runs as well as its own. */
export function claudeHooksAlsoRun(spec: AgentHooksSpec, place: Place): string[] {
  const claude = agentHooks("claude");
  return (spec.runsClaudeHooks ?? []).flatMap((scope) => {
    const path = claude.file(scope, place);
    return path && hasClaudeHooks(path) ? [path] : [];
  });
}

/** For a Claude Code install: the other agents with MindSave's hooks that run this settings file too. */
export function agentsAlsoRunning(scope: Scope, place: Place): AgentId[] {
  return AGENT_HOOKS.filter((s) => s.runsClaudeHooks?.includes(scope))
    .filter((s) =>
      (["user", "project"] as const).some((sc) => {
        const path = s.file(sc, place);
        return !!path && agentHooksState(s.agent, path, place.env) !== "absent";
      }),
    )
    .map((s) => s.agent);
}

const eventsOf = (spec: AgentHooksSpec) => [...new Set(spec.events.map((e) => e.event))];

export function installAgentHooks(
  agent: AgentId,
  scope: Scope,
  place: Place,
  binary: string | null,
): HooksOutcome {
  const spec = agentHooks(agent);
  const path = agentHooksFile(agent, scope, place);
  const frame: Frame = {
    agent,
    scope,
    path,
    events: eventsOf(spec),
    skipped: [],
    alsoFires: claudeHooksAlsoRun(spec, place),
    todo: spec.afterInstall,
  };
  return WRITERS[spec.format].install(spec, path, binary, place.env, frame);
}

export function uninstallAgentHooks(agent: AgentId, scope: Scope, place: Place): HooksOutcome {
  const spec = agentHooks(agent);
  const path = agentHooksFile(agent, scope, place);
  return WRITERS[spec.format].uninstall(spec, path, place.env, {
    agent,
    scope,
    path,
    events: eventsOf(spec),
    skipped: [],
    alsoFires: [],
  });
}
