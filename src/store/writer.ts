// Writes to the store (class StoreWriter): every write in one transaction, stamped with the
// hybrid logical clock and the writing host.
import type { Tx } from "./db.ts";
import {
  type Hlc,
  MAX_AHEAD_MS,
  compareHlc,
  formatHlc,
  hlcHost,
  isPast,
  nextHlc,
  normalizeHlc,
  parseHlc,
} from "./hlc.ts";
import { Queries } from "./queries.ts";
import { storedPlan, str } from "./rows.ts";
import { optimizeSearch, rewriteCells } from "./scan.ts";
import { deferSearch, indexedSnapshots, mergeSearchStep, resumeSearch } from "./search-index.ts";
import type {
  FactRecord,
  FailureRecord,
  HostRecord,
  PlanItem,
  ProjectRecord,
  RetirementRecord,
  RootRecord,
  OffSwitchRecord,
  RuleRecord,
  SnapshotRecord,
  ToolCallRecord,
} from "./records.ts";

/** Reads and writes inside one write transaction; every write stamps the row with the clock and host. */
export class StoreWriter extends Queries {
  private clock: Hlc | null = null;
  /**
   * What a signal's data goes through before it is stored: the signal is the one free-form
   * mapping many paths add to (hooks' session notes, imported signal.json), so the engine cleans
   * it here, as a whole (its secrets redacted; see the engine's Session.write).
   */
  scrubSignal: (data: object) => object = (data) => data;

  constructor(
    db: Pick<Tx, "execute">,
    readonly hostId: string,
    private readonly now: () => number,
    private readonly commitPoint?: () => Promise<void>,
  ) {
    super(db);
  }

  /**
   * Commits what this write did so far and goes on in a new transaction (an import, batch by
   * batch). The clock is kept first and read again after: another process may write in between.
   */
  async commitSoFar(): Promise<void> {
    if (!this.commitPoint) throw new Error("This write cannot be committed part by part.");
    await this.flushClock();
    await this.commitPoint();
    this.clock = null;
  }

  protected async run(sql: string, args: unknown[]): Promise<void> {
    await this.db.execute({ sql, args: args as never });
  }

  /**
   * The next clock value: never behind the wall clock, never behind any clock this store has taken
   * in (sync only lets in clocks at most 24 h ahead); past counter 9,999 the wall part moves on 1 ms.
   */
  async tick(): Promise<string> {
    if (!this.clock) this.clock = parseHlc(await this.getMeta("clock"));
    this.clock = nextHlc(this.clock, this.now());
    return formatHlc(this.clock.wall, this.clock.counter, this.hostId);
  }

  /**
   * This store's now for a plan step's time: the wall clock, or a millisecond past every clock this
   * store has taken in when that is later, so a laptop whose clock is behind still times its
   * change after what it synced in (a step's time keeps milliseconds only: never a tie with one).
   */
  async clockNow(): Promise<Date> {
    if (!this.clock) this.clock = parseHlc(await this.getMeta("clock"));
    this.clock = normalizeHlc(Math.max(this.now(), this.clock.wall + 1), 0);
    return new Date(this.clock.wall);
  }

  /**
   * The clock of an edit of the row of `table` whose `column` is `key`: a fresh tick, or, when that
   * row holds a clock ahead of it (a host whose clock ran more than a day ahead, which this store's
   * clock does not follow), one step past that row's. The edit then wins in every store, as it does
   * here, and the stores agree; this store's own clock stays where it is.
   */
  private async stampPast(table: string, column: string, key: string): Promise<string> {
    const tick = await this.tick();
    const rows = await this.rows(`SELECT hlc FROM ${table} WHERE ${column} = ?`, [key]);
    const held = rows.length ? str(rows[0].hlc) : "";
    if (compareHlc(held, tick) < 0) return tick;
    const past = parseHlc(held);
    return formatHlc(past.wall, past.counter + 1, this.hostId);
  }

  /** The clock and host a write is stamped with: a fresh tick, or a record's own clock taken in (an import). */
  private async stamp(
    clock?: string,
    row?: [table: string, column: string, key: string],
  ): Promise<[string, string]> {
    if (!clock) return [row ? await this.stampPast(...row) : await this.tick(), this.hostId];
    await this.takeClock(clock);
    return [clock, hlcHost(clock) || this.hostId];
  }

  /** Moves this store's clock past a clock taken in (never to one more than MAX_AHEAD_MS ahead of now). */
  async takeClock(hlc: string): Promise<void> {
    const seen = parseHlc(hlc);
    if (seen.wall > this.now() + MAX_AHEAD_MS) return;
    if (!this.clock) this.clock = parseHlc(await this.getMeta("clock"));
    if (isPast(seen, this.clock)) this.clock = seen;
  }

  /** Runs `fn`'s writes, then keeps this writer's clock in the store. */
  async within<T>(fn: (w: StoreWriter) => Promise<T>): Promise<T> {
    const result = await fn(this);
    await this.flushClock();
    return result;
  }

  async flushClock(): Promise<void> {
    if (this.clock) await this.setMeta("clock", formatHlc(this.clock.wall, this.clock.counter, ""));
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.run(
      "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      [key, value],
    );
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

  /**
   * A project's first record has the zero clock: any later change (a rename, a link) wins over it,
   * and of two hosts' first records the older one wins (see the sync's `replaces`).
   */
  async insertProject(p: Omit<ProjectRecord, "hlc" | "host" | "deleted">): Promise<void> {
    await this.run(
      `INSERT INTO projects(id, identity, name, remote, created_at, merged_into, hlc, host, deleted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)`,
      [
        p.id,
        p.identity,
        p.name,
        p.remote,
        p.created_at,
        p.merged_into,
        formatHlc(0, 0, this.hostId),
        this.hostId,
      ],
    );
  }

  /** When a project's first record was made, as the store it was exported from says (its zero clock kept). */
  async setProjectMadeAt(id: string, createdAt: string): Promise<void> {
    await this.run(`UPDATE projects SET created_at = ? WHERE id = ?`, [createdAt, id]);
  }

  async updateProject(
    id: string,
    fields: Partial<Pick<ProjectRecord, "name" | "remote" | "merged_into">>,
  ): Promise<void> {
    const cols = Object.keys(fields) as (keyof typeof fields)[];
    if (!cols.length) return;
    await this.run(
      `UPDATE projects SET ${cols.map((c) => `${c} = ?`).join(", ")}, hlc = ?, host = ? WHERE id = ?`,
      [...cols.map((c) => fields[c] ?? null), await this.stampPast("projects", "id", id), this.hostId, id],
    );
  }

  async upsertRoot(
    r: Pick<RootRecord, "id" | "project_id" | "host_id" | "path" | "last_used">,
  ): Promise<void> {
    await this.run(
      `INSERT INTO roots(id, project_id, host_id, path, last_used, hlc, host, deleted) VALUES (?, ?, ?, ?, ?, ?, ?, 0)
       ON CONFLICT(id) DO UPDATE SET project_id = excluded.project_id, path = excluded.path, last_used = excluded.last_used,
         hlc = excluded.hlc, host = excluded.host, deleted = 0`,
      [
        r.id,
        r.project_id,
        r.host_id,
        r.path,
        r.last_used,
        await this.stampPast("roots", "id", r.id),
        this.hostId,
      ],
    );
  }

  async deleteRoot(id: string): Promise<void> {
    await this.run("UPDATE roots SET deleted = 1, hlc = ?, host = ? WHERE id = ?", [
      await this.stampPast("roots", "id", id),
      this.hostId,
      id,
    ]);
  }

  /**
   * `clock`: an import of a MindSave export keeps the record's own clock (so the copy never
   * overrides the original, or an edit of it, in a sync); this store's clock moves past it.
   */
  async insertSnapshot(s: Omit<SnapshotRecord, "hlc" | "host" | "deleted">, clock?: string): Promise<void> {
    const [hlc, host] = await this.stamp(clock);
    await this.run(
      `INSERT INTO snapshots(id, project_id, name, topic, kind, status, created_at, version, goal, state, next_action, blocker,
         active_files, constraints, decisions, failure_graph, compressed, layer3, auto_trigger, extra, l1_tokens, l2_tokens,
         saved_host, saved_root, plan, tags, saved_agent, line_tokens, hlc, host, deleted)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
      [
        s.id,
        s.project_id,
        s.name,
        s.topic,
        s.kind,
        s.status,
        s.created_at,
        s.version,
        s.goal,
        s.state,
        s.next_action,
        s.blocker,
        JSON.stringify(s.active_files),
        JSON.stringify(s.constraints),
        JSON.stringify(s.decisions),
        JSON.stringify(s.failure_graph),
        s.compressed ? JSON.stringify(s.compressed) : null,
        s.layer3,
        s.auto_trigger ? JSON.stringify(s.auto_trigger) : null,
        s.extra ? JSON.stringify(s.extra) : null,
        s.l1_tokens,
        s.l2_tokens,
        s.saved_host,
        s.saved_root,
        storedPlan(s.plan, s.plan_times),
        JSON.stringify(s.tags ?? []),
        s.saved_agent ?? null,
        s.line_tokens ? JSON.stringify(s.line_tokens) : null,
        hlc,
        host,
      ],
    );
  }

  /** The plan of a snapshot replaced (`mindsave plan set`): an edit, synced by the snapshot's clock; `times` by step (see storedPlan). */
  async setSnapshotPlan(
    id: string,
    plan: PlanItem[] | null,
    times?: (string | null)[] | null,
  ): Promise<void> {
    await this.run("UPDATE snapshots SET plan = ?, hlc = ?, host = ? WHERE id = ?", [
      storedPlan(plan, times),
      await this.stampPast("snapshots", "id", id),
      this.hostId,
      id,
    ]);
  }

  /** `clock`: an import keeps the record's own clock (see insertSnapshot). */
  async putRule(r: Omit<RuleRecord, "hlc" | "host" | "deleted">, clock?: string): Promise<void> {
    const [hlc, host] = await this.stamp(clock, ["rules", "id", r.id]);
    await this.run(
      `INSERT INTO rules(id, project_id, scope, text, created_at, hlc, host, deleted) VALUES (?, ?, ?, ?, ?, ?, ?, 0)
       ON CONFLICT(id) DO UPDATE SET text = excluded.text, scope = excluded.scope, project_id = excluded.project_id,
         hlc = excluded.hlc, host = excluded.host, deleted = 0`,
      [r.id, r.project_id, r.scope, r.text, r.created_at, hlc, host],
    );
  }

  /** `clock`: an import keeps the record's own clock (see insertSnapshot). */
  async putFact(f: Omit<FactRecord, "hlc" | "host" | "deleted">, clock?: string): Promise<void> {
    const [hlc, host] = await this.stamp(clock, ["facts", "id", f.id]);
    await this.run(
      `INSERT INTO facts(id, project_id, scope, text, confidence, created_at, confirmed_at, expires_at, hlc, host, deleted)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
       ON CONFLICT(id) DO UPDATE SET text = excluded.text, confidence = excluded.confidence, confirmed_at = excluded.confirmed_at,
         expires_at = excluded.expires_at, hlc = excluded.hlc, host = excluded.host, deleted = 0`,
      [
        f.id,
        f.project_id,
        f.scope,
        f.text,
        f.confidence,
        f.created_at,
        f.confirmed_at,
        f.expires_at,
        hlc,
        host,
      ],
    );
  }

  /** `clock`: an import keeps the record's own clock (see insertSnapshot). */
  async putRetirement(r: Omit<RetirementRecord, "hlc" | "host" | "deleted">, clock?: string): Promise<void> {
    const [hlc, host] = await this.stamp(clock, ["retirements", "id", r.id]);
    await this.run(
      `INSERT INTO retirements(id, project_id, kind, text, reason, retired_at, retired_by, hlc, host, deleted)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
       ON CONFLICT(id) DO UPDATE SET reason = excluded.reason, retired_at = excluded.retired_at, retired_by = excluded.retired_by,
         hlc = excluded.hlc, host = excluded.host, deleted = 0`,
      [r.id, r.project_id, r.kind, r.text, r.reason, r.retired_at, r.retired_by, hlc, host],
    );
  }

  /** MindSave off for a project or a host (`mindsave off`); off again after an `on`. */
  async putOffSwitch(o: Omit<OffSwitchRecord, "hlc" | "host" | "deleted">): Promise<void> {
    const [hlc, host] = await this.stamp(undefined, ["off_switches", "id", o.id]);
    await this.run(
      `INSERT INTO off_switches(id, scope, project_id, host_id, off_at, hlc, host, deleted) VALUES (?, ?, ?, ?, ?, ?, ?, 0)
       ON CONFLICT(id) DO UPDATE SET off_at = excluded.off_at, hlc = excluded.hlc, host = excluded.host, deleted = 0`,
      [o.id, o.scope, o.project_id, o.host_id, o.off_at, hlc, host],
    );
  }

  /** A removed rule, a dropped fact, an undone retirement or an off switch turned on: a tombstone that travels by sync. */
  async tombstone(table: "rules" | "facts" | "retirements" | "off_switches", id: string): Promise<void> {
    await this.run(`UPDATE ${table} SET deleted = 1, hlc = ?, host = ? WHERE id = ?`, [
      await this.stampPast(table, "id", id),
      this.hostId,
      id,
    ]);
  }

  async setSnapshotStatus(id: string, status: SnapshotRecord["status"]): Promise<void> {
    await this.run("UPDATE snapshots SET status = ?, hlc = ?, host = ? WHERE id = ?", [
      status,
      await this.stampPast("snapshots", "id", id),
      this.hostId,
      id,
    ]);
  }

  async moveSnapshots(fromProject: string, toProject: string, onlyIds?: string[]): Promise<number> {
    const ids =
      onlyIds ??
      (await this.rows("SELECT id FROM snapshots WHERE project_id = ? AND deleted = 0", [fromProject])).map(
        (r) => str(r.id),
      );
    for (const id of ids) {
      await this.run("UPDATE snapshots SET project_id = ?, hlc = ?, host = ? WHERE id = ?", [
        toProject,
        await this.stampPast("snapshots", "id", id),
        this.hostId,
        id,
      ]);
    }
    return ids.length;
  }

  /** A delete is a tombstone: the id and clock stay (so the delete can travel), the content goes. */
  async tombstoneSnapshot(id: string): Promise<void> {
    await this.run(
      `UPDATE snapshots SET deleted = 1, goal = '', state = '', next_action = '', blocker = '', active_files = '[]',
         constraints = '[]', decisions = '[]', failure_graph = '{}', compressed = NULL, layer3 = '', auto_trigger = NULL,
         extra = NULL, plan = NULL, tags = '[]', line_tokens = NULL, hlc = ?, host = ? WHERE id = ?`,
      [await this.stampPast("snapshots", "id", id), this.hostId, id],
    );
  }

  /** Archives snapshots (retention): out of the default views (listed_snapshots), still whole. */
  async archiveSnapshots(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.run("DELETE FROM listed_snapshots WHERE snapshot_id IN (SELECT value FROM json_each(?))", [
      JSON.stringify(ids),
    ]);
  }

  /** Lists these live snapshots again (what `load` restores is never archived). */
  async unarchiveSnapshots(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.run(
      `INSERT OR IGNORE INTO listed_snapshots(snapshot_id, project_id, created_at)
       SELECT id, project_id, created_at FROM snapshots WHERE id IN (SELECT value FROM json_each(?)) AND deleted = 0`,
      [JSON.stringify(ids)],
    );
  }

  /** When the project's newest snapshot was made (its `created_at`), or null. */
  async newestCreatedAt(projectId: string): Promise<string | null> {
    const rows = await this.rows(
      "SELECT max(created_at) AS at FROM snapshots WHERE project_id = ? AND deleted = 0",
      [projectId],
    );
    return rows[0]?.at === null || rows[0]?.at === undefined ? null : str(rows[0].at);
  }

  async upsertFailure(
    f: Omit<FailureRecord, "hlc" | "host" | "deleted" | "repeat_count" | "related" | "alternatives">,
  ): Promise<void> {
    await this.run(
      `INSERT INTO failures(id, project_id, scope, item, rejected_by, reason, confidence, schema_version, first_seen, last_seen, head_tokens, hlc, host, deleted)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
       ON CONFLICT(id) DO UPDATE SET item = excluded.item, rejected_by = excluded.rejected_by, reason = excluded.reason,
         confidence = excluded.confidence, schema_version = excluded.schema_version, first_seen = excluded.first_seen,
         last_seen = excluded.last_seen, head_tokens = excluded.head_tokens, hlc = excluded.hlc, host = excluded.host, deleted = 0`,
      [
        f.id,
        f.project_id,
        f.scope,
        f.item,
        f.rejected_by,
        f.reason,
        f.confidence,
        f.schema_version,
        f.first_seen,
        f.last_seen,
        f.head_tokens ?? null,
        await this.stampPast("failures", "id", f.id),
        this.hostId,
      ],
    );
  }

  async tombstoneFailure(id: string): Promise<void> {
    await this.run("UPDATE failures SET deleted = 1, hlc = ?, host = ? WHERE id = ?", [
      await this.stampPast("failures", "id", id),
      this.hostId,
      id,
    ]);
  }

  private counterKey: string | null = null;

  /**
   * The key of the failure counter this store bumps: this host in this store. A drive and a home
   * on one laptop share the host id but count apart, so sync (which keeps the larger of two
   * counters under one key) adds their repeats up instead of keeping one side's. Hashed, so it is
   * a host id in form (what an export's per-host counts must be to be read back, by any version).
   */
  async ownCounterKey(): Promise<string> {
    if (this.counterKey === null) {
      const store = await this.getMeta("store_id");
      const digest = store
        ? new Bun.CryptoHasher("sha256").update(this.hostId).update("\0").update(store).digest("hex")
        : null;
      this.counterKey = digest ? `sc_${digest.slice(0, 24)}` : this.hostId;
    }
    return this.counterKey;
  }

  /** This store's own count of a failure (see ownCounterKey). */
  async ownFailureCount(failureId: string): Promise<number> {
    return this.failureCount(failureId, await this.ownCounterKey());
  }

  /** This store's own counter for a failure; other hosts' and stores' counters are never touched here. */
  async setFailureCount(failureId: string, count: number): Promise<void> {
    await this.run(
      `INSERT INTO failure_counts(failure_id, host_id, count, hlc) VALUES (?, ?, ?, ?)
       ON CONFLICT(failure_id, host_id) DO UPDATE SET count = excluded.count, hlc = excluded.hlc`,
      [failureId, await this.ownCounterKey(), count, await this.tick()],
    );
  }

  /** A failure imported whole from MindSave's own export takes the clock it had there (see insertSnapshot). */
  async restampFailure(id: string, clock: string): Promise<void> {
    const [hlc, host] = await this.stamp(clock);
    await this.run("UPDATE failures SET hlc = ?, host = ? WHERE id = ?", [hlc, host, id]);
  }

  /**
   * Other hosts' counters taken in from an export (as sync merges them: each the larger of the
   * two), so the same observations met twice are not counted twice.
   */
  async mergeFailureCounts(failureId: string, counts: Record<string, number>): Promise<void> {
    for (const [host, count] of Object.entries(counts)) {
      await this.run(
        `INSERT INTO failure_counts(failure_id, host_id, count, hlc) VALUES (?, ?, ?, ?)
         ON CONFLICT(failure_id, host_id) DO UPDATE SET count = excluded.count, hlc = excluded.hlc WHERE excluded.count > failure_counts.count`,
        [failureId, host, count, await this.tick()],
      );
    }
  }

  /** `forgotten`: the failure's counters when it was forgotten, as JSON (see FAILURE_REPEATS). */
  async putFailureLink(
    id: string,
    failureId: string,
    kind: "related" | "alternative" | "forgotten",
    value: string,
    deleted = false,
  ): Promise<void> {
    await this.run(
      `INSERT INTO failure_links(id, failure_id, kind, value, hlc, host, deleted) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET value = excluded.value, deleted = excluded.deleted, hlc = excluded.hlc, host = excluded.host`,
      [
        id,
        failureId,
        kind,
        value,
        await this.stampPast("failure_links", "id", id),
        this.hostId,
        deleted ? 1 : 0,
      ],
    );
  }

  /** Adds a tool call unless one with its id, or one of `alsoIds` (its ids in earlier versions), is there already (re-ingesting is a no-op). */
  async addToolCall(c: ToolCallRecord, alsoIds: string[] = []): Promise<boolean> {
    const before = await this.rows(
      "SELECT 1 FROM tool_calls WHERE id IN (SELECT value FROM json_each(?)) LIMIT 1",
      [JSON.stringify([c.id, ...alsoIds])],
    );
    if (before.length) return false;
    await this.run(
      `INSERT INTO tool_calls(id, project_id, session_id, timestamp, action, tool, target, summary, hlc, host, deleted)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
      [
        c.id,
        c.project_id,
        c.session_id,
        c.timestamp,
        c.action,
        c.tool,
        c.target,
        c.summary,
        await this.tick(),
        this.hostId,
      ],
    );
    return true;
  }

  /** The live tool calls of a project moved to another (a link): their ids stay, one clock for all. */
  async moveToolCalls(fromProject: string, toProject: string): Promise<number> {
    const r = await this.db.execute({
      sql: "UPDATE tool_calls SET project_id = ?, hlc = ?, host = ? WHERE project_id = ? AND deleted = 0",
      args: [toProject, await this.tick(), this.hostId, fromProject],
    });
    return r.rowsAffected;
  }

  /** Rewrites text cells of a row of one of scan's tables (scan.ts), stamped with the clock when it is synced. */
  async rewriteCells(table: string, key: string[], cells: Record<string, string | null>): Promise<void> {
    await rewriteCells(this.db, table, key, cells, { hlc: await this.tick(), host: this.hostId });
  }

  /**
   * Runs `fn` (many snapshot inserts: an import) with the full-text index of the snapshots it adds
   * filled by one statement at its end rather than row by row (search-index.ts). All in this
   * transaction: a kill or an error rolls it back whole, the insert trigger included.
   */
  async withSearchDeferred<T>(fn: () => Promise<T>): Promise<T> {
    const deferred = await deferSearch(this.db);
    if (!deferred) return fn();
    let result: T;
    try {
      result = await fn();
    } catch (e) {
      // The transaction rolls back; the trigger is made again in case a caller commits anyway.
      await resumeSearch(this.db, deferred).catch(() => {});
      throw e;
    }
    await resumeSearch(this.db, deferred);
    return result;
  }

  /**
   * After an import of `added` snapshots that at least doubled the full-text index: its segments
   * merged into one, a bounded step per commit (search-index.ts). Each segment costs every search a
   * lookup; a smaller import leaves the merging to FTS5, whose cost here would be the whole index's.
   */
  async mergeSearchAfterImport(added: number): Promise<void> {
    if (!added || added * 2 < (await indexedSnapshots(this.db))) return;
    while (await mergeSearchStep(this.db)) await this.commitSoFar();
  }

  /** Merges the full-text index, so what rewritten snapshots said is gone from it. */
  async optimizeSearch(): Promise<void> {
    await optimizeSearch(this.db);
  }

  async putSignal(projectId: string, data: object): Promise<void> {
    await this.run(
      `INSERT INTO signals(project_id, data, hlc, host, deleted) VALUES (?, ?, ?, ?, 0)
       ON CONFLICT(project_id) DO UPDATE SET data = excluded.data, hlc = excluded.hlc, host = excluded.host, deleted = 0`,
      [
        projectId,
        JSON.stringify(this.scrubSignal(data)),
        await this.stampPast("signals", "project_id", projectId),
        this.hostId,
      ],
    );
  }

  async tombstoneSignal(projectId: string): Promise<void> {
    await this.run("UPDATE signals SET deleted = 1, hlc = ?, host = ? WHERE project_id = ?", [
      await this.stampPast("signals", "project_id", projectId),
      this.hostId,
      projectId,
    ]);
  }
}
