// The store's own database interface: the few calls `Store` makes of a database (run a statement,
// begin a transaction, close), implemented by each driver — Bun's SQLite and libSQL's driver for a
// file (local.ts), the libSQL client for a server (remote.ts). Nothing above this line names a
// driver's types, and every driver's failure reaches the store as a DbError.

/** A value a statement is given: text, numbers, bytes, null (a boolean is stored as 0 or 1). */
export type InValue = null | string | number | bigint | boolean | ArrayBuffer | Uint8Array;

/** A value a row holds: integers as numbers, bytes as an ArrayBuffer. */
export type Value = null | string | number | bigint | ArrayBuffer;

/**
 * One row: each column by name (its own enumerable property, what a spread or JSON sees) and by
 * number, and `length` the number of columns.
 */
export interface Row {
  length: number;
  [index: number]: Value;
  [name: string]: Value;
}

/** A statement: its SQL alone, or with positional (`?`) or named (`:name`) arguments. */
export type Statement = string | { sql: string; args?: readonly InValue[] | Record<string, InValue> };

export interface Result {
  columns: string[];
  rows: Row[];
  /** Rows a write changed (0 for a read). */
  rowsAffected: number;
  lastInsertRowid: bigint | undefined;
}

/** What reads and writes need: a connection, or a transaction on it. */
export interface Exec {
  execute(stmt: Statement): Promise<Result>;
}

/** A transaction: rolled back on close unless committed. */
export interface Tx extends Exec {
  /** Committed, rolled back, or ended with the connection: nothing more runs in it. */
  readonly closed: boolean;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  close(): void;
}

/** Which driver a database is on. */
export type Engine = "bun" | "libsql" | "remote";

/** One connection to a store: one transaction at a time on it. */
export interface Db extends Exec {
  readonly engine: Engine;
  /** "write" takes the write lock at once (BEGIN IMMEDIATE); "read" sees one moment of the store. */
  transaction(mode: "write" | "read"): Promise<Tx>;
  close(): void;
}

/**
 * A failure of a database call. `code` is SQLite's primary result code (SQLITE_BUSY) or the
 * interface's own (DB_CLOSED, TX_CLOSED, TX_ACTIVE); `extendedCode` the driver's finer one
 * (SQLITE_CONSTRAINT_PRIMARYKEY). The message starts with the code, so a message shown alone
 * (doctor's integrity line) still says which failure it was.
 */
export class DbError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly extendedCode?: string,
    readonly rawCode?: number,
    cause?: unknown,
  ) {
    super(`${code}: ${message}`, { cause });
    this.name = "DbError";
  }
}

/** A database used after its close (a bug of ours: an internal error). */
export const dbClosed = () => new DbError("the store's connection is closed", "DB_CLOSED");

/** A statement run in a transaction that is over. */
export const txClosed = () => new DbError("the transaction is over", "TX_CLOSED");

/** A statement or a second transaction while a transaction holds the connection's one session. */
export const txActive = () =>
  new DbError("a transaction holds this connection; commit or roll it back first", "TX_ACTIVE");
