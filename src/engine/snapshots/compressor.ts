// Constraint Compression Engine (CCE, spec v3.5): folds Layer 2 constraints that talk about the
// same technical choice into one symbolic entry per category, so Layer 2 stays inside its budget.
//
// Compared with the original SDK it (a) matches English keywords on word boundaries and Chinese
// ones as substrings, (b) files a positive preference under `preferred`, not `rejected`,
// (c) flags contradictions instead of merging them (by constraint-hygiene.ts, the rule every save
// runs), and (d) never folds a constraint whose text says more than its entry could hold ("no
// Tailwind in the admin panel" stays verbatim), so compression loses no meaning. Everything is deterministic: no clocks, no randomness.

import { COMPRESSION_RULES } from "./compression-rules.ts";
import { type Analysis, analyze } from "./constraint-analysis.ts";
import { type ConstraintConflict, findContradictions, foldDuplicates } from "./constraint-hygiene.ts";

// ---------------------------------------------------------------------------------------------
// Public types

export { COMPRESSION_RULES };
export type { CompressionRule, RuleKeyword } from "./compression-rules.ts";
export type { ConstraintConflict };

export interface SymbolicEntry {
  strategy?: string;
  preferred: string[];
  rejected: string[];
  reason?: string;
  /** How many input constraints were folded into this entry. */
  sources: number;
}

export interface CompressionResult {
  /** Constraints kept verbatim (unmatched, conflicting or not safely foldable), input order. */
  constraints: string[];
  symbolic: Record<string, SymbolicEntry>;
  conflicts: ConstraintConflict[];
  dropped_duplicates: number;
  /** Verbatim constraints beyond `maxConstraints`, for the caller to move to the cold archive. */
  overflow: string[];
}

export interface Layer2Compressed extends CompressionResult {
  decisions: string[];
  excluded_paths: string[];
}

// ---------------------------------------------------------------------------------------------
// Compression

function strategyOf(label: string): string | undefined {
  const slug = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return slug || undefined;
}

export class ConstraintCompressor {
  private readonly items: string[] = [];
  private readonly maxConstraints: number;

  constructor(maxConstraints = 20) {
    if (!Number.isInteger(maxConstraints) || maxConstraints < 0) {
      throw new RangeError(`maxConstraints must be a non-negative integer, got ${maxConstraints}`);
    }
    this.maxConstraints = maxConstraints;
  }

  addConstraint(text: string): this {
    if (typeof text !== "string") throw new TypeError(`constraint must be a string, got ${typeof text}`);
    this.items.push(text);
    return this;
  }

  addConstraints(texts: Iterable<string>): this {
    for (const t of texts) this.addConstraint(t);
    return this;
  }

  /** Pure: the compressor keeps its constraints, so more can be added and compress() run again. */
  compress(): CompressionResult {
    // Exact and near duplicates ("No Tailwind." = "no tailwind") fold into their first wording.
    const { kept, folded } = foldDuplicates(this.items);
    const items: Analysis[] = kept.map(analyze);

    // A subject both rejected and preferred by different constraints is a contradiction: both
    // texts stay verbatim for a human (or the agent) to settle.
    const { conflicts, pinned } = findContradictions(items);

    type Acc = { preferred: string[]; rejected: string[]; reasons: Map<string, string[]>; sources: number };
    const acc: (Acc | undefined)[] = COMPRESSION_RULES.map(() => undefined);
    const verbatim: string[] = [];
    items.forEach((a, i) => {
      if (!a.foldable || pinned.has(i)) {
        verbatim.push(a.text);
        return;
      }
      for (const [rule, labels] of a.subjects) {
        const e: Acc = (acc[rule] ??= { preferred: [], rejected: [], reasons: new Map(), sources: 0 } as Acc);
        e.sources++;
        for (const [label, pol] of labels) if (!e[pol].includes(label)) e[pol].push(label);
        if (a.reason) {
          const of = e.reasons.get(a.reason) ?? [];
          for (const label of labels.keys()) if (!of.includes(label)) of.push(label);
          e.reasons.set(a.reason, of);
        }
      }
    });

    const symbolic: Record<string, SymbolicEntry> = {};
    acc.forEach((e, rule) => {
      if (!e) return;
      // The strategy is what the user asked for, never a guess: no preference, no strategy.
      const strategy = e.preferred.length ? strategyOf(e.preferred[0]) : undefined;
      const reasons = [...e.reasons];
      const reason =
        reasons.length === 1
          ? reasons[0][0]
          : // Several reasons in one entry: say which subjects each one is about.
            reasons.map(([why, labels]) => `${labels.join(", ")}: ${why}`).join("; ");
      symbolic[COMPRESSION_RULES[rule].category] = {
        ...(strategy ? { strategy } : {}),
        preferred: e.preferred,
        rejected: e.rejected,
        ...(reason ? { reason } : {}),
        sources: e.sources,
      };
    });

    return {
      constraints: verbatim.slice(0, this.maxConstraints),
      symbolic,
      conflicts,
      dropped_duplicates: folded.length,
      overflow: verbatim.slice(this.maxConstraints),
    };
  }
}

/** Compresses a snapshot's Layer 2; decisions and excluded paths pass through, deduplicated. */
export function compressLayer2(
  constraints: string[],
  decisions: string[] = [],
  excludedPaths: string[] = [],
  options: { maxConstraints?: number } = {},
): Layer2Compressed {
  const result = new ConstraintCompressor(options.maxConstraints ?? 20)
    .addConstraints(constraints ?? [])
    .compress();
  return {
    ...result,
    decisions: foldDuplicates(decisions ?? []).kept,
    excluded_paths: foldDuplicates(excludedPaths ?? []).kept,
  };
}
