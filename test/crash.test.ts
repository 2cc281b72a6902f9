// Crash safety, proved by killing: `save`, `import` and `sync` are SIGKILLed at 30+ named points
// each (MINDSAVE_STALL, src/engine/stall.ts: the process stops there, inside its transaction, and
// waits to be killed), then the store must pass `PRAGMA integrity_check` and hold all or nothing
// of the killed command's work; a few kills after a random delay are a smoke check on top. Points
// and data come from seeded generators, so every run kills at the same places. The CLI is the
// prebuilt binary when fresh (see helpers.ts); the checks and re-runs are in-process.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, childEnv, dumpStore, ok, sql, tempDir, twoLaptops } from "./helpers.ts";
import { integrity, replicatedRows } from "./stores.ts";
import { Session } from "../src/engine/session.ts";
import { openPeer, syncWith } from "../src/engine/sync/sync.ts";
import { fromFields } from "../src/engine/snapshots/input.ts";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { deleteById, setStatusById } from "../src/engine/snapshots/catalog.ts";
import { recordFailure } from "../src/engine/failures/record.ts";
import { importSeed } from "../src/engine/formats/seed-import.ts";
import { locateSeed } from "../src/engine/formats/seed-layout.ts";

const SEED = 7_301;
/** Kills run in two lanes at once (each on its own stores): two cores, half the wall time. */
const LANES = 2;

interface Spawned {
  proc: Bun.Subprocess<"ignore" | Uint8Array, "ignore", "pipe">;
  /** Resolves with everything on stderr once `needle` appears (or the process ends). */
  waitFor: (needle: string) => Promise<string>;
}

function spawnCli(
  args: string[],
  opts: { cwd: string; env: Record<string, string>; stdin?: string },
): Spawned {
  const proc = Bun.spawn([...CLI, ...args], {
    cwd: opts.cwd,
    env: childEnv(opts.env, args),
    stdin: opts.stdin === undefined ? "ignore" : new TextEncoder().encode(opts.stdin),
    stdout: "ignore",
    stderr: "pipe",
  });
  let err = "";
  const reader = proc.stderr.getReader();
  const waitFor = async (needle: string) => {
    while (!err.includes(needle)) {
      const { value, done } = await reader.read();
      if (done) break;
      err += new TextDecoder().decode(value);
    }
    return err;
  };
  return { proc, waitFor };
}

/** Runs the CLI until it stalls at `point`, then SIGKILLs it there (it must still be alive). */
async function killAt(
  point: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; stdin?: string },
): Promise<void> {
  const { proc, waitFor } = spawnCli(args, { ...opts, env: { ...opts.env, MINDSAVE_STALL: point } });
  const err = await waitFor(`stalled at ${point}\n`);
  if (!err.includes(`stalled at ${point}\n`))
    throw new Error(`mindsave ${args[0]} never reached ${point} (exit ${await proc.exited}): ${err}`);
  proc.kill("SIGKILL");
  await proc.exited;
  expect(proc.signalCode).toBe("SIGKILL");
}

/** Runs the CLI and SIGKILLs it after `ms` (unless it ended first): wherever it happens to be. */
async function killAfter(
  ms: number,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; stdin?: string },
): Promise<void> {
  const { proc } = spawnCli(args, opts);
  const timer = setTimeout(() => proc.kill("SIGKILL"), ms);
  await proc.exited;
  clearTimeout(timer);
}

/** Runs each lane's jobs in order, the lanes at once (`laneOf`: a job's lane; else round robin). */
async function inLanes<T>(
  jobs: T[],
  work: (job: T, lane: number) => Promise<void>,
  laneOf = (_: T, i: number) => i % LANES,
): Promise<void> {
  const lanes = Array.from({ length: LANES }, (_, lane) => jobs.filter((job, i) => laneOf(job, i) === lane));
  await Promise.all(
    lanes.map(async (queue, lane) => {
      for (const job of queue) await work(job, lane);
    }),
  );
}

/** `n` of `all` (which must have that many), chosen by the seeded generator, in their original order. */
function pick<T>(all: T[], n: number, seed: number): T[] {
  expect(all.length).toBeGreaterThanOrEqual(n);
  const chosen = new Set(
    fc.sample(fc.shuffledSubarray([...all.keys()], { minLength: n, maxLength: n }), { seed, numRuns: 1 })[0]!,
  );
  return all.filter((_, i) => chosen.has(i));
}

/**
 * A copy of a store file (after its WAL was folded in by a clean close) where a kill may land; a
 * drive's copy is marked as a drive, so it keeps its rollback journal.
 */
function copyStore(from: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  copyFileSync(from, join(dir, "mindsave.db"));
  if (existsSync(join(from, "..", "drive.json"))) writeFileSync(join(dir, "drive.json"), "{}");
  return join(dir, "mindsave.db");
}

const TEXTS = [
  "fix the login flow",
  "重构认证模块",
  "ship it 🚀",
  'don\'t break "prod"',
  "key: value, then: more",
  "line one\nline two",
  "不要用Redux：太重了",
];
const text = fc.constantFrom(...TEXTS);

/** Snapshots of varied content: each has a unique goal, some constraints and decisions, and 1–3 failures. */
const snapshotData = fc.record({
  tag: fc.integer({ min: 1000, max: 9999 }),
  goal: text,
  constraints: fc.uniqueArray(text, { maxLength: 2 }),
  decisions: fc.uniqueArray(text, { maxLength: 2 }),
  failures: fc.uniqueArray(fc.constantFrom("Redux", "Tailwind", "SSR", "GraphQL"), {
    minLength: 1,
    maxLength: 3,
  }),
});
type SnapshotData = typeof snapshotData extends fc.Arbitrary<infer T> ? T : never;

function yamlOf(d: SnapshotData, i: number): { goal: string; yaml: string } {
  const goal = `${d.goal} #${d.tag}-${i}`;
  const q = JSON.stringify;
  const yaml = [
    `goal: ${q(goal)}`,
    `state: ${q(d.goal)}`,
    `constraints: ${q(d.constraints)}`,
    `decisions: ${q(d.decisions)}`,
    `failure_graph:`,
    ...d.failures.map((f) => `  ${f}: {reason: ${q(`rejected in ${d.tag}`)}, rejected_by: user}`),
  ].join("\n");
  return { goal, yaml };
}

/** The two hosts (own HOME and host id, clones of one repository) every test here plays. */
const world = twoLaptops("mindsave-crash-");
type Host = typeof world.a;
const home = (name: string) => {
  const dir = join(world.base, name);
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** Runs `fn` on an engine session of `host` on the store in `dir` (setup and re-runs: no process to start). */
async function engine<T>(host: Host, dir: string, fn: (s: Session) => Promise<T>): Promise<T> {
  const session = await Session.open({ home: dir, cwd: host.repo, env: childEnv(host.env) }, { write: true });
  try {
    return await fn(session);
  } finally {
    await session.close();
  }
}

const save = (s: Session, goal: string, more: Record<string, unknown> = {}) =>
  saveSnapshot(s, { input: fromFields({ goal, ...more }) });

describe("SIGKILL at every stop point", () => {
  test("save: killed at 30+ points inside its transaction leaves the store intact and without the snapshot; a later save is whole", async () => {
    const variants = fc.sample(snapshotData, { seed: SEED, numRuns: 4 });
    // One home per lane, each with snapshots for retention to archive (`--keep 2` below).
    const lanes = [world.a, world.b].map((host, i) => ({ host, dir: home(`save-${i}`) }));
    const project = await Promise.all(
      lanes.map((l) =>
        engine(l.host, l.dir, async (s) => {
          for (let i = 0; i < 4; i++) await save(s, `done ${i}`, { status: "completed" });
          return (await save(s, "still going")).snapshot.project_id;
        }),
      ),
    );
    const jobs = pick(
      variants.flatMap((d, v) => {
        const points = [
          "save-before-insert",
          "save-after-insert",
          ...d.failures.map((_, i) => `save-failure-${i + 1}`),
          "save-after-signal",
          "retention-unarchived",
          "retention-archived",
          "save-after-retention",
        ];
        return points.map((point) => ({ point, d, v }));
      }),
      30,
      SEED,
    );
    const db = lanes.map((l) => join(l.dir, "mindsave.db"));
    const before = await Promise.all(db.map((f) => dumpStore(f)));
    await inLanes(jobs, async ({ point, d, v }, lane) => {
      const { host, dir } = lanes[lane]!;
      // `--in`: the project by id, so no git runs before the transaction (it costs time, not safety).
      await killAt(point, ["save", "--file", "-", "--keep", "2", "--in", project[lane]!, "--home", dir], {
        cwd: host.repo,
        env: host.env,
        stdin: yamlOf(d, v).yaml,
      });
      expect(await integrity(db[lane]!)).toBe("ok");
      // All or nothing: every stop point is inside the transaction, so nothing of it is left.
      expect(await dumpStore(db[lane]!)).toBe(before[lane]!);
    });
    // After all those kills the store takes a save whole.
    const { goal, yaml } = yamlOf(variants[0]!, 99);
    await ok(["save", "--file", "-", "--keep", "2", "--home", lanes[0]!.dir], {
      cwd: world.a.repo,
      env: world.a.env,
      stdin: yaml,
    });
    expect(await integrity(db[0]!)).toBe("ok");
    await expectWhole(db[0]!, goal, variants[0]!);
  });

  test("import: killed after each of 1–16 snapshots (two data sets) leaves none of them; a re-run imports all", async () => {
    const COUNT = 16;
    const lanes = [world.a, world.b].map((host, i) => ({
      host,
      dir: home(`import-${i}`),
      ws: join(world.base, `seed-${i}`),
    }));
    for (const [lane, l] of lanes.entries()) {
      mkdirSync(join(l.ws, ".mindsave", "snapshots"), { recursive: true });
      fc.sample(snapshotData, { seed: SEED + 1 + lane, numRuns: COUNT }).forEach((d, i) => {
        const day = String(1 + (i % 28)).padStart(2, "0");
        writeFileSync(
          join(l.ws, ".mindsave", "snapshots", `task_${lane}_${i}_202603${day}.md`),
          `---\ncreated_at: "2026-03-${day}T12:${String(i).padStart(2, "0")}:00Z"\n${yamlOf(d, i).yaml}\n---\nLayer 3 of ${i}: 日志 🚀\n`,
        );
      });
      await engine(l.host, l.dir, (s) => save(s, "already here"));
    }
    const db = lanes.map((l) => join(l.dir, "mindsave.db"));
    const before = await Promise.all(db.map((f) => dumpStore(f)));
    // The import drops the full-text index's insert trigger and makes it again (store/search-index.ts):
    // a kill anywhere leaves it as it was.
    const schema = (f: string) => sql(f, "SELECT type, name, sql FROM sqlite_master ORDER BY type, name");
    const schemaBefore = await Promise.all(db.map(schema));
    // Lane i imports data set i into its own store; "import-indexed": all saved and indexed, not committed.
    const jobs = [
      ...pick(
        lanes.flatMap((_, lane) =>
          Array.from({ length: COUNT }, (_, i) => ({ lane, point: `import-${i + 1}` })),
        ),
        30,
        SEED + 1,
      ),
      ...lanes.map((_, lane) => ({ lane, point: "import-indexed" })),
    ];
    await inLanes(
      jobs,
      async ({ point }, lane) => {
        const l = lanes[lane]!;
        await killAt(point, ["import", l.ws, "--home", l.dir], {
          cwd: l.host.repo,
          env: { ...l.host.env },
        });
        expect(await integrity(db[lane]!)).toBe("ok");
        expect(await dumpStore(db[lane]!)).toBe(before[lane]!);
        expect(await schema(db[lane]!)).toEqual(schemaBefore[lane]!);
      },
      (job) => job.lane,
    );
    await ok(["import", lanes[0]!.ws, "--home", lanes[0]!.dir], {
      cwd: world.a.repo,
      env: { ...world.a.env },
    });
    expect(Number((await sql(db[0]!, "SELECT count(*) AS n FROM snapshots WHERE deleted = 0"))[0]!.n)).toBe(
      COUNT + 1,
    );
  });

  test("import: killed right after a batch commits keeps the batches before it whole; a re-run imports the rest, another adds nothing", async () => {
    // Batches of 5 files a transaction (500 in normal use: seed-import.ts), so 12 files are three.
    const COUNT = 12;
    const env = { ...world.a.env, MINDSAVE_IMPORT_BATCH: "5" };
    const ws = join(world.base, "seed-batches");
    mkdirSync(join(ws, ".mindsave", "snapshots"), { recursive: true });
    const source = Array.from({ length: COUNT }, (_, i) => ({
      // Names run against time, so only the saves' order by time puts them in this order.
      name: `step_${COUNT - i}`,
      created_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      goal: `日志 step ${i} 🚀`,
      layer3: `Layer 3 of ${i}: 重构认证模块`,
    }));
    for (const s of source)
      writeFileSync(
        join(ws, ".mindsave", "snapshots", `${s.name}.md`),
        `---\nsnapshot_id: ${s.name}\ncreated_at: "${s.created_at}"\ngoal: ${JSON.stringify(s.goal)}\n---\n${s.layer3}\n`,
      );
    const dir = home("import-batches");
    const db = join(dir, "mindsave.db");
    const live = async () =>
      (
        await sql(db, "SELECT name, created_at, goal, layer3 FROM snapshots WHERE deleted = 0 ORDER BY rowid")
      ).map((r) => ({ ...r, layer3: String(r.layer3).trim() }));
    const indexed = async () => Number((await sql(db, "SELECT count(*) AS n FROM snapshot_search"))[0]!.n);
    const trigger = () => sql(db, "SELECT name FROM sqlite_master WHERE name = 'snapshots_ai'");

    // Killed once the second batch committed, before the third began.
    await killAt("import-batch-2", ["import", ws, "--home", dir], { cwd: world.a.repo, env });
    expect(await integrity(db)).toBe("ok");
    // The oldest 10, whole and searchable: each batch's index rows and the insert trigger committed with it.
    expect(await live()).toEqual(source.slice(0, 10));
    expect(await indexed()).toBe(10);
    expect(await trigger()).toHaveLength(1);

    const again = await ok(["--json", "import", ws, "--home", dir], { cwd: world.a.repo, env });
    const report = JSON.parse(again.stdout);
    expect([report.snapshots.imported.length, report.snapshots.skipped.length]).toEqual([COUNT - 10, 10]);
    expect(await live()).toEqual(source);
    expect(await indexed()).toBe(COUNT);

    const before = await dumpStore(db);
    const session = await Session.open(
      { home: dir, cwd: world.a.repo, env: childEnv(env), workspace: ws },
      { write: true },
    );
    const third = await session.run((s) => importSeed(s, locateSeed(ws)));
    expect([third.snapshots.imported.length, third.snapshots.skipped.length]).toEqual([0, COUNT]);
    expect(await live()).toEqual(source);
    expect(await dumpStore(db)).toBe(before);
  });

  test("sync: killed at 30+ points (each batch of each direction, between them) leaves both stores valid; a re-run converges to the same stores", async () => {
    // Two pairs: laptop A with the drive (rollback journal) holding B's work, and B with A directly (WAL).
    const pristine = await pristineWorld();
    const pairs = [
      { local: pristine.a, peer: pristine.drive, host: world.a },
      { local: pristine.b, peer: pristine.a, host: world.b },
    ];
    const all: { pair: number; point: string }[] = [];
    const reference: Map<string, Record<string, unknown>>[] = [];
    const before = await Promise.all(
      pairs.map(async (p) => ({ local: await dumpStore(p.local), peer: await dumpStore(p.peer) })),
    );
    for (const [i, p] of pairs.entries()) {
      // The reference: the same sync, never killed. Its logs also say which batches each direction has.
      const dir = tempDir("mindsave-crash-ref-");
      const local = copyStore(p.local, join(dir, "local"));
      const peer = copyStore(p.peer, join(dir, "peer"));
      const [mine, theirs] = [await storeId(local), await storeId(peer)];
      const tables = async (db: string, skip: string) =>
        (await sql(db, "SELECT DISTINCT tbl FROM changes WHERE origin IS NULL OR origin <> ?", [skip])).map(
          (r) => String(r.tbl),
        );
      const pulled = await tables(peer, mine);
      await syncInProcess(p.host, join(dir, "local"), peer);
      const pushed = await tables(local, theirs);
      for (const [phase, tbls] of [
        ["pull", pulled],
        ["push", pushed],
      ] as const) {
        all.push(
          ...[`${phase}-begin`, ...tbls.map((t) => `${phase}-${t}-1`), `in-${phase}`].map((point) => ({
            pair: i,
            point,
          })),
        );
      }
      all.push({ pair: i, point: "between" });
      reference.push(await replicatedRows(local));
      expect(await replicatedRows(peer)).toEqual(reference[i]!);
    }
    const jobs = pick(all, 30, SEED + 2);
    let n = 0;
    await inLanes(jobs, async ({ pair, point }) => {
      const p = pairs[pair]!;
      const dir = join(world.base, `kill-${n++}`);
      const local = copyStore(p.local, join(dir, "local"));
      const peer = copyStore(p.peer, join(dir, "peer"));
      await killAt(point, ["sync", peer, "--home", join(dir, "local")], {
        cwd: p.host.repo,
        env: p.host.env,
      });
      expect(await integrity(local)).toBe("ok");
      expect(await integrity(peer)).toBe("ok");
      // The direction killed left nothing in the store it was writing.
      if (point.includes("pull")) expect(await dumpStore(local)).toBe(before[pair]!.local);
      else expect(await dumpStore(peer)).toBe(before[pair]!.peer);
      await syncInProcess(p.host, join(dir, "local"), peer);
      expect(await replicatedRows(local)).toEqual(reference[pair]!);
      expect(await replicatedRows(peer)).toEqual(reference[pair]!);
    });
  });
});

describe("SIGKILL after a random delay (smoke)", () => {
  test("save, import and sync killed wherever they are: the stores pass integrity_check and hold all or nothing", async () => {
    const pristine = await pristineWorld();
    const d = fc.sample(snapshotData, { seed: SEED + 9, numRuns: 1 })[0]!;
    const ws = join(world.base, "random-seed");
    mkdirSync(join(ws, ".mindsave", "snapshots"), { recursive: true });
    for (let i = 0; i < 6; i++)
      writeFileSync(
        join(ws, ".mindsave", "snapshots", `rnd_${i}_2026-03-0${i + 1}.md`),
        `---\n${yamlOf(d, i).yaml}\n---\n`,
      );
    // Within a command's run on this machine (process start included): ~100–400 ms.
    const delays = fc.sample(fc.integer({ min: 40, max: 400 }), { seed: SEED, numRuns: 6 });
    const a = world.a;
    await inLanes([0, 1], async (k) => {
      const dir = join(world.base, `random-${k}`);
      const db = copyStore(pristine.a, join(dir, "save"));
      const { goal, yaml } = yamlOf(d, 100 + k);
      await killAfter(delays[3 * k]!, ["save", "--file", "-", "--home", join(dir, "save")], {
        cwd: a.repo,
        env: a.env,
        stdin: yaml,
      });
      expect(await integrity(db)).toBe("ok");
      await expectWhole(db, goal, d, { orAbsent: true });

      const idb = copyStore(pristine.a, join(dir, "import"));
      await killAfter(delays[3 * k + 1]!, ["import", ws, "--home", join(dir, "import")], {
        cwd: a.repo,
        env: { ...a.env },
      });
      expect(await integrity(idb)).toBe("ok");
      expect([0, 6]).toContain(
        Number((await sql(idb, "SELECT count(*) AS n FROM snapshots WHERE name LIKE 'rnd%'"))[0]!.n),
      );

      const local = copyStore(pristine.a, join(dir, "local"));
      const peer = copyStore(pristine.drive, join(dir, "peer"));
      await killAfter(delays[3 * k + 2]!, ["sync", peer, "--home", join(dir, "local")], {
        cwd: a.repo,
        env: a.env,
      });
      expect(await integrity(local)).toBe("ok");
      expect(await integrity(peer)).toBe("ok");
      await syncInProcess(a, join(dir, "local"), peer);
      expect(await replicatedRows(local)).toEqual(await replicatedRows(peer));
    });
  });
});

/** The snapshot saved with `goal` is there whole (its layers and its failures), or (`orAbsent`) not at all. */
async function expectWhole(
  db: string,
  goal: string,
  d: SnapshotData,
  opts: { orAbsent?: boolean } = {},
): Promise<void> {
  const rows = await sql(db, "SELECT * FROM snapshots WHERE goal = ? AND deleted = 0", [goal]);
  if (opts.orAbsent && rows.length === 0) return;
  expect(rows).toHaveLength(1);
  const s = rows[0]!;
  expect(s.state).toBe(d.goal);
  expect(JSON.parse(String(s.decisions))).toEqual(d.decisions);
  expect(Object.keys(JSON.parse(String(s.failure_graph))).sort()).toEqual([...d.failures].sort());
  const items = (await sql(db, "SELECT item FROM failures WHERE deleted = 0")).map((r) => String(r.item));
  for (const f of d.failures) expect(items).toContain(f);
}

async function storeId(db: string): Promise<string> {
  return String((await sql(db, "SELECT value FROM meta WHERE key = 'store_id'"))[0]!.value);
}

/** Completes a sync in this process (the engine's `syncWith`, as `mindsave sync` runs it). */
function syncInProcess(host: Host, dir: string, peerDb: string): Promise<unknown> {
  return engine(host, dir, async (session) => {
    const peer = await openPeer(peerDb, session.env);
    try {
      return await syncWith(session, peer, { localLocation: join(dir, "mindsave.db") });
    } finally {
      peer.store.close();
    }
  });
}

let pristine: Promise<{ a: string; b: string; drive: string }> | undefined;
/** The stores of `syncWorld`, made once: tests only ever work on copies of them. */
const pristineWorld = () => (pristine ??= syncWorld());

/**
 * Laptops A and B with their own snapshots, failures (with alternatives and repeats), a delete and
 * a completed snapshot, and a drive that B has synced with: copies of their store files.
 */
async function syncWorld(): Promise<{ a: string; b: string; drive: string }> {
  const name = "world";
  const dir = join(world.base, name);
  const drive = home(`${name}/drive`);
  writeFileSync(join(drive, "drive.json"), "{}");
  for (const [host, who] of [
    [world.a, "A"],
    [world.b, "B"],
  ] as const) {
    await engine(host, home(`${name}/${who}`), async (s) => {
      const ids = [];
      for (const g of ["one", "two", "three"])
        ids.push((await save(s, `${g} on ${who}: 重构 🚀`, { constraints: [`rule ${g}`] })).snapshot.id);
      await recordFailure(s, {
        item: "Redux",
        reason: `too heavy for ${who}`,
        alternatives: ["Zustand"],
        increment: true,
      });
      await recordFailure(s, { item: `Tailwind ${who}`, reason: "style conflict", increment: true });
      await setStatusById(s, ids[0]!, "completed");
      await deleteById(s, ids[1]!);
    });
  }
  await syncInProcess(world.b, join(dir, "B"), join(drive, "mindsave.db"));
  await engine(world.b, join(dir, "B"), (s) => save(s, "B after the drive"));
  const copies = join(dir, "pristine");
  const driveCopy = copyStore(join(drive, "mindsave.db"), join(copies, "drive"));
  expect(String((await sql(driveCopy, "PRAGMA journal_mode"))[0]!.journal_mode)).toBe("delete");
  return {
    a: copyStore(join(dir, "A", "mindsave.db"), join(copies, "a")),
    b: copyStore(join(dir, "B", "mindsave.db"), join(copies, "b")),
    drive: driveCopy,
  };
}
