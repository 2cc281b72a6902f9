// One snapshot, laid out for reading (snapshotLayout.ts): Layer 1 (active files marked as
// present/changed on this host), the plan, Layer 2 with the failure graph (an overflow snapshot's:
// the full one's it extends, as load restores it), Layer 3 only on request.
// Actions: load (prints the restore block on exit), copy it (OSC 52), mark completed, delete,
// verify, and retire the selected constraint or decision (Tab selects one).
import { useLayoutEffect, useMemo, useRef, useState } from "react";
import { Box, Text } from "ink";
import { useKeys } from "../hooks/useKeys.ts";
import { useAction } from "../hooks/useAction.ts";
import {
  deleteById,
  restoreById,
  setStatusById,
  snapshotById,
  verifyById,
  type FileCheck,
} from "../../src/engine/snapshots/catalog.ts";
import { failuresFor } from "../../src/engine/failures/record.ts";
import { isArchived } from "../../src/engine/snapshots/retention.ts";
import { extendedSnapshot, savedOnOtherHost } from "../../src/engine/snapshots/select.ts";
import { layer2AfterDelete, layer2MovedText } from "../../src/engine/snapshots/manage.ts";
import { retireCandidates } from "../../src/engine/memory/retire.ts";
import { toggleRetired } from "../hooks/retirement.ts";
import { layout, retiredOf, type Layout } from "./snapshotLayout.ts";
import { useUi } from "../context.ts";
import { useAsync } from "../hooks/useAsync.ts";
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

export function SnapshotScreen(props: {
  snapshotId: string;
  width: number;
  height: number;
  active: boolean;
  onBack: (change?: "edited" | "deleted") => void;
  onFailures: (projectId: string, projectName?: string) => void;
}) {
  const { session, theme, exit, writeTerminal, now } = useUi();
  // Read by the key handler at once, so `3` then `j` in one burst scroll Layer 3, not the view before it.
  const [getShowL3, setShowL3] = useRefState(false);
  const [getTop, setTop] = useRefState(0);
  // The selected constraint or decision (an index in the layout's items), if any.
  const [getSel, setSel] = useRefState<number | null>(null);
  const [confirmingDelete, setConfirmDelete] = useRefState(false);
  const [status, setStatus] = useState<string | undefined>();
  const [verifyTick, setVerifyTick] = useState(0);
  // Marked completed here: the list below shows the new status when this screen is left.
  const edited = useRef(false);
  const data = useAsync(async () => {
    const snapshot = await snapshotById(session, props.snapshotId);
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
  }, [props.snapshotId]);
  const checks = useMemo<FileCheck[]>(
    () => (data.data ? verifyById(session, data.data.snapshot, data.data.root) : []),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [data.data, verifyTick],
  );
  // "saved … (3m ago)" follows the clock while on top: laid out again when the age it shows changes.
  useTick(AGES_EVERY_MS, props.active);
  const saved = data.data ? age(data.data.snapshot.created_at, now()) : "";
  // Both layouts (Layer 3 hidden and shown), so a key knows at once what the other one looks like.
  const layouts = useMemo(
    () =>
      data.data
        ? ([false, true] as const).map((l3) =>
            layout(
              data.data!.snapshot,
              data.data!.failures,
              checks,
              data.data!.retired,
              l3,
              props.width - 2,
              theme,
              now(),
              data.data!.base,
              data.data!.savedOn,
              data.data!.archived,
            ),
          )
        : null,
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [data.data, checks, props.width, saved],
  );
  const current = (): Layout =>
    layouts?.[getShowL3() ? 1 : 0] ?? { lines: [], layer3At: 0, layer3Lines: 0, items: [] };
  // The body: the frame's title and key line, the status line when there is one, and the scroll marker.
  const visible = Math.max(1, props.height - 3 - statusHeight(status, props.width));
  const maxTop = () => Math.max(0, current().lines.length - visible);
  const scrollTo = (n: number) => setTop(Math.max(0, Math.min(maxTop(), n)));
  const reveal = (i: number | null) => {
    const it = i === null ? undefined : current().items[i];
    if (!it) return;
    const top = Math.min(getTop(), maxTop());
    if (it.at < top) scrollTo(it.at);
    else if (it.at + it.lines > top + visible) scrollTo(it.at + it.lines - visible);
  };
  /** Selects item `i` (wrapping around) and scrolls it into view. */
  const select = (i: number) => {
    const { items } = current();
    if (!items.length) return setStatus("This snapshot has no constraint or decision to select.");
    const at = (i + items.length) % items.length;
    setSel(at);
    reveal(at);
  };
  // A retired item takes more lines and a status line takes room: the selection stays in view.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => reveal(getSel()), [layouts, visible]);

  // While an action runs (mark completed, delete, copy), keys wait for its outcome.
  const action = useAction(setStatus);
  const act = action.run;

  action.release(
    useKeys(
      (input, key) => {
        const s = data.data?.snapshot;
        if (!s) {
          if (input === "q" || key.escape) props.onBack();
          return;
        }
        if (confirmingDelete()) {
          setConfirmDelete(false);
          if (input === "y" || input === "Y") {
            void act(async () => {
              await deleteById(session, s.id);
              props.onBack("deleted");
            });
          } else setStatus("Delete cancelled.");
          return;
        }
        const top = Math.min(getTop(), maxTop());
        const page = Math.max(1, visible - 1);
        const sel = getSel();
        if ((key.tab && !key.shift) || input === "n") return select(sel === null ? 0 : sel + 1);
        if ((key.tab && key.shift) || input === "N") return select(sel === null ? -1 : sel - 1);
        if (input === "r") {
          const item = sel === null ? undefined : current().items[sel];
          if (!item) return setStatus("Select a constraint or decision first (Tab), then r retires it.");
          return void act(async () => {
            const said = await toggleRetired(session.forProject(s.project_id), item);
            await data.reload();
            return said;
          });
        }
        if (key.escape && sel !== null) return setSel(null);
        if (key.upArrow || input === "k") scrollTo(top - 1);
        else if (key.downArrow || input === "j") scrollTo(top + 1);
        else if (key.pageUp || input === "b") scrollTo(top - page);
        else if (key.pageDown || input === " ") scrollTo(top + page);
        else if (key.home || input === "g") scrollTo(0);
        else if (key.end || input === "G") scrollTo(maxTop());
        else if (input === "l" || key.return)
          void act(async () => exit((await restoreById(session, s.id)).block.text));
        else if (input === "c") {
          void act(async () => {
            const r = await restoreById(session, s.id);
            writeTerminal(osc52(r.block.text));
            return `Copied the restore block (${r.block.tokens} tokens) to the clipboard with OSC 52.`;
          });
        } else if (input === "3") {
          if (!current().layer3Lines) return setStatus("This snapshot has no Layer 3 (cold archive).");
          // Shown: jump to it; pressed again: hidden, back where the reading was.
          const show = !getShowL3();
          setShowL3(show);
          scrollTo(show ? current().layer3At : Math.min(top, current().layer3At));
        } else if (input === "v") {
          setVerifyTick((t) => t + 1);
          setStatus("Verified the active files against this host.");
        } else if (input === "d") {
          void act(async () => {
            await setStatusById(session, s.id, "completed");
            edited.current = true;
            await data.reload();
            return `Marked ${s.name} completed.`;
          });
        } else if (input === "x") {
          void act(async () => {
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
          });
        } else if (input === "f") props.onFailures(s.project_id, data.data?.project);
        else if (input === "q" || key.escape) props.onBack(edited.current ? "edited" : undefined);
      },
      { isActive: props.active, ready: !!data.data || !!data.error, wait: action.busy },
    ),
  );

  const s = data.data?.snapshot;
  // The name cut in its middle, as in the picker, so its date and -N suffix stay in the title.
  const project = s
    ? `${fit(data.data!.project, Math.max(8, Math.floor(props.width / 3)), theme.g.ellipsis)} ${theme.g.sep} `
    : "";
  const title = s
    ? `${project}${fitName(s.name, nameRoom(props.width, theme.g.sep, project), theme.g.ellipsis)}`
    : "Snapshot";
  const { lines, layer3At, layer3Lines, items } = current();
  const sel = getSel();
  const top = Math.min(getTop(), maxTop());
  const below = Math.max(0, lines.length - top - visible);
  const l3Visible = getShowL3() && layer3At < top + visible;
  const g = theme.g;
  const marker = [
    // ASCII has no arrows: "v" and "^" would read as keys.
    below
      ? theme.ascii
        ? `${below} more line${below === 1 ? "" : "s"} below (Down/PgDn)`
        : `${g.down} ${below} more line${below === 1 ? "" : "s"} (${g.down}/PgDn)`
      : top
        ? "end"
        : "",
    top ? (theme.ascii ? `${top} above` : `${g.up} ${top} above`) : "",
    // Only when the Layer 3 line itself (its heading, or the line saying how to show it) is off screen.
    layer3Lines && !l3Visible && !(layer3At >= top && layer3At < top + visible)
      ? `3 ${g.arrow} Layer 3 (cold archive, ${layer3Lines} line${layer3Lines === 1 ? "" : "s"})`
      : "",
  ]
    .filter(Boolean)
    .join(` ${g.sep} `);
  return (
    <Frame
      title={title}
      width={props.width}
      height={props.height}
      status={status}
      hints={
        sel !== null && items[sel]
          ? [
              retiredOf(data.data?.retired ?? [], items[sel].kind, items[sel].text)
                ? "r bring back"
                : "r retire",
              "Tab next",
              "Esc unselect",
              "? keys",
              "q back",
            ]
          : [
              "l load",
              "c copy",
              ...(layer3Lines ? ["3 layer 3"] : []),
              "v verify",
              "d done",
              "x delete",
              "? keys",
              "q back",
            ]
      }
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
