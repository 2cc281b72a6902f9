// The faster paths of issue 14 behave exactly like what they replace: the local store drivers
// (src/store/local.ts) like the libSQL client (what a remote store is read through), the failure sort like the comparator,
// a command line that declares only the command it runs like one that declares them all, and an
// installed hook's command line read without commander as commander reads it.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createClient } from "@libsql/client";
import { openDb } from "../src/store/driver.ts";
import { DbError, type Exec } from "../src/store/db.ts";
import { failureWeight, sortFailures } from "../src/engine/failures/graph.ts";
import type { Command } from "commander";
import { buildProgram } from "../src/cli.ts";
import { commandWord, commandWords } from "../src/cli-only.ts";
import { hookCall } from "../src/cli-hook.ts";
import { actionInputs } from "../src/cli-parts.ts";
import { HOOK_ARGS } from "../src/engine/agents/agent-hooks.ts";
import { agentKindNames } from "../src/engine/agents/kinds/index.ts";
import { compareCodePoints, compareCodes, compareText, graphemeBoundary, nextText } from "../src/lib/text.ts";
import type { FailureRecord } from "../src/store/store.ts";
import { childEnv, dumpStore, gitRepo, laptop, MAIN, ok, run, sql, storeClient, tempDir } from "./helpers.ts";
import { INDEXES } from "../src/store/migrations.ts";
import { Queries } from "../src/store/store.ts";
import type { Statement } from "../src/store/db.ts";

const SEED = Number(process.env.PROPERTY_SEED) || 20261123;

/** What a caller can see of a row: named columns (as spread and Object.keys see them), numbered ones, length, JSON. */
function seen(rows: ArrayLike<unknown>[]) {
  return rows.map((r) => ({
    keys: Object.keys(r),
    spread: { ...r },
    byNumber: Array.from({ length: r.length }, (_, i) => r[i]),
    length: r.length,
    json: JSON.stringify(r),
  }));
}

/**
 * The outcome of one call: its rows and counts, or its failure: a SQLite one by its codes and
 * message (what the store's error mapping reads), any other by its class.
 */
async function outcome(c: Exec, sql: string, args: unknown[] = []) {
  try {
    const r = await c.execute({ sql, args: args as never });
    return {
      rows: seen(r.rows as never),
      columns: r.columns,
      rowsAffected: r.rowsAffected,
      lastInsertRowid: r.lastInsertRowid,
    };
  } catch (e) {
    const x = e as { message?: string; code?: string; extendedCode?: string; rawCode?: number };
    return {
      error:
        x.code === undefined
          ? { type: (e as Error).constructor.name }
          : { message: x.message, code: x.code, extendedCode: x.extendedCode, rawCode: x.rawCode },
    };
  }
}

describe("the local store drivers answer as the libSQL client does", () => {
  const STATEMENTS: [string, unknown[]][] = [
    ["CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER, x REAL, b BLOB, s TEXT)", []],
    ["INSERT INTO t VALUES (?, ?, ?, ?, ?)", ["a", 1, 1.5, new Uint8Array([1, 2, 3]).buffer, "中文 🚀"]],
    // (A number bound to a TEXT column is where the two SQLites differ: libSQL binds every JS
    // number as a REAL, stored as "1.0", Bun's SQLite an integral one as an INTEGER, "1". Records
    // bind text to TEXT columns, so a boolean goes to an INTEGER column here.)
    ["INSERT INTO t VALUES (?, ?, ?, ?, ?)", ["b", true, null, null, "2"]],
    ["INSERT INTO t VALUES (?, ?, ?, ?, ?)", ["a", 3, 0, null, "duplicate key"]],
    ["SELECT * FROM t ORDER BY id", []],
    ["SELECT id, n AS id, s FROM t ORDER BY id", []],
    ['SELECT 1, 2 AS "0", \'x\' AS "1"', []],
    ["SELECT count(*) FROM t WHERE n > ?", [0]],
    ["SELECT * FROM t WHERE id = ?", ["nobody"]],
    ["UPDATE t SET s = ? WHERE n >= ?", ["updated", 1]],
    ["SELECT * FROM t", []],
    ["SELECT id, s FROM t ORDER BY id", []],
    ["ALTER TABLE t ADD COLUMN added TEXT DEFAULT 'new'", []],
    ["SELECT * FROM t", []],
    ["SELECT id, s FROM t ORDER BY id", []],
    ["INSERT INTO t VALUES (?, ?, ?, ?, ?)", ["c", 2 ** 60, 0, null, "too big for a number"]],
    ["SELECT * FROM t", []],
    ["SELECT no_such_column FROM t", []],
    ["SELEC oops", []],
    ["PRAGMA journal_mode", []],
    ["INSERT INTO t (id, n) VALUES (?, ?) RETURNING id, n", ["d", 4]],
    ["DELETE FROM t WHERE id = ?", ["d"]],
    ["DROP TABLE t", []],
    ["CREATE TABLE t (s TEXT, id TEXT)", []],
    ["INSERT INTO t VALUES (?, ?)", ["again", "e"]],
    ["SELECT id, s FROM t ORDER BY id", []],
  ];

  test.each([
    ["Bun's SQLite (a plain file)", false],
    ["libSQL's driver", true],
  ])("the same rows, counts and errors, statement by statement, on %s", async (_, libsql) => {
    const dir = tempDir();
    const theirs = createClient({ url: `file:${join(dir, "client.db")}` });
    const ours = await openDb(join(dir, "ours.db"), { timeoutMs: 1000, libsql });
    expect(ours.engine).toBe(libsql ? "libsql" : "bun");
    try {
      for (const [sql, args] of STATEMENTS) {
        // Twice: the second run of a statement is the prepared one.
        for (let i = 0; i < 2; i++)
          expect({ sql, ...(await outcome(ours, sql, args)) }).toEqual({
            sql,
            ...(await outcome(theirs, sql, args)),
          });
      }
      // Its failures are the store's own errors, not the client's class.
      await expect(ours.execute("SELEC oops")).rejects.toBeInstanceOf(DbError);
    } finally {
      theirs.close();
      ours.close();
    }
  });

  test.each([
    ["Bun's SQLite", false],
    ["libSQL's driver", true],
  ])(
    "transactions on %s: committed, rolled back, closed; one at a time; nothing after close",
    async (_, libsql) => {
      const ours = await openDb(join(tempDir(), "tx.db"), { timeoutMs: 1000, libsql });
      await ours.execute("CREATE TABLE t (v TEXT)");
      const tx = await ours.transaction("write");
      await tx.execute({ sql: "INSERT INTO t VALUES (?)", args: ["kept"] });
      await expect(ours.execute("SELECT * FROM t")).rejects.toMatchObject({ code: "TX_ACTIVE" });
      await tx.commit();
      expect(tx.closed).toBe(true);
      const undone = await ours.transaction("write");
      await undone.execute({ sql: "INSERT INTO t VALUES (?)", args: ["undone"] });
      await undone.rollback();
      const dropped = await ours.transaction("write");
      await dropped.execute({ sql: "INSERT INTO t VALUES (?)", args: ["dropped"] });
      dropped.close();
      await expect(dropped.execute("SELECT 1")).rejects.toMatchObject({ code: "TX_CLOSED" });
      expect((await ours.execute("SELECT v FROM t")).rows.map((r) => r.v)).toEqual(["kept"]);
      // Inside a write transaction a `SELECT *` is kept prepared; a column added there is still seen.
      const migrating = await ours.transaction("write");
      expect((await migrating.execute("SELECT * FROM t")).columns).toEqual(["v"]);
      await migrating.execute("ALTER TABLE t ADD COLUMN w TEXT DEFAULT 'x'");
      expect((await migrating.execute("SELECT * FROM t")).rows.map((r) => ({ ...r }) as unknown)).toEqual([
        { v: "kept", w: "x" },
      ]);
      await migrating.commit();
      ours.close();
      await expect(ours.execute("SELECT 1")).rejects.toMatchObject({ code: "DB_CLOSED" });
    },
  );

  test("a file that is no database fails as the client's does", async () => {
    const dir = tempDir();
    const path = join(dir, "junk.db");
    await Bun.write(
      path,
      "this is not a database, just text that is long enough to have a header".repeat(20),
    );
    const err = async (open: () => Promise<Exec>) => {
      try {
        const c = await open();
        await c.execute("SELECT * FROM sqlite_master");
        return null;
      } catch (e) {
        return { code: (e as { code?: string }).code, message: (e as Error).message };
      }
    };
    const theirs = await err(async () => createClient({ url: `file:${path}` }));
    expect(await err(() => openDb(path, { timeoutMs: 1000 }))).toEqual(theirs);
    expect(await err(() => openDb(path, { timeoutMs: 1000, libsql: true }))).toEqual(theirs);
  });
});

describe("one store file for both SQLites", () => {
  // Plain stores are written by Bun's SQLite now; older MindSave builds on other laptops, and a
  // libSQL server given the file, read and write them with libSQL's, and the other way round.
  test("written by Bun's SQLite, whole to libSQL (rows, integrity, full-text index); written by libSQL, searchable here", async () => {
    const pc = laptop("interop");
    const repo = gitRepo(join(tempDir(), "repo"));
    const opts = { cwd: repo, env: pc.env };
    await ok(
      [
        "save",
        "--goal",
        "同步 zeppelin 重构",
        "--state",
        "half done",
        "--next",
        "tests",
        "--constraint",
        "keep the API",
      ],
      opts,
    );
    await ok(["fail", "use redis", "--reason", "too slow", "--alt", "memcached"], opts);
    const db = join(pc.home, ".mindsave", "mindsave.db");
    // libSQL in a process of its own, as on another laptop: two SQLite libraries in one process
    // share POSIX locks, so one's close drops the other's locks and WAL (SQLite's "multiple copies
    // of SQLite" hazard), which made this test miss libSQL's write now and then.
    const script = join(tempDir(), "libsql-side.ts");
    writeFileSync(
      script,
      `
      import { createClient } from ${JSON.stringify(Bun.resolveSync("@libsql/client", import.meta.dir))};
      import { dumpStore } from ${JSON.stringify(join(import.meta.dir, "helpers.ts"))};
      const theirs = createClient({ url: ${JSON.stringify(pathToFileURL(db).href)} });
      const integrity = (await theirs.execute("PRAGMA integrity_check")).rows.map((r) => r[0]);
      await theirs.execute("INSERT INTO snapshot_search(snapshot_search) VALUES ('integrity-check')");
      const dump = await dumpStore(${JSON.stringify(db)}, theirs);
      // libSQL writes through the same triggers: the change is found here.
      await theirs.execute("UPDATE snapshots SET state = 'blocked on 飞艇 review'");
      theirs.close();
      process.stdout.write(JSON.stringify({ integrity, dump }));
    `,
    );
    const before = await dumpStore(db);
    const side = Bun.spawnSync([process.execPath, script], { stderr: "pipe" });
    expect(side.stderr.toString()).toBe("");
    const { integrity, dump } = JSON.parse(side.stdout.toString()) as { integrity: string[]; dump: string };
    expect(integrity).toEqual(["ok"]);
    expect(dump).toBe(before);
    expect(dump).toContain("同步 zeppelin 重构");
    expect((await run(["recall", "飞艇"], opts)).stdout).toContain("同步 zeppelin 重构");
    const ours = await openDb(db, { timeoutMs: 1000 });
    try {
      await ours.execute("INSERT INTO snapshot_search(snapshot_search) VALUES ('integrity-check')");
      expect((await ours.execute("PRAGMA integrity_check")).rows.map((r) => r[0])).toEqual(["ok"]);
    } finally {
      ours.close();
    }
  });
});

describe("a name prefix as a range of the name index", () => {
  const piece = fc.constantFrom(
    "a",
    "b",
    "z",
    "_",
    "-",
    "2",
    "é",
    "中",
    "文",
    "\ud7ff",
    "\ue000",
    "\uffff",
    "\u{10000}",
    "\u{10ffff}",
    "\u{10fffe}",
  );
  const text = fc.array(piece, { maxLength: 6 }).map((xs) => xs.join(""));
  const bytes = (t: string) => Buffer.from(t, "utf8");

  test("a text starts with the prefix exactly when it is at or after the prefix and before nextText (UTF-8 byte order, as SQLite's BINARY)", () => {
    fc.assert(
      fc.property(text, text, text, (prefix, tail, other) => {
        const above = nextText(prefix);
        for (const t of [prefix + tail, other, prefix.slice(0, -1) + tail]) {
          const inRange =
            Buffer.compare(bytes(t), bytes(prefix)) >= 0 &&
            (above === null || Buffer.compare(bytes(t), bytes(above)) < 0);
          expect(inRange).toBe(t.startsWith(prefix));
        }
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });
});

describe("the indexes made outside the schema version", () => {
  const names = async (db: string) =>
    (await sql(db, "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name")).map((r) =>
      String(r.name),
    );

  test("a store without them (an older build's) gets them on a writable open, same schema version, and the queries they are made for read them", async () => {
    const pc = laptop("indexes");
    const repo = gitRepo(join(tempDir(), "repo"));
    const opts = { cwd: repo, env: pc.env };
    await ok(["fail", "use redis", "--reason", "too slow", "--alt", "memcached"], opts);
    const db = join(pc.home, ".mindsave", "mindsave.db");
    for (const i of INDEXES) await sql(db, `DROP INDEX ${i.name}`);
    const version = (await sql(db, "SELECT value FROM meta WHERE key = 'schema_version'"))[0].value;
    expect(await names(db)).not.toContain(INDEXES[0].name);
    await ok(["failures"], opts);
    expect(await names(db)).toEqual(expect.arrayContaining(INDEXES.map((i) => i.name)));
    expect((await sql(db, "SELECT value FROM meta WHERE key = 'schema_version'"))[0].value).toBe(version);
    // The statements the restore block's ranking, the whole list (`snapshots list --all`), a
    // search of every project and a diff's failures run, as they run them.
    const projectId = String((await sql(db, "SELECT id FROM projects"))[0].id);
    const client = await storeClient(db);
    const statements: Statement[] = [];
    try {
      const queries = new Queries({ execute: (stmt) => (statements.push(stmt), client.execute(stmt)) });
      expect(
        (await queries.failureCandidates(projectId, 5, Date.parse("2026-12-01T00:00:00.000Z"))).map(
          (f) => f.item,
        ),
      ).toEqual(["use redis"]);
      await queries.listSnapshots(projectId, { limit: 50 });
      expect(await queries.searchSnapshots(null, ["redis"], 20)).toEqual([]);
      // A diff's failures: those seen after the older snapshot.
      expect(
        (
          await queries.failuresSeenBetween(projectId, "2000-01-01T00:00:00.000Z", "2999-01-01T00:00:00.000Z")
        ).map((f) => f.item),
      ).toEqual(["use redis"]);
    } finally {
      client.close();
    }
    let plan = "";
    for (const stmt of statements) {
      const [text, args] = typeof stmt === "string" ? [stmt, []] : [stmt.sql, stmt.args ?? []];
      const rows = await sql(db, `EXPLAIN QUERY PLAN ${text}`, args as unknown[]);
      plan += rows.map((r) => String(r.detail)).join("\n");
    }
    for (const i of INDEXES) expect(plan).toContain(i.name);
  });
});

describe("the restore block's failure order", () => {
  const failure = fc.record({
    item: fc.constantFrom("tailwind", "Tailwind", "redux", "重构", "é", "a", "b"),
    scope: fc.constantFrom("project", "global"),
    rejected_by: fc.constantFrom("user", "system"),
    repeat_count: fc.integer({ min: 1, max: 4 }),
    confidence: fc.constantFrom(null, "high", "medium", "low"),
    last_seen: fc.constantFrom(
      "2026-11-20T10:00:00.000Z",
      "2026-10-01T00:00:00.000Z",
      "2026-11-23T05:00:00.000Z",
      "2025-01-01T00:00:00.000Z",
      "2026-11-20",
    ),
  });

  /** Failures with distinct ids, as a store holds them. */
  const failures = fc
    .array(failure, { maxLength: 40 })
    .map(
      (xs) =>
        xs.map((x, i) => ({ ...x, id: `f_${String(i).padStart(3, "0")}` })) as unknown as FailureRecord[],
    );

  test("sortFailures is the order of the priority comparator: weight, repeats, recency, item, then item's bytes and id", () => {
    const now = new Date("2026-11-23T06:00:00.000Z");
    // The comparator written out here, so the sort's own code is not its own reference; the last
    // two keys are what SQL's `ORDER BY f.item, f.id` gave before the ranks query stopped sorting.
    const bytes = (s: string) => Buffer.from(s, "utf8");
    const priority = (a: FailureRecord, b: FailureRecord) =>
      failureWeight(b, now) - failureWeight(a, now) ||
      b.repeat_count - a.repeat_count ||
      compareCodes(b.last_seen, a.last_seen) ||
      compareText(a.item, b.item) ||
      Buffer.compare(bytes(a.item), bytes(b.item)) ||
      compareCodes(a.id, b.id);
    fc.assert(
      fc.property(failures, (fs) => {
        expect(sortFailures(fs, now)).toEqual([...fs].sort(priority));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  test("the order never depends on the order the rows came in (the ranks query has no ORDER BY)", () => {
    const now = new Date("2026-11-23T06:00:00.000Z");
    fc.assert(
      fc.property(failures, fc.integer(), (fs, seed) => {
        const shuffled = [...fs].sort(
          (a, b) =>
            ((Number(a.id.slice(2)) * 7919 + seed) % 101) - ((Number(b.id.slice(2)) * 7919 + seed) % 101),
        );
        expect(sortFailures(shuffled, now).map((f) => f.id)).toEqual(sortFailures(fs, now).map((f) => f.id));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  test("compareCodePoints orders as SQLite's BINARY collation (UTF-8 bytes), past U+FFFF too", () => {
    const chars = fc.constantFrom("a", "Z", "é", "重", "\ue000", "\uffff", "😀", "𝄞", "\ud7ff");
    fc.assert(
      fc.property(
        fc.array(chars, { maxLength: 4 }).map((x) => x.join("")),
        fc.array(chars, { maxLength: 4 }).map((x) => x.join("")),
        (a, b) => {
          expect(Math.sign(compareCodePoints(a, b))).toBe(
            Math.sign(Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"))),
          );
        },
      ),
      { seed: SEED, numRuns: 1000 },
    );
  });
});

describe("grapheme boundaries without a segmenter between plain characters", () => {
  // Pieces that join (marks, ZWJ sequences, flags, Hangul jamo, CR LF, skin tones) beside ones that never do.
  const piece = fc.constantFrom(
    "a",
    "Z",
    " ",
    "\t",
    "\n",
    "\r",
    "\r\n",
    "é",
    "e\u0301",
    "\u0308",
    "中",
    "文",
    "ü",
    "ʰ",
    "\u200d",
    "\ufe0f",
    "👍🏽",
    "🇫🇷",
    "👨‍👩‍👧",
    "한",
    "\u1100\u1161",
    "\u0915\u094d",
    "\u0600",
    "\u00ad",
    "\u007f",
    "¿",
  );

  test("graphemeBoundary is the segmenter's nearest boundary, down and up, at every index", () => {
    const seg = new Intl.Segmenter(undefined, { granularity: "grapheme" });
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 30 }).map((xs) => xs.join("")),
        (text) => {
          const bounds = [...seg.segment(text)].map((s) => s.index).concat(text.length);
          for (let i = 0; i <= text.length; i++) {
            expect(graphemeBoundary(text, i, "down")).toBe(Math.max(...bounds.filter((b) => b <= i)));
            expect(graphemeBoundary(text, i, "up")).toBe(Math.min(...bounds.filter((b) => b >= i)));
          }
        },
      ),
      { seed: SEED, numRuns: 400 },
    );
  });
});

describe("a command line that declares only the command it runs", () => {
  test("finds the command after global options, and declares everything for help", () => {
    expect(commandWord(["load", "--latest"])).toBe("load");
    expect(commandWord(["--home", "/media/usb/mindsave", "--json", "hook", "session-start"])).toBe("hook");
    expect(commandWord(["--in=shop", "snapshots", "list"])).toBe("snapshots");
    expect(commandWord(["load", "--help"])).toBeUndefined();
    expect(commandWord(["help", "load"])).toBeUndefined();
    expect(commandWord(["--json"])).toBeUndefined();
    // The word after it, for `mcp install` (which prints like any command) against `mcp` (the server).
    expect(commandWords(["--home", "h", "mcp", "install", "--agent", "codex"])).toEqual(["mcp", "install"]);
    expect(commandWords(["mcp", "--json"])).toEqual(["mcp", undefined]);
  });

  test("a run's program holds only its command (a group with its own commands); without one, all", () => {
    const names = (c: Command) => c.commands.map((x) => x.name());
    expect(names(buildProgram({ only: "load" }))).toEqual(["load"]);
    const snapshots = buildProgram({ only: "snapshots" });
    expect(names(snapshots)).toEqual(["snapshots"]);
    expect(names(snapshots.commands[0])).toEqual(expect.arrayContaining(["list", "show", "prune"]));
    const all = names(buildProgram());
    for (const name of ["save", "load", "recall", "snapshots", "hook", "import", "sync", "eject"])
      expect(all).toContain(name);
  });

  test("a program built for one command declares it exactly as the whole program does", () => {
    // Each command's options and subcommands, as commander holds them.
    const shape = (c: Command): unknown => ({
      name: c.name(),
      options: c.options.map((o) => o.flags),
      commands: c.commands.map(shape),
    });
    const all = buildProgram();
    expect(all.commands.length).toBeGreaterThan(20);
    for (const cmd of all.commands) {
      const alone = buildProgram({ only: cmd.name() });
      expect(alone.commands.map(shape)).toEqual([shape(cmd)]);
    }
  });

  test("a mistyped command still gets commander's suggestion, and help still lists every command", async () => {
    const cwd = tempDir();
    const typo = await run(["lod", "--latest"], { cwd });
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/Unknown command 'lod'/);
    expect(typo.stderr).toMatch(/load/);
    const help = await run(["--help"], { cwd });
    for (const name of ["save", "load", "recall", "snapshots", "hook", "import", "sync"])
      expect(help.stdout).toContain(`  ${name}`);
    const unknownOption = await run(["load", "--no-such-option"], { cwd });
    expect(unknownOption.code).toBe(1);
    expect(unknownOption.stderr).toMatch(/Unknown option '--no-such-option'/);
  });
});

describe("an installed hook's command line, read without commander", () => {
  /** What commander gives `mindsave hook`'s run for `argv` (the program's own reading, cli-parts.ts). */
  async function commanderReads(argv: string[]) {
    const program = buildProgram({ only: "hook" });
    let got: unknown = "not run";
    program.commands
      .find((c) => c.name() === "hook")!
      .action((...params: unknown[]) => void (got = actionInputs(params[params.length - 1] as Command)));
    await program.parseAsync(argv, { from: "user" });
    return got;
  }

  test("every form `hooks install` writes, and --home or --workspace anywhere, is read as commander reads it", async () => {
    const forms: string[][] = [];
    for (const event of HOOK_ARGS) {
      forms.push(["hook", event]);
      for (const agent of agentKindNames()) forms.push(["hook", event, "--agent", agent]);
    }
    forms.push(
      ["--home", "/media/usb/mindsave", "hook", "session-start"],
      ["hook", "post-tool-use", "--home", "/媒体/盘 1", "--agent", "codex"],
      ["hook", "--agent=gemini", "pre-compact", "--home=/h"],
      ["--workspace", "/w", "hook", "stop", "--agent", "cline"],
      ["hook", "no-such-event", "--agent", "no-such-agent"],
    );
    for (const argv of forms) {
      const fast = hookCall(argv);
      expect(fast).not.toBeNull();
      expect({ argv, read: fast }).toEqual({ argv, read: (await commanderReads(argv)) as never });
    }
  });

  test("the CLI runs an installed hook without loading commander, and any other command through it", async () => {
    // From the source, with commander's files made to throw when loaded (a runtime plugin).
    const dir = tempDir();
    const plugin = join(dir, "no-commander.ts");
    writeFileSync(
      plugin,
      `Bun.plugin({ name: "no-commander", setup(b) { b.onLoad({ filter: /[\\\\/]node_modules[\\\\/]commander[\\\\/]/ }, () => ({ contents: 'throw new Error("commander was loaded")', loader: "js" })); } });\n`,
    );
    const pc = laptop("no-commander", dir);
    const repo = gitRepo(join(dir, "repo"));
    const mindsave = (args: string[]) =>
      Bun.spawn([process.execPath, "--preload", plugin, MAIN, ...args], {
        cwd: repo,
        // Its own transpiler cache: nothing this run transpiles is kept for other runs.
        env: childEnv({ ...pc.env, BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" }, args),
        stdin: new TextEncoder().encode(JSON.stringify({ session_id: "s1", hook_event_name: "Stop" })),
        stdout: "pipe",
        stderr: "pipe",
      });
    const read = async (p: ReturnType<typeof mindsave>) => ({
      code: await p.exited,
      stderr: await new Response(p.stderr).text(),
    });
    expect(await read(mindsave(["hook", "stop"]))).toEqual({ code: 0, stderr: "" });
    const other = await read(mindsave(["signal"]));
    expect(other.code).not.toBe(0);
    // Commander, replaced by the plugin, fails the run (its module has none of the names the CLI imports).
    expect(other.stderr).toMatch(/node_modules[\\/]commander[\\/]/);
  });

  test("any other command line is left to commander (help, a missing or extra word, an unknown or repeated option)", () => {
    for (const argv of [
      ["hook"],
      ["hook", "stop", "extra"],
      ["hook", "stop", "--help"],
      ["hook", "stop", "-h"],
      ["hook", "stop", "--json"],
      ["hook", "stop", "--agent"],
      ["hook", "stop", "--agent", ""],
      ["hook", "stop", "--agent", "--home"],
      ["hook", "stop", "--agent", "codex", "--agent", "gemini"],
      ["--agent", "codex", "hook", "stop"],
      ["hook", "stop", "--in", "shop"],
      ["hook", "stop", "--"],
      ["load", "--latest"],
      ["stop", "hook"],
      [],
    ])
      expect({ argv, read: hookCall(argv) }).toEqual({ argv, read: null });
  });
});
