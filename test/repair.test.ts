// A repair keeps what retention archived archived (issue 32): the copy lists exactly the snapshots
// the damaged store listed; when that list itself was on the damaged page, retention chooses them
// again (the newest 20, nothing deleted). The report says which, and counts the change log it
// rebuilt. All through the real CLI, on real store files.
import { beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { destroyTable, projectOnLaptop, run, sql, tempDir } from "./helpers.ts";

const COUNT = 27;
let golden: { db: string; repo: string; env: Record<string, string>; names: string[] };

beforeAll(async () => {
  const t = projectOnLaptop("mindsave-repair-archived-");
  const dir = join(t.repo, ".mindsave", "snapshots");
  mkdirSync(dir, { recursive: true });
  const names: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const at = new Date(Date.UTC(2026, 0, 1, 12) + i * 3600_000).toISOString(); // in progress: no age rule
    names.push(`work_${String(i).padStart(2, "0")}`);
    writeFileSync(
      join(dir, `${names[i]}.md`),
      `---\nsnapshot_id: ${names[i]}\ncreated_at: "${at}"\nstatus: in_progress\ngoal: 目标 ${i}\nstate: s\nnext_action: n\nblocker: none\n---\n`,
    );
  }
  const imported = await t.json(["import", t.repo]);
  expect(imported.snapshots.archived).toEqual(names.slice(0, COUNT - 20)); // retention's 20 of 27
  await t.json(["eject"]); // everything in mindsave.db alone
  golden = { db: t.db, repo: t.repo, env: t.pc.env, names };
}, 120_000);

/** A home holding a copy of the golden store with `table`'s page destroyed, repaired. */
async function repairedAfterLosing(table: string) {
  const home = tempDir("mindsave-home-");
  const db = join(home, "mindsave.db");
  copyFileSync(golden.db, db);
  await destroyTable(db, table);
  const cli = (args: string[]) => run([...args, "--home", home], { cwd: golden.repo, env: golden.env });
  const repair = await cli(["doctor", "--repair"]);
  expect(repair.code).toBe(0);
  const json = async (args: string[]) => JSON.parse((await cli(["--json", ...args])).stdout);
  const all = (await json(["snapshots", "list", "--all"])).snapshots as { name: string; archived: boolean }[];
  return {
    db,
    repair: repair.stdout,
    json,
    all,
    archived: all
      .filter((s) => s.archived)
      .map((s) => s.name)
      .sort(),
  };
}

describe("a repair keeps archived snapshots archived", () => {
  test("another table's page lost: the copy lists the 20 the store listed, the 7 archived stay archived, clean offers nothing", async () => {
    const r = await repairedAfterLosing("failures");
    expect(r.all).toHaveLength(COUNT); // nothing lost, nothing deleted
    expect(r.archived).toEqual(golden.names.slice(0, COUNT - 20));
    expect((await r.json(["snapshots", "list"])).snapshots).toHaveLength(20);
    expect((await r.json(["snapshots", "clean", "--dry-run"])).archived).toEqual([]);
    expect(r.repair).toContain("Snapshots shown by default are as before: 20 listed, 7 archived.");
    const changes = Number((await sql(r.db, "SELECT count(*) AS n FROM changes"))[0].n);
    expect(changes).toBeGreaterThan(COUNT); // every snapshot and the project, at least
    expect(r.repair).toContain(
      `the change log (${changes} entries: the next sync with each peer sends and takes everything again)`,
    );
  });

  test("the list's own page lost: retention chooses again, the newest 20 listed, the rest archived, nothing deleted; the report says so", async () => {
    const r = await repairedAfterLosing("listed_snapshots");
    expect(r.all).toHaveLength(COUNT);
    expect(r.archived).toEqual(golden.names.slice(0, COUNT - 20));
    expect((await r.json(["snapshots", "clean", "--dry-run"])).archived).toEqual([]);
    expect(r.repair).toContain(
      "The list of snapshots shown by default could not be read whole (20 of its rows lost)",
    );
    expect(r.repair).toContain(
      "so retention chose them again, the newest 20 per project (nothing deleted): 20 listed, 7 archived.",
    );
  });
});
