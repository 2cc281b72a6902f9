// A save without a plan carries the plan of the newest snapshot about the same goal, even when
// snapshots of another goal were saved between; a save of another goal never borrows it. `plan set -`
// reads a markdown checklist, its own output and a YAML list.
import { describe, expect, test } from "bun:test";
import { dumpStore, projectOnLaptop, projectOnLaptop as fixture } from "./helpers.ts";
import { inRepo, save as saveAt, saveGoal as save, saveText } from "./engine-setup.ts";

const project = () => projectOnLaptop("mindsave-plan-");

const plan = [
  { content: "Add the limiter middleware", status: "completed" },
  { content: "Wire it into the login route", status: "in_progress" },
  { content: "写限流文档", status: "pending" },
];
const yaml = `goal: Add rate limiting\nstate: middleware written\nnext_action: wire it\nplan:\n${plan.map((p) => `  - ${JSON.stringify(p)}`).join("\n")}\n`;

// The saves are the engine's (saveSnapshot carries the plan), made in this process; the plans they
// carry are read through the CLI.
describe("a plan carried to a later save of its goal", () => {
  test("a snapshot of another goal between does not stop it; that snapshot has no plan of its own", async () => {
    const p = project();
    const here = inRepo(p);
    await saveText(here, yaml);
    // A detour: a hotfix saved between.
    await saveAt(here, { goal: "Fix the 500 on /health", next: "check the probe" });
    expect((await p.json(["plan"])).plan).toBeNull();
    await saveAt(here, { goal: "Fix the 500 on /health", next: "deploy" });
    // Back on the first goal, without a plan: it carries the plan it had.
    await saveAt(here, { goal: "Add rate limiting", state: "wired", next: "write the docs" });
    expect((await p.json(["plan"])).plan).toEqual(plan);
    const block = (await p.okCli(["load", "--latest"])).stdout;
    expect(block).toContain("plan 1/3 · now: Wire it into the login route · next: 写限流文档");
    // And a step marked on it stays with the goal past the next detour.
    await p.okCli(["plan", "done", "2"]);
    await saveAt(here, { goal: "Fix the 500 on /health", next: "monitor" });
    await saveAt(here, { goal: "Add rate limiting", next: "write the docs" });
    expect((await p.json(["plan"])).plan.map((s: { status: string }) => s.status)).toEqual([
      "completed",
      "completed",
      "pending",
    ]);
  });
});

describe("plan set reads a checklist and its own output", () => {
  const PLAN = [
    { content: "write the limiter", status: "completed" },
    { content: "wire it into 登录", status: "in_progress" },
    { content: "load test", status: "pending" },
  ];

  test("a markdown checklist on stdin (- [x], - [>], - [ ], * and CRLF) sets the plan", async () => {
    const t = fixture("mindsave-walk2-plan-md-");
    await save(t, "limit logins");
    await t.okCli(["plan", "set", "-"], {
      stdin: "- [x] write the limiter\r\n* [>] wire it into 登录\r\n- [ ] load test\r\n",
    });
    expect((await t.json(["plan"])).plan).toEqual(PLAN);
    await t.okCli(["plan", "set", "-"], { stdin: "- [x] a\n- [ ] b\n" });
    expect((await t.json(["plan"])).plan).toEqual([
      { content: "a", status: "completed" },
      { content: "b", status: "pending" },
    ]);
  });

  test("`mindsave plan | mindsave plan set -` gives the same plan back", async () => {
    const t = fixture("mindsave-walk2-plan-trip-");
    await save(t, "limit logins");
    await t.okCli([
      "plan",
      "set",
      ...PLAN.flatMap((p) => [
        "--item",
        `${{ completed: "[x]", in_progress: "[>]", pending: "[ ]" }[p.status]} ${p.content}`,
      ]),
    ]);
    const shown = (await t.okCli(["plan"])).stdout;
    await t.okCli(["plan", "set", "-"], { stdin: "- [ ] something else\n" });
    await t.okCli(["plan", "set", "-"], { stdin: shown });
    expect((await t.json(["plan"])).plan).toEqual(PLAN);
  });

  test("a YAML list still works; text that is neither gets one sentence naming the formats, the store untouched", async () => {
    const t = fixture("mindsave-walk2-plan-bad-");
    await save(t, "limit logins");
    await t.okCli(["plan", "set", "-"], { stdin: "- content: a\n  status: done\n- b\n" });
    expect((await t.json(["plan"])).plan).toEqual([
      { content: "a", status: "completed" },
      { content: "b", status: "pending" },
    ]);
    const before = await dumpStore(t.db);
    for (const stdin of ["hello\nworld: [\n", "just a sentence\n"]) {
      const r = await t.cli(["plan", "set", "-"], { stdin });
      expect(r.code).toBe(1);
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toStartWith("mindsave: stdin is not a plan");
      expect(lines[0]).toContain("checklist");
      expect(lines[0]).toContain("YAML list");
    }
    expect(await dumpStore(t.db)).toBe(before);
  });
});
