// A retired constraint or decision stays out of later snapshots — but one stated again, explicitly,
// in a new save holds again: that save keeps it, un-retires it, and says so. Real CLI, real store.
import { describe, expect, test } from "bun:test";
import { projectOnLaptop } from "./helpers.ts";

const project = () => projectOnLaptop("mindsave-retire-");

describe("a retired item stated again", () => {
  test("a constraint restated in a new save is restored again, un-retired, with a note; one not restated stays retired", async () => {
    const p = project();
    await p.okCli([
      "save",
      "--goal",
      "Add rate limiting",
      "--next",
      "wire the limiter",
      "--constraint",
      "no new dependencies",
      "--constraint",
      "不要修改数据库结构",
      "--decision",
      "token bucket per IP",
    ]);
    await p.okCli(["retire", "no new dependencies", "--reason", "zod approved"]);
    await p.okCli(["retire", "不要修改数据库结构"]);
    await p.okCli([
      "save",
      "--goal",
      "Add rate limiting",
      "--next",
      "n",
      "--decision",
      "token bucket per IP",
    ]);
    expect((await p.okCli(["load", "--latest"])).stdout).not.toContain("no new dependencies");

    // Stated again, in other case: it holds again.
    const again = await p.cli([
      "save",
      "--goal",
      "Add rate limiting",
      "--next",
      "test it",
      "--constraint",
      "No new dependencies",
      "--decision",
      "token bucket per IP",
    ]);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(
      /Constraint "no new dependencies" had been retired \(by walker, \d{4}-\d\d-\d\d \d\d:\d\d UTC: zod approved\); this save states it again, so it is restored again/,
    );
    expect(again.stderr).not.toContain("Left out");
    const block = (await p.okCli(["load", "--latest"])).stdout;
    expect(block).toContain("- No new dependencies");
    expect(block).not.toContain("不要修改数据库结构");
    // Only the restated one is un-retired.
    expect((await p.json(["retire"])).retired.map((r: { text: string }) => r.text)).toEqual([
      "不要修改数据库结构",
    ]);

    // Another script, the same: stated again, restored again.
    const zh = await p.cli([
      "save",
      "--goal",
      "Add rate limiting",
      "--next",
      "n",
      "--constraint",
      "No new dependencies",
      "--constraint",
      "不要修改数据库结构",
    ]);
    expect(zh.stderr).toContain(`Constraint "不要修改数据库结构" had been retired`);
    expect((await p.okCli(["load", "--latest"])).stdout).toContain("- 不要修改数据库结构");
    expect((await p.json(["retire"])).retired).toEqual([]);
  });

  test("a decision restated is restored again too; retiring it once more keeps it out again", async () => {
    const p = project();
    await p.okCli(["save", "--goal", "Build the API", "--next", "n", "--decision", "use REST, not GraphQL"]);
    await p.okCli(["retire", "1"]);
    const again = await p.cli([
      "save",
      "--goal",
      "Build the API",
      "--next",
      "n",
      "--decision",
      "use REST, not GraphQL",
    ]);
    expect(again.stderr).toContain(`Decision "use REST, not GraphQL" had been retired`);
    expect((await p.okCli(["load", "--latest"])).stdout).toContain("- use REST, not GraphQL");
    await p.okCli(["retire", "1"]);
    expect((await p.okCli(["load", "--latest"])).stdout).not.toContain("use REST, not GraphQL");
  });
});
