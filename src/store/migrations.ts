// Versioned schema migrations. The program creates and upgrades the schema itself; each step runs
// inside the same write transaction as the version bump, so a store is never half-migrated.
//
// Sync-ready by design: every replicated row has a globally unique text id (never an autoincrement),
// the host that last wrote it, a hybrid logical clock (`hlc`) and a tombstone flag (`deleted`).
// Counters that several hosts bump (a failure's repeat_count) are one row per host.

/**
 * What the full-text index holds for a snapshot: the readable text of each layer (list items one
 * per line, failures as "item: reason"), not the JSON it is stored as, and not the snapshot's id,
 * whose date would match every search for a number.
 */
const SEARCH_TEXT = `new.rowid,
  new.goal || char(10) || new.state || char(10) || new.next_action || char(10) || new.blocker || char(10) ||
    coalesce((SELECT group_concat(json_extract(value, '$.path'), char(10)) FROM json_each(new.active_files)), ''),
  coalesce((SELECT group_concat(value, char(10)) FROM json_each(new.constraints)), '') || char(10) ||
    coalesce((SELECT group_concat(value, char(10)) FROM json_each(new.decisions)), '') || char(10) ||
    coalesce((SELECT group_concat(key || ': ' || coalesce(json_extract(value, '$.reason'), ''), char(10)) FROM json_each(new.failure_graph)), ''),
  new.layer3 || char(10) || coalesce(new.extra, '') || char(10) ||
    coalesce((SELECT group_concat(value, char(10)) FROM json_each(new.compressed, '$.original_constraints')), '')`;

export const MIGRATIONS: readonly string[][] = [
  // 1: the core store
  [
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
      INSERT INTO snapshot_search(rowid, layer1, layer2, layer3) SELECT ${SEARCH_TEXT};
    END`,
    `CREATE TRIGGER snapshots_ad AFTER DELETE ON snapshots BEGIN
      DELETE FROM snapshot_search WHERE rowid = old.rowid;
    END`,
    `CREATE TRIGGER snapshots_au AFTER UPDATE ON snapshots BEGIN
      DELETE FROM snapshot_search WHERE rowid = old.rowid;
      INSERT INTO snapshot_search(rowid, layer1, layer2, layer3) SELECT ${SEARCH_TEXT} WHERE new.deleted = 0;
    END`,
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
  ],
  // 2: the project's tool log (Layer 3 only: never restored, searchable by recall's archive view)
  [
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
];

export const SCHEMA_VERSION = MIGRATIONS.length;
