// Snapshot management: status, delete, retention on demand, and the spec's file format for one snapshot.
import { UserError } from "../../errors.ts";
import { applyRetention } from "./retention.ts";
import { extendedSnapshot, selectSnapshot } from "./select.ts";
import { DEFAULT_KEEP, yamlFile } from "./layers.ts";
import { trimLines } from "../../lib/text.ts";
import { deleteById, setStatusById } from "./catalog.ts";
import type { Session } from "../session.ts";
import { requireProject } from "../projects/resolve.ts";
import type { SnapshotRecord, SnapshotStatus } from "../../store/store.ts";

async function pick(session: Session, key: string): Promise<SnapshotRecord> {
  const ctx = await requireProject(session);
  const sel = await selectSnapshot(session, ctx.project.id, key);
  if (sel.kind !== "snapshot") throw new UserError(`No snapshot ${JSON.stringify(key)} in this project.`);
  return sel.snapshot;
}

/** By the keys people type (name, prefix, list number); the by-id work is the catalog's. */
export async function setSnapshotStatus(
  session: Session,
  key: string,
  status: SnapshotStatus,
): Promise<SnapshotRecord> {
  return setStatusById(session, (await pick(session, key)).id, status);
}

/** An overflow snapshot that takes its Layer 2 from a full one being deleted, and the one it takes it from afterwards (null: none). */
export interface Layer2Moved {
  overflow: string;
  layer2_from: string | null;
}

/**
 * `snapshots delete`: the snapshot a key names, deleted once `ask` (a person on a terminal) said
 * yes to that very snapshot; undefined when it said no. Without `ask`, deleted at once (scripts).
 */
export async function deleteSnapshot(
  session: Session,
  key: string,
  ask?: (s: SnapshotRecord, moved: Layer2Moved[]) => Promise<boolean>,
): Promise<{ deleted: SnapshotRecord; moved: Layer2Moved[] } | undefined> {
  const s = await pick(session, key);
  const moved = await layer2AfterDelete(session, s);
  if (ask && !(await ask(s, moved))) return undefined;
  return { deleted: await deleteById(session, s.id), moved };
}

/**
 * What deleting `s` would do to the overflow snapshots whose restore takes Layer 2 from it: where
 * each takes it from afterwards. Asked before deleting, so a question can say it (TUI) as well as
 * a warning after it (CLI).
 */
export async function layer2AfterDelete(session: Session, s: SnapshotRecord): Promise<Layer2Moved[]> {
  if (s.kind !== "full") return [];
  const out: Layer2Moved[] = [];
  // The project's overflow snapshots only (few): not a summary of its every snapshot.
  for (const x of await session.store.listSnapshots(s.project_id, { kind: "overflow" })) {
    const o = await session.store.getSnapshot(x.id);
    if (!o || (await extendedSnapshot(session, o))?.id !== s.id) continue;
    out.push({
      overflow: o.name,
      layer2_from: (await extendedSnapshot(session, o, { without: s.id }))?.name ?? null,
    });
  }
  return out;
}

/** Those moves in words: before the delete (`done` false, `deleted` may be "this one") or after it. */
export function layer2MovedText(deleted: string, moved: Layer2Moved[], done: boolean): string[] {
  return moved.map((m) =>
    done
      ? m.layer2_from
        ? `${m.overflow} took its Layer 2 from ${deleted}; it now takes it from ${m.layer2_from}.`
        : `${m.overflow} took its Layer 2 from ${deleted}; no older full snapshot is left, so it now restores Layer 1 only.`
      : m.layer2_from
        ? `${m.overflow} takes its Layer 2 from ${deleted}; afterwards it takes it from ${m.layer2_from}.`
        : `${m.overflow} takes its Layer 2 from ${deleted}; no older full snapshot would be left, so afterwards it restores Layer 1 only.`,
  );
}

/** Retention now (`snapshots clean`): archives past the rules, deletes nothing; how many stay listed. */
export async function cleanSnapshots(
  session: Session,
  opts: { keep?: number; dryRun?: boolean },
): Promise<{ archived: string[]; listed: number }> {
  const ctx = await requireProject(session);
  const keep = opts.keep ?? DEFAULT_KEEP;
  return session.write(async (w) => {
    const archived = await applyRetention(w, ctx.project.id, {
      keep,
      now: session.now(),
      dryRun: opts.dryRun,
    });
    const listed = await w.countSnapshots(ctx.project.id, { listed: true });
    return { archived, listed: opts.dryRun ? listed - archived.length : listed };
  });
}

/** One snapshot in the spec's template: YAML front matter (Layers 1 and 2) and the markdown Layer 3. */
export function snapshotFile(s: SnapshotRecord, activeFiles: string[]): string {
  const front: Record<string, unknown> = {
    snapshot_id: s.name,
    created_at: s.created_at,
    version: s.version,
    status: s.status,
    goal: s.goal,
    state: s.state,
    next_action: s.next_action,
    active_files: activeFiles,
    blocker: s.blocker,
  };
  if (s.constraints.length) front.constraints = s.constraints;
  if (s.decisions.length) front.decisions = s.decisions;
  if (Object.keys(s.failure_graph).length) front.failure_graph = s.failure_graph;
  if (s.compressed)
    front._compressed = { symbolic: s.compressed.symbolic, conflicts: s.compressed.conflicts };
  if (s.plan?.length) front.plan = s.plan;
  if (s.tags.length) front.tags = s.tags;
  if (s.auto_trigger) front.auto_trigger = s.auto_trigger;
  // Own keys only (an extra field may be named `constructor`), defined so `__proto__` stays a field.
  for (const [k, v] of Object.entries(s.extra ?? {})) {
    if (!Object.hasOwn(front, k))
      Object.defineProperty(front, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  const body = s.layer3.trim() ? `\n${trimLines(s.layer3)}\n` : "";
  return `---\n${yamlFile(front)}\n---\n${body}`;
}
