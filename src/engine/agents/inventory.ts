// `mindsave agents`: the coding agents found on this host (their folders, their executables on
// PATH) and, for each, what MindSave has put there — its MCP server entry, its instructions (for
// Claude Code the skill), its hooks — and whether each is the current one; plus what the agent
// itself lacks (MindSave events its hooks cannot serve among them), so nobody is told an
// integration does more than it can.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { agentHooks, coveredEvents, HOOK_ARGS, type HookEvent } from "./agent-hooks.ts";
import { agentHooksState, claudeHooksAlsoRun } from "./agent-hooks-install.ts";
import { claudeHooksState, localBinary } from "./hooks.ts";
import { readManifest } from "./hooks-manifest.ts";
import { instructionsState, type FileState } from "./instructions.ts";
import { mcpState, type EntryState } from "./mcp-config.ts";
import { AGENTS, type AgentId, type AgentSpec, type Place, type Scope } from "./registry.ts";
import { SKILL_MARKER, skillPath, skillText } from "./skill.ts";

export interface Placed<S> {
  scope: Scope;
  path: string;
  state: S;
}

export interface AgentReport {
  id: AgentId;
  name: string;
  found: boolean;
  /** Its folders that exist here. */
  dirs: string[];
  /** Its executables on PATH. */
  executables: string[];
  mcp: Placed<EntryState>[];
  /** Its instructions file(s); for Claude Code the skill. */
  instructions: Placed<FileState>[];
  /** Its hooks file (Cline: folder) per scope; for Claude Code the settings files holding MindSave's hooks (per the installer's record). */
  hooks: Placed<FileState | "unreadable">[];
  /** MindSave's events the agent has no hook for. */
  missingEvents: HookEvent[];
  /** Claude Code settings files with MindSave's hooks that this agent runs as well as its own. */
  claudeHooksAlsoRun: string[];
  /** What MindSave's integration does today: its hooks as `agent event→MindSave event`. */
  works: { hooks: string; transcript: string };
  /** What the agent itself lacks for a memory tool. */
  lacks: string[];
}

function scoped<S>(
  spec: (scope: Scope, p: Place) => string | null,
  place: Place,
  state: (path: string) => S,
): Placed<S>[] {
  const out: Placed<S>[] = [];
  for (const scope of ["user", "project"] as const) {
    const path = spec(scope, place);
    if (path) out.push({ scope, path, state: state(path) });
  }
  return out;
}

function skillState(env: NodeJS.ProcessEnv): FileState {
  const path = skillPath(env);
  if (!existsSync(path)) return "absent";
  const text = readFileSync(path, "utf8");
  if (!text.includes(SKILL_MARKER)) return "absent";
  return [localBinary(env), "mindsave"].some((b) => text === skillText(b) + `\n${SKILL_MARKER}\n`)
    ? "current"
    : "outdated";
}

/** Claude Code's settings files with MindSave's hooks, from the record `mindsave hooks install` keeps. */
function claudeHooks(env: NodeJS.ProcessEnv): Placed<FileState>[] {
  return Object.keys(readManifest(env).installed ?? {}).flatMap((path) => {
    const state = claudeHooksState(path, env);
    if (state === "absent") return [];
    const scope: Scope =
      path === join(env.HOME || env.USERPROFILE || "", ".claude", "settings.json") ? "user" : "project";
    return [{ scope, path, state }];
  });
}

function report(a: AgentSpec, place: Place): AgentReport {
  const dirs = a.dirs(place.env).filter((d) => existsSync(d));
  const executables = a.executables.filter((x) => Bun.which(x, { PATH: place.env.PATH ?? "" }));
  const hooksSpec = agentHooks(a.id);
  return {
    id: a.id,
    name: a.name,
    found: dirs.length > 0 || executables.length > 0,
    dirs,
    executables,
    mcp: scoped(a.mcp.file, place, (p) => mcpState(a.id, p)),
    instructions: a.instructions
      ? scoped(a.instructions, place, (p) => instructionsState(a.id, p))
      : [{ scope: "user", path: skillPath(place.env), state: skillState(place.env) }],
    hooks:
      a.id === "claude"
        ? claudeHooks(place.env)
        : scoped(hooksSpec.file, place, (p) => agentHooksState(a.id, p, place.env)),
    missingEvents: HOOK_ARGS.filter((e) => !coveredEvents(a.id).includes(e as HookEvent)) as HookEvent[],
    claudeHooksAlsoRun: claudeHooksAlsoRun(hooksSpec, place),
    works: { hooks: hooksSpec.events.map((e) => `${e.event}→${e.arg}`).join(", "), transcript: a.transcript },
    lacks: [...hooksSpec.lacks, ...a.gaps],
  };
}

/** Every agent MindSave knows, the ones found on this host first. */
export function listAgents(place: Place): AgentReport[] {
  const all = AGENTS.map((a) => report(a, place));
  return [...all.filter((r) => r.found), ...all.filter((r) => !r.found)];
}
