// The first command (often a hook) in a new home makes the store: its schema, the derived indexes
// and the failure search in one transaction, so one commit (one sync of the log) instead of three;
// the schema made at once (src/store/fresh-schema.ts), the same one the migrations make in turn.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Store } from "../src/store/store.ts";
import { INDEXES, SCHEMA_VERSION } from "../src/store/migrations.ts";
import { FRESH_SCHEMA, FRESH_SCHEMA_VERSION } from "../src/store/fresh-schema.ts";
import { freshStatements, migratedDatabase, schemaObjects } from "./fresh-schema.ts";
import { tempDir } from "./helpers.ts";

/** The commits in a WAL file: frames whose header names the database's size after a commit. */
function walCommits(wal: string): number {
  const bytes = readFileSync(wal);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pageSize = view.getUint32(8);
  let commits = 0;
  for (let at = 32; at + 24 + pageSize <= bytes.length; at += 24 + pageSize)
    if (view.getUint32(at + 4) !== 0) commits++;
  return commits;
}

test("a new store is made in one commit: its schema, the derived indexes and the failure search together", async () => {
  const path = join(tempDir("mindsave-first-store-"), "mindsave.db");
  const store = await Store.open(path);
  try {
    // Read before close, which folds the log into the file.
    expect(walCommits(`${path}-wal`)).toBe(1);
  } finally {
    await store.closeAsync();
  }
  const db = new Database(path, { readonly: true });
  try {
    const names = db
      .query("SELECT name FROM sqlite_master")
      .all()
      .map((r) => (r as { name: string }).name);
    expect(names).toEqual(expect.arrayContaining([...INDEXES.map((i) => i.name), "failure_search"]));
    expect(names.filter((n) => n.startsWith("failure_search_")).sort()).toEqual([
      "failure_search_config",
      "failure_search_content",
      "failure_search_data",
      "failure_search_del",
      "failure_search_docsize",
      "failure_search_idx",
      "failure_search_ins",
      "failure_search_link_ins",
      "failure_search_link_upd",
      "failure_search_upd",
    ]);
  } finally {
    db.close();
  }
});

/** What a store file holds besides rows: its objects by name, and each full-text index's settings. */
function schemaOf(path: string): { objects: unknown[]; settings: unknown[]; changes: number } {
  const db = new Database(path, { readonly: true });
  try {
    const objects = schemaObjects(db).sort((a, b) => a.name.localeCompare(b.name));
    const settings = ["snapshot_search_config", "failure_search_config"].map((t) =>
      db.query(`SELECT * FROM ${t} ORDER BY k`).all(),
    );
    // Every statement that changes the schema adds one.
    const changes = (db.query("PRAGMA schema_version").get() as { schema_version: number }).schema_version;
    return { objects, settings, changes };
  } finally {
    db.close();
  }
}

test("a new store is made with the final schema at once: the store the migrations make in turn, with fewer schema changes", async () => {
  // After a new migration: `bun test/fresh-schema.ts` writes src/store/fresh-schema.ts again.
  expect(FRESH_SCHEMA_VERSION).toBe(SCHEMA_VERSION);
  expect([...FRESH_SCHEMA]).toEqual(freshStatements());

  const made = join(tempDir("mindsave-fresh-schema-"), "mindsave.db");
  await (await Store.open(made)).closeAsync();

  // The same store upgraded step by step: every migration run in turn on the file, then opened.
  const migrated = join(tempDir("mindsave-migrated-schema-"), "mindsave.db");
  const db = migratedDatabase(migrated);
  db.run("INSERT INTO meta(key, value) VALUES ('app', 'mindsave'), ('schema_version', ?)", [
    String(SCHEMA_VERSION),
  ]);
  db.close();
  await (await Store.open(migrated)).closeAsync();

  const fresh = schemaOf(made);
  const upgraded = schemaOf(migrated);
  expect(fresh.objects).toEqual(upgraded.objects);
  expect(fresh.settings).toEqual(upgraded.settings);
  expect(fresh.changes).toBeLessThan(upgraded.changes);
});
