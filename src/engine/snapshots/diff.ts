// What changed between two snapshots of a project, per layer: Layer 1 fields, active files, the
// plan (steps added, completed, started, removed), constraints and decisions (added, removed,
// retired), tags, and the failures recorded or seen again in between. How a person reviews what an
// agent did overnight.
import { UserError } from "../../errors.ts";
import { utcMinute } from "../../lib/text.ts";
import { normaliseItem } from "../failures/graph.ts";
import { extendedSnapshot, selectSnapshot } from "./select.ts";
import { planProgress } from "./plan.ts";
import { inline, writtenConstraints } from "./layers.ts";
import type { Session } from "../session.ts";
import { requireProject } from "../projects/resolve.ts";
import type { FailureRecord, PlanItem, RetirementRecord, SnapshotRecord } from "../../store/store.ts";

export interface ListChange {
  added: string[];
  removed: string[];
  /** Removed because someone retired it (with who and when). */
  retired: { text: string; by: string; at: string }[];
  /** Of `added`, those retired now: B holds them, but no restore block does any more. */
  added_retired: string[];
}

/** One side; `layer2_from` for an overflow snapshot: the full one whose Layer 2 it restores (null: none, Layer 1 only). */
export type DiffSide = Pick<SnapshotRecord, "id" | "name" | "created_at"> & { layer2_from?: string | null };

export interface SnapshotDiff {
  from: DiffSide;
  to: DiffSide;
  fields: { field: string; from: string; to: string }[];
  files: { added: string[]; removed: string[] };
  /** `completed` and `started` include steps added already completed or in progress (also in `added`). */
  plan: {
    from: string | null;
    to: string | null;
    added: string[];
    removed: string[];
    started: string[];
    completed: string[];
    reopened: string[];
  };
  constraints: ListChange;
  decisions: ListChange;
  tags: { added: string[]; removed: string[] };
  failures: { added: FailureRecord[]; repeated: FailureRecord[] };
}

const FIELDS = ["goal", "state", "next_action", "blocker", "status"] as const;

function listChange(
  before: string[],
  after: string[],
  retired: RetirementRecord[],
  kind: RetirementRecord["kind"],
): ListChange {
  const keysAfter = new Set(after.map(normaliseItem));
  const keysBefore = new Set(before.map(normaliseItem));
  const isRetired = (t: string) =>
    retired.some((x) => x.kind === kind && normaliseItem(x.text) === normaliseItem(t));
  const added = after.filter((t) => !keysBefore.has(normaliseItem(t)));
  const out: ListChange = { added, removed: [], retired: [], added_retired: added.filter(isRetired) };
  for (const t of before.filter((x) => !keysAfter.has(normaliseItem(x)))) {
    const r = retired.find((x) => x.kind === kind && normaliseItem(x.text) === normaliseItem(t));
    if (r) out.retired.push({ text: t, by: r.retired_by, at: r.retired_at });
    else out.removed.push(t);
  }
  return out;
}

function planChange(a: PlanItem[] | null, b: PlanItem[] | null): SnapshotDiff["plan"] {
  const before = new Map((a ?? []).map((p) => [normaliseItem(p.content), p]));
  const after = new Map((b ?? []).map((p) => [normaliseItem(p.content), p]));
  const progress = (p: PlanItem[] | null) => (p?.length ? `${planProgress(p).done}/${p.length}` : null);
  const out: SnapshotDiff["plan"] = {
    from: progress(a),
    to: progress(b),
    added: [],
    removed: [],
    started: [],
    completed: [],
    reopened: [],
  };
  for (const [k, p] of after) {
    const old = before.get(k);
    if (!old) out.added.push(p.content);
    // A step done before and not any more was reopened (whether it is now in progress or pending).
    if (old?.status === "completed" && p.status !== "completed") out.reopened.push(p.content);
    else if (p.status === "completed" && old?.status !== "completed") out.completed.push(p.content);
    else if (p.status === "in_progress" && old?.status !== "in_progress") out.started.push(p.content);
  }
  for (const [k, p] of before) if (!after.has(k)) out.removed.push(p.content);
  return out;
}

/** The change from `a` to `b`, in the order given (a newer `a` shows the way back). */
export function diffSnapshots(
  a: SnapshotRecord,
  b: SnapshotRecord,
  failures: FailureRecord[],
  retired: RetirementRecord[],
): SnapshotDiff {
  const pathsA = a.active_files.map((f) => f.path);
  const pathsB = b.active_files.map((f) => f.path);
  // Failures first recorded after the older snapshot, up to the newer one (a sighting after the newer
  // one must not hide them), and older ones whose last sighting falls in between (seen again).
  const [older, newer] = a.created_at <= b.created_at ? [a, b] : [b, a];
  const within = (t: string) => t > older.created_at && t <= newer.created_at;
  return {
    from: { id: a.id, name: a.name, created_at: a.created_at },
    to: { id: b.id, name: b.name, created_at: b.created_at },
    fields: FIELDS.filter((k) => a[k] !== b[k]).map((k) => ({ field: k, from: a[k], to: b[k] })),
    files: {
      added: pathsB.filter((p) => !pathsA.includes(p)),
      removed: pathsA.filter((p) => !pathsB.includes(p)),
    },
    plan: planChange(a.plan, b.plan),
    constraints: listChange(writtenConstraints(a), writtenConstraints(b), retired, "constraint"),
    decisions: listChange(a.decisions, b.decisions, retired, "decision"),
    tags: {
      added: b.tags.filter((t) => !a.tags.includes(t)),
      removed: a.tags.filter((t) => !b.tags.includes(t)),
    },
    failures: {
      added: failures.filter((f) => within(f.first_seen)),
      repeated: failures.filter((f) => f.first_seen <= older.created_at && within(f.last_seen)),
    },
  };
}

/**
 * `mindsave diff [A] [B]`: the change from A to B (by name, id, prefix or list number, 1 = newest);
 * A alone: from A to the newest; none: from the second newest to the newest. `olderFirst`: from the
 * older of the two whatever the order (the TUI's two marks have none).
 */
export async function diffInProject(
  session: Session,
  keyA?: string,
  keyB?: string,
  opts: { olderFirst?: boolean } = {},
): Promise<SnapshotDiff> {
  const ctx = await requireProject(session);
  const pick = async (key: string) => {
    const sel = await selectSnapshot(session, ctx.project.id, key);
    if (sel.kind !== "snapshot") throw new UserError(`No snapshot ${JSON.stringify(key)} in this project.`);
    return sel.snapshot;
  };
  let a: SnapshotRecord;
  let b: SnapshotRecord;
  if (keyA !== undefined && keyB !== undefined) [a, b] = [await pick(keyA), await pick(keyB)];
  else if (keyA !== undefined) {
    // One snapshot given: what changed from it to the newest.
    [a, b] = [await pick(keyA), await pick("1")];
  } else {
    // Counted only when fewer than two are listed: a count reads the project's whole index.
    const listed = await session.store.listSnapshots(ctx.project.id, { listed: true, limit: 2 });
    const total = listed.length < 2 ? await session.store.countSnapshots(ctx.project.id) : 2;
    if (total < 2)
      throw new UserError(`A diff needs two snapshots; project ${ctx.project.name} has ${total}.`);
    [a, b] = [await pick("2"), await pick("1")];
  }
  if (a.id === b.id)
    throw new UserError(`Both sides are the same snapshot (${a.name}); give two different ones.`);
  if (opts.olderFirst && a.created_at > b.created_at) [a, b] = [b, a];
  const [ra, rb] = [await asRestored(session, a), await asRestored(session, b)];
  const [older, newer] = a.created_at <= b.created_at ? [a, b] : [b, a];
  const d = diffSnapshots(
    ra.snapshot,
    rb.snapshot,
    await session.store.failuresSeenBetween(ctx.project.id, older.created_at, newer.created_at),
    await session.store.listRetirements(ctx.project.id),
  );
  return { ...d, from: { ...d.from, ...ra.side }, to: { ...d.to, ...rb.side } };
}

/**
 * A snapshot with the Layer 2 its restore shows: an overflow one's is the full snapshot's it
 * extends (load's rule), so a diff never calls borrowed constraints removed.
 */
async function asRestored(
  session: Session,
  s: SnapshotRecord,
): Promise<{ snapshot: SnapshotRecord; side: { layer2_from?: string | null } }> {
  if (s.kind !== "overflow") return { snapshot: s, side: {} };
  const base = await extendedSnapshot(session, s);
  // None left: its own (empty, as saved), as load shows it.
  const layer2 = base
    ? { constraints: base.constraints, decisions: base.decisions, compressed: base.compressed }
    : {};
  return { snapshot: { ...s, ...layer2 }, side: { layer2_from: base?.name ?? null } };
}

/** Where a side's Layer 2 comes from, when not from itself. */
function borrowed(s: DiffSide): string | null {
  if (s.layer2_from === undefined) return null;
  return s.layer2_from === null ? `${s.name}: Layer 1 only` : `${s.name}: from ${s.layer2_from}`;
}

const q = (s: string) => (s.length > 160 ? JSON.stringify(`${s.slice(0, 159)}…`) : JSON.stringify(s));

/** The diff as text, one change a line (a value with a line break quoted: `inline`), sections only where something changed. */
export function diffText(d: SnapshotDiff): string[] {
  const side = (s: DiffSide) =>
    `${s.name} (${utcMinute(s.created_at)}${s.layer2_from === undefined ? "" : s.layer2_from === null ? ", overflow: Layer 1 only" : `, Layer 2 from ${s.layer2_from}`})`;
  const out = [`${side(d.from)} → ${side(d.to)}`];
  const section = (title: string, lines: string[]) => {
    if (lines.length) out.push("", title, ...lines.map((l) => `  ${l}`));
  };
  section("Layer 1", [
    ...d.fields.map((f) => `${f.field}: ${q(f.from)} → ${q(f.to)}`),
    ...d.files.added.map((p) => `+ file ${inline(p)}`),
    ...d.files.removed.map((p) => `- file ${inline(p)}`),
  ]);
  const p = d.plan;
  // A step added already done or under way is one line, "+ step: x (completed)", not two.
  const added = new Set(p.added);
  const old = (list: string[]) => list.filter((s) => !added.has(s));
  const addedAs = (s: string) =>
    p.completed.includes(s) ? " (completed)" : p.started.includes(s) ? " (in progress)" : "";
  const planLines = [
    ...old(p.completed).map((s) => `completed: ${inline(s)}`),
    ...old(p.started).map((s) => `started: ${inline(s)}`),
    ...p.reopened.map((s) => `reopened: ${inline(s)}`),
    ...p.added.map((s) => `+ step: ${inline(s)}${addedAs(s)}`),
    ...p.removed.map((s) => `- step: ${inline(s)}`),
  ];
  section(`Plan ${p.from ?? "none"} → ${p.to ?? "none"}`, planLines);
  const list = (c: ListChange, kind: string) => [
    ...c.added.map(
      (t) =>
        `+ ${kind}: ${inline(t)}${c.added_retired.includes(t) ? " (retired since: no longer restored)" : ""}`,
    ),
    ...c.removed.map((t) => `- ${kind}: ${inline(t)}`),
    ...c.retired.map((r) => `retired ${kind}: ${inline(r.text)} (by ${inline(r.by)}, ${utcMinute(r.at)})`),
  ];
  const from = [borrowed(d.from), borrowed(d.to)].filter(Boolean);
  section(from.length ? `Layer 2 (${from.join("; ")})` : "Layer 2", [
    ...list(d.constraints, "constraint"),
    ...list(d.decisions, "decision"),
  ]);
  // Read back in time (the newer side first), a failure recorded between the two was not added on
  // the way: it is said to be recorded after the older side, as it was.
  const back = d.from.created_at > d.to.created_at;
  const recorded = back ? `recorded after ${d.to.name}:` : "+";
  section("Failures", [
    ...d.failures.added.map(
      (f) =>
        `${recorded} ${inline(f.item)}: ${inline(f.reason || "rejected")} [${f.rejected_by}, ${f.scope}]`,
    ),
    ...d.failures.repeated.map((f) => `repeated: ${inline(f.item)} (×${f.repeat_count} in all)`),
  ]);
  section("Tags", [
    ...d.tags.added.map((t) => `+ ${inline(t)}`),
    ...d.tags.removed.map((t) => `- ${inline(t)}`),
  ]);
  if (out.length === 1) out.push("", "No changes.");
  return out;
}
