// A store file through libSQL's own driver (the `libsql` package @libsql/client's local client is
// built on), with the client's interface and behaviour — the same rows, numbers, errors and
// transactions — but not its per-call costs: the client prepares every statement again on every
// call (an import prepared each INSERT 40,000 times), asks a statement that returns no rows for its
// rows and catches the error, and builds each row with two defineProperty calls per column (a third
// of reading 800 failures). Here statements are prepared once per connection and rows are plain
// objects whose named columns are their own properties (what a spread or Object.keys sees, as
// with the client) and whose numbered columns and length come from a prototype shared by every row
// of the same columns. Remote stores (sqld, Turso) still go through @libsql/client.
//
// A plain (unencrypted) file is opened with the SQLite built into Bun (`bun:sqlite`) instead of
// libSQL's native module: the same file format, a few milliseconds less for every process that
// opens a store (no addon to unpack and load). libSQL's driver is kept for encrypted files (its
// page encryption) and for writing an encrypted copy. One file is only ever opened by one of the
// two in a process: two SQLite libraries on one file in one process would release each other's
// POSIX locks.
import type { Client, InArgs, InStatement, ResultSet, Row, Transaction } from "@libsql/client";
import type LibsqlDatabase from "libsql";

/** What a connection needs of either driver's statements. */
interface NativeStatement {
  /** It returns rows. */
  readonly reader: boolean;
  columns(): { name: string; type: string }[];
  all(args: unknown): unknown[][];
  run(args: unknown): { changes: number; lastInsertRowid: number | bigint };
}

/** What a connection needs of either driver's database. */
interface Native {
  prepare(sql: string): NativeStatement;
  readonly open: boolean;
  readonly inTransaction: boolean;
  close(): void;
}

/** Which SQLite a local client runs on. */
export type LocalEngine = "bun" | "libsql";

/** A statement that changes the schema: prepared statements are made again after it. */
const DDL = /^\s*(CREATE|ALTER|DROP)\b/i;

/** Prepared statements kept per connection (an import and a sync reuse a few dozen). */
const CACHE_MAX = 256;

/** What the client throws (LibsqlError): its fields are the ones `driverCodes` reads (problems.ts). */
class DriverError extends Error {
  constructor(message: string, readonly code: string, readonly extendedCode?: string, readonly rawCode?: number, cause?: unknown) {
    super(`${code}: ${message}`, { cause });
    this.name = "LibsqlError";
  }
}

/** SQLite's primary result codes by number (an extended code is primary | (n << 8)). */
const BASE = ["OK", "ERROR", "INTERNAL", "PERM", "ABORT", "BUSY", "LOCKED", "NOMEM", "READONLY", "INTERRUPT", "IOERR", "CORRUPT",
  "NOTFOUND", "FULL", "CANTOPEN", "PROTOCOL", "EMPTY", "SCHEMA", "TOOBIG", "CONSTRAINT", "MISMATCH", "MISUSE", "NOLFS", "AUTH",
  "FORMAT", "RANGE", "NOTADB", "NOTICE", "WARNING"];

/**
 * The client's mapping of the driver's error (libSQL's SqliteError, Bun's SQLiteError): the base
 * code from the raw one, the driver's code as the extended one.
 */
function driverError(e: unknown): unknown {
  if (!(e instanceof Error) || (e.name !== "SqliteError" && e.name !== "SQLiteError")) return e;
  const x = e as Error & { code: string; rawCode?: number; errno?: number };
  const raw = x.rawCode ?? x.errno;
  const code = raw === undefined ? "SQLITE_UNKNOWN" : (raw & 0xff) >= 1 && (raw & 0xff) < BASE.length ? `SQLITE_${BASE[raw & 0xff]}` : `SQLITE_UNKNOWN_${raw & 0xff}`;
  return new DriverError(e.message, code, x.code, raw, e);
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A value as the client returns it with intMode "number". */
function fromSql(v: unknown): unknown {
  if (typeof v === "bigint") {
    if (v < MIN_SAFE || v > MAX_SAFE) throw new RangeError("Received integer which cannot be safely represented as a JavaScript number");
    return Number(v);
  }
  // A blob: its own bytes as an ArrayBuffer (a view may sit in a larger buffer).
  if (v instanceof Uint8Array) return v.byteOffset === 0 && v.byteLength === v.buffer.byteLength ? v.buffer : v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength);
  return v;
}

/** An argument as the client passes it. */
function toSql(v: unknown): unknown {
  if (typeof v === "number" && !Number.isFinite(v)) throw new RangeError("Only finite numbers (not Infinity or NaN) can be passed as arguments");
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof ArrayBuffer) return Buffer.from(v);
  if (v instanceof Date) return v.valueOf();
  if (v === undefined) throw new TypeError("undefined cannot be passed as argument to the database");
  return v;
}

function args(a: InArgs | undefined): unknown {
  if (a === undefined) return [];
  if (Array.isArray(a)) return a.map(toSql);
  const named: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a)) named[k[0] === "@" || k[0] === "$" || k[0] === ":" ? k.slice(1) : k] = toSql(v);
  return named;
}

/** Builds rows of one list of columns: named values as own properties, numbered ones and length from the prototype. */
function rowMaker(columns: string[]): (values: unknown[]) => Row {
  // A repeated name, or a name that is a number ("SELECT 1"), would clash with a numbered column:
  // those rows are built as the client builds them.
  if (new Set(columns).size < columns.length || columns.some((c) => /^\d+$/.test(c))) return (values) => clientRow(values, columns);
  const proto: object = {};
  Object.defineProperty(proto, "length", { value: columns.length });
  columns.forEach((c, i) => Object.defineProperty(proto, i, { get(this: Record<string, unknown>) { return this[c]; } }));
  return (values) => {
    const row = Object.create(proto) as Record<string, unknown>;
    for (let i = 0; i < columns.length; i++) row[columns[i]] = fromSql(values[i]);
    return row as unknown as Row;
  };
}

function clientRow(values: unknown[], columns: string[]): Row {
  const row = {};
  Object.defineProperty(row, "length", { value: values.length });
  values.forEach((v, i) => {
    const value = fromSql(v);
    Object.defineProperty(row, i, { value });
    if (!Object.hasOwn(row, columns[i])) Object.defineProperty(row, columns[i], { value, enumerable: true, configurable: true, writable: true });
  });
  return row as Row;
}

interface Prepared {
  stmt: NativeStatement;
  reader: boolean;
  /** Its columns and row builder, read on first use (they change only with the schema, and then it is prepared again). */
  shape?: { names: string[]; types: string[]; make: (values: unknown[]) => Row };
}

/** One connection: statements prepared once, executed as the client executes them. */
class Connection {
  private readonly prepared = new Map<string, Prepared>();
  /**
   * Statements with a `*` keep the columns they were prepared with even after a column is added,
   * so they are kept only while this connection holds the write lock (no other connection can
   * change the schema then) and prepared on each call otherwise, as the client does.
   */
  private readonly starred = new Map<string, Prepared>();
  private writing = false;
  constructor(readonly db: Native) {}

  /** Closes the connection, its prepared statements let go first (libSQL closes for real only once none is left). */
  close(): void {
    this.prepared.clear();
    this.starred.clear();
    this.db.close();
  }

  /** A write transaction began (true) or ended (false) on this connection. */
  setWriting(on: boolean): void {
    this.writing = on;
    if (!on) this.starred.clear();
  }

  execute(stmtOrSql: InStatement | string, a?: InArgs): ResultSet {
    const stmt = typeof stmtOrSql === "string" ? { sql: stmtOrSql, args: a } : stmtOrSql;
    try {
      const p = this.prepare(stmt.sql);
      if (p.reader) {
        if (!p.shape) {
          const columns = p.stmt.columns();
          const names = columns.map((c) => c.name);
          p.shape = { names, types: columns.map((c) => c.type), make: rowMaker(names) };
        }
        const rows = p.stmt.all(args(stmt.args)).map(p.shape.make);
        return result(p.shape.names, p.shape.types, rows, 0, undefined);
      }
      const info = p.stmt.run(args(stmt.args));
      if (DDL.test(stmt.sql)) {
        this.prepared.clear();
        this.starred.clear();
      }
      return result([], [], [], info.changes, BigInt(info.lastInsertRowid));
    } catch (e) {
      throw driverError(e);
    }
  }

  private prepare(sql: string): Prepared {
    const cache = !sql.includes("*") ? this.prepared : this.writing ? this.starred : null;
    let p = cache?.get(sql);
    if (!p) {
      const stmt = this.db.prepare(sql);
      p = { stmt, reader: stmt.reader };
      if (cache) {
        if (cache.size >= CACHE_MAX) cache.clear();
        cache.set(sql, p);
      }
    }
    return p;
  }
}

function result(columns: string[], columnTypes: string[], rows: Row[], rowsAffected: number, lastInsertRowid: bigint | undefined): ResultSet {
  return {
    columns, columnTypes, rows, rowsAffected, lastInsertRowid,
    toJSON: () => ({ columns, columnTypes, rows: rows.map((r) => Array.from({ length: r.length }, (_, i) => r[i])), rowsAffected, lastInsertRowid: lastInsertRowid === undefined ? null : String(lastInsertRowid) }),
  } as ResultSet;
}

/** A write transaction on the connection, as the client's: rolled back on close unless committed. */
class LocalTransaction {
  private settled = false;
  constructor(private readonly conn: Connection, private readonly release: () => void) {}

  get closed(): boolean {
    return this.settled || !this.conn.db.open || !this.conn.db.inTransaction;
  }

  async execute(stmtOrSql: InStatement | string, a?: InArgs): Promise<ResultSet> {
    if (this.closed) throw new DriverError("The transaction is closed", "TRANSACTION_CLOSED");
    return this.conn.execute(stmtOrSql, a);
  }

  async commit(): Promise<void> {
    try {
      if (this.closed) throw new DriverError("The transaction is closed", "TRANSACTION_CLOSED");
      this.conn.execute("COMMIT");
    } catch (e) {
      // A failed COMMIT (busy: a rollback-journal store's reader) leaves SQLite's transaction open: ended here.
      this.close();
      throw e;
    } finally {
      this.settle();
    }
  }

  async rollback(): Promise<void> {
    try {
      if (!this.settled && this.conn.db.open && this.conn.db.inTransaction) this.conn.execute("ROLLBACK");
    } finally {
      this.settle();
    }
  }

  close(): void {
    try {
      if (!this.settled && this.conn.db.open && this.conn.db.inTransaction) this.conn.execute("ROLLBACK");
    } finally {
      this.settle();
    }
  }

  private settle(): void {
    if (this.settled) return;
    this.settled = true;
    this.release();
  }
}

/** The part of @libsql/client's Client the store uses, on one local connection. */
class LocalClient {
  closed = false;
  readonly protocol = "file";
  private inTransaction = false;
  constructor(private readonly conn: Connection, readonly engine: LocalEngine) {}

  async execute(stmtOrSql: InStatement | string, a?: InArgs): Promise<ResultSet> {
    this.usable();
    if (this.inTransaction) throw transactionActive();
    return this.conn.execute(stmtOrSql, a);
  }

  async transaction(mode: "write" | "read" | "deferred" = "write"): Promise<Transaction> {
    this.usable();
    if (this.inTransaction) throw transactionActive();
    this.conn.execute(mode === "write" ? "BEGIN IMMEDIATE" : mode === "read" ? "BEGIN TRANSACTION READONLY" : "BEGIN DEFERRED");
    this.inTransaction = true;
    this.conn.setWriting(mode === "write");
    return new LocalTransaction(this.conn, () => {
      this.inTransaction = false;
      this.conn.setWriting(false);
    }) as unknown as Transaction;
  }

  close(): void {
    this.closed = true;
    try {
      if (this.conn.db.open) this.conn.close();
    } catch {
      // nothing useful to do while tearing down
    }
  }

  private usable(): void {
    if (this.closed || !this.conn.db.open) throw new DriverError("The client is closed", "CLIENT_CLOSED");
  }
}

/** The client's answer when its one connection is held by an open transaction. */
function transactionActive(): Error {
  return new DriverError("This client has a single connection, which an open transaction is holding. In-memory databases and embedded replicas cannot have more than one. Commit or roll back the transaction before using the client again.", "TRANSACTION_ACTIVE");
}

/** libSQL's driver as a Native: integers as bigints (made numbers, or refused, by fromSql), rows as arrays. */
function libsqlNative(Driver: typeof LibsqlDatabase, path: string, o: { encryptionKey?: string; timeoutMs: number }): Native {
  const db = new Driver(path, { encryptionKey: o.encryptionKey, timeout: o.timeoutMs } as never);
  return {
    prepare(sql) {
      const s = db.prepare(sql);
      s.safeIntegers(true);
      const reader = s.reader;
      if (reader) s.raw(true);
      return {
        reader,
        columns: () => (s.columns() as { name: string; type: string | null }[]).map((c) => ({ name: c.name, type: c.type ?? "" })),
        all: (a) => s.all(a as never) as unknown[][],
        run: (a) => s.run(a as never) as { changes: number; lastInsertRowid: number | bigint },
      };
    },
    get open() {
      return db.open;
    },
    get inTransaction() {
      return db.inTransaction;
    },
    // Its statements, no longer referenced, are collected now: then the file is let go of, and the
    // last connection's WAL and shared-memory files are removed as SQLite does on close. Once more
    // from the event loop: the collector scans the stack conservatively, and a statement a caller's
    // frame still points at survives the first collection (seen once in a busy test run).
    close: () => {
      db.close();
      Bun.gc(true);
      setImmediate(() => Bun.gc(true));
    },
  };
}

type BunDatabase = typeof import("bun:sqlite").Database;

// SQLite's open flags (sqlite3.h).
const OPEN_READONLY = 0x1, OPEN_READWRITE = 0x2, OPEN_CREATE = 0x4, OPEN_URI = 0x40;

/**
 * Bun's SQLite as a Native, set up as libSQL's build is: foreign keys on and temporary tables in
 * memory by default (its compile options), `timeoutMs` of waiting for a lock. A `file:` URI (the
 * read-only open's `mode=ro`) is read as one, as libSQL reads it.
 */
function bunNative(Database: BunDatabase, path: string, timeoutMs: number): Native {
  const uri = path.startsWith("file:");
  const db = new Database(path, uri ? OPEN_URI | OPEN_READONLY : OPEN_READWRITE | OPEN_CREATE);
  let open = true;
  for (const pragma of [`busy_timeout = ${Math.max(0, Math.floor(timeoutMs))}`, "foreign_keys = ON", "temp_store = MEMORY"]) db.run(`PRAGMA ${pragma}`);
  return {
    prepare(sql) {
      const s = db.prepare(sql);
      s.safeIntegers(true);
      // Positional arguments are spread; named ones are given under each prefix SQLite accepts.
      const bind = (a: unknown): unknown[] => Array.isArray(a) ? a : [Object.fromEntries(Object.entries(a as object).flatMap(([k, v]) => [[`:${k}`, v], [`@${k}`, v], [`$${k}`, v]]))];
      return {
        reader: s.columnNames.length > 0,
        columns: () => s.columnNames.map((name, i) => ({ name, type: s.declaredTypes[i] ?? "" })),
        all: (a) => s.values(...(bind(a) as never[])) as unknown[][],
        run: (a) => s.run(...(bind(a) as never[])),
      };
    },
    get open() {
      return open;
    },
    get inTransaction() {
      return db.inTransaction;
    },
    // Every statement finalized and the file let go of now: a connection left open until its
    // statements are collected would keep this process's view of the shared-memory index, stale
    // once another process removed it, and a later connection here would read through it.
    close: () => {
      open = false;
      db.close(true);
    },
  };
}

/**
 * A client on the local file `path` (a path or a file: URI with SQLite's parameters), as the
 * client's `_createClient` makes one, on either driver.
 */
export function localClient(driver: { libsql: typeof LibsqlDatabase } | { bun: BunDatabase }, path: string, o: { encryptionKey?: string; timeoutMs: number }): Client {
  // (Errors of the open itself are the driver's own, as the client lets them through.)
  const engine: LocalEngine = "bun" in driver ? "bun" : "libsql";
  const db = "bun" in driver ? bunNative(driver.bun, path, o.timeoutMs) : libsqlNative(driver.libsql, path, o);
  const conn = new Connection(db);
  try {
    conn.execute("SELECT 1 AS checkThatTheDatabaseCanBeOpened");
  } catch (e) {
    try {
      db.close();
    } catch {
      // already unusable
    }
    throw e;
  }
  return new LocalClient(conn, engine) as unknown as Client;
}
