// How a store file is opened never writes a file that is refused: one with nothing beside it is
// checked on its writable connection (see Store.open), one with a journal or log beside it, even
// beside the target of a symlink (where SQLite keeps them), through a read-only look first.
import { beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { gitRepo, laptop, ok, okJson, run, sql, tempDir, type RunOptions } from "./helpers.ts";
import { save, type Place } from "./engine-setup.ts";

// One command for each way a command opens the store: a read and a write through withSession
// (commands/shared.ts), as recall, snapshots, fail and the rest open it, and doctor's own.
const READS = [["load"], ["doctor"]];
const WRITES = [["save", "--goal", "x"]];

let opts: RunOptions;
/** The home `home` where every CLI run of this file acts: in its project, on its laptop. */
let at: (home: string) => Place;
beforeAll(() => {
  const base = tempDir("mindsave-open-");
  const cwd = gitRepo(join(base, "shop"));
  const env = laptop("open", base).env;
  opts = { cwd, env };
  at = (home) => ({ home, cwd, env });
});

/** Every file of a folder with its bytes and mtime, for "not one byte, nothing beside it" checks. */
function files(dir: string, skip: RegExp = /^$/): Map<string, string> {
  return new Map(
    readdirSync(dir)
      .filter((f) => !skip.test(f))
      .sort()
      .map((f) => [
        f,
        `${statSync(join(dir, f)).mtimeMs} ${createHash("sha256")
          .update(readFileSync(join(dir, f)))
          .digest("hex")}`,
      ]),
  );
}

/** Runs `body` (statements on a Bun SQLite connection `d` to `db`) in a child that is killed before it closes: what it wrote stays in the log or journal. */
function killedWriter(db: string, body: string) {
  const script = `const d = new (require("bun:sqlite").Database)(${JSON.stringify(db)}); ${body}; process.kill(process.pid, "SIGKILL");`;
  spawnSync(process.execPath, ["-e", script]);
}

/** A MindSave store in `home`, then marked as written by a newer MindSave (schema 99). */
async function newerStore(home: string): Promise<string> {
  await save(at(home), { goal: "from the future" });
  const db = join(home, "mindsave.db");
  await sql(db, "UPDATE meta SET value = '99' WHERE key = 'schema_version'");
  return db;
}

async function refusedByAll(home: string, says: string) {
  for (const args of [...READS, ...WRITES]) {
    const r = await run([...args, "--home", home], opts);
    expect(r.code).toBe(1);
    if (args[0] !== "doctor") expect(r.stderr).toContain(says);
  }
}

describe("a file with nothing beside it is checked before anything is written", () => {
  /** A home holding a foreign database with its header's journal mode `mode`. */
  async function foreignHome(mode: "WAL" | "DELETE"): Promise<string> {
    const home = tempDir("mindsave-home-");
    const db = join(home, "mindsave.db");
    await sql(db, `PRAGMA journal_mode = ${mode}`);
    await sql(db, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)");
    await sql(db, "INSERT INTO customers(name) VALUES ('Ada')");
    return home;
  }

  /** A laptop's home holding a newer store with its header's journal mode `mode` (a drive's store: a rollback journal). */
  async function newerHome(mode: "WAL" | "DELETE"): Promise<string> {
    const home = tempDir("mindsave-home-");
    if (mode === "DELETE") writeFileSync(join(home, "drive.json"), "{}");
    await newerStore(home);
    rmSync(join(home, "drive.json"), { force: true }); // a laptop's home now: an open that writes would make it WAL
    return home;
  }

  test("foreign databases and newer stores, in WAL and rollback-journal mode, nothing beside them: refused by reads and writes, not a byte written, nothing left beside them", async () => {
    const homes = [
      [await foreignHome("WAL"), "not a MindSave store", 2],
      [await foreignHome("DELETE"), "not a MindSave store", 1],
      [await newerHome("WAL"), "newer MindSave", 2],
      [await newerHome("DELETE"), "newer MindSave", 1],
    ] as const;
    for (const [home, says, journal] of homes) {
      const before = files(home);
      expect([...before.keys()].filter((f) => f.startsWith("mindsave.db"))).toEqual(["mindsave.db"]);
      expect([...readFileSync(join(home, "mindsave.db")).subarray(18, 20)]).toEqual([journal, journal]); // 2: WAL, 1: a rollback journal
      await refusedByAll(home, says);
      expect(files(home)).toEqual(before);
    }
  });
});

describe("a journal or log beside the target of a symlinked store is seen", () => {
  // SQLite keeps a file's journal and log beside the file a symlink points to, not beside the link.
  function linkedHome(target: string): string {
    const home = tempDir("mindsave-home-");
    symlinkSync(target, join(home, "mindsave.db"));
    return home;
  }

  test("a foreign database left mid-write (a hot journal beside its target): refused, neither the file nor its journal touched", async () => {
    const dir = tempDir("mindsave-target-");
    const target = join(dir, "orders.db");
    killedWriter(
      target,
      `d.exec("PRAGMA journal_mode = DELETE"); d.exec("PRAGMA cache_size = 10");
      d.exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, note TEXT)");
      for (let i = 1; i <= 200; i++) d.query("INSERT INTO orders(note) VALUES (?)").run("x".repeat(2000));
      d.exec("BEGIN"); for (let i = 1; i <= 200; i++) d.query("UPDATE orders SET note = ? WHERE id = ?").run("y".repeat(2000), i)`,
    );
    expect(statSync(`${target}-journal`).size).toBeGreaterThan(0);
    const home = linkedHome(target);
    const before = files(dir);
    await refusedByAll(home, "not a MindSave store");
    expect(files(dir)).toEqual(before);
  });

  test("a newer store with committed changes in the log beside its target: refused, neither the file nor its log folded or touched", async () => {
    const real = tempDir("mindsave-home-");
    const target = await newerStore(real);
    killedWriter(target, `d.exec("INSERT INTO meta(key, value) VALUES ('newer_thing', 'kept in the log')")`);
    expect(statSync(`${target}-wal`).size).toBeGreaterThan(0);
    const home = linkedHome(target);
    // (The log's shared-memory index may be rebuilt by any reader: only data files are compared.)
    const before = files(real, /-shm$/);
    await refusedByAll(home, "newer MindSave");
    expect(existsSync(`${target}-wal`)).toBe(true);
    expect(files(real, /-shm$/)).toEqual(before);
  });
});

describe("a read-only store reached through a symlink is read as its target", () => {
  // Its log and shared memory are beside the target: looked for beside the link, a log full of
  // changes was missed and the file read as if it had none (SQLite's immutable mode), stale.
  /** A store whose last change (a snapshot's goal) is committed in its log, not yet in the file. */
  async function changeInLog(): Promise<{ real: string; target: string; home: string }> {
    const real = tempDir("mindsave-home-");
    await save(at(real), { goal: "the goal in the file" });
    const target = join(real, "mindsave.db");
    killedWriter(target, `d.exec("UPDATE snapshots SET goal = 'the goal in the log'")`);
    expect(statSync(`${target}-wal`).size).toBeGreaterThan(0);
    const home = tempDir("mindsave-link-");
    symlinkSync(target, join(home, "mindsave.db"));
    return { real, target, home };
  }

  test("a write-protected file (0444): through the link, as through its own path, load shows the change in its log; nothing is written", async () => {
    const { real, target, home } = await changeInLog();
    chmodSync(target, 0o444);
    try {
      const before = files(real, /-shm$/);
      for (const h of [real, home]) {
        const out = (await ok(["load", "--home", h], opts)).stdout;
        expect(out).toContain("the goal in the log");
        expect(out).not.toContain("the goal in the file");
      }
      expect(files(real, /-shm$/)).toEqual(before);
    } finally {
      chmodSync(target, 0o644);
    }
  });

  test("eject, in a write-protected folder (0555): through the link, as through its own path, says changes still wait in the log beside the target", async () => {
    const { real, target, home } = await changeInLog();
    chmodSync(target, 0o444);
    chmodSync(real, 0o555);
    try {
      for (const h of [real, home]) {
        const r = await run(["eject", "--home", h], opts);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain("still has changes waiting in mindsave.db-wal");
      }
    } finally {
      chmodSync(real, 0o755);
      chmodSync(target, 0o644);
    }
  });

  test("in a write-protected folder too (0555), its shared memory gone: through the link, as through its own path, refused in one sentence, nothing written", async () => {
    const { real, target, home } = await changeInLog();
    rmSync(`${target}-shm`);
    chmodSync(target, 0o444);
    chmodSync(real, 0o555);
    try {
      const before = files(real);
      for (const h of [real, home]) {
        const r = await run(["load", "--home", h], opts);
        expect(r.code).toBe(1);
        expect(r.stderr.trim().split("\n")).toHaveLength(1);
        expect(r.stderr).toContain("can only be read where its folder is writable");
      }
      expect(files(real)).toEqual(before);
    } finally {
      chmodSync(real, 0o755);
      chmodSync(target, 0o644);
    }
  });
});

describe("a symlinked store converted or repaired stays a symlink: the new store is its target", () => {
  // The swap renamed the new file over the link: the link became a plain file in the home, and
  // the target (another folder, a synced drive) kept the old store, unencrypted or damaged.
  async function linkedStore(): Promise<{ target: string; home: string; link: string }> {
    const real = tempDir("mindsave-target-");
    await save(at(real), { goal: "走链接的存储 stays linked" });
    const home = tempDir("mindsave-link-");
    const link = join(home, "mindsave.db");
    symlinkSync(join(real, "mindsave.db"), link);
    return { target: join(real, "mindsave.db"), home, link };
  }
  const header = (f: string) => readFileSync(f).subarray(0, 15).toString("latin1");

  test("encrypt and decrypt: the link stays; the target is encrypted, then plain again; the backups are beside the link", async () => {
    const { target, home, link } = await linkedStore();
    const pass = { ...opts, env: { ...opts.env, MINDSAVE_PASSPHRASE: "correct horse battery" } };
    await ok(["encrypt", "--home", home], pass);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(target);
    expect(header(target)).not.toBe("SQLite format 3");
    expect((await ok(["load", "--home", home], pass)).stdout).toContain("走链接的存储 stays linked");
    // Its key file is beside the store itself: the target's folder alone (a drive seen on another laptop) opens.
    expect(existsSync(`${target}.key.json`)).toBe(true);
    expect(existsSync(`${link}.key.json`)).toBe(false);
    expect((await ok(["load", "--home", join(target, "..")], pass)).stdout).toContain(
      "走链接的存储 stays linked",
    );
    // A key file beside the link, where older versions put it, is still found.
    renameSync(`${target}.key.json`, `${link}.key.json`);
    expect((await ok(["load", "--home", home], pass)).stdout).toContain("走链接的存储 stays linked");
    renameSync(`${link}.key.json`, `${target}.key.json`);
    expect(readdirSync(home).filter((f) => f.includes(".bak-"))).toHaveLength(1);
    expect(readdirSync(join(target, "..")).filter((f) => f.includes(".converting-"))).toEqual([]);
    await ok(["decrypt", "--home", home], pass);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(header(target)).toBe("SQLite format 3");
    expect(existsSync(`${target}.key.json`)).toBe(false);
    expect((await ok(["load", "--home", home], opts)).stdout).toContain("走链接的存储 stays linked");
  });

  test("doctor --repair of a damaged target: the link stays and points to the repaired store; the damaged one is the backup", async () => {
    const { target, home, link } = await linkedStore();
    // The middle of the file damaged, its schema's pages aside (where they fall moves with every
    // schema change; a store without its schema has nothing to recover, a case of its own).
    const size = Number((await sql(target, "PRAGMA page_size"))[0].page_size);
    const schema = new Set(
      (await sql(target, "SELECT pageno FROM dbstat WHERE name = 'sqlite_schema'")).map((r) =>
        Number(r.pageno),
      ),
    );
    const bytes = readFileSync(target);
    for (let p = Math.floor((bytes.length * 0.45) / size); p < Math.floor((bytes.length * 0.6) / size); p++) {
      if (!schema.has(p + 1)) bytes.fill(0xab, p * size, (p + 1) * size);
    }
    writeFileSync(target, bytes);
    expect((await run(["doctor", "--home", home], opts)).code).toBe(1);
    const r = await okJson(["doctor", "--repair", "--home", home], opts);
    expect(r.repaired).toBe(true);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(target);
    expect(Buffer.compare(readFileSync(r.backup), bytes)).toBe(0);
    expect((await ok(["doctor", "--home", home], opts)).stdout).toContain("integrity: ok");
    expect(readdirSync(join(target, "..")).filter((f) => f.includes(".repaired-"))).toEqual([]);
    await ok(["save", "--goal", "after the repair", "--home", home], opts);
    expect((await ok(["load", "--home", target.replace(/\/mindsave\.db$/, "")], opts)).stdout).toContain(
      "after the repair",
    );
  });
});

test("a laptop home whose store is a symlink into a drive's folder writes it with the drive's rollback journal, not WAL", async () => {
  const drive = tempDir("mindsave-drive-");
  await save(at(drive), { goal: "on the drive" });
  // What `drive init` leaves beside a drive's store (home.ts DRIVE_MARKER).
  writeFileSync(join(drive, "drive.json"), "{}\n");
  const home = tempDir("mindsave-link-");
  symlinkSync(join(drive, "mindsave.db"), join(home, "mindsave.db"));
  await ok(["save", "--goal", "through the link", "--home", home], opts);
  expect((await okJson(["doctor", "--home", home], opts)).journal_mode).toBe("delete");
  expect(String((await sql(join(drive, "mindsave.db"), "PRAGMA journal_mode"))[0]!.journal_mode)).toBe(
    "delete",
  );
  // The same store reached through a plain laptop home's link keeps WAL when its target is no drive's.
  const plain = tempDir("mindsave-target-");
  await save(at(plain), { goal: "on the laptop" });
  const home2 = tempDir("mindsave-link-");
  symlinkSync(join(plain, "mindsave.db"), join(home2, "mindsave.db"));
  expect((await okJson(["doctor", "--home", home2], opts)).journal_mode).toBe("wal");
});
