// `mindsave --version`: the version, this binary's target, and which home it would use (no store access).
import { resolveHome } from "../engine/home/home.ts";
import { VERSION } from "../version.ts";

export function versionLine(): string {
  let home: string;
  try {
    const h = resolveHome();
    home = `${h.dir} (${h.why})`;
  } catch (e) {
    home = `unresolved: ${(e as Error).message}`;
  }
  return `mindsave ${VERSION} (${process.platform}-${process.arch}) · home ${home}`;
}
