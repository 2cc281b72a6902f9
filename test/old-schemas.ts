// A store taken back to an older schema, as the MindSave of that schema left it: every table,
// trigger and index a later migration made is dropped and the version set back, so an open runs
// those migrations again. (No migration so far adds a column to an older table.)
import { join } from "node:path";
import { INDEXES, MIGRATIONS } from "../src/store/migrations.ts";
import { sql, tempDir } from "./helpers.ts";

const OBJECTS = "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'";

/** The tables, triggers and indexes the first `version` migrations make, by name. */
async function madeUpTo(version: number): Promise<Set<string>> {
  const fresh = join(tempDir(), `schema-${version}.db`);
  for (const step of MIGRATIONS.slice(0, version)) for (const statement of step) await sql(fresh, statement);
  return new Set((await sql(fresh, OBJECTS)).map((o) => String(o.name)));
}

export async function backToSchema(db: string, version: number): Promise<void> {
  const keep = await madeUpTo(version);
  for (const i of INDEXES) keep.add(i.name);
  const later = (await sql(db, OBJECTS)).filter((o) => !keep.has(String(o.name)));
  // Triggers first, then indexes, then tables (a table's drop takes its own indexes and triggers).
  for (const type of ["trigger", "index", "table"])
    for (const o of later.filter((x) => x.type === type)) {
      const exists = await sql(db, "SELECT 1 FROM sqlite_master WHERE name = ?", [o.name]);
      if (exists.length) await sql(db, `DROP ${type.toUpperCase()} "${String(o.name)}"`);
    }
  await sql(db, "UPDATE meta SET value = ? WHERE key = 'schema_version'", [String(version)]);
}
