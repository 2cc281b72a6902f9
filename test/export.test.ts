// export --out through the real CLI: where it may write, and what it warns of in a folder it wrote before.
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectOnLaptop } from "./helpers.ts";

describe("export --out", () => {
  test("an empty --out, or one under a file, is one sentence and exit 1", async () => {
    const t = projectOnLaptop("mindsave-six-");
    await t.okCli(["save", "--goal", "g"]);
    const empty = await t.cli(["export", "--out", ""]);
    expect([empty.code, empty.stderr.trim()]).toEqual([
      1,
      "mindsave: --out is empty; give the folder to export to.",
    ]);
    const file = join(t.base, "a-file");
    writeFileSync(file, "x");
    const under = await t.cli(["export", "--out", join(file, "sub")]);
    expect([under.code, under.stderr]).toEqual([1, `mindsave: ${file} is not a directory.\n`]);
  });

  test.skipIf(process.platform !== "linux")(
    "a folder that cannot be written (/proc/1) is one sentence and exit 1",
    async () => {
      const t = projectOnLaptop("mindsave-six-");
      await t.okCli(["save", "--goal", "g"]);
      const r = await t.cli(["export", "--out", "/proc/1/out"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^mindsave: Cannot write the export to \/proc\/1\/out\/\.mindsave .*; give --out a folder you can write\.\n$/,
      );
    },
  );

  test("a misspelled parent folder is refused, not made: only the last folder of --out is created", async () => {
    const t = projectOnLaptop("mindsave-six-");
    await t.okCli(["save", "--goal", "g"]);
    const typo = join(t.base, "exprots");
    const r = await t.cli(["export", "--out", join(typo, "app")]);
    expect([r.code, r.stderr]).toEqual([
      1,
      `mindsave: The folder ${typo} does not exist; check --out ${join(typo, "app")}, or create the folder first.\n`,
    ]);
    expect(existsSync(typo)).toBe(false);
    await t.okCli(["export", "--out", join(t.base, "fresh")]);
    expect(existsSync(join(t.base, "fresh", ".mindsave", "index.json"))).toBe(true);
  });
});

describe("export again after a failure was forgotten", () => {
  test("the old node file is named in a warning: an import of the folder would record it again", async () => {
    const t = projectOnLaptop("mindsave-six-");
    await t.okCli(["save", "--goal", "g"]);
    await t.okCli(["fail", "Redux", "--reason", "too much boilerplate"]);
    await t.okCli(["fail", "GraphQL", "--reason", "no server support"]);
    const out = join(t.base, "out");
    expect((await t.okCli(["export", "--out", out])).stderr).not.toContain("failure_graph");
    await t.okCli(["failures", "forget", "Redux"]);
    const again = await t.okCli(["export", "--out", out]);
    expect(again.stderr).toMatch(
      /failure_graph\/project\/ also holds 1 node\(s\) of failures that are not in the store .*: redux\.json\./i,
    );
    expect(again.stderr).not.toMatch(/graphql/i);
  });
});
