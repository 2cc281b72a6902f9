// Layer 1 (≤300 tokens) and Layer 2 (≤500) against their budgets. A check names the largest field
// (a hook's own fitting and an import use it); a person's or an agent's save is never refused for
// its size: what does not fit moves to Layer 3 under a heading, and the save says what moved.
import { UserError } from "../../errors.ts";
import { compressLayer2 } from "./compressor.ts";
import {
  FILE_LIST_CAPS,
  LAYER1_BUDGET,
  LAYER2_BUDGET,
  inline,
  layer1Text,
  layer2Text,
  shortFileList,
  type Layer1,
  type Layer2,
} from "./layers.ts";
import { countTokens } from "./tokens.ts";

const MOVED_FROM_LAYER1 = "Moved from Layer 1";
const MOVED_FROM_LAYER2 = "Moved from Layer 2";

/** The moved files a save's reply names (the rest it counts; Layer 3 lists them all). */
const NAMED_FILES = 5;

/** A text field of Layer 1 is never cut below this many characters. */
const SHORTEST_FIELD = 20;
const TEXT_FIELDS = ["goal", "state", "next_action", "blocker"] as const;
type TextField = (typeof TEXT_FIELDS)[number];

function overBudget(
  layer: string,
  budget: number,
  total: number,
  fields: Record<string, number>,
  advice: string,
): UserError {
  const [field, tokens] = Object.entries(fields).sort((a, b) => b[1] - a[1])[0];
  return new UserError(
    `${layer} is ${total} tokens, over its ${budget}-token budget; the largest field is ${field} (${tokens} tokens). ${advice} Nothing was saved.`,
  );
}

/** Layer 1 counted as it is rendered with every active file (`load --full` shows them all). */
export function layer1Tokens(l1: Layer1): number {
  return countTokens(layer1Text(l1));
}

/** Checks Layer 1, every active file counted, against its budget, naming the field to shorten. */
export function checkLayer1(l1: Layer1): number {
  const total = layer1Tokens(l1);
  if (total <= LAYER1_BUDGET) return total;
  throw overBudget(
    "Layer 1",
    LAYER1_BUDGET,
    total,
    {
      goal: countTokens(l1.goal),
      state: countTokens(l1.state),
      next_action: countTokens(l1.next_action),
      active_files: countTokens(l1.active_files.join("\n")),
      blocker: countTokens(l1.blocker),
    },
    "Shorten it to one sentence, or move details to Layer 3 (the markdown body).",
  );
}

/**
 * An import keeps the snapshot as its file had it: a long file list passes as the restore block
 * shows it (the first few and "+N more"); only a Layer 1 over budget even so is refused.
 */
export function checkImportedLayer1(l1: Layer1): void {
  for (const cap of FILE_LIST_CAPS)
    if (layer1Tokens({ ...l1, active_files: shortFileList(l1.active_files, cap) }) <= LAYER1_BUDGET) return;
  checkLayer1({ ...l1, active_files: shortFileList(l1.active_files, FILE_LIST_CAPS[2]) });
}

/** What a save moved to Layer 3 to keep its layers within budget (empty lists: nothing). */
export interface Moved {
  /** Layer 1 before it was fitted (tokens), and the text fields shortened, with their words as written. */
  layer1Tokens: number;
  fields: Partial<Record<TextField, string>>;
  files: string[];
  /** Layer 2 before it was fitted (tokens, after compression), and what left it. */
  layer2Tokens: number;
  constraints: string[];
  decisions: string[];
  failures: string[];
}

export function nothingMoved(): Moved {
  return {
    layer1Tokens: 0,
    fields: {},
    files: [],
    layer2Tokens: 0,
    constraints: [],
    decisions: [],
    failures: [],
  };
}

/** A field cut to about four fifths, by whole code points (never half a surrogate pair). */
function shortened(text: string): string {
  const chars = [...text];
  return (
    chars
      .slice(0, Math.max(SHORTEST_FIELD, Math.floor(chars.length * 0.8)))
      .join("")
      .trimEnd() + "…"
  );
}

/**
 * Layer 1 within its budget, every active file counted. The largest part gives way first: the
 * file list loses its last files, or the longest text field is shortened (never below 20
 * characters; its words as written are kept in `moved`).
 */
export function fitLayer1(l1: Layer1, moved: Moved): Layer1 {
  const out: Layer1 = { ...l1, active_files: [...l1.active_files] };
  let total = layer1Tokens(out);
  if (total <= LAYER1_BUDGET) return out;
  moved.layer1Tokens = total;
  while (total > LAYER1_BUDGET) {
    const field = TEXT_FIELDS.filter((f) => [...out[f]].length > SHORTEST_FIELD + 1).sort(
      (a, b) => countTokens(out[b]) - countTokens(out[a]),
    )[0];
    const fieldTokens = field ? countTokens(out[field]) : 0;
    if (out.active_files.length && countTokens(out.active_files.join("\n")) >= fieldTokens) {
      const keep = filesKept(out, fieldTokens);
      moved.files = [...out.active_files.slice(keep), ...moved.files];
      out.active_files = out.active_files.slice(0, keep);
    } else if (field) {
      moved.fields[field] ??= out[field];
      out[field] = shortened(out[field]);
    } else checkLayer1(out); // nothing left to give way: refused, naming the field
    total = layer1Tokens(out);
  }
  return out;
}

/**
 * How many of the first active files stay: the most with which Layer 1 fits, or with which the
 * list is no longer its largest part (then a text field gives way), at least one fewer than now.
 * A binary search: a list of thousands of files costs a few counts, not one per file.
 */
function filesKept(l1: Layer1, fieldTokens: number): number {
  const stays = (k: number) => {
    const files = l1.active_files.slice(0, k);
    return (
      layer1Tokens({ ...l1, active_files: files }) <= LAYER1_BUDGET ||
      countTokens(files.join("\n")) < fieldTokens
    );
  };
  return mostKept(l1.active_files.length - 1, stays);
}

/**
 * Fits Layer 2 into its budget: as given when it fits, else compressed by the Constraint
 * Compression Engine; what still does not fit moves out one item at a time, the least dense first
 * (the spec's ranking: decisions, then failures, then constraints; the last written first).
 */
export function fitLayer2(
  l2: Layer2,
  asWritten = l2.constraints,
  moved = nothingMoved(),
): { layer2: Layer2; tokens: number; compressed: Record<string, unknown> | null } {
  const plain = countTokens(layer2Text(l2));
  if (plain <= LAYER2_BUDGET) return { layer2: l2, tokens: plain, compressed: null };
  // No count limit: only the token budget decides, so compression never drops a constraint.
  const c = compressLayer2(l2.constraints, l2.decisions, [], { maxConstraints: Number.MAX_SAFE_INTEGER });
  let layer2: Layer2 = {
    constraints: c.constraints,
    decisions: c.decisions,
    failure_graph: l2.failure_graph,
    symbolic: c.symbolic,
  };
  let tokens = countTokens(layer2Text(layer2));
  // Compression that saves nothing is not used.
  const used = tokens < plain;
  if (!used) [layer2, tokens] = [l2, plain];
  if (tokens > LAYER2_BUDGET) [layer2, tokens] = spillLayer2(layer2, tokens, moved);
  return {
    layer2,
    tokens,
    compressed: used
      ? {
          symbolic: c.symbolic,
          conflicts: c.conflicts,
          overflow: c.overflow,
          original_constraints: asWritten,
        }
      : null,
  };
}

/**
 * Layer 2 with items moved out (into `moved`) until it fits: the last decisions, then the last
 * failures, then the last constraints, each list cut where it first fits (compressed groups stay:
 * one line each, far within the budget).
 */
function spillLayer2(l2: Layer2, tokens: number, moved: Moved): [Layer2, number] {
  moved.layer2Tokens = tokens;
  const out: Layer2 = {
    ...l2,
    constraints: [...l2.constraints],
    decisions: [...l2.decisions],
    failure_graph: { ...l2.failure_graph },
  };
  const fits = (x: Layer2) => countTokens(layer2Text(x)) <= LAYER2_BUDGET;
  const d = mostKept(out.decisions.length, (k) => fits({ ...out, decisions: out.decisions.slice(0, k) }));
  moved.decisions = out.decisions.splice(d);
  const items = Object.keys(out.failure_graph);
  const f = mostKept(items.length, (k) =>
    fits({ ...out, failure_graph: keepItems(out.failure_graph, items.slice(0, k)) }),
  );
  moved.failures = items.slice(f);
  out.failure_graph = keepItems(out.failure_graph, items.slice(0, f));
  const c = mostKept(out.constraints.length, (k) =>
    fits({ ...out, constraints: out.constraints.slice(0, k) }),
  );
  moved.constraints = out.constraints.splice(c);
  return [out, countTokens(layer2Text(out))];
}

const keepItems = (graph: Layer2["failure_graph"], items: string[]) =>
  Object.fromEntries(items.map((i) => [i, graph[i]]));

/** The most of `n` items kept with which `fits` holds (0 when none does): a binary search, a few counts for thousands of items. */
function mostKept(n: number, fits: (k: number) => boolean): number {
  if (fits(n)) return n;
  let [lo, hi] = [0, n - 1];
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The Layer 3 sections holding what moved (empty when nothing did). */
export function movedSections(moved: Moved, graph: Layer2["failure_graph"]): string {
  const parts: string[] = [];
  const fields = Object.entries(moved.fields);
  if (fields.length || moved.files.length) {
    parts.push(
      [
        `### ${MOVED_FROM_LAYER1} (over its ${LAYER1_BUDGET}-token budget)`,
        ...fields.map(([f, text]) => `${f} (as written): ${text}`),
        ...(moved.files.length ? ["active files:", ...moved.files.map((f) => `- ${f}`)] : []),
      ].join("\n"),
    );
  }
  if (moved.decisions.length || moved.failures.length || moved.constraints.length) {
    parts.push(
      [
        `### ${MOVED_FROM_LAYER2} (over its ${LAYER2_BUDGET}-token budget)`,
        ...(moved.constraints.length ? ["constraints:", ...moved.constraints.map((x) => `- ${x}`)] : []),
        ...(moved.failures.length
          ? [
              "failures (still in the project's failure graph):",
              ...moved.failures.map((x) => `- ${x}: ${graph[x]?.reason ?? "rejected"}`),
            ]
          : []),
        ...(moved.decisions.length ? ["decisions:", ...moved.decisions.map((x) => `- ${x}`)] : []),
      ].join("\n"),
    );
  }
  return parts.join("\n\n");
}

/** The save's words for what moved: each layer over budget, its size, and every part that left it. */
export function movedWarnings(moved: Moved): string[] {
  const out: string[] = [];
  const count = (n: number, what: string) => (n ? [`${n} ${what}`] : []);
  const l1 = [
    ...Object.keys(moved.fields).map((f) => `the rest of ${f}`),
    ...count(moved.files.length, "active file(s)"),
  ];
  if (l1.length) {
    const named = moved.files.slice(0, NAMED_FILES).map(inline).join(", ");
    const files = moved.files.length
      ? ` (${named}${moved.files.length > NAMED_FILES ? `, … ${moved.files.length - NAMED_FILES} more` : ""})`
      : "";
    out.push(
      `Layer 1 was ${moved.layer1Tokens} tokens, over its ${LAYER1_BUDGET}-token budget: moved to Layer 3 under "${MOVED_FROM_LAYER1}": ${l1.join(", ")}${files}.`,
    );
  }
  const l2 = [
    ...count(moved.decisions.length, "decision(s)"),
    ...count(moved.failures.length, "failure(s)"),
    ...count(moved.constraints.length, "constraint(s)"),
  ];
  if (l2.length)
    out.push(
      `Layer 2 was ${moved.layer2Tokens} tokens, over its ${LAYER2_BUDGET}-token budget: moved to Layer 3 under "${MOVED_FROM_LAYER2}": ${l2.join(", ")}.`,
    );
  return out;
}
