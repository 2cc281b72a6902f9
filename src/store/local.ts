// A store file as a Db (db.ts), on one of two SQLite drivers: the same rows and numbers as a remote
// store gives through the libSQL client, without that client's per-call costs (it prepares every
// statement again on every call: an import prepared each INSERT 40,000 times; and builds each row
// with two defineProperty calls per column: a third of reading 800 failures). Here statements are
// prepared once per connection and rows are plain objects whose named columns are their own
// properties (what a spread or Object.keys sees) and whose numbered columns and length come from a
// prototype shared by every row of the same columns.
//
// A plain (unencrypted) file is opened with the SQLite built into Bun (`bun:sqlite`) instead of
// libSQL's native module: the same file format, a few milliseconds less for every process that
// opens a store (no addon to unpack and load). libSQL's driver is kept for encrypted files (its
// page encryption) and for writing an encrypted copy. One file is only ever opened by one of the
// two in a process (driver.ts refuses the other): two SQLite libraries on one file in one process
// would release each other's POSIX locks.
import type LibsqlDatabase from "libsql";
import {
  type Db,
  DbError,
  type Engine,
  type Result,
  type Row,
  type Statement,
  type Tx,
  dbClosed,
  txActive,
  txClosed,
} from "./db.ts";

/** What a connection needs of either driver's statements. */
interface NativeStatement {
  /** It returns rows. */
  readonly reader: boolean;
  /** Its columns' names. */
  columns(): string[];
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

/** Which SQLite a local store runs on. */
export type LocalEngine = Exclude<Engine, "remote">;

/** A statement that changes the schema: prepared statements are made again after it. */
const DDL = /^\s*(CREATE|ALTER|DROP)\b/i;

/** Prepared statements kept per connection (an import and a sync reuse a few dozen). */
const CACHE_MAX = 256;

/** SQLite's primary result codes by number (an extended code is primary | (n << 8)). */
const BASE = [
  "OK",
  "ERROR",
  "INTERNAL",
  "PERM",
  "ABORT",
  "BUSY",
  "LOCKED",
  "NOMEM",
  "READONLY",
  "INTERRUPT",
  "IOERR",
  "CORRUPT",
  "NOTFOUND",
  "FULL",
  "CANTOPEN",
  "PROTOCOL",
  "EMPTY",
  "SCHEMA",
  "TOOBIG",
  "CONSTRAINT",
  "MISMATCH",
  "MISUSE",
  "NOLFS",
  "AUTH",
  "FORMAT",
  "RANGE",
  "NOTADB",
  "NOTICE",
  "WARNING",
];

/**
 * A driver's SQLite error (libSQL's SqliteError, Bun's SQLiteError) as a DbError: the primary code
 * from the raw one, the driver's code as the extended one. Other errors pass as they are.
 */
function sqliteError(e: unknown): unknown {
  if (!(e instanceof Error) || (e.name !== "SqliteError" && e.name !== "SQLiteError")) return e;
  const x = e as Error & { code: string; rawCode?: number; errno?: number };
  const raw = x.rawCode ?? x.errno;
  const code =
    raw === undefined
      ? "SQLITE_UNKNOWN"
      : (raw & 0xff) >= 1 && (raw & 0xff) < BASE.length
        ? `SQLITE_${BASE[raw & 0xff]}`
        : `SQLITE_UNKNOWN_${raw & 0xff}`;
  return new DbError(e.message, code, x.code, raw, e);
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A value as a row holds it: an integer as a number (refused beyond the safe range), bytes as an ArrayBuffer. */
function fromSql(v: unknown): unknown {
  if (typeof v === "bigint") {
    if (v < MIN_SAFE || v > MAX_SAFE)
      throw new RangeError(`The integer ${v} is beyond the numbers JavaScript holds exactly`);
    return Number(v);
  }
  // A blob: its own bytes as an ArrayBuffer (a view may sit in a larger buffer).
  if (v instanceof Uint8Array)
    return v.byteOffset === 0 && v.byteLength === v.buffer.byteLength
      ? v.buffer
      : v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength);
  return v;
}

/** An argument as the driver binds it: a boolean as 0 or 1, bytes as a Buffer. */
function toSql(v: unknown): unknown {
  if (typeof v === "number" && !Number.isFinite(v))
    throw new RangeError(`${v} cannot be stored (only finite numbers)`);
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof ArrayBuffer) return Buffer.from(v);
  if (v instanceof Date) return v.valueOf();
  if (v === undefined) throw new TypeError("undefined cannot be stored (null can)");
  return v;
}

function args(a: Exclude<Statement, string>["args"]): unknown {
  if (a === undefined) return [];
  if (Array.isArray(a)) return a.map(toSql);
  const named: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a))
    named[k[0] === "@" || k[0] === "$" || k[0] === ":" ? k.slice(1) : k] = toSql(v);
  return named;
}

/** Builds rows of one list of columns: named values as own properties, numbered ones and length from the prototype. */
function rowMaker(columns: string[]): (values: unknown[]) => Row {
  // A repeated name, or a name that is a number ("SELECT 1"), would clash with a numbered column:
  // those rows are built one property at a time, the first of a repeated name kept.
  if (new Set(columns).size < columns.length || columns.some((c) => /^\d+$/.test(c)))
    return (values) => clashingRow(values, columns);
  const proto: object = {};
  Object.defineProperty(proto, "length", { value: columns.length });
  columns.forEach((c, i) =>
    Object.defineProperty(proto, i, {
      get(this: Record<string, unknown>) {
        return this[c];
      },
    }),
  );
  return (values) => {
    const row = Object.create(proto) as Record<string, unknown>;
    for (let i = 0; i < columns.length; i++) row[columns[i]] = fromSql(values[i]);
    return row as unknown as Row;
  };
}

function clashingRow(values: unknown[], columns: string[]): Row {
  const row = {};
  Object.defineProperty(row, "length", { value: values.length });
  values.forEach((v, i) => {
    const value = fromSql(v);
    Object.defineProperty(row, i, { value });
    if (!Object.hasOwn(row, columns[i]))
      Object.defineProperty(row, columns[i], { value, enumerable: true, configurable: true, writable: true });
  });
  return row as Row;
}

interface Prepared {
  stmt: NativeStatement;
  reader: boolean;
  /** Its columns and row builder, read on first use (they change only with the schema, and then it is prepared again). */
  shape?: { names: string[]; make: (values: unknown[]) => Row };
}

/** One connection: statements prepared once and kept. */
class Connection {
  private readonly prepared = new Map<string, Prepared>();
  /**
   * Statements with a `*` keep the columns they were prepared with even after a column is added,
   * so they are kept only while this connection holds the write lock (no other connection can
   * change the schema then) and prepared on each call otherwise.
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

  execute(statement: Statement): Result {
    const stmt = typeof statement === "string" ? { sql: statement } : statement;
    try {
      const p = this.prepare(stmt.sql);
      if (p.reader) {
        if (!p.shape) {
          const names = p.stmt.columns();
          p.shape = { names, make: rowMaker(names) };
        }
        const rows = p.stmt.all(args(stmt.args)).map(p.shape.make);
        return { columns: p.shape.names, rows, rowsAffected: 0, lastInsertRowid: undefined };
      }
      const info = p.stmt.run(args(stmt.args));
      if (DDL.test(stmt.sql)) {
        this.prepared.clear();
        this.starred.clear();
      }
      return {
        columns: [],
        rows: [],
        rowsAffected: info.changes,
        lastInsertRowid: BigInt(info.lastInsertRowid),
      };
    } catch (e) {
      throw sqliteError(e);
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

/** A transaction on the connection: rolled back on close unless committed. */
class LocalTx implements Tx {
  private settled = false;
  constructor(
    private readonly conn: Connection,
    private readonly release: () => void,
  ) {}

  get closed(): boolean {
    return this.settled || !this.conn.db.open || !this.conn.db.inTransaction;
  }

  async execute(statement: Statement): Promise<Result> {
    if (this.closed) throw txClosed();
    return this.conn.execute(statement);
  }

  async commit(): Promise<void> {
    try {
      if (this.closed) throw txClosed();
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

/** A store file on one local connection: one transaction at a time, as SQLite's connection has. */
class LocalDb implements Db {
  private closed = false;
  private inTransaction = false;
  constructor(
    private readonly conn: Connection,
    readonly engine: LocalEngine,
    private readonly onClose: () => void,
  ) {}

  async execute(statement: Statement): Promise<Result> {
    this.usable();
    if (this.inTransaction) throw txActive();
    return this.conn.execute(statement);
  }

  async transaction(mode: "write" | "read"): Promise<Tx> {
    this.usable();
    if (this.inTransaction) throw txActive();
    this.conn.execute(mode === "write" ? "BEGIN IMMEDIATE" : "BEGIN TRANSACTION READONLY");
    this.inTransaction = true;
    this.conn.setWriting(mode === "write");
    return new LocalTx(this.conn, () => {
      this.inTransaction = false;
      this.conn.setWriting(false);
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      if (this.conn.db.open) this.conn.close();
    } catch {
      // nothing useful to do while tearing down
    } finally {
      this.onClose();
    }
  }

  private usable(): void {
    if (this.closed || !this.conn.db.open) throw dbClosed();
  }
}

/** libSQL's driver as a Native: integers as bigints (made numbers, or refused, by fromSql), rows as arrays. */
function libsqlNative(
  Driver: typeof LibsqlDatabase,
  path: string,
  o: { encryptionKey?: string; timeoutMs: number },
): Native {
  const db = new Driver(path, { encryptionKey: o.encryptionKey, timeout: o.timeoutMs } as never);
  return {
    prepare(sql) {
      const s = db.prepare(sql);
      s.safeIntegers(true);
      const reader = s.reader;
      if (reader) s.raw(true);
      return {
        reader,
        columns: () => (s.columns() as { name: string }[]).map((c) => c.name),
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
    // frame still points at survives the first collection.
    close: () => {
      db.close();
      Bun.gc(true);
      setImmediate(() => Bun.gc(true));
    },
  };
}

type BunDatabase = typeof import("bun:sqlite").Database;

// SQLite's open flags (sqlite3.h).
const OPEN_READONLY = 0x1,
  OPEN_READWRITE = 0x2,
  OPEN_CREATE = 0x4,
  OPEN_URI = 0x40;

/**
 * Bun's SQLite as a Native, set up as libSQL's build is: foreign keys on and temporary tables in
 * memory by default (its compile options), `timeoutMs` of waiting for a lock. A `file:` URI (the
 * read-only open's `mode=ro`) is read as one, as libSQL reads it.
 */
function bunNative(Database: BunDatabase, path: string, timeoutMs: number): Native {
  const uri = path.startsWith("file:");
  const db = new Database(path, uri ? OPEN_URI | OPEN_READONLY : OPEN_READWRITE | OPEN_CREATE);
  let open = true;
  for (const pragma of [
    `busy_timeout = ${Math.max(0, Math.floor(timeoutMs))}`,
    "foreign_keys = ON",
    "temp_store = MEMORY",
  ])
    db.run(`PRAGMA ${pragma}`);
  return {
    prepare(sql) {
      const s = db.prepare(sql);
      s.safeIntegers(true);
      // Positional arguments are spread; named ones are given under each prefix SQLite accepts.
      const bind = (a: unknown): unknown[] =>
        Array.isArray(a)
          ? a
          : [
              Object.fromEntries(
                Object.entries(a as object).flatMap(([k, v]) => [
                  [`:${k}`, v],
                  [`@${k}`, v],
                  [`$${k}`, v],
                ]),
              ),
            ];
      return {
        reader: s.columnNames.length > 0,
        columns: () => s.columnNames,
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
 * The local file `path` (a path, or a file: URI with SQLite's parameters) as a Db on either
 * driver, its first page read (a file that is no database fails here). `onClose` runs once, when
 * it is closed.
 */
export function localDb(
  driver: { libsql: typeof LibsqlDatabase } | { bun: BunDatabase },
  path: string,
  o: { encryptionKey?: string; timeoutMs: number; onClose?: () => void },
): Db {
  const engine: LocalEngine = "bun" in driver ? "bun" : "libsql";
  let db: Native;
  try {
    db = "bun" in driver ? bunNative(driver.bun, path, o.timeoutMs) : libsqlNative(driver.libsql, path, o);
  } catch (e) {
    throw sqliteError(e);
  }
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
  return new LocalDb(conn, engine, o.onClose ?? (() => {}));
}
