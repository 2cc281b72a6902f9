// The summariser's guide before a compaction (issue 35, item 4). Where an agent lets a hook shape the
// summary (Claude Code: PreCompact's stdout becomes the compaction prompt's "Additional
// Instructions"), the summary is told what to keep: the goal, the constraints and the failures
// MindSave holds, their text, within GUIDE_BUDGET tokens (the rest stays in the store and comes
// back with the restore after the compaction).
import { restore } from "../snapshots/restore.ts";
import { resolveProject } from "../projects/resolve.ts";
import { countTokens } from "../snapshots/tokens.ts";
import { inline } from "../snapshots/layers.ts";
import type { Session } from "../session.ts";

/** The guide's most cl100k tokens. */
export const GUIDE_BUDGET = 150;

const HEAD =
  "MindSave holds this task's state. Keep in your summary, word for word, the goal, every constraint " +
  "(the user's rules) and every failed approach below:";

/** The lines that fit after `text` within the budget, in order; a line that does not fit ends the list. */
function within(text: string, lines: string[]): string {
  let out = text;
  for (const line of lines) {
    const next = `${out}\n${line}`;
    if (countTokens(next) > GUIDE_BUDGET) break;
    out = next;
  }
  return out;
}

/**
 * The guide from the project's newest snapshot (the one the pre-compaction save just wrote, or the
 * agent's own), with the failures its restore block ranks first; undefined without a snapshot.
 */
export async function compactionGuide(session: Session): Promise<string | undefined> {
  const ctx = await resolveProject(session, { create: false });
  const r = ctx ? await restore(session, ctx, undefined, { resume: true }) : null;
  if (r?.kind !== "restored") return undefined;
  const { snapshot, layer2, block } = r.result;
  let goal = inline(snapshot.goal);
  // A goal too long for the guide is cut (the restore after the compaction brings it whole).
  while (goal.length > 20 && countTokens(`${HEAD}\nGoal: ${goal}`) > GUIDE_BUDGET / 2)
    goal = `${goal.slice(0, Math.floor(goal.length / 2))}…`;
  const constraints = layer2.constraints.map((c) => `Constraint: ${inline(c)}`);
  const failures = block.failures.map(
    (f) => `Failed, do not retry: ${inline(f.item)}${f.reason ? ` (${inline(f.reason)})` : ""}`,
  );
  // In turns, so a long list of either leaves room for the other's first.
  const lines = Array.from({ length: Math.max(constraints.length, failures.length) }, (_, i) =>
    [constraints[i], failures[i]].filter((l): l is string => l !== undefined),
  ).flat();
  return within(`${HEAD}\nGoal: ${goal}`, lines);
}
