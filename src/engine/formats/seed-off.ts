// The project's off switch in the `.mindsave/` layout: `off.json`, a file of MindSave's own (the
// original skill has no switch and ignores it). A person who said "off" for a project keeps it off
// wherever its export is imported; an import only ever switches a project off, never on.
import { join } from "node:path";
import { existsSync } from "node:fs";
import { instant, isObj, readJson } from "./seed-layout.ts";
import type { OffSwitchRecord } from "../../store/store.ts";

export const OFF_FILE = "off.json";

/**
 * `off.json`'s text for a project whose switch is `off`: the switch when it is off; `{"off": false}`
 * over an earlier export's file when it is on again; null (no file) when it is on and there was none.
 */
export function offFileText(off: OffSwitchRecord | null, dir: string): string | null {
  if (!off && !existsSync(join(dir, OFF_FILE))) return null;
  const body = off ? { off: true, off_at: off.off_at } : { off: false };
  return JSON.stringify(body, null, 2) + "\n";
}

/**
 * When the exported project was switched off (ISO time), or null: on, no file, or a file not
 * understood (a warning). A time not understood is the import's (`now`): the switch matters, not when.
 */
export function readOffFile(dir: string, warnings: string[], now: Date): string | null {
  const path = join(dir, OFF_FILE);
  if (!existsSync(path)) return null;
  const data = readJson(path, OFF_FILE, warnings);
  if (data === undefined) return null;
  if (!isObj(data) || typeof data.off !== "boolean") {
    warnings.push(`${OFF_FILE} is not {"off": true|false, …}; not imported.`);
    return null;
  }
  if (!data.off) return null;
  const at = new Date(instant(data.off_at));
  return (Number.isFinite(at.getTime()) ? at : now).toISOString();
}
