// One snapshot, laid out for reading: Layer 1 (active files marked as present/changed on this
// host), Layer 2 with the failure graph, Layer 3 only on request. Actions: load (prints the
// restore block on exit), copy it (OSC 52), mark completed, delete, verify.
import { useMemo, useState } from "react";
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
import { useListNavigation } from "../hooks/useListNavigation.ts";
import { useRefState } from "../hooks/useRefState.ts";
import { age, wrap } from "../../src/lib/text.ts";
import { Frame } from "./Frame.tsx";
import type { HelpKeys } from "./HelpOverlay.tsx";

export const SNAPSHOT_KEYS: HelpKeys = [
  ["↑/↓ j/k PgUp/PgDn", "scroll"], ["l Enter", "load: quit and print the restore block to stdout"], ["c", "copy the restore block to the clipboard (OSC 52)"],
  ["3", "show or hide Layer 3 (cold archive)"], ["v", "verify active files again"], ["d", "mark completed"], ["x", "delete (asks first)"],
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
  snapshotId: string; width: number; height: number; active: boolean; onBack: (changed: boolean) => void; onFailures: (projectId: string) => void;
}) {
  const { session, theme, exit, writeTerminal, now } = useUi();
  const [showL3, setShowL3] = useState(false);
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

  const lines = useMemo(
    () => (data.data ? layout(data.data.snapshot, data.data.failures, checks, showL3, props.width - 2, theme, now()) : []),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [data.data, checks, showL3, props.width],
  );
  const visible = Math.max(1, props.height - 4);
  const nav = useListNavigation(Math.max(0, lines.length - visible + 1), 1);

  const act = async (what: () => Promise<string | void>) => {
    try {
      const msg = await what();
      if (msg) setStatus(msg);
    } catch (e) {
      setStatus((e as Error).message);
    }
  };

  useKeys((input, key) => {
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
    if (key.upArrow || input === "k") nav.setSelected(nav.selected - 1);
    else if (key.downArrow || input === "j") nav.setSelected(nav.selected + 1);
    else if (key.pageUp) nav.setSelected(nav.selected - (visible - 1));
    else if (key.pageDown || input === " ") nav.setSelected(nav.selected + (visible - 1));
    else if (input === "g") nav.setSelected(0);
    else if (input === "G") nav.setSelected(lines.length);
    else if (input === "l" || key.return) void act(async () => exit((await restoreById(session, s.id)).block.text));
    else if (input === "c") {
      void act(async () => {
        const r = await restoreById(session, s.id);
        writeTerminal(osc52(r.block.text));
        return `Copied the restore block (${r.block.tokens} tokens) to the clipboard with OSC 52.`;
      });
    } else if (input === "3") setShowL3((v) => !v);
    else if (input === "v") {
      setVerifyTick((t) => t + 1);
      setStatus("Verified the active files against this host.");
    } else if (input === "d") {
      void act(async () => {
        await setStatusById(session, s.id, "completed");
        data.reload();
        return `Marked ${s.name} completed.`;
      });
    } else if (input === "x") {
      setConfirmDelete(true);
      setStatus(`Delete ${s.name}? y to delete, any other key to keep it.`);
    } else if (input === "f") props.onFailures(s.project_id);
    else if (input === "q" || key.escape) props.onBack(false);
  }, { isActive: props.active });

  const s = data.data?.snapshot;
  const title = s ? `${data.data!.project} ${theme.g.sep} ${s.name}` : "Snapshot";
  return (
    <Frame title={title} width={props.width} height={props.height} status={status}
      hints={["l load", "c copy", "3 layer 3", "v verify", "d done", "x delete", "? keys", "q back"]}>
      {data.error ? <Text color={theme.c("bad")}>{data.error.message}</Text> : null}
      {!s && !data.error ? <Text color={theme.c("muted")}>Loading…</Text> : null}
      <Box flexDirection="column">
        {lines.slice(nav.selected, nav.selected + visible).map((l, i) => (
          <Text key={nav.selected + i} color={l.color} bold={l.bold} wrap="truncate">{l.text || " "}</Text>
        ))}
      </Box>
    </Frame>
  );
}

function layout(s: SnapshotRecord, failures: FailureRecord[], checks: FileCheck[], showL3: boolean, cols: number, theme: ReturnType<typeof useUi>["theme"], now: Date): Line[] {
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
  if (showL3) {
    head("Layer 3 · Cold Archive".replace("·", theme.g.sep));
    const text = layer3Text(s);
    for (const l of wrap(text || "(empty)", cols)) out.push({ text: l });
  } else {
    out.push({ text: "Layer 3 (cold archive) is never auto-restored: press 3 to show it.", color: theme.c("muted") });
  }
  return out;
}
