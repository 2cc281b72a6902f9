// No terminal escapes from outside: text a peer, an old version or an import left in the store
// (escape sequences that write the clipboard, clear the screen, retitle the window; C1 controls;
// a bare carriage return that hides what came before it) is shown without them by every output
// path: load, the session-start hook (Claude Code's JSON, Codex's plain text), failures, doctor,
// recall. JSON keeps the stored text exactly, escaped.
import { beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI, childEnv, projectOnLaptop, sessionStartReplies, sql } from "./helpers.ts";

/** OSC 52: writes "passwd" to the clipboard of whoever's terminal shows it. */
const CLIPBOARD = "\u001b]52;c;cGFzc3dk\u0007";
const CLEAR_SCREEN = "\u001b[2J";
const RED = "\u001b[31m";
const RESET = "\u001b[0m";
/** OSC 0 ended by ST: sets the window's title. */
const TITLE = "\u001b]0;pwned\u001b\\";
/** CSI as one C1 character. */
const C1_CLEAR = "\u009b2J";

/** Any control character but newline and tab: ESC, BEL, CR, C1. */
const CONTROL = /(?![\t\n])\p{Cc}/u;

const goal = `payroll ${CLIPBOARD}run${CLEAR_SCREEN}`;
const state = `state shown\rFAKE STATE`;
const constraint = `keep ${RED}red${RESET} tests`;
const decision = `chose ${C1_CLEAR}libsql`;
const reason = `broke ${TITLE}the builds`;
const rule = `answer ${RED}in English`;
const hostName = `evil${CLIPBOARD}laptop`;
const layer3 = `archive notes ${CLIPBOARD}end${CLEAR_SCREEN}`;

/** What a terminal must never get: the controls, and the parameters of a sequence left behind as text. */
function clean(out: string): void {
  expect(out).not.toMatch(CONTROL);
  expect(out).not.toContain("52;c;cGFzc3dk");
  expect(out).not.toContain("0;pwned");
  expect(out).not.toContain("[31m");
}

let t: ReturnType<typeof projectOnLaptop>;

beforeAll(async () => {
  t = projectOnLaptop("mindsave-escapes-");
  await t.okCli([
    "save",
    "--goal",
    "payroll run",
    "--state",
    "s",
    "--next",
    "n",
    "--constraint",
    "c",
    "--decision",
    "d",
  ]);
  await t.okCli(["fail", "Tailwind", "--reason", "r"]);
  await t.okCli(["rules", "add", "answer in English"]);
  // Written into the store's file as a peer's rows arrive (every save path takes such characters out).
  await sql(t.db, "UPDATE snapshots SET goal = ?, state = ?, constraints = ?, decisions = ?, layer3 = ?", [
    goal,
    state,
    JSON.stringify([constraint]),
    JSON.stringify([decision]),
    layer3,
  ]);
  await sql(t.db, "UPDATE failures SET reason = ?", [reason]);
  await sql(t.db, "UPDATE rules SET text = ?", [rule]);
  // A peer host whose clock ran ahead: doctor names it.
  await sql(
    t.db,
    "INSERT INTO hosts (id, name, platform, first_seen, last_seen, hlc, host, deleted) VALUES (?, ?, 'linux', ?, ?, ?, 'peer-host', 0)",
    [
      "peer-host",
      hostName,
      "2026-01-01T00:00:00.000Z",
      "2026-01-01T00:00:00.000Z",
      "0001767225600000-0000-peer-host",
    ],
  );
  const future = Date.parse("2099-01-01T00:00:00Z");
  await sql(t.db, "INSERT INTO meta (key, value) VALUES ('clock_ahead:peer-host', ?)", [
    JSON.stringify({
      hlc: `${future}-0000-peer-host`,
      ahead_ms: 3 * 86_400_000,
      seen_at: "2026-01-01T00:00:00.000Z",
    }),
  ]);
}, 60_000);

describe("text from outside reaches the terminal without control sequences", () => {
  test("load: the restore block", async () => {
    const out = (await t.okCli(["load", "--latest"])).stdout;
    clean(out);
    expect(out).toContain("goal: payroll run");
    expect(out).toContain("- keep red tests");
    expect(out).toContain("- chose 2Jlibsql");
    expect(out).toContain("answer in English");
    expect(out).toContain("broke the builds");
  });

  test("load --json: valid JSON holding the stored text exactly, nothing raw a terminal would act on", async () => {
    const r = await t.okCli(["--json", "load", "--latest"]);
    // (The sequences are there, escaped: "\u001b]52;…" is text to a terminal, and the data stays whole.)
    expect(r.stdout).not.toMatch(CONTROL);
    const data = JSON.parse(r.stdout);
    expect(data.layer1.goal).toBe(goal);
    expect(data.layer2.decisions).toEqual([decision]);
  });

  test("the session-start hook: Claude Code's JSON and Codex's plain text give the model no escape", async () => {
    const replies = await sessionStartReplies(t.cli, t.repo);
    for (const out of [replies.claudeContext, replies.codex]) {
      clean(out);
      expect(out).toContain("goal: payroll run");
      expect(out).toContain("broke the builds");
    }
  });

  test("failures", async () => {
    const out = (await t.okCli(["failures"])).stdout;
    clean(out);
    expect(out).toContain("Tailwind");
    expect(out).toContain("broke the builds");
  });

  test("doctor: a peer host's name", async () => {
    const r = await t.cli(["doctor"]);
    clean(r.stdout + r.stderr);
    expect(r.stdout).toContain("host evillaptop (peer-host)'s clock is");
  });

  test("recall: a search's hits and the cold archive (Layer 3)", async () => {
    const out = (await t.okCli(["recall", "payroll"])).stdout;
    clean(out);
    expect(out).toContain("payroll run");
    const archive = (await t.okCli(["recall"])).stdout;
    clean(archive);
    expect(archive).toContain("archive notes end");
  });

  test("a refusal that quotes text (here the name asked for, with a C1 control)", async () => {
    const r = await t.cli(["load", "no\u009b2Jsuch"]);
    expect(r.code).toBe(1);
    clean(r.stderr);
    expect(r.stderr).toContain("no2Jsuch");
  });

  test("the MCP server: a tool's text for the model (recall's cold archive)", async () => {
    const transport = new StdioClientTransport({
      command: CLI[0],
      args: [...CLI.slice(1), "mcp", "--home", t.home],
      cwd: t.repo,
      env: childEnv(t.pc.env),
      stderr: "pipe",
    });
    const client = new Client({ name: "escapes-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      const r = (await client.callTool({ name: "recall", arguments: {} })) as {
        content: { text?: string }[];
      };
      const text = r.content.map((c) => c.text ?? "").join("\n");
      clean(text);
      expect(text).toContain("archive notes end");
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe("bidirectional overrides in a list", () => {
  test("snapshots list and recall show no U+202E (the rest of the line would read reversed); load --json keeps the text exactly", async () => {
    const t = projectOnLaptop("mindsave-seven-");
    const goal = "pay \u202Eelbuod\u202C invoices \u2067x\u2069";
    await t.okCli(["save", "--goal", goal, "--state", "s"]);
    const list = (await t.okCli(["snapshots", "list"])).stdout;
    expect(list).toContain("pay elbuod invoices x");
    const recall = (await t.okCli(["recall", "invoices"])).stdout;
    expect(recall).toContain("pay elbuod invoices x");
    for (const out of [list, recall]) expect(out).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect((await t.json(["load", "--latest"])).layer1.goal).toBe(goal);
  });
});
