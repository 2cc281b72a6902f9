// Sync takes only well-formed rows: a peer's row that a save or an import would never write (a
// malformed JSON column, a status or kind no version writes, a date or clock that is none, a
// snapshot dated ahead of this host's clock) is refused: not merged, named in the sync summary and
// by `doctor`, never blocking the other rows, never blamed on this store. The bad rows are planted
// straight into the peer's file, as a hostile or broken drive would hold them.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ok, okJson, run, sql, tempDir, twoLaptops, laptop, gitRepo } from "./helpers.ts";
import { mkdirSync } from "node:fs";
import { Session } from "../src/engine/session.ts";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { emptyInput } from "../src/engine/snapshots/input.ts";
import { openPeer, syncWith } from "../src/engine/sync/sync.ts";
import { addRuleAt, fail, inClone, save } from "./engine-setup.ts";

const DAY = 24 * 60 * 60 * 1000;

/** The goals of the live snapshots in a store, sorted. */
async function goals(db: string): Promise<string[]> {
  return (await sql(db, "SELECT goal FROM snapshots WHERE deleted = 0 ORDER BY goal")).map((r) =>
    String(r.goal),
  );
}

describe("a peer's malformed rows", () => {
  test("are refused one by one: the rest merge, the sync names them and exits 0, doctor lists them, and no word says this store is damaged", async () => {
    const w = twoLaptops("mindsave-quarantine-");
    for (const goal of ["修复登录 good one", "bad json", "bad status"]) await save(inClone(w.a), { goal });
    await fail(inClone(w.a), "GraphQL", "too heavy");
    await addRuleAt(inClone(w.a), "Never push to main");
    // The peer's own file, written under the CLI's feet (its search-index trigger would refuse the JSON).
    await sql(w.a.db, "DROP TRIGGER snapshots_au");
    await sql(w.a.db, "UPDATE snapshots SET constraints = '{not json' WHERE goal = 'bad json'");
    await sql(w.a.db, "UPDATE snapshots SET status = 'exploded' WHERE goal = 'bad status'");
    await sql(w.a.db, "UPDATE failures SET rejected_by = 'robot'");
    await sql(w.a.db, "UPDATE rules SET created_at = 'last tuesday'");

    const r = await run(["sync", w.a.db, "--home", w.b.home], w.b.opts());
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain("damaged");
    expect(r.stdout).toContain(`4 rows from ${w.a.db} refused, not merged`);
    expect(r.stdout).toContain("constraints is not valid JSON (a list of text)");
    expect(r.stdout).toContain("status is not one of in_progress, completed, blocked");
    expect(r.stdout).toContain("rejected_by is not one of user, system");
    expect(r.stdout).toContain("and 1 more");
    // The well-formed rows merged all the same (Chinese text included); the refused ones did not.
    expect(await goals(w.b.db)).toEqual(["修复登录 good one"]);
    expect(await sql(w.b.db, "SELECT item FROM failures")).toEqual([]);
    expect(await sql(w.b.db, "SELECT text FROM rules")).toEqual([]);

    const doctor = await okJson(["doctor", "--home", w.b.home], w.b.opts());
    const named = doctor.refused_rows.map((x: any) => [x.table, x.why, x.location]).sort();
    expect(named).toEqual([
      ["failures", "rejected_by is not one of user, system", w.a.db],
      ["rules", "created_at is not a date", w.a.db],
      ["snapshots", "constraints is not valid JSON (a list of text)", w.a.db],
      ["snapshots", "status is not one of in_progress, completed, blocked", w.a.db],
    ]);
    const text = await run(["doctor", "--home", w.b.home], w.b.opts());
    expect(text.stdout).toContain(`refused:   4 rows from ${w.a.db} refused, not merged`);

    // Each sync asks for them again; fixed on the peer, they go in and doctor names them no more.
    await sql(w.a.db, "UPDATE snapshots SET constraints = '[]' WHERE goal = 'bad json'");
    await sql(w.a.db, "UPDATE rules SET created_at = '2026-01-01T00:00:00.000Z'");
    const again = await run(["sync", w.a.db, "--home", w.b.home], w.b.opts());
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`2 rows from ${w.a.db} refused, not merged`);
    expect(await goals(w.b.db)).toEqual(["bad json", "修复登录 good one"]);
    expect(await sql(w.b.db, "SELECT text FROM rules")).toEqual([{ text: "Never push to main" }]);
    const after = await okJson(["doctor", "--home", w.b.home], w.b.opts());
    expect(after.refused_rows.map((x: any) => x.table).sort()).toEqual(["failures", "snapshots"]);
    // A peer forgotten is asked for nothing more: its refused rows are named no more.
    await ok(["sync", "--remove-peer", w.a.db, "--home", w.b.home], w.b.opts());
    expect((await okJson(["doctor", "--home", w.b.home], w.b.opts())).refused_rows).toEqual([]);
  }, 60_000);

  test("a clock that is no clock and a count that is no count are refused too (--json lists them)", async () => {
    const w = twoLaptops("mindsave-quarantine-");
    await fail(inClone(w.a), "websocket", "drops");
    await ok(["fact", "staging is read-only", "--ttl", "never", "--home", w.a.home], w.a.opts());
    await addRuleAt(inClone(w.a), "Answer in English");
    await sql(w.a.db, "UPDATE facts SET hlc = 'yesterday'");
    await sql(w.a.db, "UPDATE failure_counts SET count = 'lots'");
    await sql(w.a.db, "UPDATE rules SET id = ?", ["r".repeat(100_000)]);
    const r = await okJson(["sync", w.a.db, "--home", w.b.home], w.b.opts());
    expect(r.refused.from_peer.map((x: any) => [x.table, x.why]).sort()).toEqual([
      ["facts", "hlc is not a clock"],
      ["failure_counts", "count is not a count"],
      ["rules", "id is 100,000 characters, more than 256"],
    ]);
    // A key that long is kept and shown cut short, never whole.
    expect(r.refused.from_peer.find((x: any) => x.table === "rules").key).toBe("r".repeat(1024));
    expect(r.refused.from_here).toEqual([]);
    expect(await sql(w.b.db, "SELECT count(*) AS n FROM facts")).toEqual([{ n: 0 }] as any);
  }, 60_000);
});

describe("this store's own malformed rows", () => {
  test("are refused by the peer the same way: the summary says so, and the peer's doctor names them", async () => {
    const w = twoLaptops("mindsave-quarantine-");
    for (const goal of ["fine", "broken tags"]) await save(inClone(w.b), { goal });
    await sql(w.b.db, "DROP TRIGGER snapshots_au");
    await sql(w.b.db, "UPDATE snapshots SET tags = '[1, 2]' WHERE goal = 'broken tags'");
    const r = await run(["sync", w.a.db, "--home", w.b.home], w.b.opts());
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "1 row from this store refused, not merged (by the peer; the rest merged): snapshots",
    );
    expect(r.stdout).toContain("tags is not a list of text");
    expect(await goals(w.a.db)).toEqual(["fine"]);
    const doctor = await okJson(["doctor", "--home", w.a.home], w.a.opts());
    expect(doctor.refused_rows.map((x: any) => [x.table, x.why, x.location])).toEqual([
      ["snapshots", "tags is not a list of text", w.b.db],
    ]);
  }, 60_000);
});

describe("a peer's snapshot dated ahead of this host's clock", () => {
  test("years ahead: refused, so load --latest restores what was saved here", async () => {
    const w = twoLaptops("mindsave-quarantine-");
    await save(inClone(w.a), { goal: "from the future" });
    const ahead = new Date(Date.now() + 3 * 365 * DAY).toISOString();
    await sql(w.a.db, "UPDATE snapshots SET created_at = ?", [ahead]);
    await save(inClone(w.b), { goal: "B's own work" });
    const r = await run(["sync", w.a.db, "--home", w.b.home], w.b.opts());
    expect(r.code).toBe(0);
    expect((await ok(["load", "--latest", "--home", w.b.home], w.b.opts())).stdout).toContain("B's own work");
    expect(await goals(w.b.db)).toEqual(["B's own work"]);
    expect(r.stdout).toMatch(
      /1 row from .* refused, not merged .*created_at is 109[45] day\(s\) ahead of this host's clock/,
    );
  }, 60_000);

  test("refused while more than a day ahead, taken in by a later sync once it is within a day of this host's clock", async () => {
    const now = Date.now();
    const base = tempDir("mindsave-quarantine-");
    const repo = gitRepo(join(base, "shop"));
    const open = async (name: string, at: number) => {
      const pc = laptop(name, base);
      const home = join(base, `${name}-home`);
      mkdirSync(home, { recursive: true });
      const env = { ...process.env, ...pc.env, MINDSAVE_HOST: `host-${name}` };
      return {
        home,
        db: join(home, "mindsave.db"),
        session: await Session.open({ home, cwd: repo, env, now: () => new Date(at) }, { write: true }),
      };
    };
    const ahead = await open("ahead", now + 3 * DAY);
    await saveSnapshot(ahead.session, {
      input: { ...emptyInput(), goal: "saved 3 days ahead", state: "s", next_action: "n" },
    });
    await ahead.session.close();

    const syncAt = async (at: number) => {
      const here = await open("here", at);
      const peer = await openPeer(ahead.db);
      try {
        return await syncWith(here.session, peer, { localLocation: here.db });
      } finally {
        peer.store.close();
        await here.session.close();
      }
    };
    const first = await syncAt(now);
    expect(first.refused.from_peer.map((x) => x.why)).toEqual([
      "created_at is 3 day(s) ahead of this host's clock",
    ]);
    expect(await goals(join(base, "here-home", "mindsave.db"))).toEqual([]);
    // Nothing changed on the peer since; two and a half days later it is half a day ahead: taken in.
    const later = await syncAt(now + 2.5 * DAY);
    expect(later.refused.from_peer).toEqual([]);
    expect(later.pulled.snapshots.added).toBe(1);
    expect(await goals(join(base, "here-home", "mindsave.db"))).toEqual(["saved 3 days ahead"]);
  }, 60_000);
});
