// One SQLite library per store file per process: a file open through Bun's SQLite is never opened
// through libSQL's driver in the same process, nor the other way round (two libraries on one file
// release each other's POSIX locks). The code that opens files refuses it, with an internal error.
import { describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { openDb } from "../src/store/driver.ts";
import { Store } from "../src/store/store.ts";
import { UserError } from "../src/errors.ts";
import { tempDir } from "./helpers.ts";

const BUN = /open through Bun's SQLite in this process, so it cannot be opened through libSQL's driver/;
const LIBSQL = /open through libSQL's driver in this process, so it cannot be opened through Bun's SQLite/;

/** The error `open` fails with (null when it opens: then the connection is closed). */
async function refusal(open: () => Promise<{ close(): void }>): Promise<Error | null> {
  try {
    (await open()).close();
    return null;
  } catch (e) {
    return e as Error;
  }
}

describe("one SQLite library per store file in a process", () => {
  test("a file open through Bun's SQLite is refused through libSQL's driver (writable, read-only, through a symlink), until it is closed", async () => {
    const dir = tempDir();
    const path = join(dir, "mindsave.db");
    const bun = await openDb(path, { timeoutMs: 1000 });
    await bun.execute("CREATE TABLE t (v TEXT)");
    await bun.execute({ sql: "INSERT INTO t VALUES (?)", args: ["中文 kept"] });
    const link = join(dir, "link.db");
    symlinkSync(path, link);
    try {
      for (const open of [
        () => openDb(path, { timeoutMs: 1000, libsql: true }),
        () => openDb(path, { timeoutMs: 1000, readOnly: true, libsql: true }),
        () => openDb(link, { timeoutMs: 1000, libsql: true }),
      ]) {
        const e = await refusal(open);
        expect(e?.message).toMatch(BUN);
        // A bug of ours, not the person's: never a user error.
        expect(e).not.toBeInstanceOf(UserError);
      }
      // Another connection through the same library is fine, and so is another file.
      expect(await refusal(() => openDb(path, { timeoutMs: 1000 }))).toBeNull();
      expect(
        await refusal(() => openDb(join(dir, "other.db"), { timeoutMs: 1000, libsql: true })),
      ).toBeNull();
      // The refused opens changed nothing the open connection sees.
      expect((await bun.execute("SELECT v FROM t")).rows.map((r) => r.v)).toEqual(["中文 kept"]);
    } finally {
      bun.close();
    }
    const libsql = await openDb(path, { timeoutMs: 1000, libsql: true });
    try {
      expect((await libsql.execute("SELECT v FROM t")).rows.map((r) => r.v)).toEqual(["中文 kept"]);
      expect((await refusal(() => openDb(path, { timeoutMs: 1000 })))?.message).toMatch(LIBSQL);
    } finally {
      libsql.close();
    }
    expect(await refusal(() => openDb(path, { timeoutMs: 1000 }))).toBeNull();
  });

  test("a file the open created is held from its first open; every connection must close before the other library may open it", async () => {
    const path = join(tempDir(), "new.db");
    const first = await openDb(path, { timeoutMs: 1000 });
    const second = await openDb(path, { timeoutMs: 1000 });
    first.close();
    first.close(); // a second close lets go of nothing more
    expect((await refusal(() => openDb(path, { timeoutMs: 1000, libsql: true })))?.message).toMatch(BUN);
    second.close();
    expect(await refusal(() => openDb(path, { timeoutMs: 1000, libsql: true }))).toBeNull();
  });

  test("a store open here is refused by a store open on the other library", async () => {
    const path = join(tempDir(), "mindsave.db");
    const store = await Store.open(path);
    try {
      const e = await refusal(() => Store.open(path, { libsql: true }));
      expect(e?.message).toMatch(BUN);
      expect(e).not.toBeInstanceOf(UserError);
    } finally {
      await store.closeAsync();
    }
    const again = await Store.open(path, { libsql: true });
    await again.closeAsync();
  });

  test("a store file is never opened as a server (the client would open it through libSQL's SQLite, unseen)", async () => {
    const path = join(tempDir(), "mindsave.db");
    const store = await Store.open(path);
    try {
      const e = await refusal(() => Store.openRemote(Bun.pathToFileURL(path).href));
      expect(e?.message).toMatch(/opened as a file \(openDb\), not as a server/);
    } finally {
      await store.closeAsync();
    }
  });
});
