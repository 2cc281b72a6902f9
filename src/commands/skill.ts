// `mindsave skill [--install]`: the SKILL.md that teaches agents to use the binary.
import { installSkill, skillText } from "../engine/agents/skill.ts";
import { print, printJson } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

export async function run(opts: { install?: boolean }, _a: string[], g: GlobalOptions): Promise<number> {
  if (!opts.install) {
    if (g.json) printJson({ skill: skillText() });
    else process.stdout.write(skillText());
    return 0;
  }
  const r = installSkill(process.env);
  if (g.json) printJson(r);
  else print(`${r.replaced ? "Updated" : "Installed"} the MindSave skill at ${r.path}.`);
  return 0;
}
