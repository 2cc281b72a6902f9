// The store: one libSQL file. This module tree is the only place with SQL.
import { existsSync, openSync, readSync, closeSync, statSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { tmpdir } from "node:os";
import type { Client, Transaction } from "@libsql/client";
import { UserError } from "../errors.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "./migrations.ts";
import { formatHlc, parseHlc } from "./hlc.ts";
import { SyncSide } from "./sync.ts";
import { type Exec, str } from "./rows.ts";
import { Queries } from "./queries.ts";
import { StoreWriter } from "./writer.ts";

export { SCHEMA_VERSION, formatHlc, parseHlc, SyncSide, Queries, StoreWriter };
export type * from "./records.ts";

const APP_MARK = "mindsave";
const SQLITE_MAGIC = "SQLite format 3\0";

export interface OpenOptions {
  /** WAL for a laptop's home; the drive issue may choose another journal mode for removable media. */
  journalMode?: "WAL" | "DELETE" | "TRUNCATE";
  /** Milliseconds a writer waits for another writer before giving up. */
  busyTimeoutMs?: number;
  /** The store is encrypted with this key (libSQL's own page encryption); absent: a plain file. */
  encryptionKey?: string;
}

/** What a store file looks like from its first bytes, before any driver touches it. */
export type StoreFileKind = "missing" | "empty" | "plain" | "other";

export class Store extends Queries {
  private wal = false;
  private wrote = false;

  private constructor(private readonly client: Client, readonly path: string, readonly remote = false, readonly encrypted = false) {
    super(client);
  }

  /**
   * Opens a store on a libSQL server (sqld, Turso) through the client's remote protocol: the same
   * schema and migrations as a file, so sync merges with it exactly as with a drive.
   */
  static async openRemote(url: string, authToken?: string): Promise<Store> {
    const { createClient } = await loadDriver();
    let client: Client;
    try {
      client = createClient({ url, authToken });
    } catch (e) {
      throw new UserError(`Cannot use ${url} as a libSQL server: ${(e as Error).message}`);
    }
    const store = new Store(client, url, true);
    try {
      await store.migrate();
    } catch (e) {
      client.close();
      if (e instanceof UserError) throw e;
      throw new UserError(`Cannot reach the libSQL server at ${url}: ${(e as Error).message.split("\n")[0]}`);
    }
    return store;
  }

  /** Reads for sync, outside any transaction. */
  syncReader(): SyncSide {
    return new SyncSide(this.client);
  }

  /** Sync writes in one transaction; `rollback` makes it a dry run that changes nothing. */
  async syncWrite<T>(fn: (s: SyncSide) => Promise<T>, opts: { rollback?: boolean } = {}): Promise<T> {
    return this.transaction((tx) => fn(new SyncSide(tx)), opts);
  }

  /** One write transaction: committed when `fn` returns (rolled back for a dry run), rolled back when it throws. */
  private async transaction<T>(fn: (tx: Transaction) => Promise<T>, opts: { rollback?: boolean } = {}): Promise<T> {
    const tx = await this.client.transaction("write");
    try {
      const result = await fn(tx);
      if (opts.rollback) await tx.rollback();
      else {
        await tx.commit();
        this.wrote = true;
      }
      return result;
    } catch (e) {
      if (!tx.closed) await tx.rollback().catch(() => {});
      throw e;
    } finally {
      tx.close();
    }
  }

  /** Opens (and creates or migrates) the store at `path`. Refuses files that are not MindSave stores. */
  static async open(path: string, opts: OpenOptions = {}): Promise<Store> {
    const encrypted = !!opts.encryptionKey;
    // An encrypted file has no readable header: only a plain one can be checked before opening.
    if (!encrypted) checkLooksLikeSqlite(path);
    // Loaded here, not at the top: commands that never touch the store skip the native addon.
    const { createClient } = await loadDriver();
    let client: Client;
    try {
      client = createClient({ url: pathToFileURL(path).href, concurrency: 1, timeout: opts.busyTimeoutMs ?? 15000, encryptionKey: opts.encryptionKey });
    } catch (e) {
      throw openError(path, e, encrypted);
    }
    const store = new Store(client, path, false, encrypted);
    try {
      await store.prepare(opts);
    } catch (e) {
      client.close();
      throw openError(path, e, encrypted);
    }
    return store;
  }

  /**
   * Writes a complete copy of this store to `dest` (which must not exist), encrypted with
   * `encryptionKey`, or plain when it is null, whatever this store is. The copy is consistent:
   * one read transaction, the WAL included.
   */
  async copyTo(dest: string, encryptionKey: string | null): Promise<void> {
    if (existsSync(dest)) throw new Error(`${dest} already exists`);
    // Without a key the target gets an empty one (plain); otherwise it would inherit this store's.
    const url = `${pathToFileURL(dest).href}?key=${encodeURIComponent(encryptionKey ?? "")}`;
    await this.client.execute({ sql: "VACUUM INTO ?", args: [url] });
  }

  /** The number of rows of every table (virtual tables and their shadow tables included), by name. */
  async tableCounts(): Promise<Record<string, number>> {
    const names = (await this.client.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")).rows.map((r) => str(r.name));
    const out: Record<string, number> = {};
    for (const n of names) out[n] = Number((await this.client.execute(`SELECT count(*) FROM "${n.replaceAll('"', '""')}"`)).rows[0]?.[0] ?? 0);
    return out;
  }

  /** Folds a WAL back into the main file; false when another connection kept it from finishing. */
  async checkpoint(): Promise<boolean> {
    if (!this.wal) return true;
    return Number((await this.client.execute("PRAGMA wal_checkpoint(TRUNCATE)")).rows[0]?.[0] ?? 1) === 0;
  }

  /** Changes whenever another connection commits to this store (SQLite's data_version). */
  async dataVersion(): Promise<number> {
    return Number((await this.client.execute("PRAGMA data_version")).rows[0]?.[0] ?? 0);
  }

  private async prepare(opts: OpenOptions): Promise<void> {
    const mode = opts.journalMode ?? "WAL";
    const current = str((await this.client.execute("PRAGMA journal_mode")).rows[0]?.[0]).toUpperCase();
    if (current !== mode) {
      // Changing the journal needs the file to itself; with another process in it, keep the current one.
      await this.client.execute(`PRAGMA journal_mode = ${mode}`).catch(() => {});
    }
    this.wal = str((await this.client.execute("PRAGMA journal_mode")).rows[0]?.[0]).toUpperCase() === "WAL";
    await this.client.execute("PRAGMA synchronous = FULL");
    await this.migrate();
  }

  private async ownership(db: Exec): Promise<{ ours: boolean; empty: boolean; version: number }> {
    const tables = (await db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")).rows.map((r) => str(r.name));
    if (tables.length === 0) return { ours: true, empty: true, version: 0 };
    if (!tables.includes("meta")) return { ours: false, empty: false, version: 0 };
    const rows = (await db.execute("SELECT key, value FROM meta WHERE key IN ('app', 'schema_version')")).rows;
    const meta = Object.fromEntries(rows.map((r) => [str(r.key), str(r.value)]));
    return { ours: meta.app === APP_MARK, empty: false, version: Number(meta.schema_version ?? 0) };
  }

  private async migrate(): Promise<void> {
    const before = await this.ownership(this.client);
    this.refuseForeign(before);
    if (before.version === SCHEMA_VERSION) return;
    const tx = await this.client.transaction("write");
    try {
      // Checked again under the write lock: another process may have migrated meanwhile.
      const now = await this.ownership(tx);
      this.refuseForeign(now);
      for (let v = now.version; v < SCHEMA_VERSION; v++) {
        for (const sql of MIGRATIONS[v]) await tx.execute(sql);
      }
      if (now.version < SCHEMA_VERSION) {
        const set = "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value";
        await tx.execute({ sql: set, args: ["app", APP_MARK] });
        await tx.execute({ sql: set, args: ["schema_version", String(SCHEMA_VERSION)] });
        if (now.empty) {
          await tx.execute({ sql: set, args: ["store_id", crypto.randomUUID()] });
          await tx.execute({ sql: set, args: ["created_at", new Date().toISOString()] });
        }
      }
      await tx.commit();
    } finally {
      tx.close();
    }
  }

  private refuseForeign(o: { ours: boolean; version: number }): void {
    if (!o.ours) {
      throw new UserError(`${this.path} is a SQLite database but not a MindSave store; refusing to touch it.`);
    }
    if (o.version > SCHEMA_VERSION) {
      throw new UserError(
        `${this.path} was written by a newer MindSave (store schema ${o.version}; this build knows up to ${SCHEMA_VERSION}); update MindSave to use it.`,
      );
    }
  }

  /** Runs `fn` in one write transaction: all of it lands, or none of it. */
  async write<T>(hostId: string, fn: (w: StoreWriter) => Promise<T>, now: () => number = Date.now): Promise<T> {
    return this.transaction(async (tx) => {
      const writer = new StoreWriter(tx, hostId, now);
      const result = await fn(writer);
      await writer.flushClock();
      return result;
    });
  }

  async schemaVersion(): Promise<number> {
    return Number((await this.getMeta("schema_version")) ?? 0);
  }

  async integrityCheck(): Promise<string> {
    const rows = (await this.client.execute("PRAGMA integrity_check")).rows;
    return rows.map((r) => str(r[0])).join("; ");
  }

  async journalMode(): Promise<string> {
    return str((await this.client.execute("PRAGMA journal_mode")).rows[0]?.[0]);
  }

  /**
   * Closes the store. After writes in WAL mode the log is folded back into the main file, so
   * mindsave.db alone always holds everything (a plain copy of it is a complete backup).
   */
  async closeAsync(): Promise<void> {
    if (this.wal && this.wrote) await this.client.execute("PRAGMA wal_checkpoint(TRUNCATE)").catch(() => {});
    this.client.close();
  }

  close(): void {
    this.client.close();
  }

  /**
   * libSQL lets go of a closed client's file handles only when they are garbage-collected. Before
   * a store file is renamed over or removed (Windows refuses both while it is open), collect now.
   */
  static releaseClosed(): void {
    Bun.gc(true);
  }
}

/**
 * A compiled binary unpacks its libSQL addon into the temp directory before loading it; when that
 * directory is missing or read-only, say so instead of a loader error.
 */
async function loadDriver(): Promise<typeof import("@libsql/client")> {
  try {
    return await import("@libsql/client");
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    if (/shared object|dlopen|ERR_DLOPEN|\.node/i.test(msg + String((e as { code?: string })?.code))) {
      throw new UserError(
        `MindSave cannot unpack its database engine into the temp directory ${tmpdir()} (missing or not writable); set TMPDIR to a writable directory.`,
      );
    }
    throw e;
  }
}

/** Whether `path` is missing, empty, a plain SQLite file, or something else (an encrypted store, or junk). */
export function storeFileKind(path: string): StoreFileKind {
  if (!existsSync(path)) return "missing";
  const st = statSync(path);
  if (st.isDirectory()) throw new UserError(`${path} is a directory, not a MindSave store file.`);
  if (st.size === 0) return "empty";
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(16);
    readSync(fd, buf, 0, 16, 0);
    return buf.toString("latin1") === SQLITE_MAGIC ? "plain" : "other";
  } finally {
    closeSync(fd);
  }
}

function checkLooksLikeSqlite(path: string): void {
  if (storeFileKind(path) === "other") {
    throw new UserError(`${path} is not a MindSave store (not a SQLite database); refusing to touch it.`);
  }
}

function openError(path: string, e: unknown, encrypted = false): Error {
  if (e instanceof UserError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: string })?.code ?? "";
  if (/NOTADB|not a database/i.test(code + msg)) {
    return new UserError(encrypted
      ? `The encrypted store ${path} cannot be read with the key its key file gives for this passphrase: the file is damaged or is not the store that key file belongs to; restore it from a backup.`
      : `${path} is not a MindSave store (not a readable SQLite database).`);
  }
  if (/READONLY|readonly|read-only/i.test(code + msg)) {
    return new UserError(`The store ${path} is read-only here; MindSave needs to write to its home directory.`);
  }
  if (/CANTOPEN|unable to open/i.test(code + msg)) {
    return new UserError(`Cannot open the store ${path}: check that its directory exists and is writable.`);
  }
  if (/BUSY|locked/i.test(code + msg)) {
    return new UserError(`The store ${path} is busy (another MindSave is writing to it); try again in a moment.`);
  }
  return e instanceof Error ? e : new Error(msg);
}
