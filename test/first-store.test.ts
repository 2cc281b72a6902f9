// The first command (often a hook) in a new home makes the store: its schema, the derived indexes
// and the failure search in one transaction, so one commit (one sync of the log) instead of three.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Store } from "../src/store/store.ts";
import { INDEXES } from "../src/store/migrations.ts";
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
