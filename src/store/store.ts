// The store: one libSQL file. This module tree is the only place with SQL.
import { existsSync, openSync, readSync, closeSync, statSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { tmpdir } from "node:os";
import type { Client, Transaction, Row } from "@libsql/client";
import { UserError } from "../errors.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "./migrations.ts";
import { formatHlc, parseHlc } from "./hlc.ts";
import { SyncSide } from "./sync.ts";
import type {
  FailureRecord, HostRecord, ProjectRecord, RootRecord, SearchHit, SignalRecord,
  SnapshotRecord, SnapshotSummary, ToolCallRecord,
} from "./records.ts";

export { SCHEMA_VERSION, formatHlc, parseHlc, SyncSide };
export type * from "./records.ts";

const APP_MARK = "mindsave";
const SQLITE_MAGIC = "SQLite format 3\0";

type Exec = Pick<Client, "execute"> | Pick<Transaction, "execute">;

export interface OpenOptions {
  /** WAL for a laptop's home; the drive issue may choose another journal mode for removable media. */
  journalMode?: "WAL" | "DELETE" | "TRUNCATE";
  /** Milliseconds a writer waits for another writer before giving up. */
  busyTimeoutMs?: number;
}

function json<T>(v: unknown, fallback: T): T {
  if (v === null || v === undefined || v === "") return fallback;
  try {
    return JSON.parse(String(v)) as T;
  } catch {
    return fallback;
  }
}

const str = (v: unknown): string => (v === null || v === undefined ? "" : String(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function replicated(r: Row) {
  return { hlc: str(r.hlc), host: str(r.host), deleted: Number(r.deleted ?? 0) === 1 };
}

function toProject(r: Row): ProjectRecord {
  return {
    id: str(r.id), identity: str(r.identity), name: str(r.name), remote: strOrNull(r.remote),
    created_at: str(r.created_at), merged_into: strOrNull(r.merged_into), ...replicated(r),
  };
}

function toRoot(r: Row): RootRecord {
  return {
    id: str(r.id), project_id: str(r.project_id), host_id: str(r.host_id), path: str(r.path),
    last_used: str(r.last_used), ...replicated(r),
  };
}

function toHost(r: Row): HostRecord {
  return {
    id: str(r.id), name: str(r.name), platform: str(r.platform), first_seen: str(r.first_seen),
    last_seen: str(r.last_seen), ...replicated(r),
  };
}

function toSnapshot(r: Row): SnapshotRecord {
  return {
    id: str(r.id), project_id: str(r.project_id), name: str(r.name), topic: str(r.topic),
    kind: str(r.kind) as SnapshotRecord["kind"], status: str(r.status) as SnapshotRecord["status"],
    created_at: str(r.created_at), version: str(r.version), goal: str(r.goal), state: str(r.state),
    next_action: str(r.next_action), blocker: str(r.blocker),
    active_files: json(r.active_files, []), constraints: json(r.constraints, []),
    decisions: json(r.decisions, []), failure_graph: json(r.failure_graph, {}),
    compressed: json(r.compressed, null), layer3: str(r.layer3),
    auto_trigger: json(r.auto_trigger, null), extra: json(r.extra, null),
    l1_tokens: Number(r.l1_tokens ?? 0), l2_tokens: Number(r.l2_tokens ?? 0),
    saved_host: str(r.saved_host), saved_root: strOrNull(r.saved_root), ...replicated(r),
  };
}

const SUMMARY_COLUMNS = `id, project_id, name, kind, status, created_at, goal, blocker, l1_tokens, l2_tokens, saved_host,
  length(CAST(goal || state || next_action || blocker || active_files || constraints || decisions || failure_graph || layer3 AS BLOB)) AS size,
  (constraints <> '[]' OR decisions <> '[]' OR failure_graph <> '{}') AS has_layer2,
  (layer3 <> '') AS has_layer3`;

function toSummary(r: Row): SnapshotSummary {
  return {
    id: str(r.id), project_id: str(r.project_id), name: str(r.name),
    kind: str(r.kind) as SnapshotSummary["kind"], status: str(r.status) as SnapshotSummary["status"],
    created_at: str(r.created_at), goal: str(r.goal), blocker: str(r.blocker),
    l1_tokens: Number(r.l1_tokens), l2_tokens: Number(r.l2_tokens), saved_host: str(r.saved_host),
    size: Number(r.size), has_layer2: Number(r.has_layer2) === 1, has_layer3: Number(r.has_layer3) === 1,
  };
}

/** A failure with its summed per-host counters and its live related/alternative sets. */
const FAILURE_SELECT = `SELECT f.*, (SELECT coalesce(sum(count), 0) FROM failure_counts c WHERE c.failure_id = f.id) AS repeat_count,
  (SELECT json_group_array(value) FROM (SELECT value FROM failure_links l WHERE l.failure_id = f.id AND l.kind = 'related' AND l.deleted = 0 ORDER BY hlc, value)) AS related,
  (SELECT json_group_array(value) FROM (SELECT value FROM failure_links l WHERE l.failure_id = f.id AND l.kind = 'alternative' AND l.deleted = 0 ORDER BY hlc, value)) AS alternatives
  FROM failures f`;

/** Read queries, usable on the client or inside a write transaction. */
export class Queries {
  constructor(protected readonly db: Exec) {}

  protected async rows(sql: string, args: unknown[] = []): Promise<Row[]> {
    return (await this.db.execute({ sql, args: args as never })).rows;
  }

  async getMeta(key: string): Promise<string | null> {
    const rows = await this.rows("SELECT value FROM meta WHERE key = ?", [key]);
    return rows.length ? str(rows[0].value) : null;
  }

  async getHost(id: string): Promise<HostRecord | null> {
    const rows = await this.rows("SELECT * FROM hosts WHERE id = ?", [id]);
    return rows.length ? toHost(rows[0]) : null;
  }

  async listHosts(): Promise<HostRecord[]> {
    return (await this.rows("SELECT * FROM hosts WHERE deleted = 0 ORDER BY name, id")).map(toHost);
  }

  async getProject(id: string): Promise<ProjectRecord | null> {
    const rows = await this.rows("SELECT * FROM projects WHERE id = ?", [id]);
    return rows.length ? toProject(rows[0]) : null;
  }

  async projectsByIdentity(identity: string): Promise<ProjectRecord[]> {
    return (
      await this.rows("SELECT * FROM projects WHERE identity = ? AND deleted = 0 AND merged_into IS NULL ORDER BY created_at, id", [identity])
    ).map(toProject);
  }

  async listProjects(): Promise<ProjectRecord[]> {
    return (await this.rows("SELECT * FROM projects WHERE deleted = 0 AND merged_into IS NULL ORDER BY name, id")).map(toProject);
  }

  async rootsOfProject(projectId: string): Promise<RootRecord[]> {
    return (await this.rows("SELECT * FROM roots WHERE project_id = ? AND deleted = 0 ORDER BY last_used DESC", [projectId])).map(toRoot);
  }

  async rootsOnHost(hostId: string): Promise<RootRecord[]> {
    return (await this.rows("SELECT * FROM roots WHERE host_id = ? AND deleted = 0 ORDER BY last_used DESC", [hostId])).map(toRoot);
  }

  async rootAt(hostId: string, path: string): Promise<RootRecord[]> {
    return (await this.rows("SELECT * FROM roots WHERE host_id = ? AND path = ? AND deleted = 0 ORDER BY last_used DESC", [hostId, path])).map(toRoot);
  }

  async snapshotCounts(): Promise<Map<string, { count: number; newest: string | null }>> {
    const rows = await this.rows(
      "SELECT project_id, count(*) AS n, max(created_at) AS newest FROM snapshots WHERE deleted = 0 GROUP BY project_id",
    );
    return new Map(rows.map((r) => [str(r.project_id), { count: Number(r.n), newest: strOrNull(r.newest) }]));
  }

  /** Newest first. */
  async listSnapshots(projectId: string, opts: { limit?: number; offset?: number } = {}): Promise<SnapshotSummary[]> {
    const rows = await this.rows(
      `SELECT ${SUMMARY_COLUMNS} FROM snapshots WHERE project_id = ? AND deleted = 0
       ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      [projectId, opts.limit ?? -1, opts.offset ?? 0],
    );
    return rows.map(toSummary);
  }

  async countSnapshots(projectId: string): Promise<number> {
    const rows = await this.rows("SELECT count(*) AS n FROM snapshots WHERE project_id = ? AND deleted = 0", [projectId]);
    return Number(rows[0].n);
  }

  async getSnapshot(id: string): Promise<SnapshotRecord | null> {
    const rows = await this.rows("SELECT * FROM snapshots WHERE id = ? AND deleted = 0", [id]);
    return rows.length ? toSnapshot(rows[0]) : null;
  }

  /** Snapshots of a project by their readable name (the spec's snapshot_id); newest first. */
  async findSnapshotsByName(projectId: string, name: string): Promise<SnapshotRecord[]> {
    const rows = await this.rows(
      "SELECT * FROM snapshots WHERE project_id = ? AND name = ? AND deleted = 0 ORDER BY created_at DESC, id DESC",
      [projectId, name],
    );
    return rows.map(toSnapshot);
  }

  /** Every name in the project that starts with `prefix` (tombstones too, so a name is never reused). */
  async namesWithPrefix(projectId: string, prefix: string): Promise<string[]> {
    const rows = await this.rows(
      "SELECT name FROM snapshots WHERE project_id = ? AND substr(name, 1, length(?)) = ?",
      [projectId, prefix, prefix],
    );
    return rows.map((r) => str(r.name));
  }

  /**
   * Full-text search, newest first. Terms of three or more characters go through the FTS5 trigram
   * index (each quoted, so FTS syntax in user input is searched for, never interpreted); shorter
   * terms are matched with instr() on the same indexed text. All terms must match.
   */
  async searchSnapshots(projectId: string | null, terms: string[], limit = 50): Promise<SearchHit[]> {
    const long = terms.filter((t) => [...t].length >= 3);
    const short = terms.filter((t) => [...t].length < 3).map((t) => t.toLowerCase());
    const args: unknown[] = [];
    const where: string[] = ["s.deleted = 0"];
    if (long.length) {
      where.push("snapshot_search MATCH ?");
      args.push(long.map((t) => `"${t.replaceAll('"', '""')}"`).join(" "));
    }
    for (const t of short) {
      where.push("instr(lower(f.layer1 || char(10) || f.layer2 || char(10) || f.layer3), ?) > 0");
      args.push(t);
    }
    if (projectId) {
      where.push("s.project_id = ?");
      args.push(projectId);
    }
    args.push(limit);
    const context = long.length ? "snippet(snapshot_search, -1, '«', '»', '…', 48)" : "''";
    const rows = await this.rows(
      `SELECT s.id, s.project_id, s.name, s.created_at, s.status, s.goal, ${context} AS context, f.layer1, f.layer2, f.layer3
       FROM snapshot_search f JOIN snapshots s ON s.rowid = f.rowid
       WHERE ${where.join(" AND ")} ORDER BY s.created_at DESC, s.id DESC LIMIT ?`,
      args,
    );
    return rows.map((r) => ({
      id: str(r.id), project_id: str(r.project_id), name: str(r.name), created_at: str(r.created_at),
      status: str(r.status) as SearchHit["status"], goal: str(r.goal),
      context: str(r.context) || shortContext([str(r.layer1), str(r.layer2), str(r.layer3)], short[0] ?? ""),
    }));
  }

  async listFailures(projectId: string | null, opts: { includeGlobal?: boolean } = {}): Promise<FailureRecord[]> {
    const where = projectId
      ? opts.includeGlobal === false ? "f.project_id = ?" : "(f.project_id = ? OR f.scope = 'global')"
      : "f.scope = 'global'";
    const rows = await this.rows(
      `${FAILURE_SELECT} WHERE f.deleted = 0 AND ${where}
       ORDER BY repeat_count DESC, f.last_seen DESC, f.item`,
      projectId ? [projectId] : [],
    );
    return rows.map(toFailure);
  }

  async getFailure(id: string): Promise<FailureRecord | null> {
    const rows = await this.rows(
      `${FAILURE_SELECT} WHERE f.id = ?`,
      [id],
    );
    return rows.length ? toFailure(rows[0]) : null;
  }

  async failureCount(failureId: string, hostId: string): Promise<number> {
    const rows = await this.rows("SELECT count FROM failure_counts WHERE failure_id = ? AND host_id = ?", [failureId, hostId]);
    return rows.length ? Number(rows[0].count) : 0;
  }

  /** The newest `limit` tool calls of a project, oldest first. */
  async listToolCalls(projectId: string, limit = 50): Promise<ToolCallRecord[]> {
    const rows = await this.rows(
      `SELECT * FROM (SELECT rowid AS n, * FROM tool_calls WHERE project_id = ? AND deleted = 0 ORDER BY timestamp DESC, n DESC LIMIT ?)
       ORDER BY timestamp ASC, n ASC`,
      [projectId, limit],
    );
    return rows.map((r) => ({
      id: str(r.id), project_id: str(r.project_id), session_id: strOrNull(r.session_id), timestamp: str(r.timestamp),
      action: str(r.action), tool: str(r.tool), target: str(r.target), summary: str(r.summary),
    }));
  }

  async countToolCalls(projectId: string): Promise<number> {
    return Number((await this.rows("SELECT count(*) AS n FROM tool_calls WHERE project_id = ? AND deleted = 0", [projectId]))[0].n);
  }

  async getSignal(projectId: string): Promise<SignalRecord | null> {
    const rows = await this.rows("SELECT * FROM signals WHERE project_id = ? AND deleted = 0", [projectId]);
    if (!rows.length) return null;
    return { project_id: str(rows[0].project_id), data: json(rows[0].data, {}), hlc: str(rows[0].hlc), host: str(rows[0].host) };
  }

  async snapshotStats(projectId: string): Promise<{
    count: number; bytes: number; layer1: number; layer2: number; layer3: number;
    l1_tokens: number; l2_tokens: number; by_status: Record<string, number>; oldest: string | null; newest: string | null;
  }> {
    const rows = await this.rows(
      `SELECT count(*) AS n,
         coalesce(sum(length(goal) + length(state) + length(next_action) + length(blocker) + length(active_files)), 0) AS l1,
         coalesce(sum(length(constraints) + length(decisions) + length(failure_graph) + coalesce(length(compressed), 0)), 0) AS l2,
         coalesce(sum(length(layer3)), 0) AS l3,
         coalesce(sum(l1_tokens), 0) AS l1t, coalesce(sum(l2_tokens), 0) AS l2t,
         min(created_at) AS oldest, max(created_at) AS newest
       FROM snapshots WHERE project_id = ? AND deleted = 0`,
      [projectId],
    );
    const byStatus = await this.rows(
      "SELECT status, count(*) AS n FROM snapshots WHERE project_id = ? AND deleted = 0 GROUP BY status ORDER BY status",
      [projectId],
    );
    const r = rows[0];
    const l1 = Number(r.l1), l2 = Number(r.l2), l3 = Number(r.l3);
    return {
      count: Number(r.n), bytes: l1 + l2 + l3, layer1: l1, layer2: l2, layer3: l3,
      l1_tokens: Number(r.l1t), l2_tokens: Number(r.l2t),
      by_status: Object.fromEntries(byStatus.map((b) => [str(b.status), Number(b.n)])),
      oldest: strOrNull(r.oldest), newest: strOrNull(r.newest),
    };
  }
}

/** A context line around the first match of a short term (the FTS snippet covers long ones). */
function shortContext(texts: string[], term: string): string {
  for (const text of texts) {
    const at = term ? text.toLowerCase().indexOf(term) : -1;
    if (at >= 0) {
      const start = Math.max(0, at - 40);
      const end = Math.min(text.length, at + term.length + 40);
      return (start > 0 ? "…" : "") + text.slice(start, at) + "«" + text.slice(at, at + term.length) + "»" + text.slice(at + term.length, end) + (end < text.length ? "…" : "");
    }
  }
  return texts[0]?.split("\n")[0] ?? "";
}

function toFailure(r: Row): FailureRecord {
  return {
    id: str(r.id), project_id: strOrNull(r.project_id), scope: str(r.scope) as FailureRecord["scope"],
    item: str(r.item), rejected_by: str(r.rejected_by), reason: str(r.reason), confidence: strOrNull(r.confidence),
    schema_version: str(r.schema_version), first_seen: str(r.first_seen), last_seen: str(r.last_seen),
    repeat_count: Number(r.repeat_count ?? 0), related: json(r.related, []), alternatives: json(r.alternatives, []),
    ...replicated(r),
  };
}

/** Reads and writes inside one write transaction; every write stamps the row with the clock and host. */
export class StoreWriter extends Queries {
  private clock: { wall: number; counter: number } | null = null;

  constructor(db: Pick<Transaction, "execute">, readonly hostId: string, private readonly now: () => number) {
    super(db);
  }

  protected async run(sql: string, args: unknown[]): Promise<void> {
    await this.db.execute({ sql, args: args as never });
  }

  /** The next clock value: never behind the wall clock, never behind any clock this store has seen. */
  async tick(): Promise<string> {
    if (!this.clock) this.clock = parseHlc((await this.getMeta("clock")) ?? "0-0");
    const wall = this.now();
    if (wall > this.clock.wall) this.clock = { wall, counter: 0 };
    else this.clock = { wall: this.clock.wall, counter: this.clock.counter + 1 };
    return formatHlc(this.clock.wall, this.clock.counter, this.hostId);
  }

  async flushClock(): Promise<void> {
    if (this.clock) await this.setMeta("clock", formatHlc(this.clock.wall, this.clock.counter, ""));
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.run("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [key, value]);
  }

  async upsertHost(h: Omit<HostRecord, "hlc" | "host" | "deleted">): Promise<void> {
    const hlc = await this.tick();
    await this.run(
      `INSERT INTO hosts(id, name, platform, first_seen, last_seen, hlc, host, deleted) VALUES (?, ?, ?, ?, ?, ?, ?, 0)
       ON CONFLICT(id) DO UPDATE SET name = excluded.name, platform = excluded.platform, last_seen = excluded.last_seen,
         hlc = excluded.hlc, host = excluded.host`,
      [h.id, h.name, h.platform, h.first_seen, h.last_seen, hlc, this.hostId],
    );
  }

  async insertProject(p: Omit<ProjectRecord, "hlc" | "host" | "deleted">): Promise<void> {
    await this.run(
      `INSERT INTO projects(id, identity, name, remote, created_at, merged_into, hlc, host, deleted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)`,
      [p.id, p.identity, p.name, p.remote, p.created_at, p.merged_into, await this.tick(), this.hostId],
    );
  }

  async updateProject(id: string, fields: Partial<Pick<ProjectRecord, "name" | "remote" | "merged_into">>): Promise<void> {
    const cols = Object.keys(fields) as (keyof typeof fields)[];
    if (!cols.length) return;
    await this.run(
      `UPDATE projects SET ${cols.map((c) => `${c} = ?`).join(", ")}, hlc = ?, host = ? WHERE id = ?`,
      [...cols.map((c) => fields[c] ?? null), await this.tick(), this.hostId, id],
    );
  }

  async upsertRoot(r: Pick<RootRecord, "id" | "project_id" | "host_id" | "path" | "last_used">): Promise<void> {
    await this.run(
      `INSERT INTO roots(id, project_id, host_id, path, last_used, hlc, host, deleted) VALUES (?, ?, ?, ?, ?, ?, ?, 0)
       ON CONFLICT(id) DO UPDATE SET project_id = excluded.project_id, path = excluded.path, last_used = excluded.last_used,
         hlc = excluded.hlc, host = excluded.host, deleted = 0`,
      [r.id, r.project_id, r.host_id, r.path, r.last_used, await this.tick(), this.hostId],
    );
  }

  async deleteRoot(id: string): Promise<void> {
    await this.run("UPDATE roots SET deleted = 1, hlc = ?, host = ? WHERE id = ?", [await this.tick(), this.hostId, id]);
  }

  async insertSnapshot(s: Omit<SnapshotRecord, "hlc" | "host" | "deleted">): Promise<void> {
    await this.run(
      `INSERT INTO snapshots(id, project_id, name, topic, kind, status, created_at, version, goal, state, next_action, blocker,
         active_files, constraints, decisions, failure_graph, compressed, layer3, auto_trigger, extra, l1_tokens, l2_tokens,
         saved_host, saved_root, hlc, host, deleted)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
      [
        s.id, s.project_id, s.name, s.topic, s.kind, s.status, s.created_at, s.version, s.goal, s.state, s.next_action, s.blocker,
        JSON.stringify(s.active_files), JSON.stringify(s.constraints), JSON.stringify(s.decisions),
        JSON.stringify(s.failure_graph), s.compressed ? JSON.stringify(s.compressed) : null, s.layer3,
        s.auto_trigger ? JSON.stringify(s.auto_trigger) : null, s.extra ? JSON.stringify(s.extra) : null,
        s.l1_tokens, s.l2_tokens, s.saved_host, s.saved_root, await this.tick(), this.hostId,
      ],
    );
  }

  async setSnapshotStatus(id: string, status: SnapshotRecord["status"]): Promise<void> {
    await this.run("UPDATE snapshots SET status = ?, hlc = ?, host = ? WHERE id = ?", [status, await this.tick(), this.hostId, id]);
  }

  async moveSnapshots(fromProject: string, toProject: string, onlyIds?: string[]): Promise<number> {
    const ids = onlyIds ?? (await this.rows("SELECT id FROM snapshots WHERE project_id = ? AND deleted = 0", [fromProject])).map((r) => str(r.id));
    for (const id of ids) {
      await this.run("UPDATE snapshots SET project_id = ?, hlc = ?, host = ? WHERE id = ?", [toProject, await this.tick(), this.hostId, id]);
    }
    return ids.length;
  }

  /** A delete is a tombstone: the id and clock stay (so the delete can travel), the content goes. */
  async tombstoneSnapshot(id: string): Promise<void> {
    await this.run(
      `UPDATE snapshots SET deleted = 1, goal = '', state = '', next_action = '', blocker = '', active_files = '[]',
         constraints = '[]', decisions = '[]', failure_graph = '{}', compressed = NULL, layer3 = '', auto_trigger = NULL,
         extra = NULL, hlc = ?, host = ? WHERE id = ?`,
      [await this.tick(), this.hostId, id],
    );
  }

  /** Snapshot ids and their protection flags for cleanup, oldest first. */
  async cleanupCandidates(projectId: string): Promise<{ id: string; status: string; blocker: string; created_at: string; auto: boolean }[]> {
    const rows = await this.rows(
      "SELECT id, status, blocker, created_at, auto_trigger IS NOT NULL AS auto FROM snapshots WHERE project_id = ? AND deleted = 0 ORDER BY created_at ASC, id ASC",
      [projectId],
    );
    return rows.map((r) => ({ id: str(r.id), status: str(r.status), blocker: str(r.blocker), created_at: str(r.created_at), auto: Number(r.auto) === 1 }));
  }

  async upsertFailure(f: Omit<FailureRecord, "hlc" | "host" | "deleted" | "repeat_count" | "related" | "alternatives">): Promise<void> {
    await this.run(
      `INSERT INTO failures(id, project_id, scope, item, rejected_by, reason, confidence, schema_version, first_seen, last_seen, hlc, host, deleted)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
       ON CONFLICT(id) DO UPDATE SET item = excluded.item, rejected_by = excluded.rejected_by, reason = excluded.reason,
         confidence = excluded.confidence, schema_version = excluded.schema_version, first_seen = excluded.first_seen,
         last_seen = excluded.last_seen, hlc = excluded.hlc, host = excluded.host, deleted = 0`,
      [f.id, f.project_id, f.scope, f.item, f.rejected_by, f.reason, f.confidence, f.schema_version, f.first_seen, f.last_seen,
        await this.tick(), this.hostId],
    );
  }

  async tombstoneFailure(id: string): Promise<void> {
    await this.run("UPDATE failures SET deleted = 1, hlc = ?, host = ? WHERE id = ?", [await this.tick(), this.hostId, id]);
  }

  /** This host's own counter for a failure; other hosts' counters are never touched here. */
  async setFailureCount(failureId: string, count: number): Promise<void> {
    await this.run(
      `INSERT INTO failure_counts(failure_id, host_id, count, hlc) VALUES (?, ?, ?, ?)
       ON CONFLICT(failure_id, host_id) DO UPDATE SET count = excluded.count, hlc = excluded.hlc`,
      [failureId, this.hostId, count, await this.tick()],
    );
  }

  async putFailureLink(id: string, failureId: string, kind: "related" | "alternative", value: string, deleted = false): Promise<void> {
    await this.run(
      `INSERT INTO failure_links(id, failure_id, kind, value, hlc, host, deleted) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET deleted = excluded.deleted, hlc = excluded.hlc, host = excluded.host`,
      [id, failureId, kind, value, await this.tick(), this.hostId, deleted ? 1 : 0],
    );
  }

  /** Adds a tool call unless one with the same id is there already (re-ingesting is a no-op). */
  async addToolCall(c: ToolCallRecord): Promise<boolean> {
    const before = await this.rows("SELECT 1 FROM tool_calls WHERE id = ?", [c.id]);
    if (before.length) return false;
    await this.run(
      `INSERT INTO tool_calls(id, project_id, session_id, timestamp, action, tool, target, summary, hlc, host, deleted)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
      [c.id, c.project_id, c.session_id, c.timestamp, c.action, c.tool, c.target, c.summary, await this.tick(), this.hostId],
    );
    return true;
  }

  async putSignal(projectId: string, data: Record<string, unknown>): Promise<void> {
    await this.run(
      `INSERT INTO signals(project_id, data, hlc, host, deleted) VALUES (?, ?, ?, ?, 0)
       ON CONFLICT(project_id) DO UPDATE SET data = excluded.data, hlc = excluded.hlc, host = excluded.host, deleted = 0`,
      [projectId, JSON.stringify(data), await this.tick(), this.hostId],
    );
  }
}

export class Store extends Queries {
  private wal = false;
  private wrote = false;

  private constructor(private readonly client: Client, readonly path: string, readonly remote = false) {
    super(client);
  }

  /**
   * Opens a store on a libSQL server (sqld, Turso) through the client's remote protocol: the same
   * schema and migrations as a file, so sync merges with it exactly as with a drive.
   */
  static async openRemote(url: string, authToken?: string): Promise<Store> {
    const { createClient } = await loadDriver();
    let client: Client;
    try {
      client = createClient({ url, authToken });
    } catch (e) {
      throw new UserError(`Cannot use ${url} as a libSQL server: ${(e as Error).message}`);
    }
    const store = new Store(client, url, true);
    try {
      await store.migrate();
    } catch (e) {
      client.close();
      if (e instanceof UserError) throw e;
      throw new UserError(`Cannot reach the libSQL server at ${url}: ${(e as Error).message.split("\n")[0]}`);
    }
    return store;
  }

  /** Reads for sync, outside any transaction. */
  syncReader(): SyncSide {
    return new SyncSide(this.client);
  }

  /** Sync writes in one transaction; `rollback` makes it a dry run that changes nothing. */
  async syncWrite<T>(fn: (s: SyncSide) => Promise<T>, opts: { rollback?: boolean } = {}): Promise<T> {
    return this.transaction((tx) => fn(new SyncSide(tx)), opts);
  }

  /** One write transaction: committed when `fn` returns (rolled back for a dry run), rolled back when it throws. */
  private async transaction<T>(fn: (tx: Transaction) => Promise<T>, opts: { rollback?: boolean } = {}): Promise<T> {
    const tx = await this.client.transaction("write");
    try {
      const result = await fn(tx);
      if (opts.rollback) await tx.rollback();
      else {
        await tx.commit();
        this.wrote = true;
      }
      return result;
    } catch (e) {
      if (!tx.closed) await tx.rollback().catch(() => {});
      throw e;
    } finally {
      tx.close();
    }
  }

  /** Opens (and creates or migrates) the store at `path`. Refuses files that are not MindSave stores. */
  static async open(path: string, opts: OpenOptions = {}): Promise<Store> {
    checkLooksLikeSqlite(path);
    // Loaded here, not at the top: commands that never touch the store skip the native addon.
    const { createClient } = await loadDriver();
    let client: Client;
    try {
      client = createClient({ url: pathToFileURL(path).href, concurrency: 1, timeout: opts.busyTimeoutMs ?? 15000 });
    } catch (e) {
      throw openError(path, e);
    }
    const store = new Store(client, path);
    try {
      await store.prepare(opts);
    } catch (e) {
      client.close();
      throw openError(path, e);
    }
    return store;
  }

  private async prepare(opts: OpenOptions): Promise<void> {
    const mode = opts.journalMode ?? "WAL";
    const current = str((await this.client.execute("PRAGMA journal_mode")).rows[0]?.[0]).toUpperCase();
    if (current !== mode) {
      // Changing the journal needs the file to itself; with another process in it, keep the current one.
      await this.client.execute(`PRAGMA journal_mode = ${mode}`).catch(() => {});
    }
    this.wal = str((await this.client.execute("PRAGMA journal_mode")).rows[0]?.[0]).toUpperCase() === "WAL";
    await this.client.execute("PRAGMA synchronous = FULL");
    await this.migrate();
  }

  private async ownership(db: Exec): Promise<{ ours: boolean; empty: boolean; version: number }> {
    const tables = (await db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")).rows.map((r) => str(r.name));
    if (tables.length === 0) return { ours: true, empty: true, version: 0 };
    if (!tables.includes("meta")) return { ours: false, empty: false, version: 0 };
    const rows = (await db.execute("SELECT key, value FROM meta WHERE key IN ('app', 'schema_version')")).rows;
    const meta = Object.fromEntries(rows.map((r) => [str(r.key), str(r.value)]));
    return { ours: meta.app === APP_MARK, empty: false, version: Number(meta.schema_version ?? 0) };
  }

  private async migrate(): Promise<void> {
    const before = await this.ownership(this.client);
    this.refuseForeign(before);
    if (before.version === SCHEMA_VERSION) return;
    const tx = await this.client.transaction("write");
    try {
      // Checked again under the write lock: another process may have migrated meanwhile.
      const now = await this.ownership(tx);
      this.refuseForeign(now);
      for (let v = now.version; v < SCHEMA_VERSION; v++) {
        for (const sql of MIGRATIONS[v]) await tx.execute(sql);
      }
      if (now.version < SCHEMA_VERSION) {
        const set = "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value";
        await tx.execute({ sql: set, args: ["app", APP_MARK] });
        await tx.execute({ sql: set, args: ["schema_version", String(SCHEMA_VERSION)] });
        if (now.empty) {
          await tx.execute({ sql: set, args: ["store_id", crypto.randomUUID()] });
          await tx.execute({ sql: set, args: ["created_at", new Date().toISOString()] });
        }
      }
      await tx.commit();
    } finally {
      tx.close();
    }
  }

  private refuseForeign(o: { ours: boolean; version: number }): void {
    if (!o.ours) {
      throw new UserError(`${this.path} is a SQLite database but not a MindSave store; refusing to touch it.`);
    }
    if (o.version > SCHEMA_VERSION) {
      throw new UserError(
        `${this.path} was written by a newer MindSave (store schema ${o.version}; this build knows up to ${SCHEMA_VERSION}); update MindSave to use it.`,
      );
    }
  }

  /** Runs `fn` in one write transaction: all of it lands, or none of it. */
  async write<T>(hostId: string, fn: (w: StoreWriter) => Promise<T>, now: () => number = Date.now): Promise<T> {
    return this.transaction(async (tx) => {
      const writer = new StoreWriter(tx, hostId, now);
      const result = await fn(writer);
      await writer.flushClock();
      return result;
    });
  }

  async schemaVersion(): Promise<number> {
    return Number((await this.getMeta("schema_version")) ?? 0);
  }

  async integrityCheck(): Promise<string> {
    const rows = (await this.client.execute("PRAGMA integrity_check")).rows;
    return rows.map((r) => str(r[0])).join("; ");
  }

  async journalMode(): Promise<string> {
    return str((await this.client.execute("PRAGMA journal_mode")).rows[0]?.[0]);
  }

  /**
   * Closes the store. After writes in WAL mode the log is folded back into the main file, so
   * mindsave.db alone always holds everything (a plain copy of it is a complete backup).
   */
  async closeAsync(): Promise<void> {
    if (this.wal && this.wrote) await this.client.execute("PRAGMA wal_checkpoint(TRUNCATE)").catch(() => {});
    this.client.close();
  }

  close(): void {
    this.client.close();
  }
}

/**
 * A compiled binary unpacks its libSQL addon into the temp directory before loading it; when that
 * directory is missing or read-only, say so instead of a loader error.
 */
async function loadDriver(): Promise<typeof import("@libsql/client")> {
  try {
    return await import("@libsql/client");
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    if (/shared object|dlopen|ERR_DLOPEN|\.node/i.test(msg + String((e as { code?: string })?.code))) {
      throw new UserError(
        `MindSave cannot unpack its database engine into the temp directory ${tmpdir()} (missing or not writable); set TMPDIR to a writable directory.`,
      );
    }
    throw e;
  }
}

function checkLooksLikeSqlite(path: string): void {
  if (!existsSync(path)) return;
  const st = statSync(path);
  if (st.isDirectory()) throw new UserError(`${path} is a directory, not a MindSave store file.`);
  if (st.size === 0) return;
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(16);
    readSync(fd, buf, 0, 16, 0);
    if (buf.toString("latin1") !== SQLITE_MAGIC) {
      throw new UserError(`${path} is not a MindSave store (not a SQLite database); refusing to touch it.`);
    }
  } finally {
    closeSync(fd);
  }
}

function openError(path: string, e: unknown): Error {
  if (e instanceof UserError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: string })?.code ?? "";
  if (/NOTADB|not a database/i.test(code + msg)) {
    return new UserError(`${path} is not a MindSave store (not a readable SQLite database).`);
  }
  if (/READONLY|readonly|read-only/i.test(code + msg)) {
    return new UserError(`The store ${path} is read-only here; MindSave needs to write to its home directory.`);
  }
  if (/CANTOPEN|unable to open/i.test(code + msg)) {
    return new UserError(`Cannot open the store ${path}: check that its directory exists and is writable.`);
  }
  if (/BUSY|locked/i.test(code + msg)) {
    return new UserError(`The store ${path} is busy (another MindSave is writing to it); try again in a moment.`);
  }
  return e instanceof Error ? e : new Error(msg);
}
