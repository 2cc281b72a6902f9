// Small helpers every command adapter shares: opening a session, printing text or JSON, warnings.
import { Session } from "../engine/session.ts";
import { resolveWorkspace } from "../engine/projects/workspace.ts";
import { UserError } from "../errors.ts";
import { writeErr, writeOut } from "../lib/out.ts";
import { AGENT_IDS, type AgentId, type Place, type Scope } from "../engine/agents/registry.ts";
import type { GlobalOptions } from "../types.ts";

export async function withSession<T>(g: GlobalOptions, write: boolean, fn: (s: Session) => Promise<T>): Promise<T> {
  const session = await Session.open({ home: g.home, workspace: g.workspace, project: g.project }, { write });
  try {
    return await session.run(fn);
  } finally {
    for (const n of session.notices) note(n);
  }
}

export function print(text: string): void {
  writeOut(text.endsWith("\n") ? text : text + "\n");
}

export function printJson(value: unknown): void {
  writeOut(JSON.stringify(value, null, 2) + "\n");
}

export function warn(message: string): void {
  writeErr(`mindsave: warning: ${message}\n`);
}

export function note(message: string): void {
  writeErr(`mindsave: ${message}\n`);
}

/** Where an agent-settings command acts: this environment, and the current project's root (or the cwd). */
export function projectPlace(g: GlobalOptions): Place {
  const root = resolveWorkspace(process.cwd(), { override: g.workspace, create: false })?.root ?? g.workspace ?? process.cwd();
  return { env: process.env, root };
}

export interface AgentFlags {
  agent?: string;
  project?: boolean;
  user?: boolean;
}

/** The agent and scope of an `--agent NAME [--project|--user]` command (user by default). */
export function agentScope(opts: AgentFlags, fallback: Scope = "user"): { agent: AgentId; scope: Scope } {
  const agent = opts.agent as AgentId;
  if (!AGENT_IDS.includes(agent)) throw new UserError(`--agent must be one of ${AGENT_IDS.join(", ")}${opts.agent ? `, not ${JSON.stringify(opts.agent)}` : ""}.`);
  if (opts.project && opts.user) throw new UserError("Choose one of --project and --user.");
  return { agent, scope: opts.project ? "project" : opts.user ? "user" : fallback };
}

