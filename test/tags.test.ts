// `mindsave tags` (issue 37, item 6): the project's tags with how many snapshots carry each, most
// used first and ties by name; `--all-projects` project by project; `--json`; archived snapshots
// counted only with `--all`; a project without a tag says so and exits 0.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { gitRepo, projectOnLaptop, saveGoal } from "./helpers.ts";

describe("mindsave tags", () => {
  const t = projectOnLaptop("mindsave-tags-");
  const blog = gitRepo(join(t.base, "blog"));
  /** shop's tags after the first test, as `tags` prints them. */
  const SHOP = ["  2  Release", "  2  发布", "  1  alpha", "  1  beta"];

  test("a project's tags, most used first, ties by name; Chinese tags; case folded as --tag filters", async () => {
    await saveGoal(t, "first", "--tag", "release", "--tag", "发布");
    await saveGoal(t, "second", "--tag", "beta", "--tag", "发布");
    await saveGoal(t, "third", "--tag", "Release", "--tag", "alpha");
    const r = await t.okCli(["tags"]);
    expect(r.stdout).toBe(
      ["Tags of shop, most used first (listed snapshots; --all counts archived ones too):", ...SHOP, ""].join(
        "\n",
      ),
    );
    expect(await t.json(["tags", "--json"])).toMatchObject({
      archived: false,
      project: "shop",
      tags: [
        { tag: "Release", count: 2 },
        { tag: "发布", count: 2 },
        { tag: "alpha", count: 1 },
        { tag: "beta", count: 1 },
      ],
    });
  });

  test("snapshots list --tag shows the tag filtered by first among a row's tags (case folded)", async () => {
    const rows = (await t.okCli(["snapshots", "list", "--tag", "ALPHA"])).stdout
      .split("\n")
      .filter((l) => /^ +\d+\. /.test(l));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEndWith(" third #alpha #Release");
    const chinese = (await t.okCli(["snapshots", "list", "--tag", "发布"])).stdout;
    expect(chinese).toContain(" second #发布 #beta\n");
    expect(chinese).toContain(" first #发布 #release\n");
  });

  test("a project without a tag: one clear line, exit 0", async () => {
    await t.okCli(["save", "--goal", "untagged post"], { cwd: blog });
    const r = await t.cli(["tags"], { cwd: blog });
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toBe(
      "No listed snapshot of blog has a tag (`mindsave save --tag TAG` adds one; --all counts archived snapshots too).\n",
    );
    expect(await t.json(["tags", "--json"], blog)).toMatchObject({ project: "blog", tags: [] });
  });

  test("--all-projects: project by project, by name; a project without a tag left out", async () => {
    await t.okCli(["save", "--goal", "a post", "--tag", "草稿"], { cwd: blog });
    const r = await t.okCli(["tags", "--all-projects"]);
    expect(r.stdout).toBe(
      [
        "Tags of every project, most used first (listed snapshots; --all counts archived ones too):",
        "blog",
        "  1  草稿",
        "shop",
        ...SHOP,
        "",
      ].join("\n"),
    );
    const j = await t.json(["tags", "--all-projects", "--json"]);
    expect(j.projects.map((p: { project: string }) => p.project)).toEqual(["blog", "shop"]);
    expect(j.projects[0].tags).toEqual([{ tag: "草稿", count: 1 }]);
  });

  test("archived snapshots count only with --all", async () => {
    // Keep one listed: the three earlier snapshots of shop are archived.
    await saveGoal(t, "fourth", "--tag", "beta", "--keep", "1");
    expect((await t.json(["tags", "--json"])).tags).toEqual([{ tag: "beta", count: 1 }]);
    expect((await t.json(["tags", "--all", "--json"])).tags).toEqual([
      { tag: "beta", count: 2 },
      { tag: "Release", count: 2 },
      { tag: "发布", count: 2 },
      { tag: "alpha", count: 1 },
    ]);
    const r = await t.okCli(["tags", "--all"]);
    expect(r.stdout.split("\n")[0]).toBe("Tags of shop, most used first (archived snapshots counted):");
  });
});
