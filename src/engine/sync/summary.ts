// What a sync changed (or a dry run would change), in words: one text for the CLI and the TUI.
import type { CATEGORIES, Counts, SyncResult } from "./sync.ts";
import type { Refused } from "./peer-rows.ts";
import { stripControl } from "../snapshots/input-limits.ts";

// Bookkeeping (which hosts exist, pressure signals) syncs too but is not what a person asks about.
const LABEL: Record<Exclude<(typeof CATEGORIES)[number], "bookkeeping">, string> = {
  snapshots: "snapshots",
  failures: "failures",
  rules: "rules",
  facts: "facts",
  retirements: "retirements",
  projects: "projects",
  roots: "project folders",
  tool_calls: "tool calls",
};

/**
 * "snapshots 1 added, 2 updated; failures 1 deleted", or "nothing". Updated: a row both stores had,
 * changed by the other side's later edit or a merge. The words say it, so no +/~/- marks beside the numbers.
 */
export function countsText(c: Counts): string {
  const parts = (Object.keys(LABEL) as (keyof typeof LABEL)[])
    .map((k) => {
      const { added, updated, deleted } = c[k];
      if (!added && !updated && !deleted) return null;
      return `${LABEL[k]} ${[added && `${added} added`, updated && `${updated} updated`, deleted && `${deleted} deleted`].filter(Boolean).join(", ")}`;
    })
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

/** A row's table and key as a sentence may show them: a key from outside is cut short and cleaned. */
function rowName(table: string, key: string): string {
  const clean = [...stripControl(key.replaceAll("\u001f", "/"))];
  return `${table} ${clean.length > 60 ? `${clean.slice(0, 60).join("")}…` : clean.join("")}`;
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
