// The snapshot lists on an 80-column terminal: `snapshots list` and `load`'s numbered list. A name
// of CJK characters (two columns each) once made every row wrap; each row must fit the screen and
// the columns after the name line up by display width.
import { describe, expect, test } from "bun:test";
import { TMUX, terminal } from "./terminal.ts";
import { atPlace, inRepo, save, saveGoal, storeFixture } from "./engine-setup.ts";
import { snapshotList } from "../src/engine/snapshots/catalog.ts";
import { numberedList } from "../src/engine/snapshots/summaries.ts";

if (!TMUX)
  console.log("skipped the lists on an 80-column terminal: tmux is not installed (apt-get install tmux)");

const GOALS = ["fix the login form", "add tests", "修复登录页面的会话超时问题并补充测试"];

/** The list's rows ("  1. name  age  status …") as the command wrote them, wrapped rows joined. */
const rows = (lines: string[]) => lines.filter((l) => /^\s*\d+\. /.test(l));

/** Every row within 80 display columns, and the status column at one offset in all of them. */
function expectFitted(listed: string[]) {
  expect(listed).toHaveLength(GOALS.length);
  for (const row of listed) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(80);
  const statusAt = listed.map((row) => Bun.stringWidth(row.slice(0, row.indexOf("in_progress"))));
  expect(new Set(statusAt).size).toBe(1);
  // The CJK name is cut in its middle: its start and its date stay.
  const cjk = listed.find((row) => row.includes("修复"))!;
  expect(cjk).toMatch(/修复\S*…\S*_\d{4}-\d\d-\d\d /);
}

describe.skipIf(!TMUX)("snapshot lists on an 80-column terminal with a Chinese name", () => {
  test("snapshots list: every row fits and the columns line up", async () => {
    const t = terminal("mindsave-list-width-");
    for (const goal of GOALS) await t.cli(["save", "--goal", goal, "--next", "n"]);
    try {
      t.start(["snapshots", "list"], 80);
      expect((await t.ended()).code).toBe(0);
      expectFitted(rows(t.lines()));
    } finally {
      t.stop();
    }
  }, 30_000);

  test("load's numbered list: every row fits and the columns line up", async () => {
    const t = terminal("mindsave-load-width-");
    for (const goal of GOALS) await t.cli(["save", "--goal", goal, "--next", "n"]);
    try {
      t.start(["load"], 80);
      expect((await t.answer("Load which?", "q", "Enter")).code).toBe(0);
      expectFitted(rows(t.lines()));
    } finally {
      t.stop();
    }
  }, 30_000);
});

// Names are mostly the goal's start and a date; the goal's end is what tells these apart. A list
// gives the goals their width first and cuts the names (in their middle, the date kept) before them.
const ROUNDS = [
  "修复登录页面的会话超时问题并补充测试",
  "Speed up CI by caching the pnpm store, round 296",
  "Speed up CI by caching the pnpm store, round 297",
];
const rounds = storeFixture("mindsave-list-goals-", async (t) => {
  for (const goal of ROUNDS) await saveGoal(t, goal);
});

describe("the lists give the goal its room before the name", () => {
  test("load's numbered list at 60, 80, 100 and 120 columns: rows fit, whole goals from 100 on", async () => {
    const t = await rounds();
    const rows = await atPlace(
      inRepo(t),
      async (s) => (await snapshotList(s, { limit: 50, page: 1 })).snapshots,
    );
    const now = new Date(rows[0].created_at);
    for (const columns of [60, 80, 100, 120]) {
      const listed = numberedList(rows, now, columns, new Map(), true).split("\n");
      for (const row of listed) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(columns);
      const statusAt = listed.map((row) => Bun.stringWidth(row.slice(0, row.indexOf("in_progress"))));
      expect(new Set(statusAt).size).toBe(1);
      // Cut or not, a name keeps its date.
      for (const row of listed) expect(row).toMatch(/_\d{4}-\d\d-\d\d(-\d+)? /);
      if (columns >= 100)
        for (const goal of ROUNDS) expect(listed.some((row) => row.endsWith(` ${goal}`))).toBe(true);
    }
  });

  test.skipIf(!TMUX)(
    "snapshots list at 120 columns (50 for its number, age, status, layers and size): each goal whole",
    async () => {
      const t = terminal("mindsave-list-goals-");
      for (const goal of ROUNDS)
        await save({ home: t.home, cwd: t.repo, env: t.pc.env }, { goal, next: "n" });
      try {
        t.start(["snapshots", "list"], 120);
        expect((await t.ended()).code).toBe(0);
        const listed = rows(t.lines());
        expect(listed).toHaveLength(ROUNDS.length);
        for (const row of listed) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(120);
        for (const goal of ROUNDS)
          expect(listed.some((row) => row.trimEnd().endsWith(` ${goal}`))).toBe(true);
      } finally {
        t.stop();
      }
    },
    30_000,
  );
});
