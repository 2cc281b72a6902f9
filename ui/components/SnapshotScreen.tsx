// One snapshot, laid out for reading (snapshotLayout.ts): Layer 1 (active files marked as
// present/changed on this host), the plan, Layer 2 with the failure graph (an overflow snapshot's:
// the full one's it extends, as load restores it), Layer 3 only on request.
// Actions: load (prints the restore block on exit), copy it (OSC 52), mark completed, delete,
// verify, and retire the selected constraint or decision (Tab selects one).
import { useEffectEvent, useLayoutEffect, useMemo, useRef, useState } from "react";
import { Box, Text, type Key } from "ink";
import { useKeys } from "../hooks/useKeys.ts";
import { useAction } from "../hooks/useAction.ts";
import {
  deleteById,
  restoreById,
  setStatusById,
  snapshotById,
  verifyById,
  type FileCheck,
  type SnapshotRecord,
} from "../../src/engine/snapshots/catalog.ts";
import { failuresFor } from "../../src/engine/failures/record.ts";
import { isArchived } from "../../src/engine/snapshots/retention.ts";
import { extendedSnapshot, savedOnOtherHost } from "../../src/engine/snapshots/select.ts";
import { layer2AfterDelete, layer2MovedText } from "../../src/engine/snapshots/manage.ts";
import { retireCandidates } from "../../src/engine/memory/retire.ts";
import { toggleRetired } from "../hooks/retirement.ts";
import { layout, retiredOf, type Item, type Layout } from "./snapshotLayout.ts";
import { useUi } from "../context.ts";
import { useAsync, type AsyncState } from "../hooks/useAsync.ts";
import { scrollTarget } from "../hooks/useScroll.ts";
import type { Theme } from "../theme.ts";
import { useRefState } from "../hooks/useRefState.ts";
import { AGES_EVERY_MS, useTick } from "../hooks/useTick.ts";
import { age, fit } from "../../src/lib/text.ts";
import { Frame, nameRoom, question, statusHeight } from "./Frame.tsx";
import { fitName } from "./PickerScreen.tsx";
import type { HelpKeys } from "./HelpOverlay.tsx";
import { projectById } from "../../src/engine/projects/resolve.ts";

export const SNAPSHOT_KEYS: HelpKeys = [
  ["↑/↓ j/k", "scroll a line"],
  ["PgUp/PgDn Space b", "scroll a page"],
  ["g/G Home/End", "top, end"],
  ["l Enter", "load: quit and print the restore block to stdout"],
  ["c", "copy the restore block to the clipboard (OSC 52)"],
  ["3", "show Layer 3 (cold archive) and jump to it; again: hide"],
  ["v", "verify active files again"],
  ["d", "mark completed"],
  ["x", "delete (asks first)"],
  ["Tab n", "select the next constraint or decision"],
  ["Shift-Tab N", "select the previous one"],
  ["r", "retire the selected one (never carried forward nor restored); on a retired one: bring it back"],
  ["f", "failure graph"],
  ["?", "keys"],
  ["q Esc", "back (Esc first unselects)"],
];

function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
}

interface SnapshotProps {
  snapshotId: string;
  width: number;
  height: number;
  active: boolean;
  /** `deleted`: the name of the snapshot deleted here, for the line the screen below shows. */
  onBack: (change?: "edited" | { deleted: string }) => void;
  onFailures: (projectId: string, projectName?: string) => void;
}

export function SnapshotScreen(props: SnapshotProps) {
  const { theme } = useUi();
  const [status, setStatus] = useState<string | undefined>();
  const data = useSnapshot(props.snapshotId);
  const [checks, verify] = useFileChecks(data.data);
  const layouts = useSnapshotLayouts(data.data, checks, props.width, props.active);
  // The body: the frame's title and key line, the status line when there is one, and the scroll marker.
  const visible = Math.max(1, props.height - 3 - statusHeight(status, props.width));
  const view = useSnapshotView(layouts, visible, setStatus);
  useSnapshotKeys(props, { data, view, verify, setStatus });

  const s = data.data?.snapshot;
  const g = theme.g;
  // The name cut in its middle, as in the picker, so its date and -N suffix stay in the title.
  const project = s
    ? `${fit(data.data!.project, Math.max(8, Math.floor(props.width / 3)), g.ellipsis)} ${g.sep} `
    : "";
  const title = s
    ? `${project}${fitName(s.name, nameRoom(props.width, g.sep, project), g.ellipsis)}`
    : "Snapshot";
  const { lines, items } = view.current();
  const sel = view.getSel();
  const top = view.top();
  const item = sel === null ? undefined : items[sel];
  const selected = item && (retiredOf(data.data?.retired ?? [], item.kind, item.text) ? "retired" : "active");
  const marker = scrollMarker(view, theme);
  return (
    <Frame
      title={title}
      width={props.width}
      height={props.height}
      status={status}
      hints={snapshotHints(view.current().layer3Lines, selected)}
      more={sel === null && items.length ? ["Tab select"] : []}
    >
      {data.error ? <Text color={theme.c("bad")}>{data.error.message}</Text> : null}
      {!s && !data.error ? <Text color={theme.c("muted")}>Loading…</Text> : null}
      <Box flexDirection="column" height={s ? visible : undefined}>
        {lines.slice(top, top + visible).map((l, i) => {
          const on = sel !== null && l.item === sel;
          const first = on && items[sel].at === top + i;
          return (
            <Text key={top + i} color={l.color} bold={l.bold} inverse={on} wrap="truncate">
              {(first ? `${g.pointer}${l.text.slice(1)}` : l.text) || " "}
            </Text>
          );
        })}
      </Box>
      {s && marker ? <Text color={theme.c("accent")}>{fit(marker, props.width, g.ellipsis)}</Text> : null}
    </Frame>
  );
}

/** The snapshot and what its view shows with it: its project and root here, the failures, what is retired. */
function useSnapshot(snapshotId: string) {
  const { session } = useUi();
  return useAsync(async () => {
    const snapshot = await snapshotById(session, snapshotId);
    const ctx = await projectById(session, snapshot.project_id);
    const failures = await failuresFor(session, snapshot.project_id);
    const { retired } = await retireCandidates(session.forProject(snapshot.project_id));
    // An overflow snapshot's Layer 2 is the full one's it extends: shown as load restores it.
    const base = await extendedSnapshot(session, snapshot);
    return {
      snapshot,
      base,
      root: ctx.root,
      project: ctx.project.name,
      failures,
      retired,
      savedOn: await savedOnOtherHost(session, snapshot),
      archived: await isArchived(session, snapshot.id),
    };
  }, [snapshotId]);
}

type Loaded = NonNullable<ReturnType<typeof useSnapshot>["data"]>;

/** The active files as found on this host: checked when the snapshot is read, and again on `v` (the second value). */
function useFileChecks(loaded: Loaded | undefined): [FileCheck[], () => void] {
  const { session } = useUi();
  const first = useMemo(
    () => (loaded ? verifyById(session, loaded.snapshot, loaded.root) : []),
    [session, loaded],
  );
  // Checked again by `v`, until the snapshot is read again.
  const [again, setAgain] = useState<{ of: Loaded; checks: FileCheck[] } | null>(null);
  const verify = () => {
    if (loaded) setAgain({ of: loaded, checks: verifyById(session, loaded.snapshot, loaded.root) });
  };
  return [again && again.of === loaded ? again.checks : first, verify];
}

/** Both layouts (Layer 3 hidden and shown), so a key knows at once what the other one looks like. */
function useSnapshotLayouts(
  loaded: Loaded | undefined,
  checks: FileCheck[],
  width: number,
  active: boolean,
): Layout[] | null {
  const { theme } = useUi();
  // "saved … (3m ago)" follows the clock while on top: laid out again when the age it shows changes.
  useTick(AGES_EVERY_MS, active);
  const clock = useShownClock(loaded?.snapshot.created_at);
  return useMemo(
    () =>
      loaded
        ? ([false, true] as const).map((l3) =>
            layout(
              loaded.snapshot,
              loaded.failures,
              checks,
              loaded.retired,
              l3,
              width - 2,
              theme,
              clock,
              loaded.base,
              loaded.savedOn,
              loaded.archived,
            ),
          )
        : null,
    [loaded, checks, width, theme, clock],
  );
}

/** The app's clock, moved on only when the age shown since `from` ("3m") changes: the time the view is laid out at. */
function useShownClock(from: string | undefined): Date {
  const { now } = useUi();
  const at = now();
  const shown = from ? age(from, at) : "";
  const last = useRef({ shown, at });
  if (last.current.shown !== shown) last.current = { shown, at };
  return last.current.at;
}

const NO_LAYOUT: Layout = { lines: [], layer3At: 0, layer3Lines: 0, items: [] };

/**
 * Where the reading is: the layout shown (Layer 3 or not), the top line, and the selected
 * constraint or decision (an index in the layout's items), if any. Read by the key handler at once,
 * so `3` then `j` in one burst scroll Layer 3, not the view before it.
 */
function useSnapshotView(layouts: Layout[] | null, visible: number, setStatus: (text: string) => void) {
  const [getShowL3, setShowL3] = useRefState(false);
  const [getTop, setTop] = useRefState(0);
  const [getSel, setSel] = useRefState<number | null>(null);
  const current = (): Layout => layouts?.[getShowL3() ? 1 : 0] ?? NO_LAYOUT;
  const maxTop = () => Math.max(0, current().lines.length - visible);
  const top = () => Math.min(getTop(), maxTop());
  const scrollTo = (n: number) => setTop(Math.max(0, Math.min(maxTop(), n)));
  const reveal = (i: number | null) => {
    const it = i === null ? undefined : current().items[i];
    if (!it) return;
    if (it.at < top()) scrollTo(it.at);
    else if (it.at + it.lines > top() + visible) scrollTo(it.at + it.lines - visible);
  };
  // A retired item takes more lines and a status line takes room: the selection stays in view.
  const keepInView = useEffectEvent(() => reveal(getSel()));
  useLayoutEffect(() => keepInView(), [layouts, visible]);
  return {
    visible,
    current,
    top,
    maxTop,
    scrollTo,
    getSel,
    setSel,
    showL3: getShowL3,
    /** Selects item `i` (wrapping around) and scrolls it into view. */
    select: (i: number) => {
      const { items } = current();
      if (!items.length) return setStatus("This snapshot has no constraint or decision to select.");
      const at = (i + items.length) % items.length;
      setSel(at);
      reveal(at);
    },
    /** Shown: jump to Layer 3; pressed again: hidden, back where the reading was. */
    toggleLayer3: () => {
      if (!current().layer3Lines) return setStatus("This snapshot has no Layer 3 (cold archive).");
      const was = top();
      const show = !getShowL3();
      setShowL3(show);
      scrollTo(show ? current().layer3At : Math.min(was, current().layer3At));
    },
  };
}

type View = ReturnType<typeof useSnapshotView>;

/** What the snapshot's keys act on. */
interface SnapshotKeyParts {
  data: AsyncState<Loaded>;
  view: View;
  verify: () => void;
  setStatus: (text: string | undefined) => void;
}

/** The snapshot's keys: select and retire, scroll, then the actions (load, copy, Layer 3, verify, done, delete). */
function useSnapshotKeys(props: SnapshotProps, { data, view, verify, setStatus }: SnapshotKeyParts) {
  const act = useSnapshotActions(props, data, setStatus);
  const selectionKey = (s: SnapshotRecord, input: string, key: Key): boolean => {
    const sel = view.getSel();
    if ((key.tab && !key.shift) || input === "n") view.select(sel === null ? 0 : sel + 1);
    else if ((key.tab && key.shift) || input === "N") view.select(sel === null ? -1 : sel - 1);
    else if (input === "r") act.retire(s, sel === null ? undefined : view.current().items[sel]);
    else if (key.escape && sel !== null) view.setSel(null);
    else return false;
    return true;
  };
  const actionKey = (s: SnapshotRecord, input: string, key: Key) => {
    if (input === "l" || key.return) return act.load(s);
    if (input === "q" || key.escape) return props.onBack(act.edited() ? "edited" : undefined);
    switch (input) {
      case "c":
        return act.copy(s);
      case "3":
        return view.toggleLayer3();
      case "v":
        verify();
        return setStatus("Verified the active files against this host.");
      case "d":
        return act.markDone(s);
      case "x":
        return act.askDelete(s);
      case "f":
        return props.onFailures(s.project_id, data.data?.project);
    }
  };
  act.action.release(
    useKeys(
      (input, key) => {
        const s = data.data?.snapshot;
        if (!s) {
          if (input === "q" || key.escape) props.onBack();
          return;
        }
        if (act.answerDelete(s, input) || selectionKey(s, input, key)) return;
        const to = scrollTarget(input, key, view.top(), Math.max(1, view.visible - 1), view.maxTop());
        if (to !== null) view.scrollTo(to);
        else actionKey(s, input, key);
      },
      { isActive: props.active, ready: !!data.data || !!data.error, wait: act.action.busy },
    ),
  );
}

/**
 * What the snapshot's keys do to it: load (the restore block printed on exit), copy it (OSC 52),
 * mark it completed, delete it after a `y`, retire or bring back a constraint or decision. While
 * one runs, keys wait for its outcome.
 */
function useSnapshotActions(
  props: SnapshotProps,
  data: AsyncState<Loaded>,
  setStatus: (text: string | undefined) => void,
) {
  const { session, theme, exit, writeTerminal } = useUi();
  const [confirmingDelete, setConfirmDelete] = useRefState(false);
  // Marked completed here: the list below shows the new status when this screen is left.
  const edited = useRef(false);
  const action = useAction(setStatus);
  const act = (work: () => Promise<string | void>) => void action.run(work);
  return {
    action,
    edited: () => edited.current,
    load: (s: SnapshotRecord) => act(async () => exit((await restoreById(session, s.id)).block.text)),
    copy: (s: SnapshotRecord) =>
      act(async () => {
        const r = await restoreById(session, s.id);
        writeTerminal(osc52(r.block.text));
        return `Copied the restore block (${r.block.tokens} tokens) to the clipboard with OSC 52.`;
      }),
    markDone: (s: SnapshotRecord) =>
      act(async () => {
        await setStatusById(session, s.id, "completed");
        edited.current = true;
        await data.reload();
        return `Marked ${s.name} completed.`;
      }),
    askDelete: (s: SnapshotRecord) =>
      act(async () => {
        // Overflow snapshots restoring this one's Layer 2: the question says what they restore afterwards.
        const moved = layer2MovedText("this one", await layer2AfterDelete(session, s), false);
        setConfirmDelete(true);
        return moved.length
          ? `Delete ${s.name}? ${moved.join(" ")} y to delete, any other key to keep it.`
          : question(
              "Delete ",
              s.name,
              "? y to delete, any other key to keep it.",
              props.width,
              theme.g.ellipsis,
              fitName,
            );
      }),
    /** With the delete question open: `y` deletes, any other key keeps it; true when the key was the answer. */
    answerDelete: (s: SnapshotRecord, input: string): boolean => {
      if (!confirmingDelete()) return false;
      setConfirmDelete(false);
      if (input === "y" || input === "Y")
        act(async () => {
          await deleteById(session, s.id);
          props.onBack({ deleted: s.name });
        });
      else setStatus("Delete cancelled.");
      return true;
    },
    retire: (s: SnapshotRecord, item: Item | undefined) => {
      if (!item) return setStatus("Select a constraint or decision first (Tab), then r retires it.");
      act(async () => {
        const said = await toggleRetired(session.forProject(s.project_id), item);
        await data.reload();
        return said;
      });
    },
  };
}

/** Below the lines: how many more are below and above, and where Layer 3 is when it is off screen. */
function scrollMarker(view: View, theme: Theme): string {
  const { lines, layer3At, layer3Lines } = view.current();
  const { g } = theme;
  const top = view.top();
  const visible = view.visible;
  const below = Math.max(0, lines.length - top - visible);
  const l3Visible = view.showL3() && layer3At < top + visible;
  const s = (n: number) => (n === 1 ? "" : "s");
  return [
    // ASCII has no arrows: "v" and "^" would read as keys.
    below
      ? theme.ascii
        ? `${below} more line${s(below)} below (Down/PgDn)`
        : `${g.down} ${below} more line${s(below)} (${g.down}/PgDn)`
      : top
        ? "end"
        : "",
    top ? (theme.ascii ? `${top} above` : `${g.up} ${top} above`) : "",
    // Only when the Layer 3 line itself (its heading, or the line saying how to show it) is off screen.
    layer3Lines && !l3Visible && !(layer3At >= top && layer3At < top + visible)
      ? `3 ${g.arrow} Layer 3 (cold archive, ${layer3Lines} line${s(layer3Lines)})`
      : "",
  ]
    .filter(Boolean)
    .join(` ${g.sep} `);
}

/** The key line: with an item selected, what r does to it (retire, or bring a retired one back); else the actions. */
function snapshotHints(layer3Lines: number, selected: "retired" | "active" | undefined): string[] {
  if (selected)
    return [
      selected === "retired" ? "r bring back" : "r retire",
      "Tab next",
      "Esc unselect",
      "? keys",
      "q back",
    ];
  return [
    "l load",
    "c copy",
    ...(layer3Lines ? ["3 layer 3"] : []),
    "v verify",
    "d done",
    "x delete",
    "? keys",
    "q back",
  ];
}
