// A save without a plan carries the plan of the newest snapshot about the same goal, even when
// snapshots of another goal were saved between; a save of another goal never borrows it.
import { describe, expect, test } from "bun:test";
import { projectOnLaptop } from "./helpers.ts";

const project = () => projectOnLaptop("mindsave-plan-");

const plan = [
  { content: "Add the limiter middleware", status: "completed" },
  { content: "Wire it into the login route", status: "in_progress" },
  { content: "写限流文档", status: "pending" },
];
const yaml = `goal: Add rate limiting\nstate: middleware written\nnext_action: wire it\nplan:\n${plan.map((p) => `  - ${JSON.stringify(p)}`).join("\n")}\n`;

describe("a plan carried to a later save of its goal", () => {
  test("a snapshot of another goal between does not stop it; that snapshot has no plan of its own", async () => {
    const p = project();
    await p.okCli(["save"], { stdin: yaml });
    // A detour: a hotfix saved between.
    await p.okCli(["save", "--goal", "Fix the 500 on /health", "--next", "check the probe"]);
    expect((await p.json(["plan"])).plan).toBeNull();
    await p.okCli(["save", "--goal", "Fix the 500 on /health", "--next", "deploy"]);
    // Back on the first goal, without a plan: it carries the plan it had.
    await p.okCli(["save", "--goal", "Add rate limiting", "--state", "wired", "--next", "write the docs"]);
    expect((await p.json(["plan"])).plan).toEqual(plan);
    const block = (await p.okCli(["load", "--latest"])).stdout;
    expect(block).toContain("plan 1/3 · now: Wire it into the login route · next: 写限流文档");
    // And a step marked on it stays with the goal past the next detour.
    await p.okCli(["plan", "done", "2"]);
    await p.okCli(["save", "--goal", "Fix the 500 on /health", "--next", "monitor"]);
    await p.okCli(["save", "--goal", "Add rate limiting", "--next", "write the docs"]);
    expect((await p.json(["plan"])).plan.map((s: { status: string }) => s.status)).toEqual(["completed", "completed", "pending"]);
  });
});
