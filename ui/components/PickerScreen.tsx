// The snapshot picker: newest first, `/` filters as you type with the same full-text search as
// `mindsave recall`, `t` keeps only a tag's snapshots; only the visible rows are rendered, so 5,000
// snapshots scroll instantly. Space marks two snapshots and `d` shows what changed between them.
// Archived snapshots (retention's, see engine/snapshots/retention.ts) are left out until `a` shows them.
import { useEffect, useRef, useState } from "react";
import { Box, Text } from "ink";
import { useKeys } from "../hooks/useKeys.ts";
import { TextField } from "./TextField.tsx";
import { useRefState } from "../hooks/useRefState.ts";
import { editField, field, type Field } from "../hooks/textEdit.ts";
import { archivedCount, projectSnapshots } from "../../src/engine/snapshots/catalog.ts";
import { search } from "../../src/engine/snapshots/recall.ts";
import { inline } from "../../src/engine/snapshots/layers.ts";
import { useUi } from "../context.ts";
import { useAsync } from "../hooks/useAsync.ts";
import { useListNavigation } from "../hooks/useListNavigation.ts";
import { useHeldSelection } from "../hooks/useHeldSelection.ts";
import { AGES_EVERY_MS, useTick } from "../hooks/useTick.ts";
import { age, fit, fitMiddle, fitStart, pad, padEnd, width } from "../../src/lib/text.ts";
import { Frame, nameRoom, statusHeight } from "./Frame.tsx";
import type { HelpKeys } from "./HelpOverlay.tsx";

export const PICKER_KEYS: HelpKeys = [
  ["↑/↓ j/k", "move"],
  ["PgUp/PgDn g/G", "page, first, last"],
  ["/", "filter (full-text, as `mindsave recall`)"],
  ["t", "only the snapshots with a tag (Tab completes it, Enter keeps it, Esc clears it)"],
  ["Enter", "open the snapshot"],
  ["a", "show or hide archived snapshots (retention leaves them out; nothing is deleted)"],
  ["Space", "mark or unmark the snapshot (two at most)"],
  [
    "d",
    "what changed: between the two marked, the marked and the selected, or the selected and the one before it",
  ],
  ["R", "standing rules"],
  ["F", "facts (renew or drop expired ones)"],
  ["f", "failure graph"],
  ["?", "keys"],
  ["q Esc", "back (Esc first clears the filter, then the tag)"],
];

/** At most this many search hits are listed (the title then says "500+ of N match"). */
export const SEARCH_LIMIT = 500;

interface Row {
  id: string;
  name: string;
  created_at: string;
  status: string;
  goal: string;
  tags?: string[];
  context?: string;
  archived?: boolean;
}

/**
 * Rows whose name another row shares (two hosts saved it the same day, then a sync met them): each
 * one's id prefix, the shortest from 8 characters that no other row's id starts with — what the
 * CLI also takes to choose one.
 */
export function twinIds(rows: { id: string; name: string }[]): Map<string, string> {
  const count = new Map<string, number>();
  for (const r of rows) count.set(r.name, (count.get(r.name) ?? 0) + 1);
  const out = new Map<string, string>();
  for (const r of rows) {
    if ((count.get(r.name) ?? 0) < 2) continue;
    let n = 8;
    while (n < r.id.length && rows.some((o) => o.id !== r.id && o.id.startsWith(r.id.slice(0, n)))) n++;
    out.set(r.id, r.id.slice(0, n));
  }
  return out;
}

/** A search hit's context without the goal it starts with (the row shows the goal already). */
function contextAfterGoal(context: string, goal: string): string {
  const plain = context.replace(/[«»]/g, "").replace(/^…/, "");
  return plain.startsWith(goal) ? plain.slice(goal.length).replace(/^\s*·\s*/, "") || plain : plain;
}

/** The tag as the store compares it: trimmed, without a leading "#". */
const tagKey = (tag: string) => tag.trim().replace(/^#+/, "");

/** The project's tags that start with what was typed (case folded), in the order the snapshots show them. */
function tagsStarting(typed: string, snapshots: { tags: string[] }[]): string[] {
  const key = tagKey(typed).toLowerCase();
  return [...new Set(snapshots.flatMap((s) => s.tags))].filter((t) => t.toLowerCase().startsWith(key));
}

/** Enter in the tag field: the only tag that starts with what was typed, when it says more than that. */
function onlyCompletion(typed: string, snapshots: { tags: string[] }[]): string | undefined {
  if (!tagKey(typed)) return undefined;
  const [only, ...more] = tagsStarting(typed, snapshots);
  return only && !more.length && only.toLowerCase() !== tagKey(typed).toLowerCase() ? only : undefined;
}

/**
 * The name column: as wide as the longest name shown, up to what leaves the goal 45% of the row; a
 * name wider still is cut in its middle, so its date and `-2`/`-3` suffix (what tells two apart) stay.
 */
export function nameCell(name: string, cols: number, ellipsis: string): string {
  return padEnd(fitName(name, cols, ellipsis), cols);
}

/**
 * A snapshot name cut in its middle to `cols`, so its date and `-2`/`-3` suffix stay; in a column
 * too narrow for the whole date (under 50 terminal columns), its end (the day and the suffix) and
 * a few columns of its start.
 */
export function fitName(name: string, cols: number, ellipsis: string): string {
  const tail = name.slice(name.lastIndexOf("_") + 1);
  return fitMiddle(name, cols, ellipsis, Math.min(width(tail), Math.max(1, cols - width(ellipsis) - 3)));
}

/**
 * The picker's title: the project, the count, the tag and marks, then how many are archived when
 * they are hidden (with the key that shows them while the name keeps 8 columns). The name gives way.
 */
function pickerTitle(
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

export function PickerScreen(props: {
  projectId: string;
  projectName: string;
  width: number;
  height: number;
  active: boolean;
  onOpen: (snapshotId: string) => void;
  onBack: () => void;
  onFailures: () => void;
  onTyping: (typing: boolean) => void;
  onDiff: (from: string, to: string) => void;
  onRules: () => void;
  onFacts: () => void;
  status?: string;
  /** Counts snapshots changed on the screens above (marked completed) or by another process: each change reads the rows again. */
  edits?: number;
}) {
  const { session, theme, now } = useUi();
  const [getQueryField, setQuery] = useRefState<Field>(field());
  const [getTagField, setTag] = useRefState<Field>(field());
  const getQuery = () => getQueryField().text;
  const getTag = () => getTagField().text;
  // Which text the keys are typed into, if any: the search words or the tag.
  const [getEditing, setEditingState] = useRefState<"query" | "tag" | null>(null);
  const setEditing = (v: "query" | "tag" | null) => {
    setEditingState(v);
    props.onTyping(v !== null);
  };
  const [getMarked, setMarked] = useRefState<string[]>([]);
  const [status, setStatus] = useState<string | undefined>();
  const [archived, setArchived] = useState(false);
  const query = getQuery();
  const tag = tagKey(getTag());
  const editing = getEditing();
  const marked = getMarked();
  const all = useAsync(
    () => projectSnapshots(session, props.projectId, { listed: !archived }),
    [props.projectId, archived],
  );
  // How many `a` would show: the title tells, so a user finds them.
  const hidden = useAsync(() => archivedCount(session, props.projectId), [props.projectId]);
  // Each result says which query and tag it answers, so keys that act on the rows wait for the right ones.
  const filtered = useAsync(async () => {
    if (!query.trim() && !tag) return null;
    try {
      if (!query.trim())
        return {
          query,
          tag,
          rows: (await projectSnapshots(session, props.projectId, { tag, listed: !archived })) as Row[],
          more: false,
        };
      const r = await search(session, props.projectId, [query], SEARCH_LIMIT, {
        tag: tag || undefined,
        listed: !archived,
      });
      return { query, tag, rows: r.hits as Row[], more: r.more };
    } catch (e) {
      return { query, tag, rows: [] as Row[], more: false, error: (e as Error).message };
    }
  }, [query, tag, props.projectId, archived]);
  const firstEdits = useRef(props.edits);
  useEffect(() => {
    if (props.edits === firstEdits.current) return;
    void all.reload();
    void filtered.reload();
    void hidden.reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.edits]);
  const narrowed = !!query.trim() || !!tag;
  const result = narrowed ? (filtered.data ?? undefined) : undefined;
  const rows: Row[] = narrowed ? (result?.rows ?? []) : (all.data ?? []);
  const visible = Math.max(1, props.height - 5 - statusHeight(status ?? props.status, props.width));
  // The selection goes back to the top for other rows (another filter), not for the same rows read again.
  const rowsKey = narrowed
    ? result
      ? `${result.query}\0${result.tag}`
      : undefined
    : archived
      ? "archived"
      : "all";
  const nav = useListNavigation(rows.length, visible, 0, { resetKey: rowsKey });
  useHeldSelection(rows, nav, rowsKey, (r) => r.id);
  // Marks of snapshots deleted elsewhere go with them (in this render: a key next must not use them).
  const gone =
    all.data && getMarked().length ? getMarked().filter((id) => !all.data!.some((r) => r.id === id)) : [];
  if (gone.length) setMarked(getMarked().filter((id) => !gone.includes(id)));
  // Ages ("54s", "3m") are worked out at each render: one every few seconds while on top, and one on any key.
  const tick = useTick(AGES_EVERY_MS, props.active);
  // The query and tag of the rows on screen: a key after Esc cleared the filter (in one read, "\x1bj")
  // waits for the render that lists all the rows again, so it moves in those.
  const shownFor = useRef({ query, tag: getTag() });
  shownFor.current = { query, tag: getTag() };
  const answered = (q: string, t: string) =>
    (!q.trim() && !tagKey(t)) || (filtered.data?.query === q && filtered.data?.tag === tagKey(t));

  const diff = () => {
    const row = rows[nav.selected];
    const list = all.data ?? [];
    const pair = getMarked();
    let from: string | undefined;
    let to: string | undefined;
    if (pair.length === 2) [from, to] = pair;
    else if (pair.length === 1 && row && row.id !== pair[0]) [from, to] = [pair[0], row.id];
    else {
      // One snapshot: against the one saved before it in the project (whatever the filter shows).
      const one = pair[0] ?? row?.id;
      const at = list.findIndex((s) => s.id === one);
      if (at < 0) return;
      if (at === list.length - 1)
        return setStatus(
          `${list[at].name} is the oldest snapshot: nothing before it to compare with. Mark another with Space.`,
        );
      [from, to] = [list[at + 1].id, one];
    }
    setStatus(undefined);
    props.onDiff(from!, to!);
  };

  useKeys(
    (input, key) => {
      tick();
      const typing = getEditing();
      if (typing) {
        const get = typing === "query" ? getQueryField : getTagField;
        const set = typing === "query" ? setQuery : setTag;
        if (key.escape) {
          set(field());
          setEditing(null);
        } else if (key.return) {
          // "pe" with only #perf starting so: Enter keeps #perf, not a tag no snapshot has.
          const only = typing === "tag" ? onlyCompletion(getTag(), all.data ?? []) : undefined;
          if (only) setTag(field(only));
          setEditing(null);
        } else if (key.tab) {
          const [first] = typing === "tag" ? tagsStarting(getTag(), all.data ?? []) : [];
          if (first) setTag(field(first));
        } else {
          // While typing, letters are text and ←/→ Home/End move the cursor: only ↑/↓ and page keys move the list.
          const next = editField(get(), input, key);
          if (next !== null) set(next);
          else nav.handle("", { ...key, home: false, end: false });
        }
        return;
      }
      if (nav.handle(input, key)) return;
      const row = rows[nav.selected];
      if (input === "/") setEditing("query");
      else if (input === "t") setEditing("tag");
      else if (key.return && row) props.onOpen(row.id);
      else if (input === " " && row) {
        const m = getMarked();
        if (m.includes(row.id)) setMarked(m.filter((x) => x !== row.id));
        else if (m.length >= 2)
          setStatus("At most two snapshots can be marked: unmark one (Space on it), then mark this one.");
        else {
          setMarked([...m, row.id]);
          setStatus(undefined);
        }
      } else if (input === "d") diff();
      else if (input === "a") setArchived(!archived);
      else if (input === "R") props.onRules();
      else if (input === "F") props.onFacts();
      else if (input === "f") props.onFailures();
      else if (key.escape && getQuery()) setQuery(field());
      else if (key.escape && getTag()) setTag(field());
      else if (input === "q" || key.escape) props.onBack();
    },
    {
      isActive: props.active,
      ready: !!all.data || !!all.error,
      // Moving or opening waits for the rows of what was typed (letters typed into the filter do not).
      wait: (input, key) =>
        (!answered(getQuery(), getTag()) ||
          shownFor.current.query !== getQuery() ||
          shownFor.current.tag !== getTag()) &&
        !(
          getEditing() &&
          !key.return &&
          !key.tab &&
          !key.upArrow &&
          !key.downArrow &&
          !key.pageUp &&
          !key.pageDown
        ),
    },
  );

  const w = props.width;
  const g = theme.g;
  const ageW = 5;
  const statusW = 12;
  const fixed = 2 + 1 + ageW + statusW + 1;
  // The goal says what a snapshot is about (a name is mostly the goal's start and a date): it keeps
  // 45% of the room, down to 12 columns; a longer name is cut in its middle, and never below the
  // 18 columns that keep its date and -N suffix whole.
  const nameRoom = Math.min(w - fixed - 12, Math.max(18, w - fixed - Math.floor((w - fixed) * 0.45)));
  const twins = twinIds(rows);
  // Two laptops' snapshots of one name end in their ids' last characters, which a cut name keeps.
  const shownName = (r: Row) => (twins.has(r.id) ? `${r.name}~${r.id.slice(-4)}` : r.name);
  const nameW = Math.max(
    8,
    Math.min(
      Math.max(12, ...rows.slice(nav.offset, nav.offset + visible).map((r) => width(shownName(r)))),
      nameRoom,
    ),
  );
  const goalW = Math.max(0, w - fixed - nameW);
  const statusColor = (s: string) =>
    s === "completed" ? theme.c("good") : s === "blocked" ? theme.c("bad") : theme.c("accent");
  const total = all.data?.length ?? 0;
  // The search stops at SEARCH_LIMIT hits: then more match than are listed, and the title says so.
  const shown = `${rows.length}${result?.more ? "+" : ""}`;
  const count =
    (query.trim()
      ? `${shown} of ${total} match`
      : tag
        ? `${shown} of ${total} snapshots`
        : `${total} snapshot${total === 1 ? "" : "s"}`) + (archived ? " (archived too)" : "");
  const extras = [...(tag ? [`#${tag}`] : []), ...(marked.length ? [`${marked.length} marked`] : [])]
    .map((x) => ` ${g.sep} ${x}`)
    .join("");
  const title = pickerTitle(props.projectName, `${count}${extras}`, archived ? 0 : (hidden.data ?? 0), w, g);
  const known = editing !== "tag" ? [] : tagsStarting(getTag(), all.data ?? []);
  const only = editing === "tag" ? onlyCompletion(getTag(), all.data ?? []) : undefined;
  const tagHint = !known.length
    ? "  (no snapshot here has such a tag)"
    : `  tags here: #${known.join(" #")}${only ? `  (Enter keeps #${only})` : tagKey(getTag()) && known.length > 1 ? `  (Tab: #${known[0]})` : ""}`;
  const line = (r: Row) => {
    const twin = twins.get(r.id);
    const goal = `${twin ? `id ${twin} ${g.sep} ` : ""}${r.context ? `${inline(r.goal)} ${g.sep} ${contextAfterGoal(r.context, r.goal)}` : inline(r.goal)}`;
    return r.tags?.length ? `${goal}  #${r.tags.join(" #")}` : goal;
  };
  const empty = all.error
    ? all.error.message
    : all.loading && !all.data
      ? "Loading…"
      : !narrowed
        ? "No snapshots in this project."
        : !answered(query, getTag())
          ? "Searching…"
          : (result?.error ??
            (query.trim()
              ? `Nothing matches "${query}"${tag ? ` among #${tag}` : ""}.`
              : `No snapshot is tagged #${tag}.`));
  return (
    <Frame
      title={title}
      width={w}
      height={props.height}
      status={status ?? props.status}
      hints={
        editing === "tag"
          ? ["type a tag", "Tab complete", "Enter keep", "Esc clear", "↑/↓ move"]
          : editing
            ? ["type to filter", "Enter keep", "Esc clear", "↑/↓ move"]
            : ["Enter open", "/ filter", "t tag", "d diff", "R rules", "? keys", "q projects"]
      }
      more={
        editing ? [] : ["F facts", "Space mark", "f failures", archived ? "a hide archived" : "a archived"]
      }
    >
      {editing === "tag" ? (
        <Box>
          <Text color={theme.c("accent")}># </Text>
          <TextField
            value={getTagField()}
            focus={props.active}
            width={Math.max(10, Math.floor(w / 3))}
            placeholder="a tag, e.g. release"
          />
          <Text color={theme.c("muted")} wrap="truncate">
            {tagHint}
          </Text>
        </Box>
      ) : (
        <Box>
          <Text color={theme.c("accent")}>/ </Text>
          {editing === "query" ? (
            <TextField
              value={getQueryField()}
              focus={props.active}
              width={w - 3}
              placeholder="words to find in any layer"
            />
          ) : (
            <Text color={theme.c("muted")}>
              {query
                ? `${fitStart(query, Math.max(4, w - 30), g.ellipsis)}  (/ to edit, Esc to clear)`
                : tag
                  ? `press / to filter ${g.sep} t changes the tag, Esc clears it`
                  : "press / to filter, t for a tag"}
            </Text>
          )}
        </Box>
      )}
      {rows.length === 0 ? (
        <Text color={result?.error ? theme.c("bad") : theme.c("muted")}>{fit(empty, w, g.ellipsis)}</Text>
      ) : (
        rows.slice(nav.offset, nav.offset + visible).map((r, i) => {
          const sel = nav.offset + i === nav.selected;
          const mark = marked.indexOf(r.id);
          return (
            <Text key={r.id} inverse={sel} wrap="truncate">
              {sel ? g.pointer : " "}
              {mark >= 0 ? <Text color={sel ? undefined : theme.c("title")}>{String(mark + 1)}</Text> : " "}
              {nameCell(shownName(r), nameW, g.ellipsis)} {pad(age(r.created_at, now()), ageW)}
              <Text color={sel ? undefined : r.archived ? theme.c("muted") : statusColor(r.status)}>
                {pad(r.archived ? "archived" : r.status.replace("_", " "), statusW)}
              </Text>
              {fit(line(r), goalW, g.ellipsis)}
            </Text>
          );
        })
      )}
      {rows.length > visible ? (
        <Text
          color={theme.c("muted")}
        >{`${nav.selected + 1}/${shown}${result?.more ? ` (the first ${SEARCH_LIMIT} matches; type more words to narrow)` : ""}`}</Text>
      ) : null}
    </Frame>
  );
}
