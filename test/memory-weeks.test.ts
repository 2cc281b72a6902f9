// Memory over weeks (issue 16): standing rules, retiring what is wrong, facts that expire, the plan
// kept whole, what changed between snapshots, tags — through the real CLI, synced between laptops,
// exported and imported.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import {
  childEnv,
  dumpStore,
  gitRepo,
  laptop,
  ok,
  okJson,
  run,
  sql,
  tempDir,
  twoLaptops,
} from "./helpers.ts";
import { Session } from "../src/engine/session.ts";
import { recordFailure } from "../src/engine/failures/record.ts";
import { events, payload, Transcript } from "./claude-fixtures.ts";
import { addFact } from "../src/engine/memory/facts.ts";
import { removeRule } from "../src/engine/memory/rules.ts";
import { retire } from "../src/engine/memory/retire.ts";
import { markStep } from "../src/engine/memory/plan.ts";
import {
  addRuleAt,
  atPlace,
  fail,
  inClone,
  save,
  saveText,
  setPlanAt,
  syncAt,
  type Place,
} from "./engine-setup.ts";

/** A fresh laptop with one git project; `cli` runs there. */
function project(files?: Record<string, string>) {
  const base = tempDir("mindsave-weeks-");
  const repo = gitRepo(join(base, "shop"), files);
  const pc = laptop("week-laptop", base);
  const home = join(base, "home");
  mkdirSync(home);
  const opts = { cwd: repo, env: pc.env };
  const cli = (args: string[], stdin?: string) => run([...args, "--home", home], { ...opts, stdin });
  const okc = (args: string[], stdin?: string) => ok([...args, "--home", home], { ...opts, stdin });
  const json = (args: string[], stdin?: string) => okJson([...args, "--home", home], { ...opts, stdin });
  /** Records failures through the engine in this process (what `mindsave fail` runs): setup, not what is tested. */
  const fail = async (
    items: { item: string; reason: string; rejected_by?: string; confidence?: string }[],
  ) => {
    const session = await Session.open({ home, cwd: repo, env: childEnv(pc.env) }, { write: true });
    try {
      for (const f of items) await recordFailure(session, { ...f, increment: true });
    } finally {
      await session.close();
    }
  };
  const place: Place = { home, cwd: repo, env: pc.env };
  return { base, repo, home, db: join(home, "mindsave.db"), place, cli, ok: okc, json, fail };
}

const load = async (p: ReturnType<typeof project>) => (await p.ok(["load", "--latest"])).stdout;

describe("standing rules", () => {
  test("a rule is restored first and survives trimming at 800 tokens; one over the 150-token budget is refused, store unchanged", async () => {
    const p = project();
    // Enough Layer 2 and failures that the block must leave things out.
    const decisions = Array.from(
      { length: 12 },
      (_, i) =>
        `decision ${i + 1}: ${"keep the payment adapters behind one interface and test each with recorded fixtures ".repeat(1)}`,
    );
    await save(p.place, {
      goal: "Ship the checkout",
      state: "cart done",
      next: "payment form",
      decision: decisions,
    });
    await p.fail(
      Array.from({ length: 40 }, (_, i) => ({
        item: `approach number ${i} for the payment retry logic`,
        reason: "it double-charged the card in the sandbox when the network flapped",
        rejected_by: "system",
      })),
    );
    await addRuleAt(p.place, "Never push to main; open a pull request");
    await addRuleAt(p.place, "Answer in English even when asked in Chinese", "global");
    const block = await p.json(["load", "--latest"]);
    const text: string = block.restore_block;
    expect(block.tokens).toBeLessThanOrEqual(800);
    expect(text).toContain("Left out to stay within 800 tokens");
    const rulesAt = text.indexOf("## Standing rules (always apply)");
    expect(rulesAt).toBeGreaterThan(0);
    expect(rulesAt).toBeLessThan(text.indexOf("## Layer 1"));
    expect(text).toContain(
      "- Answer in English even when asked in Chinese\n- Never push to main; open a pull request",
    );

    const before = await dumpStore(p.db);
    const long = await p.cli(["rules", "add", Array.from({ length: 90 }, (_, i) => `word${i}`).join(" ")]);
    expect(long.code).toBe(1);
    expect(long.stderr).toMatch(
      /^mindsave: This rule would make the rules \d+ tokens, over their 150-token budget \(now \d+ tokens in 2 rule\(s\)\), so nothing was changed: shorten it, or remove a rule first \(`mindsave rules list`\)\.\n$/,
    );
    expect(await dumpStore(p.db)).toBe(before);

    const list = await p.json(["rules", "list"]);
    expect(list.rules.map((r: any) => [r.number, r.scope, r.text])).toEqual([
      [1, "global", "Answer in English even when asked in Chinese"],
      [2, "project", "Never push to main; open a pull request"],
    ]);
    await p.ok(["rules", "remove", "2"]);
    expect(await load(p)).not.toContain("Never push to main");
    expect((await p.cli(["rules", "remove", "9"])).stderr).toContain(
      "There is no rule number 9; give 1 (there is only one rule) or a piece of its text",
    );
  });

  test("a piece of a rule's text names it after the numbers moved (a global rule arrived); one that fits two is refused, nothing written", async () => {
    const p = project();
    await addRuleAt(p.place, "Never push to main; open a pull request");
    await addRuleAt(p.place, "Run the linter before a commit");
    expect((await p.json(["rules", "list"])).rules.map((r: any) => [r.number, r.text])).toEqual([
      [1, "Never push to main; open a pull request"],
      [2, "Run the linter before a commit"],
    ]);
    // Another host's global rule (as a sync brings it) goes first: "1" now names that one.
    await addRuleAt(p.place, "Answer in English", "global");
    const edited = await p.json(["rules", "edit", "LINTER", "Run the linter and the tests before a commit"]);
    expect(edited.edited).toMatchObject({
      number: 3,
      text: "Run the linter and the tests before a commit",
      scope: "project",
    });
    expect((await p.ok(["rules", "remove", "push to main"])).stdout).toBe(
      "Removed project rule: Never push to main; open a pull request\n",
    );
    expect((await p.json(["rules", "list"])).rules.map((r: any) => r.text)).toEqual([
      "Answer in English",
      "Run the linter and the tests before a commit",
    ]);

    const before = await dumpStore(p.db);
    const amb = await p.cli(["rules", "remove", "e"]);
    expect([amb.code, amb.stderr]).toEqual([
      1,
      'mindsave: "e" matches 2 items: 1. Answer in English; 2. Run the linter and the tests before a commit. Give its number or more of its text.\n',
    ]);
    const none = await p.cli(["rules", "remove", "deploy on Fridays"]);
    expect([none.code, none.stderr]).toEqual([
      1,
      'mindsave: No rule says "deploy on Fridays"; see `mindsave rules list` for the list.\n',
    ]);
    expect(await dumpStore(p.db)).toBe(before);
  });
});

describe("standing rules without a snapshot", () => {
  test("session start in a project with no snapshot yet still injects the rules that apply", async () => {
    const p = project();
    await addRuleAt(p.place, "Answer in English", "global");
    const r = await p.cli(
      ["hook", "session-start"],
      JSON.stringify({ session_id: "s1", cwd: p.repo, hook_event_name: "SessionStart", source: "startup" }),
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.hookSpecificOutput.hookEventName).toBe("SessionStart");
    expect(out.hookSpecificOutput.additionalContext).toBe(
      "# MindSave: standing rules\n\n## Standing rules (always apply)\n- Answer in English\n\n(No snapshot of this project yet: `mindsave save` writes one.)",
    );
  });
});

describe("retire", () => {
  test("a retired constraint is not carried by the next automatic snapshot nor restored — on another host after sync too — and stays searchable", async () => {
    const w = twoLaptops();
    await save(inClone(w.a), {
      goal: "Add rate limiting to login",
      next: "wire the limiter",
      constraint: ["no new dependencies", "keep the API backwards compatible"],
      decision: ["token bucket per IP"],
    });
    const list = await w.a.json(["retire"]);
    expect(list.candidates.map((c: any) => `${c.number} ${c.kind} ${c.text}`)).toEqual([
      "1 constraint no new dependencies",
      "2 constraint keep the API backwards compatible",
      "3 decision token bucket per IP",
    ]);
    await w.a.cli(["retire", "1", "--reason", "we may add zod now"]);

    // Claude Code compacts on laptop A: the automatic snapshot copies Layer 2 from the newest one.
    const tr = new Transcript(w.base, w.a.repo, "sess-a");
    tr.prompt("Add rate limiting to login");
    tr.todos(
      [{ content: "Wire the limiter", status: "in_progress", activeForm: "Wiring the limiter" }],
      90_000,
    );
    const hook = await w.a.cli(["hook", "pre-compact"], {
      stdin: JSON.stringify(
        payload(
          "PreCompact",
          { sessionId: "sess-a", path: tr.path, cwd: w.a.repo },
          events.preCompact("auto"),
        ),
      ),
    });
    expect(hook.code).toBe(0);
    const autos = await sql(
      w.a.db,
      "SELECT constraints, auto_trigger FROM snapshots WHERE deleted = 0 AND auto_trigger IS NOT NULL",
    );
    expect(autos.length).toBe(1);
    expect(JSON.parse(String(autos[0].constraints))).toEqual(["keep the API backwards compatible"]);
    expect((await w.a.cli(["load", "--latest"])).stdout).not.toContain("no new dependencies");

    // Laptop B had the first snapshot before the retirement arrived: after sync it restores without it.
    await syncAt(inClone(w.a), w.drive);
    await syncAt(inClone(w.b), w.drive);
    const onB = (await w.b.cli(["load", "1"])).stdout;
    expect(onB).toContain("keep the API backwards compatible");
    expect(onB).not.toContain("no new dependencies");
    const oldest = (await w.b.cli(["load", "2"])).stdout;
    expect(oldest).toContain("token bucket per IP");
    expect(oldest).not.toContain("no new dependencies");
    const found = await w.b.json(["recall", "dependencies"]);
    expect(found.retired).toEqual([
      {
        kind: "constraint",
        text: "no new dependencies",
        reason: "we may add zod now",
        retired_at: expect.stringMatching(/^\d{4}-/),
        retired_by: "laptop-a",
      },
    ]);
    // Undone on B, it may be carried again.
    await w.b.cli(["retire", "--undo", "1"]);
    await save(inClone(w.b), { goal: "Add rate limiting to login", constraint: ["no new dependencies"] });
    expect((await w.b.cli(["load", "--latest"])).stdout).toContain("- no new dependencies");
  });

  test("an ambiguous or unknown item is refused with the candidates, nothing written", async () => {
    const p = project();
    await save(p.place, {
      goal: "Build the API",
      constraint: ["use postgres for orders", "use postgres for users"],
    });
    const before = await dumpStore(p.db);
    const amb = await p.cli(["retire", "postgres"]);
    expect(amb.code).toBe(1);
    expect(amb.stderr).toContain(
      '"postgres" matches 2 items: 1. [constraint] use postgres for orders; 2. [constraint] use postgres for users. Give its number or more of its text.',
    );
    const none = await p.cli(["retire", "mysql"]);
    expect(none.stderr).toContain('No constraint or decision says "mysql"');
    expect(await dumpStore(p.db)).toBe(before);
  });
});

describe("facts", () => {
  test("a fresh fact is restored between failures and decisions; an expired one never is, and facts --stale offers renew or drop", async () => {
    const p = project();
    await save(p.place, { goal: "Migrate the orders table", decision: ["copy in batches of 10k"] });
    await fail(p.place, "ALTER TABLE in place", "locks orders for minutes");
    await atPlace(p.place, (s) =>
      addFact(s, "staging DB is read-only until Friday", { ttl: "3d", confidence: "high" }),
    );
    await atPlace(p.place, (s) => addFact(s, "the replica lags 2 minutes", { ttl: "2h" }));
    const block = await load(p);
    const at = (s: string) => block.indexOf(s);
    expect(at("staging DB is read-only until Friday [high")).toBeGreaterThan(at("ALTER TABLE in place"));
    expect(at("staging DB is read-only until Friday")).toBeLessThan(at("copy in batches of 10k"));
    expect(block).toContain("the replica lags 2 minutes [medium");

    // Two hours later (the store's clock for this fact moved back: the test pins time in the data).
    await sql(
      p.db,
      "UPDATE facts SET expires_at = '2026-01-01T00:00:00.000Z' WHERE text = 'the replica lags 2 minutes'",
    );
    const later = await load(p);
    expect(later).not.toContain("replica lags");
    expect(later).toContain("staging DB is read-only until Friday");
    const stale = await p.ok(["facts", "--stale"]);
    // Numbered as in `mindsave facts` (newest first), so renew and drop take the same number.
    expect(stale.stdout).toMatch(
      /^ +1\. the replica lags 2 minutes {2}\[medium, project, EXPIRED \d+ days ago\]/m,
    );
    expect(stale.stdout).not.toContain("staging DB");
    expect(stale.stdout).toContain(
      "`mindsave facts renew N [--ttl 3d]` confirms one, `mindsave facts drop N` removes it.",
    );
    await p.ok(["facts", "renew", "1", "--ttl", "1d"]);
    expect(await load(p)).toContain("the replica lags 2 minutes");
    await p.ok(["facts", "drop", "1"]);
    expect(await load(p)).not.toContain("the replica lags 2 minutes");
    // By a piece of its text: renew answers with the fact's number in the list.
    await p.ok(["fact", "the replica lags 2 minutes", "--ttl", "2h"]);
    expect((await p.json(["facts", "renew", "replica", "--ttl", "1d"])).renewed).toMatchObject({
      number: 1,
      text: "the replica lags 2 minutes",
    });
    expect((await p.ok(["facts", "drop", "STAGING db"])).stdout).toBe(
      "Dropped the fact: staging DB is read-only until Friday\n",
    );
    expect((await p.json(["facts"])).facts.map((f: any) => f.text)).toEqual(["the replica lags 2 minutes"]);
    const bad = await p.cli(["fact", "x", "--ttl", "soon"]);
    expect([bad.code, bad.stderr.trim()]).toEqual([
      1,
      'mindsave: --ttl must be like 30m, 12h, 3d or 2w (at most 10 years), or never; not "soon".',
    ]);
  });
});

describe("failures age", () => {
  test("a failure not seen for months loses confidence, and fresh failures outlive stale ones when the block is trimmed", async () => {
    const p = project();
    await save(p.place, { goal: "Tune the checkout", next: "profile the cart" });
    const reason = "it broke the sandbox payments when the network was flaky and retried twice";
    await p.fail([
      ...Array.from({ length: 18 }, (_, i) => ({
        item: `stale approach ${i}`,
        reason,
        rejected_by: "user",
        confidence: "high",
      })),
      ...Array.from({ length: 18 }, (_, i) => ({
        item: `fresh approach ${i}`,
        reason,
        rejected_by: "system",
        confidence: "medium",
      })),
    ]);
    // The stale ones were last seen 100 days ago (past three 30-day half-lives of a project failure).
    await sql(p.db, "UPDATE failures SET last_seen = ? WHERE item LIKE 'stale approach %'", [
      new Date(Date.now() - 100 * 86_400_000).toISOString(),
    ]);
    const block = (await p.json(["load", "--latest"])).restore_block as string;
    expect(block).toContain("Left out to stay within 800 tokens");
    const kept = [
      ...block.matchAll(
        /^- (stale|fresh) approach \d+: .* \[(user|system), ×1, (high|medium|low), project\]$/gm,
      ),
    ].map((m) => [m[1], m[3]]);
    const fresh = kept.filter(([k]) => k === "fresh").length;
    const stale = kept.filter(([k]) => k === "stale").length;
    expect(fresh).toBe(18);
    expect(stale).toBeLessThan(18);
    // A person's "high" of 100 days ago now reads low; the fresh ones keep their medium.
    expect(kept.filter(([k]) => k === "stale").every(([, c]) => c === "low")).toBe(true);
    expect(kept.filter(([k]) => k === "fresh").every(([, c]) => c === "medium")).toBe(true);
    // Without aging, the person's high-confidence rejections would have come first.
    expect(block.indexOf("fresh approach")).toBeLessThan(
      block.indexOf("stale approach") === -1 ? Infinity : block.indexOf("stale approach"),
    );
  });
});

describe("the plan", () => {
  const plan = [
    {
      content: "Add the limiter middleware",
      status: "completed",
      activeForm: "Adding the limiter middleware",
    },
    {
      content: "Wire it into the login route",
      status: "in_progress",
      activeForm: "Wiring it into the login route",
      priority: "high",
    },
    { content: "Write the load test", status: "pending", activeForm: "Writing the load test" },
    { content: "限流文档", status: "pending", activeForm: "写文档" },
  ];
  const yaml = `goal: Add rate limiting\nstate: middleware written\nnext_action: wire it\nplan:\n${plan.map((p) => `  - ${JSON.stringify(p)}`).join("\n")}\n`;

  test("round-trips verbatim (save → plan, load, export → import on a fresh store), with a progress line in the block", async () => {
    const p = project();
    await saveText(p.place, yaml);
    expect((await p.json(["plan"])).plan).toEqual(plan);
    const block = await load(p);
    expect(block).toContain("\nplan 1/4 · now: Wire it into the login route · next: Write the load test\n");
    expect((await p.ok(["plan"])).stdout).toContain(
      " 1. [x] Add the limiter middleware\n 2. [>] Wire it into the login route\n 3. [ ] Write the load test\n 4. [ ] 限流文档",
    );

    // A later save about the same goal without a plan keeps it; another goal does not borrow it.
    await save(p.place, { goal: "Add rate limiting", state: "wired" });
    expect((await p.json(["plan"])).plan).toEqual(plan);
    await p.ok(["plan", "done", "2"]);
    expect((await p.json(["plan"])).progress).toBe("plan 2/4 · next: Write the load test");

    await p.ok(["export", "--out", join(p.base, "out")]);
    const q = project();
    await q.ok(["import", join(p.base, "out")]);
    const plans = async (db: string) =>
      (await sql(db, "SELECT name, plan FROM snapshots WHERE deleted = 0 ORDER BY created_at")).map((r) => [
        r.name,
        JSON.parse(String(r.plan ?? "null")),
      ]);
    expect(await plans(q.db)).toEqual(await plans(p.db));
    // Stored with MindSave's time of each step's last status change (for a sync's merge), given back without it.
    const stored = (await plans(q.db))[0][1] as Record<string, unknown>[];
    for (const step of stored) expect(Date.parse(String(step.mindsave_status_at))).toBeGreaterThan(0);
    expect(stored.map(({ mindsave_status_at: _t, ...step }) => step)).toEqual(plan);
  });

  test("plan set from YAML, --item flags; a bad plan is refused with the step named, nothing changed", async () => {
    const p = project();
    await save(p.place, { goal: "Ship" });
    await p.ok(["plan", "set", "--item", "[x] design", "--item", "[>] build", "--item", "ship"]);
    expect((await p.json(["plan"])).plan).toEqual([
      { content: "design", status: "completed" },
      { content: "build", status: "in_progress" },
      { content: "ship", status: "pending" },
    ]);
    const before = await dumpStore(p.db);
    const bad = await p.cli(["plan", "set", "-"], "- content: a\n  status: maybe\n");
    expect([bad.code, bad.stderr.trim()]).toEqual([
      1,
      'mindsave: stdin step 1: status must be pending, in_progress or completed, not "maybe".',
    ]);
    expect(await dumpStore(p.db)).toBe(before);
  });
});

describe("diff and tags", () => {
  test("diff of two known snapshots gives the expected lines", async () => {
    const p = project();
    await saveText(
      p.place,
      `goal: Add rate limiting\nstate: middleware written\nnext_action: wire it\nactive_files: [src/auth.ts]\nconstraints: [no new dependencies, keep the API stable]\ndecisions: [token bucket per IP]\nplan:\n  - {content: limiter, status: completed}\n  - {content: wire it, status: in_progress}\n  - {content: load test, status: pending}\ntags: [sprint-3]\n`,
    );
    await atPlace(p.place, (s) => retire(s, "no new dependencies"));
    await fail(p.place, "Redis counters", "no Redis in staging");
    await saveText(
      p.place,
      `goal: Add rate limiting\nstate: wired into login\nnext_action: write the load test\nactive_files: [src/auth.ts, src/login.ts]\nconstraints: [keep the API stable]\ndecisions: [token bucket per IP, 429 with Retry-After]\nplan:\n  - {content: limiter, status: completed}\n  - {content: wire it, status: completed}\n  - {content: load test, status: in_progress}\n  - {content: docs, status: pending}\ntags: [sprint-3, review]\n`,
    );
    const lines = (await p.ok(["diff"])).stdout.split("\n").slice(1).join("\n");
    // The retired line, exactly, apart from the time.
    expect(lines).toMatch(
      /\n {2}retired constraint: no new dependencies \(by week-laptop, \d{4}-\d\d-\d\d \d\d:\d\d UTC\)\n {2}\+ decision: 429 with Retry-After\n/,
    );
    expect(lines.replace(/\n {2}retired constraint: .*\n/, "\n")).toBe(
      [
        "",
        "Layer 1",
        '  state: "middleware written" → "wired into login"',
        '  next_action: "wire it" → "write the load test"',
        "  + file src/login.ts",
        "",
        "Plan 1/3 → 2/4",
        "  completed: wire it",
        "  started: load test",
        "  + step: docs",
        "",
        "Layer 2",
        "  + decision: 429 with Retry-After",
        "",
        "Failures",
        "  + Redis counters: no Redis in staging [user, project]",
        "",
        "Tags",
        "  + review",
        "",
      ].join("\n"),
    );
    // A step done before and open again is said to be reopened.
    await atPlace(p.place, (s) => markStep(s, "1", "pending"));
    await atPlace(p.place, (s) => markStep(s, "1", "in_progress"));
    expect((await p.ok(["diff", "2", "1"])).stdout).toContain(
      "\nPlan 1/3 → 1/4\n  completed: wire it\n  started: load test\n  reopened: limiter\n  + step: docs\n",
    );
    const one = await p.cli(["diff", "1", "1"]);
    expect([one.code, one.stderr.trim()]).toEqual([
      1,
      expect.stringContaining("Both sides are the same snapshot") as unknown as string,
    ]);
  });

  test("save --tag; snapshots list --tag and recall --tag filter (case folded, a leading # dropped)", async () => {
    const p = project();
    await p.ok(["save", "--goal", "Spike: websocket sync", "--tag", "#Spike"]);
    await save(p.place, { goal: "Release 1.2 websocket fixes", tag: ["release", "RELEASE"] });
    const tagged = await p.json(["snapshots", "list", "--tag", "spike"]);
    expect(tagged.snapshots.map((s: any) => [s.goal, s.tags])).toEqual([
      ["Spike: websocket sync", ["Spike"]],
    ]);
    // A group's option given after its command counts (it used to be dropped: `snapshots list --limit 1` listed all).
    expect((await p.json(["snapshots", "list", "--limit", "1"])).snapshots.length).toBe(1);
    const rel = await p.json(["recall", "websocket", "--tag", "release"]);
    expect(rel.hits.map((h: any) => h.goal)).toEqual(["Release 1.2 websocket fixes"]);
    expect((await p.json(["recall", "websocket"])).hits.length).toBe(2);
    // Plan steps and tags are searched too.
    await setPlanAt(p.place, ["[>] document the websocket reconnect"]);
    expect((await p.json(["recall", "document"])).hits.map((h: any) => h.goal)).toEqual([
      "Release 1.2 websocket fixes",
    ]);
    await save(p.place, { goal: "Quiet work", tag: ["hushhush"] });
    expect((await p.json(["recall", "hushhush"])).hits.map((h: any) => h.goal)).toEqual(["Quiet work"]);
    const bad = await p.cli(["save", "--goal", "x", "--tag", "a,b"]);
    expect([bad.code, bad.stderr.trim()]).toEqual([
      1,
      'mindsave: A tag has no commas or line breaks: "a,b"; give each tag its own --tag.',
    ]);
  });
});

describe("secrets", () => {
  test("a secret in a rule, a fact, a retirement's reason, a plan step or a tag is never stored", async () => {
    const p = project();
    const token = `ghp_${"aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A"}`;
    // Through the engine each command calls: the redaction is the engine's, whatever face writes.
    await save(p.place, { goal: "Rotate the CI token", constraint: ["use the vault"], tag: [`t${token}`] });
    await addRuleAt(p.place, `Never print ${token}`);
    await atPlace(p.place, (s) => addFact(s, `the CI token is ${token}`, { ttl: "1d" }));
    await atPlace(p.place, (s) => retire(s, "vault", { reason: `moved to ${token}` }));
    await setPlanAt(p.place, [`revoke ${token}`]);
    const dump = await dumpStore(p.db);
    expect(dump).not.toContain(token);
    expect(dump).toContain("[REDACTED:");
  });
});

describe("sync, export and import of rules, facts and retirements", () => {
  test("rules and facts travel between laptops; a removal travels as a tombstone; export/import keeps them with their times", async () => {
    const w = twoLaptops();
    const a = inClone(w.a);
    const b = inClone(w.b);
    await save(a, { goal: "Ship the shop", constraint: ["prices in cents"], tag: ["sprint-3"] });
    await setPlanAt(a, ["[x] cart", "[>] checkout"]);
    await addRuleAt(a, "Run bun test before every commit");
    await atPlace(a, (s) => addFact(s, "payments sandbox is down", { ttl: "1d" }));
    await atPlace(a, (s) => retire(s, "prices in cents"));
    const synced = await w.a.json(["sync", w.drive]);
    expect(synced.pushed.rules.added).toBe(1);
    expect(synced.pushed.facts.added).toBe(1);
    expect(synced.pushed.retirements.added).toBe(1);
    await syncAt(b, w.drive);
    const onB = (await w.b.cli(["load", "--latest"])).stdout;
    expect(onB).toContain("- Run bun test before every commit");
    expect(onB).toContain("payments sandbox is down");
    expect(onB).not.toContain("prices in cents");
    expect(onB).toContain("plan 1/2 · now: checkout");
    expect((await w.b.json(["snapshots", "list", "--tag", "sprint-3"])).snapshots.length).toBe(1);
    await atPlace(b, (s) => removeRule(s, "1"));
    await syncAt(b, w.drive);
    await syncAt(a, w.drive);
    expect((await w.a.cli(["load", "--latest"])).stdout).not.toContain("Run bun test before every commit");

    await addRuleAt(a, "Prefer small commits", "global");
    const out = join(w.base, "export");
    await w.a.cli(["export", "--out", out]);
    const files = ["rules.json", "facts.json", "retired.json"].map((f) =>
      JSON.parse(readFileSync(join(out, ".mindsave", f), "utf8")),
    );
    // With the record's id and clock, so an import elsewhere is that record, not a copy.
    expect(files[0]).toEqual([
      {
        text: "Prefer small commits",
        scope: "global",
        created_at: expect.any(String),
        id: expect.stringMatching(/^r_/),
        clock: expect.stringMatching(/^\d{13}-\d{4}-host-a$/),
        digest: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    ]);
    expect(files[1][0]).toMatchObject({
      text: "payments sandbox is down",
      confidence: "medium",
      scope: "project",
    });
    expect(files[2][0]).toMatchObject({
      kind: "constraint",
      text: "prices in cents",
      retired_by: "laptop-a",
    });
    const q = project();
    const imported = await q.json(["import", out]);
    expect(imported.memory).toEqual({ rules: 1, facts: 1, retired: 1 });
    expect((await q.json(["import", out])).memory).toEqual({ rules: 0, facts: 0, retired: 0 });
    const again = join(q.base, "again");
    // An `export --out` folder is no workspace: the import went to the project it was run in ("shop").
    expect(imported.project.name).toBe("shop");
    await q.ok(["export", "--out", again]);
    for (const f of ["rules.json", "facts.json", "retired.json"]) {
      expect(readFileSync(join(again, ".mindsave", f), "utf8")).toBe(
        readFileSync(join(out, ".mindsave", f), "utf8"),
      );
    }
    expect(existsSync(join(again, ".mindsave", "snapshots"))).toBe(true);
  });
});
