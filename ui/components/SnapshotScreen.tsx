// One snapshot, laid out for reading: Layer 1 (active files marked as present/changed on this
// host), Layer 2 with the failure graph, Layer 3 only on request. Actions: load (prints the
// restore block on exit), copy it (OSC 52), mark completed, delete, verify.
import { useMemo, useRef, useState } from "react";
import { Box, Text } from "ink";
import { useKeys } from "../hooks/useKeys.ts";
import {
  deleteById, restoreById, setStatusById, snapshotById, verifyById, type FileCheck, type SnapshotRecord,
} from "../../src/engine/snapshots/catalog.ts";
import { effectiveConfidence, failuresFor, type FailureRecord } from "../../src/engine/failures/record.ts";
import { layer3Text } from "../../src/engine/snapshots/recall.ts";
import { symbolicLines, type SymbolicEntryLike } from "../../src/engine/snapshots/layers.ts";
import { useUi } from "../context.ts";
import { useAsync } from "../hooks/useAsync.ts";
import { useRefState } from "../hooks/useRefState.ts";
import { age, fit, wrap } from "../../src/lib/text.ts";
import { Frame } from "./Frame.tsx";
import type { HelpKeys } from "./HelpOverlay.tsx";

export const SNAPSHOT_KEYS: HelpKeys = [
  ["↑/↓ j/k", "scroll a line"], ["PgUp/PgDn Space b", "scroll a page"], ["g/G Home/End", "top, end"], ["l Enter", "load: quit and print the restore block to stdout"], ["c", "copy the restore block to the clipboard (OSC 52)"],
  ["3", "show Layer 3 (cold archive) and jump to it; again: hide"], ["v", "verify active files again"], ["d", "mark completed"], ["x", "delete (asks first)"],
  ["f", "failure graph"], ["?", "keys"], ["q Esc", "back"],
];

interface Line {
  text: string;
  color?: string;
  bold?: boolean;
}

function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
}

export function SnapshotScreen(props: {
  snapshotId: string; width: number; height: number; active: boolean; onBack: (changed: boolean) => void; onFailures: (projectId: string, projectName?: string) => void;
}) {
  const { session, theme, exit, writeTerminal, now } = useUi();
  // Read by the key handler at once, so `3` then `j` in one burst scroll Layer 3, not the view before it.
  const [getShowL3, setShowL3] = useRefState(false);
  const [getTop, setTop] = useRefState(0);
  const [confirmingDelete, setConfirmDelete] = useRefState(false);
  const [status, setStatus] = useState<string | undefined>();
  const [verifyTick, setVerifyTick] = useState(0);
  const data = useAsync(async () => {
    const snapshot = await snapshotById(session, props.snapshotId);
    const ctx = await session.projectById(snapshot.project_id);
    const failures = await failuresFor(session, snapshot.project_id);
    return { snapshot, root: ctx.root, project: ctx.project.name, failures };
  }, [props.snapshotId]);
  const checks = useMemo<FileCheck[]>(
    () => (data.data ? verifyById(session, data.data.snapshot, data.data.root) : []),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [data.data, verifyTick],
  );
  // Both layouts (Layer 3 hidden and shown), so a key knows at once what the other one looks like.
  const layouts = useMemo(
    () => (data.data ? ([false, true] as const).map((l3) => layout(data.data!.snapshot, data.data!.failures, checks, l3, props.width - 2, theme, now())) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [data.data, checks, props.width],
  );
  const current = () => layouts?.[getShowL3() ? 1 : 0] ?? { lines: [], layer3At: 0, layer3Lines: 0 };
  // The body: the frame's title and key line, the status line when there is one, and the scroll marker.
  const visible = Math.max(1, props.height - 3 - (status ? 1 : 0));
  const maxTop = () => Math.max(0, current().lines.length - visible);
  const scrollTo = (n: number) => setTop(Math.max(0, Math.min(maxTop(), n)));

  // While an action runs (mark completed, delete, copy), keys wait for its outcome.
  const busy = useRef(false);
  const act = async (what: () => Promise<string | void>) => {
    busy.current = true;
    try {
      const msg = await what();
      if (msg) setStatus(msg);
    } catch (e) {
      setStatus((e as Error).message);
    } finally {
      busy.current = false;
      handOn();
    }
  };

  const handOn = useKeys((input, key) => {
    const s = data.data?.snapshot;
    if (!s) {
      if (input === "q" || key.escape) props.onBack(false);
      return;
    }
    if (confirmingDelete()) {
      setConfirmDelete(false);
      if (input === "y" || input === "Y") {
        void act(async () => {
          await deleteById(session, s.id);
          props.onBack(true);
        });
      } else setStatus("Delete cancelled.");
      return;
    }
    const top = Math.min(getTop(), maxTop());
    const page = Math.max(1, visible - 1);
    if (key.upArrow || input === "k") scrollTo(top - 1);
    else if (key.downArrow || input === "j") scrollTo(top + 1);
    else if (key.pageUp || input === "b") scrollTo(top - page);
    else if (key.pageDown || input === " ") scrollTo(top + page);
    else if (key.home || input === "g") scrollTo(0);
    else if (key.end || input === "G") scrollTo(maxTop());
    else if (input === "l" || key.return) void act(async () => exit((await restoreById(session, s.id)).block.text));
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
        await data.reload();
        return `Marked ${s.name} completed.`;
      });
    } else if (input === "x") {
      setConfirmDelete(true);
      setStatus(`Delete ${s.name}? y to delete, any other key to keep it.`);
    } else if (input === "f") props.onFailures(s.project_id, data.data?.project);
    else if (input === "q" || key.escape) props.onBack(false);
  }, { isActive: props.active, ready: !!data.data || !!data.error, wait: () => busy.current });

  const s = data.data?.snapshot;
  const title = s ? `${fit(data.data!.project, Math.max(8, Math.floor(props.width / 3)), theme.g.ellipsis)} ${theme.g.sep} ${s.name}` : "Snapshot";
  const { lines, layer3At, layer3Lines } = current();
  const top = Math.min(getTop(), maxTop());
  const below = Math.max(0, lines.length - top - visible);
  const l3Visible = getShowL3() && layer3At < top + visible;
  const g = theme.g;
  const marker = [
    // ASCII has no arrows: "v" and "^" would read as keys.
    below ? (theme.ascii ? `${below} more line${below === 1 ? "" : "s"} below (Down/PgDn)` : `${g.down} ${below} more line${below === 1 ? "" : "s"} (${g.down}/PgDn)`) : top ? "end" : "",
    top ? (theme.ascii ? `${top} above` : `${g.up} ${top} above`) : "",
    // Only when the Layer 3 line itself (its heading, or the line saying how to show it) is off screen.
    layer3Lines && !l3Visible && !(layer3At >= top && layer3At < top + visible) ? `3 ${g.arrow} Layer 3 (cold archive, ${layer3Lines} line${layer3Lines === 1 ? "" : "s"})` : "",
  ].filter(Boolean).join(` ${g.sep} `);
  return (
    <Frame title={title} width={props.width} height={props.height} status={status}
      hints={["l load", "c copy", ...(layer3Lines ? ["3 layer 3"] : []), "v verify", "d done", "x delete", "? keys", "q back"]}>
      {data.error ? <Text color={theme.c("bad")}>{data.error.message}</Text> : null}
      {!s && !data.error ? <Text color={theme.c("muted")}>Loading…</Text> : null}
      <Box flexDirection="column" height={s ? visible : undefined}>
        {lines.slice(top, top + visible).map((l, i) => (
          <Text key={top + i} color={l.color} bold={l.bold} wrap="truncate">{l.text || " "}</Text>
        ))}
      </Box>
      {s && marker ? <Text color={theme.c("accent")}>{fit(marker, props.width, g.ellipsis)}</Text> : null}
    </Frame>
  );
}

/** The snapshot as lines of text; `layer3At` is where Layer 3 starts (its heading, or the line saying how to show it). */
function layout(s: SnapshotRecord, failures: FailureRecord[], checks: FileCheck[], showL3: boolean, cols: number, theme: ReturnType<typeof useUi>["theme"], now: Date): { lines: Line[]; layer3At: number; layer3Lines: number } {
  const out: Line[] = [];
  const head = (text: string) => out.push({ text, bold: true, color: theme.c("accent") });
  const field = (label: string, value: string, color?: string) => {
    const lines = wrap(value || "(none)", Math.max(10, cols - 14));
    lines.forEach((l, i) => out.push({ text: `${i === 0 ? label.padEnd(13) : " ".repeat(13)}${l}`, color }));
  };
  const list = (label: string, items: string[]) => {
    if (!items.length) return;
    out.push({ text: label });
    for (const it of items) wrap(it, Math.max(10, cols - 4)).forEach((l, i) => out.push({ text: `${i === 0 ? `  ${theme.g.bullet} ` : "    "}${l}` }));
  };
  out.push({ text: `saved ${s.created_at.slice(0, 16).replace("T", " ")} UTC (${age(s.created_at, now)} ago) ${theme.g.sep} ${s.status.replace("_", " ")}${s.kind === "overflow" ? ` ${theme.g.sep} overflow (Layer 1 only)` : ""}`, color: theme.c("muted") });
  out.push({ text: "" });
  head("Layer 1 · Execution Register".replace("·", theme.g.sep));
  field("goal", s.goal);
  field("state", s.state);
  field("next action", s.next_action);
  if (!s.active_files.length) field("active files", "(none)");
  checks.forEach((c, i) => {
    const mark = c.status === "ok" ? theme.g.ok : c.status === "modified" ? theme.g.changed : c.status === "missing" ? theme.g.bad : "?";
    const note = c.status === "ok" ? "" : c.status === "modified" ? "  changed since the snapshot" : c.status === "missing" ? "  missing on this host" : "  not checked";
    const color = c.status === "ok" ? theme.c("good") : c.status === "missing" ? theme.c("bad") : theme.c("warn");
    wrap(`${mark} ${c.absolute}${note}`, Math.max(10, cols - 13)).forEach((l, j) =>
      out.push({ text: `${(i === 0 && j === 0 ? "active files" : "").padEnd(13)}${j === 0 ? "" : "  "}${l}`, color }));
  });
  field("blocker", s.blocker, s.blocker.toLowerCase() === "none" ? undefined : theme.c("bad"));
  out.push({ text: "" });
  head("Layer 2 · Cognitive Cache".replace("·", theme.g.sep));
  const symbolic = symbolicLines(s.compressed?.symbolic as Record<string, SymbolicEntryLike> | undefined);
  list("constraints", s.constraints);
  list("compressed constraints", Object.entries(symbolic).map(([k, v]) => `${k}: ${v}`));
  list("decisions", s.decisions);
  if (!s.constraints.length && !s.decisions.length && !Object.keys(symbolic).length && !failures.length) out.push({ text: "(empty)", color: theme.c("muted") });
  if (failures.length) {
    out.push({ text: "failure graph (do not retry)" });
    for (const f of failures) {
      const tag = `${theme.g.times}${f.repeat_count} ${effectiveConfidence(f, now)} ${f.scope}`;
      wrap(`${f.item} [${tag}]: ${f.reason}${f.alternatives.length ? ` ${theme.g.arrow} ${f.alternatives.join("; ")}` : ""}`, Math.max(10, cols - 4))
        .forEach((l, i) => out.push({ text: `${i === 0 ? `  ${theme.g.bad} ` : "    "}${l}`, color: i === 0 ? theme.c("warn") : undefined }));
    }
  }
  out.push({ text: "" });
  const layer3At = out.length;
  const text = layer3Text(s);
  const archive = text ? wrap(text, cols) : [];
  if (!archive.length) {
    out.push({ text: "Layer 3 (cold archive): empty.", color: theme.c("muted") });
  } else if (showL3) {
    head(`Layer 3 ${theme.g.sep} Cold Archive (never auto-restored; 3 hides it)`);
    for (const l of archive) out.push({ text: l });
  } else {
    out.push({ text: `Layer 3 (cold archive, ${archive.length} line${archive.length === 1 ? "" : "s"}) is never auto-restored: press 3 to show it.`, color: theme.c("muted") });
  }
  return { lines: out, layer3At, layer3Lines: archive.length };
}
