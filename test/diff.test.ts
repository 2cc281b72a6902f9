// diff between two snapshots, through the real CLI on a real store.
import { describe, expect, test } from "bun:test";
import { projectOnLaptop as fixture, saveGoal as save } from "./helpers.ts";

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
