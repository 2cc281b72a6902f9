// The picker reads a page at a time (issue 36): the title's count from a count, the rows on screen
// and the next page, G the last page, a tag filter in SQL, and `d` the snapshot before the selected
// one by a keyset step. A real store of 601 snapshots (six pages), English and Chinese goals and
// tags; what the store hands back is counted at its client, so a read of the whole list shows.
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { fromFields } from "../src/engine/snapshots/input.ts";
import { resolveProject } from "../src/engine/projects/resolve.ts";
import { newId } from "../src/engine/ids.ts";
import { Session } from "../src/engine/session.ts";
import { closeAll, KEY, mount, openStore } from "./tui-harness.tsx";
import { startScreens } from "../ui/app.tsx";

afterEach(closeAll);

const BULK = 600;
const ALL = BULK + 1;
/** Which bulk snapshots carry a tag: decided here, counted here. */
const tagsOf = (i: number) => (i % 3 === 0 ? ["测试"] : i % 5 === 0 ? ["Alpha"] : []);
const name = (i: number) => `bulk_${String(i).padStart(4, "0")}`;

/** A store with the seed snapshot (the newest) and BULK older ones, a minute apart, bulk_0000 the oldest. */
async function pagedStore() {
  const s = await openStore("mindsave-tui-paged-");
  await saveSnapshot(s.session, { input: fromFields({ goal: "the newest 最新" }) });
  const projectId = (await resolveProject(s.session, { create: false }))!.project.id;
  const [seed] = await s.session.store.listSnapshots(projectId, { limit: 1 });
  await s.session.write(async (w) => {
    const full = (await w.getSnapshot(seed.id))!;
    for (let i = 0; i < BULK; i++)
      await w.insertSnapshot({
        ...full,
        id: newId(),
        name: name(i),
        created_at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
        goal: i % 2 ? `修复登录 ${i}` : `fix the login ${i}`,
        tags: tagsOf(i),
      });
  });
  return { ...s, projectId };
}

/** Counts the rows the store's client hands back from now on. */
function countRows(session: Session) {
  const db = (
    session.store as unknown as { db: { execute: (stmt: unknown) => Promise<{ rows: unknown[] }> } }
  ).db;
  const execute = db.execute.bind(db);
  const counter = { rows: 0, projectCounts: 0 };
  db.execute = async (stmt) => {
    const r = await execute(stmt);
    counter.rows += r.rows.length;
    // A count of every snapshot of the project (archived too) reads its whole index.
    const sql = typeof stmt === "string" ? stmt : (stmt as { sql: string }).sql;
    if (/^SELECT count\(\*\) AS n FROM snapshots WHERE/.test(sql)) counter.projectCounts++;
    return r;
  };
  return counter;
}

let store: Awaited<ReturnType<typeof pagedStore>>;
beforeAll(async () => {
  store = await pagedStore();
  store.session.close();
});

/** A session of its own on the store, for one mount (each test's ends with it). */
const session = () =>
  Session.open({ home: store.session.home.dir, cwd: store.repo, env: store.env }, { write: true });

const picker = () => ({
  initial: [{ name: "picker" as const, projectId: store.projectId, projectName: "webapp" }],
  columns: 100,
  rows: 30,
});

describe("the picker, a page at a time", () => {
  test("the first screen reads a count and a page or two, not the list; rows past the first page are reached by moving; G shows the oldest", async () => {
    const s = await session();
    const read = countRows(s);
    const h = mount(s, picker());
    await h.until(
      (x) => x.includes(`webapp · ${ALL} snapshots`) && x.includes(name(BULK - 1)),
      "the first screen",
    );
    // Two pages at most (the one on screen and the next), whatever the store holds.
    expect(read.rows).toBeLessThanOrEqual(200 + 20);
    // Down past the first page (100 rows): row 150 is bulk_0450 (the seed is row 1).
    for (let i = 0; i < 149; i++) h.press("j");
    let f = await h.until((x) => x.includes(`150/${ALL}`), "row 150 selected");
    expect(f).toMatch(new RegExp(`›  ${name(BULK - 149)} `));
    h.press("G");
    f = await h.until((x) => x.includes(`${ALL}/${ALL}`) && x.includes(name(0)), "the last row");
    expect(f).toMatch(new RegExp(`›  ${name(0)} `));
    expect(f).toContain("fix the login 0");
    // The last page is read by its place: the pages between it and the cursor's were never read.
    expect(read.rows).toBeLessThan(ALL);
    h.press("d");
    f = await h.until((x) => x.includes("is the oldest snapshot"), "the oldest has nothing before it");
    expect(f).toContain(`${name(0)} is the oldest snapshot`);
  });

  test("opened in the project, the TUI counts its snapshots once before the first row (for the archived ones)", async () => {
    const s = await session();
    const read = countRows(s);
    const h = mount(s, { initial: await startScreens(s), columns: 100, rows: 30 });
    await h.until(
      (x) => x.includes(`webapp · ${ALL} snapshots`) && x.includes(name(BULK - 1)),
      "the first screen",
    );
    // Where to open asks for one row, not a count.
    expect(read.projectCounts).toBe(1);
  });

  test("a tag keeps its snapshots through SQL, case folded and in Chinese; the count of them all stays in the title", async () => {
    const h = mount(await session(), picker());
    await h.until((x) => x.includes(`webapp · ${ALL} snapshots`), "the picker");
    const chinese = Array.from({ length: BULK }, (_, i) => i).filter((i) => tagsOf(i).includes("测试"));
    h.press("t", "测试", KEY.enter);
    let f = await h.until(
      (x) => x.includes(`${chinese.length} of ${ALL} snapshots · #测试`),
      "the Chinese tag",
    );
    expect(f).toMatch(new RegExp(`›  ${name(chinese.at(-1)!)} `));
    h.press("G");
    // Its row read too: the counter moves before the last page's rows are read.
    f = await h.until(
      (x) => x.includes(`${chinese.length}/${chinese.length}`) && x.includes(name(chinese[0])),
      "the tag's last row",
    );
    expect(f).toMatch(new RegExp(`›  ${name(chinese[0])} `));
    h.press(KEY.esc);
    await h.until(
      (x) => x.includes(`webapp · ${ALL} snapshots`) && !x.includes("snapshots · #测试"),
      "the tag cleared",
    );
    const alpha = Array.from({ length: BULK }, (_, i) => i).filter((i) => tagsOf(i).includes("Alpha"));
    h.press("t", "ALPHA", KEY.enter);
    f = await h.until(
      (x) => x.includes(`${alpha.length} of ${ALL} snapshots · #ALPHA`),
      "Alpha, case folded",
    );
    expect(f).toMatch(new RegExp(`›  ${name(alpha.at(-1)!)} `));
  });

  test("d compares the selected snapshot with the one saved before it, across a page's end", async () => {
    const h = mount(await session(), picker());
    await h.until((x) => x.includes(`webapp · ${ALL} snapshots`), "the picker");
    // Row 100 is the first page's last: the one before it is row 101, on the next page.
    for (let i = 0; i < 99; i++) h.press("j");
    await h.until((x) => x.includes(`100/${ALL}`), "row 100 selected");
    h.press("d");
    // Row 100 is bulk_0501 (the seed is row 1); the one saved before it, bulk_0500.
    const f = await h.until(
      (x) => x.includes("what changed") && x.includes("修复登录 501") && x.includes("fix the login 500"),
      "the diff of bulk_0500 and bulk_0501",
    );
    expect(f).not.toContain("is the oldest snapshot");
  });
});
