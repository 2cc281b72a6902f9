// The snapshot lists on an 80-column terminal: `snapshots list` and `load`'s numbered list. A name
// of CJK characters (two columns each) once made every row wrap; each row must fit the screen and
// the columns after the name line up by display width.
import { describe, expect, test } from "bun:test";
import { TMUX, terminal } from "./terminal.ts";

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
