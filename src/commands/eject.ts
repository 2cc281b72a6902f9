// `mindsave eject`: the store whole in mindsave.db (journal folded in, nothing left waiting), so a
// drive can be removed.
import { ejectHome } from "../engine/home/eject.ts";
import { print, printJson } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

export async function run(_o: unknown, _a: string[], g: GlobalOptions): Promise<number> {
  const r = await ejectHome({ home: g.home });
  if (g.json) printJson(r);
  else print(r.message);
  return 0;
}
