// What a sync changed (or a dry run would change), in words: one text for the CLI and the TUI.
import type { CATEGORIES, Counts, SyncResult } from "./sync.ts";
import type { Refused } from "./peer-rows.ts";
import { stripControl } from "../snapshots/input-limits.ts";
import { tableWords } from "../../store/table-words.ts";

// Each kind's noun for one and for more. Bookkeeping (which hosts exist, pressure signals) syncs too
// but is not what a person asks about.
const NOUN: Record<Exclude<(typeof CATEGORIES)[number], "bookkeeping">, [string, string]> = {
  snapshots: ["snapshot", "snapshots"],
  failures: ["failure", "failures"],
  rules: ["rule", "rules"],
  facts: ["fact", "facts"],
  retirements: ["retirement", "retirements"],
  projects: ["project", "projects"],
  roots: ["project folder", "project folders"],
  tool_calls: ["tool call", "tool calls"],
};

const CHANGES = ["added", "updated", "deleted"] as const;

/** One kind's changes, the noun after the first number: "1 snapshot added, 2 updated"; null when none. */
function kindText([one, many]: [string, string], counts: Counts[keyof Counts]): string | null {
  const said = CHANGES.filter((change) => counts[change] > 0);
  if (!said.length) return null;
  const n = (change: (typeof CHANGES)[number]) => counts[change].toLocaleString("en-US");
  const [first, ...rest] = said;
  const noun = counts[first] === 1 ? one : many;
  return [`${n(first)} ${noun} ${first}`, ...rest.map((change) => `${n(change)} ${change}`)].join(", ");
}

/**
 * "1 snapshot added, 2 updated; 3 failures deleted", or "nothing". Updated: a row both stores had,
 * changed by the other side's later edit or a merge. The words say it, so no +/~/- marks beside the numbers.
 */
export function countsText(c: Counts): string {
  const parts = (Object.keys(NOUN) as (keyof typeof NOUN)[])
    .map((k) => kindText(NOUN[k], c[k]))
    .filter(Boolean);
  return parts.length ? parts.join("; ") : "nothing";
}

/** The lines under a sync's heading: what came in, what went out. */
export function syncDetails(r: SyncResult): string[] {
  return [
    `  into this store: ${countsText(r.pulled)}`,
    `  into the peer:   ${countsText(r.pushed)}`,
    // Said, never silent: which plans took steps from both sides.
    ...(r.plans_merged?.length
      ? [
          `  plans edited on both sides since the last sync, merged step by step (each step at its later change; where that cannot be told, its furthest status; check \`mindsave plan\`): ${r.plans_merged.join(", ")}`,
        ]
      : []),
    // Said, never silent: a copy of a store found and told apart.
    ...(r.reidentified ?? []).map((x) =>
      x.side === "peer"
        ? "  the peer is a copy of a store this one synced with before (the same store id, another history since): it has an id of its own now, and the two stores exchanged everything"
        : "  this store is a copy of one the peer synced with before (the same store id, another history since): it has an id of its own now, and the two stores exchanged everything",
    ),
    ...(r.completed_kept?.length
      ? [
          `  snapshots completed on one side while the other edited them since the last sync, kept completed: ${r.completed_kept.join(", ")}`,
        ]
      : []),
    // Said, never silent: rows one side would not take; the rest merged all the same.
    ...(r.refused?.from_peer.length
      ? [`  ${refusedText(r.refused.from_peer, r.peer, "the rest merged; `mindsave doctor` lists them")}`]
      : []),
    ...(r.refused?.from_here.length
      ? [`  ${refusedText(r.refused.from_here, "this store", "by the peer; the rest merged")}`]
      : []),
  ];
}

/** How many refused rows a summary names (--json and `mindsave doctor` have them all). */
const NAMED = 3;

/** A row's kind (in the product's words) and key as a sentence may show them: a key from outside is cut short and cleaned. */
function rowName(table: string, key: string): string {
  const clean = [...stripControl(key.replaceAll("\u001f", "/"))];
  return `${tableWords(table)} ${clean.length > 60 ? `${clean.slice(0, 60).join("")}…` : clean.join("")}`;
}

/** "2 rows from PEER refused, not merged (…): snapshots ID: constraints is not …; …". */
export function refusedText(rows: Refused[], from: string, how: string): string {
  const named = rows.slice(0, NAMED).map((x) => `${rowName(x.table, x.key)}: ${x.why}`);
  const more = rows.length > NAMED ? `; and ${rows.length - NAMED} more` : "";
  return `${rows.length} row${rows.length === 1 ? "" : "s"} from ${from} refused, not merged (${how}): ${named.join("; ")}${more}`;
}

export function syncSummary(r: SyncResult): string {
  return [`${r.dry_run ? "Would sync" : "Synced"} with ${r.peer}:`, ...syncDetails(r)].join("\n");
}
