// Retention archives; only a person deletes (issue 32). The keep rules (20; completed older than 30
// days) keep the views short: a snapshot past them is archived, left out of `snapshots list` and
// `load`'s numbers, still found by recall, `list --all`, `load ID`, export and sync. Only
// `snapshots delete` and `snapshots prune` delete.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  dumpStore,
  projectOnLaptop as fixture,
  sql,
  twoLaptops,
  type LaptopWithClone,
  type ProjectOnLaptop,
} from "./helpers.ts";
import { SCHEMA_VERSION } from "../src/store/migrations.ts";
import { backToSchema } from "./old-schemas.ts";
import {
  atPlace,
  inClone,
  inRepo,
  save as saveAt,
  saveGoal as save,
  storeFixture,
  syncAt,
  type Place,
} from "./engine-setup.ts";
import { importSeed } from "../src/engine/formats/seed-import.ts";
import { locateSeed } from "../src/engine/formats/seed-layout.ts";
import { cleanSnapshots } from "../src/engine/snapshots/manage.ts";
import { parseAge, pruneCandidates } from "../src/engine/snapshots/retention.ts";
import { newestSnapshot } from "../src/engine/snapshots/select.ts";
import { requireProject } from "../src/engine/projects/resolve.ts";
import { UserError } from "../src/errors.ts";
import { utcMinute } from "../src/lib/text.ts";
import { TMUX, terminal } from "./terminal.ts";

if (!TMUX)
  console.log("skipped prune's question on a terminal: tmux is not installed (apt-get install tmux)");

/** Writes `count` snapshot files into the laptop's project (.mindsave/snapshots), one a day from `start`. */
function seedFiles(
  l: Pick<LaptopWithClone, "repo">,
  count: number,
  opts: { start?: number; status?: string; prefix?: string } = {},
): string[] {
  const dir = join(l.repo, ".mindsave", "snapshots");
  mkdirSync(dir, { recursive: true });
  const start = opts.start ?? Date.UTC(2026, 0, 1, 12);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const at = new Date(start + i * 24 * 60 * 60 * 1000).toISOString();
    const name = `${opts.prefix ?? "task"}_${String(i).padStart(2, "0")}_${at.slice(0, 10).replaceAll("-", "")}`;
    names.push(name);
    writeFileSync(
      join(dir, `${name}.md`),
      `---\nsnapshot_id: ${name}\ncreated_at: "${at}"\nstatus: ${opts.status ?? "in_progress"}\ngoal: goal ${i} 任务\nstate: working\nnext_action: go on\nblocker: none\n---\n## Notes\nmarker${opts.prefix ?? "task"}${i}x in the cold archive\n`,
    );
  }
  return names;
}

const live = async (db: string) =>
  Number((await sql(db, "SELECT count(*) AS n FROM snapshots WHERE deleted = 0"))[0].n);
const tombstones = async (db: string) =>
  Number((await sql(db, "SELECT count(*) AS n FROM snapshots WHERE deleted = 1"))[0].n);
const goals = (list: { snapshots: { goal: string }[] }) => list.snapshots.map((s) => s.goal);

// Set-up in this process through the engine calls of `mindsave import` and `snapshots clean`
// (and engine-setup's syncAt), where the CLI's own output is not what a test checks.
const importAt = (place: Place, repo: string) => atPlace(place, (s) => importSeed(s, locateSeed(repo)));
const cleanAt = (place: Place, keep: number) => atPlace(place, (s) => cleanSnapshots(s, { keep }));
/** A tmux terminal's laptop, home and project (test/terminal.ts) as a place. */
const onTerminal = (t: ReturnType<typeof terminal>): Place => ({ home: t.home, cwd: t.repo, env: t.pc.env });

describe("retention archives, never deletes", () => {
  test("30 imported then a save: 20 listed (in progress counted too), every one still there for list --all, load ID and recall", async () => {
    const w = twoLaptops("mindsave-retention-");
    const names = seedFiles(w.a, 30);
    const imported = await w.a.json(["import", w.a.repo]);
    expect(imported.snapshots.imported).toHaveLength(30);
    // The import says what it archived: the oldest 10, never what it just imported beyond that.
    expect(imported.snapshots.archived).toEqual(names.slice(0, 10));
    const text = await w.a.cli(["snapshots", "list"]);
    expect(text.stdout).toContain(
      "10 older snapshot(s) are archived: `mindsave snapshots list --all` shows them.",
    );

    const saved = await w.a.json(["save", "--goal", "the newest work", "--state", "s", "--next", "n"]);
    expect(saved.archived).toEqual([names[10]]);
    expect(await live(w.a.db)).toBe(31);
    expect(await tombstones(w.a.db)).toBe(0);

    const list = await w.a.json(["snapshots", "list"]);
    expect(list.snapshots).toHaveLength(20);
    expect(list.archived).toBe(11);
    expect(goals(list)[0]).toBe("the newest work");
    expect(goals(list).at(-1)).toBe("goal 11 任务");
    const all = await w.a.json(["snapshots", "list", "--all"]);
    expect(all.snapshots).toHaveLength(31);
    expect(
      all.snapshots
        .filter((s: { archived: boolean }) => s.archived)
        .map((s: { name: string }) => s.name)
        .sort(),
    ).toEqual(names.slice(0, 11));
    const allText = (await w.a.cli(["snapshots", "list", "--all"])).stdout;
    expect(allText).toContain(`${names[0]} (archived)`);
    expect(allText).toContain("archived ones included");

    // An archived snapshot loads by its name, and recall finds it by a word only its Layer 3 holds.
    const loaded = await w.a.json(["load", names[0]]);
    expect(loaded.layer1.goal).toBe("goal 0 任务");
    const hits = await w.a.json(["recall", "markertask0x"]);
    expect(hits.hits.map((h: { name: string }) => h.name)).toEqual([names[0]]);
    // Its text marks the hit archived; a listed one is not marked.
    expect((await w.a.cli(["recall", "markertask0x"])).stdout).toContain(`${names[0]} (archived)`);
    const listed = (await w.a.cli(["recall", "markertask29x"])).stdout;
    expect(listed).toContain(names[29]);
    expect(listed).not.toContain("(archived)");
    // `load` without a choice lists the listed ones; export writes every snapshot, archived ones too.
    expect((await w.a.cli(["load"])).stdout).toContain("20 snapshots. Load one with `mindsave load N`");
    const out = join(w.base, "exported");
    await w.a.json(["export", "--out", out]);
    expect(readdirSync(join(out, ".mindsave", "snapshots")).filter((f) => f.endsWith(".md"))).toHaveLength(
      31,
    );

    // The text names the first five archived and counts the rest (a first save after an upgrade may archive 100,000).
    const clean = await w.a.cli(["snapshots", "clean", "--keep", "3"]);
    expect(clean.stdout).toContain(`Archived 17 snapshot(s): ${names.slice(11, 16).join(", ")} and 12 more.`);
    expect((await w.a.json(["snapshots", "list"])).snapshots).toHaveLength(3);
    // `load N` counts the list: 3 numbers, the archived have none.
    expect((await w.a.json(["load", "3"])).layer1.goal).toBe("goal 28 任务");
    const past = await w.a.cli(["load", "4"]);
    expect(past.code).toBe(1);
    expect(past.stderr).toContain("this project lists 3 (1 is the newest; archived ones load by name or id)");
  });

  test("keep counts every snapshot but never archives the newest nor the newest full one (what load restores)", async () => {
    const w = twoLaptops("mindsave-retention-keep-");
    seedFiles(w.a, 4, { status: "blocked" });
    await importAt(inClone(w.a), w.a.repo);
    for (const goal of ["overflow one", "overflow two"]) {
      const r = await w.a.json([
        "save",
        "--overflow",
        "--goal",
        goal,
        "--state",
        "s",
        "--next",
        "n",
        "--keep",
        "2",
      ]);
      expect(r.archived.length).toBeGreaterThan(0);
    }
    // Kept: the newest (an overflow snapshot) and the newest full one, whose Layer 2 it restores.
    expect(goals(await w.a.json(["snapshots", "list"]))).toEqual(["overflow two", "goal 3 任务"]);
    expect(await live(w.a.db)).toBe(6);
  });

  test("completed snapshots older than 30 days are archived under the count too; snapshots clean says it archives", async () => {
    const w = twoLaptops("mindsave-retention-old-");
    seedFiles(w.a, 3, { status: "completed", start: Date.UTC(2024, 0, 1), prefix: "old" });
    seedFiles(w.a, 2, { start: Date.UTC(2024, 5, 1), prefix: "wip" });
    const r = await w.a.json(["import", w.a.repo]);
    expect(r.snapshots.archived).toHaveLength(3);
    expect(goals(await w.a.json(["snapshots", "list"]))).toEqual(["goal 1 任务", "goal 0 任务"]);

    const clean = await w.a.cli(["snapshots", "clean", "--keep", "1", "--dry-run"]);
    expect(clean.stdout).toContain("Would archive 1 snapshot(s):");
    expect(clean.stdout).toContain("Archiving deletes nothing");
    expect((await w.a.json(["snapshots", "list"])).snapshots).toHaveLength(2);
    const done = await w.a.json(["snapshots", "clean", "--keep", "1"]);
    expect(done).toMatchObject({ dry_run: false, listed: 1 });
    expect(done.archived).toHaveLength(1);
    expect(await live(w.a.db)).toBe(5);
  });

  test("a sync after retention deletes nothing on the peer: the archive is each store's own", async () => {
    const w = twoLaptops("mindsave-retention-sync-");
    const a = inClone(w.a);
    seedFiles(w.a, 25);
    await importAt(a, w.a.repo);
    await syncAt(a, w.drive);
    await saveAt(a, { goal: "after the sync", state: "s", next: "n" });
    await cleanAt(a, 3);
    const pushed = await w.a.json(["sync", w.drive]);
    expect(pushed.pushed.snapshots.deleted).toBe(0);
    await syncAt(inClone(w.b), w.drive);
    for (const db of [w.a.db, w.driveDb, w.b.db]) {
      expect(await live(db)).toBe(26);
      expect(await tombstones(db)).toBe(0);
    }
    // B lists its own newest 20 (A's keep of 3 did not travel) and reaches the rest.
    expect((await w.b.json(["snapshots", "list"])).snapshots).toHaveLength(20);
    expect((await w.b.json(["snapshots", "list", "--all"])).snapshots).toHaveLength(26);
    expect((await w.a.json(["snapshots", "list"])).snapshots).toHaveLength(3);
  });
});

describe("the upgrade to retention's archive", () => {
  test("a store of the previous schema loses nothing: every snapshot listed until a save, then archived, never deleted", async () => {
    const w = twoLaptops("mindsave-retention-upgrade-");
    seedFiles(w.a, 30);
    await importAt(inClone(w.a), w.a.repo);
    // Back to schema 4, as the previous MindSave left it: no table of listed snapshots, no triggers.
    for (const t of ["snapshots_listed_ai", "snapshots_listed_au", "snapshots_listed_ad"])
      await sql(w.a.db, `DROP TRIGGER ${t}`);
    await sql(w.a.db, "DROP TABLE listed_snapshots");
    await backToSchema(w.a.db, 5);
    await sql(w.a.db, "UPDATE meta SET value = '4' WHERE key = 'schema_version'");
    const rows = () => sql(w.a.db, "SELECT * FROM snapshots ORDER BY id");
    const before = await rows();
    const list = await w.a.cli(["--json", "snapshots", "list"]);
    expect(list.stderr).toContain(`from schema 4 to ${SCHEMA_VERSION}`);
    expect(JSON.parse(list.stdout).snapshots).toHaveLength(30);
    // Every row as it was; schema 9's stored token counts start empty (counted at restore).
    expect(await rows()).toEqual(before.map((r) => ({ ...r, line_tokens: null })));
    await saveAt(inClone(w.a), { goal: "first save after the upgrade", state: "s", next: "n" });
    expect((await w.a.json(["snapshots", "list"])).snapshots).toHaveLength(20);
    expect((await w.a.json(["snapshots", "list", "--all"])).snapshots).toHaveLength(31);
    expect(await tombstones(w.a.db)).toBe(0);
  });
});

describe("snapshots prune: only a person deletes", () => {
  // Built once, copied per test: 3 old completed and 4 in progress imported, all but 2 archived.
  const world = storeFixture("mindsave-prune-", async (t: ProjectOnLaptop) => {
    seedFiles(t, 3, { status: "completed", start: Date.UTC(2024, 0, 1), prefix: "old" });
    seedFiles(t, 4, { start: Date.UTC(2026, 0, 1), prefix: "wip" });
    await importAt(inRepo(t), t.repo);
    await cleanAt(inRepo(t), 2);
  });

  test("--dry-run lists what it would delete and deletes nothing; without a terminal it needs --yes", async () => {
    const t = await world();
    const before = await dumpStore(t.db);
    const dry = await t.cli(["snapshots", "prune", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("Would delete 5 archived snapshot(s)");
    expect(dry.stdout).toContain("old_00_20240101 (completed, saved 2024-01-01)");
    const refused = await t.cli(["snapshots", "prune"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      "mindsave: Pruning deletes 5 snapshot(s) for good (old_00_20240101, old_01_20240102, old_02_20240103, wip_00_20260101, wip_01_20260102) and there is no terminal to ask on; add --yes to confirm (or --dry-run to list them all). Nothing was deleted.\n",
    );
    expect(refused.stdout).toBe("");
    expect(await dumpStore(t.db)).toBe(before);
  });

  test("without a terminal, many: the refusal alone and short (the first 10 names, how many more); --dry-run lists every one", async () => {
    const w = twoLaptops("mindsave-prune-many-");
    const names = seedFiles(w.a, 15, { status: "completed", start: Date.UTC(2024, 0, 1), prefix: "old" });
    await importAt(inClone(w.a), w.a.repo);
    // All completed and old: every one but the newest (which load restores) is archived.
    await cleanAt(inClone(w.a), 2);
    const refused = await w.a.cli(["snapshots", "prune"]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toBe(
      `mindsave: Pruning deletes 14 snapshot(s) for good (${names.slice(0, 10).join(", ")} and 4 more) and there is no terminal to ask on; add --yes to confirm (or --dry-run to list them all). Nothing was deleted.\n`,
    );
    const dry = (await w.a.cli(["snapshots", "prune", "--dry-run"])).stdout;
    for (const name of names.slice(0, 14)) expect(dry).toContain(`  ${name} (completed, saved `);
    expect(dry).not.toContain("more");
  });

  test("--yes deletes only archived snapshots the filters match; the listed ones stay", async () => {
    const t = await world();
    const r = await t.json(["snapshots", "prune", "--older-than", "90d", "--status", "completed", "--yes"]);
    expect(r.deleted).toEqual(["old_00_20240101", "old_01_20240102", "old_02_20240103"]);
    expect(await tombstones(t.db)).toBe(3);
    const all = await t.json(["snapshots", "list", "--all"]);
    expect(all.snapshots).toHaveLength(4);
    expect(goals(await t.json(["snapshots", "list"]))).toEqual(["goal 3 任务", "goal 2 任务"]);
    // Everything archived goes with no filter; the listed two never do.
    const rest = await t.json(["snapshots", "prune", "--yes"]);
    expect(rest.deleted).toHaveLength(2);
    expect(await live(t.db)).toBe(2);
    expect((await t.cli(["snapshots", "prune", "--yes"])).stdout).toContain(
      "No archived snapshot matches; nothing to delete.",
    );
  });

  test("--older-than counts days or weeks, as fact --ttl does; a bare number is days", () => {
    expect([parseAge("90d"), parseAge("90"), parseAge("12w"), parseAge(" 2W ")]).toEqual([90, 90, 84, 14]);
    for (const bad of ["2 weeks", "1.5w", "3m", "w"]) expect(() => parseAge(bad)).toThrow(UserError);
  });

  test("bad filters: one sentence, exit 1, the store as it was", async () => {
    const t = await world();
    const before = await dumpStore(t.db);
    for (const [args, says] of [
      [["--status", "done"], "--status takes one of"],
      [["--older-than", "soon"], "--older-than takes a number of days or weeks"],
    ] as const) {
      const r = await t.cli(["snapshots", "prune", ...args, "--yes"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(says);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(await dumpStore(t.db)).toBe(before);
  });
});

describe.skipIf(!TMUX)("snapshots prune on a terminal asks y/N", () => {
  for (const [answer, deleted] of [
    ["n", false],
    ["y", true],
  ] as const) {
    test(`answered ${answer}: ${deleted ? "deletes the archived ones, never the listed" : "nothing deleted"}`, async () => {
      const t = terminal("mindsave-prune-ask-");
      // Two snapshots past --keep 1 are archived: what a prune would delete.
      for (const goal of ["one 一", "two", "three"])
        await saveAt(onTerminal(t), { goal, next: "n", keep: 1 });
      const db = join(t.home, "mindsave.db");
      const before = await dumpStore(db);
      try {
        t.start(["snapshots", "prune"]);
        const r = await t.answer("Delete these 2 snapshot(s)? [y/N]", answer, "Enter");
        expect(r.code).toBe(0);
        expect(r.screen).toContain("Pruning deletes these 2 archived snapshot(s) of webapp for good:");
        expect(r.screen).toContain(deleted ? "Deleted 2 snapshot(s)." : "Nothing was deleted.");
      } finally {
        t.stop();
      }
      if (!deleted) expect(await dumpStore(db)).toBe(before);
      expect(await tombstones(db)).toBe(deleted ? 2 : 0);
      expect(await live(db)).toBe(deleted ? 1 : 3);
    }, 30_000);
  }
});

describe("snapshots stats and archived snapshots", () => {
  test("says how many of the snapshots it counts are archived; --json adds listed and archived", async () => {
    const t = fixture("mindsave-stats-archived-");
    // Two snapshots past --keep 1 are archived; the stats count all three.
    for (const goal of ["one 一", "two", "three"]) await save(t, goal, { keep: 1 });
    const text = (await t.okCli(["snapshots", "stats"])).stdout;
    expect(text.split("\n")[0]).toMatch(
      /^Project shop: 3 snapshot\(s\), 2 of them archived \(counted here; `snapshots list` shows them with --all\), [\d.]+ (B|KB) of text\.$/,
    );
    expect(text).toContain("By status: in_progress 3.");
    expect(await t.json(["snapshots", "stats"])).toMatchObject({ count: 3, listed: 1, archived: 2 });
  });
});

// Like prune, delete asks a person on a terminal, naming the snapshot: list numbers shift after a
// delete, so `snapshots delete 1` run twice would otherwise take two. Piped, it deletes at once.
describe.skipIf(!TMUX)("snapshots delete on a terminal says which snapshot and asks y/N", () => {
  for (const answer of ["n", "y"] as const) {
    test(`answered ${answer}: ${answer === "y" ? "that one deleted" : "nothing deleted"}`, async () => {
      const t = terminal("mindsave-delete-ask-");
      await saveAt(onTerminal(t), { goal: "older one", next: "n" });
      const newest = (await saveAt(onTerminal(t), { goal: "缓存 pnpm store, round 297", next: "n" }))
        .snapshot;
      const db = join(t.home, "mindsave.db");
      const before = await dumpStore(db);
      try {
        t.start(["snapshots", "delete", "1"]);
        const r = await t.answer(`Delete ${newest.name}? [y/N]`, answer, "Enter");
        expect(r.code).toBe(0);
        expect(r.screen).toContain("Deleting this snapshot for good:");
        expect(r.screen).toContain(`  ${newest.name} (in_progress, saved ${utcMinute(newest.created_at)})`);
        expect(r.screen).toContain("  goal: 缓存 pnpm store, round 297");
        expect(r.screen).toContain(answer === "y" ? `Deleted ${newest.name}.` : "Nothing was deleted.");
      } finally {
        t.stop();
      }
      if (answer === "n") expect(await dumpStore(db)).toBe(before);
      expect(await tombstones(db)).toBe(answer === "y" ? 1 : 0);
      const [gone] = await sql(db, "SELECT name FROM snapshots WHERE deleted = 1");
      if (answer === "y") expect(gone.name).toBe(newest.name);
    }, 30_000);
  }
});

describe.skipIf(!TMUX)("snapshots prune on a terminal with more than a screenful", () => {
  test("lists what fits above the question, then how many more and that --dry-run lists them all", async () => {
    const t = terminal("mindsave-prune-screen-");
    const names = seedFiles(t, 42, { status: "completed", start: Date.UTC(2024, 0, 1), prefix: "old" });
    await importAt(onTerminal(t), t.repo);
    // All completed and old: every one but the newest (which load restores) is archived.
    await cleanAt(onTerminal(t), 2);
    const db = join(t.home, "mindsave.db");
    const before = await dumpStore(db);
    try {
      t.start(["snapshots", "prune"]);
      const r = await t.answer("Delete these 41 snapshot(s)? [y/N]", "n", "Enter");
      expect(r.code).toBe(0);
      // The heading is still on screen: the list did not scroll it away.
      expect(r.screen).toContain("Pruning deletes these 41 archived snapshot(s) of webapp for good:");
      const shown = names.filter((n) => r.screen.includes(`  ${n} (completed`));
      expect(shown.length).toBeGreaterThanOrEqual(5);
      expect(shown).toEqual(names.slice(0, shown.length));
      expect(r.screen).toContain(
        `  … and ${41 - shown.length} more (the same prune with --dry-run lists them all)`,
      );
    } finally {
      t.stop();
    }
    expect(await dumpStore(db)).toBe(before);
  }, 60_000);
});

// The snapshots `snapshots clean` archives are saved in this process (the engine's save, as the
// CLI's): clean, through the CLI, is what is tested.
describe("snapshots clean --dry-run", () => {
  test("says what it would archive, that archiving deletes nothing, and changes nothing", async () => {
    const t = fixture("mindsave-walk2-clean-");
    await save(t, "one under way");
    await save(t, "two under way");
    await save(t, "done but waiting", { status: "completed", blocker: "waiting on review" });
    await save(t, "done three", { status: "completed" });
    await save(t, "done four", { status: "completed" });
    const out = (await t.okCli(["snapshots", "clean", "--keep", "2", "--dry-run"])).stdout;
    // Keep 2 counts every snapshot: the three oldest would be archived, in progress or not.
    expect(out).toMatch(
      /^Would archive 3 snapshot\(s\): one_under_way_\d{4}-\d\d-\d\d, two_under_way_\d{4}-\d\d-\d\d, done_but_waiting_\d{4}-\d\d-\d\d\.$/m,
    );
    expect(out).toContain("2 snapshot(s) would stay listed. Archiving deletes nothing:");
    expect((await t.json(["snapshots", "list"])).snapshots).toHaveLength(5);
  });

  test("never archives the snapshot load restores: the newest, and the newest full one an overflow snapshot takes its Layer 2 from", async () => {
    const t = fixture("mindsave-walk2-newest-");
    await save(t, "under way one");
    await save(t, "under way two");
    await save(t, "done full", { status: "completed", constraint: ["no new deps"] });
    await saveAt(inRepo(t), {
      overflow: true,
      goal: "done overflow",
      state: "s",
      next: "n",
      status: "completed",
    });
    // The block without its ages, which move with the clock.
    const block = async () => (await t.okCli(["load", "--latest"])).stdout.replace(/\([^)]*ago\)/g, "");
    const before = await block();
    expect(before).toContain("no new deps");
    await t.okCli(["snapshots", "clean", "--keep", "1"]);
    const goals = (await t.json(["snapshots", "list"])).snapshots.map((s: any) => s.goal);
    expect(goals).toEqual(["done overflow", "done full"]);
    expect((await t.json(["snapshots", "list", "--all"])).snapshots).toHaveLength(4);
    expect(await block()).toBe(before);
  });
});

describe("what load restores is never archived", () => {
  test("a delete of the newest lists the one load restores next: load finds it, and prune never offers it", async () => {
    const t = fixture("mindsave-delete-newest-");
    const place = inRepo(t);
    const first = (await save(t, "first 任务")).snapshot.name;
    const second = (await save(t, "second")).snapshot.name;
    const third = (await save(t, "third")).snapshot.name;
    expect((await cleanAt(place, 1)).archived).toEqual([first, second]);
    expect((await t.cli(["snapshots", "delete", third])).code).toBe(0);
    const after = await atPlace(place, async (s) => {
      const { project } = await requireProject(s);
      return {
        newest: (await newestSnapshot(s.store, project.id))?.name,
        pruned: (await pruneCandidates(s, project.id, { now: s.now() })).map((r) => r.name),
      };
    });
    // What load, the picker and a session start restore now: the newest left, listed again.
    expect(after.newest).toBe(second);
    expect(after.pruned).toEqual([first]);
  });
});
