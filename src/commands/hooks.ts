// `mindsave hooks install|uninstall [--agent NAME|all] [--project|--user] [--command PATH]`: an
// agent's hooks (Claude Code's by default), all seven through agent-hooks-install.ts; `--agent all`
// does it for every agent found on this host.
import { existsSync } from "node:fs";
import { UserError } from "../errors.ts";
import { localBinary, type HooksResult } from "../engine/agents/hooks.ts";
import {
  agentsAlsoRunning,
  installAgentHooks,
  uninstallAgentHooks,
  type AgentHooksResult,
} from "../engine/agents/agent-hooks-install.ts";
import { listAgents } from "../engine/agents/inventory.ts";
import { codexConfig, trustMindSaveCodexHooks, untrustCodexHooks } from "../engine/agents/codex-trust.ts";
import { AGENT_IDS, agentSpec, type AgentId, type Place, type Scope } from "../engine/agents/registry.ts";
import { print, printJson, projectPlace, warn } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

interface HooksFlags {
  agent?: string;
  project?: boolean;
  user?: boolean;
  command?: string;
  trust?: boolean;
}

/** The agents and scope asked for; a bad name is refused before anything is written. */
function targets(opts: HooksFlags, place: Place): { agents: AgentId[]; scope: Scope } {
  if (opts.project && opts.user) throw new UserError("Choose one of --project and --user.");
  const scope: Scope = opts.project ? "project" : "user";
  const name = opts.agent ?? "claude";
  if (name === "all") {
    const found = listAgents(place)
      .filter((a) => a.found)
      .map((a) => a.id);
    if (!found.length)
      throw new UserError(
        "No coding agent was found on this host (none of their folders, none of their executables on PATH); name one with --agent.",
      );
    return { agents: found, scope };
  }
  if (!(AGENT_IDS as readonly string[]).includes(name))
    throw new UserError(
      `--agent must be one of ${AGENT_IDS.join(", ")} or all, not ${JSON.stringify(name)}.`,
    );
  return { agents: [name as AgentId], scope };
}

const events = (cs: string[]) => cs.map((c) => / hook (\S+)$/.exec(c)?.[1] ?? c).join(", ");
const runs = (opts: HooksFlags) =>
  opts.command
    ? `They run ${opts.command}.`
    : `They run ~/.mindsave/bin/mindsave, else \`mindsave\` on PATH, and do nothing where MindSave is not installed${opts.project ? ", so the file can be committed" : ""}.`;

function sayClaude(r: HooksResult, opts: HooksFlags, scope: Scope, place: Place): void {
  if (!r.added.length && !r.updated.length)
    print(`MindSave's hooks are already in ${r.settings}; nothing changed.`);
  else {
    if (r.added.length)
      print(
        `Added ${r.added.length} MindSave hook(s) to ${r.settings}${r.backup ? ` (backup: ${r.backup})` : ""}: ${events(r.added)}.`,
      );
    if (r.updated.length)
      print(
        `Updated ${r.updated.length} MindSave hook(s) in ${r.settings} from an earlier install${r.backup && !r.added.length ? ` (backup: ${r.backup})` : ""}: ${events(r.updated)}.`,
      );
    print(runs(opts));
  }
  const others = agentsAlsoRunning(scope, place).map((a) => agentSpec(a).name);
  if (others.length)
    print(
      `${others.join(" and ")} also run${others.length > 1 ? "" : "s"} these Claude Code hooks and ${others.length > 1 ? "have" : "has"} MindSave's own hooks too: both fire for one event.`,
    );
}

function sayAgent(r: AgentHooksResult, opts: HooksFlags): void {
  const name = agentSpec(r.agent).name;
  const what = r.agent === "cline" ? "hook scripts" : r.agent === "opencode" ? "plugin" : "hooks";
  if (r.action === "unchanged")
    print(
      `MindSave's ${name} ${what} ${what === "plugin" ? "is" : "are"} already in ${r.path}; nothing changed.`,
    );
  else {
    const verb = r.action === "updated" ? "Updated" : "Added";
    print(
      `${verb} MindSave's ${name} ${what} in ${r.path}${r.wholeFile && r.agent !== "cline" && r.action === "installed" ? " (a new file)" : ""}: ${r.events.join(", ")}.`,
    );
    print(runs(opts));
  }
  if (r.skipped.length)
    warn(
      `left alone ${r.skipped.join(", ")}: your own scripts under those names, so those events do not run MindSave.`,
    );
  if (r.todo && r.action !== "unchanged") print(r.todo);
  if (r.alsoFires.length)
    print(
      `${name} also runs the Claude Code hooks in ${r.alsoFires.join(" and ")}, which hold MindSave's hooks too: both fire for one event.`,
    );
}

export async function install(opts: HooksFlags, _a: string[], g: GlobalOptions): Promise<number> {
  const place = projectPlace(g);
  const { agents, scope } = targets(opts, place);
  if (opts.trust && agents.join() !== "codex")
    throw new UserError("--trust is for Codex's hooks only: use it with --agent codex.");
  // The hooks run the copy in ~/.mindsave/bin (else `mindsave` on PATH), so an unplugged drive
  // never breaks a session; a hook that finds neither does nothing.
  if (!opts.command && !existsSync(localBinary(process.env)) && !Bun.which("mindsave")) {
    const advice = `${localBinary(process.env)} is not installed yet and \`mindsave\` is not on PATH; run \`mindsave install\` (the hooks call that local copy, never the drive)`;
    // A project's files are shared: they are right for teammates who have MindSave even when
    // this machine does not have it yet. Personal settings would just do nothing: refuse those.
    if (!opts.project) throw new UserError(`${advice} first.`);
    warn(`${advice}; until then these hooks do nothing here.`);
  }
  const results: unknown[] = [];
  for (const agent of agents) {
    const r = installAgentHooks(agent, scope, place, opts.command ?? null);
    results.push(r);
    if (g.json) continue;
    if ("settings" in r) sayClaude(r, opts, scope, place);
    else sayAgent(r, opts);
  }
  if (opts.trust) await trust(place, g, results);
  if (g.json) printJson(opts.agent === "all" ? { agents: results } : results[0]);
  return 0;
}

/** `--trust`: MindSave's Codex hooks trusted as they are now, through Codex's own mechanism. */
async function trust(place: Place, g: GlobalOptions, results: unknown[]): Promise<void> {
  const { config, trusted } = await trustMindSaveCodexHooks(place);
  if (g.json) results[0] = { ...(results[0] as object), trusted };
  else if (trusted.length)
    print(`Trusted ${trusted.length} MindSave hook(s) in ${config}; Codex runs them from its next session.`);
  else print(`MindSave's Codex hooks were trusted already; ${config} is unchanged.`);
}

export async function uninstall(opts: HooksFlags, _a: string[], g: GlobalOptions): Promise<number> {
  const place = projectPlace(g);
  const { agents, scope } = targets(opts, place);
  const results: unknown[] = [];
  for (const agent of agents) {
    const r = uninstallAgentHooks(agent, scope, place);
    // What --trust wrote goes with the hooks it trusted.
    if (agent === "codex" && untrustCodexHooks(place.env) && !g.json)
      print(`Removed MindSave's hook trust from ${codexConfig(place.env)}.`);
    results.push(r);
    if (g.json) continue;
    if ("settings" in r) {
      if (!r.removed.length) warn(`No hooks added by MindSave were found in ${r.settings}; nothing changed.`);
      else {
        print(
          `Removed ${r.removed.length} MindSave hook(s) from ${r.settings}${r.backup ? ` (backup: ${r.backup})` : ""}.`,
        );
        if (r.deleted) print(`Install had created ${r.deleted.join(" and ")}; removed, as it was.`);
      }
    } else if (r.action === "absent")
      warn(`No hooks added by MindSave were found in ${r.path}; nothing changed.`);
    else if (r.agent === "cline") print(`Removed MindSave's Cline hook scripts from ${r.path}.`);
    else if (r.wholeFile) print(`Removed ${r.path}, which install had created for MindSave's hooks.`);
    else
      print(
        `Removed MindSave's hooks from ${r.path}${r.exact === false ? " (the file changed since the install, so only MindSave's entries were taken out)" : ""}.`,
      );
  }
  if (g.json) printJson(opts.agent === "all" ? { agents: results } : results[0]);
  return 0;
}
