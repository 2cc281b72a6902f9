// A snapshot saved by hand holds the constraints and decisions it is given (the spec's rule): those
// of the project's newest full snapshot that it leaves out are no longer restored. Said, never silent.
import { constraintKey } from "./constraint-hygiene.ts";
import { writtenConstraints } from "./layers.ts";
import { withoutRetired } from "../memory/retire.ts";
import type { Session } from "../session.ts";

/** The warning for a save of `constraints` and `decisions` (retired ones out) that leaves some of the newest full snapshot's behind; none when it keeps them all. */
export async function leftBehind(
  session: Session,
  projectId: string,
  kept: { constraints: string[]; decisions: string[] },
  retired: Set<string>,
): Promise<string[]> {
  const full = await session.reader.newestFullSnapshot(projectId);
  if (!full) return [];
  const missing = (before: string[], now: string[]) => {
    const have = new Set(now.map(constraintKey));
    return before.filter((x) => !have.has(constraintKey(x))).length;
  };
  const c = missing(withoutRetired(writtenConstraints(full), "constraint", retired), kept.constraints);
  const d = missing(withoutRetired(full.decisions, "decision", retired), kept.decisions);
  if (!c && !d) return [];
  const what = [c && `${c} constraint(s)`, d && `${d} decision(s)`].filter(Boolean).join(" and ");
  return [
    `${what} of ${full.name} are not in this snapshot, so \`load\` no longer restores them: give them again (--constraint, --decision), or keep a lasting one as a rule (\`mindsave rules add\`).`,
  ];
}
