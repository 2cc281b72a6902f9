// The schema a new store is made with at once, instead of running every migration in turn (a
// first hook in a new home makes the store). Written by `bun test/fresh-schema.ts` from
// migrations.ts; test/fresh-schema.test.ts checks it is what the migrations make. Do not edit.

/** The schema version these statements make: used only while it is migrations.ts's. */
export const FRESH_SCHEMA_VERSION = 9;

export const FRESH_SCHEMA: readonly string[] = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
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
    , plan TEXT, tags TEXT NOT NULL DEFAULT '[]', saved_agent TEXT, line_tokens TEXT)`,
  `CREATE INDEX snapshots_project ON snapshots(project_id, deleted, created_at)`,
  `CREATE INDEX snapshots_name ON snapshots(project_id, name)`,
  `CREATE VIRTUAL TABLE snapshot_search USING fts5(layer1, layer2, layer3, tokenize='trigram')`,
  `CREATE TRIGGER snapshots_ad AFTER DELETE ON snapshots BEGIN
      DELETE FROM snapshot_search WHERE rowid = old.rowid;
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
    , head_tokens INTEGER)`,
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
  `CREATE TRIGGER hosts_log_insert AFTER INSERT ON hosts BEGIN
      DELETE FROM changes WHERE tbl = 'hosts' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('hosts', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER hosts_log_update AFTER UPDATE ON hosts BEGIN
      DELETE FROM changes WHERE tbl = 'hosts' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('hosts', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER projects_log_insert AFTER INSERT ON projects BEGIN
      DELETE FROM changes WHERE tbl = 'projects' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('projects', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER projects_log_update AFTER UPDATE ON projects BEGIN
      DELETE FROM changes WHERE tbl = 'projects' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('projects', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER roots_log_insert AFTER INSERT ON roots BEGIN
      DELETE FROM changes WHERE tbl = 'roots' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('roots', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER roots_log_update AFTER UPDATE ON roots BEGIN
      DELETE FROM changes WHERE tbl = 'roots' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('roots', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER snapshots_log_insert AFTER INSERT ON snapshots BEGIN
      DELETE FROM changes WHERE tbl = 'snapshots' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('snapshots', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER snapshots_log_update AFTER UPDATE ON snapshots BEGIN
      DELETE FROM changes WHERE tbl = 'snapshots' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('snapshots', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER failures_log_insert AFTER INSERT ON failures BEGIN
      DELETE FROM changes WHERE tbl = 'failures' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('failures', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER failures_log_update AFTER UPDATE ON failures BEGIN
      DELETE FROM changes WHERE tbl = 'failures' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('failures', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER failure_counts_log_insert AFTER INSERT ON failure_counts BEGIN
      DELETE FROM changes WHERE tbl = 'failure_counts' AND key = new.failure_id || char(31) || new.host_id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('failure_counts', new.failure_id || char(31) || new.host_id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER failure_counts_log_update AFTER UPDATE ON failure_counts BEGIN
      DELETE FROM changes WHERE tbl = 'failure_counts' AND key = new.failure_id || char(31) || new.host_id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('failure_counts', new.failure_id || char(31) || new.host_id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER failure_links_log_insert AFTER INSERT ON failure_links BEGIN
      DELETE FROM changes WHERE tbl = 'failure_links' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('failure_links', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER failure_links_log_update AFTER UPDATE ON failure_links BEGIN
      DELETE FROM changes WHERE tbl = 'failure_links' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('failure_links', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER signals_log_insert AFTER INSERT ON signals BEGIN
      DELETE FROM changes WHERE tbl = 'signals' AND key = new.project_id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('signals', new.project_id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER signals_log_update AFTER UPDATE ON signals BEGIN
      DELETE FROM changes WHERE tbl = 'signals' AND key = new.project_id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('signals', new.project_id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER tool_calls_log_insert AFTER INSERT ON tool_calls BEGIN
      DELETE FROM changes WHERE tbl = 'tool_calls' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('tool_calls', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER tool_calls_log_update AFTER UPDATE ON tool_calls BEGIN
      DELETE FROM changes WHERE tbl = 'tool_calls' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('tool_calls', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
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
  `CREATE TRIGGER rules_log_insert AFTER INSERT ON rules BEGIN
      DELETE FROM changes WHERE tbl = 'rules' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('rules', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER rules_log_update AFTER UPDATE ON rules BEGIN
      DELETE FROM changes WHERE tbl = 'rules' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('rules', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER facts_log_insert AFTER INSERT ON facts BEGIN
      DELETE FROM changes WHERE tbl = 'facts' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('facts', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER facts_log_update AFTER UPDATE ON facts BEGIN
      DELETE FROM changes WHERE tbl = 'facts' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('facts', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER retirements_log_insert AFTER INSERT ON retirements BEGIN
      DELETE FROM changes WHERE tbl = 'retirements' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('retirements', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER retirements_log_update AFTER UPDATE ON retirements BEGIN
      DELETE FROM changes WHERE tbl = 'retirements' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('retirements', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER snapshots_ai AFTER INSERT ON snapshots WHEN new.deleted = 0 BEGIN
      INSERT INTO snapshot_search(rowid, layer1, layer2, layer3) SELECT new.rowid,
  new.goal || char(10) || new.state || char(10) || new.next_action || char(10) || new.blocker || char(10) ||
    coalesce((SELECT group_concat(json_extract(value, '$.path'), char(10)) FROM json_each(new.active_files)), '') || char(10) ||
    coalesce((SELECT group_concat(json_extract(value, '$.content'), char(10)) FROM json_each(new.plan)), '') || char(10) || coalesce((SELECT group_concat(value, ' ') FROM json_each(new.tags)), ''),
  coalesce((SELECT group_concat(value, char(10)) FROM json_each(new.constraints)), '') || char(10) ||
    coalesce((SELECT group_concat(value, char(10)) FROM json_each(new.decisions)), '') || char(10) ||
    coalesce((SELECT group_concat(key || ': ' || coalesce(json_extract(value, '$.reason'), ''), char(10)) FROM json_each(new.failure_graph)), ''),
  new.layer3 || char(10) || coalesce(new.extra, '') || char(10) ||
    coalesce((SELECT group_concat(value, char(10)) FROM json_each(new.compressed, '$.original_constraints')), '');
    END`,
  `CREATE TRIGGER snapshots_au AFTER UPDATE ON snapshots BEGIN
      DELETE FROM snapshot_search WHERE rowid = old.rowid;
      INSERT INTO snapshot_search(rowid, layer1, layer2, layer3) SELECT new.rowid,
  new.goal || char(10) || new.state || char(10) || new.next_action || char(10) || new.blocker || char(10) ||
    coalesce((SELECT group_concat(json_extract(value, '$.path'), char(10)) FROM json_each(new.active_files)), '') || char(10) ||
    coalesce((SELECT group_concat(json_extract(value, '$.content'), char(10)) FROM json_each(new.plan)), '') || char(10) || coalesce((SELECT group_concat(value, ' ') FROM json_each(new.tags)), ''),
  coalesce((SELECT group_concat(value, char(10)) FROM json_each(new.constraints)), '') || char(10) ||
    coalesce((SELECT group_concat(value, char(10)) FROM json_each(new.decisions)), '') || char(10) ||
    coalesce((SELECT group_concat(key || ': ' || coalesce(json_extract(value, '$.reason'), ''), char(10)) FROM json_each(new.failure_graph)), ''),
  new.layer3 || char(10) || coalesce(new.extra, '') || char(10) ||
    coalesce((SELECT group_concat(value, char(10)) FROM json_each(new.compressed, '$.original_constraints')), '') WHERE new.deleted = 0;
    END`,
  `CREATE TABLE listed_snapshots (
      snapshot_id TEXT PRIMARY KEY,
      project_id TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
  `CREATE INDEX listed_snapshots_view ON listed_snapshots(project_id, created_at, snapshot_id)`,
  `CREATE TRIGGER snapshots_listed_ai AFTER INSERT ON snapshots WHEN new.deleted = 0 BEGIN
      INSERT OR IGNORE INTO listed_snapshots(snapshot_id, project_id, created_at) VALUES (new.id, new.project_id, new.created_at);
    END`,
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
  `CREATE TRIGGER failure_counts_rank_insert AFTER INSERT ON failure_counts BEGIN
    UPDATE failure_ranks SET stale = 1, rank_key = NULL WHERE failure_id = new.failure_id;
  END`,
  `CREATE TRIGGER failure_counts_rank_update AFTER UPDATE ON failure_counts BEGIN
    UPDATE failure_ranks SET stale = 1, rank_key = NULL WHERE failure_id = new.failure_id;
  END`,
  `CREATE TRIGGER failure_counts_rank_delete AFTER DELETE ON failure_counts BEGIN
    UPDATE failure_ranks SET stale = 1, rank_key = NULL WHERE failure_id = old.failure_id;
  END`,
  `CREATE TRIGGER failure_links_rank_insert AFTER INSERT ON failure_links
    WHEN new.kind = 'forgotten' BEGIN
    UPDATE failure_ranks SET stale = 1, rank_key = NULL WHERE failure_id = new.failure_id;
  END`,
  `CREATE TRIGGER failure_links_rank_update AFTER UPDATE ON failure_links
    WHEN new.kind = 'forgotten' OR old.kind = 'forgotten' BEGIN
    UPDATE failure_ranks SET stale = 1, rank_key = NULL WHERE failure_id = new.failure_id;
  END`,
  `CREATE TRIGGER failure_links_rank_delete AFTER DELETE ON failure_links
    WHEN old.kind = 'forgotten' BEGIN
    UPDATE failure_ranks SET stale = 1, rank_key = NULL WHERE failure_id = old.failure_id;
  END`,
  `CREATE TABLE off_switches (
      id TEXT PRIMARY KEY,
      scope TEXT NOT NULL,
      project_id TEXT,
      host_id TEXT,
      off_at TEXT NOT NULL,
      hlc TEXT NOT NULL, host TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0
    )`,
  `CREATE TRIGGER off_switches_log_insert AFTER INSERT ON off_switches BEGIN
      DELETE FROM changes WHERE tbl = 'off_switches' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('off_switches', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
  `CREATE TRIGGER off_switches_log_update AFTER UPDATE ON off_switches BEGIN
      DELETE FROM changes WHERE tbl = 'off_switches' AND key = new.id;
      INSERT INTO changes(tbl, key, origin)
      VALUES ('off_switches', new.id, (SELECT value FROM meta WHERE key = 'sync_origin'));
    END`,
];
