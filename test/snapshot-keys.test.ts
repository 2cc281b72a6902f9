// A snapshot named by a key that is neither its full name nor its id: a prefix of either. One
// match loads; several of one name are refused as ambiguous (test/sync-names.test.ts); several
// names are refused with how many and the newest five. Saved in this process; `load` runs as the CLI.
import { describe, expect, test } from "bun:test";
import { projectOnLaptop, dumpStore } from "./helpers.ts";
import { saveGoal } from "./engine-setup.ts";
import { callTool, withMcp } from "./mcp-client.ts";

describe("a snapshot by a prefix of its name or id", () => {
  const t = projectOnLaptop("mindsave-snapshot-keys-");
  const saved = (async () => {
    const out = [];
    for (let i = 1; i <= 6; i++) out.push(await saveGoal(t, `port cache layer ${i}`));
    out.push(await saveGoal(t, "port queue worker 任务"));
    return out;
  })();

  test("a prefix one snapshot has loads it, by name or by id", async () => {
    const all = await saved;
    const queue = all[6].snapshot;
    expect((await t.okCli(["load", "port_q"])).stdout).toContain("port queue worker 任务");
    const byId = await t.okCli(["load", queue.id.slice(0, 12)]);
    expect(byId.stdout).toContain("port queue worker 任务");
  });

  test("a prefix of several names: how many, the newest five, exit 1, nothing changed", async () => {
    const all = await saved;
    const before = await dumpStore(t.db);
    const r = await t.cli(["load", "port_cache"]);
    expect(r.code).toBe(1);
    const newestFive = all
      .slice(0, 6)
      .reverse()
      .slice(0, 5)
      .map((s) => s.snapshot.name);
    expect(r.stderr).toBe(
      `mindsave: "port_cache" matches 6 snapshots (${newestFive.join(", ")}, …); give the full name.\n`,
    );
    expect(await dumpStore(t.db)).toBe(before);
  });
});

describe("a list filtered by a tag numbers its rows as the whole list does", () => {
  const t = projectOnLaptop("mindsave-tag-numbers-");
  // Newest first, the whole list: 5 untagged-or-other, 4 auth, … (numbers 1-6 below).
  const goals = ["oldest auth", "cache", "second auth 认证", "ci", "docs", "newest auth"];
  const saved = (async () => {
    for (const g of goals) await saveGoal(t, g, { tag: g.includes("auth") ? ["auth"] : ["other"] });
  })();
  // Each auth goal's number in the whole list (1 = the newest), from the save order.
  const wanted = goals
    .map((g, i) => ({ g, n: goals.length - i }))
    .filter((x) => x.g.includes("auth"))
    .reverse();

  test("snapshots list --tag: each row's number is the one load and delete take", async () => {
    await saved;
    const out = (await t.okCli(["snapshots", "list", "--tag", "auth"])).stdout;
    const rows = [...out.matchAll(/^ *(\d+)\. /gm)].map((m) => Number(m[1]));
    expect(rows).toEqual(wanted.map((x) => x.n));
    for (const x of wanted) expect((await t.okCli(["load", String(x.n)])).stdout).toContain(x.g);
  });

  test("MCP list with a tag: the same numbers", async () => {
    await saved;
    const r = await withMcp(t.home, t.repo, t.pc.env, (c) => callTool(c, "list", { tag: "auth" }));
    expect(r.structuredContent.snapshots.map((s: { n: number }) => s.n)).toEqual(wanted.map((x) => x.n));
    for (const x of wanted) expect(r.content[0].text).toMatch(new RegExp(`^${x.n}\\. `, "m"));
  });

  test("its archived line counts the archived snapshots with that tag, and says how to see them", async () => {
    await saved;
    // The two newest stay listed (newest auth, docs); the other four are archived, two of them auth.
    await t.okCli(["snapshots", "clean", "--keep", "2"]);
    const out = (await t.okCli(["snapshots", "list", "--tag", "auth"])).stdout;
    expect(out).toContain(
      '2 older snapshot(s) tagged "auth" are archived: `mindsave snapshots list --all --tag "auth"` shows them.',
    );
  });
});
