// The store side of sync: the change log since a watermark, rows by key, and merging rows in
// (last writer wins by hybrid logical clock; per-host counters by max). SQL lives here only.
import type { Exec, Row } from "./db.ts";
import { SYNCED_TABLES } from "./migrations.ts";
import {
  CLOCK_AHEAD_KEY,
  MAX_AHEAD_MS,
  compareHlc,
  formatHlc,
  hlcHost,
  isPast,
  parseHlc,
  readClockAhead,
} from "./hlc.ts";

export type SyncRow = Record<string, string | number | null>;

export interface Change {
  seq: number;
  tbl: string;
  key: string;
}

export interface TableStats {
  added: number;
  updated: number;
  deleted: number;
}

const SEP = "\u001f";
/** Meta key prefix: where a store keeps the anchors of each peer's log it pulled (see logAnchors). */
export const PEER_ANCHORS = "peer_anchors:";
/** How many of a log's newest entries anchor it (see logAnchors). */
const ANCHORS = 4;
const CHUNK = 400;
/** Rows a merge writes with one statement (a snapshot has ~30 columns: well under SQLite's 32,766 arguments). */
const ROWS_PER_STATEMENT = 50;

function plain(r: Row, columns: string[]): SyncRow {
  const o: SyncRow = {};
  for (const c of columns) {
    const v = r[c] as unknown;
    o[c] = typeof v === "bigint" ? Number(v) : (v as string | number | null);
  }
  return o;
}

export function tableSpec(name: string) {
  const t = SYNCED_TABLES.find((x) => x.name === name);
  if (!t) throw new Error(`not a synced table: ${name}`);
  return t;
}

export function keyOf(tbl: string, row: SyncRow): string {
  return tableSpec(tbl)
    .key.map((k) => String(row[k]))
    .join(SEP);
}

/**
 * Whether an incoming row replaces this store's: the later clock wins. A project's first record
 * (stamped with the zero clock when a host first meets the project, see insertProject) is the
 * exception: of two, the one made first wins, so a project keeps the name it was first given and
 * never takes another laptop's folder name because that laptop met it later.
 */
function replaces(tbl: string, incoming: SyncRow, mine: SyncRow): boolean {
  const a = String(incoming.hlc ?? "");
  const b = String(mine.hlc ?? "");
  if (tbl === "projects" && parseHlc(a).wall === 0 && parseHlc(b).wall === 0) {
    const ca = String(incoming.created_at ?? "");
    const cb = String(mine.created_at ?? "");
    if (ca !== cb) return ca < cb;
  }
  return compareHlc(a, b) > 0;
}

/**
 * Columns no one is shown, MindSave's own bookkeeping: when a project's record was first made
 * (which of two first records wins) and when this host last used a project's folder (which folder
 * comes first). A row that differs only there is taken but changed nothing a person sees.
 */
const BOOKKEEPING: Record<string, string[]> = { projects: ["created_at"], roots: ["last_used"] };

/** Whether two rows of one record hold the same values but for who wrote them, when, and bookkeeping. */
function sameRecord(tbl: string, a: SyncRow, b: SyncRow): boolean {
  const own = BOOKKEEPING[tbl] ?? [];
  for (const k of Object.keys(a))
    if (k !== "hlc" && k !== "host" && !own.includes(k) && a[k] !== b[k]) return false;
  return true;
}

/** The host that wrote a row; a failure counter has no host column, so its clock names the host. */
function writerOf(r: SyncRow, hlc: string): string {
  return String(r.host ?? (hlcHost(hlc) || r.host_id) ?? "");
}

/** Where merged rows go: their table, its counts, and who hears of each row that changed this store. */
interface MergeInto {
  tbl: string;
  stats: TableStats;
  applied?: (row: SyncRow) => void;
}

/** Meta key prefix: a peer's row this store refused (see `quarantine`), one key per peer and row. */
const QUARANTINE = "quarantine:";

/** A peer's row this store refused: not merged, asked for again at each sync with that peer. */
export interface Quarantined {
  /** The store id of the peer that offered it, and where that peer was. */
  peer: string;
  location: string;
  tbl: string;
  key: string;
  /** What is wrong with it, one phrase ("constraints is not valid JSON (a list of text)"). */
  why: string;
  hlc: string;
  /** When this store last refused it. */
  at: string;
}

/**
 * A pull that committed some of its pages and not its last (killed, or failed midway): part of the
 * peer's changes are here, the rest come with the next sync. Kept in this store's own meta.
 */
export interface UnfinishedPull {
  /** The store id of the peer pulled from, and where that peer was. */
  peer: string;
  location: string;
  /** When the pull began, and the pages it committed. */
  since: string;
  pages: number;
}

const UNFINISHED = "sync_unfinished:";

export class SyncSide {
  private columns = new Map<string, string[]>();

  constructor(private readonly db: Exec) {}

  async meta(key: string): Promise<string | null> {
    const rows = (await this.db.execute({ sql: "SELECT value FROM meta WHERE key = ?", args: [key] })).rows;
    return rows.length ? String(rows[0].value) : null;
  }

  async setMeta(key: string, value: string | null): Promise<void> {
    if (value === null) await this.db.execute({ sql: "DELETE FROM meta WHERE key = ?", args: [key] });
    else
      await this.db.execute({
        sql: "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        args: [key, value],
      });
  }

  /**
   * Keeps a refused row's name in this store's own meta (local, never synced), not its content: a
   * row refused may hold anything, and nothing of it is to spread from here.
   */
  async quarantine(q: Quarantined): Promise<void> {
    await this.setMeta(`${QUARANTINE}${q.peer}${SEP}${q.tbl}${SEP}${q.key}`, JSON.stringify(q));
  }

  /** Forgets a refused row: its peer now offers it well formed. */
  async release(peer: string, tbl: string, key: string): Promise<void> {
    await this.setMeta(`${QUARANTINE}${peer}${SEP}${tbl}${SEP}${key}`, null);
  }

  /** The peers' rows this store refused (of one peer, or of all), in the order they were refused. */
  async quarantined(peer?: string): Promise<Quarantined[]> {
    const prefix = peer === undefined ? QUARANTINE : `${QUARANTINE}${peer}${SEP}`;
    const out = ((await this.metaValues(prefix)) as Quarantined[]).filter(
      (q) => typeof q?.peer === "string" && typeof q.tbl === "string" && typeof q.key === "string",
    );
    return out.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  }

  /**
   * The values of this store's meta keys that start with `prefix` (ASCII), parsed (one that is not
   * JSON left out): a range of the key's index, as every restore asks for unfinished pulls.
   */
  private async metaValues(prefix: string): Promise<unknown[]> {
    const past = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
    const rows = (
      await this.db.execute({
        sql: "SELECT value FROM meta WHERE key >= ? AND key < ?",
        args: [prefix, past],
      })
    ).rows;
    const out: unknown[] = [];
    for (const r of rows) {
      try {
        out.push(JSON.parse(String(r.value)));
      } catch {
        // (Not written by this version: nothing to name.)
      }
    }
    return out;
  }

  /** Records a pull from `peer` as unfinished (its pages so far), or as finished (null). */
  async setPullUnfinished(peer: string, pull: UnfinishedPull | null): Promise<void> {
    await this.setMeta(`${UNFINISHED}${peer}`, pull && JSON.stringify(pull));
  }

  /** Pulls into this store that stopped before their last page, oldest first. */
  async unfinishedPulls(): Promise<UnfinishedPull[]> {
    const out = ((await this.metaValues(UNFINISHED)) as UnfinishedPull[]).filter(
      (u) => typeof u?.peer === "string" && typeof u.location === "string" && typeof u.since === "string",
    );
    return out.sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : 0));
  }

  async maxSeq(): Promise<number> {
    return Number((await this.db.execute("SELECT coalesce(max(seq), 0) AS m FROM changes")).rows[0].m);
  }

  /** Changes after `since`, leaving out those that came from `notFrom` (it has them already). */
  async changesSince(since: number, notFrom: string, limit: number): Promise<Change[]> {
    const rows = (
      await this.db.execute({
        sql: "SELECT seq, tbl, key FROM changes WHERE seq > ? AND (origin IS NULL OR origin <> ?) ORDER BY seq LIMIT ?",
        args: [since, notFrom, limit],
      })
    ).rows;
    return rows.map((r) => ({ seq: Number(r.seq), tbl: String(r.tbl), key: String(r.key) }));
  }

  /**
   * How many records a pull of changes after `since` (not from `notFrom`) asks for: the log's
   * entries (one per record) and the records of `also` (by table, keys) not among them.
   */
  async changeCount(since: number, notFrom: string, also: Map<string, Set<string>>): Promise<number> {
    const logged = "seq > ? AND (origin IS NULL OR origin <> ?)";
    let n = Number(
      (
        await this.db.execute({
          sql: `SELECT count(*) AS n FROM changes WHERE ${logged}`,
          args: [since, notFrom],
        })
      ).rows[0].n,
    );
    for (const [tbl, keys] of also) {
      const all = [...keys];
      n += all.length;
      for (let i = 0; i < all.length; i += CHUNK) {
        const part = all.slice(i, i + CHUNK);
        const inLog = await this.db.execute({
          sql: `SELECT count(*) AS n FROM changes WHERE ${logged} AND tbl = ? AND key IN (${part.map(() => "?").join(", ")})`,
          args: [since, notFrom, tbl, ...part],
        });
        n -= Number(inLog.rows[0].n);
      }
    }
    return n;
  }

  /**
   * Entries of this store's change log that any later state of this store still accounts for: the
   * newest few, and the newest snapshot's (a snapshot id is a UUID, which no copy of the store
   * writes itself). See `continuesLog`.
   */
  async logAnchors(): Promise<Change[]> {
    const rows = (
      await this.db.execute(
        `SELECT seq, tbl, key FROM (SELECT seq, tbl, key FROM changes ORDER BY seq DESC LIMIT ${ANCHORS})
       UNION SELECT seq, tbl, key FROM (SELECT seq, tbl, key FROM changes WHERE tbl = 'snapshots' ORDER BY seq DESC LIMIT 1)`,
      )
    ).rows;
    return rows.map((r) => ({ seq: Number(r.seq), tbl: String(r.tbl), key: String(r.key) }));
  }

  /**
   * Whether this store's log continues the one `anchors` were taken from: each anchored record's
   * latest entry is still there, at its place or later (a log keeps one entry per record, its
   * latest, and numbers only grow). A copy of a store that went on apart, or a store put back from
   * a backup, has another record there or none.
   */
  async continuesLog(anchors: Change[]): Promise<boolean> {
    for (const a of anchors) {
      const r = (
        await this.db.execute({
          sql: "SELECT seq FROM changes WHERE tbl = ? AND key = ?",
          args: [a.tbl, a.key],
        })
      ).rows[0];
      if (!r || Number(r.seq) < a.seq) return false;
    }
    return true;
  }

  async columnsOf(tbl: string): Promise<string[]> {
    let cols = this.columns.get(tbl);
    if (!cols) {
      cols = (await this.db.execute(`PRAGMA table_info(${tbl})`)).rows.map((r) => String(r.name));
      this.columns.set(tbl, cols);
    }
    return cols;
  }

  /** The newest live snapshot of a project here: its id, name, time and plan (what a plan's progress flows on to). */
  async newestSnapshot(projectId: string): Promise<SyncRow | null> {
    const rows = (
      await this.db.execute({
        sql: "SELECT id, name, created_at, plan FROM snapshots WHERE project_id = ? AND deleted = 0 ORDER BY created_at DESC, id DESC LIMIT 1",
        args: [projectId],
      })
    ).rows;
    return rows.length ? plain(rows[0], ["id", "name", "created_at", "plan"]) : null;
  }

  /** The plan, clock and tombstone of these snapshots here, by id (what a sync merges plans with). */
  async snapshotPlans(ids: string[]): Promise<Map<string, SyncRow>> {
    const out = new Map<string, SyncRow>();
    for (let i = 0; i < ids.length; i += CHUNK) {
      const part = ids.slice(i, i + CHUNK);
      const rows = (
        await this.db.execute({
          sql: `SELECT id, plan, status, hlc, deleted FROM snapshots WHERE id IN (${part.map(() => "?").join(", ")})`,
          args: part,
        })
      ).rows;
      for (const r of rows) out.set(String(r.id), plain(r, ["id", "plan", "status", "hlc", "deleted"]));
    }
    return out;
  }

  async rowsByKeys(tbl: string, keys: string[]): Promise<Map<string, SyncRow>> {
    const spec = tableSpec(tbl);
    const cols = await this.columnsOf(tbl);
    const keyExpr = spec.key.join(" || char(31) || ");
    const out = new Map<string, SyncRow>();
    for (let i = 0; i < keys.length; i += CHUNK) {
      const part = keys.slice(i, i + CHUNK);
      const rows = (
        await this.db.execute({
          sql: `SELECT ${cols.join(", ")} FROM ${tbl} WHERE ${keyExpr} IN (${part.map(() => "?").join(", ")})`,
          args: part,
        })
      ).rows;
      for (const r of rows) {
        const row = plain(r, cols);
        out.set(keyOf(tbl, row), row);
      }
    }
    return out;
  }

  /** Every row of every synced table, for checking that stores converged. */
  async allRows(): Promise<Record<string, SyncRow[]>> {
    const out: Record<string, SyncRow[]> = {};
    for (const t of SYNCED_TABLES) {
      const cols = await this.columnsOf(t.name);
      const rows = (
        await this.db.execute(`SELECT ${cols.join(", ")} FROM ${t.name} ORDER BY ${t.key.join(", ")}`)
      ).rows;
      out[t.name] = rows.map((r) => plain(r, cols));
    }
    return out;
  }

  /**
   * Writes rows in, in order, up to ROWS_PER_STATEMENT to a statement: on a server each statement is
   * a round trip. Rows with the same columns (those of one peer's table) share a statement.
   */
  private async upsert(tbl: string, rows: SyncRow[]): Promise<void> {
    const spec = tableSpec(tbl);
    const known = await this.columnsOf(tbl);
    const columnsOf = (row: SyncRow) => known.filter((c) => c in row);
    for (let i = 0; i < rows.length;) {
      const cols = columnsOf(rows[i]);
      const shape = cols.join(", ");
      let end = i + 1;
      while (end < rows.length && end - i < ROWS_PER_STATEMENT && columnsOf(rows[end]).join(", ") === shape)
        end++;
      const part = rows.slice(i, end);
      const updates = cols.filter((c) => !spec.key.includes(c)).map((c) => `${c} = excluded.${c}`);
      const values = `(${cols.map(() => "?").join(", ")})`;
      await this.db.execute({
        sql: `INSERT INTO ${tbl}(${shape}) VALUES ${part.map(() => values).join(", ")}
            ON CONFLICT(${spec.key.join(", ")}) DO UPDATE SET ${updates.join(", ")}`,
        args: part.flatMap((row) => cols.map((c) => row[c])),
      });
      i = end;
    }
  }

  /**
   * Merges incoming rows of one table: a row goes in when it is new here or its clock is newer;
   * a per-host counter goes in when its count is higher. Returns the newest clock this store may
   * take in: clocks more than MAX_AHEAD_MS ahead of `now` are merged (LWW uses them as they are) but
   * not returned, and their host is remembered (see `clockAhead`). `applied` hears of each incoming
   * row that changed this store (counted in `stats`).
   */
  async merge(
    tbl: string,
    incoming: SyncRow[],
    stats: TableStats,
    now: number = Date.now(),
    applied?: (row: SyncRow) => void,
  ): Promise<string> {
    const spec = tableSpec(tbl);
    const local = await this.rowsByKeys(
      tbl,
      incoming.map((r) => keyOf(tbl, r)),
    );
    let maxHlc = "";
    const ahead = new Map<string, string>();
    const into: MergeInto = { tbl, stats, applied };
    // The rows taken, written together after the loop (every decision reads `local`, as it was).
    const taken: SyncRow[] = [];
    for (const r of incoming) {
      const mine = local.get(keyOf(tbl, r));
      const hlc = String(r.hlc ?? "");
      const wall = parseHlc(hlc).wall;
      if (wall > now + MAX_AHEAD_MS) {
        const host = writerOf(r, hlc);
        if (compareHlc(hlc, ahead.get(host)) > 0) ahead.set(host, hlc);
      }
      const row = spec.counter ? this.mergeCounter(r, mine, into) : this.mergeRecord(r, mine, into);
      if (!row) continue;
      taken.push(row);
      if (wall <= now + MAX_AHEAD_MS && compareHlc(hlc, maxHlc) > 0) maxHlc = hlc;
    }
    await this.upsert(tbl, taken);
    for (const [host, hlc] of ahead) await this.noteClockAhead(host, hlc, now);
    return maxHlc;
  }

  /** A per-host counter taken when it is new here or higher, keeping the newer clock: the row to write, or null when left. */
  private mergeCounter(r: SyncRow, mine: SyncRow | undefined, into: MergeInto): SyncRow | null {
    const { stats, applied } = into;
    const hlc = String(r.hlc ?? "");
    if (!mine) stats.added++;
    else if (Number(r.count) > Number(mine.count)) stats.updated++;
    else return null;
    applied?.(r);
    return { ...r, hlc: mine && compareHlc(String(mine.hlc), hlc) > 0 ? mine.hlc : hlc };
  }

  /** A row taken when it is new here or replaces this store's (last writer wins): the row to write, or null when left. */
  private mergeRecord(r: SyncRow, mine: SyncRow | undefined, into: MergeInto): SyncRow | null {
    const { tbl, stats, applied } = into;
    // A row whose clock alone is newer (an import of this store's export stamps its links
    // anew), or only its bookkeeping, is taken, so both stores end the same, but changed nothing
    // a person sees: it is neither counted nor reported as applied.
    let clockOnly = false;
    if (!mine) {
      if (!Number(r.deleted)) stats.added++;
    } else if (replaces(tbl, r, mine)) {
      if (Number(r.deleted) && !Number(mine.deleted)) stats.deleted++;
      else if (sameRecord(tbl, r, mine)) clockOnly = true;
      else stats.updated++;
    } else return null;
    if (!clockOnly) applied?.(r);
    return r;
  }

  /** Remembers that `host` stamped rows with a clock far ahead of this store's (the newest such clock). */
  private async noteClockAhead(host: string, hlc: string, now: number): Promise<void> {
    const key = CLOCK_AHEAD_KEY + host;
    const known = await this.meta(key);
    const before = known ? readClockAhead(key, known) : null;
    if (before && compareHlc(before.hlc, hlc) >= 0) return;
    const value = { hlc, ahead_ms: parseHlc(hlc).wall - now, seen_at: new Date(now).toISOString() };
    await this.setMeta(key, JSON.stringify(value));
  }

  /**
   * Keeps this store's clock ahead of every clock it has taken in, so its next writes sort after
   * them; a clock more than MAX_AHEAD_MS ahead of `now` never moves it.
   */
  async observeClock(hlc: string, now: number = Date.now()): Promise<void> {
    if (!hlc) return;
    const seen = parseHlc(hlc);
    if (seen.wall > now + MAX_AHEAD_MS) return;
    const mine = parseHlc(await this.meta("clock"));
    if (isPast(seen, mine)) {
      await this.setMeta("clock", formatHlc(seen.wall, seen.counter, ""));
    }
  }

  async peer(storeId: string): Promise<{
    store_id: string;
    location: string | null;
    pulled_seq: number;
    last_sync: string | null;
  } | null> {
    const rows = (
      await this.db.execute({ sql: "SELECT * FROM sync_peers WHERE store_id = ?", args: [storeId] })
    ).rows;
    if (!rows.length) return null;
    const r = rows[0];
    return {
      store_id: String(r.store_id),
      location: r.location === null ? null : String(r.location),
      pulled_seq: Number(r.pulled_seq),
      last_sync: r.last_sync === null ? null : String(r.last_sync),
    };
  }

  async peers(): Promise<
    { store_id: string; location: string | null; pulled_seq: number; last_sync: string | null }[]
  > {
    const rows = (await this.db.execute("SELECT * FROM sync_peers ORDER BY last_sync DESC, location")).rows;
    return rows.map((r) => ({
      store_id: String(r.store_id),
      location: r.location === null ? null : String(r.location),
      pulled_seq: Number(r.pulled_seq),
      last_sync: r.last_sync === null ? null : String(r.last_sync),
    }));
  }

  async setPeer(
    storeId: string,
    fields: { location?: string | null; pulled_seq?: number; last_sync?: string },
  ): Promise<void> {
    const now = await this.peer(storeId);
    await this.db.execute({
      sql: `INSERT INTO sync_peers(store_id, location, pulled_seq, last_sync) VALUES (?, ?, ?, ?)
            ON CONFLICT(store_id) DO UPDATE SET location = excluded.location, pulled_seq = excluded.pulled_seq, last_sync = excluded.last_sync`,
      args: [
        storeId,
        fields.location ?? now?.location ?? null,
        fields.pulled_seq ?? now?.pulled_seq ?? 0,
        fields.last_sync ?? now?.last_sync ?? null,
      ],
    });
  }

  async removePeer(storeId: string): Promise<void> {
    await this.db.execute({ sql: "DELETE FROM sync_peers WHERE store_id = ?", args: [storeId] });
    await this.setMeta(`${PEER_ANCHORS}${storeId}`, null);
    // Its refused rows are asked for no more, so they are named no more either.
    const prefix = `${QUARANTINE}${storeId}${SEP}`;
    await this.db.execute({
      sql: "DELETE FROM meta WHERE substr(key, 1, ?) = ?",
      args: [prefix.length, prefix],
    });
  }

  /** The anchors of `storeId`'s log as this store last pulled it (none from an older MindSave). */
  async peerAnchors(storeId: string): Promise<Change[]> {
    try {
      const a = JSON.parse((await this.meta(`${PEER_ANCHORS}${storeId}`)) ?? "[]") as unknown;
      return Array.isArray(a)
        ? a.filter(
            (c): c is Change =>
              typeof c?.seq === "number" && typeof c?.tbl === "string" && typeof c?.key === "string",
          )
        : [];
    } catch {
      return [];
    }
  }

  async setPeerAnchors(storeId: string, anchors: Change[]): Promise<void> {
    await this.setMeta(`${PEER_ANCHORS}${storeId}`, JSON.stringify(anchors));
  }
}
