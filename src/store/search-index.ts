// The snapshots' full-text index filled once after many inserts, instead of by the insert trigger
// row by row. FTS5 flushes its pending terms to a new segment at the end of every statement, so
// snapshots inserted one statement each make a segment apiece; INSERT … SELECT statements of many
// rows after them fill the same index (the same recall) for less.
import { snapshotSearchText } from "./migrations.ts";
import { str, type Exec } from "./rows.ts";

const TRIGGER = "snapshots_ai";

/** What `resumeSearch` needs: the trigger as this store wrote it, and the last rowid it had indexed. */
export interface DeferredSearch {
  trigger: string;
  after: number;
}

/**
 * Drops the insert trigger (inside the caller's write transaction: a kill or an error rolls the
 * drop back with everything else). Null when there is nothing to defer.
 */
export async function deferSearch(db: Exec): Promise<DeferredSearch | null> {
  const trigger = (
    await db.execute({
      sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?",
      args: [TRIGGER],
    })
  ).rows[0];
  const max = Number(
    (await db.execute("SELECT coalesce(max(rowid), 0) AS n FROM snapshots")).rows[0]?.n ?? 0,
  );
  // New rows take rowids past the largest one, unless it is the largest SQLite has (never, here).
  if (!trigger || !(max < Number.MAX_SAFE_INTEGER)) return null;
  await db.execute(`DROP TRIGGER ${TRIGGER}`);
  return { trigger: str(trigger.sql), after: max };
}

/**
 * Snapshots indexed per statement. Inside a transaction SQLite keeps, for each statement, the old
 * content of every page it rewrites (to undo that statement alone), and the index's merges rewrite
 * more of it the larger the index is. An encrypted store keeps that journal in memory (a temporary
 * file would hold its pages in clear): 500 snapshots into 10,000 in one statement took 41 MB.
 */
const FILL_ROWS = 50;

/**
 * Indexes the live rows inserted since `deferSearch` with the trigger's own text, and makes the
 * trigger again as it was. What an update trigger indexed of those rows meanwhile is taken out
 * first: one statement inserting into the index must not also read it (SQLite would then hold all
 * of its rows in memory first).
 */
export async function resumeSearch(db: Exec, d: DeferredSearch): Promise<void> {
  await db.execute({ sql: "DELETE FROM snapshot_search WHERE rowid > ?", args: [d.after] });
  const last = Number(
    (await db.execute("SELECT coalesce(max(rowid), 0) AS n FROM snapshots")).rows[0]?.n ?? 0,
  );
  for (let from = d.after; from < last; from += FILL_ROWS)
    await db.execute({
      sql: `INSERT INTO snapshot_search(rowid, layer1, layer2, layer3) SELECT ${snapshotSearchText("s")} FROM snapshots s WHERE s.rowid > ? AND s.rowid <= ? AND s.deleted = 0`,
      args: [from, from + FILL_ROWS],
    });
  await db.execute(d.trigger);
}

/**
 * Pages of merge work one step writes: bounded, so the log a step leaves stays small (about 10 MB
 * here) whatever the index's size, and a step commits on its own.
 */
const MERGE_PAGES = 2000;

/**
 * One step of merging the snapshots' index into one segment (FTS5's 'merge' with a negative count:
 * every segment on one level, merged like 'optimize' but at most MERGE_PAGES pages a call). True when
 * it did work (FTS5 says so by the rows it changed); false once the index is one segment.
 */
export async function mergeSearchStep(db: Exec): Promise<boolean> {
  const changes = async () => Number((await db.execute("SELECT total_changes() AS n")).rows[0]?.n ?? 0);
  const before = await changes();
  await db.execute(`INSERT INTO snapshot_search(snapshot_search, rank) VALUES ('merge', -${MERGE_PAGES})`);
  return (await changes()) - before >= 2;
}

/** How many snapshots the full-text index holds. */
export async function indexedSnapshots(db: Exec): Promise<number> {
  return Number((await db.execute("SELECT count(*) AS n FROM snapshot_search_docsize")).rows[0]?.n ?? 0);
}
