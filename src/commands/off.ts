// `mindsave off [--global]` and `mindsave on [--global]`: MindSave switched off or on for this
// project (synced to every host) or for every project on this host.
import { offHere, offSentence, switchMindSave, type Switched } from "../engine/projects/off.ts";
import { print, printJson, withSession } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

/** What a switch did, in a sentence or two. */
function switchedText(r: Switched, stillOff: string | null, hostName: string): string {
  const where =
    r.scope === "host" ? `for every project on this host (${hostName})` : `in project ${r.project?.name}`;
  const flag = r.scope === "host" ? " --global" : "";
  if (r.made && !r.off)
    return `Made project ${r.project?.name} here: MindSave is on in it, and agents' hooks keep its memory from now on.`;
  if (!r.changed) return `MindSave was already ${r.off ? "off" : "on"} ${where}.`;
  if (!r.off)
    return [`MindSave is on ${where} again.`, stillOff && r.scope === "project" ? `But: ${stillOff}` : null]
      .filter(Boolean)
      .join(" ");
  const reach =
    r.scope === "host"
      ? "Other hosts are not affected."
      : "The switch is kept in the store, so every host that syncs it is off here too.";
  return `MindSave is off ${where}: agents' hooks save and restore nothing, MCP tools answer and say it is off, and your own mindsave commands still work. ${reach} \`mindsave on${flag}\` turns it back on.`;
}

export function runSwitch(off: boolean) {
  return async (opts: { global?: boolean }, _a: string[], g: GlobalOptions): Promise<number> =>
    withSession(g, true, async (session) => {
      const r = await switchMindSave(session, { off, global: opts.global });
      const stillOff = offSentence(await offHere(session));
      if (g.json) {
        printJson({
          scope: r.scope,
          off: r.off,
          changed: r.changed,
          made: r.made,
          project: r.project?.name ?? null,
          project_id: r.project?.id ?? null,
          off_here: stillOff !== null,
        });
        return 0;
      }
      if (r.note) print(r.note);
      if (r.project || r.scope === "host") print(switchedText(r, stillOff, session.host.name));
      return 0;
    });
}

export const offCommand = runSwitch(true);
export const onCommand = runSwitch(false);
