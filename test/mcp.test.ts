// `mindsave mcp`: the MCP server run as a real subprocess on stdio and driven by the SDK's own client,
// against a real libSQL store, checked with the real CLI. The client parses every byte the server
// writes on stdout, so these tests passing end to end also show stdout carries protocol only.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema, ListRootsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { pathToFileURL } from "node:url";
import {
  CLI,
  REPO,
  gitRepo,
  holdWriteLock,
  laptop,
  okJson,
  projectOnLaptop as fixture,
  tempDir,
  type ProjectOnLaptop as Fixture,
} from "./helpers.ts";
import { save as saveAt, saveGoal as save } from "./engine-setup.ts";
import type { GlobalOptions } from "../src/types.ts";

const base = tempDir("mindsave-mcp-");
const home = join(base, "home");
mkdirSync(home);
const repo = gitRepo(join(base, "shop"));
const elsewhere = join(base, "elsewhere"); // the server's cwd: CLAUDE_PROJECT_DIR must win over it
mkdirSync(elsewhere);
const pc = laptop("ada", base);
const importRun = `import { run } from ${JSON.stringify(join(REPO, "src", "commands", "mcp.ts"))};\n`;
// A server with a careless console.log once it runs: the guard must send it to stderr, not the protocol.
const chattyLauncher = join(base, "launch-chatty.ts");
writeFileSync(
  chattyLauncher,
  `${importRun}const done = run({}, [], JSON.parse(process.argv[2]));\nconsole.log("stray diagnostic");\nprocess.exitCode = await done;\n`,
);
// The control: a line on stdout that is not protocol, which the client must notice.
const brokenLauncher = join(base, "launch-broken.ts");
writeFileSync(
  brokenLauncher,
  `${importRun}process.stdout.write("not protocol\\n");\nprocess.exitCode = await run({}, [], JSON.parse(process.argv[2]));\n`,
);

interface Server {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  /** What the client could not parse or handle: any byte on stdout that is not protocol lands here. */
  errors: string[];
}

/** The real `mindsave mcp` command; the two odd launchers (stray output) call `run()` directly. */
async function startServer(
  globals: GlobalOptions,
  env: Record<string, string> = {},
  script?: string,
  opts: { roots?: string[]; cwd?: string } = {},
): Promise<Server> {
  const cli = [
    "mcp",
    ...(globals.home ? ["--home", globals.home] : []),
    ...(globals.workspace ? ["--workspace", globals.workspace] : []),
  ];
  const transport = new StdioClientTransport({
    command: script ? process.execPath : CLI[0],
    args: script ? [script, JSON.stringify(globals)] : [...CLI.slice(1), ...cli],
    cwd: opts.cwd ?? elsewhere,
    // The JIT off, as for every CLI run of a test (helpers.ts childEnv, mcp-client.ts): a server
    // here answers a few calls, cheaper interpreted.
    env: { ...pc.env, NO_COLOR: "1", BUN_JSC_useJIT: "0", ...env },
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const client = new Client(
    { name: "mindsave-test", version: "0.0.0" },
    opts.roots ? { capabilities: { roots: { listChanged: true } } } : {},
  );
  if (opts.roots)
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: opts.roots!.map((r) => ({ uri: pathToFileURL(r).href, name: r })),
    }));
  const errors: string[] = [];
  client.onerror = (e) => void errors.push(e.message);
  await client.connect(transport);
  return { client, transport, stderr: () => err, errors };
}

type ToolResult = { content: { type: string; text?: string }[]; structuredContent?: any; isError?: boolean };
const call = async (s: Server, name: string, args: Record<string, unknown> = {}) =>
  (await s.client.callTool({ name, arguments: args })) as ToolResult;
const text = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");
const cli = { cwd: repo, env: pc.env };

let server: Server;
beforeAll(async () => {
  server = await startServer({ home }, { CLAUDE_PROJECT_DIR: repo });
});
afterAll(async () => {
  await server?.client.close();
  expect(server?.errors).toEqual([]);
});

describe("mindsave mcp", () => {
  test("lists the tools with input schemas an agent can follow", async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "diff",
      "fact",
      "facts",
      "fail",
      "list",
      "load",
      "plan",
      "recall",
      "retire",
      "rules",
      "save",
    ]);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    const save = byName.save.inputSchema as any;
    expect(save.required).toEqual(["goal"]);
    expect(Object.keys(save.properties).sort()).toEqual([
      "active_files",
      "blocker",
      "constraints",
      "decisions",
      "failed",
      "goal",
      "layer3",
      "next_action",
      "overflow",
      "plan",
      "state",
      "status",
      "tags",
      "topic",
      "workspace",
    ]);
    expect(save.properties.goal.description).toContain("Layer 1");
    expect(save.properties.constraints.description).toContain("Layer 2");
    expect(save.properties.layer3.description).toContain("Layer 3");
    expect(save.properties.active_files.type).toBe("array");
    expect(save.properties.overflow.type).toBe("boolean");
    expect(save.properties.status.enum).toEqual(["in_progress", "completed", "blocked"]);
    const fail = byName.fail.inputSchema as any;
    expect(fail.required).toEqual(["item"]);
    expect(fail.properties.rejected_by.enum).toEqual(["user", "system"]);
    expect(fail.properties.scope.enum).toEqual(["project", "global"]);
    expect(Object.keys((byName.load.inputSchema as any).properties).sort()).toEqual([
      "full",
      "snapshot",
      "verify",
      "workspace",
    ]);
    expect((byName.recall.inputSchema as any).properties.keyword.type).toBe("string");
    expect((byName.list.inputSchema as any).properties.limit.type).toBe("integer");
    // Every field says what it is for.
    const terse = tools.flatMap((t) => [
      ...((t.description ?? "").length < 60 ? [t.name] : []),
      ...Object.entries((t.inputSchema as any).properties ?? {})
        .filter(([, schema]) => ((schema as any).description ?? "").length < 30)
        .map(([field]) => `${t.name}.${field}`),
    ]);
    expect(terse).toEqual([]);
    expect(byName.load.annotations?.readOnlyHint).toBe(true);
    // Honest hints: save and fail only add (retention archives older snapshots, never deletes them).
    expect(byName.save.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(byName.fail.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    for (const t of tools) expect((t.inputSchema as any).additionalProperties).toBe(false);
  });

  let saved = "";
  test("save stores a snapshot (seen by the CLI) and returns its id and token counts", async () => {
    const r = await call(server, "save", {
      goal: "Add JWT refresh-token rotation",
      state: "endpoint written, 2 tests red",
      next_action: "fix clock skew in the expiry test",
      active_files: ["src/auth.ts"],
      blocker: "none",
      constraints: ["no new dependencies"],
      decisions: ["rotate refresh tokens on use"],
      failed: ["Don't use localStorage for tokens — XSS exposure"],
      topic: "jwt-refresh",
      layer3: "### Completed Steps\n1. Wrote the refresh endpoint after the zebrafish incident\n",
    });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent;
    expect(s.snapshot_id).toMatch(/^jwt_refresh_\d{4}-\d\d-\d\d$/);
    expect(s.tokens.layer1).toBeGreaterThan(0);
    expect(s.tokens.layer2).toBeGreaterThan(0);
    expect(s.kind).toBe("full");
    expect(text(r)).toContain(`MindSave checkpoint saved: ${s.snapshot_id}`);
    expect(text(r)).toMatch(/L1 \d+\/300 tokens, L2 \d+\/500/);
    saved = s.snapshot_id;

    // The workspace came from CLAUDE_PROJECT_DIR, not the server's cwd: the CLI in the repo sees it.
    const listed = await okJson(["--home", home, "snapshots", "list"], cli);
    expect(listed.snapshots.map((x: any) => x.name)).toEqual([saved]);
    const shown = await okJson(["--home", home, "load", saved], cli);
    expect(shown.layer1.active_files).toEqual([join(repo, "src", "auth.ts")]);
    expect(shown.failures.map((f: any) => f.item)).toContain("localStorage for tokens");
  });

  test("list shows the project's snapshots newest first", async () => {
    const r = await call(server, "list");
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.snapshots).toHaveLength(1);
    expect(r.structuredContent.snapshots[0]).toMatchObject({
      n: 1,
      snapshot_id: saved,
      status: "in_progress",
      goal: "Add JWT refresh-token rotation",
    });
    expect(text(r)).toContain(`1. ${saved}`);
  });

  test("load returns the restore block with the saved goal, and verify results", async () => {
    const r = await call(server, "load");
    expect(r.isError).toBeFalsy();
    expect(text(r)).toContain("Add JWT refresh-token rotation");
    expect(text(r)).toContain("fix clock skew in the expiry test");
    expect(text(r)).toContain("no new dependencies");
    expect(r.structuredContent.snapshot_id).toBe(saved);
    expect(r.structuredContent.tokens).toBeLessThanOrEqual(800);
    expect(r.structuredContent.verify).toBeUndefined();

    const byNumber = await call(server, "load", { snapshot: "1", verify: true });
    expect(byNumber.isError).toBeFalsy();
    expect(byNumber.structuredContent.verify).toEqual([
      expect.objectContaining({ path: "src/auth.ts", status: "ok" }),
    ]);
    expect(text(byNumber)).toContain("Workspace matches the snapshot");
    expect(text(byNumber)).toContain("Add JWT refresh-token rotation");
  });

  test("recall searches with a keyword and shows Layer 3 without one", async () => {
    const hit = await call(server, "recall", { keyword: "zebrafish" });
    expect(hit.isError).toBeFalsy();
    expect(hit.structuredContent.hits.map((h: any) => h.snapshot_id)).toEqual([saved]);
    expect(hit.structuredContent.hits[0].context.toLowerCase()).toContain("zebrafish");
    expect(text(hit)).toContain("1 snapshot(s) match");

    const none = await call(server, "recall", { keyword: "platypus" });
    expect(none.isError).toBeFalsy();
    expect(none.structuredContent.hits).toEqual([]);
    expect(text(none)).toContain('No snapshot mentions "platypus"');

    const l3 = await call(server, "recall");
    expect(l3.isError).toBeFalsy();
    expect(text(l3)).toContain(`Layer 3: Cold Archive of ${saved}`);
    expect(text(l3)).toContain("### Completed Steps");
  });

  test("fail records a rejected approach that load then shows", async () => {
    const r = await call(server, "fail", {
      item: "websocket reconnect",
      reason: "corporate proxy drops idle sockets",
      rejected_by: "system",
      alternatives: ["long polling"],
      related: ["socket.io"],
    });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      item: "websocket reconnect",
      scope: "project",
      rejected_by: "system",
      repeat_count: 1,
      alternatives: ["long polling"],
    });
    const again = await call(server, "fail", { item: "websocket reconnect" });
    expect(again.structuredContent.repeat_count).toBe(2);

    const load = text(await call(server, "load"));
    expect(load).toContain("websocket reconnect: corporate proxy drops idle sockets");
    expect(load).toContain("long polling");
    const failures = await okJson(["--home", home, "failures"], cli);
    expect(Object.keys(failures.failure_graph.project)).toContain("websocket reconnect");
  });

  test("the resource mindsave://restore-block is the newest restore block", async () => {
    const { resources } = await server.client.listResources();
    expect(resources).toContainEqual(
      expect.objectContaining({ uri: "mindsave://restore-block", mimeType: "text/markdown" }),
    );
    const r = await server.client.readResource({ uri: "mindsave://restore-block" });
    expect(r.contents).toHaveLength(1);
    expect(r.contents[0].mimeType).toBe("text/markdown");
    const block = (r.contents[0] as { text: string }).text;
    expect(block).toContain("Add JWT refresh-token rotation");
    expect(block).toContain("websocket reconnect");
  });

  test("bad calls come back as tool errors with one sentence, and the server keeps working", async () => {
    const missing = await call(server, "load", { snapshot: "no-such-snapshot" });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toBe(
      'No snapshot "no-such-snapshot" in this project; see `mindsave snapshots list`.',
    );

    const number = await call(server, "load", { snapshot: "99" });
    expect(number.isError).toBe(true);
    expect(text(number)).toBe("There is no snapshot number 99; this project has 1 (1 is the newest).");

    const noGoal = await call(server, "save", { state: "no goal given" });
    expect(noGoal.isError).toBe(true);
    expect(text(noGoal)).toContain("A snapshot needs a goal");
    const blankGoal = await call(server, "save", { goal: "   " });
    expect(blankGoal.isError).toBe(true);
    expect(text(blankGoal)).toBe("A snapshot needs a goal: the task's objective in one sentence.");

    const noReason = await call(server, "fail", { item: "Tailwind" });
    expect(noReason.isError).toBe(true);
    expect(text(noReason)).toContain("A new failure needs a reason");

    const badEnum = await call(server, "fail", {
      item: "Tailwind",
      reason: "style conflicts",
      scope: "everywhere",
    });
    expect(badEnum.isError).toBe(true);

    // Nothing was written by the failed calls, and the next call works.
    const list = await call(server, "list");
    expect(list.isError).toBeFalsy();
    expect(list.structuredContent.snapshots).toHaveLength(1);
    const graph = (await okJson(["--home", home, "failures"], cli)).failure_graph;
    expect([...Object.keys(graph.project), ...Object.keys(graph.global)]).not.toContain("Tailwind");
  });

  test("a save from another process between calls is seen by the next call", async () => {
    // The test's own process is the other process: the engine's save, as the CLI runs it.
    await saveAt({ home, ...cli }, { goal: "Saved by another process meanwhile" });
    const list = await call(server, "list");
    expect(list.structuredContent.snapshots.map((s: any) => s.goal)).toEqual([
      "Saved by another process meanwhile",
      "Add JWT refresh-token rotation",
    ]);
    expect(text(await call(server, "load"))).toContain("Saved by another process meanwhile");
    // Overflow: Layer 1 only, an OVF_ id.
    const ovf = await call(server, "save", {
      goal: "Context nearly full",
      constraints: ["dropped here"],
      overflow: true,
    });
    expect(ovf.isError).toBeFalsy();
    expect(ovf.structuredContent.snapshot_id).toMatch(/^OVF_/);
    expect(ovf.structuredContent.kind).toBe("overflow");
    expect(ovf.structuredContent.tokens.layer2).toBe(0);
    expect(ovf.structuredContent.warnings.join(" ")).toContain("Layer 1 only");
  });

  test("outside any project: tool errors say so; --workspace from the globals wins over CLAUDE_PROJECT_DIR", async () => {
    const empty = join(base, "empty");
    mkdirSync(empty);
    const lost = await startServer({ home }, { CLAUDE_PROJECT_DIR: empty });
    try {
      const r = await call(lost, "load");
      expect(r.isError).toBe(true);
      expect(text(r)).toBe(
        `No MindSave project here yet (${empty}); save a snapshot first with \`mindsave save\`.`,
      );
      await expect(lost.client.readResource({ uri: "mindsave://restore-block" })).rejects.toThrow(
        "No MindSave project here yet",
      );
      expect((await call(lost, "list")).isError).toBe(true);
      // A write that fails leaves nothing in the folder: no .mindsave/project.json.
      const failed = await call(lost, "fail", { item: "thing" });
      expect([failed.isError, text(failed)]).toEqual([
        true,
        'A new failure needs a reason: say why "thing" failed or was rejected (the reason).',
      ]);
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      await lost.client.close();
    }

    const pinned = await startServer({ home, workspace: repo }, { CLAUDE_PROJECT_DIR: empty });
    try {
      const r = await call(pinned, "list");
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent.snapshots).toHaveLength(3);
    } finally {
      await pinned.client.close();
    }
  });

  test("the server exits by itself when the client hangs up, with nothing but diagnostics on stderr", async () => {
    const s = await startServer({ home }, { CLAUDE_PROJECT_DIR: repo });
    expect((await call(s, "list")).isError).toBeFalsy();
    const pid = s.transport.pid!;
    const started = Date.now();
    await s.client.close();
    // The SDK client waits 2 s before sending SIGTERM: closing sooner means the server ended on its own.
    expect(Date.now() - started).toBeLessThan(1800);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(s.stderr()).toBe("");
    expect(s.errors).toEqual([]);
    expect(server.errors).toEqual([]);
  });

  test("stdout carries protocol only: a stray console.log goes to stderr (and the client would notice otherwise)", async () => {
    const chatty = await startServer({ home }, { CLAUDE_PROJECT_DIR: repo }, chattyLauncher);
    try {
      expect((await call(chatty, "list")).isError).toBeFalsy();
      expect(chatty.errors).toEqual([]);
      expect(chatty.stderr()).toContain("stray diagnostic");
    } finally {
      await chatty.client.close();
    }
    const broken = await startServer({ home }, { CLAUDE_PROJECT_DIR: repo }, brokenLauncher);
    try {
      expect((await call(broken, "list")).isError).toBeFalsy();
      expect(broken.errors.length).toBeGreaterThan(0);
    } finally {
      await broken.client.close();
    }
  });

  // Last: it adds snapshots the tests above do not expect.
  test("calls sent together all land (one at a time inside the server), and answers are not lost when the client hangs up", async () => {
    const results = await Promise.all([
      call(server, "save", { goal: "burst one" }),
      call(server, "fail", { item: "burst failure", reason: "sent together" }),
      call(server, "save", { goal: "burst two" }),
      call(server, "list", {}),
    ]);
    for (const r of results) expect(r.isError ?? false).toBe(false);
    const goals = (
      await okJson(["snapshots", "list", "--home", home], { cwd: repo, env: pc.env })
    ).snapshots.map((x: any) => x.goal);
    expect(goals).toContain("burst one");
    expect(goals).toContain("burst two");
    // Raw lines piped in, stdin closed at once: every request still gets its answer.
    const lines =
      [
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "pipe", version: "1" },
          },
        },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "save", arguments: { goal: "piped one" } },
        },
        {
          jsonrpc: "2.0",
          id: 3,
          method: "tools/call",
          params: { name: "save", arguments: { goal: "piped two" } },
        },
      ]
        .map((l) => JSON.stringify(l))
        .join("\n") + "\n";
    const piped = Bun.spawnSync([...CLI, "mcp", "--home", home], {
      cwd: repo,
      env: { ...process.env, ...pc.env },
      stdin: new TextEncoder().encode(lines),
    });
    const ids = piped.stdout
      .toString()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).id);
    expect(ids).toEqual([1, 2, 3]);
  });
});

describe("mindsave mcp finds the project the way the client means it", () => {
  test("the client's roots name the project; a tool's workspace argument overrides them", async () => {
    const h = join(base, "roots-home");
    mkdirSync(h);
    const other = gitRepo(join(base, "other-repo"), { "b.txt": "b\n" });
    const s = await startServer({ home: h }, {}, undefined, { roots: [repo] });
    try {
      expect((await call(s, "save", { goal: "saved through the client's root" })).isError).toBeFalsy();
      expect(
        (await call(s, "save", { goal: "saved in the other repo", workspace: other })).isError,
      ).toBeFalsy();
      const relative = await call(s, "list", { workspace: "other-repo" });
      expect(relative.isError).toBe(true);
      expect(text(relative)).toContain("absolute path");
    } finally {
      await s.client.close();
    }
    expect((await okJson(["--home", h, "snapshots", "list"], cli)).snapshots.map((x: any) => x.goal)).toEqual(
      ["saved through the client's root"],
    );
    expect(
      (await okJson(["--home", h, "snapshots", "list"], { cwd: other, env: pc.env })).snapshots.map(
        (x: any) => x.goal,
      ),
    ).toEqual(["saved in the other repo"]);
  });

  test("a tool's workspace inside a project finds the project, as a folder inside it does on the command line", async () => {
    const { existsSync } = await import("node:fs");
    const h = join(base, "sub-home");
    mkdirSync(h);
    const app = gitRepo(join(base, "app-repo"), { "a.ts": "a\n", "src/x.ts": "x\n" });
    const s = await startServer({ home: h }, {}, undefined, { roots: [repo] });
    try {
      expect(
        (
          await call(s, "save", {
            goal: "saved from a subfolder",
            workspace: join(app, "src"),
            active_files: [join(app, "a.ts")],
          })
        ).isError,
      ).toBeFalsy();
      const missing = await call(s, "list", { workspace: join(app, "no-such-folder") });
      expect(missing.isError).toBe(true);
      expect(text(missing)).toContain("is not a folder");
    } finally {
      await s.client.close();
    }
    expect(existsSync(join(app, "src", ".mindsave"))).toBe(false);
    const shown = await okJson(["--home", h, "snapshots", "show"], { cwd: app, env: pc.env });
    expect(shown.goal).toBe("saved from a subfolder");
    expect(shown.active_files.map((f: any) => f.path)).toEqual(["a.ts"]);
  });

  test("started in the home directory it never makes a project of MindSave's own home", async () => {
    const { existsSync } = await import("node:fs");
    const local = join(pc.home, ".mindsave");
    mkdirSync(local, { recursive: true });
    const s = await startServer({}, {}, undefined, { cwd: pc.home });
    try {
      const r = await call(s, "save", { goal: "nowhere to go" });
      expect(r.isError).toBe(true);
      expect(text(r)).toContain("cannot be a project");
    } finally {
      await s.client.close();
    }
    expect(existsSync(join(local, "project.json"))).toBe(false);
  });

  test("arguments are checked strictly, with messages in MCP terms; prompts for save, load and recall", async () => {
    const typo = await call(server, "recall", { keywords: "zebrafish" });
    expect(typo.isError).toBe(true);
    expect(text(typo)).toContain("keywords");
    const wrongType = await call(server, "save", { goal: 42 });
    expect(wrongType.isError).toBe(true);
    expect(text(wrongType)).toContain("goal must be text");
    const noReason = await call(server, "fail", { item: "Bootstrap" });
    expect(text(noReason)).not.toContain("--reason");

    const { prompts } = await server.client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(["load", "recall", "save"]);
    const recall = await server.client.getPrompt({ name: "recall", arguments: { keyword: "JWT" } });
    expect(JSON.stringify(recall.messages)).toContain('`recall` tool with keyword \\"JWT\\"');
  });
  test("memory over weeks through MCP: save with a plan and tags, rules, fact, retire (by the client), plan step, diff", async () => {
    const weeks = gitRepo(join(base, "weeks"), { "src/limit.ts": "export {};\n" });
    const ws = { workspace: weeks };
    const saved = await call(server, "save", {
      ...ws,
      goal: "Add rate limiting",
      next_action: "wire it",
      constraints: ["no new dependencies", "keep the API stable"],
      plan: [
        { content: "limiter", status: "completed" },
        { content: "wire it", status: "in_progress", activeForm: "Wiring it" },
        "load test",
      ],
      tags: ["sprint-3"],
    });
    expect(saved.isError).toBeFalsy();
    expect(saved.structuredContent.tags).toEqual(["sprint-3"]);
    expect(
      (await call(server, "rules", { ...ws, action: "add", text: "Never push to main" })).structuredContent
        .rules,
    ).toEqual([{ number: 1, text: "Never push to main", scope: "project" }]);
    expect(
      (
        await call(server, "fact", {
          ...ws,
          text: "staging is read-only until Friday",
          ttl: "3d",
          confidence: "high",
        })
      ).structuredContent,
    ).toMatchObject({ confidence: "high", renewed: false });
    const retired = await call(server, "retire", { ...ws, item: "dependencies", reason: "zod approved" });
    expect(retired.structuredContent.retired).toEqual([
      expect.objectContaining({
        kind: "constraint",
        text: "no new dependencies",
        reason: "zod approved",
        retired_by: "ada (mindsave-test)",
      }),
    ]);
    const step = await call(server, "plan", { ...ws, step: 2, status: "completed" });
    expect(step.structuredContent.progress).toBe("plan 2/3 · next: load test");
    expect(step.structuredContent.plan[1]).toEqual({
      content: "wire it",
      status: "completed",
      activeForm: "Wiring it",
    });
    const block = (await call(server, "load", ws)).structuredContent.restore_block as string;
    expect(block).toContain("## Standing rules (always apply)\n- Never push to main");
    expect(block).toContain("\nplan 2/3 · next: load test\n");
    expect(block).toContain("- staging is read-only until Friday [high");
    expect(block).not.toContain("no new dependencies");
    await call(server, "save", {
      ...ws,
      goal: "Add rate limiting",
      next_action: "load test",
      constraints: ["keep the API stable"],
    });
    const diff = await call(server, "diff", ws);
    expect(diff.structuredContent.lines).toContain('  next_action: "wire it" → "load test"');
    expect(
      diff.structuredContent.lines.some((l: string) =>
        /^ {2}retired constraint: no new dependencies \(by ada \(mindsave-test\), /.test(l),
      ),
    ).toBe(true);
    const bad = await call(server, "rules", { ...ws, action: "remove" });
    expect([bad.isError, text(bad)]).toEqual([
      true,
      "rules remove needs the rule's number or a piece of its text.",
    ]);
    const removed = await call(server, "rules", { ...ws, action: "remove", number: "PUSH to main" });
    expect(removed.structuredContent.rules).toEqual([]);
  });
});

describe("a tool call never waits out another MindSave's long write (a first sync, an import)", () => {
  // (The 10 s limit is a liveness bound on a call that waits 3 s: the old 15 s wait misses it.)
  test("while another process holds the write lock: save says the store is busy, load still restores, and the server goes on", async () => {
    const db = join(home, "mindsave.db");
    await saveAt({ home, ...cli }, { goal: "Hold the lock", next: "try a save" });
    const s = await startServer({ home }, { CLAUDE_PROJECT_DIR: repo });
    const lock = await holdWriteLock(db);
    try {
      const saved = await call(s, "save", { goal: "while locked" });
      expect(saved.isError).toBe(true);
      expect(text(saved)).toContain("is busy (another MindSave, or another program, is using it)");
      expect((await call(s, "load")).structuredContent.restore_block).toContain("goal: Hold the lock");
    } finally {
      await lock.release();
    }
    expect((await call(s, "save", { goal: "after the lock" })).isError).toBeFalsy();
    await s.client.close();
  }, 10_000);
});

describe("mcp: the plan tool given set with step and status, and tools/call given bad arguments", () => {
  let client: Client | null = null;
  afterEach(async () => {
    await client?.close();
    client = null;
  });
  async function connect(t: Fixture): Promise<Client> {
    const transport = new StdioClientTransport({
      command: CLI[0],
      args: [...CLI.slice(1), "mcp", "--home", t.home],
      cwd: t.repo,
      env: {
        ...t.pc.env,
        PATH: process.env.PATH ?? "",
        NO_COLOR: "1",
        BUN_JSC_useJIT: "0",
        CLAUDE_PROJECT_DIR: t.repo,
      },
      stderr: "pipe",
    });
    client = new Client({ name: "mindsave-test", version: "0.0.0" });
    await client.connect(transport);
    return client;
  }
  type ToolResult = { content: { text?: string }[]; structuredContent?: any; isError?: boolean };

  test("plan with set and step + status applies both: the plan given, then the step's status", async () => {
    const t = fixture("mindsave-walk2-mcp-plan-");
    await save(t, "limit logins");
    const c = await connect(t);
    const r = (await c.callTool({
      name: "plan",
      arguments: { set: ["a", "[x] b"], step: 1, status: "completed" },
    })) as ToolResult;
    expect(r.isError).toBeFalsy();
    const both = [
      { content: "a", status: "completed" },
      { content: "b", status: "completed" },
    ];
    expect(r.structuredContent.plan).toEqual(both);
    expect((await t.json(["plan"])).plan).toEqual(both);
    // A step the given plan does not have: a tool error, and the plan stays as it was.
    const bad = (await c.callTool({
      name: "plan",
      arguments: { set: ["x"], step: 2, status: "completed" },
    })) as ToolResult;
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
      await c.request(
        { method: "tools/call", params: { name: "list", arguments: [1, 2] as never } },
        CallToolResultSchema,
      );
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
