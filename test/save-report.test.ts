// A save is reported in one shape by every face (engine/snapshots/save.ts: saveReport): the CLI's
// --json and the MCP save tool's structured content name the snapshot snapshot_id alike (the CLI's
// older `saved` kept beside it), and a missing goal is refused by one check, each face saying how
// to give one, with the store as it was.
import { describe, expect, test } from "bun:test";
import { realpathSync } from "node:fs";
import { dumpStore, projectOnLaptop } from "./helpers.ts";
import { callTool, withMcp } from "./mcp-client.ts";

describe("save: one result shape", () => {
  test("the CLI's --json and the MCP tool report snapshot_id, id, status, kind, tags and tokens alike", async () => {
    const t = projectOnLaptop("mindsave-save-report-");
    const cli = await t.json(["--json", "save", "--goal", "重构认证模块 from the CLI", "--tag", "auth"]);
    const cliLoaded = await t.json(["--json", "load", "--latest"]);
    expect(cli.snapshot_id).toBe(cliLoaded.snapshot_id);
    expect(cli.saved).toBe(cli.snapshot_id);
    expect(cli.id).toBe(cliLoaded.id);
    expect(cli.project).toEqual({ id: cliLoaded.project.id, name: "shop", root: realpathSync(t.repo) });
    expect(cli.tokens.restore_block).toBe(cliLoaded.tokens);

    const mcp = await withMcp(
      t.home,
      t.repo,
      t.pc.env,
      async (c) =>
        (await callTool(c, "save", { goal: "重构认证模块 from MCP", tags: ["auth"] })).structuredContent,
    );
    const mcpLoaded = await t.json(["--json", "load", "--latest"]);
    expect(mcp.snapshot_id).toBe(mcpLoaded.snapshot_id);
    expect(mcp.id).toBe(mcpLoaded.id);
    expect(mcp.project).toBe("shop");
    for (const r of [cli, mcp]) {
      expect([r.status, r.kind, r.tags, r.warnings]).toEqual(["in_progress", "full", ["auth"], []]);
      expect(r.tokens.layer1).toBeGreaterThan(0);
      expect(r.tokens.layer2).toBe(0);
    }
  });

  test("a blank goal: one sentence from each face, saying how that face gives one; nothing stored", async () => {
    const t = projectOnLaptop("mindsave-save-report-");
    await t.okCli(["save", "--goal", "something before"]);
    const before = await dumpStore(t.db);
    const cli = await t.cli(["save", "--goal", "   "]);
    expect(cli.code).toBe(1);
    expect(cli.stderr.trim()).toBe('mindsave: A snapshot needs a goal: give --goal "…" or a `goal:` field.');
    const mcp = await withMcp(t.home, t.repo, t.pc.env, (c) =>
      callTool(c, "save", { goal: "   ", state: "no goal given" }),
    );
    expect(mcp.isError).toBe(true);
    expect(mcp.content.map((x) => x.text).join("\n")).toBe(
      "A snapshot needs a goal: the task's objective in one sentence.",
    );
    expect(await dumpStore(t.db)).toBe(before);
  });
});
