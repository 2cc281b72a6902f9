// The snapshot picker: newest first, `/` filters as you type with the same full-text search as
// `mindsave recall`, `t` keeps only a tag's snapshots; only the visible rows are rendered, so 5,000
// snapshots scroll instantly. Space marks two snapshots and `d` shows what changed between them.
// Archived snapshots (retention's, see engine/snapshots/retention.ts) are left out until `a` shows them.
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { Box, Text, type Key } from "ink";
import { useKeys } from "../hooks/useKeys.ts";
import { fieldColumns, TextField } from "./TextField.tsx";
import { useRefState } from "../hooks/useRefState.ts";
import { editField, field, type Field } from "../hooks/textEdit.ts";
import {
  archivedCount,
  liveSnapshotIds,
  projectSnapshots,
  shownAmong,
  snapshotBefore,
  snapshotCount,
} from "../../src/engine/snapshots/catalog.ts";
import { filteredTagFirst, projectTagNames } from "../../src/engine/snapshots/tags.ts";
import { useSnapshotPages } from "../hooks/useSnapshotPages.ts";
import { inline } from "../../src/engine/snapshots/layers.ts";
import { goalRoom } from "../../src/engine/snapshots/summaries.ts";
import { useUi } from "../context.ts";
import { useAsync } from "../hooks/useAsync.ts";
import { useListNavigation } from "../hooks/useListNavigation.ts";
import { useHeldSelection } from "../hooks/useHeldSelection.ts";
import { AGES_EVERY_MS, useTick } from "../hooks/useTick.ts";
import { age, fit, fitMiddle, fitStart, pad, padEnd, width } from "../../src/lib/text.ts";
import { Frame, statusHeight } from "./Frame.tsx";
import type { ListNav } from "../hooks/useListNavigation.ts";
import {
  contextAfterGoal,
  diffPair,
  emptyText,
  filteredRows,
  onlyCompletion,
  pickerCount,
  pickerTitle,
  SEARCH_LIMIT,
  tagHint,
  tagKey,
  tagsStarting,
  type Filtered,
  type Row,
} from "./pickerRows.ts";
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

/**
 * The name column: as wide as the longest name shown, up to what leaves room for the widest goal; a
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

interface PickerProps {
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
}

/** What the list says when it has no row, from the rows' state and the filter as typed. */
function listEmptyText(
  data: ReturnType<typeof usePickerRows>,
  filter: Filter,
  query: string,
  tag: string,
): string {
  return emptyText({
    error: data.count.error ?? data.pages.error,
    loading: data.total === undefined || (!data.narrowed && data.pages.total === undefined),
    narrowed: data.narrowed,
    answered: data.answered(query, filter.tag()),
    result: data.result,
    query,
    tag,
    completion: filter.editing() === "tag" ? onlyCompletion(tag, data.tags.data ?? []) : undefined,
  });
}

export function PickerScreen(props: PickerProps) {
  const { theme } = useUi();
  const filter = usePickerFilter(props.onTyping);
  const [status, setStatus] = useState<string | undefined>();
  const [archived, setArchived] = useState(false);
  const query = filter.query();
  const tag = tagKey(filter.tag());
  const data = usePickerRows(props, { query, tag, archived, typingTag: filter.editing() === "tag" });
  const { rows, result } = data;
  const visible = Math.max(1, props.height - 5 - statusHeight(status ?? props.status, props.width));
  const nav = useListNavigation(rows.length, visible, 0, { resetKey: data.rowsKey });
  useHeldSelection(rows, nav, data.rowsKey, (r) => r?.id ?? "");
  // The pages on screen, and the next one before the cursor reaches it.
  useEffect(() => data.pages.show(nav.offset, nav.offset + visible + visible));
  const marks = useMarks(props.edits, setStatus);
  usePickerKeys(props, { filter, data, nav, marks, archived, setArchived, setStatus });

  const w = props.width;
  const g = theme.g;
  const editing = filter.editing();
  const marked = marks.get();
  const hiddenMarks = useHiddenMarks(props.projectId, marked, { tag, archived, result, edits: props.edits });
  const total = data.total ?? 0;
  // The search stops at SEARCH_LIMIT hits: then more match than are listed, and the title says so.
  const shown = `${rows.length}${result?.more ? "+" : ""}`;
  const extras = [
    ...(tag ? [`#${tag}`] : []),
    ...(marked.length ? [markedText(marked.length, hiddenMarks, data.narrowed)] : []),
  ];
  const counts = pickerCount({ query, tag, shown, total, archived }, extras, g.sep);
  const title = pickerTitle(props.projectName, counts, archived ? 0 : (data.hidden.data ?? 0), w, g);
  const empty = listEmptyText(data, filter, query, tag);
  return (
    <Frame
      title={title}
      width={w}
      height={props.height}
      status={status ?? props.status}
      {...pickerHints(editing, archived)}
    >
      <FilterLine filter={filter} tags={data.tags.data ?? []} active={props.active} width={w} />
      {rows.length === 0 ? (
        <Text color={result?.error ? theme.c("bad") : theme.c("muted")}>{fit(empty, w, g.ellipsis)}</Text>
      ) : (
        <SnapshotRows rows={rows} nav={nav} visible={visible} marked={marked} width={w} tag={tag} />
      )}
      {rows.length > visible ? (
        <Text
          color={theme.c("muted")}
        >{`${nav.selected + 1}/${shown}${result?.more ? ` (the first ${SEARCH_LIMIT} matches; type more words to narrow)` : ""}`}</Text>
      ) : null}
    </Frame>
  );
}

/** The key line: the filter's keys while one is typed, else the list's. */
function pickerHints(
  editing: "query" | "tag" | null,
  archived: boolean,
): { hints: string[]; more: string[] } {
  if (editing === "tag")
    return { hints: ["type a tag", "Tab complete", "Enter keep", "Esc clear", "↑/↓ move"], more: [] };
  if (editing) return { hints: ["type to filter", "Enter keep", "Esc clear", "↑/↓ move"], more: [] };
  return {
    hints: ["Enter open", "/ filter", "t tag", "d diff", "R rules", "? keys", "q projects"],
    more: ["F facts", "Space mark", "f failures", archived ? "a hide archived" : "a archived"],
  };
}

/** The filter being typed: the search words, the tag, and which of them the keys go into (if any). */
function usePickerFilter(onTyping: (typing: boolean) => void) {
  const [getQueryField, setQuery] = useRefState<Field>(field());
  const [getTagField, setTag] = useRefState<Field>(field());
  const [getEditing, setEditingState] = useRefState<"query" | "tag" | null>(null);
  return {
    queryField: getQueryField,
    tagField: getTagField,
    setQuery,
    setTag,
    query: () => getQueryField().text,
    /** The tag as typed (tagKey gives it as the store compares it). */
    tag: () => getTagField().text,
    editing: getEditing,
    setEditing: (v: "query" | "tag" | null) => {
      setEditingState(v);
      onTyping(v !== null);
    },
  };
}

type Filter = ReturnType<typeof usePickerFilter>;

/**
 * The picker's rows: the project's snapshots (archived ones when `archived`, a tag's alone when one
 * is kept) a page at a time, or a search's hits; how many there are and how many are archived, and
 * the project's tags; read again when `edits` counts a change.
 */
function usePickerRows(
  props: PickerProps,
  o: { query: string; tag: string; archived: boolean; typingTag: boolean },
) {
  const { session } = useUi();
  const { query, tag, archived } = o;
  const listed = !archived;
  const searching = !!query.trim();
  const pages = useSnapshotPages<Row>(
    `${props.projectId}\0${tag}\0${archived}`,
    () => snapshotCount(session, props.projectId, { tag: tag || undefined, listed }),
    (read) => projectSnapshots(session, props.projectId, { tag: tag || undefined, listed, ...read }),
    !searching,
  );
  // The title's count of them all, whatever the tag keeps (without a tag, the pages' own count).
  const count = useAsync(
    async () => (tag ? snapshotCount(session, props.projectId, { listed }) : null),
    [props.projectId, archived, !!tag],
  );
  // How many `a` would show: the title tells, so a user finds them.
  const hidden = useAsync(() => archivedCount(session, props.projectId), [props.projectId]);
  // Counted over every snapshot's tags: only while a tag is typed (the hint and completion need them).
  const tags = useAsync(
    async () => (o.typingTag ? projectTagNames(session, props.projectId, { archived }) : null),
    [props.projectId, archived, o.typingTag],
  );
  const filtered = useAsync(
    () => filteredRows(session, props.projectId, query, tag, archived),
    [query, tag, props.projectId, archived],
  );
  const firstEdits = useRef(props.edits);
  const readAgain = useEffectEvent(() => {
    if (props.edits === firstEdits.current) return;
    void pages.reload();
    void count.reload();
    void filtered.reload();
    void hidden.reload();
    void tags.reload();
  });
  useEffect(() => readAgain(), [props.edits]);
  const narrowed = searching || !!tag;
  const result = searching ? (filtered.data ?? undefined) : undefined;
  const pagesKey = `${props.projectId}\0${tag}\0${archived}`;
  const paged = pages.key === pagesKey;
  return {
    pages,
    count,
    /** How many snapshots the list holds without a tag (the title's count); undefined until counted. */
    total: tag ? (count.data ?? undefined) : paged ? pages.total : undefined,
    hidden,
    tags,
    narrowed,
    result,
    rows: (searching ? (result?.rows ?? []) : paged ? pages.rows : []) as (Row | undefined)[],
    // The selection goes back to the top for other rows (another filter), not for the same rows read again.
    rowsKey: searching
      ? result
        ? `${result.query}\0${result.tag}`
        : undefined
      : paged
        ? pagesKey
        : undefined,
    /** Whether the rows on hand answer the query and tag `q`, `t`. */
    answered: (q: string, t: string) =>
      q.trim()
        ? filtered.data?.query === q && filtered.data?.tag === tagKey(t)
        : pages.key === `${props.projectId}\0${tagKey(t)}\0${archived}`,
  };
}

type PickerRows = ReturnType<typeof usePickerRows>;

/** The snapshots marked with Space (two at most); marks of snapshots deleted elsewhere go with them (asked at each change). */
function useMarks(edits: number | undefined, setStatus: (text: string | undefined) => void) {
  const { session } = useUi();
  const [getMarked, setMarked] = useRefState<string[]>([]);
  useEffect(() => {
    const marked = getMarked();
    if (!marked.length) return;
    void liveSnapshotIds(session, marked).then((live) => {
      if (live.length < marked.length) setMarked(getMarked().filter((id) => live.includes(id)));
    });
  }, [edits, session, getMarked, setMarked]);
  return {
    get: getMarked,
    toggle: (id: string) => {
      const m = getMarked();
      if (m.includes(id)) setMarked(m.filter((x) => x !== id));
      else if (m.length >= 2)
        setStatus("At most two snapshots can be marked: unmark one (Space on it), then mark this one.");
      else {
        setMarked([...m, id]);
        setStatus(undefined);
      }
    },
  };
}

/**
 * How many marked snapshots the list does not show (its tag or search, or archived ones while they
 * are hidden): the title says so, as `d` still compares them. 0 until read for these marks.
 */
function useHiddenMarks(
  projectId: string,
  marked: string[],
  f: { tag: string; archived: boolean; result?: Filtered; edits?: number },
): number {
  const { session } = useUi();
  const key = marked.join("\0");
  const shown = useAsync(async () => {
    const filter = { tag: f.tag || undefined, listed: !f.archived };
    return { key, ids: await shownAmong(session, projectId, marked, filter) };
  }, [session, projectId, key, f.tag, f.archived, f.edits]);
  const listed = shown.data?.key === key ? shown.data.ids : marked;
  // A search's rows are all it shows, unless it stopped at its limit (then only the tag's test).
  const found = f.result && !f.result.more ? new Set(f.result.rows.map((r) => r.id)) : null;
  return marked.filter((id) => !listed.includes(id) || (found && !found.has(id))).length;
}

/**
 * The title's marks: "2 marked", and how many of them the list does not show, short enough for 80
 * columns: "2 marked, 1 hidden" by the filter on the line below, "1 archived" while those are hidden.
 */
function markedText(count: number, hidden: number, narrowed: boolean): string {
  if (!hidden) return `${count} marked`;
  return `${count} marked, ${count === 1 ? "" : `${hidden} `}${narrowed ? "hidden" : "archived"}`;
}

/** What the picker's keys act on. */
interface PickerKeyParts {
  filter: Filter;
  data: PickerRows;
  nav: ListNav;
  marks: ReturnType<typeof useMarks>;
  archived: boolean;
  setArchived: (archived: boolean) => void;
  setStatus: (text: string | undefined) => void;
}

/** Keys that act on the rows even while a filter is typed: they wait for its rows. */
const actsOnRows = (key: Key) =>
  key.return || key.tab || key.upArrow || key.downArrow || key.pageUp || key.pageDown;

/** The picker's keys: typed into the filter while one is being typed, else they move, open, mark and compare. */
function usePickerKeys(props: PickerProps, parts: PickerKeyParts) {
  const { session } = useUi();
  const { filter, data, nav, marks, archived, setArchived, setStatus } = parts;
  const tags = data.tags.data ?? [];
  // Ages ("54s", "3m") are worked out at each render: one every few seconds while on top, and one on any key.
  const tick = useTick(AGES_EVERY_MS, props.active);
  // The query and tag of the rows on screen: a key after Esc cleared the filter (in one read, "\x1bj")
  // waits for the render that lists all the rows again, so it moves in those.
  const shownFor = useRef({ query: filter.query(), tag: filter.tag() });
  shownFor.current = { query: filter.query(), tag: filter.tag() };
  const filterKey = (typing: "query" | "tag", input: string, key: Key) => {
    const set = typing === "query" ? filter.setQuery : filter.setTag;
    if (key.escape) {
      set(field());
      filter.setEditing(null);
    } else if (key.return) {
      // "pe" with only #perf starting so: Enter keeps #perf, not a tag no snapshot has.
      const only = typing === "tag" ? onlyCompletion(filter.tag(), tags) : undefined;
      if (only) filter.setTag(field(only));
      filter.setEditing(null);
    } else if (key.tab) {
      const [first] = typing === "tag" ? tagsStarting(filter.tag(), tags) : [];
      if (first) filter.setTag(field(first));
    } else {
      // While typing, letters are text and ←/→ Home/End move the cursor: only ↑/↓ and page keys move the list.
      const next = editField(typing === "query" ? filter.queryField() : filter.tagField(), input, key);
      if (next !== null) set(next);
      else nav.handle("", { ...key, home: false, end: false });
    }
  };
  const diff = async () => {
    const before = (id: string) => snapshotBefore(session, props.projectId, id, { listed: !archived });
    const pair = await diffPair(marks.get(), data.rows[nav.selected], before);
    if (!pair) return;
    if ("refusal" in pair) return setStatus(pair.refusal);
    setStatus(undefined);
    props.onDiff(pair.from, pair.to);
  };
  const listKey = (input: string, key: Key) => {
    if (nav.handle(input, key)) return;
    const row = data.rows[nav.selected];
    if (key.return && row) return props.onOpen(row.id);
    if (input === " " && row) return marks.toggle(row.id);
    if (key.escape && filter.query()) return filter.setQuery(field());
    if (key.escape && filter.tag()) return filter.setTag(field());
    if (input === "q" || key.escape) return props.onBack();
    switch (input) {
      case "/":
        return filter.setEditing("query");
      case "t":
        return filter.setEditing("tag");
      case "d":
        return void diff();
      case "a":
        return setArchived(!archived);
      case "R":
        return props.onRules();
      case "F":
        return props.onFacts();
      case "f":
        return props.onFailures();
    }
  };
  useKeys(
    (input, key) => {
      tick();
      const typing = filter.editing();
      if (typing) filterKey(typing, input, key);
      else listKey(input, key);
    },
    {
      isActive: props.active,
      ready: data.total !== undefined || !!data.count.error || !!data.pages.error,
      // Moving or opening waits for the rows of what was typed (letters typed into the filter do not).
      wait: (_input, key) =>
        ((!data.answered(filter.query(), filter.tag()) ||
          // A row not read yet (a page on its way) is acted on once it is here.
          (nav.selected < data.rows.length && data.rows[nav.selected] === undefined) ||
          shownFor.current.query !== filter.query() ||
          shownFor.current.tag !== filter.tag()) &&
          !(filter.editing() && !actsOnRows(key))) ||
        // Enter and Tab complete a tag from the project's tags: they wait for them.
        (filter.editing() === "tag" && (key.return || key.tab) && !data.tags.data),
    },
  );
}

/** The line above the list: the search words or the tag being typed (with the tags that fit), or how to filter. */
function FilterLine(props: { filter: Filter; tags: string[]; active: boolean; width: number }) {
  const { theme } = useUi();
  const { filter } = props;
  const w = props.width;
  const g = theme.g;
  const editing = filter.editing();
  const query = filter.query();
  if (editing === "tag") {
    const field = {
      value: filter.tagField(),
      focus: props.active,
      width: Math.max(10, Math.floor(w / 3)),
      placeholder: "a tag, e.g. release",
    };
    // The hint is made to fit what the field leaves, so nothing on the line is squeezed or cut by the layout.
    return (
      <Box>
        <Text color={theme.c("accent")}># </Text>
        <TextField {...field} />
        <Text color={theme.c("muted")} wrap="truncate">
          {tagHint(filter.tag(), props.tags, w - 2 - fieldColumns(field, g.ellipsis), g.ellipsis)}
        </Text>
      </Box>
    );
  }
  return (
    <Box>
      <Text color={theme.c("accent")}>/ </Text>
      {editing === "query" ? (
        <TextField
          value={filter.queryField()}
          focus={props.active}
          width={w - 3}
          placeholder="words to find in any layer"
        />
      ) : (
        <Text color={theme.c("muted")}>
          {query
            ? `${fitStart(query, Math.max(4, w - 30), g.ellipsis)}  (/ to edit, Esc to clear)`
            : tagKey(filter.tag())
              ? `press / to filter ${g.sep} t changes the tag, Esc clears it`
              : "press / to filter, t for a tag"}
        </Text>
      )}
    </Box>
  );
}

/** The rows shown: pointer, mark number, name, age, status, then the goal (with the search context and tags). */
function SnapshotRows(props: {
  rows: (Row | undefined)[];
  nav: ListNav;
  visible: number;
  marked: string[];
  width: number;
  /** The tag filter on: shown first among a row's tags. */
  tag: string;
}) {
  const { theme, now } = useUi();
  const { rows, nav, marked } = props;
  const w = props.width;
  const g = theme.g;
  const ageW = 5;
  const statusW = 12;
  // The gutter: the pointer, the mark's number, and a space before the name; a space after the name.
  const gutter = 3;
  const fixed = gutter + 1 + ageW + statusW;
  const shown = Array.from(rows.slice(nav.offset, nav.offset + props.visible));
  // Among the rows read (a page on its way is not there yet).
  const twins = twinIds(rows.filter((r) => r !== undefined));
  // Two laptops' snapshots of one name end in their ids' last characters, which a cut name keeps.
  const shownName = (r: Row) => (twins.has(r.id) ? `${r.name}~${r.id.slice(-4)}` : r.name);
  const line = (r: Row) => {
    const twin = twins.get(r.id);
    const goal = `${twin ? `id ${twin} ${g.sep} ` : ""}${r.context ? `${inline(r.goal)} ${g.sep} ${contextAfterGoal(r.context, r.goal)}` : inline(r.goal)}`;
    return r.tags?.length ? `${goal}  #${filteredTagFirst(r.tags, props.tag).join(" #")}` : goal;
  };
  // The goal says what a snapshot is about (a name is mostly the goal's start and a date): the
  // names give way to the goals most rows shown need (goalRoom: one long goal does not cut every
  // name; 12 columns of goal at least), cut in their middle down to the 18 columns that keep their
  // date and -N suffix whole; only then is a goal cut. A search's context after the goal takes
  // only the room left.
  const goalWanted = goalRoom(
    shown.flatMap((r) => (r ? [fit(line({ ...r, context: undefined }), w, g.ellipsis)] : [])),
    12,
  );
  const nameRoom = Math.min(w - fixed - 12, Math.max(18, w - fixed - goalWanted));
  const nameW = Math.max(
    8,
    Math.min(Math.max(12, ...shown.map((r) => (r ? width(shownName(r)) : 0))), nameRoom),
  );
  const goalW = Math.max(0, w - fixed - nameW);
  const statusColor = (s: string) =>
    s === "completed" ? theme.c("good") : s === "blocked" ? theme.c("bad") : theme.c("accent");
  return shown.map((r, i) => {
    const sel = nav.offset + i === nav.selected;
    if (!r)
      return (
        <Text key={`row-${nav.offset + i}`} inverse={sel} color={theme.c("muted")}>
          {sel ? g.pointer : " "} {g.ellipsis}
        </Text>
      );
    const mark = marked.indexOf(r.id);
    return (
      <Text key={r.id} inverse={sel} wrap="truncate">
        {sel ? g.pointer : " "}
        {mark >= 0 ? <Text color={sel ? undefined : theme.c("title")}>{String(mark + 1)}</Text> : " "}{" "}
        {nameCell(shownName(r), nameW, g.ellipsis)} {pad(age(r.created_at, now()), ageW)}
        <Text color={sel ? undefined : r.archived ? theme.c("muted") : statusColor(r.status)}>
          {pad(r.archived ? "archived" : r.status.replace("_", " "), statusW)}
        </Text>
        {fit(line(r), goalW, g.ellipsis)}
      </Text>
    );
  });
}
