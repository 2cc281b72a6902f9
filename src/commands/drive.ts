// `mindsave drive init PATH`: lay out a USB drive with binaries for every OS and an empty store.
import { join } from "node:path";
import { buildAdvice, driveInitCommand, initDrive } from "../engine/home/drive.ts";
import { shellWord } from "../lib/text.ts";
import { print, printJson, warn } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

export async function init(
  opts: { from?: string; encrypt?: boolean },
  args: string[],
  g: GlobalOptions,
): Promise<number> {
  const r = await initDrive(args[0], { from: opts.from, encrypt: opts.encrypt });
  if (g.json) {
    printJson(r);
    return 0;
  }
  if (r.missing.length)
    warn(
      `No binary for ${r.missing.join(", ")} in ${r.source}; to include them, ${buildAdvice(driveInitCommand(args[0], opts.encrypt))}.`,
    );
  print(
    [
      `Drive ready at ${r.dir}:`,
      ...r.binaries.map((b) => `  ${b}`),
      `  ${r.store} (${r.created_store ? "new, empty" : "kept as it was"}${r.encrypted ? ", encrypted" : ""})`,
      "",
      `On any laptop, run ${[
        ...(r.launchers.includes("mindsave") ? [`${shellWord(join(r.dir, "mindsave"))} (macOS, Linux)`] : []),
        ...(r.launchers.includes("mindsave.cmd") ? ["mindsave\\mindsave.cmd on the drive (Windows)"] : []),
      ].join(", or ")}.`,
    ].join("\n"),
  );
  return 0;
}
