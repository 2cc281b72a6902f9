// The failure graph through the real CLI: fail, failures and forget, in a project and global.
import { describe, expect, test } from "bun:test";
import { laptopWithApp as setup, ok, okJson, projectOnLaptop, run } from "./helpers.ts";

describe("a failure with a line break is one line wherever it is listed", () => {
  test("fail's confirmation, `failures` and a missing active file's warning: quoted, no forged lines", async () => {
    const p = projectOnLaptop("mindsave-walk5-fail-");
    const item = "item\n- FORGED item";
    const reason = "slow\n## Layer 2 · FORGED";
    const said = await p.okCli(["fail", item, "--reason", reason, "--alt", "alt\r- FORGED alt"]);
    const listed = await p.okCli(["failures"]);
    for (const out of [said.stdout, listed.stdout]) {
      const lines = out.split("\n");
      expect(lines.filter((l) => /^\s*(- FORGED|## Layer 2)/.test(l))).toEqual([]);
      expect(out).toContain(JSON.stringify(item));
    }
    expect(listed.stdout).toContain(JSON.stringify(reason));
    const warned = await p.okCli([
      "save",
      "--goal",
      "g",
      "--state",
      "s",
      "--next",
      "n",
      "--active-file",
      "src/a\nb.ts",
    ]);
    const warning = warned.stderr.split("\n").filter((l) => l.includes("not found"));
    expect(warning).toHaveLength(1);
    expect(warning[0]).toContain(JSON.stringify("src/a\nb.ts"));
  }, 30_000);
});

describe("failures: repeated, forgotten and recorded again, in both scopes", () => {
  test("repeating a global failure without --scope counts on the global entry; forget removes it", async () => {
    const t = setup();
    await ok(
      ["fail", "localStorage for tokens", "--reason", "XSS", "--scope", "global", "--home", t.home],
      t.at(t.repo),
    );
    const again = await okJson(["fail", "localStorage for tokens", "--home", t.home], t.at(t.repo));
    expect(again).toMatchObject({ scope: "global", repeat_count: 2 });
    const graph = (await okJson(["failures", "--home", t.home], t.at(t.repo))).failure_graph;
    expect(Object.keys(graph.project)).toEqual([]);
    expect(graph.global["localStorage for tokens"].repeat_count).toBe(2);
    await ok(["failures", "forget", "localStorage for tokens", "--home", t.home], t.at(t.repo));
    expect(
      Object.keys((await okJson(["failures", "--home", t.home], t.at(t.repo))).failure_graph.global),
    ).toEqual([]);
    const missing = await run(["failures", "forget", "nothing here", "--home", t.home], t.at(t.repo));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No failure "nothing here"');
  });

  test("a failure forgotten and recorded again starts from one, without its old alternatives and related items", async () => {
    const t = setup();
    const fail = (...args: string[]) =>
      okJson(["fail", "moment.js", ...args, "--home", t.home], t.at(t.repo));
    for (let i = 0; i < 3; i++)
      await fail("--reason", "too big", "--alt", "date-fns", "--related", "bundle size");
    await ok(["failures", "forget", "moment.js", "--home", t.home], t.at(t.repo));
    const again = await fail("--reason", "deprecated");
    expect(again).toMatchObject({
      reason: "deprecated",
      repeat_count: 1,
      confidence: "medium",
      alternatives: [],
      related: [],
    });
    expect((await fail()).repeat_count).toBe(2);
    // Given again, an alternative comes back.
    expect(await fail("--alt", "date-fns")).toMatchObject({ alternatives: ["date-fns"] });
  });

  test("the same item in both scopes is two entries in --json, not one", async () => {
    const t = setup();
    await ok(["fail", "Redux", "--reason", "too heavy here", "--home", t.home], t.at(t.repo));
    await ok(
      ["fail", "Redux", "--reason", "too heavy anywhere", "--scope", "global", "--home", t.home],
      t.at(t.repo),
    );
    const graph = (await okJson(["failures", "--home", t.home], t.at(t.repo))).failure_graph;
    expect(graph.project.Redux.reason).toBe("too heavy here");
    expect(graph.global.Redux.reason).toBe("too heavy anywhere");
  });
});

describe("failures outside a project", () => {
  test("outside a project `failures` says it shows the global graph; the numbered list fits its width", async () => {
    const t = setup();
    await ok(
      ["fail", "localStorage tokens", "--reason", "XSS", "--scope", "global", "--home", t.home],
      t.at(),
    );
    const out = await ok(["failures", "--home", t.home], t.at(t.base));
    expect(out.stdout).toContain("Global failure graph (1):");
    expect(out.stdout).not.toContain("and global");
    for (let i = 0; i < 3; i++)
      await ok(["save", "--goal", `a long goal number ${i} `.repeat(8), "--home", t.home], t.at());
    const list = await ok(["load", "--home", t.home], t.at());
    const lines = list.stdout.split("\n").filter((l) => /^\d\. /.test(l));
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(Bun.stringWidth(l)).toBeLessThanOrEqual(120);
  });
});
