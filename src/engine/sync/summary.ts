// What a sync changed (or a dry run would change), in words: one text for the CLI and the TUI.
import { CATEGORIES, type Counts, type SyncResult } from "./sync.ts";

const LABEL: Record<(typeof CATEGORIES)[number], string> = { snapshots: "snapshots", failures: "failures", projects: "projects", roots: "host roots", other: "hosts, signals, tool log" };

/** "snapshots +1 added, ~2 updated; failures -1 deleted", or "nothing". */
export function countsText(c: Counts): string {
  const parts = CATEGORIES.map((k) => {
    const { added, updated, deleted } = c[k];
    if (!added && !updated && !deleted) return null;
    return `${LABEL[k]} ${[added && `+${added} added`, updated && `~${updated} updated`, deleted && `-${deleted} deleted`].filter(Boolean).join(", ")}`;
  }).filter(Boolean);
  return parts.length ? parts.join("; ") : "nothing";
}

/** The lines under a sync's heading: each direction, then how much was read. */
export function syncDetails(r: SyncResult): string[] {
  return [
    `  into this store: ${countsText(r.pulled)}`,
    `  into the peer:   ${countsText(r.pushed)}`,
    `  (read ${r.read.from_peer} change(s) there and ${r.read.from_here} here since the last sync)`,
  ];
}

export function syncSummary(r: SyncResult): string {
  return [`${r.dry_run ? "Would sync" : "Synced"} with ${r.peer}:`, ...syncDetails(r)].join("\n");
}
