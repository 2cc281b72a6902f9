// A save over budget is never lost: a manual (CLI) or MCP save whose Layer 1 or Layer 2 is over its
// budget is stored, what does not fit moves to Layer 3 under a heading, and the reply says exactly
// what moved. "Nothing was saved" is never the answer to an agent's save.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI, laptopWithApp as setup, okJson, projectOnLaptop, run } from "./helpers.ts";

const LONG_GOAL = "重构认证模块并修复令牌刷新问题，".repeat(30) + "最后更新文档";
const decisions = Array.from(
  { length: 60 },
  (_, i) => `decision ${i}: module ${i} keeps its own error type, wrapped at the API edge`,
);

describe("a CLI save over budget", () => {
  test("Layer 1 over (a long Chinese goal): saved, the goal as written in Layer 3, the reply names it", async () => {
    const p = projectOnLaptop("mindsave-budget-");
    const r = await p.cli(["save", "--goal", LONG_GOAL, "--state", "中途", "--next", "写测试"]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("Nothing was saved");
    expect(r.stderr).toMatch(
      /Layer 1 was \d+ tokens, over its 300-token budget: moved to Layer 3 under "Moved from Layer 1": the rest of goal\./,
    );
    const shown = await p.json(["load", "--latest"]);
    expect(shown.layer1.goal.endsWith("…")).toBe(true);
    expect(LONG_GOAL.startsWith(shown.layer1.goal.slice(0, -1))).toBe(true);
    const archive = (await p.okCli(["recall"])).stdout;
    expect(archive).toContain("### Moved from Layer 1 (over its 300-token budget)");
    expect(archive).toContain(`goal (as written): ${LONG_GOAL}`);
  }, 60_000);

  test("Layer 2 over (60 decisions): saved, the last decisions in Layer 3 in order, the reply counts them", async () => {
    const p = projectOnLaptop("mindsave-budget-");
    const r = await p.cli([
      "save",
      "--json",
      "--goal",
      "Split the error types",
      ...decisions.flatMap((d) => ["--decision", d]),
    ]);
    expect(r.code).toBe(0);
    const saved = JSON.parse(r.stdout);
    expect(saved.tokens.layer2).toBeLessThanOrEqual(500);
    const shown = await p.json(["load", "--latest", "--full"]);
    const kept: string[] = shown.layer2.decisions;
    expect(kept).toEqual(decisions.slice(0, kept.length));
    const moved = decisions.slice(kept.length);
    expect(moved.length).toBeGreaterThan(0);
    expect(saved.warnings).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^Layer 2 was \\d+ tokens, over its 500-token budget: moved to Layer 3 under "Moved from Layer 2": ${moved.length} decision\\(s\\)\\.$`,
        ),
      ),
    );
    const archive = (await p.okCli(["recall"])).stdout;
    expect(archive).toContain(
      [
        "### Moved from Layer 2 (over its 500-token budget)",
        "decisions:",
        ...moved.map((d) => `- ${d}`),
      ].join("\n"),
    );
  }, 60_000);
});

describe("an MCP save over budget", () => {
  const p = projectOnLaptop("mindsave-budget-mcp-");
  let client: Client;
  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: CLI[0],
      args: [...CLI.slice(1), "mcp", "--home", p.home],
      cwd: p.repo,
      env: { ...p.pc.env, NO_COLOR: "1", CLAUDE_PROJECT_DIR: p.repo },
      stderr: "pipe",
    });
    client = new Client({ name: "mindsave-test", version: "0.0.0" });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
  });

  test("both layers over: stored, and the reply says what moved from each", async () => {
    const files = Array.from({ length: 40 }, (_, i) => `src/feature${i}/widgets/Component${i}.tsx`);
    const r = (await client.callTool({
      name: "save",
      arguments: { goal: "Move the widgets to the new theme", active_files: files, decisions },
    })) as { content: { text?: string }[]; structuredContent?: any; isError?: boolean };
    const text = r.content.map((c) => c.text ?? "").join("\n");
    expect(r.isError).toBeFalsy();
    expect(text).not.toContain("Nothing was saved");
    expect(text).toContain("MindSave checkpoint saved");
    const shown = await p.json(["load", "--latest", "--full"]);
    const keptFiles = shown.layer1.active_files.length;
    const keptDecisions = shown.layer2.decisions.length;
    expect(keptFiles).toBeLessThan(40);
    expect(text).toContain("Warning: Layer 1 was ");
    expect(text).toMatch(
      new RegExp(
        `moved to Layer 3 under "Moved from Layer 1": ${40 - keptFiles} active file\\(s\\) \\(src/feature${keptFiles}/`,
      ),
    );
    // The reply names the first five files it moved and counts the rest (Layer 3 lists them all).
    expect(text).toContain(
      `src/feature${keptFiles + 4}/widgets/Component${keptFiles + 4}.tsx, … ${40 - keptFiles - 5} more).`,
    );
    expect(text).toContain(
      `moved to Layer 3 under "Moved from Layer 2": ${decisions.length - keptDecisions} decision(s).`,
    );
    expect(r.structuredContent.tokens.layer1).toBeLessThanOrEqual(300);
    expect(r.structuredContent.tokens.layer2).toBeLessThanOrEqual(500);
    const archive = (await p.okCli(["recall"])).stdout;
    for (const f of files.slice(keptFiles)) expect(archive).toContain(`- ${f}`);
    for (const d of decisions.slice(keptDecisions)) expect(archive).toContain(`- ${d}`);
  }, 60_000);
});

describe("a CLI save with more constraints than Layer 2 holds", () => {
  test("compression never drops a constraint: what cannot fold and does not fit moves to Layer 3 whole, never cut", async () => {
    const t = setup();
    const constraints = Array.from(
      { length: 40 },
      (_, i) => `rule number ${i + 1}: keep module ${i + 1} free of global state and side effects`,
    );
    const r = await run(
      [
        "save",
        "--json",
        "--goal",
        "many rules",
        "--home",
        t.home,
        ...constraints.flatMap((c) => ["--constraint", c]),
      ],
      t.at(t.repo),
    );
    expect(r.code).toBe(0);
    const kept = (await okJson(["load", "--home", t.home], t.at(t.repo))).layer2.constraints as string[];
    expect(kept).toEqual(constraints.slice(0, kept.length));
    expect(JSON.parse(r.stdout).warnings.join("\n")).toContain(
      `"Moved from Layer 2": ${constraints.length - kept.length} constraint(s).`,
    );
    const archive = (await okJson(["recall", "--home", t.home], t.at(t.repo))).layer3 as string;
    for (const c of constraints.slice(kept.length)) expect(`${archive}\n`).toContain(`- ${c}\n`);
    // Compressed, with more than twenty constraints left as written: none of them is cut.
    const unique = Array.from({ length: 24 }, (_, i) => `rule number ${i + 1}`);
    const foldable = ["tailwind", "bootstrap", "mongodb", "graphql", "sessions", "an orm"].flatMap((x) =>
      [
        "no X",
        "never use X",
        "avoid X",
        "do not use X",
        "don't use X",
        "X is banned",
        "stop using X",
        "不要用X",
        "禁止使用X",
        "never ever use X",
      ].map((f) => f.replace("X", x)),
    );
    const saved = await run(
      [
        "save",
        "--goal",
        "some rules",
        "--home",
        t.home,
        ...[...unique, ...foldable].flatMap((c) => ["--constraint", c]),
      ],
      t.at(t.repo),
    );
    expect(saved.code).toBe(0);
    expect(saved.stderr).toContain("was compressed");
    const loaded = await okJson(["load", "--latest", "--home", t.home], t.at(t.repo));
    expect(loaded.layer2.constraints).toEqual(unique);
    expect(Object.keys(loaded.layer2.compressed).length).toBeGreaterThan(0);
  });
});
