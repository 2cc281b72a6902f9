// Private spans (issue 37, item 5): text between `<private>` and `</private>` never reaches the
// store, by any path — save's flags and its YAML, fail, rules and facts, the MCP server, the hooks
// (prompts, tool inputs and outputs, a transcript's prompts, tool calls and final reply), ingest and
// import — and `[private]` stands where it was. After each path the raw bytes of every file in the
// home (the store, its WAL and journal) are searched for the private words, in English and Chinese.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { dumpStore, gitRepo, laptop, okJson, run, tempDir } from "./helpers.ts";
import { callTool, withMcp } from "./mcp-client.ts";
import { withoutPrivate } from "../src/engine/snapshots/private-spans.ts";
import { redactHead } from "../src/engine/snapshots/redact.ts";

describe("a private span in a text", () => {
  test("several spans, across lines, in any case: each leaves [private]", () => {
    expect(withoutPrivate("a <private>x</private> b <PRIVATE>y\nz</Private> c")).toBe(
      "a [private] b [private] c",
    );
    expect(withoutPrivate("keep < private >x</ private > this")).toBe("keep [private] this");
    // Only the tag itself opens a span.
    expect(withoutPrivate("a < b, <privacy> and </div> <private>x</private>")).toBe(
      "a < b, <privacy> and </div> [private]",
    );
  });

  test("an unclosed <private> hides everything after it", () => {
    expect(withoutPrivate("ship it <private>the vendor is Acme\nand more")).toBe("ship it [private]");
  });

  test("nested spans are one; a stray </private> hides what comes before it, back to the last span", () => {
    expect(withoutPrivate("a <private>x <private>y</private> z</private> b")).toBe("a [private] b");
    expect(withoutPrivate("the vendor is Acme</private> then")).toBe("[private] then");
    expect(withoutPrivate("<private>x</private> y</private> z")).toBe("[private][private] z");
    expect(withoutPrivate("</private>nothing before")).toBe("nothing before");
  });

  test("Chinese inside and around", () => {
    expect(withoutPrivate("数据库在 <private>内网地址 10.0.0.5，密码是老板的生日</private> 上，别改")).toBe(
      "数据库在 [private] 上，别改",
    );
  });

  test("a span is left out before a long text is cut: its start is never kept alone", () => {
    const text = `${"word ".repeat(300)}<private>${"hush ".repeat(400)}</private> end`;
    expect(redactHead(text, 2000)).toBe(`${"word ".repeat(300)}[private] end`);
  });
});

/** Words that only a private span holds: each path has its own. */
const hush = (path: string) => ({
  en: `hushword-${path}-7q`,
  zh: `机密${path}内容`,
});
const spanOf = (path: string) => `<private>${hush(path).en} ${hush(path).zh}</private>`;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const base = tempDir("mindsave-private-");
const pc = laptop("quiet", base);
const home = join(base, "home");
mkdirSync(home);
const repo = gitRepo(join(base, "shop"));
const opts = { cwd: repo, env: pc.env };
const cli = (args: string[], stdin?: string) => run([...args, "--home", home], { ...opts, stdin });

/** "word in file" for each private word of these paths found in any file of the home. */
function leaks(...paths: string[]): string[] {
  const out: string[] = [];
  for (const file of filesUnder(home)) {
    const bytes = readFileSync(file);
    for (const p of paths)
      for (const word of Object.values(hush(p))) if (bytes.includes(word)) out.push(`${word} in ${file}`);
  }
  return out;
}
const stored = () => dumpStore(join(home, "mindsave.db"));

describe("no private span reaches the store, by any path", () => {
  test("save: Layer 1 and Layer 2 flags, a tag", async () => {
    const r = await cli([
      "save",
      "--goal",
      `Ship the checkout ${spanOf("goal")} today`,
      "--state",
      `Tests green; ${spanOf("state")}`,
      "--next",
      "Deploy",
      "--constraint",
      `Keep the ${spanOf("constraint")} API`,
      "--decision",
      `<PRIVATE>${hush("decision").en}\n${hush("decision").zh}</PRIVATE> over Redis`,
      "--tag",
      `release ${spanOf("tag")}`,
    ]);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(leaks("goal", "state", "constraint", "decision", "tag")).toEqual([]);
    const dump = await stored();
    for (const kept of [
      "Ship the checkout [private] today",
      "Tests green; [private]",
      "Keep the [private] API",
      "[private] over Redis",
      "release [private]",
    ])
      expect(dump).toContain(kept);
  });

  test("save: YAML on stdin (a span across lines, one unclosed, a failure_graph key, Layer 3)", async () => {
    const yaml = stringify({
      goal: `Migrate billing ${spanOf("yaml-goal")}`,
      constraints: [
        `Never touch <private>\n${hush("yaml-lines").en}\n${hush("yaml-lines").zh}\n</private> again`,
      ],
      failure_graph: {
        [`Stripe ${spanOf("yaml-key")}`]: { reason: `Too slow <private>${hush("yaml-reason").en}` },
      },
      layer3: `Notes before.\n${spanOf("yaml-l3")}\nNotes after. 之后的笔记`,
    });
    const r = await cli(["save", "--file", "-"], yaml);
    expect(r).toMatchObject({ code: 0 });
    expect(leaks("yaml-goal", "yaml-lines", "yaml-key", "yaml-reason", "yaml-l3")).toEqual([]);
    const dump = await stored();
    for (const kept of [
      "Migrate billing [private]",
      "Never touch [private] again",
      "Stripe [private]",
      "Too slow [private]",
      "Notes before.\\n[private]\\nNotes after. 之后的笔记",
    ])
      expect(dump).toContain(kept);
  });

  test("save: a private span does not count towards a field's size, and a refusal never quotes one", async () => {
    // 9,000 characters, over a field's 8 KiB; what is stored is a few words.
    const long = `Use the config <private>${hush("long").en} ${"x".repeat(9000)}</private> as is`;
    expect(await cli(["save", "--goal", "Ship the config", "--constraint", long])).toMatchObject({ code: 0 });
    expect(await stored()).toContain("Use the config [private] as is");
    const before = await stored();
    const refused = await cli(
      ["save", "--file", "-"],
      stringify({
        goal: "Refused",
        failure_graph: { [`${spanOf("refused-key")} Stripe`]: { reason: "y".repeat(9000) } },
      }),
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("[private] Stripe");
    for (const word of [...Object.values(hush("refused-key")), hush("long").en])
      expect(refused.stderr).not.toContain(word);
    expect(await stored()).toBe(before);
    expect(leaks("long", "refused-key")).toEqual([]);
  });

  test("fail, rules and facts", async () => {
    const ran = [
      await cli([
        "fail",
        `Tailwind ${spanOf("fail-item")}`,
        "--reason",
        `Clashes with ${spanOf("fail-reason")}`,
      ]),
      await cli(["rules", "add", `Answer in English ${spanOf("rule")}`]),
      await cli(["fact", `The staging box is ${spanOf("fact")}`]),
    ];
    for (const r of ran) expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(leaks("fail-item", "fail-reason", "rule", "fact")).toEqual([]);
    const dump = await stored();
    for (const kept of [
      "Tailwind [private]",
      "Clashes with [private]",
      "Answer in English [private]",
      "The staging box is [private]",
    ])
      expect(dump).toContain(kept);
  });

  test("the MCP server: tools save and fail", async () => {
    await withMcp(home, base, { ...pc.env, CLAUDE_PROJECT_DIR: repo }, async (client) => {
      const call = async (name: string, args: Record<string, unknown>) => {
        const r = await callTool(client, name, args);
        expect(r.isError ? r.content.map((c) => c.text).join("\n") : "").toBe("");
      };
      await call("save", {
        goal: `Port the cart ${spanOf("mcp-goal")}`,
        state: "Halfway",
        next_action: "Finish",
        decisions: [`Use ${spanOf("mcp-decision")} queues`],
        layer3: `Log: ${spanOf("mcp-l3")} done`,
      });
      await call("fail", { item: `Webpack ${spanOf("mcp-fail")}`, reason: "Slow builds" });
    });
    expect(leaks("mcp-goal", "mcp-decision", "mcp-l3", "mcp-fail")).toEqual([]);
    const dump = await stored();
    for (const kept of [
      "Port the cart [private]",
      "Use [private] queues",
      "Log: [private] done",
      "Webpack [private]",
    ])
      expect(dump).toContain(kept);
  });

  /** A Claude Code transcript: a prompt, a Bash call, its output, a final reply; each with a span. */
  function transcript(session: string): string {
    let n = 0;
    const line = (type: string, content: unknown, extra = {}) => ({
      type,
      sessionId: session,
      cwd: repo,
      timestamp: `2026-11-21T10:${String(n++).padStart(2, "0")}:00.000Z`,
      uuid: crypto.randomUUID(),
      message: { role: type, model: "claude-sonnet-4-5", content },
      ...extra,
    });
    const id = `${session}-bash`;
    const lines = [
      line("user", `Fix the deploy script. ${spanOf(`${session}-prompt`)} Then run it.`),
      line("assistant", [
        {
          type: "tool_use",
          id,
          name: "Bash",
          input: { command: `deploy.sh --note '${spanOf(`${session}-cmd`)}'` },
        },
      ]),
      line("user", [
        { type: "tool_result", tool_use_id: id, content: `deployed ${spanOf(`${session}-out`)}` },
      ]),
      line("assistant", [{ type: "text", text: `Done: the deploy ran. ${spanOf(`${session}-reply`)}` }]),
    ];
    const path = join(base, `${session}.jsonl`);
    writeFileSync(path, lines.map((o) => JSON.stringify(o)).join("\n") + "\n");
    return path;
  }
  const transcriptPaths = (s: string) => [`${s}-prompt`, `${s}-cmd`, `${s}-out`, `${s}-reply`];

  test("ingest TRANSCRIPT: the tool log", async () => {
    const r = await okJson(["ingest", transcript("ingest"), "--home", home], opts);
    expect(r.added).toBeGreaterThan(0);
    expect(leaks(...transcriptPaths("ingest"))).toEqual([]);
    expect(await stored()).toContain("deploy.sh --note '[private]'");
  });

  test("the hooks: a prompt's correction, a tool's input and output, a failure, the session's end (its transcript)", async () => {
    const hook = (event: string, payload: object) =>
      cli(
        ["hook", event],
        JSON.stringify({ cwd: repo, hook_event_name: event, session_id: "s-hook", ...payload }),
      );
    const results = [
      await hook("session-start", { source: "startup" }),
      await hook("user-prompt-submit", { prompt: `No, I meant ${spanOf("hook-prompt")} instead` }),
      await hook("user-prompt-submit", {
        prompt: `<private>No, use ${hush("hook-inside").en} ${hush("hook-inside").zh}</private>`,
      }),
    ];
    for (let i = 0; i < 3; i++) {
      results.push(
        await hook("post-tool-use", {
          tool_name: "Bash",
          tool_use_id: `ptu-${i}`,
          tool_input: { command: `make build ${spanOf("hook-input")}` },
          tool_response: { stdout: `built ${spanOf("hook-output")}` },
        }),
      );
      results.push(
        await hook("post-tool-use-failure", {
          tool_name: "Bash",
          tool_input: { command: `npm test ${spanOf("hook-fail-cmd")}` },
          error: `Exit code 1\nfailed ${spanOf("hook-fail-error")}`,
        }),
      );
    }
    results.push(await hook("session-end", { transcript_path: transcript("hook-end"), reason: "exit" }));
    for (const r of results) expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(
      leaks(
        "hook-prompt",
        "hook-inside",
        "hook-input",
        "hook-output",
        "hook-fail-cmd",
        "hook-fail-error",
        ...transcriptPaths("hook-end"),
      ),
    ).toEqual([]);
    const dump = await stored();
    for (const kept of [
      "User correction: I meant [private] instead",
      "npm test [private]",
      "Exit code 1 — failed [private]",
      "Fix the deploy script. [private] Then run it.",
      "Done: the deploy ran. [private]",
    ])
      expect(dump).toContain(kept);
  });

  test("import of a .mindsave/ folder: a snapshot file, a failure node, a tool log", async () => {
    const ws = gitRepo(join(base, "imported"));
    const seed = join(ws, ".mindsave");
    for (const d of ["snapshots", "failure_graph/project", "tool_logs"])
      mkdirSync(join(seed, d), { recursive: true });
    const front = (o: object, body: string) => `---\n${stringify(o)}---\n${body}\n`;
    writeFileSync(
      join(seed, "snapshots", "deploy_2026-11-20.md"),
      front(
        {
          created_at: "2026-11-20T09:00:00Z",
          goal: `Imported goal ${spanOf("import-goal")}`,
          constraints: [`Imported rule ${spanOf("import-constraint")}`],
        },
        `Imported notes ${spanOf("import-l3")}`,
      ),
    );
    writeFileSync(
      join(seed, "failure_graph", "project", "node-1.json"),
      JSON.stringify({
        item: `Imported failure ${spanOf("import-item")}`,
        reason: `Because ${spanOf("import-reason")}`,
      }),
    );
    writeFileSync(
      join(seed, "tool_logs", "2026-11-20.jsonl"),
      JSON.stringify({
        timestamp: "2026-11-20T10:00:00Z",
        action: "bash",
        tool: "Bash",
        target: `ls ${spanOf("import-target")}`,
        summary: "ok",
      }) + "\n",
    );
    const r = await okJson(["import", ws, "--home", home], opts);
    expect(r.snapshots.imported).toHaveLength(1);
    expect(r.tool_calls.imported).toBe(1);
    expect(
      leaks("import-goal", "import-constraint", "import-l3", "import-item", "import-reason", "import-target"),
    ).toEqual([]);
    const dump = await stored();
    for (const kept of [
      "Imported goal [private]",
      "Imported rule [private]",
      "Imported notes [private]",
      "Imported failure [private]",
      "Because [private]",
      "ls [private]",
    ])
      expect(dump).toContain(kept);
  });
});
