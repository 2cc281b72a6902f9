// `mindsave config KEY [VALUE]`: a setting's value, or set it (`mindsave config prompt-recall off`).
import { getSetting, setSetting, settingKey, settingMeaning } from "../engine/home/settings.ts";
import { print, printJson, withSession } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

export async function run(_o: unknown, args: string[], g: GlobalOptions): Promise<number> {
  const [name, value] = args;
  const key = settingKey(name ?? "");
  return withSession(g, value !== undefined, async (session) => {
    if (value !== undefined) await setSetting(session, key, value);
    const now = await getSetting(session, key);
    if (g.json) printJson({ key, value: now });
    else print(`${key} is ${value !== undefined ? "now " : ""}${now}: ${settingMeaning(key, now)}.`);
    return 0;
  });
}
