// Bounded work on any input: transcripts that are huge or not files at all, megabyte layers,
// unbroken strings, control characters and broken MCP lines. Every case must end within its
// per-test timeout (there are no timing assertions), with bounded memory where it says so.
import { afterAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { CLI, dumpStore, gitRepo, laptop, okJson, projectOnLaptop, run, sql, tempDir } from "./helpers.ts";
import { fromFields, applyFlags, emptyInput, parseSnapshotText } from "../src/engine/snapshots/input.ts";
import { FIELD_MAX } from "../src/engine/snapshots/input-limits.ts";
import { countTokens, loadTokenizer, runCuts, MAX_RUN } from "../src/engine/snapshots/tokens.ts";
import { MAX_TOOL_USES, readTranscript } from "../src/engine/agents/transcript.ts";
import { inDefaultHome, save, saveText } from "./engine-setup.ts";

const T30 = 30_000;
const MB = 1024 * 1024;

function setup() {
  const base = tempDir("mindsave-hostile-");
  const repo = gitRepo(join(base, "shop"));
  const pc = laptop("hostile-laptop", base);
  const home = join(pc.home, ".mindsave");
  const at = { cwd: repo, env: pc.env };
  return { base, repo, pc, home, db: join(home, "mindsave.db"), at };
}

/** This process's environment without MindSave's or Claude Code's settings. */
function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: "1" };
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith("MINDSAVE_") && k !== "CLAUDE_PROJECT_DIR") env[k] = v;
  return { ...env, ...extra };
}

// GNU time reports its child's own peak. Bun.spawn's resourceUsage() is the fallback: its maxRSS
// can include this test process's own peak (the child starts as a vfork of it), so it only errs high.
const GNU_TIME =
  process.platform === "linux" &&
  existsSync("/usr/bin/time") &&
  spawnSync("/usr/bin/time", ["-f", "%M", "true"]).status === 0;

/** The CLI in a child process, with its peak resident memory in MB. */
async function measured(args: string[], cwd: string, env: Record<string, string>, stdin: string) {
  const cmd = [...(GNU_TIME ? ["/usr/bin/time", "-f", "peak-kb %M"] : []), ...CLI, ...args];
  const proc = Bun.spawn(cmd, {
    cwd,
    env: cleanEnv(env),
    stdin: new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (!GNU_TIME) return { code, stdout, stderr: err, peakMB: (proc.resourceUsage()?.maxRSS ?? 0) / MB };
  const at = err.lastIndexOf("peak-kb "); // time's line comes last
  return { code, stdout, stderr: err.slice(0, at), peakMB: at < 0 ? NaN : Number(err.slice(at + 8)) / 1024 };
}

/** A user error: exit 1 with `message` on stderr. */
function refused(r: { code: number; stderr: string }, message: string): void {
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(message);
}

const counts = async (db: string) => ({
  snapshots: Number((await sql(db, "SELECT count(*) AS n FROM snapshots"))[0].n),
  tool_calls: Number((await sql(db, "SELECT count(*) AS n FROM tool_calls"))[0].n),
});

/** A Claude Code transcript of `mb` megabytes, written in chunks: a first prompt, then turns of an edit and a long result, a TodoWrite at the end. */
function bigTranscript(path: string, mb: number, cwd: string): void {
  const line = (o: unknown) => JSON.stringify(o) + "\n";
  const fd = openSync(path, "w");
  try {
    writeSync(
      fd,
      line({
        type: "user",
        sessionId: "sess-big",
        cwd,
        timestamp: "2026-11-21T10:00:00.000Z",
        message: { role: "user", content: "Port the billing job to Rust" },
      }),
    );
    const output = "cargo test output line\n".repeat(300); // ~7 KB of tool result per turn
    // The result line is the same but for its call's id: serialised once, the id put between its
    // halves (the same bytes, without 25,000 stringifies of 7 KB).
    const [resultHead, resultTail] = line({
      type: "user",
      sessionId: "sess-big",
      cwd,
      timestamp: "2026-11-21T10:01:01.000Z",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: "\0", content: output }] },
    }).split(JSON.stringify("\0").slice(1, -1));
    const turn = (n: number) =>
      line({
        type: "assistant",
        sessionId: "sess-big",
        cwd,
        timestamp: "2026-11-21T10:01:00.000Z",
        message: {
          role: "assistant",
          model: "claude-sonnet-4-5",
          content: [
            {
              type: "tool_use",
              id: `tu_${n}`,
              name: "Edit",
              input: { file_path: join(cwd, `src/job${n % 40}.rs`), old_string: "a", new_string: "b" },
            },
          ],
          usage: { input_tokens: 10, cache_read_input_tokens: 90_000, cache_creation_input_tokens: 10 },
        },
      }) + `${resultHead}tu_${n}${resultTail}`;
    let n = 0;
    for (let written = 0; written < mb * MB;) {
      let block = "";
      while (block.length < MB) block += turn(n++);
      writeSync(fd, block);
      written += block.length;
    }
    writeSync(
      fd,
      line({
        type: "assistant",
        sessionId: "sess-big",
        cwd,
        timestamp: "2026-11-21T11:00:00.000Z",
        message: {
          role: "assistant",
          content: [
            {
              type: "tool_use",
              id: "tu_todo",
              name: "TodoWrite",
              input: {
                todos: [
                  { content: "Port the invoice step", status: "completed" },
                  {
                    content: "Port the ledger step",
                    status: "in_progress",
                    activeForm: "Porting the ledger step",
                  },
                  { content: "Run the parity check", status: "pending" },
                ],
              },
            },
          ],
        },
      }),
    );
  } finally {
    closeSync(fd);
  }
}

describe("transcripts of any size, and paths that are not transcripts", () => {
  const bigs: string[] = [];
  afterAll(() => bigs.forEach((f) => rmSync(f, { force: true })));

  test(
    "stop and pre-compact on /dev/zero, a directory or a FIFO end at once, save nothing and stay small",
    async () => {
      const t = setup();
      await save(inDefaultHome(t), { goal: "Keep the store as it is" });
      const before = await counts(t.db);
      const fifo = join(t.base, "transcript.fifo");
      const hasFifo = spawnSync("mkfifo", [fifo]).status === 0; // nobody ever writes to it
      for (const path of ["/dev/zero", t.base, ...(hasFifo ? [fifo] : [])]) {
        for (const event of ["stop", "pre-compact", "session-end"]) {
          const r = await measured(
            ["hook", event],
            t.repo,
            t.pc.env,
            JSON.stringify({ session_id: "s", cwd: t.repo, transcript_path: path }),
          );
          expect(r.code).toBe(0);
          // PreCompact's output is the summariser's guide, from the store (the transcript gave nothing).
          if (event === "pre-compact") expect(r.stdout).toContain("Goal: Keep the store as it is\n");
          else expect(r.stdout).toBe("");
          expect(r.stderr).toBe("");
          expect(r.peakMB).toBeLessThan(200);
        }
      }
      expect(await counts(t.db)).toEqual(before);
      // ingest refuses what holds no transcript lines, without reading forever.
      refused(await run(["ingest", "/dev/zero"], t.at), "holds no transcript lines MindSave reads");
      expect(await counts(t.db)).toEqual(before);
    },
    T30,
  );

  test(
    "a 200 MB transcript: the goal from its head, the state from its tail, the newest calls logged, in bounded memory",
    async () => {
      const t = setup();
      const big = join(t.base, "huge-transcript.jsonl");
      bigs.push(big);
      bigTranscript(big, 200, t.repo);
      const pre = await measured(
        ["hook", "pre-compact"],
        t.repo,
        t.pc.env,
        JSON.stringify({ session_id: "sess-big", cwd: t.repo, transcript_path: big, trigger: "auto" }),
      );
      expect(pre).toMatchObject({ code: 0, stderr: "" });
      expect(pre.peakMB).toBeLessThan(200);
      const snap = await okJson(["load", "--latest"], t.at);
      // Its output is the summariser's guide, from the snapshot it just saved.
      expect(pre.stdout).toContain(`Goal: ${snap.layer1.goal}\n`);
      expect(snap.layer1).toMatchObject({
        goal: "Port the billing job to Rust",
        state: "In progress: Porting the ledger step (1/3 steps done)",
        next_action: "Port the ledger step",
      });
      const logged = (await counts(t.db)).tool_calls;
      expect(logged).toBeGreaterThan(100); // the tail window's calls…
      expect(logged).toBeLessThanOrEqual(MAX_TOOL_USES + 1); // …not the 25,000 of the whole file
      const stop = await measured(
        ["hook", "stop"],
        t.repo,
        t.pc.env,
        JSON.stringify({ session_id: "sess-big", cwd: t.repo, transcript_path: big }),
      );
      expect(stop).toMatchObject({ code: 0, stdout: "", stderr: "" });
      expect(stop.peakMB).toBeLessThan(200);
      expect((await counts(t.db)).tool_calls).toBe(logged); // the same calls again add nothing
      const facts = readTranscript(big);
      expect(facts.skipped_bytes).toBeGreaterThan(190 * MB);
      expect(facts.tool_uses.at(-1)?.name).toBe("TodoWrite");
    },
    T30,
  );

  test(
    "a file without newlines and a torn last line give what the whole lines say",
    () => {
      const t = setup();
      const flat = join(t.base, "flat.jsonl");
      bigs.push(flat);
      writeFileSync(flat, "x".repeat(20 * MB));
      expect(readTranscript(flat)).toMatchObject({ session_id: null, tool_uses: [], first_prompt: null });
      const torn = join(t.base, "torn.jsonl");
      writeFileSync(
        torn,
        JSON.stringify({
          type: "user",
          sessionId: "s1",
          message: { content: "hello\u0000 there\u001b[31m" },
        }) +
          "\n" +
          '{"type":"assistant","message":{"content":[{"type":"tool_u',
      );
      expect(readTranscript(torn)).toMatchObject({
        session_id: "s1",
        first_prompt: "hello there[31m",
        tool_uses: [],
      });
    },
    T30,
  );
});

describe("recall and token counting on long text", () => {
  test(
    "recall on a 1 MB Layer 3 of words and on 1 MB of one repeated word",
    async () => {
      const t = setup();
      const words = [
        "alpha",
        "bravo",
        "charlie",
        "delta",
        "echo",
        "foxtrot",
        "golf",
        "hotel",
        "india",
        "juliet",
      ];
      const prose = Array.from(
        { length: 180_000 },
        (_, i) => words[(i * 7 + (i >> 3)) % words.length] + (i % 13 === 12 ? ".\n" : " "),
      ).join("");
      expect(prose.length).toBeGreaterThan(MB);
      // Saved in this process (a CLI save of 1 MB costs ~1 s with the JIT off): recall is the subject.
      await saveText(inDefaultHome(t), `---\ngoal: Archive of words\n---\n${prose}\nzebrafish at the end\n`);
      await saveText(inDefaultHome(t), `---\ngoal: Archive of one word\n---\n${"needle ".repeat(150_000)}\n`);
      const one = await okJson(["recall", "golf", "bravo"], t.at);
      expect(one.hits.map((h: any) => h.goal)).toEqual(["Archive of words"]);
      expect(one.hits[0].context).toMatch(/«golf»|«bravo»/);
      expect((await okJson(["recall", "zebrafish"], t.at)).hits[0].context).toContain(
        "«zebrafish» at the end",
      );
      const needle = await okJson(["recall", "needle"], t.at);
      expect(needle.hits.map((h: any) => h.goal)).toEqual(["Archive of one word"]);
      expect(needle.hits[0].context).toContain("«needle» «needle»");
      expect(needle.hits[0].context.length).toBeLessThan(400);
      expect((await okJson(["recall", "needle needle"], t.at)).hits).toHaveLength(1);
      expect((await okJson(["recall", "dl"], t.at)).hits.map((h: any) => h.goal)).toEqual([
        "Archive of one word",
      ]); // a short term: instr()
    },
    T30,
  );

  test(
    "a 100 KB goal is refused with exit 1 before any counting, and the store is unchanged; a long Layer 2 item too",
    async () => {
      const t = setup();
      await save(inDefaultHome(t), { goal: "The first task" });
      const before = await dumpStore(t.db);
      refused(
        await run(["save", "--goal", "x".repeat(100_000)], t.at),
        "goal is 100,000 characters; Layer 1 fields are at most 8,192 (8 KB).",
      );
      const item = await run(["save"], {
        ...t.at,
        stdin: `goal: fine\nconstraints:\n  - ${"y".repeat(FIELD_MAX + 1)}\n`,
      });
      refused(item, "constraints[0] is 8,193 characters; Layer 2 items are at most 8,192");
      expect(item.stderr).toContain("Nothing was saved.");
      expect(await dumpStore(t.db)).toBe(before);
    },
    T30,
  );

  test(
    "a 100 KB unbroken Layer 3 saves and loads; a goal with special-token text is counted as text",
    async () => {
      const t = setup();
      const saved = await okJson(["save"], {
        ...t.at,
        stdin: `---\ngoal: Keep the blob\n---\n${"Q".repeat(100_000)}\n`,
      });
      expect(saved.saved).toBeTruthy();
      expect((await okJson(["load", "--latest"], t.at)).layer1.goal).toBe("Keep the blob");
      const special = await run(["save", "--goal", "Strip <|endoftext|> markers from the corpus"], t.at);
      expect(special.code).toBe(0);
    },
    T30,
  );

  test(
    "counting is linear on unbroken runs and exact on ordinary text",
    async () => {
      await loadTokenizer();
      const mod = await import("gpt-tokenizer/encoding/cl100k_base");
      for (const s of [
        "x".repeat(100_000),
        " ".repeat(100_000),
        "-=".repeat(50_000),
        "令牌".repeat(50_000),
        "😀".repeat(50_000),
      ]) {
        expect(countTokens(s)).toBeGreaterThan(0);
        // No segment holds a run of one kind longer than MAX_RUN.
        const cuts = [0, ...runCuts(s), s.length];
        for (let i = 1; i < cuts.length; i++) expect(cuts[i] - cuts[i - 1]).toBeLessThanOrEqual(MAX_RUN + 1); // +1: never inside a surrogate pair
      }
      const ordinary =
        "Refactor the auth module; keep the public API, add tests (see #42) — 修复令牌刷新的并发问题.\n".repeat(
          500,
        );
      expect(runCuts(ordinary)).toEqual([]);
      expect(countTokens(ordinary)).toBe(mod.countTokens(ordinary));
      expect(countTokens("a <|endoftext|> b")).toBe(
        mod.countTokens("a <|endoftext|> b", { disallowedSpecial: new Set() }),
      );
    },
    T30,
  );
});

describe("control characters never reach the store", () => {
  test(
    "a NUL in a goal (YAML, MCP) is removed: load and recall see the whole text",
    async () => {
      const t = setup();
      await okJson(["save"], {
        ...t.at,
        stdin:
          '---\ngoal: "before\\0after"\nstate: "red\\e[31m alert"\nconstraints: ["no\\x07 bells"]\n---\nbody with a \\0 kept as text\n',
      });
      const rows = await sql(t.db, "SELECT goal, state, constraints, layer3 FROM snapshots");
      expect(rows).toHaveLength(1);
      expect(rows[0].goal).toBe("beforeafter");
      expect(rows[0].state).toBe("red[31m alert");
      expect(JSON.parse(String(rows[0].constraints))).toEqual(["no bells"]);
      const loaded = await run(["load"], t.at);
      expect(loaded.stdout).toContain("goal: beforeafter");
      expect((await okJson(["recall", "beforeafter"], t.at)).hits).toHaveLength(1);
      expect((await okJson(["recall", "before"], t.at)).hits).toHaveLength(1);
    },
    T30,
  );

  test("the engine boundary: fromFields, applyFlags and the YAML reader strip C0 (but tab, newline, CR), DEL and C1", () => {
    const dirty = "a\u0000b\u0001c\u0008d\u000be\u000cf\u001bg\u007fh\u0085i\u009fj\tk\nl\rm";
    const clean = "abcdefghij\tk\nl\rm";
    const fields = fromFields(
      {
        goal: dirty,
        constraints: [dirty],
        failure_graph: { [dirty]: { reason: dirty } },
        extra_field: { nested: [dirty] },
      },
      dirty,
    );
    expect(fields.goal).toBe(clean);
    expect(fields.constraints).toEqual([clean]);
    expect(fields.failure_graph).toEqual({ [clean]: { reason: clean } });
    expect(fields.extra).toEqual({ extra_field: { nested: [clean] } });
    expect(fields.layer3).toBe(clean.trim());
    const flags = applyFlags(emptyInput(), { goal: dirty, constraint: [dirty], failed: [dirty] });
    expect(flags.goal).toBe(clean);
    expect(flags.excluded_paths).toEqual([clean]);
    expect(parseSnapshotText('goal: "x\\0y"').goal).toBe("xy");
    expect(() => fromFields({ goal: "g", deep: JSON.parse("[".repeat(200) + "]".repeat(200)) })).toThrow(
      "nested more than",
    );
  });
});

describe("the MCP server answers every line and keeps serving", () => {
  test(
    "a 12 MB line, a line that is not JSON and a request without jsonrpc each get an error; tools/list then answers",
    async () => {
      const t = setup();
      mkdirSync(t.home, { recursive: true });
      const proc = Bun.spawn([...CLI, "mcp"], {
        cwd: t.repo,
        env: cleanEnv(t.pc.env),
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
      });
      const lines: any[] = [];
      const waiting: { n: number; done: (() => void) | null } = { n: 0, done: null };
      const reading = (async () => {
        let buf = "";
        const decoder = new TextDecoder();
        for await (const chunk of proc.stdout) {
          buf += decoder.decode(chunk, { stream: true });
          for (let nl = buf.indexOf("\n"); nl !== -1; nl = buf.indexOf("\n")) {
            lines.push(JSON.parse(buf.slice(0, nl)));
            buf = buf.slice(nl + 1);
          }
          if (waiting.done && lines.length >= waiting.n) waiting.done();
        }
      })();
      /** Sends text and waits until the server has written `n` lines in all. */
      const send = async (text: string, n: number) => {
        const arrived = new Promise<void>((done) => Object.assign(waiting, { n, done }));
        for (let i = 0; i < text.length; i += MB) proc.stdin.write(text.slice(i, i + MB));
        await proc.stdin.flush();
        if (lines.length < n) await arrived;
        waiting.done = null;
      };
      const msg = (o: Record<string, unknown>) => JSON.stringify(o) + "\n";
      await send(
        msg({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "raw", version: "0" },
          },
        }),
        1,
      );
      await send(msg({ jsonrpc: "2.0", method: "notifications/initialized" }), 1);
      expect(lines[0]).toMatchObject({ jsonrpc: "2.0", id: 1, result: { serverInfo: { name: "mindsave" } } });

      // The SDK's client writes the id last: the server finds it at the end of the line it skipped.
      const huge = `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"save","arguments":{"goal":"big","layer3":"${"z".repeat(12 * MB)}"}},"id":2}\n`;
      await send(huge, 2);
      expect(lines[1]).toMatchObject({ jsonrpc: "2.0", id: 2, error: { code: -32600 } });
      expect(lines[1].error.message).toContain("at most 4194304 bytes");
      await send("this is not json\n", 3);
      expect(lines[2]).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32700, message: "Parse error: the line is not JSON" },
      });
      await send(msg({ id: 3, method: "tools/list" }), 4);
      expect(lines[3]).toMatchObject({ jsonrpc: "2.0", id: 3, error: { code: -32600 } });
      await send("[1, 2]\n", 5);
      expect(lines[4]).toMatchObject({ id: null, error: { code: -32600 } });
      await send(msg({ jsonrpc: "2.0", id: 4, method: "tools/list" }), 6);
      expect(lines[5].id).toBe(4);
      expect(lines[5].result.tools.map((x: any) => x.name).sort()).toEqual([
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
      // Control characters in arguments are removed on the way in; a 100 KB goal is a tool error.
      await send(
        msg({
          jsonrpc: "2.0",
          id: 5,
          method: "tools/call",
          params: { name: "save", arguments: { goal: "before\u0000after", layer3: "red\u001b[31m text" } },
        }),
        7,
      );
      expect(lines[6].result.isError).toBeFalsy();
      await send(
        msg({
          jsonrpc: "2.0",
          id: 6,
          method: "tools/call",
          params: { name: "save", arguments: { goal: "g".repeat(100_000) } },
        }),
        8,
      );
      expect(lines[7].result).toMatchObject({ isError: true });
      expect(lines[7].result.content[0].text).toContain("goal is 100,000 characters");
      proc.stdin.end();
      expect(await proc.exited).toBe(0);
      await reading;
      const rows = await sql(join(t.home, "mindsave.db"), "SELECT goal, layer3 FROM snapshots");
      expect(rows).toEqual([{ goal: "beforeafter", layer3: "red[31m text" }]);
    },
    T30,
  );
});

describe("control characters in what is saved", () => {
  test("are taken out with a warning that says how many, by flags and by YAML on stdin", async () => {
    const t = projectOnLaptop("mindsave-seven-");
    const byFlag = await t.okCli(["save", "--goal", "bel\u0007inside", "--blocker", "a\u0001b"]);
    expect(byFlag.stderr).toContain("warning: Took out 2 control characters (NUL, ESC and the like");
    expect((await t.json(["load", "--latest"])).layer1.goal).toBe("belinside");
    const byYaml = await t.okCli(["save"], { stdin: 'goal: "esc\\e[31m red"\nstate: s\n' });
    expect(byYaml.stderr).toContain("warning: Took out 1 control character (NUL");
    const clean = await t.okCli(["save", "--goal", "plain\ttab"]);
    expect(clean.stderr).not.toContain("control character");
  });
});
