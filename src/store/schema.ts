// Whose a store file is and which schema it has, and bringing it up to this build's schema in one
// write transaction (the steps are in migrations.ts).
import { INDEXES, MIGRATIONS, SCHEMA_VERSION } from "./migrations.ts";
import { FRESH_SCHEMA, FRESH_SCHEMA_VERSION } from "./fresh-schema.ts";
import { makeFailureSearch } from "./failure-search.ts";
import type { Db, Tx } from "./db.ts";
import { StoreProblem } from "./problems.ts";
import { type Exec, str } from "./rows.ts";
import { asBytes, textOf } from "./salvage.ts";

/** The mark a MindSave store carries in its meta table. */
const APP_MARK = "mindsave";

/** Whether a file is a MindSave store (or empty), and its schema version. */
export interface Ownership {
  ours: boolean;
  empty: boolean;
  version: number;
}

export async function readOwnership(db: Exec): Promise<Ownership> {
  // Counted, not listed: no name is read, and none of the store's tables is made a string for it.
  const schema = (
    await db.execute(
      "SELECT count(*) AS tables, coalesce(max(name = 'meta'), 0) AS meta FROM sqlite_master WHERE type = 'table'",
    )
  ).rows[0];
  if (Number(schema?.tables ?? 0) === 0) return { ours: true, empty: true, version: 0 };
  if (Number(schema?.meta) !== 1) return { ours: false, empty: false, version: 0 };
  // Text read as bytes: a damaged page's invalid UTF-8 would abort the driver (see salvage.ts).
  const rows = (
    await db.execute(
      `SELECT ${asBytes("key")}, ${asBytes("value")} FROM meta WHERE key IN ('app', 'schema_version')`,
    )
  ).rows;
  const meta = Object.fromEntries(rows.map((r) => [str(textOf(r.key)), str(textOf(r.value))]));
  return { ours: meta.app === APP_MARK, empty: false, version: Number(meta.schema_version ?? 0) };
}

/** Refuses another program's database, and a store written by a newer MindSave. */
export function refuseForeign(path: string, o: Ownership): void {
  if (!o.ours) {
    throw new StoreProblem(
      "foreign",
      path,
      `${path} is a SQLite database but not a MindSave store; refusing to touch it.`,
    );
  }
  if (o.version > SCHEMA_VERSION) {
    throw new StoreProblem(
      "newer",
      path,
      `${path} was written by a newer MindSave (store schema ${o.version}; this build knows up to ${SCHEMA_VERSION}); update MindSave to use it.`,
    );
  }
}

/**
 * The statements that bring a store to this build's schema: a new store is made with the final
 * schema at once (a third of the instructions of running each migration in turn, whose every
 * ALTER re-reads the whole schema); an existing one runs the migrations it lacks.
 */
function stepsFrom(now: Ownership): readonly string[] {
  if (now.empty && FRESH_SCHEMA_VERSION === SCHEMA_VERSION) return FRESH_SCHEMA;
  const steps: string[] = [];
  for (let v = now.version; v < SCHEMA_VERSION; v++) steps.push(...MIGRATIONS[v]());
  return steps;
}

/**
 * Runs the migrations a store lacks in one write transaction; true when it wrote any. `made`: what
 * a store made now gets in that same transaction too.
 */
export async function migrateSchema(
  conn: Db,
  path: string,
  made?: (tx: Tx) => Promise<void>,
): Promise<boolean> {
  const tx = await conn.transaction("write");
  try {
    // Checked again under the write lock: another process may have migrated meanwhile.
    const now = await readOwnership(tx);
    refuseForeign(path, now);
    if (now.version >= SCHEMA_VERSION) return false;
    for (const sql of stepsFrom(now)) await tx.execute(sql);
    const set =
      "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value";
    await tx.execute({ sql: set, args: ["app", APP_MARK] });
    await tx.execute({ sql: set, args: ["schema_version", String(SCHEMA_VERSION)] });
    if (now.empty) {
      await tx.execute({ sql: set, args: ["store_id", crypto.randomUUID()] });
      await tx.execute({ sql: set, args: ["created_at", new Date().toISOString()] });
      await made?.(tx);
    }
    await tx.commit();
    return true;
  } finally {
    tx.close();
  }
}

/**
 * A local store made now gets its derived indexes and failure search with its schema: one commit,
 * not three (the first hook in a new home makes the store, and each commit syncs the disk). Where
 * this SQLite cannot make the failure search (no trigram tokenizer), the store is made without it,
 * as ensureFailureSearch would leave it.
 */
export async function makeDerived(tx: Tx): Promise<void> {
  for (const i of INDEXES) await tx.execute(i.sql);
  await tx.execute("SAVEPOINT failure_search");
  try {
    await makeFailureSearch(tx);
  } catch {
    await tx.execute("ROLLBACK TO failure_search");
  }
  await tx.execute("RELEASE failure_search");
}
