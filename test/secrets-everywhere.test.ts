// No secret reaches the store by any path: fake secrets of every kind redaction knows (from
// test/secrets.ts: nothing real-looking is written in the repository) are sent through every entry
// point — save's flags and its YAML (values and keys), fail, import of a .mindsave/ folder, ingest,
// the hooks, the MCP server — and after each one the raw bytes of every file in the home (the
// store, its WAL, shared memory and journal) are searched for each secret. Then `mindsave scan`:
// it finds what an older version stored, names where and what kind without printing it, and
// `--fix` redacts it in place, leaves a backup, and leaves none of its bytes in any store file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { stringify } from "yaml";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI, git, gitRepo, laptop, ok, okJson, run, sql, tempDir, twoLaptops } from "./helpers.ts";
import { ANYWHERE, fakeSecrets } from "./secrets.ts";
import { atPlace, fail, hookAt, inClone, inRepo, save, storeFixture, syncAt } from "./engine-setup.ts";
import type { HookEvent } from "../src/engine/agents/kinds/kind.ts";
import type { SessionNote } from "../src/engine/agents/session-notes.ts";
import { defaultSignal, scrubSignal } from "../src/engine/agents/signal-row.ts";
import { redact, redactDeep } from "../src/engine/snapshots/redact.ts";
import { ingestTranscript } from "../src/engine/agents/ingest.ts";

const { fakes } = fakeSecrets(0x0dd5eed);
/** One secret of each kind, in the first sentence its kind is written in. */
const SECRETS = [...new Map(fakes.map((g) => g()).map((f) => [f.kind, f])).values()].map((f) => ({
  kind: f.kind,
  secret: f.secret,
  line: (f.lines ?? ANYWHERE)[0]!.replaceAll("{s}", f.secret),
}));
const LINES = SECRETS.map((s) => s.line);
/** Sentences on one line (for YAML keys, file paths and the like). */
const ONE_LINE = LINES.filter((l) => !l.includes("\n"));
const at = (i: number) => LINES[i % LINES.length]!;
const one = (i: number) => ONE_LINE[i % ONE_LINE.length]!;
const secretOf = (kind: string) => SECRETS.find((s) => s.kind === kind)!.secret;
const lineOf = (kind: string) => SECRETS.find((s) => s.kind === kind)!.line;

/**
 * What betrays a secret in raw bytes: the secret, its JSON-escaped form, each long line of a
 * multi-line one, and its longest run of letters and digits (a secret broken up, e.g. `_` made a
 * space, still shows it) and that run's ends.
 */
function needles(secret: string): string[] {
  const runs = secret.match(/[A-Za-z0-9]{16,}/g) ?? [];
  const longest = runs.sort((a, b) => b.length - a.length)[0];
  const lines = secret.split("\n").filter((l) => l.length >= 16);
  // Half a secret is a leak too (a text cut short through it): its run's first and last 16 characters.
  const halves = longest ? [longest, longest.slice(0, 16), longest.slice(-16)] : [];
  return [...new Set([secret, JSON.stringify(secret).slice(1, -1), ...lines, ...halves])];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** "kind in file" for every secret whose bytes are in a file under `dir` (backups aside unless asked). */
function leaks(dir: string, opts: { backups?: boolean; only?: (file: string) => boolean } = {}): string[] {
  const out: string[] = [];
  for (const file of filesUnder(dir)) {
    if (!opts.backups && /\.bak-/.test(basename(file))) continue;
    if (opts.only && !opts.only(file)) continue;
    const bytes = readFileSync(file);
    for (const s of SECRETS)
      if (needles(s.secret).some((n) => bytes.includes(n))) out.push(`${s.kind} in ${basename(file)}`);
  }
  return out;
}

test("the secrets: 15+ kinds, each recognised in its sentence", async () => {
  expect(SECRETS.length).toBeGreaterThanOrEqual(15);
  for (const s of SECRETS) expect(redact(s.line)).not.toContain(s.secret);
});

/** A laptop with its own home and a git workspace; `cli` runs in the workspace on that home. */
function fixture(prefix: string) {
  const dir = tempDir(prefix);
  const pc = laptop("vault", dir);
  const home = join(dir, "home");
  mkdirSync(home);
  const repo = gitRepo(join(dir, "shop"));
  const opts = { cwd: repo, env: pc.env };
  const cli = (args: string[], stdin?: string) => run([...args, "--home", home], { ...opts, stdin });
  return { base: dir, pc, home, db: join(home, "mindsave.db"), repo, opts, cli };
}

const { base, pc, home, repo, opts, cli } = fixture("mindsave-secrets-");
const rows = async (table: string) =>
  Number((await sql(join(home, "mindsave.db"), `SELECT count(*) AS n FROM ${table}`))[0]!.n);
const tags = () => readFileSync(join(home, "mindsave.db")).toString("latin1").split("[REDACTED:").length - 1;

/** A Claude Code transcript with every secret in a prompt, tool inputs, a TodoWrite list and file paths. */
function transcript(session: string, lines: string[]): string {
  const time = (n: number) => `2026-11-21T10:${String(n % 60).padStart(2, "0")}:00.000Z`;
  const line = (type: string, n: number, content: unknown, extra = {}) => ({
    type,
    sessionId: session,
    cwd: repo,
    timestamp: time(n),
    uuid: crypto.randomUUID(),
    message: { role: type, model: "claude-sonnet-4-5", content },
    ...extra,
  });
  const out: object[] = [line("user", 0, `Please fix the deploy. ${lines.slice(0, 2).join(" ")}`)];
  lines.forEach((l, i) => {
    const id = `${session}-${i}`;
    const [name, input] = (
      [
        ["Bash", { command: `deploy.sh && echo '${l}'`, description: l }],
        ["Read", { file_path: `${repo}/${l}` }],
        ["Edit", { file_path: `${repo}/${l}`, old_string: "a", new_string: l }],
        ["Grep", { pattern: l, path: repo }],
        ["WebFetch", { url: `https://example.com/fetch?doc=${l}`, prompt: l }],
        ["Task", { description: l, prompt: l }],
      ] as const
    )[i % 6]!;
    out.push(line("assistant", i + 1, [{ type: "tool_use", id, name, input }]));
    if (name === "Edit") {
      out.push(
        line("user", i + 1, [{ type: "tool_result", tool_use_id: id, content: "ok" }], {
          toolUseResult: { filePath: `${repo}/${l}`, structuredPatch: [{ lines: ["-a", `+${l}`] }] },
        }),
      );
    }
  });
  // Long commands are kept cut short (the tool log shows 300 characters, facts keep 1,000): a secret
  // the cut goes through must be redacted whole first, not cut in half past recognition.
  for (const [n, filler] of [
    [270, "x"],
    [975, "y"],
  ] as const) {
    out.push(
      line("assistant", 58, [
        {
          type: "tool_use",
          id: `${session}-long-${n}`,
          name: "Bash",
          input: {
            command: `${`${filler} `.repeat(n / 2)}${lineOf("github-pat")} ${lineOf("anthropic-api-key")}`,
          },
        },
      ]),
    );
  }
  const todos = lines.map((l, i) => ({
    content: l,
    activeForm: l,
    status: i === 0 ? "in_progress" : i % 3 ? "pending" : "completed",
  }));
  out.push(
    line("assistant", 59, [{ type: "tool_use", id: `${session}-todo`, name: "TodoWrite", input: { todos } }]),
  );
  const path = join(base, `${session}.jsonl`);
  writeFileSync(path, out.map((o) => JSON.stringify(o)).join("\n") + "\n");
  return path;
}

describe("no secret reaches the store, by any path", () => {
  test("save: every Layer 1 and Layer 2 flag", async () => {
    // 16 secrets a save (Layer 2 stays within its budget), until every one went through.
    for (let o = 0; o < LINES.length; o += 16) {
      const args = [
        "save",
        "--goal",
        at(o),
        "--state",
        at(o + 1),
        "--next",
        at(o + 2),
        "--blocker",
        at(o + 3),
        "--topic",
        one(o + 4),
      ];
      for (const [flag, from, n] of [
        ["--active-file", 5, 3],
        ["--constraint", 8, 3],
        ["--decision", 11, 3],
        ["--failed", 14, 2],
      ] as const) {
        for (let i = o + from; i < o + from + n; i++) args.push(flag, at(i));
      }
      expect((await cli(args)).code).toBe(0);
    }
    expect(await rows("snapshots")).toBe(Math.ceil(LINES.length / 16));
    expect(await rows("failures")).toBeGreaterThan(0);
    expect(tags()).toBeGreaterThan(10);
    expect(leaks(home)).toEqual([]);
  });

  test("save: YAML on stdin, values and keys (a failure_graph item, an unknown field kept in extra, Layer 3)", async () => {
    const fields = {
      goal: at(5),
      state: at(6),
      next_action: at(7),
      blocker: "none",
      active_files: [at(8), at(9)],
      constraints: [at(10), at(11)],
      decisions: [at(12), at(13)],
      failure_graph: Object.fromEntries(
        ONE_LINE.slice(0, 3).map((k, i) => [
          k,
          { reason: at(14 + i), alternatives: [at(20 + i)], related: [one(i + 1)] },
        ]),
      ),
      [one(7)]: at(26),
      custom_notes: { [one(8)]: [at(27), at(28)], deploy: at(29) },
    };
    const before = await rows("snapshots");
    const r = await cli(["save"], `---\n${stringify(fields)}---\n## Notes\n\n${LINES.join("\n\n")}\n`);
    expect(r).toMatchObject({ code: 0 });
    expect(await rows("snapshots")).toBe(before + 1);
    expect(leaks(home)).toEqual([]);
  });

  test("fail: item, reason, alternatives, related", async () => {
    for (let k = 0; k < 3; k++) {
      const args = ["fail", at(k * 7), "--reason", at(k * 7 + 1)];
      for (let i = 0; i < LINES.length; i++) args.push(i % 2 ? "--alt" : "--related", at(i + k));
      await ok([...args, "--home", home], opts);
    }
    expect(await rows("failure_links")).toBeGreaterThan(LINES.length);
    expect(leaks(home)).toEqual([]);
  });

  test("import of a .mindsave/ folder: snapshot files, failure nodes, tool logs, signal.json", async () => {
    const ws = gitRepo(join(base, "imported"));
    const seed = join(ws, ".mindsave");
    for (const d of ["snapshots", "failure_graph/project", "failure_graph/global", "tool_logs"])
      mkdirSync(join(seed, d), { recursive: true });
    const ghp = secretOf("github-pat");
    const front = (o: object, body: string) => `---\n${stringify(o)}---\n${body}\n`;
    writeFileSync(
      join(seed, "snapshots", `deploy_${ghp}_2026-11-20.md`),
      front(
        {
          created_at: "2026-11-20T09:00:00Z",
          goal: at(0),
          state: at(1),
          next_action: at(2),
          files: [at(3)],
          constraints: [at(4)],
          decisions: [at(5)],
          failure_graph: { [one(3)]: { reason: at(6), alternatives: [at(7)] } },
          [one(4)]: at(8),
        },
        LINES.join("\n\n"),
      ),
    );
    writeFileSync(
      join(seed, "snapshots", "second.md"),
      front(
        {
          snapshot_id: `fix_${secretOf("gitlab-pat")}_2026-11-21`,
          created_at: "2026-11-21T09:00:00Z",
          goal: at(9),
          excluded: [at(10)],
        },
        at(11),
      ),
    );
    LINES.forEach((l, i) =>
      writeFileSync(
        join(seed, "failure_graph", i % 2 ? "project" : "global", `node-${i}.json`),
        JSON.stringify({
          item: l,
          reason: at(i + 1),
          related: [at(i + 2)],
          alternatives: [at(i + 3)],
          repeat_count: 2,
          [one(i)]: at(i + 4),
        }),
      ),
    );
    writeFileSync(join(seed, "failure_graph", "project", `${ghp}.json`), JSON.stringify({ reason: at(12) }));
    writeFileSync(
      join(seed, "tool_logs", `${ghp}.jsonl`),
      LINES.map((l, i) =>
        JSON.stringify({
          timestamp: `2026-11-20T10:${String(i).padStart(2, "0")}:00Z`,
          action: "bash",
          tool: "Bash",
          target: l,
          summary: at(i + 1),
          note: at(i + 2),
        }),
      ).join("\n") + "\n",
    );
    writeFileSync(
      join(seed, "signal.json"),
      JSON.stringify({
        last_save: "2026-11-21T09:30:00Z",
        trigger_reason: at(13),
        tool_calls_since_save: 3,
        note: at(14),
      }),
    );
    const r = await okJson(["import", ws, "--home", home], opts);
    expect(r.snapshots.imported).toHaveLength(2);
    expect(r.failures.imported).toBeGreaterThan(0);
    expect(r.tool_calls.imported).toBe(LINES.length);
    expect(r.signal).toBe("imported");
    expect(leaks(home)).toEqual([]);
    // Imported again: nothing new (the redacted ids still match).
    const again = await okJson(["import", ws, "--home", home], opts);
    expect(again.snapshots.imported).toEqual([]);
    expect(again.tool_calls.imported).toBe(0);
  });

  test("ingest TRANSCRIPT: tool inputs, prompts, TodoWrite, file paths", async () => {
    const before = await rows("tool_calls");
    const r = await okJson(["ingest", transcript("ingest-session", LINES), "--home", home], opts);
    expect(r.added).toBe(LINES.length + 3);
    expect(await rows("tool_calls")).toBe(before + LINES.length + 3);
    expect(leaks(home)).toEqual([]);
  });

  test("the hooks: session-start, post-tool-use (tool_input), prompts and failures, stop, pre-compact, session-end (a transcript)", async () => {
    const hook = (event: string, payload: object) =>
      cli(["hook", event], JSON.stringify({ cwd: repo, hook_event_name: event, ...payload }));
    const snapshots = await rows("snapshots");
    const calls = await rows("tool_calls");
    const sessionId = one(5);
    const results = [await hook("session-start", { session_id: sessionId, source: "startup" })];
    for (let i = 0; i < 6; i++) {
      results.push(
        await hook("post-tool-use", {
          session_id: sessionId,
          tool_name: i % 2 ? "Write" : "Edit",
          tool_use_id: `ptu-${i}`,
          tool_input: {
            file_path: `${repo}/${one(i)}`,
            old_string: at(i),
            new_string: at(i + 1),
            content: at(i + 2),
            command: at(i + 3),
          },
          tool_response: { filePath: `${repo}/${one(i)}`, success: true },
        }),
      );
    }
    // What the user says (a correction becomes a constraint candidate) and what failed (the
    // command and the error; three times makes a failure-graph candidate) are noted per session.
    for (let i = 0; i < 3; i++) {
      results.push(
        await hook("user-prompt-submit", { session_id: sessionId, prompt: `No, I meant ${at(20 + i)}` }),
      );
      results.push(
        await hook("post-tool-use-failure", {
          session_id: sessionId,
          tool_name: "Bash",
          tool_input: { command: at(23) },
          error: `Exit code 1\n${at(24 + i)}`,
        }),
      );
    }
    results.push(
      await hook("stop", {
        session_id: sessionId,
        transcript_path: transcript("hook-stop", LINES),
        stop_hook_active: false,
      }),
    );
    results.push(
      await hook("pre-compact", {
        session_id: sessionId,
        transcript_path: transcript("hook-compact", [...LINES].reverse()),
        trigger: "auto",
      }),
    );
    results.push(
      await hook("session-end", {
        session_id: sessionId,
        transcript_path: transcript("hook-end", [...LINES.slice(3), ...LINES.slice(0, 3)]),
        reason: "exit",
      }),
    );
    for (const r of results) expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(await rows("snapshots")).toBeGreaterThan(snapshots);
    expect(await rows("tool_calls")).toBeGreaterThan(calls);
    expect(leaks(home)).toEqual([]);
  });

  describe("the MCP server", () => {
    let client: Client;
    beforeAll(async () => {
      const transport = new StdioClientTransport({
        command: CLI[0]!,
        args: [...CLI.slice(1), "mcp", "--home", home],
        cwd: base,
        env: { ...pc.env, NO_COLOR: "1", CLAUDE_PROJECT_DIR: repo },
        stderr: "pipe",
      });
      client = new Client({ name: "mindsave-secrets-test", version: "0.0.0" });
      await client.connect(transport);
    });
    afterAll(() => client?.close());

    test("tools save (every field) and fail", async () => {
      const call = async (name: string, args: Record<string, unknown>) => {
        const r = (await client.callTool({ name, arguments: args })) as {
          isError?: boolean;
          content: { text?: string }[];
        };
        expect(r.isError ? r.content.map((c) => c.text).join("\n") : "").toBe("");
      };
      const snapshots = await rows("snapshots");
      await call("save", {
        goal: at(15),
        state: at(16),
        next_action: at(17),
        active_files: [at(18), at(19)],
        blocker: at(20),
        constraints: [at(21), at(22)],
        decisions: [at(23), at(24)],
        failed: [at(25), at(26)],
        topic: one(9),
        layer3: LINES.join("\n\n"),
      });
      await call("fail", {
        item: at(27),
        reason: at(28),
        alternatives: LINES.slice(0, 12),
        related: LINES.slice(12),
      });
      expect(await rows("snapshots")).toBe(snapshots + 1);
      expect(leaks(home)).toEqual([]);
    });
  });

  test("a remote URL with credentials: the project keeps it without them", async () => {
    const ws = gitRepo(join(base, "remote"));
    git(ws, "remote", "add", "origin", `https://deploy:${secretOf("github-pat")}@github.com/acme/shop.git`);
    await ok(["save", "--goal", "Ship the billing page", "--home", home], { cwd: ws, env: pc.env });
    expect(leaks(home)).toEqual([]);
  });
});

/** Plants secrets the way an older MindSave would have stored them: straight into the rows. */
async function plant(db: string): Promise<void> {
  const [snap] = await sql(
    db,
    "SELECT id, failure_graph FROM snapshots WHERE deleted = 0 ORDER BY created_at DESC LIMIT 1",
  );
  const graph = { ...JSON.parse(String(snap!.failure_graph)), [one(0)]: { reason: at(1) } };
  await sql(
    db,
    "UPDATE snapshots SET goal = goal || ' ' || ?, layer3 = ?, failure_graph = ?, extra = ?, constraints = json_insert(constraints, '$[#]', ?) WHERE id = ?",
    [
      one(2),
      LINES.join("\n\n"),
      JSON.stringify(graph),
      JSON.stringify({ [one(3)]: at(4), notes: { deep: [at(5)] } }),
      at(6),
      snap!.id,
    ],
  );
  await sql(db, "UPDATE failures SET reason = ? WHERE rowid = (SELECT min(rowid) FROM failures)", [at(7)]);
  await sql(
    db,
    "UPDATE failures SET item = ?, reason = ?, deleted = 1 WHERE rowid = (SELECT max(rowid) FROM failures)",
    [one(8), at(9)],
  );
  await sql(db, "UPDATE failure_links SET value = ? WHERE rowid = (SELECT min(rowid) FROM failure_links)", [
    at(10),
  ]);
  await sql(db, "UPDATE tool_calls SET target = ?, summary = ?, session_id = ?", [at(11), at(12), one(13)]);
  await sql(
    db,
    "UPDATE signals SET data = json_set(data, '$.trigger_reason', ?, '$.session_files', json_array(?))",
    [at(14), one(15)],
  );
  await sql(db, "UPDATE projects SET remote = ?", [
    `https://deploy:${secretOf("password")}@git.example.com/acme/shop.git`,
  ]);
  await sql(db, "INSERT INTO sync_peers(store_id, location) VALUES ('peer-1', ?)", [
    `https://sync.example.com/db?token=${secretOf("jwt")}`,
  ]);
}

describe("mindsave scan", () => {
  // A store with a snapshot, a failure and a tool call, built once in this process through the
  // engine's use cases (`save`, `fail`, `ingest`) and copied for each test; scan is the CLI's.
  const filled = storeFixture("mindsave-scan-", async (s) => {
    await save(inRepo(s), { goal: "Ship the billing page", failed: ["Stripe Elements: too heavy"] });
    await fail(inRepo(s), "Moment.js", "too big", { alternatives: ["date-fns"], related: ["bundle size"] });
    const t = join(s.repo, "..", "t.jsonl");
    writeFileSync(
      t,
      JSON.stringify({
        type: "assistant",
        sessionId: "s1",
        cwd: s.repo,
        timestamp: "2026-11-21T10:00:00Z",
        message: { content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "bun test" } }] },
      }) + "\n",
    );
    await atPlace(inRepo(s), (x) => ingestTranscript(x, t));
  });

  test("scan reads every column of the schema that can hold free text", async () => {
    const s = await filled();
    const { SCAN_TABLES } = await import("../src/store/scan.ts");
    const { SYNCED_TABLES } = await import("../src/store/migrations.ts");
    // Ids, clocks, times and checked values; hosts and roots are written again by every command from the machine itself.
    const notFreeText: Record<string, string[]> = {
      hosts: ["*"],
      roots: ["*"],
      failure_counts: ["*"],
      signals: [],
      projects: ["identity", "created_at", "merged_into"],
      // line_tokens: counts this store made of the lines (JSON numbers; a peer's are never taken).
      snapshots: ["kind", "status", "created_at", "version", "saved_host", "saved_agent", "line_tokens"],
      failures: ["scope", "rejected_by", "confidence", "schema_version", "first_seen", "last_seen"],
      failure_links: ["failure_id", "kind"],
      tool_calls: [],
      sync_peers: ["store_id", "last_sync"],
      rules: ["scope", "created_at"],
      facts: ["scope", "confidence", "created_at", "confirmed_at", "expires_at"],
      retirements: ["kind", "retired_at"],
      off_switches: ["scope", "host_id", "off_at"],
    };
    const missed: string[] = [];
    for (const t of [...SYNCED_TABLES.map((x) => x.name), "sync_peers"]) {
      const skip = new Set(["id", "hlc", "host", "project_id", ...(notFreeText[t] ?? [])]);
      const scanned = SCAN_TABLES.find((x) => x.name === t);
      for (const col of await sql(s.db, `PRAGMA table_info(${t})`)) {
        const name = String(col.name);
        if (String(col.type).toUpperCase() !== "TEXT" || skip.has("*") || skip.has(name)) continue;
        if (!scanned || ![...scanned.text, ...scanned.json].includes(name)) missed.push(`${t}.${name}`);
      }
    }
    expect(missed).toEqual([]);
  });

  test("a clean store: exit 0", async () => {
    const s = await filled();
    const r = await s.cli(["scan"]);
    expect(r).toMatchObject({ code: 0 });
    expect(r.stdout).toContain("No secrets found");
    expect((await s.cli(["scan", "--json"])).stdout).toContain('"clean": true');
  });

  test("finds what an older version stored: table, record, field, kind, a masked preview; never the secret; exit 1", async () => {
    const s = await filled();
    await plant(s.db);
    expect(leaks(s.home).length).toBeGreaterThan(10); // planted for real
    const text = await s.cli(["scan"]);
    expect(text.code).toBe(1);
    const json = await s.cli(["scan", "--json"]);
    expect(json.code).toBe(1);
    for (const out of [text.stdout + text.stderr, json.stdout + json.stderr]) {
      for (const sec of SECRETS) for (const n of needles(sec.secret)) expect(out).not.toContain(n);
    }
    const r = JSON.parse(json.stdout);
    expect(r.clean).toBe(false);
    expect(new Set(r.findings.map((f: any) => f.table))).toEqual(
      new Set(["snapshots", "failures", "failure_links", "tool_calls", "signals", "projects", "sync_peers"]),
    );
    const fields = r.findings.map((f: any) => `${f.table}.${f.field}`);
    for (const f of [
      "snapshots.goal",
      "snapshots.layer3",
      "failures.reason",
      "failures.item",
      "failure_links.value",
      "tool_calls.target",
      "tool_calls.session_id",
      "signals.data.trigger_reason",
      "projects.remote",
      "sync_peers.location",
    ]) {
      expect(fields).toContain(f);
    }
    expect(fields.some((f: string) => /^snapshots\.failure_graph\..* \(key\)$/.test(f))).toBe(true);
    expect(fields.some((f: string) => /^snapshots\.extra\..* \(key\)$/.test(f))).toBe(true);
    expect(r.findings.find((f: any) => f.table === "failures" && f.field === "item").deleted).toBe(true);
    expect(new Set(r.findings.map((f: any) => f.kind)).size).toBeGreaterThanOrEqual(15);
    expect(r.findings.find((f: any) => f.kind === "github-pat").preview).toMatch(/^ghp_…\(\d+\)$/);
    expect(text.stdout).toContain("github-pat");
    expect(text.stdout).toMatch(/ghp_…\(\d+\)/);
    expect(text.stdout).toContain("mindsave scan --fix");
  });

  test("--fix: redacted in place after a backup; no store file keeps a byte of them; the store still works", async () => {
    const s = await filled();
    await plant(s.db);
    const r = await s.cli(["scan", "--fix", "--json"]);
    expect(r.code).toBe(0);
    const fix = JSON.parse(r.stdout);
    expect(fix.findings.length).toBeGreaterThan(20);
    expect(fix.compacted).toBe(true);
    expect(basename(fix.backup)).toMatch(/^mindsave\.db\.bak-\d{8}T\d{6}Z$/);
    expect(leaks(s.home, { only: (f) => f === fix.backup, backups: true }).length).toBeGreaterThan(10); // the backup keeps them
    expect(leaks(s.home)).toEqual([]); // mindsave.db, -wal, -shm, -journal: none
    expect(await s.cli(["scan"])).toMatchObject({ code: 0 });
    // The search index was rewritten too, and still finds the rest.
    const hits = await s.json(["recall", "billing"]);
    expect(hits.hits).toHaveLength(1);
    expect(JSON.stringify(hits)).toContain("[REDACTED:");
    expect((await s.json(["recall", secretOf("github-pat").slice(4, 20)])).hits).toEqual([]);
    expect((await s.json(["load", "--latest"])).layer1.goal).toStartWith(
      "Ship the billing page Found [REDACTED:",
    );
    const failures = await s.json(["failures"]);
    expect(JSON.stringify(failures)).toContain("[REDACTED:");
    expect((await sql(s.db, "SELECT count(*) AS n FROM failures WHERE deleted = 1"))[0]!.n).toBe(1);
    // A clean store: --fix changes nothing and makes no backup.
    const again = JSON.parse((await s.cli(["scan", "--fix", "--json"])).stdout);
    expect(again).toMatchObject({ findings: [], backup: null });
  });

  test("--fix keeps the last 3 backups", async () => {
    const s = await filled();
    const backups = () =>
      readdirSync(s.home)
        .filter((f) => f.startsWith("mindsave.db.bak-"))
        .sort();
    const made: string[] = [];
    for (let i = 0; i < 4; i++) {
      await sql(s.db, "UPDATE snapshots SET goal = ?", [at(i)]);
      made.push(basename(JSON.parse((await s.cli(["scan", "--fix", "--json"])).stdout).backup));
    }
    expect(backups()).toEqual(made.slice(1).sort());
  });

  test("--fix on an encrypted store: the backup is encrypted too, its key file beside it", async () => {
    const s = await filled();
    await plant(s.db);
    const env = { ...s.pc.env, MINDSAVE_PASSPHRASE: "correct horse battery staple" };
    const c = (args: string[]) => run([...args, "--home", s.home], { cwd: s.repo, env });
    expect((await c(["encrypt"])).code).toBe(0);
    for (const f of readdirSync(s.home).filter((f) => f.startsWith("mindsave.db.bak-")))
      rmSync(join(s.home, f)); // encrypt's own backup: plain
    const r = await c(["scan", "--fix", "--json"]);
    expect(r.code).toBe(0);
    const fix = JSON.parse(r.stdout);
    expect(fix.findings.length).toBeGreaterThan(20);
    expect(existsSync(`${fix.backup}.key.json`)).toBe(true);
    expect(readFileSync(fix.backup).subarray(0, 15).toString()).not.toBe("SQLite format 3");
    expect(leaks(s.home, { backups: true })).toEqual([]); // encrypted: no plain bytes anywhere
    expect((await c(["scan"])).code).toBe(0);
  });

  test("a synced store: the fix travels to the peers", async () => {
    const w = twoLaptops("mindsave-scan-sync-");
    await save(inClone(w.a), { goal: "Ship the billing page" });
    await plant(w.a.db);
    // What was planted reaches B in this process; the syncs after the fix are the CLI's.
    await syncAt(inClone(w.a), w.drive);
    await syncAt(inClone(w.b), w.drive);
    expect((await w.b.cli(["scan"])).code).toBe(1);
    expect((await w.a.cli(["scan", "--fix"])).code).toBe(0);
    await w.a.json(["sync", w.drive]);
    await w.b.json(["sync", w.drive]);
    const onB = await w.b.cli(["scan", "--json"]);
    // Only what never travels (this store's own peer list) can remain on B: it was never synced.
    expect(JSON.parse(onB.stdout).findings).toEqual([]);
    expect((await w.b.cli(["scan", "--fix"])).code).toBe(0);
    expect(leaks(w.b.home)).toEqual([]);
  });
});

describe("the signal row", () => {
  // A project with one save, built in this process; the hooks then run in it as the CLI runs them.
  const project = storeFixture("mindsave-signal-", async (t) => {
    await save(inRepo(t), { goal: "Ship the billing page" });
  });

  test("a secret in every outside field of the hooks' payloads never reaches it", async () => {
    const t = await project();
    const sessionId = one(5);
    const payloads: [HookEvent, Record<string, unknown>][] = [
      ["session-start", { source: one(6), model: one(7) }],
      [
        "post-tool-use",
        {
          tool_name: one(8),
          tool_input: { file_path: `${t.repo}/${one(9)}`, command: at(10) },
          tool_response: { success: true },
        },
      ],
      ["user-prompt-submit", { prompt: `No, I meant ${at(11)}` }],
      [
        "post-tool-use-failure",
        { tool_name: "Bash", tool_input: { command: at(12) }, error: `Exit code 1\n${at(13)}` },
      ],
    ];
    for (const [event, p] of payloads)
      await hookAt(t, undefined, event, { session_id: sessionId, cwd: t.repo, hook_event_name: event, ...p });
    const data = String((await sql(t.db, "SELECT data FROM signals WHERE deleted = 0"))[0]!.data);
    expect(SECRETS.filter((s) => needles(s.secret).some((n) => data.includes(n))).map((s) => s.kind)).toEqual(
      [],
    );
    // What came from outside is there, redacted: the session, its model, its failed command.
    const signal = JSON.parse(data);
    // The session is kept by a hash of its id, one key for all four hooks (its redaction would be a tag).
    expect(signal.session_id).toMatch(/^session_[0-9a-f]{24}$/);
    expect(Object.keys(signal.sessions)).toEqual([signal.session_id]);
    const notes = Object.values(signal.sessions) as SessionNote[];
    expect(notes.map((n) => n.model).filter(Boolean)).toEqual([redact(one(7))]);
    expect(notes.flatMap((n) => Object.values(n.failures ?? {})).map((f) => f.target)).toEqual([
      redact(at(12)),
    ]);
  });

  test("a session id the scan would redact is one session to every hook, never stored as it is", async () => {
    const t = await project();
    // A JWT-shaped id: the scan replaces it with a tag, so a note keyed by it was never found again.
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const signature = "q3Vx8Lr2Tz9NwKc5YhE1uPj7DmA4sGf6bXo0WiZtRnQ";
    const sessionId = `${part({ alg: "HS256", typ: "JWT" })}.${part({ sid: "agent-7f3a91c2", iat: 1795000000 })}.${signature}`;
    expect(redact(sessionId)).not.toBe(sessionId);
    const failure = {
      session_id: sessionId,
      cwd: t.repo,
      hook_event_name: "PostToolUseFailure",
      tool_name: "Bash",
      tool_input: { command: "bun test test/billing.test.ts" },
      error: "Exit code 1",
    };
    // The hooks as the agent runs them: one process per call, the store read afresh each time.
    for (let i = 0; i < 3; i++)
      await t.okCli(["hook", "post-tool-use-failure"], { stdin: JSON.stringify(failure) });
    const data = String((await sql(t.db, "SELECT data FROM signals WHERE deleted = 0"))[0]!.data);
    const notes = Object.values(JSON.parse(data).sessions) as SessionNote[];
    // One note with the call counted three times: what makes it a failure-graph candidate.
    expect(notes.map((n) => Object.values(n.failures ?? {}).map((f) => f.count))).toEqual([[3]]);
    const files = readdirSync(t.home).filter((f) => f.startsWith("mindsave.db"));
    expect(files.filter((f) => readFileSync(join(t.home, f)).toString("latin1").includes(signature))).toEqual(
      [],
    );
  });

  test("its own field names and times are kept as redaction would keep them; the rest is redacted", () => {
    const time = "2026-11-21T10:00:00.000Z";
    const note: Required<SessionNote> = {
      model: one(1),
      no_save: true,
      constraints: [at(2)],
      failures: { [one(3)]: { tool: "Bash", target: one(4), count: 2, reason: at(5), recorded: 1 } },
      red_at: time,
      red_turn: 3,
      restored: time,
      trail: { first_prompt: at(6), tools: [{ name: "Bash", target: one(7), at: time }] },
      warned: [one(8)],
      asked: ["yellow"],
      pending_ask: ["red"],
      steps_unread: true,
      done_steps: [one(9)],
      plan_read_to: 10,
      restore_due: false,
      fired: { SessionStart: { at: time, via: "claude" } },
      seen: time,
    };
    const row = {
      ...defaultSignal(),
      last_save: time,
      updated_at: time,
      trigger_reason: at(10),
      recent_tool_calls: [time, one(11)],
      session_id: one(12),
      session_files: [one(13)],
      last_emergency_time: time,
      last_emergency_turn: 4,
      sessions: { [one(12)]: note, estimated_tokens_ratio: note },
    };
    const scrubbed = scrubSignal(row);
    expect(scrubbed).toEqual(redactDeep(row));
    expect(JSON.stringify(scrubbed)).not.toContain(secretOf("github-pat"));
  });
});
