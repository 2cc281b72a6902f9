// Clocks: the counter never breaks text order, and a peer whose clock is far ahead is merged
// without dragging this store's clock along (and doctor names it). Time is pinned through the
// session's `now`, never slept on.
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { git, gitRepo, laptop, okJson, run, sql, tempDir } from "./helpers.ts";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { emptyInput } from "../src/engine/snapshots/input.ts";
import { selectSnapshot } from "../src/engine/snapshots/select.ts";
import { loadSnapshot } from "../src/engine/snapshots/restore.ts";
import { setSnapshotStatus } from "../src/engine/snapshots/manage.ts";
import { addRule, editRule } from "../src/engine/memory/rules.ts";
import { Session } from "../src/engine/session.ts";
import { recordRoot, resolveProject, type ProjectContext } from "../src/engine/projects/resolve.ts";
import { openPeer, syncWith } from "../src/engine/sync/sync.ts";
import { Store, type SnapshotRecord } from "../src/store/store.ts";
import { MAX_COUNTER, compareHlc, formatHlc, nextHlc, parseHlc } from "../src/store/hlc.ts";

const DAY = 24 * 60 * 60 * 1000;
const T = 1_715_351_400_000;

describe("the counter", () => {
  test("formatHlc sorts correctly around 9999 → 10000: an overflowing counter carries into the wall part", () => {
    const below = formatHlc(T, 9999, "h");
    const over = formatHlc(T, 10_000, "h");
    expect(below < over).toBe(true);
    expect(over).toBe(formatHlc(T + 1, 0, "h"));
    expect(formatHlc(T, 9998, "h") < below).toBe(true);
    expect(formatHlc(T, 10_001, "h") > over).toBe(true);
    expect(formatHlc(T, 25_000, "h")).toBe(formatHlc(T + 2, 5000, "h"));
    // The text format of existing stores: 13-digit wall, 4-digit counter.
    expect(below).toBe(`${T}-9999-h`);
    expect(nextHlc({ wall: T, counter: MAX_COUNTER }, T)).toEqual({ wall: T + 1, counter: 0 });
  });

  test("parseHlc reads what formatHlc writes and survives garbage and old 5-digit counters", () => {
    expect(parseHlc(formatHlc(T, 42, "host-with-dashes"))).toEqual({ wall: T, counter: 42 });
    for (const bad of ["", "garbage", "-1-2", "12x-3", null, undefined, "1.5-2-h"])
      expect(parseHlc(bad)).toEqual({ wall: 0, counter: 0 });
    expect(parseHlc(`${T}-10000-h`)).toEqual({ wall: T + 1, counter: 0 });
    // A row stamped before the overflow rule (5-digit counter) still orders by value.
    expect(compareHlc(`${T}-10000-h`, `${T}-9999-h`)).toBe(1);
    expect(compareHlc(`${T}-0001-a`, `${T}-0001-b`)).toBe(-1);
    expect(compareHlc(`${T}-0001-a`, `${T}-0001-a`)).toBe(0);
  });

  test("25,000 ticks within one frozen millisecond give strictly increasing strings, and the next write follows them", async () => {
    const store = await Store.open(join(tempDir(), "mindsave.db"));
    try {
      const ticks = await store.write(
        "host-a",
        async (w) => {
          const out: string[] = [];
          for (let i = 0; i < 25_000; i++) out.push(await w.tick());
          return out;
        },
        () => T,
      );
      for (let i = 1; i < ticks.length; i++) {
        if (!(ticks[i - 1] < ticks[i])) throw new Error(`tick ${i}: ${ticks[i - 1]} !< ${ticks[i]}`);
      }
      expect(ticks[0]).toBe(formatHlc(T, 0, "host-a"));
      expect(ticks.at(-1)).toBe(formatHlc(T + 2, 4999, "host-a"));
      const next = await store.write(
        "host-a",
        (w) => w.tick(),
        () => T,
      );
      expect(next > ticks.at(-1)!).toBe(true);
    } finally {
      store.close();
    }
  });
});

/** A home on a laptop whose clock reads `at`, with a project in a git checkout. */
async function machine(base: string, name: string, at: number) {
  const pc = laptop(name, base);
  const home = join(base, `${name}-home`);
  mkdirSync(home);
  const repo = gitRepo(join(base, `${name}-repo`));
  const env = { ...process.env, ...pc.env, MINDSAVE_HOST: `host-${name}` };
  const session = await Session.open({ home, cwd: repo, env, now: () => new Date(at) }, { write: true });
  const ctx = await session.write((w) => resolveProject(session, { create: true, w }));
  return {
    session,
    home,
    repo,
    env: { ...pc.env, MINDSAVE_HOST: `host-${name}` },
    db: join(home, "mindsave.db"),
    project: ctx.project,
  };
}

async function syncFrom(here: Awaited<ReturnType<typeof machine>>, peerDb: string) {
  const peer = await openPeer(peerDb);
  try {
    return await syncWith(here.session, peer, { localLocation: here.db });
  } finally {
    peer.store.close();
  }
}

describe("a peer whose clock is far ahead", () => {
  test("3 years ahead: its rows are merged as they are, this store's clock stays put, doctor names the host", async () => {
    const now = Date.now();
    const base = tempDir("mindsave-clock-");
    const future = await machine(base, "future", now + 3 * 365 * DAY);
    await future.session.close();
    const here = await machine(base, "here", now);
    try {
      const r = await syncFrom(here, future.db);
      expect(r.pulled.projects.added + r.pulled.roots.added).toBeGreaterThan(0);

      // Merged, with its clock as stored (LWW still uses it).
      const merged = await sql(here.db, "SELECT hlc, host FROM hosts WHERE id = 'host-future'");
      expect(merged).toHaveLength(1);
      expect(parseHlc(String(merged[0].hlc)).wall).toBe(now + 3 * 365 * DAY);

      // The next local write is stamped near this host's time, not 3 years ahead.
      const tick = await here.session.write((w) => w.tick());
      expect(parseHlc(tick).wall).toBeGreaterThanOrEqual(now);
      expect(parseHlc(tick).wall).toBeLessThan(now + 1000);
      await here.session.write((w) => recordRoot(here.session, w, here.project.id, join(base, "elsewhere")));
      const root = await sql(here.db, "SELECT hlc FROM roots WHERE path = ?", [join(base, "elsewhere")]);
      expect(parseHlc(String(root[0].hlc)).wall - now).toBeLessThan(1000);
    } finally {
      await here.session.close();
    }

    const doctor = await okJson(["doctor", "--home", here.home], { cwd: here.repo, env: here.env });
    expect(doctor.clocks_ahead).toHaveLength(1);
    expect(doctor.clocks_ahead[0]).toMatchObject({
      host_id: "host-future",
      host_name: "future",
      ahead_days: 3 * 365,
    });
    expect(doctor.clocks_ahead[0].wins_until).toBe(new Date(now + 3 * 365 * DAY).toISOString());
    const text = await run(["doctor", "--home", here.home], { cwd: here.repo, env: here.env });
    expect(text.stdout).toContain(
      `host future (host-future)'s clock is ${3 * 365} days ahead of this one; its edits win over newer ones here until`,
    );
  });

  test("a peer within 24 h ahead still moves this store's clock, so the next write sorts after its rows", async () => {
    const now = Date.now();
    const base = tempDir("mindsave-clock-");
    const ahead = await machine(base, "ahead", now + 2 * 60 * 60 * 1000);
    await ahead.session.close();
    const here = await machine(base, "here", now);
    try {
      await syncFrom(here, ahead.db);
      const tick = await here.session.write((w) => w.tick());
      expect(parseHlc(tick).wall).toBe(now + 2 * 60 * 60 * 1000);
      expect(await here.session.store.clocksAhead()).toEqual([]);
    } finally {
      await here.session.close();
    }
  });
});

describe("a laptop whose clock runs ahead", () => {
  /** Laptops on clones of one repository (one project), each at its own time, which `at` moves. */
  async function clones(base: string) {
    const origin = gitRepo(join(base, "origin"));
    const mk = async (name: string) => {
      const pc = laptop(name, base);
      const home = join(base, `${name}-home`);
      mkdirSync(home);
      const repo = join(base, `${name}-repo`);
      git(base, "clone", "-q", origin, repo);
      const clock = { at: 0 };
      const env = { ...process.env, ...pc.env, MINDSAVE_HOST: `host-${name}` };
      const open = () =>
        Session.open({ home, cwd: repo, env, now: () => new Date(clock.at) }, { write: true });
      const save = async (goal: string) => {
        const s = await open();
        try {
          return (await saveSnapshot(s, { input: { ...emptyInput(), goal, state: "s", next_action: "n" } }))
            .snapshot;
        } finally {
          await s.close();
        }
      };
      /** `read` of the project's newest snapshot here, as `load --latest` picks it (null: none). */
      const newest = async <T>(
        read: (s: Session, ctx: ProjectContext, snap: SnapshotRecord | null) => Promise<T>,
      ) => {
        const s = await open();
        try {
          const ctx = (await resolveProject(s, { create: false }))!;
          const sel = await selectSnapshot(s, ctx.project.id, undefined, { latest: true });
          return await read(s, ctx, sel.kind === "snapshot" ? sel.snapshot : null);
        } finally {
          await s.close();
        }
      };
      const latest = () => newest(async (_s, _ctx, snap) => snap?.goal ?? null);
      /** The restore block of the project's newest snapshot, as `load --latest` renders it here. */
      const block = () => newest(async (s, ctx, snap) => (await loadSnapshot(s, snap!, ctx)).block.text);
      const syncWithDb = async (peerDb: string) => {
        const s = await open();
        const peer = await openPeer(peerDb);
        try {
          await syncWith(s, peer, { localLocation: join(home, "mindsave.db") });
        } finally {
          peer.store.close();
          await s.close();
        }
      };
      return { clock, db: join(home, "mindsave.db"), open, save, latest, block, syncWithDb };
    };
    return { a: await mk("a"), b: await mk("b") };
  }

  test("2 h ahead: what this laptop saves after syncing its snapshot is what load --latest restores, on both", async () => {
    const now = Date.now();
    const { a, b } = await clones(tempDir("mindsave-clock-"));
    a.clock.at = now + 2 * 60 * 60 * 1000;
    b.clock.at = now;
    await a.save("old state from A");
    await b.syncWithDb(a.db);
    const fresh = await b.save("B just now");
    expect(Date.parse(fresh.created_at)).toBeGreaterThan(now + 2 * 60 * 60 * 1000 - 1);
    expect(await b.latest()).toBe("B just now");
    await a.syncWithDb(b.db);
    expect(await a.latest()).toBe("B just now");
  });

  test('2 h ahead: the laptop behind says its snapshot was saved ahead of its clock, never "0s ago"', async () => {
    const now = Date.now();
    const { a, b } = await clones(tempDir("mindsave-clock-"));
    a.clock.at = now + 2 * 60 * 60 * 1000;
    b.clock.at = now;
    await a.save("state from A");
    await b.syncWithDb(a.db);
    const block = await b.block();
    expect(block).toContain("state from A");
    expect(block).toMatch(/saved [0-9-]+ [0-9:]+ UTC \(2 h ahead of this clock\)/);
    expect(block).not.toContain("0s ago");
  });

  test("3 days ahead: an edit made elsewhere of its rule or its snapshot wins in every store, so the stores agree", async () => {
    const now = Date.now();
    const { a, b } = await clones(tempDir("mindsave-clock-"));
    // The snapshot is saved before A's clock jumps (a snapshot dated days ahead is refused by
    // sync, see sync-quarantine.test.ts); A's edit of it is stamped 3 days ahead.
    a.clock.at = now;
    b.clock.at = now;
    const fromA = await a.save("A's work");
    a.clock.at = now + 3 * DAY;
    let s = await a.open();
    try {
      await addRule(s, "use pnpm", "project");
      await setSnapshotStatus(s, fromA.name, "blocked");
    } finally {
      await s.close();
    }
    await b.syncWithDb(a.db);
    s = await b.open();
    try {
      await editRule(s, "1", "use bun");
      await setSnapshotStatus(s, fromA.name, "completed");
    } finally {
      await s.close();
    }
    await a.syncWithDb(b.db);
    for (const db of [a.db, b.db]) {
      expect(await sql(db, "SELECT text FROM rules WHERE deleted = 0")).toEqual([{ text: "use bun" }]);
      expect(await sql(db, "SELECT status FROM snapshots WHERE name = ?", [fromA.name])).toEqual([
        { status: "completed" },
      ]);
    }
    // This store's own clock did not follow the row 3 days ahead.
    s = await b.open();
    try {
      expect(parseHlc(await s.write((w) => w.tick())).wall - now).toBeLessThan(1000);
    } finally {
      await s.close();
    }
  });

  test("40 days ahead: its cleanup removes none of another laptop's completed snapshots (ages are told by one clock)", async () => {
    const now = Date.now();
    const { a, b } = await clones(tempDir("mindsave-clock-"));
    b.clock.at = now;
    const shipped = await b.save("shipped feature");
    const s = await b.open();
    try {
      await setSnapshotStatus(s, shipped.name, "completed");
    } finally {
      await s.close();
    }
    await b.save("other");
    a.clock.at = now;
    await a.syncWithDb(b.db);
    a.clock.at = now + 40 * DAY;
    await a.save("A work");
    const live = await sql(a.db, "SELECT name FROM snapshots WHERE deleted = 0 AND name = ?", [shipped.name]);
    expect(live).toHaveLength(1);
  });
});
