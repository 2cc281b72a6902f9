// The snapshots' full-text index filled once after many inserts, instead of by the insert trigger
// row by row. FTS5 flushes its pending terms to a new segment at the end of every statement, so
// snapshots inserted one statement each make a segment apiece; one INSERT … SELECT after them
// fills the same index (the same recall) for less.
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
 * Indexes the live rows inserted since `deferSearch` with the trigger's own text, and makes the
 * trigger again as it was. What an update trigger indexed of those rows meanwhile is taken out
 * first: one statement inserting into the index must not also read it (SQLite would then hold all
 * of its rows in memory first).
 */
export async function resumeSearch(db: Exec, d: DeferredSearch): Promise<void> {
  await db.execute({ sql: "DELETE FROM snapshot_search WHERE rowid > ?", args: [d.after] });
  await db.execute({
    sql: `INSERT INTO snapshot_search(rowid, layer1, layer2, layer3) SELECT ${snapshotSearchText("s")} FROM snapshots s WHERE s.rowid > ? AND s.deleted = 0`,
    args: [d.after],
  });
  await db.execute(d.trigger);
}
