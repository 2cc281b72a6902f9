// `mindsave export [--out DIR]`: the current project in the original MindSave's on-disk layout
// ({root}/.mindsave/ snapshots, index.json, failure graph, tool logs, signal.json).
import { exportSeed } from "../engine/formats/seed-export.ts";
import { print, printJson, warn, withSession } from "./shared.ts";
import { UserError } from "../errors.ts";
import type { GlobalOptions } from "../types.ts";

export async function run(opts: { out?: string }, _args: string[], g: GlobalOptions): Promise<number> {
  if (opts.out !== undefined && !opts.out.trim())
    throw new UserError("--out is empty; give the folder to export to.");
  const r = await withSession(g, false, (s) => exportSeed(s, { out: opts.out }));
  if (g.json) {
    printJson(r);
    return 0;
  }
  for (const w of r.warnings) warn(w);
  const total = r.failures.project + r.failures.global;
  print(`Exported project ${r.project.name} to ${r.dir}:`);
  print(`  snapshots   ${r.snapshots.length} (index.json lists the newest ${r.index})`);
  print(`  failures    ${total} (${r.failures.project} project, ${r.failures.global} global)`);
  print(
    `  tool calls  ${r.tool_calls} new${r.tool_log_files.length ? ` in ${r.tool_log_files.join(", ")}` : ""}`,
  );
  print(`  signal.json written`);
  const m = r.memory;
  if (m.rules || m.facts || m.retired)
    print(
      `  memory      ${m.rules} rule(s) in rules.json, ${m.facts} fact(s) in facts.json, ${m.retired} retirement(s) in retired.json`,
    );
  if (r.off) print(`  off.json    MindSave is off in this project: an import elsewhere keeps it off`);
  print("The original MindSave skill and SDK read this layout; `mindsave import` reads it back.");
  return 0;
}
