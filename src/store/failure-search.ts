// The failure graph's words, indexed for the repeat warnings (a prompt or a tool call matched
// against the failures before it runs): an FTS5 trigram index of each failure's item and related
// terms, so a hook reads only the failures that share a word with what it was given, never every
// failure of the project. Like INDEXES (migrations.ts), it is made on any writable open that
// lacks it, outside the schema version: it is derived, this store's own, never synced. Triggers
// keep it current on every write, import and sync; a row's rowid is its failure's.
import type { Db } from "./db.ts";
import type { Exec } from "./rows.ts";
import { writeIfFree } from "./migrations.ts";

/** The index's rows of the live failures `where` picks: each one's item and its live related terms. */
const BODY = (where: string) =>
  `SELECT f.rowid, f.item || ' ' || coalesce((SELECT group_concat(l.value, ' ') FROM failure_links l
     WHERE l.failure_id = f.id AND l.kind = 'related' AND l.deleted = 0), '')
   FROM failures f WHERE ${where} AND f.deleted = 0`;

/** The index's row of the failure whose rowid is `rid`, written again. */
const REFILL = (rid: string) =>
  `DELETE FROM failure_search WHERE rowid = ${rid}; INSERT INTO failure_search(rowid, body) ${BODY(`f.rowid = ${rid}`)};`;

/** The rowid of the failure a link row is of. */
const LINK_RID = (row: "new" | "old") => `(SELECT rowid FROM failures WHERE id = ${row}.failure_id)`;

const OBJECTS: readonly { name: string; sql: string }[] = [
  {
    name: "failure_search",
    sql: "CREATE VIRTUAL TABLE failure_search USING fts5(body, tokenize='trigram')",
  },
  {
    name: "failure_search_ins",
    sql: `CREATE TRIGGER failure_search_ins AFTER INSERT ON failures BEGIN ${REFILL("new.rowid")} END`,
  },
  {
    name: "failure_search_upd",
    sql: `CREATE TRIGGER failure_search_upd AFTER UPDATE ON failures BEGIN
      DELETE FROM failure_search WHERE rowid = old.rowid; ${REFILL("new.rowid")} END`,
  },
  {
    name: "failure_search_del",
    sql: "CREATE TRIGGER failure_search_del AFTER DELETE ON failures BEGIN DELETE FROM failure_search WHERE rowid = old.rowid; END",
  },
  {
    name: "failure_search_link_ins",
    sql: `CREATE TRIGGER failure_search_link_ins AFTER INSERT ON failure_links WHEN new.kind = 'related' BEGIN ${REFILL(LINK_RID("new"))} END`,
  },
  {
    name: "failure_search_link_upd",
    sql: `CREATE TRIGGER failure_search_link_upd AFTER UPDATE ON failure_links WHEN new.kind = 'related' BEGIN ${REFILL(LINK_RID("new"))} END`,
  },
];

/** Makes the index and its triggers when a store lacks them, and fills it; true when it made them. */
export async function ensureFailureSearch(db: Pick<Db, "execute" | "transaction">): Promise<boolean> {
  const names = OBJECTS.map((o) => `'${o.name}'`).join(", ");
  const have = Number(
    (await db.execute(`SELECT count(*) AS n FROM sqlite_master WHERE name IN (${names})`)).rows[0]?.n ?? 0,
  );
  if (have === OBJECTS.length) return false;
  // Another writer holding the lock: a later open makes it (the warnings find nothing till then);
  // a SQLite without FTS5's trigram tokenizer: no warnings, nothing else lost.
  return writeIfFree(db, makeFailureSearch);
}

/** Makes the index and its triggers (again), filled, in the caller's write transaction. */
export async function makeFailureSearch(tx: Exec): Promise<void> {
  for (const o of OBJECTS)
    await tx.execute(`DROP ${o.name === "failure_search" ? "TABLE" : "TRIGGER"} IF EXISTS ${o.name}`);
  for (const o of OBJECTS) await tx.execute(o.sql);
  await tx.execute(`INSERT INTO failure_search(rowid, body) ${BODY("1")}`);
}

/** How many failures one match may read at most: a common word is no reason to read a thousand. */
export const MAX_FAILURE_MATCHES = 50;

/**
 * The ids of live failures of a project and the global ones whose item or related terms contain
 * any of `terms` (each three characters or more), best matched first. Empty when the store has
 * no index yet.
 */
export async function failuresMatching(
  db: Exec,
  projectId: string | null,
  terms: string[],
): Promise<string[]> {
  const long = [...new Set(terms.filter((t) => [...t].length >= 3))];
  if (!long.length) return [];
  const present = await db.execute({
    sql: "SELECT 1 FROM sqlite_master WHERE name = 'failure_search'",
    args: [],
  });
  if (!present.rows.length) return [];
  const match = long.map((t) => `"${t.replaceAll('"', '""')}"`).join(" OR ");
  const rows = await db.execute({
    sql: `SELECT f.id FROM (SELECT rowid, rank FROM failure_search WHERE failure_search MATCH ? ORDER BY rank LIMIT ?) m
          JOIN failures f ON f.rowid = m.rowid
          WHERE f.deleted = 0 AND (f.project_id = ? OR f.scope = 'global') ORDER BY m.rank`,
    args: [match, MAX_FAILURE_MATCHES * 4, projectId] as never,
  });
  return rows.rows.map((r) => String(r.id)).slice(0, MAX_FAILURE_MATCHES);
}
