// Archived snapshots are reachable and named as archived on every face (issue 32): MCP `list`
// counts them and shows them with `all: true`; `load NAME` (CLI text and --json, MCP) says a
// snapshot is archived, and says nothing for a listed one. The real CLI and `mindsave mcp`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { projectOnLaptop } from "./helpers.ts";
import { atPlace, inRepo, saveGoal } from "./engine-setup.ts";
import { importSeed } from "../src/engine/formats/seed-import.ts";
import { locateSeed } from "../src/engine/formats/seed-layout.ts";
import { callTool, openMcp, withMcp } from "./mcp-client.ts";
import { writeTree } from "../bench/gen.ts";

const t = projectOnLaptop("mindsave-archived-faces-");
// Four saves keeping two: the two oldest are archived (retention never deletes).
const GOALS = ["oldest 最早 work", "second work", "third work", "newest work"];
const names: string[] = [];

/** One `mindsave mcp` on that history for the file's MCP tests, which only read. */
let mcp: Client;

beforeAll(async () => {
  // Saved in this process (the engine's save, as the CLI's): the faces below are what is tested.
  for (const goal of GOALS) names.push((await saveGoal(t, goal, { keep: 2 })).snapshot.name);
  mcp = await openMcp(t.home, t.repo, t.pc.env);
});
afterAll(() => mcp.close());

describe("MCP list and archived snapshots", () => {
  test("without all: the listed ones, archived_count and a line saying how to see the rest", async () => {
    const r = await callTool(mcp, "list", { limit: 1000 });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.archived_count).toBe(2);
    expect(r.structuredContent.snapshots.map((s: { snapshot_id: string }) => s.snapshot_id)).toEqual([
      names[3],
      names[2],
    ]);
    expect(r.content[0].text).toContain(
      "2 older snapshot(s) are archived: the list tool with all: true shows them.",
    );
    expect(r.content[0].text).not.toContain(names[0]);
  });

  test("with all: true, the archived ones too, marked and without a list number", async () => {
    const r = await callTool(mcp, "list", { all: true });
    expect(r.isError).toBeFalsy();
    const rows = r.structuredContent.snapshots;
    expect(rows.map((s: { snapshot_id: string }) => s.snapshot_id)).toEqual([...names].reverse());
    expect(rows.map((s: { n?: number; archived: boolean }) => [s.n, s.archived])).toEqual([
      [1, false],
      [2, false],
      [undefined, true],
      [undefined, true],
    ]);
    expect(r.structuredContent.archived_count).toBe(2);
    const text = r.content[0].text!;
    expect(text).toContain(`${names[0]} (archived)`);
    expect(text).toContain("oldest 最早 work");
    expect(text).not.toContain("the list tool with all: true shows them");
  });
});

describe("MCP list of a long history", () => {
  test("with all: true and no limit, a page of the newest 50 and a line saying how to see more", async () => {
    const long = projectOnLaptop("mindsave-archived-long-");
    writeTree({
      dir: long.repo,
      projectId: "long-history",
      name: "long",
      snapshots: 70,
      projectFailures: 0,
      globalFailures: 0,
      globalBase: 0,
      seed: 11,
      now: new Date("2026-11-28T12:00:00Z"),
    });
    // The history imported in this process (the engine's import, as the CLI's); one server for both calls.
    await atPlace(inRepo(long), (s) => importSeed(s, locateSeed(long.repo), {}));
    const [r, wide] = await withMcp(long.home, long.repo, long.pc.env, async (c) => [
      await callTool(c, "list", { all: true }),
      await callTool(c, "list", { all: true, limit: 100 }),
    ]);
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.snapshots).toHaveLength(50);
    expect(r.structuredContent.archived_count).toBe(50);
    expect(r.content[0].text).toContain("The newest 50 are shown (50 archived in all); pass limit for more.");
    expect(wide.structuredContent.snapshots).toHaveLength(70);
    expect(wide.content[0].text).not.toContain("pass limit for more");
  }, 60_000);
});

describe("load of an archived snapshot says so", () => {
  test("CLI load NAME: a line in the text, archived: true in --json; nothing for a listed one", async () => {
    const text = (await t.okCli(["load", names[0]])).stdout;
    expect(text.split("\n")[0]).toContain(
      "Archived: retention left this snapshot out of the default lists (`mindsave snapshots list --all` shows it)",
    );
    expect(text).toContain("oldest 最早 work");
    expect((await t.json(["load", names[0]])).archived).toBe(true);
    const listed = await t.okCli(["load", names[3]]);
    expect(listed.stdout).not.toContain("Archived");
    expect((await t.json(["load", names[3]])).archived).toBe(false);
  });

  test("MCP load by name: archived in the text and the structured content; nothing for a listed one", async () => {
    const old = await callTool(mcp, "load", { snapshot: names[1] });
    const recent = await callTool(mcp, "load", { snapshot: names[2] });
    expect(old.structuredContent.archived).toBe(true);
    expect(old.content[0].text).toStartWith(
      "Archived: retention left this snapshot out of the default lists (the list tool with all: true shows it)",
    );
    expect(recent.structuredContent.archived).toBe(false);
    expect(recent.content[0].text).not.toContain("Archived");
  });
});
