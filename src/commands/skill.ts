// `mindsave skill [--install | --uninstall]`: the SKILL.md that teaches agents to use the binary;
// for Claude Code also one skill per command, so /save, /load, /recall, /snapshots and
// /auto-snapshot can be typed.
import { UserError } from "../errors.ts";
import { installSkill, skillText, uninstallSkill } from "../engine/agents/skill.ts";
import { print, printJson } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

export async function run(opts: { install?: boolean; uninstall?: boolean }, _a: string[], g: GlobalOptions): Promise<number> {
  if (opts.install && opts.uninstall) throw new UserError("Choose one of --install and --uninstall.");
  if (opts.uninstall) {
    const r = uninstallSkill(process.env);
    if (g.json) printJson(r);
    else if (!r.removed.length) print("No skills written by MindSave were found; nothing changed.");
    else print(`Removed ${r.removed.length} MindSave skill(s):\n${r.removed.map((f) => `  ${f}`).join("\n")}`);
    return 0;
  }
  if (!opts.install) {
    if (g.json) printJson({ skill: skillText() });
    else process.stdout.write(skillText());
    return 0;
  }
  const r = installSkill(process.env);
  if (g.json) printJson(r);
  else {
    print(`${r.replaced ? "Updated" : "Installed"} the MindSave skill at ${r.path}, and the slash commands ${r.commands.map((f) => `/${f.split(/[\\/]/).at(-2)}`).join(", ")}.`);
    for (const f of r.skipped) print(`Left ${f} alone: a skill of that name that MindSave did not write.`);
  }
  return 0;
}
