// Home: which home is in use, this host, and every project with its root here, snapshot count,
// newest snapshot's age and goal. The current directory's project is preselected.
import { useEffect, useEffectEvent, useRef } from "react";
import { Box, Text } from "ink";
import { useKeys } from "../hooks/useKeys.ts";
import { listProjects, type ProjectView } from "../../src/engine/projects/projects.ts";
import { projectSnapshots } from "../../src/engine/snapshots/catalog.ts";
import { inline } from "../../src/engine/snapshots/layers.ts";
import { useUi } from "../context.ts";
import { useAsync } from "../hooks/useAsync.ts";
import { useListNavigation } from "../hooks/useListNavigation.ts";
import { useHeldSelection } from "../hooks/useHeldSelection.ts";
import { AGES_EVERY_MS, useTick } from "../hooks/useTick.ts";
import { age, fit, pad, width } from "../../src/lib/text.ts";
import { Frame, statusHeight } from "./Frame.tsx";
import type { HelpKeys } from "./HelpOverlay.tsx";
import type { AsyncState } from "../hooks/useAsync.ts";
import type { ListNav } from "../hooks/useListNavigation.ts";
import type { Theme } from "../theme.ts";

export const HOME_KEYS: HelpKeys = [
  ["↑/↓ j/k", "move"],
  ["Enter", "open the project's snapshots"],
  ["f", "failure graph of the project"],
  ["R", "standing rules of the project (and the global ones)"],
  ["F", "facts of the project (renew or drop expired ones)"],
  ["s", "sync with a drive, a home or a server"],
  ["r", "reload"],
  ["?", "keys"],
  ["q Esc", "quit"],
];

interface Row extends ProjectView {
  goal: string;
}

interface HomeProps {
  width: number;
  height: number;
  active: boolean;
  onOpen: (p: ProjectView) => void;
  onFailures: (projectId: string | null, projectName?: string) => void;
  onRules: (projectId: string | null, projectName?: string) => void;
  onFacts: (projectId: string | null, projectName?: string) => void;
  onSync: () => void;
  onQuit: () => void;
  status?: string;
  /** Counts changes of the store made elsewhere: each reads the list again. */
  edits?: number;
}

export function HomeScreen(props: HomeProps) {
  const { session, theme } = useUi();
  // Opened on a project's snapshots, home waits below the picker: it reads its list (every project's
  // count, a scan of the store) once first on top, as it reads it again each time it comes back.
  const shown = useRef(false);
  if (props.active) shown.current = true;
  const data = useAsync(async () => {
    if (!shown.current) return null;
    const projects = await listProjects(session);
    const rows: Row[] = [];
    for (const p of projects)
      rows.push({
        ...p,
        goal: p.snapshots ? ((await projectSnapshots(session, p.id, { limit: 1 }))[0]?.goal ?? "") : "",
      });
    return rows;
  }, [props.edits]);
  const rows = data.data ?? [];
  const visible = Math.max(
    1,
    Math.floor((props.height - 3 - Math.max(1, statusHeight(props.status, props.width))) / 2),
  );
  // The current directory's project is preselected when the list arrives.
  const initial = Math.max(
    0,
    rows.findIndex((r) => r.current),
  );
  const nav = useListNavigation(rows.length, visible, initial);
  useHeldSelection(rows, nav, "projects", (r) => r.id);
  // The newest snapshot's age follows the clock while the list is on top.
  useTick(AGES_EVERY_MS, props.active);
  useHomeKeys(props, data, nav);

  const w = props.width;
  const body = data.error ? (
    <Text color={theme.c("bad")}>{data.error.message}</Text>
  ) : !data.data ? (
    <Text color={theme.c("muted")}>Loading…</Text>
  ) : rows.length === 0 ? (
    <Text>
      No projects yet. Save a snapshot from a project folder:{" "}
      <Text color={theme.c("accent")}>mindsave save --goal "…"</Text>
    </Text>
  ) : (
    <ProjectList rows={rows} nav={nav} visible={visible} width={w} />
  );
  const marker = moreMarker(rows.length - nav.offset - visible, nav.offset, theme);
  return (
    <Frame
      title={`Projects (${rows.length})`}
      height={props.height}
      hints={["Enter open", "f failures", "R rules", "F facts", "s sync", "? keys", "q quit"]}
      more={["r reload"]}
      width={w}
      status={props.status}
    >
      {body}
      {marker && !data.error ? (
        <Text color={theme.c("muted")}>{fit(marker, w, theme.g.ellipsis)}</Text>
      ) : null}
    </Frame>
  );
}

/**
 * Home's keys. Back on top (from a project's snapshots, a sync), the list is read again, so a save
 * made meanwhile in a terminal shows in its count; keys wait for the new rows.
 */
function useHomeKeys(props: HomeProps, data: AsyncState<Row[] | null>, nav: ListNav) {
  const rows = data.data ?? [];
  const wasActive = useRef(props.active);
  const stale = useRef(false);
  if (props.active && !wasActive.current) stale.current = true;
  wasActive.current = props.active;
  const handOn = useKeys(
    (input, key) => {
      if (nav.handle(input, key)) return;
      const row = rows[nav.selected];
      if (key.return && row) props.onOpen(row);
      else if (input === "f") props.onFailures(row?.id ?? null, row?.name);
      else if (input === "R") props.onRules(row?.id ?? null, row?.name);
      else if (input === "F") props.onFacts(row?.id ?? null, row?.name);
      else if (input === "s") props.onSync();
      else if (input === "r") data.reload();
      else if (input === "q" || key.escape) props.onQuit();
    },
    { isActive: props.active, ready: !!data.data || !!data.error, wait: () => stale.current },
  );
  const readAgain = useEffectEvent(() => {
    if (!stale.current) return;
    void data.reload().then(() => {
      stale.current = false;
      handOn();
    });
  });
  useEffect(() => readAgain(), [props.active]);
}

/** The projects shown, two lines each: the row (name, count, newest age, goal), then where its root is. */
function ProjectList(props: { rows: Row[]; nav: ListNav; visible: number; width: number }) {
  const { theme, now } = useUi();
  const { rows, nav, visible } = props;
  const w = props.width;
  // Counts and ages are never cut: the name gives way down to 8 columns, the goal takes the rest.
  const count = (r: Row) => `${r.snapshots} snap${r.snapshots === 1 ? "" : "s"}`;
  const countW = Math.max(7, ...rows.map((r) => width(count(r))));
  const ageW = Math.max(3, ...rows.map((r) => width(r.newest ? age(r.newest, now()) : "-")));
  const fixed = 2 + countW + 1 + ageW + 1 + 1 + 1;
  const nameW = Math.max(8, Math.min(24, Math.max(0, ...rows.map((r) => width(r.name))), w - fixed - 12));
  const goalW = Math.max(0, w - fixed - nameW);
  return rows.slice(nav.offset, nav.offset + visible).map((r, i) => {
    const index = nav.offset + i;
    const sel = index === nav.selected;
    // Off first: a long root is cut at its end, and hooks keeping nothing there must stay in view.
    const where = `${r.off ? "MindSave off · " : ""}${r.root ? (r.root_exists ? r.root : `${r.root} (missing)`) : "not on this host"}${r.current ? `  ${theme.g.current} this folder's project` : ""}`;
    return (
      <Box key={r.id} flexDirection="column">
        <Text inverse={sel} wrap="truncate">
          {sel ? theme.g.pointer : " "}
          {r.current ? theme.g.current : " "}
          {pad(r.name, nameW, theme.g.ellipsis)} {pad(count(r), countW)}{" "}
          {pad(r.newest ? age(r.newest, now()) : "-", ageW)} {fit(inline(r.goal), goalW, theme.g.ellipsis)}
        </Text>
        <Text color={r.root ? theme.c("muted") : theme.c("warn")}>
          {"   "}
          {fit(where, w - 3, theme.g.ellipsis)}
        </Text>
      </Box>
    );
  });
}

/** More projects than fit: the line left free below the list says so (as the snapshot view does). */
function moreMarker(below: number, above: number, theme: Theme): string {
  const g = theme.g;
  const more = Math.max(0, below);
  return [
    more ? (theme.ascii ? `${more} more below (Down/PgDn)` : `${g.down} ${more} more (${g.down}/PgDn)`) : "",
    above ? (theme.ascii ? `${above} above` : `${g.up} ${above} above`) : "",
  ]
    .filter(Boolean)
    .join(` ${g.sep} `);
}
