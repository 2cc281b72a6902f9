// recall through the real CLI on a real store: what it shows, and what it says about it.
import { describe, expect, test } from "bun:test";
import { ok, projectOnLaptop as fixture, saveGoal as save } from "./helpers.ts";

describe("recall", () => {
  test("with no keyword, when the newest snapshot has no Layer 3, says so before the older archive it shows", async () => {
    const t = fixture("mindsave-walk2-recall-");
    await t.okCli(["save"], { stdin: "---\ngoal: archived work\nstate: s\nnext_action: n\n---\n### Completed Steps\n1. tuned the zebrafish limiter\n" });
    const older = (await t.json(["snapshots", "list"])).snapshots[0].name;
    const newest = (await t.json(["save", "--goal", "no archive here", "--state", "s", "--next", "n"])).saved;
    const out = (await t.okCli(["recall"])).stdout;
    const lines = out.split("\n");
    expect(lines[0]).toBe(`The newest snapshot, ${newest}, has no Layer 3; this is the newest one that has.`);
    expect(out).toContain(`Cold Archive of ${older}`);
    expect(out).toContain("zebrafish limiter");
    expect((await t.json(["recall"])).newest_without_layer3).toBe(newest);
    // The newest with an archive of its own: no such line.
    await t.okCli(["save"], { stdin: "---\ngoal: archived again\nstate: s\nnext_action: n\n---\n### Notes\nkept\n" });
    expect((await t.okCli(["recall"])).stdout).toStartWith("## Layer 3: Cold Archive of");
  });

  test("an unknown option such as -x says to put -- before a keyword that starts with -", async () => {
    const t = fixture("mindsave-walk2-dash-");
    await save(t, "flags -x and --verbose");
    const r = await t.cli(["recall", "-x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Unknown option '-x' (put -- before a keyword that starts with -)");
    const j = await t.cli(["--json", "recall", "-x"]);
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stderr).error).toContain("(put -- before a keyword that starts with -)");
    // Everything after -- is a keyword, so --home goes before it.
    expect((await ok(["recall", "--home", t.home, "--", "-x"], { cwd: t.repo, env: t.pc.env })).stdout).toContain("flags -x");
  });
});
