// The restore block's failure ranking, served by an index. A failure's weight is a base (its
// confidence, a person's rejection, its repeats) halved every half-life since it was last seen:
// log2(weight) = log2(base) + seen / half-life - now / half-life. Within one half-life the last
// term is the same for every failure, so ordering by the stored key log2(base) + seen / half-life
// is ordering by weight at any "now": a project's failures and the global ones are two such
// orders, each read from an index, only its top few. Two parts of the weight the key cannot hold
// are a bounded correction read apart, with all their columns: failures whose key may misorder
// them now (an unstated confidence of a failure seen once is medium within 7 days of the sighting,
// low after; a sighting after "now" has not aged yet), and failures without a key (an odd time or scope, or changed since the key was written). The keys live in
// failure_ranks, this store's own table (never synced): triggers mark a failure's key stale
// whenever anything it is made of changes here (a write, an import, a sync), and each write
// transaction writes the stale keys before it commits (rankStaleFailures).
import type { InValue } from "./db.ts";
import type { Exec } from "./rows.ts";
import { FAILURE_RANK_SELECT, toFailureRank } from "./rows.ts";
import type { FailureRank } from "./records.ts";

const DAY = 24 * 60 * 60 * 1000;

/** A failure not seen again loses one confidence level, and half its weight, per half-life (days). */
export const FAILURE_HALF_LIFE_DAYS = { project: 30, global: 90 } as const;

/** The confidence levels, lowest first: a level's weight is its place + 1. */
export const CONFIDENCE_LEVELS = ["low", "medium", "high"] as const;

/** An unstated confidence is derived from the repeats, and from recency within this window. */
export const RECENT_DAYS = 7;

/** A failure's weight before it ages: its level (+1 for a person's rejection) times its repeats' doublings. */
export function baseWeight(level: number, rejectedBy: string, repeatCount: number): number {
  return (level + 1 + (rejectedBy === "user" ? 1 : 0)) * (1 + Math.log2(Math.max(1, repeatCount)));
}

/** The half-life of a failure of this scope, in ms. */
export const halfLifeMs = (scope: string) =>
  FAILURE_HALF_LIFE_DAYS[scope === "global" ? "global" : "project"] * DAY;

/**
 * A time Date.parse reads the same in every time zone: a date alone, or a time with Z or an offset.
 * Another form ("2026-11-01 10:00") is local time, so no stored key could hold it.
 */
const ZONED = /^\d{4}-\d{2}-\d{2}(T.*(Z|[+-]\d{2}:?\d{2}))?$/i;

/**
 * The stored key of a failure (see the top of this file) and until when it may misorder the
 * failure (rough_until: its 7 days of medium, else its last sighting), or null
 * when no key can order it: an odd time or scope, a global failure kept under a project, a weight
 * of 0. The level is the stated one, else the one the repeats alone give (the 7 days' medium is the
 * correction read apart).
 */
export function rankKey(
  f: FailureRank & { project_id: string | null },
): { key: number; roughUntil: number } | null {
  const seen = Date.parse(f.last_seen);
  const inPlace =
    (f.scope === "project" && f.project_id !== null) || (f.scope === "global" && f.project_id === null);
  if (!inPlace || !Number.isFinite(seen) || !ZONED.test(f.last_seen)) return null;
  const stated = f.confidence ?? (f.repeat_count >= 3 ? "high" : f.repeat_count === 2 ? "medium" : "low");
  const base = baseWeight(CONFIDENCE_LEVELS.indexOf(stated as "low"), f.rejected_by, f.repeat_count);
  if (!(base > 0)) return null;
  const sevenDays = f.confidence === null && f.repeat_count <= 1;
  return {
    key: Math.log2(base) + seen / halfLifeMs(f.scope),
    roughUntil: sevenDays ? seen + RECENT_DAYS * DAY : seen,
  };
}

/** failure_ranks: a row per live failure, its key and last sighting (null until written, or when it has none). */
export const FAILURE_RANKS_MIGRATION = [
  `CREATE TABLE failure_ranks (
    failure_id TEXT PRIMARY KEY,
    project_id TEXT,
    scope TEXT NOT NULL,
    rank_key REAL,
    rough_until REAL,
    stale INTEGER NOT NULL DEFAULT 1
  )`,
  `CREATE INDEX failure_ranks_project ON failure_ranks(project_id, rank_key, rough_until, failure_id)`,
  `CREATE INDEX failure_ranks_project_rough ON failure_ranks(project_id, rough_until, failure_id)`,
  `CREATE INDEX failure_ranks_global ON failure_ranks(rank_key, rough_until, project_id, failure_id) WHERE scope = 'global'`,
  `CREATE INDEX failure_ranks_global_rough ON failure_ranks(rough_until, project_id, failure_id) WHERE scope = 'global'`,
  `CREATE INDEX failure_ranks_stale ON failure_ranks(failure_id) WHERE stale = 1`,
  `CREATE INDEX failures_item ON failures(item)`,
  // Delete-then-insert (see changeLogTriggers): any change of the failure makes its key stale.
  `CREATE TRIGGER failures_rank_ai AFTER INSERT ON failures WHEN new.deleted = 0 BEGIN
    DELETE FROM failure_ranks WHERE failure_id = new.id;
    INSERT INTO failure_ranks(failure_id, project_id, scope) VALUES (new.id, new.project_id, new.scope);
  END`,
  `CREATE TRIGGER failures_rank_au AFTER UPDATE ON failures BEGIN
    DELETE FROM failure_ranks WHERE failure_id = new.id;
    INSERT INTO failure_ranks(failure_id, project_id, scope) SELECT new.id, new.project_id, new.scope WHERE new.deleted = 0;
  END`,
  `CREATE TRIGGER failures_rank_ad AFTER DELETE ON failures BEGIN
    DELETE FROM failure_ranks WHERE failure_id = old.id;
  END`,
  // The repeats: a host's counter, and the counters a forgotten failure counts from.
  ...["INSERT", "UPDATE", "DELETE"].map(
    (op) => `CREATE TRIGGER failure_counts_rank_${op.toLowerCase()} AFTER ${op} ON failure_counts BEGIN
    UPDATE failure_ranks SET stale = 1, rank_key = NULL WHERE failure_id = ${op === "DELETE" ? "old" : "new"}.failure_id;
  END`,
  ),
  ...["INSERT", "UPDATE", "DELETE"].map(
    (op) => `CREATE TRIGGER failure_links_rank_${op.toLowerCase()} AFTER ${op} ON failure_links
    WHEN ${op === "INSERT" ? "new.kind = 'forgotten'" : op === "DELETE" ? "old.kind = 'forgotten'" : "new.kind = 'forgotten' OR old.kind = 'forgotten'"} BEGIN
    UPDATE failure_ranks SET stale = 1, rank_key = NULL WHERE failure_id = ${op === "DELETE" ? "old" : "new"}.failure_id;
  END`,
  ),
  // Every live failure there is at the upgrade, stale: the next write transaction writes the keys.
  `INSERT INTO failure_ranks(failure_id, project_id, scope) SELECT id, project_id, scope FROM failures WHERE deleted = 0`,
];

/** Writes the keys of the failures whose keys are stale, inside the caller's write transaction. */
export async function rankStaleFailures(tx: Exec): Promise<void> {
  const rows = (
    await tx.execute(
      `${FAILURE_RANK_SELECT.replace("SELECT f.id,", "SELECT f.id, f.project_id,")} WHERE f.id IN (SELECT failure_id FROM failure_ranks WHERE stale = 1)`,
    )
  ).rows;
  if (!rows.length) return;
  const keyed = rows.map((r) => {
    const k = rankKey({
      ...toFailureRank(r),
      project_id: r.project_id === null ? null : String(r.project_id),
    });
    return { id: String(r.id), key: k?.key ?? null, rough: k?.roughUntil ?? null };
  });
  await tx.execute({
    sql: `UPDATE failure_ranks SET rank_key = j.value ->> '$.key', rough_until = j.value ->> '$.rough', stale = 0
          FROM json_each(?) j WHERE failure_ranks.failure_id = j.value ->> '$.id'`,
    args: [JSON.stringify(keyed)],
  });
}

/** A margin for rounding between the stored keys and the weights sortFailures computes. */
const EPSILON = 1e-9;

/**
 * The failures a block's first `n` are among (its own project's and the global ones; only the
 * global ones without a project), in no order: every one without a key or whose key may misorder it
 * at `nowMs` (rough_until), and from each keyed order those at or above its `n`th key among the rest (less a margin
 * for rounding, so ties are all in). The caller orders them (sortFailures) and keeps the first `n`.
 * One statement: each place's `n`th key is a subquery read once, not a round trip of its own.
 */
export async function failureCandidates(
  db: Exec,
  projectId: string | null,
  n: number,
  nowMs: number,
): Promise<FailureRank[]> {
  // A project's failures, then the global ones kept under no other project (as failureRanksQuery).
  const places: [string, InValue[]][] = projectId
    ? [
        [`project_id = ?`, [projectId]],
        [`scope = 'global' AND project_id IS NOT ?`, [projectId]],
      ]
    : [[`scope = 'global'`, []]];
  const sql: string[] = [];
  const args: InValue[] = [];
  for (const [where, whereArgs] of places) {
    const nth = `SELECT rank_key - ${EPSILON} FROM failure_ranks WHERE ${where} AND rank_key IS NOT NULL AND rough_until < ? ORDER BY rank_key DESC LIMIT 1 OFFSET ?`;
    sql.push(
      `SELECT failure_id FROM failure_ranks WHERE ${where} AND rank_key IS NULL
       UNION SELECT failure_id FROM failure_ranks WHERE ${where} AND rough_until >= ?
       UNION SELECT failure_id FROM failure_ranks WHERE ${where} AND rank_key >= coalesce((${nth}), -1e308)`,
    );
    args.push(...whereArgs, ...whereArgs, nowMs, ...whereArgs, ...whereArgs, nowMs, Math.max(0, n - 1));
  }
  return (
    await db.execute({ sql: `${FAILURE_RANK_SELECT} WHERE f.id IN (${sql.join(" UNION ")})`, args })
  ).rows.map(toFailureRank);
}

/** How many failures a project's restore block ranks (its own and the global ones). */
export async function rankedFailureCount(db: Exec, projectId: string | null): Promise<number> {
  const global = `SELECT count(*) AS n FROM failure_ranks WHERE scope = 'global'`;
  const r = await db.execute(
    projectId
      ? {
          sql: `SELECT (SELECT count(*) FROM failure_ranks WHERE project_id = ?) + (${global} AND project_id IS NOT ?) AS n`,
          args: [projectId, projectId],
        }
      : global,
  );
  return Number(r.rows[0]?.n ?? 0);
}

/**
 * The live failures a block ranks whose item is one of `items` (the lines a kept line may equal),
 * but those with an id in `except` (the block's read ones: their repeats are not summed again).
 */
export async function failuresWithItems(
  db: Exec,
  projectId: string | null,
  items: string[],
  except: string[] = [],
): Promise<FailureRank[]> {
  if (!items.length) return [];
  return (
    await db.execute({
      // Found by item (failures_item): the unary + keeps SQLite from scanning by project instead.
      sql: `${FAILURE_RANK_SELECT} WHERE f.item IN (SELECT value FROM json_each(?)) AND +f.deleted = 0
            AND (+f.project_id = ? OR (+f.scope = 'global' AND (? IS NULL OR +f.project_id IS NOT ?)))
            AND +f.id NOT IN (SELECT value FROM json_each(?))`,
      args: [JSON.stringify(items), projectId, projectId, projectId, JSON.stringify(except)],
    })
  ).rows.map(toFailureRank);
}
