// The picker's rows as text, without React: the rows a search answers (full-text words, within a
// tag), tags completed as typed, which two snapshots `d` compares, and the title's counts.
import type { SnapshotSummary } from "../../src/engine/snapshots/catalog.ts";
import { search } from "../../src/engine/snapshots/recall.ts";
import type { Session } from "../../src/engine/session.ts";
import { fit, width } from "../../src/lib/text.ts";
import { nameRoom } from "./Frame.tsx";

/** At most this many search hits are listed (the title then says "500+ of N match"). */
export const SEARCH_LIMIT = 500;

export interface Row {
  id: string;
  name: string;
  created_at: string;
  status: string;
  goal: string;
  tags?: string[];
  context?: string;
  archived?: boolean;
}

/** The rows for a query and a tag, saying which they answer (keys that act on rows wait for the right ones); null: no query (the list's pages answer a tag alone). */
export interface Filtered {
  query: string;
  tag: string;
  rows: Row[];
  more: boolean;
  error?: string;
}

export async function filteredRows(
  session: Session,
  projectId: string,
  query: string,
  tag: string,
  archived: boolean,
): Promise<Filtered | null> {
  if (!query.trim()) return null;
  try {
    const r = await search(session, projectId, [query], SEARCH_LIMIT, {
      tag: tag || undefined,
      listed: !archived,
    });
    return { query, tag, rows: r.hits as Row[], more: r.more };
  } catch (e) {
    return { query, tag, rows: [] as Row[], more: false, error: (e as Error).message };
  }
}

/** A search hit's context without the goal it starts with (the row shows the goal already). */
export function contextAfterGoal(context: string, goal: string): string {
  const plain = context.replace(/[«»]/g, "").replace(/^…/, "");
  return plain.startsWith(goal) ? plain.slice(goal.length).replace(/^\s*·\s*/, "") || plain : plain;
}

/** The tag as the store compares it: trimmed, without a leading "#". */
export const tagKey = (tag: string) => tag.trim().replace(/^#+/, "");

/** The project's tags (most used first) that start with what was typed, case folded. */
export function tagsStarting(typed: string, tags: string[]): string[] {
  const key = tagKey(typed).toLowerCase();
  return tags.filter((t) => t.toLowerCase().startsWith(key));
}

/** Enter in the tag field: the only tag that starts with what was typed, when it says more than that. */
export function onlyCompletion(typed: string, tags: string[]): string | undefined {
  if (!tagKey(typed)) return undefined;
  const [only, ...more] = tagsStarting(typed, tags);
  return only && !more.length && only.toLowerCase() !== tagKey(typed).toLowerCase() ? only : undefined;
}

/**
 * What the tag field says after the tag typed, within `cols`: the tags here that start so, and what
 * Enter or Tab takes (left out first when the tags would not show).
 */
export function tagHint(typed: string, tags: string[], cols: number, ellipsis: string): string {
  const known = tagsStarting(typed, tags);
  const only = onlyCompletion(typed, tags);
  if (!known.length) return `  ${fit("(no snapshot here has such a tag)", cols - 2, ellipsis)}`;
  const lead = "  tags here: ";
  const next = only
    ? `  (Enter keeps #${only})`
    : tagKey(typed) && known.length > 1
      ? `  (Tab: #${known[0]})`
      : "";
  const list = tagList(known, cols - width(lead) - width(next), ellipsis);
  if (!next || (list && list !== ellipsis)) return `${lead}${list}${next}`;
  return `${lead}${tagList(known, cols - width(lead), ellipsis)}`;
}

/**
 * The widths a long tag is cut to, widest first: the widest at which three tags show (or as many as
 * show at all), so one long tag leaves room for the others and short ones stay whole.
 */
const TAG_CUTS = [16, 10, 7];

/**
 * Tags as "#a #b", within `cols`, most used first: all whole when they fit; else the long ones cut
 * to one width ("#release-… #性能优化… #x"), the first ones that fit so, then "+N more". The first (what
 * Tab takes) always shows: shortened to its start, else "…".
 */
export function tagList(tags: string[], cols: number, ellipsis: string): string {
  const more = (shown: number) => (shown < tags.length ? ` +${tags.length - shown} more` : "");
  const line = (shown: number, cut: number) =>
    tags
      .slice(0, shown)
      .map((t) => `#${fit(t, cut, ellipsis)}`)
      .join(" ") + more(shown);
  const counts = TAG_CUTS.map((cut) => tagsShown(tags, cols, cut, (n) => width(more(n)), ellipsis));
  const enough = Math.min(3, counts.at(-1)!);
  const at = counts.findIndex((n) => n > 0 && n >= enough);
  if (at < 0) return firstTagStart(tags[0], cols, ellipsis);
  const shown = counts[at];
  // The widest cut that fits: the room left goes to the long tags.
  let [lo, hi] = [TAG_CUTS[at], Math.max(TAG_CUTS[at], ...tags.slice(0, shown).map(width))];
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (width(line(shown, mid)) <= cols) lo = mid;
    else hi = mid - 1;
  }
  return line(shown, lo);
}

/** How many tags show, each cut to `cut` columns, with "+N more" (`moreWidth`) after them; 0 when not even the first. */
function tagsShown(
  tags: string[],
  cols: number,
  cut: number,
  moreWidth: (shown: number) => number,
  ellipsis: string,
): number {
  let used = -1; // no space before the first
  let shown = 0;
  for (let n = 1; n <= tags.length && used < cols; n++) {
    used += 2 + width(fit(tags[n - 1], cut, ellipsis)); // " #" and the tag
    if (used + moreWidth(n) <= cols) shown = n;
  }
  return shown;
}

/** The first tag in a room too small for the narrowest cut: its start when a character of it shows, else "…", never "#…". */
function firstTagStart(tag: string | undefined, cols: number, ellipsis: string): string {
  if (tag === undefined) return "";
  const room = cols - 1;
  const start = room > width(ellipsis) ? fit(tag, room, ellipsis) : "";
  if (start && start !== ellipsis) return `#${start}`;
  return width(ellipsis) <= cols ? ellipsis : "";
}

/** The snapshot saved before one in the project's list (null: it is the oldest; undefined: no such snapshot). */
export type SnapshotBefore = (
  id: string,
) => Promise<
  { snapshot: { id: string; name: string }; before: Pick<SnapshotSummary, "id"> | null } | undefined
>;

/**
 * What `d` compares: the two marked, the marked and the selected, or the selected (or the one
 * marked) and the one saved before it in the project, whatever the filter shows. A refusal when that
 * one is the oldest; null when there is nothing to compare.
 */
export async function diffPair(
  marked: string[],
  row: Row | undefined,
  snapshotBefore: SnapshotBefore,
): Promise<{ from: string; to: string } | { refusal: string } | null> {
  if (marked.length === 2) return { from: marked[0], to: marked[1] };
  if (marked.length === 1 && row && row.id !== marked[0]) return { from: marked[0], to: row.id };
  const one = marked[0] ?? row?.id;
  const found = one === undefined ? undefined : await snapshotBefore(one);
  if (!found) return null;
  if (!found.before)
    return {
      refusal: `${found.snapshot.name} is the oldest snapshot: nothing before it to compare with. Mark another with Space.`,
    };
  return { from: found.before.id, to: found.snapshot.id };
}

/** The title's count: all the snapshots, or how many of them a query or a tag keeps ("500+" when the search stopped). */
export function pickerCount(
  o: { query: string; tag: string; shown: string; total: number; archived: boolean },
  extras: string[],
  sep: string,
): string {
  const count = o.query.trim()
    ? `${o.shown} of ${o.total} match`
    : o.tag
      ? `${o.shown} of ${o.total} snapshots`
      : `${o.total} snapshot${o.total === 1 ? "" : "s"}`;
  return `${count}${o.archived ? " (archived too)" : ""}${extras.map((x) => ` ${sep} ${x}`).join("")}`;
}

/**
 * The picker's title: the project, the count, the tag and marks, then how many are archived when
 * they are hidden (with the key that shows them while the name keeps 8 columns). The name gives way.
 */
export function pickerTitle(
  projectName: string,
  counts: string,
  archived: number,
  w: number,
  g: { sep: string; ellipsis: string },
): string {
  const n = archived.toLocaleString("en-US");
  const notes = archived ? [` ${g.sep} ${n} archived (a shows them)`, ` ${g.sep} ${n} archived`] : [""];
  const rest =
    notes.map((note) => `${counts}${note}`).find((r) => nameRoom(w, g.sep, ` ${g.sep} ${r}`) >= 8) ??
    `${counts}${notes.at(-1)}`;
  return `${fit(projectName, Math.max(8, nameRoom(w, g.sep, ` ${g.sep} ${rest}`)), g.ellipsis)} ${g.sep} ${rest}`;
}

/** What the list says when it has no row: an error, loading, searching, or that nothing matches. */
export function emptyText(o: {
  error?: Error;
  loading: boolean;
  narrowed: boolean;
  answered: boolean;
  result?: Filtered;
  query: string;
  tag: string;
  /** While the tag is typed: the only tag that starts so (what Enter keeps), if any. */
  completion?: string;
}): string {
  if (o.error) return o.error.message;
  if (o.loading) return "Loading…";
  if (!o.narrowed) return "No snapshots in this project.";
  if (!o.answered) return "Searching…";
  return (
    o.result?.error ??
    (o.query.trim()
      ? `Nothing matches "${o.query}"${o.tag ? ` among #${o.tag}` : ""}.`
      : o.completion
        ? `No snapshot is tagged #${o.tag} itself; Enter keeps #${o.completion}.`
        : `No snapshot is tagged #${o.tag}.`)
  );
}
