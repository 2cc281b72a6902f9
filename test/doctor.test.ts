// doctor through the real CLI: what it finds and what it tells the reader to run.
import { describe, expect, test } from "bun:test";
import { closeSync, openSync, readFileSync, statSync, truncateSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { destroyTable, laptopAndHome as newcomer, projectOnLaptop as fixture, run, sql } from "./helpers.ts";
import { save as saveAt, saveGoal as save, storeFixture } from "./engine-setup.ts";
import { tableWords } from "../src/store/table-words.ts";

// Three snapshots saved in this process (the engine's save, as the CLI's), copied for each test
// that damages or checks them: doctor, through the CLI, is what is tested.
const threeGoals = storeFixture("mindsave-doctor-three-", async (t) => {
  for (let i = 0; i < 3; i++) await save(t, `goal number ${i} 记忆`);
});

describe("doctor on a damaged store", () => {
  test("says what to run without sending the reader back to doctor", async () => {
    const t = await threeGoals();
    truncateSync(t.db, Math.floor(statSync(t.db).size / 2));
    const r = await t.cli(["doctor"]);
    expect(r.code).toBe(1);
    const problem = r.stdout.split("\n").find((l) => l.startsWith("problem:"));
    expect(problem).toContain("damaged");
    expect(problem).toContain("mindsave doctor --repair");
    expect(problem).not.toContain("`mindsave doctor` ");
    const j = JSON.parse((await t.cli(["--json", "doctor"])).stdout);
    expect(j.problem).not.toContain("`mindsave doctor` ");
    // Other commands still point to doctor to see what is wrong.
    expect((await t.cli(["load"])).stderr).toContain("run `mindsave doctor` to see what is wrong");
  });
});

test('doctor gives a small store\'s size in KB, not "0.0 MiB"', async () => {
  const t = newcomer("mindsave-newcomer-doctor-");
  const { home, pc } = t;
  const repo = t.repo();
  await saveAt({ home, cwd: repo, env: pc.env }, { goal: "a first save" });
  const db = join(home, "mindsave.db");
  const whole = statSync(db).size;
  expect(whole).toBeLessThan(1024 ** 2);
  writeFileSync(db, readFileSync(db).subarray(0, 5000)); // cut short, as a pulled drive may leave it
  const r = await run(["doctor", "--home", home], { cwd: repo, env: pc.env });
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(
    new RegExp(
      `^file: +4\\.9 KB, but its header says ${(whole / 1024).toFixed(1)} KB: it was cut short$`,
      "m",
    ),
  );
  expect(r.stdout).not.toContain("MiB");
});

describe("doctor in the product's words", () => {
  test("a damaged search index: the quick check, --full's --json and the rows left say what is damaged, never a table's name", async () => {
    const t = await threeGoals();
    await destroyTable(t.db, "snapshot_search_docsize");
    const quick = await t.cli(["doctor"]);
    expect(quick.code).toBe(1);
    expect(quick.stdout).toMatch(/^integrity: the search index: \S/m);
    // What the store still holds, each kind named as a person knows it, their work first.
    expect(quick.stdout).toMatch(
      /^rows: +snapshots 3, snapshots listed \(not archived\) 3, the search index 3, /m,
    );
    expect(quick.stdout).toContain("project folders 1");
    expect(quick.stdout).not.toMatch(/snapshot_search|failure_|roots|tables:/);
    const full = JSON.parse((await t.cli(["--json", "doctor", "--full"])).stdout);
    expect(full.integrity).toMatch(/^the search index: \S/);
    expect(full.integrity).not.toContain("snapshot_search_");
    // The machine keys stay the tables'.
    expect(full.damage.tables).toMatchObject({ snapshots: 3, roots: 1 });
  });

  test("every table of a real store, SQLite's own included (counters, statistics), has words, never its name", async () => {
    const t = await threeGoals();
    await sql(t.db, "ANALYZE"); // sqlite_stat1 (and sqlite_stat4 where SQLite is built with it)
    const names = (await sql(t.db, "SELECT name FROM sqlite_schema WHERE type = 'table'")).map((r) =>
      String(r.name),
    );
    // The change log's AUTOINCREMENT counter and ANALYZE's statistics are there to be named.
    expect(names).toEqual(
      expect.arrayContaining(["sqlite_sequence", "sqlite_stat1", "snapshot_search_docsize"]),
    );
    for (const name of [...names, "sqlite_schema", "sqlite_stat4"]) {
      expect(`${name}: ${tableWords(name)}`).not.toMatch(/: .*(_|sqlite)/i);
    }
    expect(tableWords("sqlite_sequence")).toBe("the store's counters");
  });

  test("a repair counts the rows saved and lost by kind: 1 row lost (project folders 1)", async () => {
    const t = await threeGoals();
    await destroyTable(t.db, "roots");
    expect((await t.cli(["doctor"])).stdout).toMatch(/^integrity: project folders: \S/m);
    const repair = await t.cli(["doctor", "--repair"]);
    expect(repair.stdout).toMatch(
      / rows saved \(snapshots 3, projects 1, hosts 1, pressure signals 1, settings \d+\), 1 row lost \(project folders 1\);/,
    );
    const counts = repair.stdout.split("\n")[0].split(".db: ")[1];
    expect(counts).not.toMatch(/roots|\(signals|meta/);
    expect(repair.stdout).toContain("Some projects' folders were lost");
  });
});

describe("doctor's quick check and --full", () => {
  test("a damaged page only the full check reads: doctor says quick check ok, --full finds it", async () => {
    const t = await threeGoals();
    await destroyTable(t.db, "snapshots"); // the snapshots' own page; the quick check reads only indexes and counts

    const quick = await t.cli(["doctor"]);
    expect(quick.code).toBe(0);
    expect(quick.stdout).toContain("integrity: ok (quick check; `doctor --full` checks every page)");
    expect(JSON.parse((await t.cli(["--json", "doctor"])).stdout)).toMatchObject({
      integrity: "ok",
      check: "quick",
      problem: null,
    });

    const full = await t.cli(["doctor", "--full"]);
    expect(full.code).toBe(1);
    expect(full.stdout).not.toMatch(/^integrity: ok/m);
    expect(full.stdout.split("\n").find((l) => l.startsWith("problem:"))).toContain(
      "mindsave doctor --repair",
    );
    const j = JSON.parse((await t.cli(["--json", "doctor", "--full"])).stdout);
    expect(j).toMatchObject({ check: "full", problem_kind: "damaged" });
    expect(j.integrity).not.toBe("ok");
  });

  test("a healthy store: --full checks every page and says so", async () => {
    const t = await threeGoals();
    const full = await t.cli(["doctor", "--full"]);
    expect(full.code).toBe(0);
    expect(full.stdout).toContain("integrity: ok (every page checked)");
    expect(full.stderr).toBe(""); // no progress line without a terminal
    expect(JSON.parse((await t.cli(["--json", "doctor", "--full"])).stdout)).toMatchObject({
      integrity: "ok",
      check: "full",
    });
  });

  test("--full finds a search index whose data is damaged (the pages themselves are sound)", async () => {
    const t = fixture("mindsave-doctor-full-index-");
    for (let i = 0; i < 30; i++) await save(t, `goal number ${i} about rate limiting and caching`);
    // The last 16 bytes of the index's last data page: the end of a blob, no b-tree structure.
    const [page] = await sql(
      t.db,
      "SELECT max(pageno) AS n, (SELECT page_size FROM pragma_page_size) AS size FROM dbstat WHERE name = 'snapshot_search_data' AND pagetype = 'leaf'",
    );
    const fd = openSync(t.db, "r+");
    writeSync(fd, Buffer.alloc(16, 0x41), 0, 16, Number(page.n) * Number(page.size) - 16);
    closeSync(fd);
    const r = await t.cli(["--json", "doctor", "--full"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ check: "full", problem_kind: "damaged" });
    expect(JSON.parse(r.stdout).integrity).toContain("fts5: corruption found reading blob");
  });

  test("the quick check finds a search index that lost a snapshot's row", async () => {
    const t = fixture("mindsave-doctor-quick-index-");
    for (let i = 0; i < 2; i++) await save(t, `goal number ${i}`);
    await sql(t.db, "DELETE FROM snapshot_search WHERE rowid = (SELECT min(rowid) FROM snapshots)"); // the snapshot stays
    const r = await t.cli(["--json", "doctor"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      check: "quick",
      problem_kind: "damaged",
      integrity: "the search index holds 1 snapshots, the store 2",
    });
    expect((await t.cli(["doctor"])).stdout).toContain("the search index holds 1 snapshots, the store 2");
  });
});
