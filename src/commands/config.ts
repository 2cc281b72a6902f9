// `mindsave config [KEY [VALUE]]`: every setting's value, one setting's, or set it
// (`mindsave config prompt-recall off`).
import {
  getSetting,
  setSetting,
  settingKey,
  settingMeaning,
  SETTINGS,
  type SettingKey,
} from "../engine/home/settings.ts";
import { print, printJson, withSession } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

export async function run(_o: unknown, args: string[], g: GlobalOptions): Promise<number> {
  const [name, value] = args;
  if (name === undefined) return listSettings(g);
  const key = settingKey(name);
  return withSession(g, value !== undefined, async (session) => {
    if (value !== undefined) await setSetting(session, key, value);
    const now = await getSetting(session, key);
    if (g.json) printJson({ key, value: now });
    else print(`${key} is ${value !== undefined ? "now " : ""}${now}: ${settingMeaning(key, now)}.`);
    return 0;
  });
}

/** Every setting, each with its value and what that value means. */
function listSettings(g: GlobalOptions): Promise<number> {
  return withSession(g, false, async (session) => {
    const keys = Object.keys(SETTINGS) as SettingKey[];
    const values = await Promise.all(keys.map((key) => getSetting(session, key)));
    if (g.json) printJson({ settings: keys.map((key, i) => ({ key, value: values[i] })) });
    else print(keys.map((key, i) => `${key} is ${values[i]}: ${settingMeaning(key, values[i])}.`).join("\n"));
    return 0;
  });
}
