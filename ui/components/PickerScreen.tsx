// The snapshot picker: newest first, `/` filters as you type with the same full-text search as
// `mindsave recall`; only the visible rows are rendered, so 5,000 snapshots scroll instantly.
import { Box, Text } from "ink";
import { useKeys } from "../hooks/useKeys.ts";
import { TextField } from "./TextField.tsx";
import { editText, useRefState } from "../hooks/useRefState.ts";
import { projectSnapshots } from "../../src/engine/snapshots/catalog.ts";
import { search } from "../../src/engine/snapshots/recall.ts";
import { useUi } from "../context.ts";
import { useAsync } from "../hooks/useAsync.ts";
import { useListNavigation } from "../hooks/useListNavigation.ts";
import { age, fit, fitStart, pad, width } from "../../src/lib/text.ts";
import { Frame } from "./Frame.tsx";
import type { HelpKeys } from "./HelpOverlay.tsx";

export const PICKER_KEYS: HelpKeys = [
  ["↑/↓ j/k", "move"], ["PgUp/PgDn g/G", "page, first, last"], ["/", "filter (full-text, as `mindsave recall`)"],
  ["Enter", "open the snapshot"], ["f", "failure graph"], ["?", "keys"], ["q Esc", "back (Esc first clears the filter)"],
];

/** At most this many search hits are listed (the title then says "500+ of N match"). */
export const SEARCH_LIMIT = 500;

interface Row {
  id: string;
  name: string;
  created_at: string;
  status: string;
  goal: string;
  context?: string;
}

/** A search hit's context without the goal it starts with (the row shows the goal already). */
function contextAfterGoal(context: string, goal: string): string {
  const plain = context.replace(/[«»]/g, "").replace(/^…/, "");
  return plain.startsWith(goal) ? plain.slice(goal.length).replace(/^\s*·\s*/, "") || plain : plain;
}

export function PickerScreen(props: {
  projectId: string; projectName: string; width: number; height: number; active: boolean;
  onOpen: (snapshotId: string) => void; onBack: () => void; onFailures: () => void; onTyping: (typing: boolean) => void; status?: string;
}) {
  const { session, theme, now } = useUi();
  const [getQuery, setQuery] = useRefState("");
  const [isFiltering, setFilteringState] = useRefState(false);
  const setFiltering = (v: boolean) => {
    setFilteringState(v);
    props.onTyping(v);
  };
  const query = getQuery();
  const filtering = isFiltering();
  const all = useAsync(() => projectSnapshots(session, props.projectId), [props.projectId]);
  // Each result says which query it answers, so keys that act on the rows wait for the right ones.
  const hits = useAsync(async () => {
    if (!query.trim()) return null;
    try {
      return { query, result: await search(session, props.projectId, [query], SEARCH_LIMIT) };
    } catch (e) {
      return { query, result: { hits: [], more: false }, error: (e as Error).message };
    }
  }, [query, props.projectId]);
  const searched = query.trim() ? hits.data?.result : undefined;
  const rows: Row[] = query.trim() ? (searched?.hits ?? []) : (all.data ?? []);
  const visible = Math.max(1, props.height - 5);
  const nav = useListNavigation(rows.length, visible, 0, { resetKey: query.trim() ? searched : all.data });
  const answered = (q: string) => !q.trim() || hits.data?.query === q;

  useKeys((input, key) => {
    if (isFiltering()) {
      if (key.escape) {
        setQuery("");
        setFiltering(false);
      } else if (key.return) setFiltering(false);
      // While typing, letters are text: only arrows and page keys move.
      else if (!nav.handle("", key)) {
        const next = editText(getQuery(), input, key);
        if (next !== null) setQuery(next);
      }
      return;
    }
    if (nav.handle(input, key)) return;
    if (input === "/") setFiltering(true);
    else if (key.return && rows[nav.selected]) props.onOpen(rows[nav.selected].id);
    else if (input === "f") props.onFailures();
    else if (key.escape && getQuery()) setQuery("");
    else if (input === "q" || key.escape) props.onBack();
  }, {
    isActive: props.active, ready: !!all.data || !!all.error,
    // Moving or opening waits for the rows of what was typed (letters typed into the filter do not).
    wait: (input, key) => !answered(getQuery()) && !(isFiltering() && !key.return && !key.upArrow && !key.downArrow && !key.pageUp && !key.pageDown),
  });

  const w = props.width;
  const ageW = 5;
  const statusW = 12;
  const fixed = 2 + 1 + ageW + statusW + 1;
  const nameW = Math.max(8, Math.min(32, Math.max(12, ...rows.slice(nav.offset, nav.offset + visible).map((r) => width(r.name))), w - fixed - 12));
  const goalW = Math.max(0, w - fixed - nameW);
  const statusColor = (s: string) => (s === "completed" ? theme.c("good") : s === "blocked" ? theme.c("bad") : theme.c("accent"));
  const total = all.data?.length ?? 0;
  // The search stops at SEARCH_LIMIT hits: then more match than are listed, and the title says so.
  const shown = `${rows.length}${searched?.more ? "+" : ""}`;
  // The project's name gives way to the count.
  const title = `${fit(props.projectName, Math.max(8, w - 50), theme.g.ellipsis)} ${theme.g.sep} ${query.trim() ? `${shown} of ${total} match` : `${total} snapshot${total === 1 ? "" : "s"}`}`;
  return (
    <Frame title={title} width={w} height={props.height} status={props.status}
      hints={filtering ? ["type to filter", "Enter keep", "Esc clear", "↑/↓ move"] : ["Enter open", "/ filter", "f failures", "? keys", "q projects"]}>
      <Box>
        <Text color={theme.c("accent")}>/ </Text>
        {filtering ? (
          <TextField value={query} focus={props.active} width={w - 3} placeholder="words to find in any layer" />
        ) : (
          <Text color={theme.c("muted")}>{query ? `${fitStart(query, Math.max(4, w - 30), theme.g.ellipsis)}  (/ to edit, Esc to clear)` : "press / to filter"}</Text>
        )}
      </Box>
      {rows.length === 0 ? (
        <Text color={hits.data?.error ? theme.c("bad") : theme.c("muted")}>
          {fit(all.error ? all.error.message : all.loading && !all.data ? "Loading…" : !query.trim() ? "No snapshots in this project." : !answered(query) ? "Searching…" : hits.data?.error ?? `Nothing matches "${query}".`, w, theme.g.ellipsis)}
        </Text>
      ) : (
        rows.slice(nav.offset, nav.offset + visible).map((r, i) => {
          const sel = nav.offset + i === nav.selected;
          return (
            <Text key={r.id} inverse={sel} wrap="truncate">
              {sel ? theme.g.pointer : " "} {pad(r.name, nameW, theme.g.ellipsis)} {pad(age(r.created_at, now()), ageW)}
              <Text color={sel ? undefined : statusColor(r.status)}>{pad(r.status.replace("_", " "), statusW)}</Text>
              {fit(r.context ? `${r.goal} ${theme.g.sep} ${contextAfterGoal(r.context, r.goal)}` : r.goal, goalW, theme.g.ellipsis)}
            </Text>
          );
        })
      )}
      {rows.length > visible ? (
        <Text color={theme.c("muted")}>{`${nav.selected + 1}/${shown}${searched?.more ? ` (the first ${SEARCH_LIMIT} matches; type more words to narrow)` : ""}`}</Text>
      ) : null}
    </Frame>
  );
}
