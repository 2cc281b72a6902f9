// A snapshot saved by hand holds the constraints and decisions it is given (the spec's rule): those
// of its task's last full snapshot that it leaves out are no longer restored. Said, never silent.
// A save of another task leaves nothing behind: the last task's snapshot keeps its own. A save that
// gives decisions of its own has stated them: a decision it leaves out was replaced, not lost.
import { constraintKey } from "./constraint-hygiene.ts";
import { inline, writtenConstraints } from "./layers.ts";
import { truncate } from "../../lib/text.ts";
import { mayBeSameTask } from "./same-task.ts";
import { withoutRetired } from "../memory/retire.ts";
import type { Session } from "../session.ts";
import type { SnapshotRecord } from "../../store/store.ts";

/** How far back a save looks for its task's last full snapshot: a detour of up to this many. */
const TASK_LOOKBACK = 100;

/** The newest full snapshot of the task `goal` names, past snapshots of other tasks saved since; null for a new task. */
async function lastOfTask(session: Session, projectId: string, goal: string): Promise<SnapshotRecord | null> {
  // Most saves carry on the newest snapshot's task: then one read, as when only the newest was asked.
  const newest = await session.reader.newestFullSnapshot(projectId);
  if (!newest || mayBeSameTask(newest.goal, goal)) return newest;
  const heads = await session.reader.newestFullGoals(projectId, TASK_LOOKBACK);
  const head = heads.find((h) => mayBeSameTask(h.goal, goal));
  return head ? session.reader.getSnapshot(head.id) : null;
}

/** The warning for a save of `goal` with `constraints` and `decisions` (retired ones out) that leaves some of its task's last full snapshot's behind; none when it keeps them all. */
export async function leftBehind(
  session: Session,
  projectId: string,
  given: { goal: string; constraints: string[]; decisions: string[] },
  retired: Set<string>,
): Promise<string[]> {
  const full = await lastOfTask(session, projectId, given.goal);
  if (!full) return [];
  const missing = (before: string[], now: string[]) => {
    const have = new Set(now.map(constraintKey));
    return before.filter((x) => !have.has(constraintKey(x)));
  };
  const c = missing(withoutRetired(writtenConstraints(full), "constraint", retired), given.constraints);
  // Decisions are replaced as a task goes ("use polling", then "use websockets"): told each time, the
  // warning was noise. Constraints stand for the whole task, so one left out is always told.
  const d = given.decisions.length
    ? []
    : missing(withoutRetired(full.decisions, "decision", retired), given.decisions);
  if (!c.length && !d.length) return [];
  const what = [c.length && `${c.length} constraint(s)`, d.length && `${d.length} decision(s)`]
    .filter(Boolean)
    .join(" and ");
  return [
    `${what} of ${full.name} are not in this snapshot (${named([...c, ...d])}), so \`load\` no longer restores them: give them again (--constraint, --decision), or keep a lasting one as a rule (\`mindsave rules add\`).`,
  ];
}

/** The items left behind as the warning names them: the first three, each on one line, cut at 60. */
function named(items: string[]): string {
  const shown = items.slice(0, 3).map((x) => JSON.stringify(truncate(inline(x), 60)));
  return shown.join(", ") + (items.length > 3 ? `, and ${items.length - 3} more` : "");
}
