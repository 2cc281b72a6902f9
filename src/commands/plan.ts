// `mindsave plan [set|done|start|reopen]`: the agent's plan kept with the newest snapshot.
import { readFileSync } from "node:fs";
import { UserError } from "../errors.ts";
import { markStep, planOf, setPlan } from "../engine/memory/plan.ts";
import { parsePlan, parsePlanText, planLine, planText } from "../engine/snapshots/plan.ts";
import { print, printJson, withSession } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

export async function show(opts: { snapshot?: string }, _a: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, false, async (session) => {
    const { snapshot, plan } = await planOf(session, opts.snapshot);
    if (g.json) printJson({ snapshot: snapshot.name, plan, progress: planLine(plan) });
    else if (!plan?.length)
      print(
        `Snapshot ${snapshot.name} has no plan. Set one with \`mindsave plan set\` (a checklist or YAML list on stdin) or \`--item "…"\`.`,
      );
    else print(`${planLine(plan)}   (snapshot ${snapshot.name})\n\n${planText(plan)}`);
    return 0;
  });
}

export async function set(opts: { item?: string[] }, args: string[], g: GlobalOptions): Promise<number> {
  let raw: unknown;
  if (opts.item?.length) {
    if (args[0]) throw new UserError("Give the plan either as a file or as --item flags, not both.");
    raw = parsePlan(opts.item, "--item");
  } else if (args[0] === "-" || (!args[0] && !process.stdin.isTTY)) {
    raw = parsePlanText(await Bun.stdin.text().catch(() => ""), "stdin");
  } else if (args[0]) {
    let text: string;
    try {
      text = readFileSync(args[0], "utf8");
    } catch {
      throw new UserError(`Cannot read the plan file ${args[0]}.`);
    }
    raw = parsePlanText(text, args[0]);
  } else {
    throw new UserError(
      'Give the plan: a checklist ("- [x] done") or YAML list on stdin or in a file (`mindsave plan set plan.md`), or --item "…" flags.',
    );
  }
  return withSession(g, true, async (session) => {
    const { snapshot, plan } = await setPlan(session, raw);
    if (g.json) printJson({ snapshot: snapshot.name, plan, progress: planLine(plan) });
    else print(`Plan of ${snapshot.name} set: ${planLine(plan) ?? "empty"}.`);
    return 0;
  });
}

export async function mark(
  status: string,
  opts: { snapshot?: string },
  args: string[],
  g: GlobalOptions,
): Promise<number> {
  return withSession(g, true, async (session) => {
    const { snapshot, plan, step } = await markStep(session, args[0], status, opts.snapshot);
    if (g.json) printJson({ snapshot: snapshot.name, plan, progress: planLine(plan) });
    else print(`Step ${args[0]} is ${step.status.replace("_", " ")}: ${step.content}\n${planLine(plan)}`);
    return 0;
  });
}
