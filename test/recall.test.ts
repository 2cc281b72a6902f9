// recall through the real CLI on a real store: what it shows, and what it says about it.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { laptopWithApp as setup, ok, okJson, projectOnLaptop as fixture } from "./helpers.ts";
import { inRepo, save as saveAt, saveGoal as save, saveText } from "./engine-setup.ts";

// The snapshots recalled are saved in this process (the engine's save, as the CLI's, from flags or
// YAML on stdin): recall, through the CLI, is what is tested.

describe("recall", () => {
  test("with no keyword, when the newest snapshot has no Layer 3, says so before the older archive it shows", async () => {
    const t = fixture("mindsave-walk2-recall-");
    const older = (
      await saveText(
        inRepo(t),
        "---\ngoal: archived work\nstate: s\nnext_action: n\n---\n### Completed Steps\n1. tuned the zebrafish limiter\n",
      )
    ).snapshot.name;
    const newest = (await save(t, "no archive here")).snapshot.name;
    const out = (await t.okCli(["recall"])).stdout;
    const lines = out.split("\n");
    expect(lines[0]).toBe(`The newest snapshot, ${newest}, has no Layer 3; this is the newest one that has.`);
    expect(out).toContain(`Cold Archive of ${older}`);
    expect(out).toContain("zebrafish limiter");
    expect((await t.json(["recall"])).newest_without_layer3).toBe(newest);
    // The newest with an archive of its own: no such line.
    await saveText(inRepo(t), "---\ngoal: archived again\nstate: s\nnext_action: n\n---\n### Notes\nkept\n");
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
    expect(
      (await ok(["recall", "--home", t.home, "--", "-x"], { cwd: t.repo, env: t.pc.env })).stdout,
    ).toContain("flags -x");
  });
});

describe("recall with keywords: order, limit and context", () => {
  test("recall: newest first, says when --limit hides more, context shows whole words and separates fields", async () => {
    const t = setup();
    for (let i = 1; i <= 5; i++)
      await saveAt(
        { home: t.home, ...t.at() },
        { goal: `step ${i} of the refresh endpoint work`, state: `state ${i}`, constraint: [`rule ${i}`] },
      );
    const r = await okJson(["recall", "refresh", "endpoint", "--limit", "3", "--home", t.home], t.at(t.repo));
    expect(r.hits.map((h: any) => h.goal)).toEqual([
      "step 5 of the refresh endpoint work",
      "step 4 of the refresh endpoint work",
      "step 3 of the refresh endpoint work",
    ]);
    expect(r.more).toBe(true);
    expect(r.hits[0].context).toContain("«refresh» «endpoint»");
    expect(r.hits[0].context).toContain(" · state 5");
    const text = await ok(["recall", "refresh", "--limit", "2", "--home", t.home], t.at(t.repo));
    expect(text.stdout).toContain("More than 2 snapshots match");
    // The date inside a snapshot's id is not content: "2026" matches nothing here.
    expect(
      (await okJson(["recall", String(new Date().getFullYear()), "--home", t.home], t.at(t.repo))).hits,
    ).toHaveLength(0);
    // List items are indexed as text, not as JSON.
    const rule = await okJson(["recall", "rule 3", "--home", t.home], t.at(t.repo));
    expect(rule.hits[0].context).not.toContain('","');
  });
});

describe("recall without a keyword", () => {
  test("recall without a keyword shows the newest Layer 3 there is; a manual save gets the spec's automatic parts", async () => {
    const t = setup();
    writeFileSync(join(t.repo, "src", "auth.ts"), "export const auth = 2;\n");
    await saveText(
      { home: t.home, ...t.at() },
      "---\ngoal: with an archive\n---\n### Completed Steps\n1. wrote the parser\n",
    );
    const first = await okJson(["recall", "--home", t.home], t.at());
    expect(first.layer3).toContain("### File Changes");
    expect(first.layer3).toContain("src/auth.ts");
    // A checkpoint without any Layer 3 (no changes, nothing logged) does not hide the archive.
    await saveAt({ home: t.home, ...t.at() }, { overflow: true, goal: "checkpoint" });
    const recalled = await ok(["recall", "--home", t.home], t.at());
    expect(recalled.stdout).toContain("wrote the parser");
  });
});

describe("recall context", () => {
  test("never cuts an emoji or a combining accent in half", async () => {
    const t = setup();
    const body = `${"😀".repeat(40)} needle ${"👨‍👩‍👧".repeat(30)} e\u0301`.repeat(2);
    await saveText({ home: t.home, ...t.at() }, `---\ngoal: emoji archive\n---\n${body}\n`);
    const j = await okJson(["recall", "needle", "--home", t.home], t.at());
    const context: string = j.hits[0].context;
    expect(context).toContain("«needle»");
    // No lone surrogate and no replacement character anywhere in the line.
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(context)).toBe(
      false,
    );
    expect(context).not.toContain("\uFFFD");
    expect(context.startsWith("…😀")).toBe(true);
  });
});
