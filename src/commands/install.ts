// `mindsave install`: copy this host's binary to ~/.mindsave/bin/ so hooks work with the drive unplugged.
import { installLocal } from "../engine/home/drive.ts";
import { print, printJson } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

export async function run(opts: { from?: string }, _a: string[], g: GlobalOptions): Promise<number> {
  const r = installLocal(process.env, { from: opts.from });
  if (g.json) printJson(r);
  else {
    print(`Installed ${r.target} binary at ${r.binary}.`);
    if (!r.on_path)
      print(
        `Add its folder to your PATH to run \`mindsave\` anywhere: export PATH="${r.binary.replace(/[\\/][^\\/]+$/, "")}:$PATH"`,
      );
  }
  return 0;
}
