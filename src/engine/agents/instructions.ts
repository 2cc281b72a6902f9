// Other agents' instructions files (AGENTS.md, GEMINI.md, copilot-instructions.md, a Cline or
// Cursor rule file): the skill's teaching, without Claude Code's slash commands, naming the MCP
// tools and the CLI. In a shared file it is a section between marker lines, replaced in place and
// removed exactly; a rule file of our own is written whole and deleted on uninstall.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { UserError } from "../../errors.ts";
import { block, findBlock, putBlock, takeBlock, type Markers } from "../../lib/blocks.ts";
import { writeFileAtomic } from "../../lib/fs.ts";
import { agentSpec, type AgentId, type Place, type Scope } from "./registry.ts";
import { skillBody } from "./skill.ts";

export const INSTRUCTION_MARKERS: Markers = {
  begin: "<!-- BEGIN mindsave: written by `mindsave skill --install --agent …`; `mindsave skill --uninstall --agent …` removes it -->",
  end: "<!-- END mindsave -->",
};

/** Cursor reads a rule's front matter; alwaysApply puts it in every request. */
const CURSOR_FRONT_MATTER = "---\ndescription: MindSave: save and restore the task's working state across sessions and machines\nalwaysApply: true\n---\n";

/** The section: how to use MindSave through its MCP server or its CLI, in any agent. */
export function instructionsText(binary = "mindsave"): string {
  return `## MindSave — save and restore the working state

MindSave keeps this task's state (goal, state, next action, active files, blocker; constraints, decisions, rejected approaches) in one store, across sessions, agents and machines. Save after a key decision, after the user corrects you, when the user ends the session ("done", "结束", "先这样") and before the context fills up; restore at the start of a session. Do not save casual chat, simple Q&A, or when the user said not to ("don't save", "不需要保存").

With the \`mindsave\` MCP server (\`mindsave mcp install --agent …\`), use its tools: \`save\` (a snapshot), \`load\` (the restore block), \`recall\` (Layer 3 or a search), \`list\` (snapshots), \`fail\` (record a rejected approach), and the resource \`mindsave://restore-block\`. Without it, run the \`${binary}\` CLI as below; it finds the workspace from the current directory.

${skillBody(binary).replace(/^## /gm, "### ")}
`;
}

/** The whole file or section as written for an agent. */
function written(agent: AgentId, binary: string): string {
  const body = block(INSTRUCTION_MARKERS, instructionsText(binary));
  return agent === "cursor" ? CURSOR_FRONT_MATTER + body : body;
}

export function instructionsFile(agent: AgentId, scope: Scope, place: Place): string {
  const spec = agentSpec(agent);
  const file = spec.instructions?.(scope, place) ?? null;
  if (file) return file;
  if (scope === "project" && !place.root) throw new UserError("--project needs a workspace: run it inside the project (or give --workspace).");
  const other = scope === "user" ? "project" : "user";
  throw new UserError(spec.instructions?.(other, place) ? `${spec.name} has no ${scope} instructions file; use --${other}.` : `${spec.name} has no instructions file MindSave writes.`);
}

export type FileState = "absent" | "current" | "outdated";

export interface InstructionsResult {
  agent: AgentId;
  path: string;
  /** installed: written now; updated: an older section replaced; unchanged: already current; removed; absent: nothing of ours. */
  action: "installed" | "updated" | "unchanged" | "removed" | "absent";
  /** The file was created by the install, or deleted by the uninstall. */
  wholeFile: boolean;
}

const read = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : null);

export function instructionsState(agent: AgentId, path: string, binary = "mindsave"): FileState {
  const text = read(path);
  const at = text === null ? null : findBlock(text, INSTRUCTION_MARKERS);
  if (!at) return "absent";
  return at.body === block(INSTRUCTION_MARKERS, instructionsText(binary)) && (agent !== "cursor" || text!.startsWith(CURSOR_FRONT_MATTER)) ? "current" : "outdated";
}

export function installInstructions(agent: AgentId, scope: Scope, place: Place, binary = "mindsave"): InstructionsResult {
  const path = instructionsFile(agent, scope, place);
  const text = read(path);
  const own = agentSpec(agent).ownInstructionsFile;
  if (own && text !== null && !findBlock(text, INSTRUCTION_MARKERS)) throw new UserError(`${path} exists and was not written by MindSave; it is left alone.`);
  const next = own ? written(agent, binary) : putBlock(text, INSTRUCTION_MARKERS, written(agent, binary));
  if (next === text) return { agent, path, action: "unchanged", wholeFile: false };
  writeFileAtomic(path, next);
  return { agent, path, action: text === null ? "installed" : findBlock(text, INSTRUCTION_MARKERS) ? "updated" : "installed", wholeFile: text === null };
}

export function uninstallInstructions(agent: AgentId, scope: Scope, place: Place): InstructionsResult {
  const path = instructionsFile(agent, scope, place);
  const text = read(path);
  if (text === null || !findBlock(text, INSTRUCTION_MARKERS)) return { agent, path, action: "absent", wholeFile: false };
  const rest = agentSpec(agent).ownInstructionsFile ? null : takeBlock(text, INSTRUCTION_MARKERS);
  if (rest === null) rmSync(path);
  else if (rest !== undefined) writeFileAtomic(path, rest);
  return { agent, path, action: "removed", wholeFile: rest === null };
}
