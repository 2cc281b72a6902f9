// The store: one libSQL file. This module tree is the only place with SQL.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { tmpdir } from "../lib/os.ts";
import type { Db, Tx } from "./db.ts";
import { UserError } from "../errors.ts";
import { SCHEMA_VERSION, ensureIndexes } from "./migrations.ts";
import { ensureFailureSearch } from "./failure-search.ts";
import { makeDerived, migrateSchema, readOwnership, refuseForeign, type Ownership } from "./schema.ts";
import { type CheckProgress, fullCheck, integrityCheck, quickCheck } from "./checks.ts";
import { MAX_AHEAD_MS, formatHlc, parseHlc } from "./hlc.ts";
import { SyncSide } from "./sync.ts";
import { PLAN_STATUS_AT, str } from "./rows.ts";
import { Queries } from "./queries.ts";
import { rankStaleFailures } from "./failure-ranks.ts";
import { StoreWriter } from "./writer.ts";
import {
  fileIdentity,
  forgetSideFiles,
  openDb,
  readOnlyMode,
  realStorePath,
  sideFiles,
  sizeOf,
  storeFileKind,
  writable,
} from "./driver.ts";
import { remoteDb } from "./remote.ts";
import {
  StoreProblem,
  driverCodes,
  guarded,
  noteDamage,
  readOnlyProblem,
  replacedProblem,
  storeProblem,
} from "./problems.ts";
import {
  inspectStore,
  listedCounts,
  lostProjects,
  recreateProjects,
  salvage,
  type LostProject,
  type Salvaged,
} from "./salvage.ts";

export {
  SCHEMA_VERSION,
  formatHlc,
  parseHlc,
  SyncSide,
  Queries,
  StoreWriter,
  StoreProblem,
  storeFileKind,
  storeProblem,
  inspectStore,
  realStorePath,
  sizeOf,
  fileIdentity,
  PLAN_STATUS_AT,
  MAX_AHEAD_MS,
};
export type { StoreFileKind } from "./driver.ts";
export type { UnfinishedPull } from "./sync.ts";
export type { CheckProgress } from "./checks.ts";
export type { StoreProblemKind } from "./problems.ts";
export type { StoreInspection, SalvagedTable, LostProject, ListedCarried } from "./salvage.ts";
export type * from "./records.ts";

export interface OpenOptions {
  /** WAL for a laptop's home; the drive issue may choose another journal mode for removable media. */
  journalMode?: "WAL" | "DELETE" | "TRUNCATE";
  /** Milliseconds a writer waits for another writer before giving up. */
  busyTimeoutMs?: number;
  /** The store is encrypted with this key (libSQL's own page encryption); absent: a plain file. */
  encryptionKey?: string;
  /** A plain store on libSQL's driver, not Bun's SQLite: to write an encrypted copy of it (copyTo with a key). */
  libsql?: boolean;
  /** Called before a store that holds data is upgraded to a newer schema (to back it up). */
  beforeMigrate?: (store: Store, fromVersion: number) => Promise<void>;
}

export class Store extends Queries {
  private wal = false;
  private wrote = false;
  private fileId: string | null = null; // the file opened: once the path names another (a swap), writes would be lost there
  private beforeMigrate: OpenOptions["beforeMigrate"];

  private constructor(
    private readonly conn: Db,
    readonly path: string,
    readonly remote = false,
    readonly encrypted = false,
    readonly readOnly = false,
    private readonly seen = { damaged: false },
  ) {
    // Every read through Queries meets the store's error mapping: a damaged page is a sentence.
    super(guarded(conn, (e) => noteDamage(seen, storeProblem(path, e, { encrypted }))));
  }

  /** The store's error mapping for `e` (driver errors become one sentence naming this file). */
  private problem(e: unknown): Error {
    return noteDamage(this.seen, storeProblem(this.path, e, { encrypted: this.encrypted }));
  }

  /** A read or write met damaged pages: nothing more is to be written beside this file (see Session.close). */
  get damaged(): boolean {
    return this.seen.damaged;
  }

  /** A store on a libSQL server (sqld, Turso): the same schema and migrations as a file, so sync merges with it as with a drive. */
  static async openRemote(url: string, authToken?: string): Promise<Store> {
    let conn: Db;
    try {
      conn = await remoteDb(url, authToken);
    } catch (e) {
      throw new UserError(`Cannot use ${url} as a libSQL server: ${(e as Error).message}`);
    }
    const store = new Store(conn, url, true);
    try {
      await store.migrate();
    } catch (e) {
      conn.close();
      if (e instanceof UserError) throw e;
      throw new UserError(`Cannot reach the libSQL server at ${url}: ${(e as Error).message.split("\n")[0]}`);
    }
    return store;
  }

  /** Reads for sync, outside any transaction. */
  syncReader(): SyncSide {
    return new SyncSide(guarded(this.conn, (e) => this.problem(e)));
  }

  /** Sync writes in one transaction (`rollback`: a dry run that changes nothing); `as` runs a host's own writes in it too. */
  async syncWrite<T>(
    fn: (
      s: SyncSide,
      as: <R>(hostId: string, now: () => number, write: (w: StoreWriter) => Promise<R>) => Promise<R>,
    ) => Promise<T>,
    opts: { rollback?: boolean } = {},
  ): Promise<T> {
    return this.transaction(
      (tx) => fn(new SyncSide(tx), (hostId, now, write) => new StoreWriter(tx, hostId, now).within(write)),
      opts,
    );
  }

  /**
   * One write transaction: committed when `fn` returns (rolled back for a dry run), rolled back when
   * it throws. `commitSoFar` lets a long write (an import) commit what it wrote and go on in a new
   * transaction: `fn`'s `tx` is always the open one.
   */
  private async transaction<T>(
    fn: (tx: Tx, commitSoFar: () => Promise<void>) => Promise<T>,
    opts: { rollback?: boolean } = {},
  ): Promise<T> {
    if (this.readOnly) throw readOnlyProblem(this.path);
    let tx = await this.begin();
    const current: Tx = {
      get closed() {
        return tx.closed;
      },
      execute: (statement) => tx.execute(statement),
      commit: () => tx.commit(),
      rollback: () => tx.rollback(),
      close: () => tx.close(),
    };
    const commitSoFar = async () => {
      await this.commit(tx);
      tx.close();
      await this.foldLogPassively();
      await this.releaseDriverResults();
      tx = await this.begin();
    };
    try {
      const result = await fn(current, commitSoFar);
      if (opts.rollback) await tx.rollback();
      else await this.commit(tx);
      return result;
    } catch (e) {
      if (!tx.closed) await tx.rollback().catch(() => {});
      throw this.problem(e);
    } finally {
      tx.close();
    }
  }

  private async begin(): Promise<Tx> {
    try {
      return await this.conn.transaction("write");
    } catch (e) {
      throw this.problem(e);
    }
  }

  private async commit(tx: Tx): Promise<void> {
    // Whatever changed a failure (a save, an import, a sync's merge): its ranking key, now.
    await rankStaleFailures(tx);
    this.refuseReplaced();
    await tx.commit();
    this.wrote = true;
  }

  /**
   * Folds what the WAL holds into the file as far as no reader needs it, waiting for none: between
   * the batches of a long write, so the log stays one batch long instead of growing with the write.
   */
  private async foldLogPassively(): Promise<void> {
    if (this.wal) await this.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").catch(() => {});
  }

  /**
   * Lets libSQL's driver free what the reads of a long write returned, between its batches. The
   * driver frees each read's native result only in a finalizer, which runs from the event loop after
   * a collection; an import that never yields held every one (about 1 KB a read: +210 MB importing
   * 10,000 snapshots into an encrypted store).
   */
  private async releaseDriverResults(): Promise<void> {
    if (this.conn.engine !== "libsql") return;
    Bun.gc(true);
    await new Promise((r) => setImmediate(r));
  }

  /**
   * Opens (and creates or migrates) the store at `path`, checked (a SQLite database of ours, of a
   * schema this build knows) before anything is written, so a refused file is never written, not
   * one byte: with a journal or log beside it (a writable open could roll it back or fold it in)
   * through a read-only connection first; without, on the writable one, which only reads till then.
   */
  static async open(path: string, opts: OpenOptions = {}): Promise<Store> {
    const encrypted = !!opts.encryptionKey;
    const kind = storeFileKind(path);
    // An encrypted file has no readable header: only a plain one can be checked before opening.
    if (!encrypted && kind === "other") {
      throw new StoreProblem(
        "not_a_database",
        path,
        `${path} is not a MindSave store (not a SQLite database); refusing to touch it.`,
      );
    }
    // (The journal and log are beside a symlink's target.) Nothing beside a plain file: the writable
    // connection, which only reads until prepare() checked it, changes nothing (one open, not two).
    const real = realStorePath(path);
    const canWrite = (kind === "missing" || writable(path)) && writable(dirname(real));
    const quiet =
      kind === "plain" &&
      canWrite &&
      !encrypted &&
      !existsSync(real + "-wal") &&
      !existsSync(real + "-journal");
    if ((kind === "plain" || kind === "other") && !quiet) {
      const checked = await Store.openChecked(path, opts, canWrite);
      if (checked === "hot-journal") {
        await Store.checkCopy(path, opts);
      } else if (!canWrite) {
        return checked;
      } else {
        // (Either driver's close lets go of the file at once: leaving WAL below needs it to itself.)
        checked.close();
      }
    } else if (kind === "empty" && !canWrite) {
      throw noStoreYet(path);
    }
    let conn: Db;
    try {
      conn = await openDb(path, {
        timeoutMs: opts.busyTimeoutMs ?? 15000,
        encryptionKey: opts.encryptionKey,
        libsql: opts.libsql,
      });
    } catch (e) {
      throw storeProblem(path, e, { encrypted });
    }
    const store = new Store(conn, path, false, encrypted);
    store.fileId = fileIdentity(path);
    store.beforeMigrate = opts.beforeMigrate;
    try {
      await store.prepare(opts);
    } catch (e) {
      conn.close();
      throw storeProblem(path, e, { encrypted });
    }
    return store;
  }

  /**
   * The existing store at `path`, opened read-only and checked (ours, a schema this build knows;
   * when it cannot be written, one that needs no upgrade). "hot-journal" when it was left
   * mid-write and reading it first needs a writable open to roll that back.
   */
  private static async openChecked(
    path: string,
    opts: OpenOptions,
    canWrite: boolean,
  ): Promise<Store | "hot-journal"> {
    const encrypted = !!opts.encryptionKey;
    const mode = readOnlyMode(path);
    if (mode.walStuck) {
      throw new StoreProblem(
        "needs_writable",
        path,
        `The store ${path} has changes in its write-ahead log (${basename(path)}-wal) that can only be read where its folder is writable; copy its home to a writable place and open it there (\`mindsave eject\` before removing a drive avoids this).`,
      );
    }
    let conn: Db | null = null;
    const before = sideFiles(path);
    try {
      conn = await openDb(path, {
        readOnly: true,
        immutable: mode.immutable,
        timeoutMs: opts.busyTimeoutMs ?? 15000,
        encryptionKey: opts.encryptionKey,
        libsql: opts.libsql,
      });
      const store = new Store(conn, path, false, encrypted, true);
      const own = await readOwnership(conn);
      refuseForeign(path, own);
      if (!canWrite && own.version < SCHEMA_VERSION) {
        if (own.empty) throw noStoreYet(path);
        throw new StoreProblem(
          "needs_writable",
          path,
          `The store ${path} has schema ${own.version} and this MindSave needs ${SCHEMA_VERSION}, but it is read-only here so it cannot be upgraded; open it once where it is writable.`,
        );
      }
      return store;
    } catch (e) {
      conn?.close();
      if (canWrite && /READONLY_ROLLBACK/.test(driverCodes(e))) return "hot-journal";
      const problem = storeProblem(path, e, { encrypted });
      if (problem instanceof StoreProblem && problem.kind === "damaged") forgetSideFiles(path, before);
      throw problem;
    }
  }

  /**
   * A file left mid-write (a hot rollback journal beside it) cannot be read read-only: SQLite must
   * first roll the journal back, which writes the file. So it is checked on a copy of the two in
   * the temp directory (rolled back, read, removed): a file that is refused is still not touched.
   * When no copy can be made, the writable open checks it before it writes anything of its own.
   */
  private static async checkCopy(path: string, opts: OpenOptions): Promise<void> {
    let dir: string;
    try {
      dir = mkdtempSync(join(tmpdir(), "mindsave-check-"));
    } catch {
      return;
    }
    const copy = join(dir, "store.db");
    try {
      copyFileSync(path, copy);
      if (existsSync(realStorePath(path) + "-journal"))
        copyFileSync(realStorePath(path) + "-journal", copy + "-journal");
      const conn = await openDb(copy, {
        timeoutMs: 1000,
        encryptionKey: opts.encryptionKey,
        libsql: opts.libsql,
      });
      try {
        refuseForeign(path, await readOwnership(conn));
      } finally {
        conn.close();
      }
    } catch (e) {
      if (e instanceof StoreProblem) throw e;
      // no room for a copy, or the copy unreadable: the writable open decides
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /**
   * Writes a complete copy of this store to `dest` (which must not exist), encrypted with
   * `encryptionKey`, or plain when it is null, whatever this store is. The copy is consistent:
   * one read transaction, the WAL included.
   */
  async copyTo(dest: string, encryptionKey: string | null): Promise<void> {
    if (existsSync(dest)) throw new Error(`${dest} already exists`);
    // Bun's SQLite: plain copies, to a path. libSQL's: a URI with the copy's key (empty: plain; none: this store's).
    const bun = this.conn.engine === "bun";
    if (bun && encryptionKey !== null)
      throw new Error("an encrypted copy needs the store opened with { libsql: true }");
    const target = bun
      ? dest
      : `${Bun.pathToFileURL(dest).href}?key=${encodeURIComponent(encryptionKey ?? "")}`;
    await this.db.execute({ sql: "VACUUM INTO ?", args: [target] });
  }

  /** The number of rows of every table (virtual tables and their shadow tables included), by name. */
  async tableCounts(): Promise<Record<string, number>> {
    const names = (
      await this.db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
    ).rows.map((r) => str(r.name));
    const out: Record<string, number> = {};
    for (const n of names)
      out[n] = Number(
        (await this.db.execute(`SELECT count(*) FROM "${n.replaceAll('"', '""')}"`)).rows[0]?.[0] ?? 0,
      );
    return out;
  }

  /** Folds a WAL back into the main file; false when another connection kept it from finishing. */
  async checkpoint(): Promise<boolean> {
    if (!this.wal) return true;
    return Number((await this.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")).rows[0]?.[0] ?? 1) === 0;
  }

  /**
   * SQLite's temporary files on disk instead of in memory, for this connection (outside a
   * transaction): a statement filling the full-text index keeps a statement journal of every page
   * it rewrites, and the index's merges rewrite more of it the larger it is (an import's batch into
   * 50,000 snapshots: +110 MB in memory). Never for an encrypted store: its pages would land there
   * in clear.
   */
  async tempOnDisk(): Promise<void> {
    if (!this.encrypted && !this.remote) await this.conn.execute("PRAGMA temp_store = FILE");
  }

  /** Changes whenever another connection commits to this store (SQLite's data_version). */
  async dataVersion(): Promise<number> {
    return Number((await this.db.execute("PRAGMA data_version")).rows[0]?.[0] ?? 0);
  }

  private async prepare(opts: OpenOptions): Promise<void> {
    // Checked before anything is written (the journal mode is in the file's header).
    const own = await readOwnership(this.conn);
    refuseForeign(this.path, own);
    const mode = opts.journalMode ?? "WAL";
    const journal = async () =>
      str((await this.conn.execute("PRAGMA journal_mode")).rows[0]?.[0]).toUpperCase();
    // Changing the journal needs the file to itself: with another process in it, keep the current one.
    let current = await journal();
    if (current !== mode) {
      await this.conn.execute(`PRAGMA journal_mode = ${mode}`).catch(() => {});
      current = await journal();
    }
    this.wal = current === "WAL";
    await this.conn.execute("PRAGMA synchronous = FULL");
    // (The journal mode is all that changed since the check: its answer still holds.)
    await this.migrate(own, makeDerived);
    if (await ensureIndexes(this.conn)) this.wrote = true;
    if (await ensureFailureSearch(this.conn)) this.wrote = true;
  }

  /** `made`: what a store made now gets with its schema (a local one: its derived indexes). */
  private async migrate(checked?: Ownership, made?: (tx: Tx) => Promise<void>): Promise<void> {
    const before = checked ?? (await readOwnership(this.conn));
    refuseForeign(this.path, before);
    if (before.version === SCHEMA_VERSION) return;
    if (!before.empty && this.beforeMigrate) await this.beforeMigrate(this, before.version);
    // A created or upgraded schema is a write: close folds it into mindsave.db, so the file
    // alone is the whole store (a copy of it is a backup) even after a read-only command.
    if (await migrateSchema(this.conn, this.path, made)) this.wrote = true;
  }

  /** Runs `fn`'s reads in one read transaction: every one of them sees the store at the same moment. */
  async consistentRead<T>(fn: (q: Queries) => Promise<T>): Promise<T> {
    const tx = await this.conn.transaction("read").catch((e) => Promise.reject(this.problem(e)));
    try {
      return await fn(new Queries(guarded(tx, (e) => this.problem(e))));
    } finally {
      tx.close();
    }
  }

  /** Runs `fn` in one write transaction: all of it lands, or none of it (unless it commits part by part: `commitSoFar`). */
  async write<T>(
    hostId: string,
    fn: (w: StoreWriter) => Promise<T>,
    now: () => number = Date.now,
  ): Promise<T> {
    return this.transaction((tx, commitSoFar) => new StoreWriter(tx, hostId, now, commitSoFar).within(fn));
  }

  private refuseReplaced(): void {
    if (this.fileId !== null && fileIdentity(this.path) !== this.fileId) throw replacedProblem(this.path);
  }

  async schemaVersion(): Promise<number> {
    return Number((await this.getMeta("schema_version")) ?? 0);
  }

  /** "ok", or up to 20 lines of what SQLite's check of every page finds (`doctor --full`). */
  async integrityCheck(): Promise<string> {
    return integrityCheck(this.conn);
  }

  /** Every page and the search index (`doctor --full`), its progress in pages: see checks.ts. */
  async fullCheck(progress?: CheckProgress): Promise<string> {
    return fullCheck(this.conn, this.path, progress);
  }

  /** What can be checked in a moment at any size (`doctor`): see checks.ts. */
  async quickCheck(): Promise<string> {
    return quickCheck(this.conn, this.path);
  }

  /**
   * Fills this store (new and empty) with every row that can still be read from the damaged store
   * at `source`, in one transaction; see salvage.ts.
   */
  async salvageFrom(source: string, encryptionKey?: string): Promise<Salvaged> {
    return this.transaction((tx) => salvage(source, tx, encryptionKey));
  }

  /** How many live snapshots are listed and how many archived. */
  listedCounts = (): Promise<{ listed: number; archived: number }> => listedCounts(this.db);

  /** The projects rows still name but no project row holds, and making them again (after a repair; see salvage.ts). */
  lostProjects = (): Promise<LostProject[]> => lostProjects(this.db);
  recreateProjects = (hostId: string, projects: Parameters<typeof recreateProjects>[2]) =>
    this.transaction((tx) => recreateProjects(tx, hostId, projects));

  async journalMode(): Promise<string> {
    return str((await this.db.execute("PRAGMA journal_mode")).rows[0]?.[0]);
  }

  /** Closes the store; after writes in WAL mode the log is folded into the file first, so a copy of mindsave.db alone is a whole backup. */
  async closeAsync(): Promise<void> {
    // Never waits for a reader (another program, a long `load`): what it cannot fold now, a later close folds.
    if (this.wal && this.wrote)
      await this.conn
        .execute("PRAGMA busy_timeout = 0")
        .then(() => this.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)"))
        .catch(() => {});
    this.conn.close();
    // libSQL's driver lets go of the file (and its WAL files) from the event loop (local.ts): waited for.
    if (this.conn.engine === "libsql") await new Promise((r) => setImmediate(r));
  }

  close(): void {
    this.conn.close();
  }
}

function noStoreYet(path: string): StoreProblem {
  return new StoreProblem(
    "read_only",
    path,
    `There is no MindSave store in ${path} yet and it cannot be created here (read-only); run a command that saves where the home is writable.`,
  );
}
