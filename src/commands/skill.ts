// `mindsave skill [--install | --uninstall] [--agent NAME [--project|--user]]`: the SKILL.md that
// teaches agents to use the binary; for Claude Code also one skill per command, so /save, /load,
// /recall, /snapshots and /auto-snapshot can be typed. With another agent, its instructions file
// (AGENTS.md, GEMINI.md, …) gets the same teaching without slash commands, between markers.
import { UserError } from "../errors.ts";
import {
  installInstructions,
  instructionsText,
  uninstallInstructions,
  type InstructionsResult,
} from "../engine/agents/instructions.ts";
import { installSkill, skillText, uninstallSkill } from "../engine/agents/skill.ts";
import { agentScope, print, printJson, projectPlace, type AgentFlags } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";
import { writeOut } from "../lib/out.ts";

interface SkillFlags extends AgentFlags {
  install?: boolean;
  uninstall?: boolean;
}

function say(r: InstructionsResult, g: GlobalOptions): void {
  if (g.json) return printJson(r);
  print(
    {
      installed: `Wrote MindSave's instructions to ${r.path}${r.wholeFile ? " (a new file)" : " (a section between MindSave's markers)"}.`,
      updated: `Updated MindSave's instructions in ${r.path}.`,
      unchanged: `MindSave's instructions in ${r.path} are current; nothing changed.`,
      removed: r.wholeFile
        ? `Removed ${r.path}, which held only MindSave's instructions.`
        : r.kept_for
          ? `MindSave's section in ${r.path} is no longer for ${r.agent}; it stays for ${r.kept_for.join(", ")}, which read${r.kept_for.length === 1 ? "s" : ""} the same file.`
          : `Removed MindSave's section from ${r.path}.`,
      absent: `No MindSave instructions in ${r.path}; nothing changed.`,
    }[r.action],
  );
}

/** Another agent's instructions file: the project's by default (AGENTS.md and the like live in the repository). */
function forAgent(opts: SkillFlags, g: GlobalOptions): number {
  const { agent, scope } = agentScope(opts, "project");
  const place = projectPlace(g);
  if (opts.uninstall) say(uninstallInstructions(agent, scope, place), g);
  else if (opts.install) say(installInstructions(agent, scope, place), g);
  else if (g.json) printJson({ agent, instructions: instructionsText() });
  else writeOut(instructionsText());
  return 0;
}

export async function run(opts: SkillFlags, _a: string[], g: GlobalOptions): Promise<number> {
  if (opts.install && opts.uninstall) throw new UserError("Choose one of --install and --uninstall.");
  if (opts.agent && opts.agent !== "claude") return forAgent(opts, g);
  if (opts.project)
    throw new UserError(
      "Claude Code's skills are per user (~/.claude/skills); --project applies to other agents' instructions files.",
    );
  if (opts.uninstall) {
    const r = uninstallSkill(process.env);
    if (g.json) printJson(r);
    else if (!r.removed.length) print("No skills written by MindSave were found; nothing changed.");
    else
      print(`Removed ${r.removed.length} MindSave skill(s):\n${r.removed.map((f) => `  ${f}`).join("\n")}`);
    return 0;
  }
  if (!opts.install) {
    if (g.json) printJson({ skill: skillText() });
    else writeOut(skillText());
    return 0;
  }
  const r = installSkill(process.env);
  if (g.json) printJson(r);
  else {
    print(
      `${r.replaced ? "Updated" : "Installed"} the MindSave skill at ${r.path}, and the slash commands ${r.commands.map((f) => `/${f.split(/[\\/]/).at(-2)}`).join(", ")}.`,
    );
    for (const f of r.skipped) print(`Left ${f} alone: a skill of that name that MindSave did not write.`);
  }
  return 0;
}
