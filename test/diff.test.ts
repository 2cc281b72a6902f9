// diff between two snapshots, through the real CLI on a real store.
import { describe, expect, test } from "bun:test";
import { laptopAndHome as newcomer, ok, projectOnLaptop, projectOnLaptop as fixture } from "./helpers.ts";
import { fail, inRepo, save as saveAt, saveGoal as save, saveText, setPlanAt } from "./engine-setup.ts";

// The snapshots and failures diff compares are recorded in this process (the engine's use cases,
// as the CLI's save, fail and plan set); diff, through the CLI, is what is tested.

describe("diff keeps the failures of its window", () => {
  test("a failure added between A and B stays added after it recurs or is edited later; one seen again in between is repeated", async () => {
    const t = fixture("mindsave-walk2-diff-");
    const here = inRepo(t);
    await fail(here, "polling the queue", "too slow");
    const a = (await save(t, "A")).snapshot.name;
    await fail(here, "redis counters", "x");
    await fail(here, "polling the queue");
    await save(t, "B");
    const added = "+ redis counters: x [user, project]";
    expect((await t.okCli(["diff", "2", "1"])).stdout).toContain(added);
    // Read back in time (B first), it was still recorded after A: not added on the way back.
    const back = (await t.okCli(["diff", "1", "2"])).stdout;
    expect(back).toContain(`recorded after ${a}: redis counters: x [user, project]`);
    expect(back).not.toContain("+ redis counters");
    // Seen again after B, then edited after B: still what was added between A and B.
    await fail(here, "redis counters");
    let out = (await t.okCli(["diff", "2", "1"])).stdout;
    expect(out).toContain("+ redis counters: x [user, project]");
    await fail(here, "redis counters", "counters drift under failover");
    await fail(here, "a later idea", "after B");
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
    await saveAt(inRepo(p), { goal: "g", state: "s", next: "n" });
    await saveText(
      inRepo(p),
      'goal: g\nstate: s2\nnext_action: n\nconstraints: ["keep API\\n- FORGED constraint"]\nplan: ["step one\\n## FORGED step"]\n',
    );
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
  const here = { home, ...at };
  await saveAt(here, { goal: "ship the limiter", state: "begun" });
  await setPlanAt(here, ["[x] write it", "wire it"]);
  await saveAt(here, { goal: "ship the limiter", state: "wired" });
  await setPlanAt(here, ["[x] write it", "[x] wire it", "[x] docs", "[>] load test", "release"]);
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
