// A contradiction between two constraints in words: the save's warning and the restore block's
// mark. Apart from constraint-hygiene.ts, so that a restore (load, the session-start hook) does not
// load and evaluate the contradiction analysis and its rule table to print a stored conflict.
import type { ConstraintConflict } from "./constraint-hygiene.ts";

/** One entry per pair of texts, whatever the number of subjects they disagree on. */
export function conflictPairs(conflicts: readonly ConstraintConflict[]): [string, string][] {
  const seen = new Set<string>();
  const out: [string, string][] = [];
  for (const c of conflicts) {
    const key = [c.rejected_by, c.preferred_by].sort().join("\u0000");
    if (seen.has(key)) continue;
    seen.add(key);
    out.push([c.rejected_by, c.preferred_by]);
  }
  return out;
}

/** The save warning. */
export function contradictionWarning([a, b]: [string, string]): string {
  return `constraints contradict: ${JSON.stringify(a)} vs ${JSON.stringify(b)}; keep the one you mean.`;
}

/** The restore block's mark, a line among the constraints. */
export function contradictionMark([a, b]: [string, string]): string {
  return `- ⚠ contradicts: ${JSON.stringify(a)} ↔ ${JSON.stringify(b)} — ask the user which holds`;
}

/** Conflicts as stored with a snapshot (its `compressed` field), ignoring anything malformed. */
export function storedConflicts(
  compressed: Record<string, unknown> | null | undefined,
): ConstraintConflict[] {
  const list = compressed?.conflicts;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (c): c is ConstraintConflict =>
      !!c &&
      typeof c === "object" &&
      typeof (c as ConstraintConflict).rejected_by === "string" &&
      typeof (c as ConstraintConflict).preferred_by === "string",
  );
}
