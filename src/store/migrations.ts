// Versioned schema migrations. The program creates and upgrades the schema itself; each step runs
// inside the same write transaction as the version bump, so a store is never half-migrated.
//
// Sync-ready by design: every replicated row has a globally unique text id (never an autoincrement),
// the host that last wrote it, a hybrid logical clock (`hlc`) and a tombstone flag (`deleted`).
// Counters that several hosts bump (a failure's repeat_count) are one row per host.
import type { Db, Tx } from "./db.ts";
import { FAILURE_RANKS_MIGRATION } from "./failure-ranks.ts";

/**
 * What the full-text index holds for a snapshot: the readable text of each layer (list items one
 * per line, failures as "item: reason"), not the JSON it is stored as, and not the snapshot's id,
 * whose date would match every search for a number. `row` names the snapshot row (`new` in the
 * triggers). The select list: rowid, layer1, layer2, layer3.
 */
function searchParts(row: string): [string, string, string, string] {
  const r = (sql: string) => sql.replaceAll("new.", `${row}.`);
  return [
    r(`new.rowid`),
    r(`new.goal || char(10) || new.state || char(10) || new.next_action || char(10) || new.blocker || char(10) ||
    coalesce((SELECT group_concat(json_extract(value, '$.path'), char(10)) FROM json_each(new.active_files)), '')`),
    r(`coalesce((SELECT group_concat(value, char(10)) FROM json_each(new.constraints)), '') || char(10) ||
    coalesce((SELECT group_concat(value, char(10)) FROM json_each(new.decisions)), '') || char(10) ||
    coalesce((SELECT group_concat(key || ': ' || coalesce(json_extract(value, '$.reason'), ''), char(10)) FROM json_each(new.failure_graph)), '')`),
    r(`new.layer3 || char(10) || coalesce(new.extra, '') || char(10) ||
    coalesce((SELECT group_concat(value, char(10)) FROM json_each(new.compressed, '$.original_constraints')), '')`),
  ];
}

/** The search text of schemas 1–3 (migration 1's triggers). */
const searchText1to3 = () => searchParts("new").join(",\n  ");

/**
 * The search text since schema 4: Layer 1 also holds the plan's steps and the tags, so recall and
 * the TUI's filter find a snapshot by them.
 */
export function snapshotSearchText(row: string): string {
  const [rowid, layer1, layer2, layer3] = searchParts(row);
  const plan = `coalesce((SELECT group_concat(json_extract(value, '$.content'), char(10)) FROM json_each(${row}.plan)), '')`;
  const tags = `coalesce((SELECT group_concat(value, ' ') FROM json_each(${row}.tags)), '')`;
  return [rowid, `${layer1} || char(10) ||\n    ${plan} || char(10) || ${tags}`, layer2, layer3].join(
    ",\n  ",
  );
}

type SyncedTable = { name: string; key: readonly string[]; counter?: true };

/** The tables of schema 3 (migration 3 logs exactly these; later tables log from their own step). */
const SYNCED_TABLES_3: readonly SyncedTable[] = [
  { name: "hosts", key: ["id"] },
  { name: "projects", key: ["id"] },
  { name: "roots", key: ["id"] },
  { name: "snapshots", key: ["id"] },
  { name: "failures", key: ["id"] },
  { name: "failure_counts", key: ["failure_id", "host_id"], counter: true },
  { name: "failure_links", key: ["id"] },
  { name: "signals", key: ["project_id"] },
  { name: "tool_calls", key: ["id"] },
];

/** Standing rules, facts and retirements (migration 4): records with ids, clocks and tombstones. */
const SYNCED_TABLES_4: readonly SyncedTable[] = [
  { name: "rules", key: ["id"] },
  { name: "facts", key: ["id"] },
  { name: "retirements", key: ["id"] },
];

/** MindSave switched off (migration 7): for a project, or for every project on one host. */
const SYNCED_TABLES_7: readonly SyncedTable[] = [{ name: "off_switches", key: ["id"] }];

/** The tables sync merges, with their keys; failure_counts merge as per-host counters (max). */
export const SYNCED_TABLES: readonly SyncedTable[] = [
  ...SYNCED_TABLES_3,
  ...SYNCED_TABLES_4,
  ...SYNCED_TABLES_7,
];

/** The change-log triggers of a synced table (see migration 3). */
function changeLogTriggers(tables: readonly SyncedTable[]): string[] {
  return tables.flatMap(({ name, key }) =>
    ["INSERT", "UPDATE"].map(
      (op) =>
        // Delete-then-insert, not INSERT OR REPLACE: an outer upsert's conflict rule would override
        // the trigger's OR REPLACE and fail on the unique key.
        `CREATE TRIGGER ${name}_log_${op.toLowerCase()} AFTER ${op} ON ${name} BEGIN
      DELETE FROM changes WHERE tbl = '${name}' AND key = ${key.map((k) => `new.${k}`).join(" || char(31) || ")};
      INSERT INTO changes(tbl, key, origin)
      VALUES ('${name}', ${key.map((k) => `new.${k}`).join(" || char(31) || ")}, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
    ),
  );
}

/** Schema 1's record of where projects live: the meta table, hosts, projects and their roots. */
const coreProjects = (): string[] => [
  `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  `CREATE TABLE hosts (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      platform TEXT NOT NULL,
      first_seen TEXT NOT NULL,
      last_seen TEXT NOT NULL,
      hlc TEXT NOT NULL, host TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0
    )`,
  `CREATE TABLE projects (
      id TEXT PRIMARY KEY,
      identity TEXT NOT NULL,
      name TEXT NOT NULL,
      remote TEXT,
      created_at TEXT NOT NULL,
      merged_into TEXT,
      hlc TEXT NOT NULL, host TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0
    )`,
  `CREATE INDEX projects_identity ON projects(identity)`,
  `CREATE TABLE roots (
      id TEXT PRIMARY KEY,
      project_id TEXT NOT NULL,
      host_id TEXT NOT NULL,
      path TEXT NOT NULL,
      last_used TEXT NOT NULL,
      hlc TEXT NOT NULL, host TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0
    )`,
  `CREATE INDEX roots_host ON roots(host_id, path)`,
  `CREATE INDEX roots_project ON roots(project_id)`,
];

/** Schema 1's snapshots and their full-text search index. */
const coreSnapshots = (): string[] => [
  `CREATE TABLE snapshots (
      id TEXT PRIMARY KEY,
      project_id TEXT NOT NULL,
      name TEXT NOT NULL,
      topic TEXT NOT NULL,
      kind TEXT NOT NULL,
      status TEXT NOT NULL,
      created_at TEXT NOT NULL,
      version TEXT NOT NULL,
      goal TEXT NOT NULL,
      state TEXT NOT NULL,
      next_action TEXT NOT NULL,
      blocker TEXT NOT NULL,
      active_files TEXT NOT NULL,
      constraints TEXT NOT NULL,
      decisions TEXT NOT NULL,
      failure_graph TEXT NOT NULL,
      compressed TEXT,
      layer3 TEXT NOT NULL,
      auto_trigger TEXT,
      extra TEXT,
      l1_tokens INTEGER NOT NULL,
      l2_tokens INTEGER NOT NULL,
      saved_host TEXT NOT NULL,
      saved_root TEXT,
      hlc TEXT NOT NULL, host TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0
    )`,
  `CREATE INDEX snapshots_project ON snapshots(project_id, deleted, created_at)`,
  `CREATE INDEX snapshots_name ON snapshots(project_id, name)`,
  // Trigram tokenizer: substring search in any script (Chinese has no spaces between words);
  // terms shorter than three characters are matched with instr() by the store instead.
  `CREATE VIRTUAL TABLE snapshot_search USING fts5(layer1, layer2, layer3, tokenize='trigram')`,
  `CREATE TRIGGER snapshots_ai AFTER INSERT ON snapshots WHEN new.deleted = 0 BEGIN
      INSERT INTO snapshot_search(rowid, layer1, layer2, layer3) SELECT ${searchText1to3()};
    END`,
  `CREATE TRIGGER snapshots_ad AFTER DELETE ON snapshots BEGIN
      DELETE FROM snapshot_search WHERE rowid = old.rowid;
    END`,
  `CREATE TRIGGER snapshots_au AFTER UPDATE ON snapshots BEGIN
      DELETE FROM snapshot_search WHERE rowid = old.rowid;
      INSERT INTO snapshot_search(rowid, layer1, layer2, layer3) SELECT ${searchText1to3()} WHERE new.deleted = 0;
    END`,
];

/** Schema 1's failure graph and each project's signal. */
const coreFailures = (): string[] => [
  `CREATE TABLE failures (
      id TEXT PRIMARY KEY,
      project_id TEXT,
      scope TEXT NOT NULL,
      item TEXT NOT NULL,
      rejected_by TEXT NOT NULL,
      reason TEXT NOT NULL,
      confidence TEXT,
      schema_version TEXT NOT NULL,
      first_seen TEXT NOT NULL,
      last_seen TEXT NOT NULL,
      hlc TEXT NOT NULL, host TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0
    )`,
  `CREATE INDEX failures_project ON failures(project_id, deleted)`,
  `CREATE TABLE failure_counts (
      failure_id TEXT NOT NULL,
      host_id TEXT NOT NULL,
      count INTEGER NOT NULL,
      hlc TEXT NOT NULL,
      PRIMARY KEY (failure_id, host_id)
    )`,
  `CREATE TABLE failure_links (
      id TEXT PRIMARY KEY,
      failure_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      value TEXT NOT NULL,
      hlc TEXT NOT NULL, host TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0
    )`,
  `CREATE INDEX failure_links_failure ON failure_links(failure_id)`,
  `CREATE TABLE signals (
      project_id TEXT PRIMARY KEY,
      data TEXT NOT NULL,
      hlc TEXT NOT NULL, host TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0
    )`,
];

/**
 * The schema's steps, each one's statements built when it runs (a store is migrated rarely; every
 * command loads this module, and building the triggers' SQL cost each of them).
 */
export const MIGRATIONS: readonly (() => readonly string[])[] = [
  // 1: the core store
  () => [...coreProjects(), ...coreSnapshots(), ...coreFailures()],
  // 2: the project's tool log (Layer 3 only: never restored, searchable by recall's archive view)
  () => [
    `CREATE TABLE tool_calls (
      id TEXT PRIMARY KEY,
      project_id TEXT NOT NULL,
      session_id TEXT,
      timestamp TEXT NOT NULL,
      action TEXT NOT NULL,
      tool TEXT NOT NULL,
      target TEXT NOT NULL,
      summary TEXT NOT NULL,
      hlc TEXT NOT NULL, host TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0
    )`,
    `CREATE INDEX tool_calls_project ON tool_calls(project_id, deleted, timestamp)`,
  ],
  // 3: sync bookkeeping. A local change log, kept by triggers, orders every row change on this
  // store (its own writes and rows merged in from peers) by a local sequence: "what changed since
  // the last sync with that peer" is then `seq > watermark`, which also carries rows that reached
  // this store from a third one with an old clock. Rows merged in from a peer are tagged with that
  // peer, so they are not sent straight back.
  () => [
    `CREATE TABLE changes (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      tbl TEXT NOT NULL,
      key TEXT NOT NULL,
      origin TEXT,
      UNIQUE (tbl, key)
    )`,
    `CREATE TABLE sync_peers (
      store_id TEXT PRIMARY KEY,
      location TEXT,
      pulled_seq INTEGER NOT NULL DEFAULT 0,
      last_sync TEXT
    )`,
    ...changeLogTriggers(SYNCED_TABLES_3),
    // Rows written before this version enter the log once.
    ...SYNCED_TABLES_3.map(
      ({ name, key }) =>
        `INSERT OR IGNORE INTO changes(tbl, key) SELECT '${name}', ${key.join(" || char(31) || ")} FROM ${name}`,
    ),
  ],
  // 4: memory over weeks. Standing rules (project or global, restored first, never trimmed);
  // facts with a time to live and a confidence; retirements (a constraint or decision marked no
  // longer true: never carried forward nor restored, still searchable; the id is derived from the
  // project, kind and text, so two hosts retiring the same item write the same record). A snapshot
  // keeps the agent's plan verbatim, its tags, and which agent saved it.
  () => [
    `CREATE TABLE rules (
      id TEXT PRIMARY KEY,
      project_id TEXT,
      scope TEXT NOT NULL,
      text TEXT NOT NULL,
      created_at TEXT NOT NULL,
      hlc TEXT NOT NULL, host TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0
    )`,
    `CREATE INDEX rules_project ON rules(project_id, deleted)`,
    `CREATE TABLE facts (
      id TEXT PRIMARY KEY,
      project_id TEXT,
      scope TEXT NOT NULL,
      text TEXT NOT NULL,
      confidence TEXT NOT NULL,
      created_at TEXT NOT NULL,
      confirmed_at TEXT NOT NULL,
      expires_at TEXT,
      hlc TEXT NOT NULL, host TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0
    )`,
    `CREATE INDEX facts_project ON facts(project_id, deleted)`,
    `CREATE TABLE retirements (
      id TEXT PRIMARY KEY,
      project_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      text TEXT NOT NULL,
      reason TEXT NOT NULL,
      retired_at TEXT NOT NULL,
      retired_by TEXT NOT NULL,
      hlc TEXT NOT NULL, host TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0
    )`,
    `CREATE INDEX retirements_project ON retirements(project_id, deleted)`,
    `ALTER TABLE snapshots ADD COLUMN plan TEXT`,
    `ALTER TABLE snapshots ADD COLUMN tags TEXT NOT NULL DEFAULT '[]'`,
    `ALTER TABLE snapshots ADD COLUMN saved_agent TEXT`,
    ...changeLogTriggers(SYNCED_TABLES_4),
    // The search index also holds the plan's steps and the tags: new triggers, the index filled again.
    `DROP TRIGGER snapshots_ai`,
    `DROP TRIGGER snapshots_au`,
    `CREATE TRIGGER snapshots_ai AFTER INSERT ON snapshots WHEN new.deleted = 0 BEGIN
      INSERT INTO snapshot_search(rowid, layer1, layer2, layer3) SELECT ${snapshotSearchText("new")};
    END`,
    `CREATE TRIGGER snapshots_au AFTER UPDATE ON snapshots BEGIN
      DELETE FROM snapshot_search WHERE rowid = old.rowid;
      INSERT INTO snapshot_search(rowid, layer1, layer2, layer3) SELECT ${snapshotSearchText("new")} WHERE new.deleted = 0;
    END`,
    `DELETE FROM snapshot_search`,
    `INSERT INTO snapshot_search(rowid, layer1, layer2, layer3) SELECT ${snapshotSearchText("s")} FROM snapshots s WHERE s.deleted = 0`,
  ],
  // 5: retention archives, never deletes. The snapshots the default views show are kept in a
  // table of their own, so a view of a project with 100,000 snapshots reads its ~20 listed ones by
  // an index, never every row; a snapshot retention archives is taken out of it, still whole. The
  // table is this store's own (never synced): a peer, of this version or an older one, keeps its
  // own views. Triggers list every live snapshot as it comes in (a save, an import, a sync, a
  // repair), so no path can hide one by forgetting to list it; every snapshot there is when the
  // store is upgraded is listed: nothing existing is hidden or changed.
  () => [
    `CREATE TABLE listed_snapshots (
      snapshot_id TEXT PRIMARY KEY,
      project_id TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX listed_snapshots_view ON listed_snapshots(project_id, created_at, snapshot_id)`,
    `CREATE TRIGGER snapshots_listed_ai AFTER INSERT ON snapshots WHEN new.deleted = 0 BEGIN
      INSERT OR IGNORE INTO listed_snapshots(snapshot_id, project_id, created_at) VALUES (new.id, new.project_id, new.created_at);
    END`,
    // A delete (or a tombstone synced in) takes it out; a move (a project link) moves it; a
    // snapshot that is live again is listed again.
    `CREATE TRIGGER snapshots_listed_au AFTER UPDATE OF deleted, project_id, created_at ON snapshots BEGIN
      DELETE FROM listed_snapshots WHERE snapshot_id = new.id AND new.deleted <> 0;
      UPDATE listed_snapshots SET project_id = new.project_id, created_at = new.created_at
        WHERE snapshot_id = new.id AND (project_id <> new.project_id OR created_at <> new.created_at);
      INSERT OR IGNORE INTO listed_snapshots(snapshot_id, project_id, created_at)
        SELECT new.id, new.project_id, new.created_at WHERE new.deleted = 0 AND old.deleted <> 0;
    END`,
    `CREATE TRIGGER snapshots_listed_ad AFTER DELETE ON snapshots BEGIN
      DELETE FROM listed_snapshots WHERE snapshot_id = old.id;
    END`,
    `INSERT INTO listed_snapshots(snapshot_id, project_id, created_at) SELECT id, project_id, created_at FROM snapshots WHERE deleted = 0`,
  ],
  // 6: the restore block's failures ranked by an index, its top few read (see failure-ranks.ts).
  // The keys are this store's own (never synced), derived from each merged row; the upgrade only
  // lists the failures, and the next write transaction writes their keys.
  () => FAILURE_RANKS_MIGRATION,
  // 7: `mindsave off`: a live row is off, `on` is its tombstone. A project's row (id from the
  // project) syncs to every host; a host's (`off --global`, id from the host) is that host's alone,
  // carried by sync so every store it uses (a drive too) agrees, and read by no other host.
  () => [
    `CREATE TABLE off_switches (
      id TEXT PRIMARY KEY,
      scope TEXT NOT NULL,
      project_id TEXT,
      host_id TEXT,
      off_at TEXT NOT NULL,
      hlc TEXT NOT NULL, host TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0
    )`,
    ...changeLogTriggers(SYNCED_TABLES_7),
  ],
  // 8: the indexes of the whole failure ranking (failures_rank, failures_rank_global), made on
  // writable opens until the restore block read its top few from failure_ranks (6): unread since,
  // they cost every write of a failure.
  () => ["DROP INDEX IF EXISTS failures_rank", "DROP INDEX IF EXISTS failures_rank_global"],
  // 9: token counts stored with the text they count, so the restore block counts it once: a
  // snapshot's constraint and decision lines (JSON), a failure line's head (item and reason). Each
  // is a cache of its text's count: NULL (every row before this step) is counted at restore. Every
  // statement that writes the text writes its count (writer.ts; a sync counts a peer's rows).
  () => [
    "ALTER TABLE snapshots ADD COLUMN line_tokens TEXT",
    "ALTER TABLE failures ADD COLUMN head_tokens INTEGER",
  ],
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Indexes made on any writable open that lacks them, outside the schema version: they change no
 * row, so a store with or without them is the same schema to every build (an older MindSave keeps
 * opening it, and no upgrade backup is made for them). For the restore block's failure ranking
 * (every load and session start sums each failure's per-host counters less a forgotten baseline):
 * the counters read from an index alone and the few forgotten baselines found without reading
 * every link; for the lists, every snapshot of a project in order.
 */
export const INDEXES: readonly { name: string; sql: string }[] = [
  {
    name: "failure_counts_repeats",
    sql: "CREATE INDEX IF NOT EXISTS failure_counts_repeats ON failure_counts(failure_id, host_id, count)",
  },
  {
    name: "failure_links_forgotten",
    sql: "CREATE INDEX IF NOT EXISTS failure_links_forgotten ON failure_links(failure_id) WHERE kind = 'forgotten' AND deleted = 0",
  },
  // The list of every snapshot of a project, archived too (`snapshots list --all`), a page at a time:
  // its order whole, the id breaking ties of equal times, so a keyset page starts where it is.
  {
    name: "snapshots_page",
    sql: "CREATE INDEX IF NOT EXISTS snapshots_page ON snapshots(project_id, deleted, created_at, id)",
  },
  // Every project's snapshots in time order: a search of every project reads the store's newest
  // first (search.ts). Without `deleted`, which lies past Layer 3: made from each row's first page.
  // The failures seen after a time (what a diff of two snapshots shows): read from that time on.
  {
    name: "failures_seen",
    sql: "CREATE INDEX IF NOT EXISTS failures_seen ON failures(last_seen)",
  },
  {
    name: "snapshots_newest",
    sql: "CREATE INDEX IF NOT EXISTS snapshots_newest ON snapshots(created_at, id)",
  },
];

/** Makes the INDEXES a store lacks; true when it made some. When it cannot now (another writer, a full disk), a later open will. */
export async function ensureIndexes(db: Pick<Db, "execute" | "transaction">): Promise<boolean> {
  const names = INDEXES.map((i) => `'${i.name}'`).join(", ");
  const have = new Set(
    (await db.execute(`SELECT name FROM sqlite_master WHERE type = 'index' AND name IN (${names})`)).rows.map(
      (r) => String(r.name),
    ),
  );
  const missing = INDEXES.filter((i) => !have.has(i.name));
  if (!missing.length) return false;
  return writeIfFree(db, async (tx) => {
    for (const i of missing) await tx.execute(i.sql);
  });
}

/**
 * Runs `write` in a transaction of its own when no other writer holds the lock (an import is one
 * long transaction): no wait for it. False when busy, or when `write` failed: what it makes is
 * derived (an index), so only speed is lost, and a later open makes it.
 */
export async function writeIfFree(
  db: Pick<Db, "execute" | "transaction">,
  write: (tx: Tx) => Promise<void>,
): Promise<boolean> {
  const timeout = Number((await db.execute("PRAGMA busy_timeout")).rows[0]?.[0]) || 0;
  await db.execute("PRAGMA busy_timeout = 0");
  try {
    const tx = await db.transaction("write").catch(() => null);
    if (!tx) return false;
    try {
      await write(tx);
      await tx.commit();
      return true;
    } catch {
      return false;
    } finally {
      tx.close();
    }
  } finally {
    await db.execute(`PRAGMA busy_timeout = ${timeout}`);
  }
}
