// A damaged store, looked at and salvaged. `inspectStore` reads a store file without writing to it
// and says what is wrong: its size against what its header promises, the integrity check, the
// rows each table still gives. `salvage` copies every row that can still be read into a new store,
// table by table and row by row: SQLite's `.recover` is not available through libSQL, so a range
// that fails to read is stepped over one rowid at a time and the reading goes on behind it.
import { existsSync } from "node:fs";
import type { Db, Row, Tx } from "./db.ts";
import { SYNCED_TABLES } from "./migrations.ts";
import { compareHlc, formatHlc, parseHlc } from "./hlc.ts";
import { type Exec, str } from "./rows.ts";
import { openDb, readOnlyMode, realStorePath, sizeOf } from "./driver.ts";
import { UserError } from "../errors.ts";
import { type CheckProgress, everyPageCheck, headerFacts, q } from "./checks.ts";

export interface StoreInspection {
  size: number;
  /** What the header says the file holds (pages × page size); more than `size` when the file was cut short. */
  expected_size: number | null;
  page_size: number | null;
  /** Bytes still in the write-ahead log and in a rollback journal beside the file. */
  wal_bytes: number;
  journal_bytes: number;
  /** A MindSave store (its meta table says so); null when that could not be read. */
  ours: boolean | null;
  schema_version: number | null;
  /** ["ok"], or the problems SQLite's integrity check found (at most 20). */
  integrity: string[];
  /** Rows of each table; null for a table that cannot be counted. */
  tables: Record<string, number | null>;
  /** Why nothing could be read at all, or null. */
  error: string | null;
}

/**
 * A column read so that text comes as bytes: libSQL aborts the whole process on text that is not
 * valid UTF-8, which a damaged page can hold. `textOf` turns the bytes back into text (invalid
 * sequences become U+FFFD); the store has no BLOB columns, so bytes are always text.
 */
export const asBytes = (c: string) =>
  `CASE WHEN typeof(${q(c)}) = 'text' THEN CAST(${q(c)} AS BLOB) ELSE ${q(c)} END AS ${q(c)}`;
const decoder = new TextDecoder();
export function textOf(v: unknown): unknown {
  if (v instanceof ArrayBuffer) return decoder.decode(v);
  if (v instanceof Uint8Array) return decoder.decode(v);
  return v;
}
const firstLine = (e: unknown) =>
  (e instanceof Error ? e.message : String(e)).split("\n")[0].replace(/^SQLITE_[A-Z_]+:\s*/, "");

/**
 * A read-only connection to a damaged store. `writable_schema` (nothing can be written through a
 * read-only connection anyway) is what makes SQLite read a file shorter than its header says,
 * instead of refusing it outright: the pages that are there can then be read. On libSQL's driver:
 * Bun's newer SQLite refuses a cut file's schema even so.
 */
async function openDamaged(path: string, encryptionKey?: string): Promise<Db> {
  // With nothing beside the file (no log, no shared memory, no journal: no other connection has it
  // open) it is read alone, so looking at it leaves no -wal or -shm beside it.
  const real = realStorePath(path);
  const alone = !["-wal", "-shm", "-journal"].some((s) => existsSync(real + s));
  const db = await openDb(path, {
    readOnly: true,
    immutable: alone || readOnlyMode(path).immutable,
    timeoutMs: 5000,
    encryptionKey,
    libsql: true,
  });
  try {
    await db.execute("PRAGMA writable_schema = ON");
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

/** A read-only look at the store file at `path`; never writes to it, never throws for damage. */
export async function inspectStore(
  path: string,
  opts: { encryptionKey?: string; progress?: CheckProgress } = {},
): Promise<StoreInspection> {
  const out: StoreInspection = {
    size: sizeOf(path),
    ...headerFacts(path),
    wal_bytes: sizeOf(realStorePath(path) + "-wal"),
    journal_bytes: sizeOf(realStorePath(path) + "-journal"),
    ours: null,
    schema_version: null,
    integrity: [],
    tables: {},
    error: null,
  };
  let db: Db;
  try {
    db = await openDamaged(path, opts.encryptionKey);
  } catch (e) {
    // The database engine itself could not be loaded (no writable temp folder): that says nothing
    // about the file, so it is not reported as unreadable.
    if (e instanceof UserError) throw e;
    out.error = firstLine(e);
    return out;
  }
  try {
    let names: string[];
    try {
      names = (
        await db.execute(
          `SELECT ${asBytes("name")} FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
        )
      ).rows.map((r) => str(textOf(r.name)));
    } catch (e) {
      out.error = firstLine(e);
      return out;
    }
    try {
      const rows = (
        await db.execute(
          `SELECT ${asBytes("key")}, ${asBytes("value")} FROM meta WHERE key IN ('app', 'schema_version')`,
        )
      ).rows;
      const meta = Object.fromEntries(rows.map((r) => [str(textOf(r.key)), str(textOf(r.value))]));
      out.ours = meta.app === "mindsave";
      out.schema_version = meta.schema_version ? Number(meta.schema_version) : null;
    } catch {
      out.ours = names.includes("meta") ? null : false;
    }
    for (const n of names) {
      try {
        out.tables[n] = Number((await db.execute(`SELECT count(*) FROM ${q(n)}`)).rows[0]?.[0] ?? 0);
      } catch {
        out.tables[n] = null;
      }
    }
    try {
      out.integrity = await everyPageCheck(db, path, opts.progress);
    } catch (e) {
      out.integrity = [firstLine(e)];
    }
  } finally {
    db.close();
  }
  return out;
}

export interface SalvagedTable {
  saved: number;
  /**
   * Rows known to be lost: the table's count (when it can still be taken and is believable) minus
   * those saved, else the rows that failed to read before the last one that could be read.
   */
  lost: number;
  /** The end of the table could not be read: rows after the last one saved may be lost too. */
  end_lost: boolean;
  /** Why the table could not be read at all, or null. */
  error: string | null;
}

/** Meta keys that belong to the new store, not to the damaged one. */
const OWN_META = new Set(["app", "schema_version", "store_id", "created_at", "sync_origin"]);
const BATCH = 200;
/** After a failed range, rowids read one by one before a range is tried again. */
const STEP_OVER = 256;
/** With no known last rowid, this many rowids in a row that give nothing end the table. */
const GIVE_UP = 4096;

/**
 * Copies what can be read of the store at `source` into `dest` (a new, empty store of the current
 * schema, inside its write transaction): the synced tables, the meta values that are not the new
 * store's own, and the known peers. The change log is rebuilt by the new store's triggers and it
 * has a new store id, and what was pulled from each peer is forgotten: the next sync sends and
 * takes everything again, which brings back from the peers rows that were lost here. The full-text
 * index is rebuilt by the triggers too, as the snapshots go in.
 */
export async function salvage(source: string, dest: Tx, encryptionKey?: string): Promise<Salvaged> {
  const src = await openDamaged(source, encryptionKey);
  try {
    const out: Record<string, SalvagedTable> = {};
    for (const table of ["meta", ...SYNCED_TABLES.map((t) => t.name), "sync_peers"])
      out[table] = await copyTable(src, dest, table);
    const listed = await carryListed(src, dest);
    await dest.execute("UPDATE sync_peers SET pulled_seq = 0");
    const oldId = await src.execute(`SELECT ${asBytes("value")} FROM meta WHERE key = 'store_id'`).then(
      (r) => textOf(r.rows[0]?.value),
      () => null,
    );
    if (oldId)
      await dest.execute({
        sql: "INSERT OR REPLACE INTO meta(key, value) VALUES ('repaired_from', ?)",
        args: [str(oldId)],
      });
    await keepClockAhead(dest);
    return { tables: out, listed };
  } finally {
    src.close();
  }
}

/** What a salvage saved: the rows copied, per table, and what became of the list of snapshots shown. */
export interface Salvaged {
  tables: Record<string, SalvagedTable>;
  listed: ListedCarried;
}

/**
 * The damaged store's `listed_snapshots` (migration 5: which snapshots the default views show) as
 * read: "carried" when it was read whole and the copy lists exactly what it listed; "none archived"
 * when the store predates it (every snapshot was listed); "unreadable" when rows of it were lost,
 * so the copy lists every snapshot and retention must decide again.
 */
export interface ListedCarried {
  how: "carried" | "none archived" | "unreadable";
  read: SalvagedTable;
}

/**
 * Lists in `dest` only the snapshots the damaged store listed: the triggers listed every snapshot
 * copied, which would bring back each one retention had archived. Kept as it is when that list
 * cannot be read whole: a snapshot whose row was lost from it may have been listed or archived.
 */
async function carryListed(src: Db, dest: Tx): Promise<ListedCarried> {
  let have: boolean;
  try {
    have = (await columns(src, "listed_snapshots")).includes("snapshot_id");
  } catch (e) {
    return { how: "unreadable", read: { saved: 0, lost: 0, end_lost: true, error: firstLine(e) } };
  }
  if (!have) return { how: "none archived", read: { saved: 0, lost: 0, end_lost: false, error: null } };
  const ids: string[] = [];
  const read = await readTable(
    src,
    "listed_snapshots",
    ["snapshot_id"],
    async (got) => (ids.push(str(got.snapshot_id)), "saved"),
  );
  if (read.lost || read.end_lost) return { how: "unreadable", read };
  await dest.execute({
    sql: "DELETE FROM listed_snapshots WHERE snapshot_id NOT IN (SELECT value FROM json_each(?))",
    args: [JSON.stringify(ids)],
  });
  return { how: "carried", read };
}

/** How many live snapshots are listed and how many archived (see migration 5). */
export async function listedCounts(db: Exec): Promise<{ listed: number; archived: number }> {
  const r = (
    await db.execute(
      `SELECT count(*) AS live, (SELECT count(*) FROM listed_snapshots) AS listed FROM snapshots WHERE deleted = 0`,
    )
  ).rows[0];
  return { listed: Number(r?.listed ?? 0), archived: Number(r?.live ?? 0) - Number(r?.listed ?? 0) };
}

async function columns(db: Exec, table: string): Promise<string[]> {
  return (await db.execute(`PRAGMA table_info(${q(table)})`)).rows.map((r) => str(r.name));
}

async function copyTable(src: Db, dest: Tx, table: string): Promise<SalvagedTable> {
  let cols: string[];
  try {
    const have = new Set(await columns(src, table));
    if (!have.size) return { saved: 0, lost: 0, end_lost: false, error: null }; // an older schema without this table
    cols = (await columns(dest, table)).filter((c) => have.has(c));
  } catch (e) {
    return { saved: 0, lost: 0, end_lost: true, error: firstLine(e) };
  }
  const insert = `INSERT OR IGNORE INTO ${q(table)} (${cols.map(q).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`;
  return readTable(src, table, cols, async (got) => {
    if (table === "meta" && OWN_META.has(str(got.key))) return "own";
    return (await dest.execute({ sql: insert, args: cols.map((c) => got[c] as never) })).rowsAffected
      ? "saved"
      : "skipped";
  });
}

/**
 * Reads every row of `table` that can still be read and hands each to `put`, which says what became
 * of it ("own": a row that belongs to the new store; a `put` that throws: a row refused, so lost).
 * Counts the rows saved and lost as SalvagedTable says.
 */
async function readTable(
  src: Db,
  table: string,
  cols: string[],
  put: (row: Record<string, unknown>) => Promise<"saved" | "own" | "skipped">,
): Promise<SalvagedTable> {
  // A count from damaged pages can be anything: it is believed only when the rowids allow it.
  const expected = await src.execute(`SELECT count(*) FROM ${q(table)}`).then(
    (r) => Number(r.rows[0]?.[0] ?? 0),
    () => null,
  );
  const last = await lastRowid(src, table);
  let saved = 0;
  let failed = 0;
  let failedAtEnd = 0; // failures since the last row read
  let own = 0;
  for await (const got of readRows(src, table, cols, last)) {
    if (got === null) {
      failed++;
      failedAtEnd++;
      continue;
    }
    failedAtEnd = 0;
    try {
      const what = await put(got);
      if (what === "saved") saved++;
      if (what === "own") own++;
    } catch {
      failed++; // a row the current schema refuses (a damaged value)
    }
  }
  const plausible = expected !== null && (last === null || expected <= last) && expected >= saved + own;
  // Without a known last rowid, failures past the last row read may be rowids that never existed.
  const endLost = last === null && failedAtEnd > 0;
  return {
    saved,
    lost: plausible ? expected - own - saved : failed - (endLost ? failedAtEnd : 0),
    end_lost: endLost,
    error: null,
  };
}

/** The last rowid of `table`, from the table or else from its primary-key index; null when neither can be read. */
async function lastRowid(src: Db, table: string): Promise<number | null> {
  for (const from of [q(table), `${q(table)} INDEXED BY ${q(`sqlite_autoindex_${table}_1`)}`]) {
    try {
      const v = (await src.execute(`SELECT max(rowid) FROM ${from}`)).rows[0]?.[0];
      return v === null || v === undefined ? 0 : Number(v);
    } catch {
      // damaged on this path: try the other
    }
  }
  return null;
}

/**
 * The rows of `table` in rowid order, as far as they can be read: ranges while they read, one rowid
 * at a time across a range that fails (null for each rowid that fails), then ranges again.
 */
async function* readRows(
  src: Db,
  table: string,
  cols: string[],
  last: number | null,
): AsyncGenerator<Record<string, unknown> | null> {
  const select = `SELECT rowid AS "__rowid", ${cols.map(asBytes).join(", ")} FROM ${q(table)}`;
  const decoded = (r: Row) => Object.fromEntries(cols.map((c) => [c, textOf(r[c])]));
  let after: number | null = null; // the last rowid dealt with
  let single = 0; // rowids still to read one by one
  let empty = 0;
  for (;;) {
    if (single === 0) {
      try {
        const rows: Row[] = (
          await src.execute({
            sql: `${select} WHERE ? IS NULL OR rowid > ? ORDER BY rowid LIMIT ${BATCH}`,
            args: [after, after],
          })
        ).rows;
        if (!rows.length && (last === null || after === null || after >= last)) return;
        for (const r of rows) yield decoded(r);
        if (rows.length) {
          after = Number(rows[rows.length - 1].__rowid);
          continue;
        }
      } catch {
        // a damaged page in this range
      }
      single = STEP_OVER;
    }
    const rowid: number = (after ?? 0) + 1;
    after = rowid;
    single--;
    try {
      const rows = (await src.execute({ sql: `${select} WHERE rowid = ?`, args: [rowid] })).rows;
      if (rows.length) {
        empty = 0;
        yield decoded(rows[0]);
      } else empty++;
    } catch {
      empty++;
      yield null;
    }
    if (last !== null ? rowid >= last : empty >= GIVE_UP) return;
  }
}

/** The new store's clock is never behind a clock its rows carry, so later edits sort after them. */
async function keepClockAhead(dest: Tx): Promise<void> {
  let newest = str((await dest.execute("SELECT value FROM meta WHERE key = 'clock'")).rows[0]?.value);
  for (const { name } of SYNCED_TABLES) {
    const hlc = str((await dest.execute(`SELECT max(hlc) FROM ${q(name)}`)).rows[0]?.[0]);
    if (hlc && compareHlc(hlc, newest) > 0) newest = hlc;
  }
  if (!newest) return;
  const c = parseHlc(newest);
  await dest.execute({
    sql: "INSERT OR REPLACE INTO meta(key, value) VALUES ('clock', ?)",
    args: [formatHlc(c.wall, c.counter, "")],
  });
}

/** A project no row of `projects` names any more, with what the surviving rows still say about it. */
export interface LostProject {
  id: string;
  /** Its roots (host, folder), newest first. */
  roots: { host_id: string; path: string }[];
  /** Where its newest snapshots were saved (host, folder), newest first. */
  saved_at: { host_id: string; path: string }[];
}

/** Tables whose live rows name a project. */
const PROJECT_REFS = [
  "snapshots",
  "roots",
  "failures",
  "signals",
  "tool_calls",
  "rules",
  "facts",
  "retirements",
];

/**
 * The projects that live rows still name but `projects` does not hold: after a repair lost their
 * rows, every list (they all go through projects) would hide those rows.
 */
export async function lostProjects(db: Exec): Promise<LostProject[]> {
  const refs = [
    ...PROJECT_REFS.map((t) => `SELECT project_id AS id FROM ${t} WHERE deleted = 0`),
    "SELECT merged_into FROM projects WHERE deleted = 0",
  ];
  const ids = (
    await db.execute(
      `SELECT id FROM (${refs.join(" UNION ")}) WHERE id IS NOT NULL AND id NOT IN (SELECT id FROM projects) ORDER BY id`,
    )
  ).rows.map((r) => str(r.id));
  const out: LostProject[] = [];
  for (const id of ids) {
    const roots = (
      await db.execute({
        sql: "SELECT host_id, path FROM roots WHERE project_id = ? AND deleted = 0 ORDER BY last_used DESC",
        args: [id],
      })
    ).rows;
    const saved = (
      await db.execute({
        sql: "SELECT saved_host, saved_root FROM snapshots WHERE project_id = ? AND deleted = 0 AND saved_root IS NOT NULL ORDER BY created_at DESC LIMIT 20",
        args: [id],
      })
    ).rows;
    out.push({
      id,
      roots: roots.map((r) => ({ host_id: str(r.host_id), path: str(r.path) })),
      saved_at: saved.map((r) => ({ host_id: str(r.saved_host), path: str(r.saved_root) })),
    });
  }
  return out;
}

/**
 * Inserts projects made again after a repair. Their clock is the zero clock and their time the
 * repair's: a peer that still holds a project's own row (made earlier, or changed since) wins the
 * next sync with it, and gives back its real name and identity.
 */
export async function recreateProjects(
  db: Exec,
  hostId: string,
  projects: { id: string; identity: string; name: string; remote: string | null; created_at: string }[],
): Promise<void> {
  for (const p of projects) {
    await db.execute({
      sql: "INSERT INTO projects(id, identity, name, remote, created_at, merged_into, hlc, host, deleted) VALUES (?, ?, ?, ?, ?, NULL, ?, ?, 0)",
      args: [p.id, p.identity, p.name, p.remote, p.created_at, formatHlc(0, 0, hostId), hostId],
    });
  }
}
