// Eight defects a second new-user walkthrough found, each through the real CLI (or the real MCP
// server, driven by the SDK's client) on a real store: diff losing a failure once it recurs; `plan
// set -` refusing a markdown checklist and its own output; the MCP plan tool ignoring step + status
// beside set; tools/call with array arguments answered -32603 with zod's dump; clean's "in progress
// or blocked" count including snapshots kept for their blocker; recall showing an older archive
// unannounced; `recall -x` without its hint; doctor sending the reader to doctor.
import { afterEach, describe, expect, test } from "bun:test";
import { statSync, truncateSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { CLI, dumpStore, ok, projectOnLaptop } from "./helpers.ts";

const fixture = projectOnLaptop;
type Fixture = ReturnType<typeof fixture>;

const save = (t: Fixture, goal: string, ...more: string[]) => t.okCli(["save", "--goal", goal, "--state", "s", "--next", "n", ...more]);

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

describe("plan set reads a checklist and its own output", () => {
  const PLAN = [
    { content: "write the limiter", status: "completed" },
    { content: "wire it into 登录", status: "in_progress" },
    { content: "load test", status: "pending" },
  ];

  test("a markdown checklist on stdin (- [x], - [>], - [ ], * and CRLF) sets the plan", async () => {
    const t = fixture("mindsave-walk2-plan-md-");
    await save(t, "limit logins");
    await t.okCli(["plan", "set", "-"], { stdin: "- [x] write the limiter\r\n* [>] wire it into 登录\r\n- [ ] load test\r\n" });
    expect((await t.json(["plan"])).plan).toEqual(PLAN);
    await t.okCli(["plan", "set", "-"], { stdin: "- [x] a\n- [ ] b\n" });
    expect((await t.json(["plan"])).plan).toEqual([{ content: "a", status: "completed" }, { content: "b", status: "pending" }]);
  });

  test("`mindsave plan | mindsave plan set -` gives the same plan back", async () => {
    const t = fixture("mindsave-walk2-plan-trip-");
    await save(t, "limit logins");
    await t.okCli(["plan", "set", ...PLAN.flatMap((p) => ["--item", `${{ completed: "[x]", in_progress: "[>]", pending: "[ ]" }[p.status]} ${p.content}`])]);
    const shown = (await t.okCli(["plan"])).stdout;
    await t.okCli(["plan", "set", "-"], { stdin: "- [ ] something else\n" });
    await t.okCli(["plan", "set", "-"], { stdin: shown });
    expect((await t.json(["plan"])).plan).toEqual(PLAN);
  });

  test("a YAML list still works; text that is neither gets one sentence naming the formats, the store untouched", async () => {
    const t = fixture("mindsave-walk2-plan-bad-");
    await save(t, "limit logins");
    await t.okCli(["plan", "set", "-"], { stdin: "- content: a\n  status: done\n- b\n" });
    expect((await t.json(["plan"])).plan).toEqual([{ content: "a", status: "completed" }, { content: "b", status: "pending" }]);
    const before = await dumpStore(t.db);
    for (const stdin of ["hello\nworld: [\n", "just a sentence\n"]) {
      const r = await t.cli(["plan", "set", "-"], { stdin });
      expect(r.code).toBe(1);
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toStartWith("mindsave: stdin is not a plan");
      expect(lines[0]).toContain("checklist");
      expect(lines[0]).toContain("YAML list");
    }
    expect(await dumpStore(t.db)).toBe(before);
  });
});

describe("the MCP server", () => {
  let client: Client | null = null;
  afterEach(async () => {
    await client?.close();
    client = null;
  });
  async function connect(t: Fixture): Promise<Client> {
    const transport = new StdioClientTransport({
      command: CLI[0], args: [...CLI.slice(1), "mcp", "--home", t.home], cwd: t.repo,
      env: { ...t.pc.env, PATH: process.env.PATH ?? "", NO_COLOR: "1", CLAUDE_PROJECT_DIR: t.repo }, stderr: "pipe",
    });
    client = new Client({ name: "walkthrough", version: "0.0.0" });
    await client.connect(transport);
    return client;
  }
  type ToolResult = { content: { text?: string }[]; structuredContent?: any; isError?: boolean };

  test("plan with set and step + status applies both: the plan given, then the step's status", async () => {
    const t = fixture("mindsave-walk2-mcp-plan-");
    await save(t, "limit logins");
    const c = await connect(t);
    const r = (await c.callTool({ name: "plan", arguments: { set: ["a", "[x] b"], step: 1, status: "completed" } })) as ToolResult;
    expect(r.isError).toBeFalsy();
    const both = [{ content: "a", status: "completed" }, { content: "b", status: "completed" }];
    expect(r.structuredContent.plan).toEqual(both);
    expect((await t.json(["plan"])).plan).toEqual(both);
    // A step the given plan does not have: a tool error, and the plan stays as it was.
    const bad = (await c.callTool({ name: "plan", arguments: { set: ["x"], step: 2, status: "completed" } })) as ToolResult;
    expect(bad.isError).toBe(true);
    expect(bad.content[0].text).toContain("no step 2");
    expect((await t.json(["plan"])).plan).toEqual(both);
  });

  test("tools/call with arguments as an array: -32602 Invalid params in one sentence, and the server goes on", async () => {
    const t = fixture("mindsave-walk2-mcp-params-");
    await save(t, "limit logins");
    const c = await connect(t);
    let error: unknown = null;
    try {
      await c.request({ method: "tools/call", params: { name: "list", arguments: [1, 2] as never } }, CallToolResultSchema);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(McpError);
    const e = error as McpError;
    expect(e.code).toBe(-32602);
    expect(e.message).toContain("arguments of tools/call must be an object, not an array.");
    expect(e.message).not.toContain("\n");
    const list = (await c.callTool({ name: "list", arguments: {} })) as ToolResult;
    expect(list.isError).toBeFalsy();
    expect(list.content[0].text).toContain("limit logins");
  });
});

describe("snapshots clean --dry-run", () => {
  test("says what it would archive, that archiving deletes nothing, and changes nothing", async () => {
    const t = fixture("mindsave-walk2-clean-");
    await save(t, "one under way");
    await save(t, "two under way");
    await save(t, "done but waiting", "--status", "completed", "--blocker", "waiting on review");
    await save(t, "done three", "--status", "completed");
    await save(t, "done four", "--status", "completed");
    const out = (await t.okCli(["snapshots", "clean", "--keep", "2", "--dry-run"])).stdout;
    // Keep 2 counts every snapshot: the three oldest would be archived, in progress or not.
    expect(out).toMatch(/^Would archive 3 snapshot\(s\): one_under_way_\d{4}-\d\d-\d\d, two_under_way_\d{4}-\d\d-\d\d, done_but_waiting_\d{4}-\d\d-\d\d\.$/m);
    expect(out).toContain("2 snapshot(s) would stay listed. Archiving deletes nothing:");
    expect((await t.json(["snapshots", "list"])).snapshots).toHaveLength(5);
  });

  test("never archives the snapshot load restores: the newest, and the newest full one an overflow snapshot takes its Layer 2 from", async () => {
    const t = fixture("mindsave-walk2-newest-");
    await save(t, "under way one");
    await save(t, "under way two");
    await save(t, "done full", "--status", "completed", "--constraint", "no new deps");
    expect((await t.cli(["save", "--overflow", "--goal", "done overflow", "--state", "s", "--next", "n", "--status", "completed"])).code).toBe(0);
    // The block without its ages, which move with the clock.
    const block = async () => (await t.okCli(["load", "--latest"])).stdout.replace(/\([^)]*ago\)/g, "");
    const before = await block();
    expect(before).toContain("no new deps");
    await t.okCli(["snapshots", "clean", "--keep", "1"]);
    const goals = (await t.json(["snapshots", "list"])).snapshots.map((s: any) => s.goal);
    expect(goals).toEqual(["done overflow", "done full"]);
    expect((await t.json(["snapshots", "list", "--all"])).snapshots).toHaveLength(4);
    expect(await block()).toBe(before);
  });
});

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

describe("doctor on a damaged store", () => {
  test("says what to run without sending the reader back to doctor", async () => {
    const t = fixture("mindsave-walk2-doctor-");
    for (let i = 0; i < 3; i++) await save(t, `goal number ${i}`);
    truncateSync(t.db, Math.floor(statSync(t.db).size / 2));
    const r = await t.cli(["doctor"]);
    expect(r.code).toBe(1);
    const problem = r.stdout.split("\n").find((l) => l.startsWith("problem:"));
    expect(problem).toContain("damaged");
    expect(problem).toContain("mindsave doctor --repair");
    expect(problem).not.toContain("`mindsave doctor` ");
    const j = JSON.parse((await t.cli(["--json", "doctor"])).stdout);
    expect(j.problem).not.toContain("`mindsave doctor` ");
    // Other commands still point to doctor to see what is wrong.
    expect((await t.cli(["load"])).stderr).toContain("run `mindsave doctor` to see what is wrong");
  });
});
