// A store is never harmed by being looked at: a file that is refused is not written (not even the
// journal mode in its header), a read-only medium can be read, a full disk or a damaged file is one
// sentence (exit 1), doctor describes a damaged store and --repair recovers what it can into a new
// file, a schema upgrade and a repair leave a backup (the newest 3 it made kept), and eject leaves the store
// whole in one file. Every command checked through the real CLI (the stores set up in this process),
// on real files (tmpfs and read-only mounts when root).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  REPO,
  SHIPPED_JIT,
  dumpStore,
  gitRepo,
  laptop,
  ok,
  okJson,
  run,
  sql,
  tempDir,
  type RunOptions,
} from "./helpers.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "../src/store/migrations.ts";
import { backToSchema } from "./old-schemas.ts";
import { atPlace, fail, save, saveText, type Place } from "./engine-setup.ts";
import { ingestTranscript } from "../src/engine/agents/ingest.ts";

/** Every file of a folder, by name, for "not one byte changed" checks. */
function files(dir: string): Map<string, Buffer> {
  return new Map(
    readdirSync(dir)
      .sort()
      .map((f) => [f, readFileSync(join(dir, f))]),
  );
}

function expectSame(before: Map<string, Buffer>, after: Map<string, Buffer>) {
  expect([...after.keys()]).toEqual([...before.keys()]);
  for (const [f, bytes] of before) expect(after.get(f)!.equals(bytes)).toBe(true);
}

/** One sentence: a single line on stderr that names the problem. */
function oneSentence(stderr: string, ...parts: string[]) {
  const lines = stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith("mindsave: ");
  for (const p of parts) expect(lines[0]).toContain(p);
}

const sh = (cmd: string) => spawnSync("sh", ["-c", cmd], { encoding: "utf8" });

/** Whether this test run may mount file systems (root on Linux): tmpfs for a full disk, read-only bind mounts. */
const MOUNTS = (() => {
  if (process.platform !== "linux" || process.getuid?.() !== 0) return false;
  const dir = tempDir("mindsave-mount-probe-");
  const ok = sh(`mount -t tmpfs -o size=64k tmpfs '${dir}'`).status === 0;
  if (ok) sh(`umount '${dir}'`);
  return ok;
})();
const mounted: string[] = [];
function mount(cmd: string, dir: string) {
  const r = sh(cmd);
  if (r.status !== 0) throw new Error(`${cmd}: ${r.stderr}`);
  mounted.push(dir);
}
function unmount(dir: string) {
  sh(`umount '${dir}' || umount -l '${dir}'`);
  mounted.splice(mounted.indexOf(dir), 1);
}
afterAll(() => {
  for (const d of [...mounted].reverse()) unmount(d);
});

/** Claude Code transcript lines with `n` tool calls, for a store with many rows. */
function transcript(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      JSON.stringify({
        type: "assistant",
        sessionId: "s1",
        timestamp: "2026-11-21T10:01:00.000Z",
        message: {
          role: "assistant",
          content: [
            {
              type: "tool_use",
              id: `tu_${i}`,
              name: "Bash",
              input: { command: `echo step ${i} ${"x".repeat(300)}` },
            },
          ],
        },
      }),
    );
    out.push(
      JSON.stringify({
        type: "user",
        sessionId: "s1",
        timestamp: "2026-11-21T10:01:01.000Z",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: `tu_${i}`, content: "ok" }] },
      }),
    );
  }
  return out.join("\n") + "\n";
}

const SNAPSHOTS = 6;
/** A store of several pages' worth: snapshots with a long Layer 3, a failure, hundreds of tool calls. */
let golden: { db: string; base: string; repo: string; opts: RunOptions; at: (home: string) => Place };

beforeAll(async () => {
  const base = tempDir("mindsave-safety-");
  const repo = gitRepo(join(base, "shop"));
  const pc = laptop("safety", base);
  const home = join(base, "golden");
  mkdirSync(home);
  const opts = { cwd: repo, env: pc.env };
  // Built in this process through the engine's use cases (`save`, `fail`, `ingest`); each session
  // closed folds its log, so everything is in mindsave.db alone.
  const at = (h: string): Place => ({ home: h, ...opts });
  const place = at(home);
  for (let i = 1; i <= SNAPSHOTS; i++)
    await saveText(
      place,
      `---\ngoal: goal number ${i}\nstate: working\nnext_action: go on\n---\n${`archived note ${i} `.repeat(2500)}\n`,
    );
  await fail(place, "Tailwind", "conflicts with the design system");
  writeFileSync(join(base, "t.jsonl"), transcript(500));
  await atPlace(place, (s) => ingestTranscript(s, join(base, "t.jsonl")));
  golden = { db: join(home, "mindsave.db"), base, repo, opts, at };
}, 120_000);

/** A fresh home holding a copy of the golden store (or of `bytes`). */
function homeWith(bytes?: Buffer): { home: string; db: string } {
  const home = tempDir("mindsave-home-");
  const db = join(home, "mindsave.db");
  if (bytes) writeFileSync(db, bytes);
  else copyFileSync(golden.db, db);
  return { home, db };
}

function emptyHome(): { home: string; db: string } {
  const home = tempDir("mindsave-home-");
  return { home, db: join(home, "mindsave.db") };
}

describe("refusing a store never writes to it", () => {
  test("a foreign SQLite file: refused by every command, every byte and the journal mode in its header as they were", async () => {
    const { home, db } = emptyHome();
    await sql(db, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)");
    await sql(db, "INSERT INTO customers(name) VALUES ('Ada')");
    const before = files(home);
    expect([...before.get("mindsave.db")!.subarray(18, 20)]).toEqual([1, 1]); // a rollback journal, not WAL
    for (const args of [
      ["save", "--goal", "x"],
      ["load"],
      ["snapshots", "list"],
      ["recall", "x"],
      ["eject"],
    ]) {
      const r = await run([...args, "--home", home], golden.opts);
      expect(r.code).toBe(1);
      oneSentence(r.stderr, db, "not a MindSave store");
    }
    const doctor = await run(["doctor", "--json", "--home", home], golden.opts);
    expect(doctor.code).toBe(1);
    expect(JSON.parse(doctor.stdout)).toMatchObject({ problem_kind: "foreign", damage: { ours: false } });
    expectSame(before, files(home));
  });

  test("a foreign SQLite file left mid-write (a hot journal beside it): refused, neither file touched", async () => {
    const { home, db } = emptyHome();
    // Another program writing its own database is killed inside a transaction that spilled to disk.
    const script = join(tempDir(), "writer.ts");
    writeFileSync(
      script,
      `
      import { createClient } from ${JSON.stringify(Bun.resolveSync("@libsql/client", REPO))};
      const c = createClient({ url: ${JSON.stringify(pathToFileURL(db).href)}, concurrency: 1 });
      await c.execute("PRAGMA journal_mode = DELETE");
      await c.execute("PRAGMA cache_size = 10");
      await c.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, note TEXT)");
      for (let i = 1; i <= 200; i++) await c.execute({ sql: "INSERT INTO orders(note) VALUES (?)", args: ["x".repeat(2000)] });
      const tx = await c.transaction("write");
      for (let i = 1; i <= 200; i++) await tx.execute({ sql: "UPDATE orders SET note = ? WHERE id = ?", args: ["y".repeat(2000), i] });
      process.stdout.write("inside\\n");
      await new Promise(() => setInterval(() => {}, 2 ** 30)); // (a timer: no core spun while it waits)
    `,
    );
    const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve) =>
      child.stdout!.on("data", (d) => String(d).includes("inside") && resolve()),
    );
    child.kill("SIGKILL");
    await new Promise((r) => child.on("exit", r));
    expect(statSync(`${db}-journal`).size).toBeGreaterThan(0);
    const before = files(home);
    for (const args of [["load"], ["save", "--goal", "x"], ["doctor"]]) {
      const r = await run([...args, "--home", home], golden.opts);
      expect(r.code).toBe(1);
      if (args[0] !== "doctor") oneSentence(r.stderr, db, "not a MindSave store");
    }
    expectSame(before, files(home));
  });

  test("a store of a newer schema: refused, every byte and the header's journal mode as they were", async () => {
    const { home, db } = emptyHome();
    writeFileSync(join(home, "drive.json"), "{}"); // a drive's store: rollback journal
    await save(golden.at(home), { goal: "from the future" });
    rmSync(join(home, "drive.json")); // now a laptop home, which would use WAL
    await sql(db, "UPDATE meta SET value = '99' WHERE key = 'schema_version'");
    const before = files(home);
    expect([...before.get("mindsave.db")!.subarray(18, 20)]).toEqual([1, 1]);
    for (const args of [["save", "--goal", "x"], ["load"], ["snapshots", "list"], ["doctor", "--repair"]]) {
      const r = await run([...args, "--home", home], golden.opts);
      expect(r.code).toBe(1);
      oneSentence(r.stderr, db, "newer MindSave", "99");
    }
    const doctor = JSON.parse((await run(["doctor", "--json", "--home", home], golden.opts)).stdout);
    expect(doctor).toMatchObject({ problem_kind: "newer", schema_version: 99 });
    expectSame(before, files(home));
  });
});

describe("errors in the right class", () => {
  test("a billion-laughs YAML, and a few aliases to a long string: one sentence, exit 1, nothing saved", async () => {
    const { home, db } = homeWith();
    const before = await dumpStore(db);
    const levels = "abcdefghi".split("");
    const laughs =
      levels
        .map(
          (l, i) =>
            `${l}: &${l} [${Array(9)
              .fill(i ? `*${levels[i - 1]}` : '"lol"')
              .join(", ")}]`,
        )
        .join("\n") + "\ngoal: *i\n";
    const long = `a: &a ${"x".repeat(1024 * 1024)}\nb: [${Array(9).fill("*a").join(", ")}]\ngoal: short\n`;
    for (const stdin of [laughs, `---\n${laughs}---\nbody\n`, long]) {
      const r = await run(["save", "--home", home], {
        ...golden.opts,
        env: { ...golden.opts.env, ...SHIPPED_JIT },
        stdin,
      });
      expect(r.code).toBe(1);
      oneSentence(r.stderr, "YAML");
    }
    expect(await dumpStore(db)).toBe(before);
  });

  test.skipIf(!MOUNTS)(
    "a full disk (a 1 MB tmpfs; needs root to mount): one sentence, exit 1, the store still whole and readable",
    async () => {
      const home = tempDir("mindsave-full-");
      mount(`mount -t tmpfs -o size=1m tmpfs '${home}'`, home);
      try {
        await save(golden.at(home), { goal: "fits on the disk" });
        const db = join(home, "mindsave.db");
        const before = await dumpStore(db);
        // A Layer 3 half as large again as the whole disk.
        const r = await run(["save", "--home", home], {
          ...golden.opts,
          env: { ...golden.opts.env, ...SHIPPED_JIT },
          stdin: `---\ngoal: does not fit\n---\n${"y".repeat(1.5 * 1024 * 1024)}\n`,
        });
        expect(r.code).toBe(1);
        oneSentence(r.stderr, db, "is full");
        expect(await dumpStore(db)).toBe(before);
        expect((await ok(["load", "--home", home], golden.opts)).stdout).toContain("fits on the disk");
        expect((await okJson(["doctor", "--home", home], golden.opts)).integrity).toBe("ok");
      } finally {
        unmount(home);
      }
    },
  );

  test("a truncated store: every command says it is damaged and what to do, in one sentence", async () => {
    const { home, db } = homeWith();
    truncateSync(db, Math.floor(statSync(db).size / 2));
    for (const args of [["load"], ["save", "--goal", "x"], ["snapshots", "list"], ["recall", "--tools"]]) {
      const r = await run([...args, "--home", home], golden.opts);
      expect(r.code).toBe(1);
      oneSentence(r.stderr, db, "damaged", "mindsave doctor --repair");
    }
  });
});

describe("a store on a read-only medium can be read", () => {
  async function readsWork(home: string) {
    expect((await ok(["load", "--home", home], golden.opts)).stdout).toContain(`goal number ${SNAPSHOTS}`);
    // An agent's session start restores from it too (its bookkeeping write is left out).
    const start = await run(["hook", "session-start", "--home", home], {
      ...golden.opts,
      stdin: JSON.stringify({
        session_id: "ro",
        cwd: golden.repo,
        hook_event_name: "SessionStart",
        source: "startup",
      }),
    });
    expect(start.code).toBe(0);
    expect(JSON.parse(start.stdout).hookSpecificOutput.additionalContext).toContain(
      `goal number ${SNAPSHOTS}`,
    );
    expect((await okJson(["snapshots", "list", "--home", home], golden.opts)).snapshots).toHaveLength(
      SNAPSHOTS,
    );
    expect((await okJson(["recall", "archived", "--home", home], golden.opts)).hits.length).toBeGreaterThan(
      0,
    );
    // Readable, but nothing can be saved into it: doctor says so and exits 1, as the README says.
    const doctor = await run(["--json", "doctor", "--home", home], golden.opts);
    expect(doctor.code).toBe(1);
    expect(JSON.parse(doctor.stdout)).toMatchObject({
      read_only: true,
      integrity: "ok",
      problem_kind: "read_only",
      problem: expect.stringContaining("read-only here"),
    });
  }

  test("a write-protected file in a write-protected folder (0444, 0555): reads work, writes say why not, nothing changes", async () => {
    const { home, db } = homeWith();
    const before = files(home);
    chmodSync(db, 0o444);
    chmodSync(home, 0o555);
    try {
      await readsWork(home);
      for (const args of [
        ["save", "--goal", "x"],
        ["fail", "Redux", "--reason", "boilerplate"],
      ]) {
        const r = await run([...args, "--home", home], golden.opts);
        expect(r.code).toBe(1);
        oneSentence(r.stderr, "read-only");
      }
    } finally {
      chmodSync(home, 0o755);
      chmodSync(db, 0o644);
    }
    expectSame(before, files(home));
  });

  test("a write-protected file in a writable folder: reads work and leave nothing beside it", async () => {
    const { home, db } = homeWith();
    const before = files(home);
    chmodSync(db, 0o444);
    try {
      await readsWork(home);
      const r = await run(["save", "--goal", "x", "--home", home], golden.opts);
      expect(r.code).toBe(1);
      oneSentence(r.stderr, db, "read-only");
    } finally {
      chmodSync(db, 0o644);
    }
    expectSame(before, files(home));
  });

  test.skipIf(!MOUNTS)(
    "a read-only mount (a locked drive; needs root to mount): reads work, writes say why not",
    async () => {
      const { home } = homeWith();
      const before = files(home);
      mount(`mount --bind '${home}' '${home}' && mount -o remount,bind,ro '${home}'`, home);
      try {
        await readsWork(home);
        const r = await run(["save", "--goal", "x", "--home", home], golden.opts);
        expect(r.code).toBe(1);
        oneSentence(r.stderr, "read-only");
      } finally {
        unmount(home);
      }
      expectSame(before, files(home));
    },
  );
});

describe("doctor diagnoses a damaged store and --repair recovers what it can", () => {
  const damages: [string, (db: string) => void][] = [
    ["cut to half its size", (db) => truncateSync(db, Math.floor(statSync(db).size / 2))],
    [
      "garbage in the middle",
      (db) => {
        const bytes = readFileSync(db);
        bytes.fill(0xab, Math.floor(bytes.length * 0.45), Math.floor(bytes.length * 0.6));
        writeFileSync(db, bytes);
      },
    ],
  ];

  for (const [what, damage] of damages) {
    test(`${what}: doctor reports it (text and --json, exit 1); --repair saves what can be read into a new store, the damaged file kept`, async () => {
      const { home, db } = homeWith();
      damage(db);
      const damaged = readFileSync(db);
      // Three files named like older backups, not made by MindSave: the repair removes none of them.
      for (const d of ["01", "02", "03"]) writeFileSync(`${db}.bak-202001${d}T000000Z`, "old backup");

      const text = await run(["doctor", "--home", home], golden.opts);
      expect(text.code).toBe(1);
      expect(text.stderr).toBe("");
      expect(text.stdout).toContain("problem:   ");
      expect(text.stdout).toContain("doctor --repair");
      const json = await run(["doctor", "--json", "--home", home], golden.opts);
      expect(json.code).toBe(1);
      const report = JSON.parse(json.stdout);
      expect(report).toMatchObject({ problem_kind: "damaged", store: db });
      expect(report.integrity).not.toBe("ok");
      expect(report.damage.size).toBe(damaged.length);
      if (what.startsWith("cut")) expect(report.damage.expected_size).toBe(damaged.length * 2);
      expect(readFileSync(db).equals(damaged)).toBe(true); // doctor looked, wrote nothing

      const r = await okJson(["doctor", "--repair", "--home", home], golden.opts);
      expect(r.repaired).toBe(true);
      expect(r.saved).toBeGreaterThan(0);
      expect(r.lost > 0 || r.end_lost.length > 0).toBe(true);
      expect(r.tables.snapshots.saved).toBeGreaterThan(0);
      expect(r.tables.snapshots.saved + r.tables.snapshots.lost).toBeLessThanOrEqual(SNAPSHOTS);
      expect(r.indexed_snapshots).toBe(r.tables.snapshots.saved);
      expect(readFileSync(r.backup).equals(damaged)).toBe(true);
      expect(r.pruned).toEqual([]);
      expect(readdirSync(home).filter((f) => f.includes(".bak-")).length).toBe(4);
      expect(readdirSync(home).filter((f) => f.includes(".repaired-"))).toEqual([]);

      // The repaired store is whole, its search index rebuilt, and it takes new saves.
      const after = await okJson(["doctor", "--home", home], golden.opts);
      expect(after).toMatchObject({ integrity: "ok", problem: null });
      expect((await okJson(["snapshots", "list", "--home", home], golden.opts)).snapshots).toHaveLength(
        r.tables.snapshots.saved,
      );
      expect((await okJson(["recall", "archived", "note", "--home", home], golden.opts)).hits).toHaveLength(
        r.tables.snapshots.saved,
      );
      await ok(["save", "--goal", "after the repair", "--home", home], golden.opts);
      expect((await ok(["load", "--latest", "--home", home], golden.opts)).stdout).toContain(
        "after the repair",
      );
      const again = await ok(["doctor", "--repair", "--home", home], golden.opts);
      expect(again.stdout).toContain("healthy; nothing to repair");
    });
  }

  test("not a database at all: doctor reports it; --repair says nothing can be recovered, touching nothing", async () => {
    const { home, db } = homeWith(Buffer.alloc(64 * 1024, 0x13));
    const before = files(home);
    const text = await run(["doctor", "--home", home], golden.opts);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("not a MindSave store");
    const json = JSON.parse((await run(["doctor", "--json", "--home", home], golden.opts)).stdout);
    expect(json).toMatchObject({
      problem_kind: "not_a_database",
      integrity: expect.stringContaining("not checked"),
    });
    const r = await run(["doctor", "--repair", "--home", home], golden.opts);
    expect(r.code).toBe(1);
    oneSentence(r.stderr, db, "nothing can be recovered");
    expectSame(before, files(home));
  });
});

describe("backups and eject", () => {
  test("a store created by a read-only command is whole in mindsave.db: nothing is left in its write-ahead log", async () => {
    const base = tempDir("mindsave-fresh-");
    const repo = gitRepo(join(base, "proj"));
    const pc = laptop("fresh", base);
    await ok(["doctor"], { cwd: repo, env: pc.env });
    const home = join(pc.home, ".mindsave");
    const wal = join(home, "mindsave.db-wal");
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
    // The file alone, copied elsewhere, is the whole store.
    const copy = join(base, "copy.db");
    copyFileSync(join(home, "mindsave.db"), copy);
    expect((await sql(copy, "SELECT value FROM meta WHERE key = 'schema_version'"))[0].value).toBe(
      String(SCHEMA_VERSION),
    );
  });

  test("an upgrade from an older schema first backs the store up, as it was", async () => {
    const { home, db } = homeWith();
    // Back to schema 2: what migrations after 4 add (the listed snapshots, the failures' rank keys,
    // the off switches) is taken away…
    await backToSchema(db, 4);
    // … and what migration 3 adds.
    const triggers = await sql(
      db,
      "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%\\_log\\_%' ESCAPE '\\'",
    );
    for (const t of triggers) await sql(db, `DROP TRIGGER "${t.name}"`);
    await sql(db, "DROP TABLE changes");
    await sql(db, "DROP TABLE sync_peers");
    // … and what migration 4 adds.
    for (const t of ["rules", "facts", "retirements"]) await sql(db, `DROP TABLE ${t}`);
    // The search triggers of schema 1 again (migration 4 replaced them with ones that read the plan and tags).
    for (const t of ["snapshots_ai", "snapshots_au"]) await sql(db, `DROP TRIGGER ${t}`);
    for (const stmt of MIGRATIONS[0]().filter((x) => /^CREATE TRIGGER snapshots_a[iu] /.test(x)))
      await sql(db, stmt);
    for (const c of ["plan", "tags", "saved_agent"]) await sql(db, `ALTER TABLE snapshots DROP COLUMN ${c}`);
    await sql(db, "UPDATE meta SET value = '2' WHERE key = 'schema_version'");
    // SQLite's own bookkeeping table (left empty by the drop) is not data: a copy need not keep it.
    const rows = async (file: string) => (await dumpStore(file)).replace("## sqlite_sequence\n", "");
    const old = await rows(db);
    const r = await ok(["load", "--home", home], golden.opts);
    expect(r.stdout).toContain(`goal number ${SNAPSHOTS}`);
    expect(r.stderr).toContain(`from schema 2 to ${SCHEMA_VERSION}`);
    const backups = readdirSync(home).filter((f) => f.startsWith("mindsave.db.bak-"));
    expect(backups).toHaveLength(1);
    expect(r.stderr).toContain(join(home, backups[0]));
    expect(await rows(join(home, backups[0]))).toBe(old);
    expect((await sql(db, "SELECT value FROM meta WHERE key = 'schema_version'"))[0].value).toBe(
      String(SCHEMA_VERSION),
    );
    // The search index was filled again by the upgrade: every snapshot is still found.
    const hits = await okJson(
      ["recall", "goal number", "--limit", String(SNAPSHOTS + 5), "--home", home],
      golden.opts,
    );
    expect(hits.hits.length).toBe(SNAPSHOTS);
  });

  test("eject folds a write-ahead log with content into mindsave.db; on a drive it says the drive can go", async () => {
    const { home, db } = homeWith();
    // Another process (an agent's hooks, say) holds the store with a write-ahead log that has content.
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `
      const { createClient } = await import(${JSON.stringify(join(REPO, "node_modules", "@libsql", "client", "lib-esm", "node.js"))});
      const c = createClient({ url: "file:" + ${JSON.stringify(db)} });
      await c.execute("PRAGMA journal_mode = WAL");
      await c.execute("PRAGMA wal_autocheckpoint = 0");
      await c.execute("INSERT INTO meta(key, value) VALUES ('eject_probe', 'in the log')");
      process.stdout.write("ready\\n");
      for await (const _ of process.stdin) {}
      c.close();
    `,
      ],
      { cwd: REPO, stdio: ["pipe", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) =>
      holder.stdout!.on("data", (d) => String(d).includes("ready") && resolve()),
    );
    expect(statSync(`${db}-wal`).size).toBeGreaterThan(0);
    const laptopHome = await ok(["eject", "--home", home], golden.opts);
    expect(laptopHome.stdout).toContain(`Everything is in ${db}`);
    // The log was folded into mindsave.db while the other process still held it open.
    expect(existsSync(`${db}-wal`) ? statSync(`${db}-wal`).size : 0).toBe(0);
    holder.stdin!.end();
    await new Promise((resolve) => holder.once("exit", resolve));
    // mindsave.db alone (no log beside it) holds the row.
    const alone = join(tempDir(), "alone.db");
    copyFileSync(db, alone);
    expect((await sql(alone, "SELECT value FROM meta WHERE key = 'eject_probe'"))[0].value).toBe(
      "in the log",
    );

    writeFileSync(join(home, "drive.json"), "{}");
    const drive = await okJson(["eject", "--home", home], golden.opts);
    expect(drive).toMatchObject({ on_drive: true, existed: true, journal_mode: "delete" });
    expect(drive.message).toContain("you can remove the drive now");
    for (const side of ["-wal", "-journal"])
      expect(existsSync(db + side) ? statSync(db + side).size : 0).toBe(0);
    expect([...readFileSync(db).subarray(18, 20)]).toEqual([1, 1]);
  });
});
