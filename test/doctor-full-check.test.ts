// doctor --full checks the store a table at a time (so that its progress can be shown) and still
// finds all SQLite's check of the whole file finds: a damaged index, and a page no table uses,
// which no table's own check sees. The report is the engine's (healthReport), on real store files.
import { describe, expect, test } from "bun:test";
import { appendFileSync, closeSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { healthReport } from "../src/engine/home/doctor.ts";
import { childEnv, sql } from "./helpers.ts";
import { saveGoal as save, storeFixture } from "./engine-setup.ts";

const fiveGoals = storeFixture("mindsave-full-check-", async (t) => {
  for (let i = 0; i < 5; i++) await save(t, `goal number ${i} about rate limiting 记忆`);
});

/** The full check of the store at `t`, as `doctor --full` runs it. */
const fullReport = (t: Awaited<ReturnType<typeof fiveGoals>>) =>
  healthReport({ home: t.home, env: childEnv(t.pc.env) }, "full");

describe("doctor --full, a table at a time", () => {
  test("a healthy store: ok, every part's progress reported up to the pages its tables use", async () => {
    const t = await fiveGoals();
    const [{ used }] = await sql(t.db, "SELECT sum(pageno) AS used FROM dbstat WHERE aggregate = TRUE");
    const seen: [number, number][] = [];
    const r = await healthReport({ home: t.home, env: childEnv(t.pc.env) }, "full", (done, total) =>
      seen.push([done, total]),
    );
    expect(r.integrity).toBe("ok");
    expect(seen[0]).toEqual([0, Number(used)]);
    expect(seen.at(-1)).toEqual([Number(used), Number(used)]);
    expect(seen.map(([done]) => done)).toEqual([...seen.map(([done]) => done)].sort((a, b) => a - b));
  });

  test("an index entry that no longer matches its row: the index named", async () => {
    const t = await fiveGoals();
    // A byte of the last key in the index's only page (keys fill a page from its end): the page's
    // structure stays sound, one entry no longer matches the snapshot's row.
    const [page] = await sql(
      t.db,
      "SELECT pageno, (SELECT page_size FROM pragma_page_size) AS size FROM dbstat WHERE name = 'snapshots_name' AND pagetype = 'leaf'",
    );
    const at = Number(page.pageno) * Number(page.size) - 2;
    const fd = openSync(t.db, "r+");
    writeSync(fd, Buffer.from([readFileSync(t.db)[at] ^ 0x01]), 0, 1, at);
    closeSync(fd);
    const r = await fullReport(t);
    expect(r.problem_kind).toBe("damaged");
    expect(r.integrity).toContain("snapshots_name");
  });

  test("a page no table uses (the file one page longer than its tables): the whole check names it", async () => {
    const t = await fiveGoals();
    const bytes = readFileSync(t.db);
    const size = bytes.readUInt16BE(16);
    const pages = bytes.readUInt32BE(28);
    appendFileSync(t.db, Buffer.alloc(size));
    const fd = openSync(t.db, "r+");
    const count = Buffer.alloc(4);
    count.writeUInt32BE(pages + 1);
    writeSync(fd, count, 0, 4, 28); // the header's page count, kept valid (its change counter unchanged)
    closeSync(fd);
    const r = await fullReport(t);
    expect(r.problem_kind).toBe("damaged");
    expect(r.integrity).toBe(`Page ${pages + 1}: never used`);
  });

  test("a page two tables use (the schema points sqlite_sequence at sync_peers' page): the whole check names it", async () => {
    const t = await fiveGoals();
    const roots = await sql(
      t.db,
      "SELECT name, rootpage FROM sqlite_schema WHERE name IN ('sqlite_sequence', 'sync_peers') ORDER BY name",
    );
    const [sequence, peers] = roots.map((r) => Number(r.rootpage));
    // The schema's record of sqlite_sequence: its name, its table's name, then its root page in a byte.
    const bytes = readFileSync(t.db);
    const at = bytes.indexOf("sqlite_sequencesqlite_sequence") + 30;
    expect(bytes[at]).toBe(sequence);
    bytes[at] = peers;
    writeFileSync(t.db, bytes);
    const r = await fullReport(t);
    expect(r.problem_kind).toBe("damaged");
    expect(r.integrity).toContain(`2nd reference to page ${peers}`);
    expect(r.integrity).toContain(`Page ${sequence}: never used`);
  });

  test("a free page a table uses (the free list names sync_peers' page): the whole check names it", async () => {
    const t = await fiveGoals();
    await sql(t.db, "DROP TABLE tool_calls"); // its page and its two indexes' go to the free list
    const [{ root }] = await sql(
      t.db,
      "SELECT rootpage AS root FROM sqlite_schema WHERE name = 'sync_peers'",
    );
    const bytes = readFileSync(t.db);
    const size = bytes.readUInt16BE(16);
    const trunk = bytes.readUInt32BE(32); // the free list's first trunk page: next trunk, count, leaves
    expect(bytes.readUInt32BE((trunk - 1) * size + 4)).toBeGreaterThan(0);
    const leaf = bytes.readUInt32BE((trunk - 1) * size + 8);
    bytes.writeUInt32BE(Number(root), (trunk - 1) * size + 8);
    writeFileSync(t.db, bytes);
    const r = await fullReport(t);
    expect(r.problem_kind).toBe("damaged");
    expect(r.integrity).toContain(`2nd reference to page ${root}`);
    expect(r.integrity).toContain(`Page ${leaf}: never used`);
  });
});
