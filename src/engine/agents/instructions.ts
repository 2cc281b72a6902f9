// Other agents' instructions files (AGENTS.md, GEMINI.md, copilot-instructions.md, a Cline or
// Cursor rule file): the skill's teaching, without Claude Code's slash commands, naming the MCP
// tools and the CLI. In a shared file it is a section between marker lines, replaced in place and
// removed exactly; a rule file of our own is written whole and deleted on uninstall. Several agents
// read one file (a project's AGENTS.md: Codex and opencode): the section names the agents it was
// installed for, and is removed only with the last of them.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { UserError } from "../../errors.ts";
import { block, findBlock, putBlock, takeBlock, type Markers } from "../../lib/blocks.ts";
import { writeFileAtomic } from "../../lib/fs.ts";
import { AGENT_IDS, agentSpec, type AgentId, type Place, type Scope } from "./registry.ts";
import { skillBody } from "./skill.ts";

export const INSTRUCTION_MARKERS: Markers = {
  begin:
    "<!-- BEGIN mindsave: written by `mindsave skill --install --agent …`; `mindsave skill --uninstall --agent …` removes it -->",
  end: "<!-- END mindsave -->",
};

/** Cursor reads a rule's front matter; alwaysApply puts it in every request. */
const CURSOR_FRONT_MATTER =
  "---\ndescription: MindSave: save and restore the task's working state across sessions and machines\nalwaysApply: true\n---\n";

/** The section: how to use MindSave through its MCP server or its CLI, in any agent. */
export function instructionsText(binary = "mindsave"): string {
  return `## MindSave — save and restore the working state

MindSave keeps this task's state (goal, state, next action, active files, blocker; constraints, decisions, rejected approaches) in one store, across sessions, agents and machines. Save after a key decision, after the user corrects you, when the user ends the session ("done", "结束", "先这样") and before the context fills up; restore at the start of a session. Do not save casual chat, simple Q&A, or when the user said not to ("don't save", "不需要保存").

With the \`mindsave\` MCP server (\`mindsave mcp install --agent …\`), use its tools: \`save\` (a snapshot), \`load\` (the restore block), \`recall\` (Layer 3 or a search), \`list\` (snapshots), \`fail\` (record a rejected approach), and the resource \`mindsave://restore-block\`. Without it, run the \`${binary}\` CLI as below; it finds the workspace from the current directory.

${skillBody(binary).replace(/^## /gm, "### ")}
`;
}

/** The section's first line: the agents it was installed for. */
const FOR_LINE = /^<!-- mindsave for: ([a-z, ]*) -->\n/;
const forLine = (agents: AgentId[]) => `<!-- mindsave for: ${agents.join(", ")} -->\n`;

/** The whole file or section as written for `agents` (the first decides Cursor's front matter). */
function written(agents: AgentId[], binary: string): string {
  const body = block(INSTRUCTION_MARKERS, forLine(agents) + instructionsText(binary));
  return agents[0] === "cursor" ? CURSOR_FRONT_MATTER + body : body;
}

/** The text inside a found section's markers ("\n" line ends). */
const inner = (body: string) =>
  body.slice(INSTRUCTION_MARKERS.begin.length + 1, body.lastIndexOf(INSTRUCTION_MARKERS.end));

/** The agents a section names; null for one written before sections named them (any reader of the file may use it). */
function sectionAgents(body: string): AgentId[] | null {
  const m = FOR_LINE.exec(inner(body));
  return m
    ? (m[1]
        .split(",")
        .map((a) => a.trim())
        .filter((a) => (AGENT_IDS as readonly string[]).includes(a)) as AgentId[])
    : null;
}

/** The agents whose instructions file in this scope is `path`: who may read a section there. */
function readersOf(path: string, scope: Scope, place: Place): AgentId[] {
  return AGENT_IDS.filter((a) => agentSpec(a).instructions?.(scope, place) === path);
}

export function instructionsFile(agent: AgentId, scope: Scope, place: Place): string {
  const spec = agentSpec(agent);
  const file = spec.instructions?.(scope, place) ?? null;
  if (file) return file;
  if (scope === "project" && !place.root)
    throw new UserError("--project needs a workspace: run it inside the project (or give --workspace).");
  const other = scope === "user" ? "project" : "user";
  throw new UserError(
    spec.instructions?.(other, place)
      ? `${spec.name} has no ${scope} instructions file; use --${other}.`
      : `${spec.name} has no instructions file MindSave writes.`,
  );
}

export type FileState = "absent" | "current" | "outdated";

export interface InstructionsResult {
  agent: AgentId;
  path: string;
  /** installed: written now; updated: an older section replaced; unchanged: already current; removed; absent: nothing of ours. */
  action: "installed" | "updated" | "unchanged" | "removed" | "absent";
  /** The file was created by the install, or deleted by the uninstall. */
  wholeFile: boolean;
  /** Removed for this agent only: the section stays for these, which read the same file. */
  kept_for?: AgentId[];
}

const read = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : null);

export function instructionsState(agent: AgentId, path: string, binary = "mindsave"): FileState {
  const text = read(path);
  const at = text === null ? null : findBlock(text, INSTRUCTION_MARKERS);
  if (!at) return "absent";
  const agents = sectionAgents(at.body);
  if (agents === null) return "outdated";
  if (!agents.includes(agent)) return "absent";
  return at.body === block(INSTRUCTION_MARKERS, forLine(agents) + instructionsText(binary)) &&
    (agent !== "cursor" || text!.startsWith(CURSOR_FRONT_MATTER))
    ? "current"
    : "outdated";
}

export function installInstructions(
  agent: AgentId,
  scope: Scope,
  place: Place,
  binary = "mindsave",
): InstructionsResult {
  const path = instructionsFile(agent, scope, place);
  const text = read(path);
  const own = agentSpec(agent).ownInstructionsFile;
  if (own && text !== null && !findBlock(text, INSTRUCTION_MARKERS))
    throw new UserError(`${path} exists and was not written by MindSave; it is left alone.`);
  const at = text === null ? null : findBlock(text, INSTRUCTION_MARKERS);
  // The agents it was already installed for keep it; an unnamed section may be any reader's.
  const before = at ? (sectionAgents(at.body) ?? readersOf(path, scope, place)) : [];
  const agents = [agent, ...before.filter((a) => a !== agent)].sort();
  const next = own ? written([agent], binary) : putBlock(text, INSTRUCTION_MARKERS, written(agents, binary));
  if (next === text) return { agent, path, action: "unchanged", wholeFile: false };
  writeFileAtomic(path, next);
  return { agent, path, action: before.includes(agent) ? "updated" : "installed", wholeFile: text === null };
}

export function uninstallInstructions(agent: AgentId, scope: Scope, place: Place): InstructionsResult {
  const path = instructionsFile(agent, scope, place);
  const text = read(path);
  const at = text === null ? null : findBlock(text, INSTRUCTION_MARKERS);
  if (text === null || !at) return { agent, path, action: "absent", wholeFile: false };
  const agents = sectionAgents(at.body) ?? readersOf(path, scope, place);
  if (!agents.includes(agent)) return { agent, path, action: "absent", wholeFile: false };
  const others = agents.filter((a) => a !== agent);
  if (others.length && !agentSpec(agent).ownInstructionsFile) {
    // Another agent reads this section too: it stays, named for them only.
    writeFileAtomic(
      path,
      putBlock(
        text,
        INSTRUCTION_MARKERS,
        block(INSTRUCTION_MARKERS, forLine(others) + inner(at.body).replace(FOR_LINE, "")),
      ),
    );
    return { agent, path, action: "removed", wholeFile: false, kept_for: others };
  }
  const rest = agentSpec(agent).ownInstructionsFile ? null : takeBlock(text, INSTRUCTION_MARKERS);
  if (rest === null) rmSync(path);
  else if (rest !== undefined) writeFileAtomic(path, rest);
  return { agent, path, action: "removed", wholeFile: rest === null };
}
