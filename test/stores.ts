// What the property and crash tests read from a store file directly: its replicated rows, and
// SQLite's own verdict on the file.
import { SYNCED_TABLES } from "../src/store/migrations.ts";
import type { Db } from "../src/store/db.ts";
import { sql, storeClient } from "./helpers.ts";

/** Every replicated row of a store, keyed `table:key`, in key order: what two synced stores must share. */
export async function replicatedRows(db: string): Promise<Map<string, Record<string, unknown>>> {
  // Through Bun's SQLite, as every other read here: libSQL's copy of SQLite in this process too would
  // share its POSIX locks, and a closed libSQL client keeps the file open until it is collected.
  const c = await storeClient(db);
  try {
    return await replicatedRowsOf(c);
  } finally {
    c.close();
  }
}

/** `replicatedRows` through a connection the caller holds open (one per store, however many reads). */
export async function replicatedRowsOf(c: Db): Promise<Map<string, Record<string, unknown>>> {
  const out: [string, Record<string, unknown>][] = [];
  for (const t of SYNCED_TABLES) {
    for (const r of (await c.execute(`SELECT * FROM ${t.name}`)).rows) {
      const row = Object.fromEntries(Object.entries(r).filter(([k]) => !/^\d+$/.test(k)));
      out.push([`${t.name}:${t.key.map((k) => row[k]).join("|")}`, row]);
    }
  }
  return new Map(out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** `PRAGMA integrity_check` of a store file: "ok" when SQLite finds nothing wrong. */
export async function integrity(db: string): Promise<string> {
  return (await sql(db, "PRAGMA integrity_check")).map((r) => String(r.integrity_check)).join("; ");
}
