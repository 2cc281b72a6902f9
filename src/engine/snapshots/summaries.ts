// The texts the CLI and the MCP server both show for snapshot use cases, rendered once here so the
// two adapters never drift apart: the save summary, the numbered list, verify, recall hits.
import { DEFAULT_KEEP, LAYER1_BUDGET, LAYER2_BUDGET, inline } from "./layers.ts";
import { COMPLETED_MAX_AGE_DAYS } from "./retention.ts";
import type { SaveResult } from "./save.ts";
import {
  age,
  ageAgo,
  fitMiddle,
  padEnd,
  printable,
  truncate,
  utcMinute,
  width as textWidth,
} from "../../lib/text.ts";
import type { FileCheck } from "./verify.ts";
import type { SnapshotRecord, SnapshotSummary } from "../../store/store.ts";
import type { RecallHits } from "./recall.ts";

/** Who reads the text: a person at the CLI, or a model through MCP (which restores with the load tool). */
export type Audience = "cli" | "mcp";

/** The save summary; warnings are not included (the CLI prints them on stderr, MCP before this). */
export function saveSummary(r: SaveResult, audience: Audience, keep = DEFAULT_KEEP): string[] {
  const snap = r.snapshot;
  const l2 = snap.kind === "overflow" ? "Layer 1 only" : `L2 ${snap.l2_tokens}/${LAYER2_BUDGET}`;
  const block = r.restore.budget
    ? `; restore block ${r.restore.tokens}/${r.restore.budget} on this host`
    : "";
  const lines = [
    `💾 MindSave checkpoint saved: ${snap.name} (project ${r.context.project.name}; L1 ${snap.l1_tokens}/${LAYER1_BUDGET} tokens, ${l2}${block}).`,
  ];
  if (r.archived.length) {
    lines.push(
      `Archived ${r.archived.length} older snapshot(s) (completed ones past ${COMPLETED_MAX_AGE_DAYS} days, or past the newest ${keep}): ${someNames(r.archived)}. Nothing was deleted; \`mindsave snapshots list --all\` shows them.`,
    );
  }
  const how = audience === "cli" ? "`mindsave load` (/load for agents)" : "the load tool";
  lines.push(
    snap.kind === "overflow"
      ? `⚠️ Overflow snapshot saved (Layer 1 only). Start a new session and restore it with ${how}.`
      : `Restore it in a new session with ${how}.`,
  );
  return lines;
}

/** How to see the archived snapshots (those with `tag`), said where a list or a load leaves them out. */
function seeArchived(audience: Audience, tag?: string): string {
  const tagged = tag === undefined ? "" : JSON.stringify(tag);
  if (audience === "cli") return `\`mindsave snapshots list --all${tagged && ` --tag ${tagged}`}\``;
  return `the list tool with all: true${tagged && ` and tag: ${tagged}`}`;
}

/** The line a list (filtered by `tag`: its count is of those) ends with when retention archived some. */
export function archivedCountText(count: number, audience: Audience, tag?: string): string {
  const tagged = tag === undefined ? "" : ` tagged ${JSON.stringify(tag)}`;
  return `${count} older snapshot(s)${tagged} are archived: ${seeArchived(audience, tag)} shows them.`;
}

/** The line a load of an archived snapshot opens with (a listed one has none). */
export function archivedLoadText(audience: Audience): string {
  return `Archived: retention left this snapshot out of the default lists (${seeArchived(audience)} shows it); it is whole.`;
}

/** The first `most` names and how many more: a first save after an upgrade may archive 100,000. */
export function someNames(names: string[], most = 5): string {
  return names.length <= most
    ? names.join(", ")
    : `${names.slice(0, most).join(", ")} and ${names.length - most} more`;
}

/**
 * "1. name  age  status  goal", one line a snapshot, newest first, each at most `columns` wide (on
 * a `screen`: see listRows; off one, names whole and only the goal cut). Numbered as `load N` takes
 * them: an archived snapshot has no number and says so. Names stay whole off a screen: a model or
 * script reads them. `numbers`: a filtered list's own (catalog.ts snapshotList), each row's number
 * in the whole list.
 */
export function numberedList(
  choices: SnapshotSummary[],
  now: Date,
  columns = 120,
  labels: Map<string, string> = new Map(),
  screen = false,
  numbers = listNumbers(choices),
): string {
  const width = String(Math.max(choices.length, ...numbers.map((n) => n ?? 0))).length;
  return listRows(
    {
      lead: numbers.map((n) => (n === undefined ? " ".repeat(width + 1) : `${String(n).padStart(width)}.`)),
      // Two snapshots of one name (two hosts, then a sync) say their host and id prefix (sameNameLabels).
      names: choices.map((c) => (labels.has(c.id) ? `${c.name} (${labels.get(c.id)})` : c.name)),
      archived: choices.map((c) => c.archived),
      between: [
        ageColumn(choices, now, screen),
        { cells: choices.map((c) => c.status), width: 11, givesWay: 2 },
      ],
      goals: choices.map((c) => c.goal),
      goalLeast: 10,
    },
    screen ? columns : null,
    columns,
  ).lines.join("\n");
}

/**
 * A list's age column: on a screen short ("54s ago", as wide as its widest) and the first to give
 * way on a narrow one, since the name's date stands for it; off one as it always read ("12 min ago").
 */
export function ageColumn(rows: { created_at: string }[], now: Date, screen: boolean): BetweenColumn {
  if (!screen) return { cells: rows.map((r) => age(r.created_at, now, "long")), width: 12 };
  const cells = rows.map((r) => ageAgo(r.created_at, now));
  return { cells, width: Math.max(...cells.map(textWidth)), givesWay: 1 };
}

/** A column between a list's name and its goal; on a narrow screen those of the lowest `givesWay` go first. */
export interface BetweenColumn {
  cells: string[];
  width: number;
  /** None: kept on any screen. */
  givesWay?: number;
}

/** A list's rows before they are laid out: each row's lead (its number), name, columns and goal. */
export interface ListRowParts {
  lead: string[];
  names: string[];
  archived: boolean[];
  between: BetweenColumn[];
  goals: string[];
  /** Off a screen, the goal's columns at the least (a long whole name pushes the row past `width`). */
  goalLeast: number;
}

/** Under this many columns for its goal, a row on a screen gives up the columns that give way. */
const GOAL_MIN = 20;

/**
 * "lead name  column column … goal" rows. On a screen `columns` wide (not null) each row fits it:
 * the columns that give way go first (while the goal would get under GOAL_MIN past a name of
 * NAME_MIN), then names are cut in their middle for the goals most rows need (goalRoom), then the
 * goals. Off a screen names stay whole and the goal gets the rest of `width`.
 */
export function listRows(
  parts: ListRowParts,
  columns: number | null,
  width = 120,
): { lines: string[]; kept: BetweenColumn[] } {
  const leadW = Math.max(0, ...parts.lead.map(textWidth));
  // The lead and a space, two spaces after the name, each column and a space.
  const fixed = (kept: BetweenColumn[]) => leadW + 3 + kept.reduce((n, c) => n + c.width + 1, 0);
  let kept = parts.between;
  while (columns !== null && fixed(kept) + NAME_MIN + GOAL_MIN > columns) {
    const first = Math.min(...kept.map((c) => c.givesWay ?? Infinity));
    if (first === Infinity) break;
    kept = kept.filter((c) => c.givesWay !== first);
  }
  const { cells, width: nameW } = nameColumn(
    parts.names,
    parts.archived,
    columns === null ? Infinity : columns - fixed(kept) - goalRoom(parts.goals),
  );
  const goalW =
    columns === null
      ? Math.max(parts.goalLeast, width - fixed(kept) - nameW)
      : Math.max(1, columns - fixed(kept) - nameW);
  const lines = parts.lead.map((lead, i) => {
    const between = kept.map((c) => `${padEnd(c.cells[i], c.width)} `).join("");
    return `${padEnd(lead, leadW)} ${padEnd(cells[i], nameW)}  ${between}${truncate(parts.goals[i], goalW)}`;
  });
  return { lines, kept };
}

/** The share of a list's goals kept whole before its names are cut: one long goal must not cut every name. */
const GOALS_WHOLE = 0.8;

/**
 * The columns a list keeps for its goals before its names: the width most goals need (that of the
 * goal at GOALS_WHOLE of them, by width), `least` at least. The goal tells snapshots apart ("…,
 * round 297"); a name is mostly the goal's start and a date, so names are cut first (to NAME_MIN),
 * then goals; a goal wider than most is cut rather than every name.
 */
export function goalRoom(goals: string[], least = 10): number {
  const widths = goals.map((g) => textWidth(g.trim())).sort((a, b) => a - b);
  return Math.max(least, widths[Math.ceil(widths.length * GOALS_WHOLE) - 1] ?? 0);
}

/** Below this many columns a cut name no longer tells snapshots apart; a narrower screen wraps instead. */
const NAME_MIN = 20;
/** A name's end that a cut keeps: its date and a -N suffix ("_2026-11-28-2"). */
const NAME_END = 13;

/**
 * A list's name column, widths by display columns (a CJK character takes two), at most `room` wide
 * so each row fits the screen: a wider name keeps its start (a prefix selects it) and its date.
 * An archived snapshot's name says so after the cut.
 */
function nameColumn(names: string[], archived: boolean[], room: number): { cells: string[]; width: number } {
  const cells = names.map((n, i) => (archived[i] ? { name: n, tail: " (archived)" } : { name: n, tail: "" }));
  const widest = Math.max(...cells.map((c) => textWidth(c.name) + textWidth(c.tail)));
  const w = Math.min(widest, Math.max(NAME_MIN, room));
  return {
    cells: cells.map((c) => fitMiddle(c.name, w - textWidth(c.tail), "…", NAME_END) + c.tail),
    width: w,
  };
}

/** Each snapshot's list number (1 = newest listed), as `load N` takes it; none for an archived one. `before`: listed ones ahead of this page. */
export function listNumbers(choices: SnapshotSummary[], before = 0): (number | undefined)[] {
  let n = before;
  return choices.map((c) => (c.archived ? undefined : ++n));
}

export function verifyText(checks: FileCheck[]): string {
  const off = checks.filter((c) => c.status === "missing" || c.status === "modified");
  if (!checks.length) return "✓ Verify: the snapshot lists no active files.\n";
  const unchecked = checks.filter((c) => c.status === "unknown").length;
  const notChecked = unchecked
    ? `; ${unchecked} not checked: outside the project on the laptop that saved it, or saved without a fingerprint`
    : "";
  if (!off.length)
    return `✓ Workspace matches the snapshot (${checks.length - unchecked} active file(s) unchanged${notChecked}).\n`;
  const lines = off.map((c) =>
    c.status === "missing"
      ? `- ${c.path} is missing on this host (${c.absolute})`
      : `- ${c.path} has changed since the snapshot (last modified: ${c.modified_at?.slice(0, 16).replace("T", " ")} UTC)`,
  );
  return [
    "⚠ Workspace differs from snapshot:",
    ...lines,
    ...(unchecked
      ? [
          `(${unchecked} not checked: outside the project on the laptop that saved it, or saved without a fingerprint.)`,
        ]
      : []),
    "Check these files before continuing.",
    "",
  ].join("\n");
}

/** Recall's hits, newest first, with a context line each; `moreHint` says how to see more. */
export function recallHitsText(r: RecallHits, moreHint: string): string {
  const retired = r.retired.map(
    (x) =>
      `retired ${x.kind}: ${inline(x.text)} (by ${inline(x.retired_by)}, ${utcMinute(x.retired_at)}${x.reason ? `: ${inline(x.reason)}` : ""})`,
  );
  const tail = retired.length ? `\n\n${retired.join("\n")}` : "";
  if (!r.tag?.carried && r.tag && r.project)
    return `No snapshot of ${r.project} is tagged ${JSON.stringify(r.tag.name)}.${tail}`;
  const tagged = r.tag ? ` tagged ${JSON.stringify(r.tag.name)}` : "";
  if (!r.hits.length)
    return `No snapshot${tagged} mentions ${JSON.stringify(r.query)}${r.project ? ` in project ${r.project}` : ""}.${tail}`;
  // An archived hit is marked: `snapshots list` leaves it out, `load NAME` still takes it.
  const label = (h: RecallHits["hits"][number]) =>
    `${h.project_name ? `${h.project_name} / ` : ""}${h.name}${h.archived ? " (archived)" : ""}`;
  const w = Math.max(...r.hits.map((h) => Bun.stringWidth(label(h))));
  const lines = r.hits.map(
    (h) =>
      `${padEnd(label(h), w)}  ${utcMinute(h.created_at)}  ${truncate(h.goal, 60)}\n    ${printable(h.context)}`,
  );
  const head = r.more
    ? `More than ${r.hits.length} snapshots match; the newest ${r.hits.length} (${moreHint}):`
    : `${r.hits.length} snapshot(s) match, newest first:`;
  return `${head}\n${lines.join("\n")}${tail}`;
}

export function archiveText(s: SnapshotRecord, text: string, newest?: string, tag?: string): string {
  const tagged = tag === undefined ? "" : ` tagged ${JSON.stringify(tag)}`;
  const note = newest
    ? `The newest snapshot${tagged}, ${newest}, has no Layer 3; this is the newest${tag === undefined ? "" : " tagged"} one that has.\n\n`
    : "";
  return `${note}## Layer 3: Cold Archive of ${s.name}\n\n${text || "(empty: this snapshot has no cold archive)"}`;
}
