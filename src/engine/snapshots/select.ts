// Choosing a snapshot: by name, id, unique prefix or list number; an ambiguous name is refused
// with what tells its snapshots apart, never picked silently.
import { UserError } from "../../errors.ts";
import { utcMinute } from "../../lib/text.ts";
import type { Session } from "../session.ts";
import type { Queries, SnapshotRecord, SnapshotSummary } from "../../store/store.ts";

/** The rows a list shows at a time unless asked for another count: a page (`snapshots list`, load's list). */
export const LIST_PAGE = 50;

export type Selection =
  | { kind: "snapshot"; snapshot: SnapshotRecord }
  | { kind: "choose"; choices: SnapshotSummary[] }
  | { kind: "none" };

/**
 * Finds a snapshot by its name, id, unique name prefix, or list number (1 = newest). Without a key:
 * the newest when `latest` or when there is only one; else the caller lets the user choose.
 */
export async function selectSnapshot(
  session: Session,
  projectId: string,
  key: string | undefined,
  opts: { latest?: boolean } = {},
): Promise<Selection> {
  // One read transaction: a cleanup or a delete by another process between the list and the row
  // read cannot leave a listed snapshot without its row.
  return session.store.consistentRead((q) => select(session, q, projectId, key, opts));
}

async function select(
  session: Session,
  q: Queries,
  projectId: string,
  key: string | undefined,
  opts: { latest?: boolean },
): Promise<Selection> {
  if (key !== undefined && key !== "") {
    if (/^\d+$/.test(key)) {
      const n = Number(key);
      // Numbers are those of the list, which leaves archived snapshots out (they load by name or id).
      const [s] = await q.listSnapshots(projectId, { limit: 1, offset: n - 1, listed: true });
      if (n >= 1 && s) return { kind: "snapshot", snapshot: (await q.getSnapshot(s.id))! };
      const total = await q.countSnapshots(projectId, { listed: true });
      const hidden = total < (await q.countSnapshots(projectId));
      throw new UserError(
        `There is no snapshot number ${key}; this project ${hidden ? "lists" : "has"} ${total} (1 is the newest${hidden ? "; archived ones load by name or id" : ""}).`,
      );
    }
    const byName = await q.findSnapshotsByName(projectId, key);
    if (byName.length > 1) throw await ambiguousName(session, q, projectId, key, byName);
    if (byName.length) return { kind: "snapshot", snapshot: byName[0] };
    const byId = await q.getSnapshot(key);
    if (byId && byId.project_id === projectId) return { kind: "snapshot", snapshot: byId };
    const prefixed = await q.snapshotsWithPrefix(projectId, key, 5);
    const [first] = prefixed.first;
    if (prefixed.count === 1) return { kind: "snapshot", snapshot: (await q.getSnapshot(first.id))! };
    if (prefixed.count > 1 && prefixed.names === 1)
      throw await ambiguousName(
        session,
        q,
        projectId,
        first.name,
        await q.findSnapshotsByName(projectId, first.name),
      );
    if (prefixed.count > 1) {
      throw new UserError(
        `${JSON.stringify(key)} matches ${prefixed.count} snapshots (${prefixed.first
          .map((s) => s.name)
          .join(", ")}${prefixed.count > 5 ? ", …" : ""}); give the full name.`,
      );
    }
    throw new UserError(
      `No snapshot ${JSON.stringify(key)} in this project; see \`mindsave snapshots list\`.`,
    );
  }
  // The choice is among the listed ones; with one, or `latest`, it is the newest.
  const listed = opts.latest ? [] : await q.listSnapshots(projectId, { limit: 2, listed: true });
  // Its first page: a number past it still loads (`load N`), as the page's last line says.
  if (listed.length > 1)
    return { kind: "choose", choices: await q.listSnapshots(projectId, { listed: true, limit: LIST_PAGE }) };
  const newest = await newestSnapshot(q, projectId);
  return newest ? { kind: "snapshot", snapshot: newest } : { kind: "none" };
}

/**
 * The project's newest snapshot, the one definition: what load restores without a key, what a
 * hook's auto-snapshot compares with, what a save's plan times start from. It is never archived
 * (see retention.ts), so it is the first listed one. `q`: the store, or a transaction's reader.
 */
export function newestSnapshot(q: Queries, projectId: string): Promise<SnapshotRecord | null> {
  return q.newestListedSnapshot(projectId);
}

/**
 * Two hosts saved the same name on the same day and a sync brought them together: never pick one
 * silently. The refusal lists each with its list number and a unique id prefix to choose by.
 */
async function ambiguousName(
  session: Session,
  q: Queries,
  projectId: string,
  name: string,
  matches: SnapshotRecord[],
): Promise<UserError> {
  const all = await q.listSnapshots(projectId);
  const ids = matches.map((m) => m.id);
  const prefix = (id: string) => idPrefix(all, id);
  const described: string[] = [];
  for (const m of matches) {
    const host = (await q.getHost(m.saved_host))?.name ?? m.saved_host;
    // The list's number (archived snapshots have none: the list leaves them out).
    const n = all.filter((s) => !s.archived).findIndex((s) => s.id === m.id) + 1;
    described.push(
      `${n ? `#${n} ` : "archived, "}id ${prefix(m.id)} (saved ${utcMinute(m.created_at)} on ${host}${m.saved_host === session.host.id ? ", this host" : ""}: ${m.goal.slice(0, 60)})`,
    );
  }
  const first = all.filter((s) => !s.archived).findIndex((s) => s.id === ids[0]) + 1;
  return new UserError(
    `${JSON.stringify(name)} names ${matches.length} snapshots, saved on different hosts: ${described.join("; ")}. Choose one by its number or id prefix instead, e.g. ${first ? `${first} or ` : ""}${prefix(ids[0])}.`,
  );
}

/** The shortest prefix of `id` (8 characters at least) that no other snapshot of `all` shares. */
function idPrefix(all: Pick<SnapshotSummary, "id">[], id: string): string {
  for (let n = 8; n < id.length; n++)
    if (all.filter((s) => s.id.startsWith(id.slice(0, n))).length === 1) return id.slice(0, n);
  return id;
}

/**
 * What tells apart the snapshots of `rows` that share a name (two hosts saved it, a sync brought
 * them together): by id, "laptop-a, id 01a209d1", the host that saved it and a unique id prefix,
 * which load, show and delete take. Snapshots whose name is their own are not in the map.
 */
export async function sameNameLabels(
  session: Session,
  projectId: string,
  rows: Pick<SnapshotSummary, "id" | "name" | "saved_host">[],
): Promise<Map<string, string>> {
  const seen = new Map<string, number>();
  for (const r of rows) seen.set(r.name, (seen.get(r.name) ?? 0) + 1);
  const twins = rows.filter((r) => seen.get(r.name)! > 1);
  const out = new Map<string, string>();
  if (!twins.length) return out;
  for (const r of twins) {
    const host = (await savedOnOtherHost(session, r)) ?? "this host";
    out.set(r.id, `${host}, id ${await uniqueIdPrefix(session.store, projectId, r.id)}`);
  }
  return out;
}

/** idPrefix among the project's snapshots, counted in the store a prefix at a time (no list read whole). */
async function uniqueIdPrefix(q: Queries, projectId: string, id: string): Promise<string> {
  for (let n = 8; n < id.length; n++)
    if ((await q.countIdPrefix(projectId, id.slice(0, n))) === 1) return id.slice(0, n);
  return id;
}

/** The name of the host that saved `s`, or null when this host did (a path it kept is one of that host's). */
export async function savedOnOtherHost(
  session: Session,
  s: Pick<SnapshotRecord, "saved_host">,
): Promise<string | null> {
  if (s.saved_host === session.host.id) return null;
  return (await session.reader.getHost(s.saved_host))?.name ?? s.saved_host;
}

/**
 * The full snapshot an overflow (OVF_) snapshot extends (`auto_trigger.extends`, or `extends` among
 * its extra fields): its Layer 2 is the overflow snapshot's too. When that one is gone (deleted,
 * cleaned up), the newest full snapshot older than the overflow one still holds it. Null when none.
 * `without`: as if that snapshot were deleted already (what a delete would change, asked before it).
 */
export async function extendedSnapshot(
  session: Session,
  s: SnapshotRecord,
  opts: { without?: string } = {},
): Promise<SnapshotRecord | null> {
  if (s.kind !== "overflow") return null;
  const id = s.auto_trigger?.extends ?? s.extra?.extends;
  const base =
    typeof id === "string" && id && id !== opts.without ? await session.store.getSnapshot(id) : null;
  if (base && base.project_id === s.project_id && base.kind === "full") return base;
  // Newest first, as the list orders them: the first full one before `s` (read from `s` on, two at
  // most, since one may be `without`), not the project's every snapshot.
  const older = (await session.store.listSnapshots(s.project_id, { kind: "full", after: s, limit: 2 })).find(
    (x) => x.id !== opts.without,
  );
  return older ? session.store.getSnapshot(older.id) : null;
}
