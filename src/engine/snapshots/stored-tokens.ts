// Token counts stored with the text they count, when it is written (save, fail, import, a sync's
// merge of a peer's row), so that fitting the restore block does not count it again: a snapshot's
// constraint and decision lines, and a failure line's head (its item and reason). Each stored count
// is a cache of a pure function of its text: null (a row written before schema 9, a text changed
// without a new count) is counted at restore as before, so every store restores the same block.
import type { FailureRecord, LineTokens, SnapshotRecord } from "../../store/store.ts";
import { inline, textValue } from "./layers.ts";
import { countTokens, knowCount } from "./tokens.ts";

/** A constraint's or decision's line in the restore block. */
export const itemLine = (text: string) => `- ${textValue(text)}`;

/** The part the block counts a Layer 2 line in: the line and its newline (see tokens.ts). */
const itemPart = (text: string) => `${itemLine(text)}\n`;

/** The counts to store with a snapshot's constraints and decisions. */
export function lineTokens(s: Pick<SnapshotRecord, "constraints" | "decisions">): LineTokens {
  return { constraints: s.constraints.map(itemPartTokens), decisions: s.decisions.map(itemPartTokens) };
}

const itemPartTokens = (text: string) => countTokens(itemPart(text));

/** A failure line's start in the block: its item and reason (restore-failures.ts adds the rest). */
export function failureHead(f: Pick<FailureRecord, "item" | "reason">): string {
  return `- ${inline(f.item)}: ${inline(f.reason || "rejected")}`;
}

/** The count to store with a failure's item and reason. */
export function headTokens(f: Pick<FailureRecord, "item" | "reason">): number {
  return countTokens(failureHead(f));
}

/** A stored list of counts that can be the counts of `items` (a damaged or foreign value is not). */
const countsOf = (items: string[], counts: unknown): counts is number[] =>
  Array.isArray(counts) &&
  counts.length === items.length &&
  counts.every((n) => Number.isSafeInteger(n) && n >= 0);

/** Takes a snapshot's stored counts as the counts of its Layer 2 lines (nothing when it has none). */
export function knowLineTokens(s: Pick<SnapshotRecord, "constraints" | "decisions" | "line_tokens">): void {
  const t = s.line_tokens;
  if (!t) return;
  if (countsOf(s.constraints, t.constraints))
    s.constraints.forEach((c, i) => knowCount(itemPart(c), t.constraints[i]));
  if (countsOf(s.decisions, t.decisions))
    s.decisions.forEach((d, i) => knowCount(itemPart(d), t.decisions[i]));
}
