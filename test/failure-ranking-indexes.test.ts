// The failure ranking's indexes are made on writable opens only as a speed-up: a store that cannot
// take them now (another writer holds the lock) still opens, and gets them on a later open.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Queries, Store } from "../src/store/store.ts";
import { INDEXES } from "../src/store/migrations.ts";
import { sortFailures } from "../src/engine/failures/graph.ts";
import { gitRepo, laptop, ok, sql, storeClient, tempDir } from "./helpers.ts";

describe("the failure ranking's indexes: another writer, and ties", () => {
  const names = async (db: string) =>
    (await sql(db, "SELECT name FROM sqlite_master WHERE type = 'index'")).map((r) => String(r.name));

  test("a store without them opens while another connection holds the write lock, and a later open makes them", async () => {
    const pc = laptop("indexes-busy");
    const repo = gitRepo(join(tempDir(), "repo"));
    await ok(["fail", "use redis", "--reason", "too slow", "--alt", "memcached"], { cwd: repo, env: pc.env });
    const db = join(pc.home, ".mindsave", "mindsave.db");
    for (const i of INDEXES) await sql(db, `DROP INDEX ${i.name}`);
    const projectId = String((await sql(db, "SELECT id FROM projects"))[0].id);
    const writer = await storeClient(db);
    const tx = await writer.transaction("write");
    try {
      // Reading needs no write lock: before the indexes were made on open, this opened.
      const store = await Store.open(db, { busyTimeoutMs: 50 });
      try {
        expect((await store.listFailures(projectId)).map((f) => f.item)).toEqual(["use redis"]);
      } finally {
        await store.closeAsync();
      }
    } finally {
      await tx.rollback();
      tx.close();
      writer.close();
    }
    expect(await names(db)).not.toContain(INDEXES[0].name);
    (await Store.open(db, { busyTimeoutMs: 1000 })).close();
    expect(await names(db)).toEqual(expect.arrayContaining(INDEXES.map((i) => i.name)));
  });

  test("failures that tie on every ranking key come in the same order with or without the indexes: by id", async () => {
    const pc = laptop("indexes-ties");
    const repo = gitRepo(join(tempDir(), "repo"));
    await ok(["fail", "warm-up", "--reason", "x"], { cwd: repo, env: pc.env });
    const db = join(pc.home, ".mindsave", "mindsave.db");
    const projectId = String((await sql(db, "SELECT id FROM projects"))[0].id);
    // The same item in both scopes (as a sync of two hosts can leave it), seen at the same moment:
    // the global one written first, the project's id first.
    const row =
      "INSERT INTO failures(id, project_id, scope, item, rejected_by, reason, confidence, schema_version, first_seen, last_seen, hlc, host, deleted) VALUES (?, ?, ?, 'same', 'user', 'r', 'high', '1.0', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z', '0000000000000-0000-h', 'h', 0)";
    await sql(db, row, ["f_b_global", null, "global"]);
    await sql(db, row, ["f_a_project", projectId, "project"]);
    // The restore block's order, ranked at the moment both were seen (neither aged: a tie).
    const NOW = "2026-11-01T00:00:00.000Z";
    const ranks = async () => {
      const c = await storeClient(db);
      try {
        const candidates = await new Queries(c).failureCandidates(projectId, 10, Date.parse(NOW));
        return sortFailures(candidates, new Date(NOW))
          .filter((f) => f.item === "same")
          .map((f) => f.id);
      } finally {
        c.close();
      }
    };
    const withIndexes = await ranks();
    for (const i of INDEXES) await sql(db, `DROP INDEX ${i.name}`);
    expect(await ranks()).toEqual(withIndexes);
    expect(withIndexes).toEqual(["f_a_project", "f_b_global"]);
  });
});
