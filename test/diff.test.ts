// diff between two snapshots, through the real CLI on a real store.
import { describe, expect, test } from "bun:test";
import {
  laptopAndHome as newcomer,
  ok,
  projectOnLaptop,
  projectOnLaptop as fixture,
  saveGoal as save,
} from "./helpers.ts";

describe("diff keeps the failures of its window", () => {
  test("a failure added between A and B stays added after it recurs or is edited later; one seen again in between is repeated", async () => {
    const t = fixture("mindsave-walk2-diff-");
    await t.okCli(["fail", "polling the queue", "--reason", "too slow"]);
    await save(t, "A");
    await t.okCli(["fail", "redis counters", "--reason", "x"]);
    await t.okCli(["fail", "polling the queue"]);
    await save(t, "B");
    const added = "+ redis counters: x [user, project]";
    expect((await t.okCli(["diff", "2", "1"])).stdout).toContain(added);
    // Seen again after B, then edited after B: still what was added between A and B.
    await t.okCli(["fail", "redis counters"]);
    let out = (await t.okCli(["diff", "2", "1"])).stdout;
    expect(out).toContain("+ redis counters: x [user, project]");
    await t.okCli(["fail", "redis counters", "--reason", "counters drift under failover"]);
    await t.okCli(["fail", "a later idea", "--reason", "after B"]);
    out = (await t.okCli(["diff", "2", "1"])).stdout;
    expect(out).toContain("+ redis counters: counters drift under failover [user, project]");
    expect(out).toContain("repeated: polling the queue");
    expect(out).not.toContain("a later idea");
    const d = await t.json(["diff", "2", "1"]);
    expect(d.failures).toEqual({ added: ["redis counters"], repeated: ["polling the queue"] });
  });
});

describe("diff", () => {
  test("a constraint, a step or a tag with a line break is one quoted line of the diff", async () => {
    const p = projectOnLaptop("mindsave-walk5-diff-");
    await p.okCli(["save", "--goal", "g", "--state", "s", "--next", "n"]);
    await p.okCli(["save"], {
      stdin:
        'goal: g\nstate: s2\nnext_action: n\nconstraints: ["keep API\\n- FORGED constraint"]\nplan: ["step one\\n## FORGED step"]\n',
    });
    const out = (await p.okCli(["diff"])).stdout;
    expect(out.split("\n").filter((l) => /^\s*(- FORGED|## FORGED)/.test(l))).toEqual([]);
    expect(out).toContain(`+ constraint: ${JSON.stringify("keep API\n- FORGED constraint")}`);
    expect(out).toContain(`+ step: ${JSON.stringify("step one\n## FORGED step")}`);
  }, 30_000);
});

test('diff: a step added already completed (or started) is one line saying so, not a second "completed:" line', async () => {
  const t = newcomer("mindsave-newcomer-diff-");
  const { home, pc } = t;
  const repo = t.repo();
  const at = { cwd: repo, env: pc.env };
  await ok(["save", "--home", home, "--goal", "ship the limiter", "--state", "begun"], at);
  await ok(["plan", "set", "--home", home, "--item", "[x] write it", "--item", "wire it"], at);
  await ok(["save", "--home", home, "--goal", "ship the limiter", "--state", "wired"], at);
  await ok(
    [
      "plan",
      "set",
      "--home",
      home,
      "--item",
      "[x] write it",
      "--item",
      "[x] wire it",
      "--item",
      "[x] docs",
      "--item",
      "[>] load test",
      "--item",
      "release",
    ],
    at,
  );
  const out = (await ok(["diff", "--home", home], at)).stdout;
  const plan = out.slice(out.indexOf("\nPlan "));
  expect(
    plan
      .split("\n")
      .filter((l) => l.startsWith("  "))
      .join("\n") + "\n",
  ).toBe(
    [
      "  completed: wire it",
      "  + step: docs (completed)",
      "  + step: load test (in progress)",
      "  + step: release",
      "",
    ].join("\n"),
  );
});
