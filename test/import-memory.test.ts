// An import's memory stays bounded on an encrypted store too (issue 36). Two mechanisms, checked
// directly (never by RSS, which is noisy): the deferred full-text fill runs in statements of a few
// dozen snapshots each, so no statement journal (in memory for an encrypted store) holds a whole
// batch's rewrite of the index; and a long write on libSQL's driver lets the event loop run between
// its batches, where the driver frees the native results of the batch's reads.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { openDb } from "../src/store/driver.ts";
import type { Exec } from "../src/store/db.ts";
import { deferSearch, resumeSearch } from "../src/store/search-index.ts";
import { Store } from "../src/store/store.ts";
import { saveGoal } from "./engine-setup.ts";
import { projectAt, tempDir } from "./helpers.ts";

const count = async (db: Exec, sql: string) => Number((await db.execute(sql)).rows[0]?.[0] ?? 0);

test("the deferred search fill indexes every snapshot, in statements of at most 50 snapshots", async () => {
  const t = projectAt(tempDir("mindsave-fill-"));
  await saveGoal(t, "重构认证模块");
  const db = await openDb(t.db, { timeoutMs: 1000 });
  try {
    const tx = await db.transaction("write");
    // 120 more snapshots inserted with the index deferred, as an import's batch does.
    const d = (await deferSearch(tx))!;
    await tx.execute(
      "CREATE TEMP TABLE copies AS WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < 120) SELECT s.* FROM snapshots s, k",
    );
    await tx.execute("UPDATE temp.copies SET id = id || '-' || rowid, name = name || '-' || rowid");
    await tx.execute("INSERT INTO snapshots SELECT * FROM temp.copies");
    const added: number[] = [];
    const recording: Exec = {
      async execute(statement) {
        const sql = typeof statement === "string" ? statement : statement.sql;
        const before = await count(tx, "SELECT count(*) FROM snapshot_search");
        const result = await tx.execute(statement);
        if (/^INSERT INTO snapshot_search\b/.test(sql))
          added.push((await count(tx, "SELECT count(*) FROM snapshot_search")) - before);
        return result;
      },
    };
    await resumeSearch(recording, d);
    expect(added.reduce((a, b) => a + b, 0)).toBe(120);
    expect(Math.max(...added)).toBeLessThanOrEqual(50);
    expect(
      await count(tx, "SELECT count(*) FROM snapshot_search WHERE snapshot_search MATCH '认证模块'"),
    ).toBe(121);
    await tx.rollback();
  } finally {
    db.close();
  }
});

test("a write committed part by part on an encrypted store lets the event loop run between its parts", async () => {
  const store = await Store.open(join(tempDir("mindsave-parts-"), "mindsave.db"), { encryptionKey: "k" });
  try {
    const turns: boolean[] = [];
    await store.write("host-a", async (w) => {
      let turned = false;
      setImmediate(() => (turned = true));
      await w.commitSoFar();
      turns.push(turned);
    });
    expect(turns).toEqual([true]);
  } finally {
    await store.closeAsync();
  }
});
