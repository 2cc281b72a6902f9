// The schema a new store is made with (src/store/fresh-schema.ts), worked out from the migrations:
// each of them run in turn on an empty database, then every object it holds read back in the order
// it was made, as SQLite keeps it (an ALTER'd table's CREATE statement with its added columns).
// `bun test/fresh-schema.ts` writes the module again after a migration is added; test/fresh-schema.test.ts
// checks it is up to date.
import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { MIGRATIONS, SCHEMA_VERSION } from "../src/store/migrations.ts";

export const FRESH_SCHEMA_FILE = join(import.meta.dir, "..", "src", "store", "fresh-schema.ts");

/** Every object of an empty database the migrations were run on: type, name and statement, in the order made. */
export function schemaObjects(db: Database): { type: string; name: string; sql: string | null }[] {
  return db.query("SELECT type, name, sql FROM sqlite_master ORDER BY rowid").all() as {
    type: string;
    name: string;
    sql: string | null;
  }[];
}

/** The database the migrations make, one after another (in memory, or in file `path`). */
export function migratedDatabase(path = ":memory:"): Database {
  const db = new Database(path);
  for (const step of MIGRATIONS) for (const sql of step()) db.exec(sql);
  return db;
}

/**
 * The statements that make the migrations' schema at once: SQLite's own objects (sqlite_sequence,
 * automatic indexes) and a virtual table's shadow tables are made by the statements that need them.
 */
export function freshStatements(): string[] {
  const objects = schemaObjects(migratedDatabase());
  const virtual = objects.filter((o) => o.type === "table" && /^CREATE VIRTUAL TABLE/i.test(o.sql ?? ""));
  const shadow = (name: string) => virtual.some((v) => name.startsWith(`${v.name}_`));
  return objects
    .filter((o) => o.sql !== null && !o.name.startsWith("sqlite_") && !shadow(o.name))
    .map((o) => o.sql!);
}

/** The module's text, as `bun test/fresh-schema.ts` writes it. */
export function freshSchemaModule(): string {
  const literal = (sql: string) => "`" + sql.replace(/[`\\]/g, "\\$&").replace(/\$\{/g, "\\${") + "`";
  return [
    "// The schema a new store is made with at once, instead of running every migration in turn (a",
    "// first hook in a new home makes the store). Written by `bun test/fresh-schema.ts` from",
    "// migrations.ts; test/fresh-schema.test.ts checks it is what the migrations make. Do not edit.",
    "",
    "/** The schema version these statements make: used only while it is migrations.ts's. */",
    `export const FRESH_SCHEMA_VERSION = ${SCHEMA_VERSION};`,
    "",
    "export const FRESH_SCHEMA: readonly string[] = [",
    ...freshStatements().map((sql) => `  ${literal(sql)},`),
    "];",
    "",
  ].join("\n");
}

if (import.meta.main) {
  writeFileSync(FRESH_SCHEMA_FILE, freshSchemaModule());
  Bun.spawnSync(["bun", "--bun", "prettier", "--write", FRESH_SCHEMA_FILE], { stdout: "ignore" });
  console.log(`wrote ${FRESH_SCHEMA_FILE} (schema ${SCHEMA_VERSION})`);
}
