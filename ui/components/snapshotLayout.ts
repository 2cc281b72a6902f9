// The snapshot view's text: Layer 1 (files checked on this host), the plan with its progress bar,
// Layer 2 with the failure graph and which constraints and decisions are retired, Layer 3 on
// request. Each constraint and decision remembers its lines, so the view can select one. A value
// with a line break is shown quoted on one line (`inline`), as the restore block shows it.
import { effectiveConfidence, type FailureRecord } from "../../src/engine/failures/record.ts";
import { normaliseItem } from "../../src/engine/failures/graph.ts";
import { layer3Text } from "../../src/engine/snapshots/recall.ts";
import { planProgress } from "../../src/engine/snapshots/plan.ts";
import { noBlocker } from "../../src/engine/snapshots/input.ts";
import { inline, symbolicLines, type SymbolicEntryLike } from "../../src/engine/snapshots/layers.ts";
import type { FileCheck, SnapshotRecord } from "../../src/engine/snapshots/catalog.ts";
import { isAbsoluteAny } from "../../src/engine/projects/paths.ts";
import type { RetireKind } from "../../src/engine/memory/retire.ts";
import { ageAgo, printable, utcMinute, width, wrap } from "../../src/lib/text.ts";
import { bar, type Theme } from "../theme.ts";

export interface Line {
  text: string;
  color?: string;
  bold?: boolean;
  /** The constraint or decision (its index in `items`) this line shows. */
  item?: number;
}

export interface Item {
  kind: RetireKind;
  text: string;
  /** Its first line in the layout, and how many lines it takes. */
  at: number;
  lines: number;
}

export interface Layout {
  lines: Line[];
  /** Where Layer 3 starts (its heading, or the line saying how to show it). */
  layer3At: number;
  layer3Lines: number;
  items: Item[];
}

export interface Retired {
  kind: RetireKind;
  text: string;
  retired_at: string;
  /** The host's name, with the agent in brackets when one retired it ("vm (claude)"). */
  retired_by: string;
  reason?: string;
}

/** What a retired item's line adds: when, on which host, why (when a reason was given). */
export function retiredNote(r: Retired, theme: Pick<Theme, "ascii">): string {
  const reason = r.reason?.trim() ?? "";
  // `inline` quotes a reason with a line break already; a one-line one is quoted here.
  const quoted = inline(reason);
  const why = reason ? ` ${theme.ascii ? "-" : "—"} ${quoted === reason ? `"${reason}"` : quoted}` : "";
  return `retired ${r.retired_at.slice(0, 10)} by host ${inline(r.retired_by)}${why}; never restored`;
}

/**
 * Word-wraps Layer 3 as `wrap` does, but every line keeps its leading indentation (tabs to 4-column
 * stops), its continuation lines too: in markdown, indentation makes code blocks and nested lists.
 */
export function wrapKeepingIndent(text: string, cols: number): string[] {
  return printable(text)
    .split("\n")
    .flatMap((line) => {
      const lead = /^[^\S\n\u2028\u2029]*/.exec(line)![0];
      let indent = "";
      for (const c of lead) indent += c === "\t" ? " ".repeat(4 - (indent.length % 4)) : " ".repeat(width(c));
      // At least 10 columns are left for the text: deeper indentation is cut on a narrow terminal.
      indent = indent.slice(0, Math.max(0, cols - 10));
      const rest = line.slice(lead.length);
      return rest
        ? wrap(rest, cols - indent.length, { keepSpaces: true }).map((l) => (l ? indent + l : l))
        : [""];
    });
}

const PLAN_MARKS = {
  utf: { completed: "✓", in_progress: "▶", pending: "○" },
  ascii: { completed: "[x]", in_progress: "[>]", pending: "[ ]" },
} as const;

export function retiredOf(retired: Retired[], kind: RetireKind, text: string): Retired | undefined {
  const key = normaliseItem(text);
  return retired.find((r) => r.kind === kind && normaliseItem(r.text) === key);
}

/**
 * The view's lines as they are written, with the constraints and decisions among them: a line, a
 * heading, a labelled field, a bulleted list, and the selectable items (marked when retired).
 */
function writer(cols: number, theme: Theme, retired: Retired[]) {
  const out: Line[] = [];
  const items: Item[] = [];
  const g = theme.g;
  const push = (line: Line) => out.push(line);
  /** `text` word-wrapped to the view's width, every line in one colour. */
  const wrapped = (text: string, color?: string) => wrap(text, cols).forEach((l) => push({ text: l, color }));
  const head = (text: string) => push({ text, bold: true, color: theme.c("accent") });
  const field = (label: string, value: string, color?: string) => {
    // Spaces as written (an aligned table, a tab inside a state): the block restores them so.
    const lines = wrap(value ? inline(value) : "(none)", Math.max(10, cols - 14), { keepSpaces: true });
    lines.forEach((l, i) => push({ text: `${i === 0 ? label.padEnd(13) : " ".repeat(13)}${l}`, color }));
  };
  const list = (label: string, texts: string[]) => {
    if (!texts.length) return;
    push({ text: label });
    for (const it of texts)
      wrap(it, Math.max(10, cols - 4)).forEach((l, i) =>
        push({ text: `${i === 0 ? `  ${g.bullet} ` : "    "}${l}` }),
      );
  };
  // A constraint or decision: selectable, and marked when it is retired.
  const selectable = (label: string, kind: RetireKind, texts: string[]) => {
    if (!texts.length) return;
    push({ text: label });
    for (const text of texts) {
      const r = retiredOf(retired, kind, text);
      const shown = r ? `${inline(text)} (${retiredNote(r, theme)})` : inline(text);
      const index = items.length;
      const at = out.length;
      // (The spaces as written: a constraint that is code keeps its indentation inside its quotes.)
      wrap(shown, Math.max(10, cols - 4), { keepSpaces: true }).forEach((l, i) =>
        push({
          text: `${i === 0 ? `  ${r ? g.times : g.bullet} ` : "    "}${l}`,
          color: r ? theme.c("muted") : undefined,
          item: index,
        }),
      );
      items.push({ kind, text, at, lines: out.length - at });
    }
  };
  return { out, items, cols, theme, push, wrapped, head, field, list, selectable };
}

type Writer = ReturnType<typeof writer>;

/** What the view shows besides the snapshot: when and where it was saved, what it extends, whether archived. */
interface SavedContext {
  now: Date;
  base: SnapshotRecord | null;
  savedOn: string | null;
  archived: boolean;
}

/**
 * `base`: for an overflow snapshot, the full one whose Layer 2 its restore shows (null: none left,
 * Layer 1 only); its constraints and decisions are shown, and selected and retired, as load restores them.
 */
export function layout(
  s: SnapshotRecord,
  failures: FailureRecord[],
  checks: FileCheck[],
  retired: Retired[],
  showL3: boolean,
  cols: number,
  theme: Theme,
  now: Date,
  base: SnapshotRecord | null = null,
  savedOn: string | null = null,
  archived = false,
): Layout {
  const w = writer(cols, theme, retired);
  const ctx: SavedContext = { now, base, savedOn, archived };
  savedLines(w, s, ctx);
  layer1(w, s, checks, ctx);
  planLines(w, s.plan);
  layer2(w, s, failures, ctx);
  w.push({ text: "" });
  const layer3At = w.out.length;
  const layer3Lines = layer3(w, s, showL3);
  return { lines: w.out, layer3At, layer3Lines, items: w.items };
}

/** The lines above Layer 1: saved when, how long ago, on which host, its status, its kind; its tags. */
function savedLines(w: Writer, s: SnapshotRecord, { now, base, savedOn, archived }: SavedContext) {
  const { g } = w.theme;
  const on = savedOn ? ` on ${inline(savedOn)}` : "";
  const overflow =
    s.kind === "overflow"
      ? ` ${g.sep} overflow (${base ? `Layer 1; Layer 2 from ${base.name}` : "Layer 1 only"})`
      : "";
  // Wrapped, never cut: a narrow screen would end it with the terminal's own "…" (even in ASCII mode).
  w.wrapped(
    `saved ${utcMinute(s.created_at)} (${ageAgo(s.created_at, now)})${on} ${g.sep} ${s.status.replace("_", " ")}${overflow}${archived ? ` ${g.sep} archived` : ""}`,
    w.theme.c("muted"),
  );
  if (s.tags?.length) w.wrapped(`tags ${s.tags.map((t) => `#${inline(t)}`).join(" ")}`, w.theme.c("title"));
  w.push({ text: "" });
}

/** Layer 1: goal, state, next action, the active files as found on this host, the blocker. */
function layer1(w: Writer, s: SnapshotRecord, checks: FileCheck[], { savedOn }: SavedContext) {
  w.head(`Layer 1 ${w.theme.g.sep} Execution Register`);
  w.field("goal", s.goal);
  w.field("state", s.state);
  w.field("next action", s.next_action);
  if (!s.active_files.length) w.field("active files", "(none)");
  checks.forEach((c, i) => fileLines(w, c, i === 0, savedOn));
  w.field("blocker", s.blocker, noBlocker(s.blocker) ? undefined : w.theme.c("bad"));
}

/** One active file: its mark and path, and what this host found (changed, missing, a path elsewhere). */
function fileLines(w: Writer, c: FileCheck, first: boolean, savedOn: string | null) {
  const { g } = w.theme;
  const mark =
    c.status === "ok" ? g.ok : c.status === "modified" ? g.changed : c.status === "missing" ? g.bad : "?";
  // A file outside the project is kept by its absolute path: a place on the host that saved it.
  const elsewhere =
    savedOn && isAbsoluteAny(c.path) ? `  outside the project: a path on ${inline(savedOn)}` : "";
  const note =
    elsewhere ||
    (c.status === "ok"
      ? ""
      : c.status === "modified"
        ? "  changed since the snapshot"
        : c.status === "missing"
          ? "  missing on this host"
          : "  not checked");
  const color =
    c.status === "ok" ? w.theme.c("good") : c.status === "missing" ? w.theme.c("bad") : w.theme.c("warn");
  wrap(`${mark} ${inline(c.absolute)}${note}`, Math.max(10, w.cols - 13)).forEach((l, j) =>
    w.push({
      text: `${(first && j === 0 ? "active files" : "").padEnd(13)}${j === 0 ? "" : "  "}${l}`,
      color,
    }),
  );
}

/** The plan, when there is one: its progress bar, then each step with its mark. */
function planLines(w: Writer, plan: SnapshotRecord["plan"]) {
  if (!plan?.length) return;
  const { theme, cols } = w;
  const p = planProgress(plan);
  const marks = theme.ascii ? PLAN_MARKS.ascii : PLAN_MARKS.utf;
  w.push({ text: "" });
  w.head(`plan ${p.done}/${p.total} ${bar(theme, p.done, p.total, Math.max(10, Math.min(30, cols - 20)))}`);
  for (const step of plan) {
    const color =
      step.status === "completed"
        ? theme.c("good")
        : step.status === "in_progress"
          ? theme.c("warn")
          : undefined;
    const mark = marks[step.status];
    wrap(inline(step.content), Math.max(10, cols - 3 - mark.length)).forEach((l, i) =>
      w.push({ text: `  ${i === 0 ? mark : " ".repeat(mark.length)} ${l}`, color }),
    );
  }
}

/** Layer 2 (an overflow snapshot's: the full one's it extends): constraints, decisions, the failure graph. */
function layer2(w: Writer, s: SnapshotRecord, failures: FailureRecord[], { base, now }: SavedContext) {
  w.push({ text: "" });
  w.head(`Layer 2 ${w.theme.g.sep} Cognitive Cache`);
  if (base)
    w.wrapped(
      `from ${base.name}, the full snapshot this overflow one extends: load restores it with this one`,
      w.theme.c("muted"),
    );
  const l2 = base ?? s;
  const symbolic = symbolicLines(l2.compressed?.symbolic as Record<string, SymbolicEntryLike> | undefined);
  w.selectable("constraints", "constraint", l2.constraints);
  w.list(
    "compressed constraints",
    Object.entries(symbolic).map(([k, v]) => `${inline(k)}: ${inline(v)}`),
  );
  w.selectable("decisions", "decision", l2.decisions);
  if (!l2.constraints.length && !l2.decisions.length && !Object.keys(symbolic).length && !failures.length)
    w.push({ text: "(empty)", color: w.theme.c("muted") });
  failureLines(w, failures, now);
}

/** The failure graph under Layer 2: each failure, how often and how surely, why, and what to try instead. */
function failureLines(w: Writer, failures: FailureRecord[], now: Date) {
  if (!failures.length) return;
  const { g } = w.theme;
  w.push({ text: "failure graph (do not retry)" });
  for (const f of failures) {
    const tag = `${g.times}${f.repeat_count} ${effectiveConfidence(f, now)} ${f.scope}`;
    wrap(
      `${inline(f.item)} [${tag}]: ${inline(f.reason)}${f.alternatives.length ? ` ${g.arrow} ${f.alternatives.map(inline).join("; ")}` : ""}`,
      Math.max(10, w.cols - 4),
    ).forEach((l, i) =>
      w.push({
        text: `${i === 0 ? `  ${g.bad} ` : "    "}${l}`,
        color: i === 0 ? w.theme.c("warn") : undefined,
      }),
    );
  }
}

/** Layer 3: shown on request, else one line saying how many lines it has and how to show it; its line count. */
function layer3(w: Writer, s: SnapshotRecord, showL3: boolean): number {
  const text = layer3Text(s);
  const archive = text ? wrapKeepingIndent(text, w.cols) : [];
  if (!archive.length) {
    w.push({ text: "Layer 3 (cold archive): empty.", color: w.theme.c("muted") });
  } else if (showL3) {
    w.head(`Layer 3 ${w.theme.g.sep} Cold Archive (never auto-restored; 3 hides it)`);
    for (const l of archive) w.push({ text: l });
  } else {
    w.push({
      text: `Layer 3 (cold archive, ${archive.length} line${archive.length === 1 ? "" : "s"}) is never auto-restored: press 3 to show it.`,
      color: w.theme.c("muted"),
    });
  }
  return archive.length;
}
