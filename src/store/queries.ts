// Read queries of the store (class Queries), usable on the client or inside a write transaction.
import { nextText } from "../lib/text.ts";
import { failureCandidates, failuresWithItems, rankedFailureCount } from "./failure-ranks.ts";
import type { Row } from "./db.ts";
import type {
  FactRecord,
  FailureRank,
  FailureRecord,
  HostRecord,
  ProjectRecord,
  RetirementRecord,
  RootRecord,
  OffSwitchRecord,
  RuleRecord,
  SearchHit,
  SignalRecord,
  RetentionRow,
  SnapshotRecord,
  SnapshotSummary,
  ToolCallRecord,
} from "./records.ts";
import {
  type Exec,
  FAILURE_SELECT,
  FAILURE_TEXT_SELECT,
  HAS_LAYER3,
  HOST_REPEATS,
  SUMMARY_COLUMNS,
  TAGGED,
  json,
  str,
  strOrNull,
  toFact,
  toFailure,
  toHost,
  toProject,
  toRetentionRow,
  toRetirement,
  toRoot,
  toOffSwitch,
  toRule,
  toSnapshot,
  toSummary,
} from "./rows.ts";
import { CLOCK_AHEAD_KEY, type ClockAhead, compareHlc, readClockAhead } from "./hlc.ts";
import { type ScanRow, scanRows, vacuum } from "./scan.ts";
import { type SearchFilter, searchSnapshots } from "./search.ts";
import { failuresMatching } from "./failure-search.ts";

/** A tag and how many snapshots of a project carry it (`tagCounts`). */
export interface TagCount {
  project_id: string;
  tag: string;
  count: number;
}

/**
 * A text column's size in bytes (UTF-8; `length` of text counts characters). `octet_length` takes
 * it from the row's header without reading the text, which a CAST reads (Layer 3's overflow pages).
 */
const bytes = (column: string) => `octet_length(${column})`;

/** How many of a project's newest snapshots `savedRootsOnHost` reads. */
const SAVED_ROOTS_READ = 500;

/** A snapshot (the row of `snapshots`) is archived: out of the default views (migration 5). */
const ARCHIVED = "NOT EXISTS (SELECT 1 FROM listed_snapshots ls WHERE ls.snapshot_id = snapshots.id)";

/**
 * The listed snapshots of a project (`?`), newest first, walked on listed_snapshots' index: a
 * view reads its few listed rows, never the project's archived thousands.
 */
const LISTED_FROM =
  "listed_snapshots l JOIN snapshots ON snapshots.id = l.snapshot_id WHERE l.project_id = ? AND snapshots.deleted = 0";
const LISTED_ORDER = "ORDER BY l.created_at DESC, l.snapshot_id DESC";

/** What a list shows of a project's snapshots; `after`: only those the list puts after that row. */
export interface SnapshotFilter {
  listed?: boolean;
  tag?: string;
  status?: SnapshotSummary["status"];
  after?: Pick<SnapshotSummary, "created_at" | "id">;
  /** Only these snapshots (a picker's marked ones: which of them the list shows). */
  ids?: string[];
  /** Only snapshots with a cold archive (Layer 3). */
  withLayer3?: boolean;
  /** Only full snapshots, or only overflow ones. */
  kind?: SnapshotSummary["kind"];
}

/** A page of a list: `limit` rows from `offset` (or after `after`). */
export interface SnapshotPageQuery extends SnapshotFilter {
  limit?: number;
  offset?: number;
}

/**
 * The FROM and WHERE of a project's list with its filters, and their parameters. The listed ones
 * walk listed_snapshots' index; every one (archived too) walks snapshots_page (migrations.ts).
 */
function snapshotFilter(
  projectId: string,
  f: SnapshotFilter,
  o: { counted?: boolean } = {},
): [string, string, unknown[]] {
  const at = f.listed ? "(l.created_at, l.snapshot_id)" : "(snapshots.created_at, snapshots.id)";
  const own = ownColumnFilters(f);
  const conditions: [string, unknown[]][] = [
    ...own,
    ...(f.after ? [[`${at} < (?, ?)`, [f.after.created_at, f.after.id]] as [string, unknown[]]] : []),
  ];
  const where = conditions.map(([sql]) => sql);
  const params = [projectId, ...conditions.flatMap(([, args]) => args)];
  // Counted without a filter on the snapshot's own columns, the listed ones are read on
  // listed_snapshots' index alone (its triggers keep only live snapshots there): no snapshot row.
  const from = !f.listed
    ? "snapshots WHERE snapshots.project_id = ? AND snapshots.deleted = 0"
    : o.counted && !own.length
      ? "listed_snapshots l WHERE l.project_id = ?"
      : LISTED_FROM;
  return [from, where.map((w) => ` AND ${w}`).join(""), params];
}

/**
 * `column` starts with `prefix`, as a range of the column's index (the column at least the prefix,
 * below the next text after it) and a substr() test that keeps the answer exact whatever the range
 * lets through: the condition and its parameters.
 */
function startsWith(column: string, prefix: string): [string, unknown[]] {
  const above = nextText(prefix);
  return [
    `${column} >= ?${above === null ? "" : ` AND ${column} < ?`} AND substr(${column}, 1, length(?)) = ?`,
    [prefix, ...(above === null ? [] : [above]), prefix, prefix],
  ];
}

/** The list's filters on the snapshot's own columns (a row read): each condition with its parameters. */
function ownColumnFilters(f: SnapshotFilter): [string, unknown[]][] {
  const c: [string, unknown[]][] = [];
  if (f.tag !== undefined) c.push([TAGGED, [f.tag]]);
  if (f.status !== undefined) c.push(["snapshots.status = ?", [f.status]]);
  if (f.ids) c.push([`snapshots.id IN (${f.ids.map(() => "?").join(", ")})`, f.ids]);
  if (f.withLayer3) c.push([HAS_LAYER3, []]);
  if (f.kind !== undefined) c.push(["snapshots.kind = ?", [f.kind]]);
  return c;
}

/** The live failures of a project and the global ones (or only the project's, or only the global ones without a project). */
function failuresOf(
  select: string,
  projectId: string | null,
  includeGlobal = true,
  seen?: { after: string; upTo: string },
): [string, unknown[]] {
  const where = projectId
    ? includeGlobal === false
      ? "f.project_id = ?"
      : "(f.project_id = ? OR f.scope = 'global')"
    : "f.scope = 'global'";
  const params: unknown[] = projectId ? [projectId] : [];
  // A failure seen in the window: first seen or last seen in it (first_seen <= last_seen always).
  const window = seen ? " AND f.last_seen > ? AND f.first_seen <= ?" : "";
  if (seen) params.push(seen.after, seen.upTo);
  return [
    `${select} WHERE f.deleted = 0 AND ${where}${window}
       ORDER BY repeat_count DESC, f.last_seen DESC, f.item, f.id`,
    params,
  ];
}

const toToolCall = (r: Row): ToolCallRecord => ({
  id: str(r.id),
  project_id: str(r.project_id),
  session_id: strOrNull(r.session_id),
  timestamp: str(r.timestamp),
  action: str(r.action),
  tool: str(r.tool),
  target: str(r.target),
  summary: str(r.summary),
});

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

  /** Hosts whose clocks were seen far ahead of this store's (recorded by sync), newest clock first. */
  async clocksAhead(): Promise<ClockAhead[]> {
    const rows = await this.rows("SELECT key, value FROM meta WHERE substr(key, 1, ?) = ?", [
      CLOCK_AHEAD_KEY.length,
      CLOCK_AHEAD_KEY,
    ]);
    const found = rows
      .map((r) => readClockAhead(str(r.key), str(r.value)))
      .filter((c): c is ClockAhead => c !== null);
    return found.sort((a, b) => compareHlc(b.hlc, a.hlc));
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
      await this.rows(
        "SELECT * FROM projects WHERE identity = ? AND deleted = 0 AND merged_into IS NULL ORDER BY created_at, id",
        [identity],
      )
    ).map(toProject);
  }

  async listProjects(): Promise<ProjectRecord[]> {
    return (
      await this.rows("SELECT * FROM projects WHERE deleted = 0 AND merged_into IS NULL ORDER BY name, id")
    ).map(toProject);
  }

  /** Projects linked into another (merged_into set): aliases of the project their links lead to. */
  async mergedProjects(): Promise<ProjectRecord[]> {
    return (
      await this.rows("SELECT * FROM projects WHERE deleted = 0 AND merged_into IS NOT NULL ORDER BY id")
    ).map(toProject);
  }

  /** Whether any live row (snapshot, root, failure, rule…) still names the project (each by its index). */
  async holdsRows(projectId: string): Promise<boolean> {
    const tables = [
      "snapshots",
      "roots",
      "failures",
      "signals",
      "tool_calls",
      "rules",
      "facts",
      "retirements",
      "off_switches",
    ];
    const any = tables
      .map((t) => `EXISTS (SELECT 1 FROM ${t} WHERE project_id = ? AND deleted = 0)`)
      .join(" OR ");
    return (
      Number(
        (
          await this.rows(
            `SELECT ${any} AS held`,
            tables.map(() => projectId),
          )
        )[0].held,
      ) === 1
    );
  }

  async rootsOfProject(projectId: string): Promise<RootRecord[]> {
    return (
      await this.rows("SELECT * FROM roots WHERE project_id = ? AND deleted = 0 ORDER BY last_used DESC", [
        projectId,
      ])
    ).map(toRoot);
  }

  async rootsOnHost(hostId: string): Promise<RootRecord[]> {
    return (
      await this.rows("SELECT * FROM roots WHERE host_id = ? AND deleted = 0 ORDER BY last_used DESC", [
        hostId,
      ])
    ).map(toRoot);
  }

  /** The folders projects now switched off saved snapshots in on host `hostId` (a few projects: a join per switch). */
  async offProjectsSavedOnHost(hostId: string): Promise<{ project_id: string; path: string }[]> {
    const rows = await this.rows(
      `SELECT DISTINCT s.project_id, s.saved_root FROM off_switches o JOIN snapshots s ON s.project_id = o.project_id
       WHERE o.deleted = 0 AND o.scope = 'project' AND s.deleted = 0 AND s.saved_host = ? AND s.saved_root IS NOT NULL`,
      [hostId],
    );
    return rows.map((r) => ({ project_id: str(r.project_id), path: str(r.saved_root) }));
  }

  /**
   * The folders project `projectId` saved its newest snapshots in on host `hostId`: the newest
   * SAVED_ROOTS_READ of them, on the project's index. These columns lie past Layer 3, so each row
   * read walks its overflow pages: every snapshot of a large project read 280 MB at 22,000.
   */
  async savedRootsOnHost(projectId: string, hostId: string): Promise<string[]> {
    const rows = await this.rows(
      `SELECT DISTINCT saved_root FROM (
         SELECT saved_root, saved_host FROM snapshots WHERE project_id = ? AND deleted = 0
         ORDER BY created_at DESC LIMIT ${SAVED_ROOTS_READ})
       WHERE saved_host = ? AND saved_root IS NOT NULL`,
      [projectId, hostId],
    );
    return rows.map((r) => str(r.saved_root));
  }

  async snapshotCounts(): Promise<Map<string, { count: number; newest: string | null }>> {
    const rows = await this.rows(
      "SELECT project_id, count(*) AS n, max(created_at) AS newest FROM snapshots WHERE deleted = 0 GROUP BY project_id",
    );
    return new Map(rows.map((r) => [str(r.project_id), { count: Number(r.n), newest: strOrNull(r.newest) }]));
  }

  /**
   * A page of the list, newest first: `listed`, only those retention left in the default views (not
   * archived); `tag` and `status` filter in SQL; `after`, the page after that row (keyset: the id
   * breaks ties of equal times, so pages join with no gap or repeat); `offset`, a page by number.
   */
  async listSnapshots(projectId: string, opts: SnapshotPageQuery = {}): Promise<SnapshotSummary[]> {
    const [from, where, params] = snapshotFilter(projectId, opts);
    const order = opts.listed ? LISTED_ORDER : "ORDER BY snapshots.created_at DESC, snapshots.id DESC";
    const rows = await this.rows(`SELECT ${SUMMARY_COLUMNS} FROM ${from}${where} ${order} LIMIT ? OFFSET ?`, [
      ...params,
      opts.limit ?? -1,
      opts.offset ?? 0,
    ]);
    return rows.map(toSummary);
  }

  /** How many snapshots the list holds with these filters (`after`: how many come after that row). */
  async countSnapshots(projectId: string, opts: SnapshotFilter = {}): Promise<number> {
    const [from, where, params] = snapshotFilter(projectId, opts, { counted: true });
    return Number((await this.rows(`SELECT count(*) AS n FROM ${from}${where}`, params))[0].n);
  }

  /**
   * Each tag of a project's snapshots (of every project's: null) and how many carry it, most used
   * first, ties by name. Tags that differ only in case are one (as `--tag` filters them), spelled as
   * the newest of them writes it. `listed`: archived snapshots not counted.
   */
  async tagCounts(projectId: string | null, opts: { listed?: boolean } = {}): Promise<TagCount[]> {
    const where = ["snapshots.deleted = 0"];
    if (projectId !== null) where.push("snapshots.project_id = ?");
    if (opts.listed) where.push(`NOT ${ARCHIVED}`);
    // A bare column beside max(): SQLite takes it from the row that holds the max (the newest).
    const rows = await this.rows(
      `SELECT snapshots.project_id AS project_id, tag.value AS tag_name, count(*) AS n, max(snapshots.created_at) AS newest
       FROM snapshots, json_each(snapshots.tags) AS tag WHERE ${where.join(" AND ")}
       GROUP BY snapshots.project_id, lower(tag.value)
       ORDER BY project_id, n DESC, lower(tag.value), tag.value`,
      projectId === null ? [] : [projectId],
    );
    return rows.map((r) => ({ project_id: str(r.project_id), tag: str(r.tag_name), count: Number(r.n) }));
  }

  /** Whether retention left this snapshot in the default views (false: archived, or no such snapshot). */
  async isListed(snapshotId: string): Promise<boolean> {
    return (await this.rows("SELECT 1 FROM listed_snapshots WHERE snapshot_id = ?", [snapshotId])).length > 0;
  }

  /** The project's snapshots that are not archived, newest first: what the retention pass decides over (the few listed ones, not every row). */
  async listedForRetention(projectId: string): Promise<RetentionRow[]> {
    const rows = await this.rows(
      `SELECT id, name, kind, status, snapshots.created_at, saved_host FROM ${LISTED_FROM} ${LISTED_ORDER}`,
      [projectId],
    );
    return rows.map(toRetentionRow);
  }

  /** What `load` restores, which retention never archives: the project's newest snapshot and its newest full one. */
  async restoredIds(projectId: string): Promise<string[]> {
    const newest = (
      kind: string,
    ) => `SELECT id FROM (SELECT id FROM snapshots WHERE project_id = ? AND deleted = 0${kind}
       ORDER BY created_at DESC, id DESC LIMIT 1)`;
    const rows = await this.rows(`${newest("")} UNION ${newest(" AND kind = 'full'")}`, [
      projectId,
      projectId,
    ]);
    return rows.map((r) => str(r.id));
  }

  /** The archived snapshots of a project, oldest first; `before` and `status` narrow them (what a prune deletes). */
  async archivedSnapshots(
    projectId: string,
    opts: { before?: string; status?: string } = {},
  ): Promise<RetentionRow[]> {
    // (A rare command, which lists every one it finds: it walks the project's snapshots.)
    const rows = await this.rows(
      `SELECT id, name, kind, status, created_at, saved_host FROM snapshots
       WHERE project_id = ? AND deleted = 0 AND ${ARCHIVED}${opts.before !== undefined ? " AND created_at < ?" : ""}${opts.status !== undefined ? " AND status = ?" : ""}
       ORDER BY created_at ASC, id ASC`,
      [
        projectId,
        ...(opts.before !== undefined ? [opts.before] : []),
        ...(opts.status !== undefined ? [opts.status] : []),
      ],
    );
    return rows.map(toRetentionRow);
  }

  async getSnapshot(id: string): Promise<SnapshotRecord | null> {
    const rows = await this.rows("SELECT * FROM snapshots WHERE id = ? AND deleted = 0", [id]);
    return rows.length ? toSnapshot(rows[0]) : null;
  }

  /** The project's newest listed snapshot (the first of its list), or null: one statement, the list's order. */
  async newestListedSnapshot(projectId: string): Promise<SnapshotRecord | null> {
    const rows = await this.rows(`SELECT snapshots.* FROM ${LISTED_FROM} ${LISTED_ORDER} LIMIT 1`, [
      projectId,
    ]);
    return rows.length ? toSnapshot(rows[0]) : null;
  }

  /** The project's newest full snapshot (with Layer 2; not an overflow one), or null. */
  async newestFullSnapshot(projectId: string): Promise<SnapshotRecord | null> {
    const rows = await this.rows(
      "SELECT * FROM snapshots WHERE project_id = ? AND deleted = 0 AND kind = 'full' ORDER BY created_at DESC, id DESC LIMIT 1",
      [projectId],
    );
    return rows.length ? toSnapshot(rows[0]) : null;
  }

  /**
   * The newest snapshot about exactly `goal` among the project's newest `within`, or null: the one
   * whose plan a save of that goal carries. Bounded: unbounded, a goal never saved before walks every
   * snapshot of the project (34 ms at 10,000 here; 1 ms within 100).
   */
  async newestSnapshotOfGoal(
    projectId: string,
    goal: string,
    within: number,
  ): Promise<SnapshotRecord | null> {
    const rows = await this.rows(
      `SELECT id FROM (SELECT id, goal, created_at FROM snapshots WHERE project_id = ? AND deleted = 0 ORDER BY created_at DESC, id DESC LIMIT ?)
       WHERE goal = ? ORDER BY created_at DESC, id DESC LIMIT 1`,
      [projectId, within, goal],
    );
    return rows.length ? this.getSnapshot(str(rows[0].id)) : null;
  }

  /** The ids and goals of the project's newest `within` full snapshots, newest first (bounded, as above). */
  async newestFullGoals(projectId: string, within: number): Promise<{ id: string; goal: string }[]> {
    const rows = await this.rows(
      "SELECT id, goal FROM snapshots WHERE project_id = ? AND deleted = 0 AND kind = 'full' ORDER BY created_at DESC, id DESC LIMIT ?",
      [projectId, within],
    );
    return rows.map((r) => ({ id: str(r.id), goal: str(r.goal) }));
  }

  /** Snapshots of a project by their readable name (the spec's snapshot_id); newest first. */
  async findSnapshotsByName(projectId: string, name: string): Promise<SnapshotRecord[]> {
    const rows = await this.rows(
      "SELECT * FROM snapshots WHERE project_id = ? AND name = ? AND deleted = 0 ORDER BY created_at DESC, id DESC",
      [projectId, name],
    );
    return rows.map(toSnapshot);
  }

  /**
   * Every live name in the project that starts with `prefix`. A deleted snapshot's name is free
   * again (its tombstone keeps its own id, which sync goes by): an export imported back after a
   * delete keeps its name.
   */
  async namesWithPrefix(projectId: string, prefix: string): Promise<string[]> {
    // A range of the name index (an import saving 1,000 snapshots read every name of the project
    // for each).
    const [named, args] = startsWith("name", prefix);
    const rows = await this.rows(
      `SELECT name FROM snapshots WHERE project_id = ? AND ${named} AND deleted = 0`,
      [projectId, ...args],
    );
    return rows.map((r) => str(r.name));
  }

  /**
   * A project's live snapshots whose name or id starts with `prefix` (what a key that is neither
   * names), newest first: the first `limit`, how many in all and how many names among them. Ranges
   * of the name index and the primary key, never the project's every snapshot.
   */
  async snapshotsWithPrefix(
    projectId: string,
    prefix: string,
    limit: number,
  ): Promise<{ first: SnapshotSummary[]; count: number; names: number }> {
    const [named, nameArgs] = startsWith("name", prefix);
    const [ided, idArgs] = startsWith("id", prefix);
    const matches = `SELECT rowid FROM snapshots WHERE project_id = ? AND ${named} AND deleted = 0
       UNION SELECT rowid FROM snapshots WHERE ${ided} AND project_id = ? AND deleted = 0`;
    const args = [projectId, ...nameArgs, ...idArgs, projectId];
    const first = await this.rows(
      `SELECT ${SUMMARY_COLUMNS} FROM snapshots WHERE rowid IN (${matches}) ORDER BY created_at DESC, id DESC LIMIT ?`,
      [...args, limit],
    );
    const counted = await this.rows(
      `SELECT count(*) AS n, count(DISTINCT name) AS names FROM snapshots WHERE rowid IN (${matches})`,
      args,
    );
    return { first: first.map(toSummary), count: Number(counted[0].n), names: Number(counted[0].names) };
  }

  /** How many of a project's snapshots have an id that starts with `prefix`: a range of the primary key. */
  async countIdPrefix(projectId: string, prefix: string): Promise<number> {
    const [ided, args] = startsWith("id", prefix);
    const rows = await this.rows(
      `SELECT count(*) AS n FROM snapshots WHERE ${ided} AND project_id = ? AND deleted = 0`,
      [...args, projectId],
    );
    return Number(rows[0].n);
  }

  /**
   * Full-text search, newest first. Terms of three or more characters go through the FTS5 trigram
   * index (each quoted, so FTS syntax in user input is searched for, never interpreted); shorter
   * terms are matched with instr() on the same indexed text. All terms must match.
   * Bounded work on any snapshot: the query finds the hits, then reads of each hit's layers only a
   * window of CONTEXT_WINDOW characters around the first term, and the context line is cut from
   * that in JS (FTS5's snippet() scores every position of a long layer: minutes on a megabyte).
   */
  searchSnapshots(
    projectId: string | null,
    terms: string[],
    limit = 50,
    opts: SearchFilter = {},
  ): Promise<SearchHit[]> {
    return searchSnapshots(this.db, projectId, terms, limit, opts);
  }

  async listFailures(
    projectId: string | null,
    opts: { includeGlobal?: boolean } = {},
  ): Promise<FailureRecord[]> {
    return (await this.rows(...failuresOf(FAILURE_SELECT, projectId, opts.includeGlobal))).map(toFailure);
  }

  /**
   * The project's and the global failures first or last seen after `after`, up to `upTo` (what a
   * diff between two snapshots can show): read by their times, not every failure of the project.
   */
  async failuresSeenBetween(projectId: string, after: string, upTo: string): Promise<FailureRecord[]> {
    return (await this.rows(...failuresOf(FAILURE_SELECT, projectId, true, { after, upTo }))).map(toFailure);
  }

  /**
   * The failures a restore block's first `n` are among, in no order (see failure-ranks.ts): the
   * caller orders them with sortFailures at `nowMs` and keeps the first `n`.
   */
  failureCandidates(projectId: string | null, n: number, nowMs: number): Promise<FailureRank[]> {
    return failureCandidates(this.db, projectId, n, nowMs);
  }

  /** How many failures a project's restore block ranks: its own and the global ones. */
  rankedFailureCount(projectId: string | null): Promise<number> {
    return rankedFailureCount(this.db, projectId);
  }

  /** The failures a project's restore block ranks whose item is one of `items`. */
  failuresWithItems(
    projectId: string | null,
    items: string[],
    except: string[] = [],
  ): Promise<FailureRank[]> {
    return failuresWithItems(this.db, projectId, items, except);
  }

  /** The ids of a project's and the global live failures whose item or related terms hold one of `terms` (failure-search.ts). */
  failuresMatching(projectId: string | null, terms: string[]): Promise<string[]> {
    return failuresMatching(this.db, projectId, terms);
  }

  /** The live and deleted failures with these ids, in no particular order (unknown ids are left out). */
  async failuresByIds(ids: string[]): Promise<FailureRecord[]> {
    if (!ids.length) return [];
    return (
      await this.rows(`${FAILURE_SELECT} WHERE f.id IN (SELECT value FROM json_each(?))`, [
        JSON.stringify(ids),
      ])
    ).map(toFailure);
  }

  /**
   * The failures ranked in `ranks` read in full, their repeats the ranks' (read in the same
   * transaction, not summed again), in no particular order (a failure no longer there is left out).
   */
  async rankedFailuresInFull(ranks: FailureRank[]): Promise<FailureRecord[]> {
    if (!ranks.length) return [];
    const repeats = new Map(ranks.map((r) => [r.id, r.repeat_count]));
    const rows = await this.rows(`${FAILURE_TEXT_SELECT} WHERE f.id IN (SELECT value FROM json_each(?))`, [
      JSON.stringify(ranks.map((r) => r.id)),
    ]);
    return rows.map((r) => ({ ...toFailure(r), repeat_count: repeats.get(String(r.id)) ?? 0 }));
  }

  /** The rules that apply in a project: global ones first, then the project's, oldest first. */
  async listRules(projectId: string | null): Promise<RuleRecord[]> {
    return (
      await this.rows(
        "SELECT * FROM rules WHERE deleted = 0 AND (project_id IS NULL OR project_id = ?) ORDER BY scope = 'project', created_at, id",
        [projectId],
      )
    ).map(toRule);
  }

  /** The live off switches that concern a project on a host: the project's own, and the host's. */
  async offSwitches(projectId: string | null, hostId: string): Promise<OffSwitchRecord[]> {
    return (
      await this.rows(
        "SELECT * FROM off_switches WHERE deleted = 0 AND ((scope = 'project' AND project_id = ?) OR (scope = 'host' AND host_id = ?)) ORDER BY scope, id",
        [projectId, hostId],
      )
    ).map(toOffSwitch);
  }

  /** The facts of a project and the global ones, newest first (expired ones included: callers decide). */
  async listFacts(projectId: string | null): Promise<FactRecord[]> {
    return (
      await this.rows(
        "SELECT * FROM facts WHERE deleted = 0 AND (project_id IS NULL OR project_id = ?) ORDER BY confirmed_at DESC, id",
        [projectId],
      )
    ).map(toFact);
  }

  async listRetirements(projectId: string): Promise<RetirementRecord[]> {
    return (
      await this.rows(
        "SELECT * FROM retirements WHERE deleted = 0 AND project_id = ? ORDER BY retired_at DESC, id",
        [projectId],
      )
    ).map(toRetirement);
  }

  async getFailure(id: string): Promise<FailureRecord | null> {
    const rows = await this.rows(`${FAILURE_SELECT} WHERE f.id = ?`, [id]);
    return rows.length ? toFailure(rows[0]) : null;
  }

  async failureCount(failureId: string, hostId: string): Promise<number> {
    const rows = await this.rows("SELECT count FROM failure_counts WHERE failure_id = ? AND host_id = ?", [
      failureId,
      hostId,
    ]);
    return rows.length ? Number(rows[0].count) : 0;
  }

  /** Each host's repeats of a failure since it was last forgotten (its repeat_count is their sum). */
  async failureCounts(failureId: string): Promise<Record<string, number>> {
    const rows = await this.rows(
      `SELECT host_id, ${HOST_REPEATS} AS n FROM failure_counts c WHERE failure_id = ? AND n > 0 ORDER BY host_id`,
      [failureId],
    );
    return Object.fromEntries(rows.map((r) => [String(r.host_id), Number(r.n)]));
  }

  /** Every host's counter for a failure as it stands, forgotten repeats included (what forgetting records). */
  async failureCounters(failureId: string): Promise<Record<string, number>> {
    const rows = await this.rows(
      "SELECT host_id, count FROM failure_counts WHERE failure_id = ? ORDER BY host_id",
      [failureId],
    );
    return Object.fromEntries(rows.map((r) => [String(r.host_id), Number(r.count)]));
  }

  /** The clock of a rule, fact, retirement or failure by id, deleted ones too (what an import compares with). */
  async recordClock(
    table: "rules" | "facts" | "retirements" | "failures",
    id: string,
  ): Promise<{ hlc: string; deleted: boolean } | null> {
    const rows = await this.rows(`SELECT hlc, deleted FROM ${table} WHERE id = ?`, [id]);
    return rows.length ? { hlc: String(rows[0].hlc), deleted: Number(rows[0].deleted) !== 0 } : null;
  }

  /**
   * The project's snapshots named `name` or `name-…` (deleted: their tombstones, which keep name and
   * time), newest first: what an import compares one file with, looked up through the name index
   * rather than the whole project held in memory. ("." follows "-": the range is every `name-…`;
   * `+deleted` keeps the planner on the name index rather than a scan of the project's snapshots.)
   */
  async snapshotsNamed(
    projectId: string,
    name: string,
    deleted: boolean,
  ): Promise<{ name: string; created_at: string }[]> {
    const rows = await this.rows(
      `SELECT name, created_at FROM snapshots WHERE project_id = ? AND name >= ? AND name < ?
       AND (name = ? OR name > ?) AND +deleted = ? ORDER BY created_at DESC, id DESC`,
      [projectId, name, `${name}.`, name, `${name}-`, deleted ? 1 : 0],
    );
    return rows.map((r) => ({ name: String(r.name), created_at: String(r.created_at) }));
  }

  /** A snapshot record by id, deleted ones too: what an import that carries the id meets. */
  async snapshotTrace(
    id: string,
  ): Promise<{ project_id: string; name: string; created_at: string; deleted: boolean } | null> {
    const rows = await this.rows("SELECT project_id, name, created_at, deleted FROM snapshots WHERE id = ?", [
      id,
    ]);
    return rows.length
      ? {
          project_id: String(rows[0].project_id),
          name: String(rows[0].name),
          created_at: String(rows[0].created_at),
          deleted: Number(rows[0].deleted) !== 0,
        }
      : null;
  }

  /** The newest `limit` tool calls of a project, oldest first. */
  async listToolCalls(projectId: string, limit = 50): Promise<ToolCallRecord[]> {
    const rows = await this.rows(
      `SELECT * FROM (SELECT rowid AS n, * FROM tool_calls WHERE project_id = ? AND deleted = 0 ORDER BY timestamp DESC, n DESC LIMIT ?)
       ORDER BY timestamp ASC, n ASC`,
      [projectId, limit],
    );
    return rows.map(toToolCall);
  }

  /**
   * The newest `limit` calls, oldest first, of the session of the newest call `hostId` logged in
   * the project (a call with no session is none's); none when it logged none.
   */
  async newestSessionToolCalls(projectId: string, hostId: string, limit: number): Promise<ToolCallRecord[]> {
    const rows = await this.rows(
      `WITH mine AS (SELECT rowid AS n, * FROM tool_calls WHERE project_id = ? AND deleted = 0 AND host = ? AND session_id IS NOT NULL)
       SELECT * FROM (SELECT * FROM mine WHERE session_id = (SELECT session_id FROM mine ORDER BY timestamp DESC, n DESC LIMIT 1)
         ORDER BY timestamp DESC, n DESC LIMIT ?)
       ORDER BY timestamp ASC, n ASC`,
      [projectId, hostId, limit],
    );
    return rows.map(toToolCall);
  }

  async countToolCalls(projectId: string): Promise<number> {
    return Number(
      (
        await this.rows("SELECT count(*) AS n FROM tool_calls WHERE project_id = ? AND deleted = 0", [
          projectId,
        ])
      )[0].n,
    );
  }

  async getSignal(projectId: string): Promise<SignalRecord | null> {
    const rows = await this.rows("SELECT * FROM signals WHERE project_id = ? AND deleted = 0", [projectId]);
    if (!rows.length) return null;
    return {
      project_id: str(rows[0].project_id),
      data: json(rows[0].data, {}),
      hlc: str(rows[0].hlc),
      host: str(rows[0].host),
    };
  }

  /** A page of one of scan's tables (see scan.ts), tombstones included. */
  scanRows(table: string, afterRowid: number, limit: number): Promise<ScanRow[]> {
    return scanRows(this.db, table, afterRowid, limit);
  }

  /** Rebuilds the store file without its free pages; only outside a transaction (on the Store). */
  vacuum(): Promise<void> {
    return vacuum(this.db);
  }

  async snapshotStats(projectId: string): Promise<{
    count: number;
    bytes: number;
    layer1: number;
    layer2: number;
    layer3: number;
    l1_tokens: number;
    l2_tokens: number;
    by_status: Record<string, number>;
    oldest: string | null;
    newest: string | null;
  }> {
    const rows = await this.rows(
      `SELECT count(*) AS n,
         coalesce(sum(${bytes("goal")} + ${bytes("state")} + ${bytes("next_action")} + ${bytes("blocker")} + ${bytes("active_files")}), 0) AS l1,
         coalesce(sum(${bytes("constraints")} + ${bytes("decisions")} + ${bytes("failure_graph")} + coalesce(${bytes("compressed")}, 0)), 0) AS l2,
         coalesce(sum(${bytes("layer3")}), 0) AS l3,
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
    const l1 = Number(r.l1),
      l2 = Number(r.l2),
      l3 = Number(r.l3);
    return {
      count: Number(r.n),
      bytes: l1 + l2 + l3,
      layer1: l1,
      layer2: l2,
      layer3: l3,
      l1_tokens: Number(r.l1t),
      l2_tokens: Number(r.l2t),
      by_status: Object.fromEntries(byStatus.map((b) => [str(b.status), Number(b.n)])),
      oldest: strOrNull(r.oldest),
      newest: strOrNull(r.newest),
    };
  }
}
