// `mindsave hooks install|uninstall --agent NAME [--project|--user]` for the agents beyond Claude
// Code (whose hooks.ts stays as it is): picks the agent's file or folder for the scope and its
// writer — JSON (hooks-json.ts), Cline's scripts (hooks-cline.ts), opencode's plugin
// (hooks-opencode.ts) — and says what the user still has to do and where Claude Code's hooks fire
// as well.
import { existsSync, readFileSync } from "node:fs";
import { UserError } from "../../errors.ts";
import { AGENT_HOOKS, agentHooks, type AgentHooksSpec } from "./agent-hooks.ts";
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
  if (scope === "project" && !place.root) throw new UserError("--project needs a workspace: run it inside the project (or give --workspace).");
  throw new UserError(`${agentSpec(agent).name} has no ${scope} hooks; use --${scope === "user" ? "project" : "user"}.`);
}

export function agentHooksState(agent: AgentId, path: string, env: NodeJS.ProcessEnv): HooksState {
  const spec = agentHooks(agent);
  if (spec.format === "scripts") return clineHooksState(path);
  if (spec.format === "plugin") return opencodeHooksState(path);
  return jsonHooksState(spec, path, env);
}

/** True when a Claude Code settings file holds MindSave's hooks (`… hook <event>` without `--agent`). */
export function hasClaudeHooks(path: string): boolean {
  if (!existsSync(path)) return false;
  try {
    const hooks = (readJsonc(readFileSync(path, "utf8"), path) as { hooks?: Record<string, unknown> }).hooks ?? {};
    return Object.values(hooks).some((groups) =>
      (Array.isArray(groups) ? groups : []).some((g) => ((g as { hooks?: unknown[] })?.hooks ?? []).some((h) => {
        const c = (h as { command?: unknown })?.command;
        return typeof c === "string" && /mindsave/i.test(c) && / hook [a-z-]+$/.test(c);
      })),
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
    .filter((s) => (["user", "project"] as const).some((sc) => {
      const path = s.file(sc, place);
      return !!path && agentHooksState(s.agent, path, place.env) !== "absent";
    }))
    .map((s) => s.agent);
}

export function installAgentHooks(agent: AgentId, scope: Scope, place: Place, binary: string | null): AgentHooksResult {
  const spec = agentHooks(agent);
  if (spec.format === "claude") throw new Error("Claude Code's hooks are installed by hooks.ts");
  const path = agentHooksFile(agent, scope, place);
  const base = { agent, scope, path, events: [...new Set(spec.events.map((e) => e.event))], skipped: [] as string[], alsoFires: claudeHooksAlsoRun(spec, place), todo: spec.afterInstall };
  if (spec.format === "scripts") {
    const c = installClineHooks(path, binary, place.env, scope === "project");
    return { ...base, action: c.action, wholeFile: c.files.length > 0, skipped: c.skipped };
  }
  if (spec.format === "plugin") return { ...base, ...installOpencodePlugin(path, binary, place.env) };
  return { ...base, ...installJsonHooks(spec, path, binary, place.env) };
}

export function uninstallAgentHooks(agent: AgentId, scope: Scope, place: Place): AgentHooksResult {
  const spec = agentHooks(agent);
  if (spec.format === "claude") throw new Error("Claude Code's hooks are removed by hooks.ts");
  const path = agentHooksFile(agent, scope, place);
  const base = { agent, scope, path, events: [...new Set(spec.events.map((e) => e.event))], skipped: [] as string[], alsoFires: [] as string[] };
  if (spec.format === "scripts") {
    const c = uninstallClineHooks(path, place.env);
    return { ...base, action: c.action, wholeFile: c.files.length > 0 };
  }
  if (spec.format === "plugin") return { ...base, ...uninstallOpencodePlugin(path, place.env) };
  return { ...base, ...uninstallJsonHooks(spec, path, place.env) };
}
