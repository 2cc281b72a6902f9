// A store on a libSQL server (sqld, Turso) as a Db (db.ts), through the libSQL client: its
// failures (LibsqlError) become DbErrors with the same codes, so the store's error mapping reads
// a server's failures as it reads a file's.
import type { Client, Transaction } from "@libsql/client";
import { type Db, DbError, type Result, type Statement, type Tx } from "./db.ts";
import { loadDriver } from "./driver.ts";

/** The client's error as a DbError (its message without the code it starts with); others as they are. */
function serverError(e: unknown): unknown {
  const x = e as { code?: unknown; extendedCode?: unknown; rawCode?: unknown } | null;
  if (!(e instanceof Error) || e instanceof DbError || typeof x?.code !== "string") return e;
  const message = e.message.startsWith(`${x.code}: `) ? e.message.slice(x.code.length + 2) : e.message;
  return new DbError(
    message,
    x.code,
    typeof x.extendedCode === "string" ? x.extendedCode : undefined,
    typeof x.rawCode === "number" ? x.rawCode : undefined,
    e,
  );
}

async function run<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw serverError(e);
  }
}

async function execute(on: Pick<Client, "execute">, statement: Statement): Promise<Result> {
  const r = await run(() => on.execute(statement as Parameters<Client["execute"]>[0]));
  return {
    columns: r.columns,
    rows: r.rows,
    rowsAffected: r.rowsAffected,
    lastInsertRowid: r.lastInsertRowid,
  };
}

class RemoteTx implements Tx {
  constructor(private readonly tx: Transaction) {}
  get closed(): boolean {
    return this.tx.closed;
  }
  execute(statement: Statement): Promise<Result> {
    return execute(this.tx, statement);
  }
  commit(): Promise<void> {
    return run(() => this.tx.commit());
  }
  rollback(): Promise<void> {
    return run(() => this.tx.rollback());
  }
  close(): void {
    this.tx.close();
  }
}

class RemoteDb implements Db {
  readonly engine = "remote";
  constructor(private readonly client: Client) {}
  execute(statement: Statement): Promise<Result> {
    return execute(this.client, statement);
  }
  async transaction(mode: "write" | "read"): Promise<Tx> {
    return new RemoteTx(await run(() => this.client.transaction(mode)));
  }
  close(): void {
    this.client.close();
  }
}

/**
 * The server at `url`; the client's own error when the URL is not one it can use. A `file:` URL is
 * refused: the client would open that file through libSQL's SQLite, out of sight of openDb, which
 * keeps one SQLite library per file in this process (driver.ts).
 */
export async function remoteDb(url: string, authToken?: string): Promise<Db> {
  if (/^file:/i.test(url.trim()))
    throw new Error("a store file is opened as a file (openDb), not as a server");
  const { createClient } = await loadDriver();
  return new RemoteDb(createClient({ url, authToken }));
}
