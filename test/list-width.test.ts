// The snapshot lists on an 80-column terminal: `snapshots list` and `load`'s numbered list. A name
// of CJK characters (two columns each) once made every row wrap; each row must fit the screen and
// the columns after the name line up by display width.
import { describe, expect, test } from "bun:test";
import { TMUX, terminal } from "./terminal.ts";
import { atPlace, inRepo, save, saveGoal, storeFixture } from "./engine-setup.ts";
import type { ProjectOnLaptop } from "./helpers.ts";
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

/** `snapshots list` of a project with these goals on a terminal `columns` wide: its rows, each checked to fit. */
async function listOnTerminal(goals: string[], columns: number): Promise<string[]> {
  const t = terminal("mindsave-list-goals-");
  for (const goal of goals) await save({ home: t.home, cwd: t.repo, env: t.pc.env }, { goal, next: "n" });
  try {
    t.start(["snapshots", "list"], columns);
    expect((await t.ended()).code).toBe(0);
    const listed = rows(t.lines());
    expect(listed).toHaveLength(goals.length);
    for (const row of listed) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(columns);
    return listed;
  } finally {
    t.stop();
  }
}

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

/** The project's listed snapshots, newest first, as load's list is given them. */
const listedSnapshots = (t: ProjectOnLaptop) =>
  atPlace(inRepo(t), async (s) => (await snapshotList(s, { limit: 50, page: 1 })).snapshots);

describe("the lists give the goal its room before the name", () => {
  test("load's numbered list at 60, 80, 100 and 120 columns: rows fit, whole goals from 100 on", async () => {
    const t = await rounds();
    const rows = await listedSnapshots(t);
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
    "snapshots list at 120 columns (past its number, age, status, layers and size): each goal whole",
    async () => {
      const listed = await listOnTerminal(ROUNDS, 120);
      for (const goal of ROUNDS) expect(listed.some((row) => row.trimEnd().endsWith(` ${goal}`))).toBe(true);
    },
    30_000,
  );
});

// Ten rows and more: two-digit numbers, names and goals in Chinese and English. At 60 columns the
// load list once drew 61-column rows and `snapshots list` (its layers and size too) ~80.
// One goal far longer than the others: it must not cut every name (the room goes to most goals).
const LONG =
  "Speed up CI by caching the pnpm store, the node_modules folder, the Playwright browsers and the Docker layers of every job, round 5";
const MANY = Array.from({ length: 12 }, (_, i) =>
  i % 3 === 0
    ? `修复登录页面的会话超时问题并补充测试，第 ${i} 轮`
    : i === 5
      ? LONG
      : `Speed up CI by caching the pnpm store, round ${i}`,
);
const many = storeFixture("mindsave-list-many-", async (t) => {
  for (const goal of MANY) await saveGoal(t, goal);
});

/** The start of `text` `cols` display columns wide at most (a CJK character takes two). */
const startOf = (text: string, cols: number) => {
  let out = "";
  for (const ch of text) {
    if (Bun.stringWidth(out + ch) > cols) break;
    out += ch;
  }
  return out;
};

describe("twelve rows, two-digit numbers, Chinese names and goals", () => {
  test("load's numbered list at 60, 80, 100 and 120 columns: each row fits and shows its number, its name's start and its goal's start", async () => {
    const t = await many();
    const rows = await listedSnapshots(t);
    expect(rows).toHaveLength(MANY.length);
    const now = new Date(Date.parse(rows[0].created_at) + 54_000);
    for (const columns of [60, 80, 100, 120]) {
      const listed = numberedList(rows, now, columns, new Map(), true).split("\n");
      expect(listed).toHaveLength(rows.length);
      listed.forEach((row, i) => {
        expect({ columns, row, width: Bun.stringWidth(row) <= columns }).toEqual({
          columns,
          row,
          width: true,
        });
        expect(row).toStartWith(`${String(i + 1).padStart(2)}. ${startOf(rows[i].name, 6)}`);
        expect(row).toContain(` ${startOf(rows[i].goal, 16)}`);
      });
      const statusAt = listed.map((row) => Bun.stringWidth(row.slice(0, row.indexOf("in_progress"))));
      expect(new Set(statusAt).size).toBe(1);
      // From 100 columns the English names (27 columns) are whole: the long goal is cut, not them.
      if (columns >= 100)
        rows.forEach((r, i) => {
          if (r.name.startsWith("speed")) expect(listed[i]).toContain(` ${r.name} `);
        });
    }
  });

  test.skipIf(!TMUX)(
    "snapshots list at 60 columns: every row fits; the layers and size give way first",
    async () => {
      const listed = await listOnTerminal(MANY, 60);
      for (const [i, row] of listed.entries()) {
        expect(row).toStartWith(`${String(i + 1).padStart(3)}. `);
        expect(row).toContain("in_progress");
        expect(row).not.toContain("L1");
      }
    },
    30_000,
  );
});
