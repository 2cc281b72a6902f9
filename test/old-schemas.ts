// A store taken back to an older schema, as the MindSave of that schema left it: every table,
// trigger and index a later migration made is dropped, and every column it added to an older table
// (schema 9's stored token counts), and the version set back, so an open runs those migrations again.
import { join } from "node:path";
import { INDEXES, MIGRATIONS } from "../src/store/migrations.ts";
import { sql, tempDir } from "./helpers.ts";

const OBJECTS = "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'";

/** The tables, triggers and indexes the first `version` migrations make, by name, and each table's columns. */
async function madeUpTo(version: number): Promise<{ names: Set<string>; columns: Map<string, Set<string>> }> {
  const fresh = join(tempDir(), `schema-${version}.db`);
  for (const step of MIGRATIONS.slice(0, version))
    for (const statement of step()) await sql(fresh, statement);
  const objects = await sql(fresh, OBJECTS);
  const columns = new Map<string, Set<string>>();
  for (const o of objects.filter((x) => x.type === "table"))
    columns.set(String(o.name), new Set((await tableColumns(fresh, String(o.name))).map(String)));
  return { names: new Set(objects.map((o) => String(o.name))), columns };
}

const tableColumns = async (db: string, table: string) =>
  (await sql(db, `PRAGMA table_info("${table}")`)).map((c) => String(c.name));

export async function backToSchema(db: string, version: number): Promise<void> {
  const made = await madeUpTo(version);
  const keep = made.names;
  for (const i of INDEXES) keep.add(i.name);
  const later = (await sql(db, OBJECTS)).filter((o) => !keep.has(String(o.name)));
  // Triggers first, then indexes, then tables (a table's drop takes its own indexes and triggers).
  for (const type of ["trigger", "index", "table"])
    for (const o of later.filter((x) => x.type === type)) {
      const exists = await sql(db, "SELECT 1 FROM sqlite_master WHERE name = ?", [o.name]);
      if (exists.length) await sql(db, `DROP ${type.toUpperCase()} "${String(o.name)}"`);
    }
  for (const [table, columns] of made.columns)
    for (const c of await tableColumns(db, table))
      if (!columns.has(c)) await sql(db, `ALTER TABLE "${table}" DROP COLUMN "${c}"`);
  await sql(db, "UPDATE meta SET value = ? WHERE key = 'schema_version'", [String(version)]);
}
