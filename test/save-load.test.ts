// save → load through the real CLI, on real temp stores and real git repositories.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dumpStore, gitRepo, laptop, ok, okJson, projectOnLaptop, run, sql, tempDir } from "./helpers.ts";
import { normaliseEntry } from "../src/engine/formats/seed-read-failure-graph.ts";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { fromFields } from "../src/engine/snapshots/input.ts";
import { addRuleAt, atPlace, inRepo, save, saveGoal, saveText } from "./engine-setup.ts";
import { addFact } from "../src/engine/memory/facts.ts";

function setup() {
  const base = tempDir();
  const home = join(base, "home");
  mkdirSync(home);
  const repo = gitRepo(join(base, "repo"));
  const pc = laptop("alpha", base);
  const opts = (cwd = repo) => ({ cwd, env: pc.env });
  // Where set-up saves in this process (the engine's save, as the CLI's) what a test then reads.
  const here = { home, cwd: repo, env: pc.env };
  return { base, home, repo, env: pc.env, opts, here, db: join(home, "mindsave.db") };
}

const TEMPLATE = `---
snapshot_id: "{topic}_{date}"
created_at: "2026-05-10T14:30:00+08:00"
version: "3.0"

# Layer 1: Execution Register (always restored)
goal: "Add JWT refresh to the auth service"
state: "Refresh endpoint written, tests failing"
next_action: "Fix the clock skew in token expiry tests"
active_files:
  - "src/auth.ts"
  - "src/missing.ts"
blocker: "none"

# Layer 2: Cognitive Cache (restored on demand)
constraints:
  - "no tailwind"
decisions:
  - "use MiniMax native API, not OpenAI compatible"
failure_graph:
  "websocket reconnect":
    rejected_by: "system"
    reason: "failed 3 times behind the proxy"
    repeat_count: 3
    confidence: "high"
    scope: "project"
    related: ["socket.io"]
    alternatives: ["long polling"]
auto_trigger:
  reason: "key-decision"
  tool_calls_since_last: 12
reviewer: "Lin"
---

## Layer 3: Cold Archive (debug only)

### Completed Steps
1. Wrote the refresh endpoint

### File Changes
 src/auth.ts | 40 ++++++++++

### Recent Tool Calls
1. bun test test/auth.test.ts
`;

describe("save and load", () => {
  test("a template snapshot on stdin round-trips into the restore block with absolute paths", async () => {
    const t = setup();
    const saved = await run(["--home", t.home, "save"], { ...t.opts(), stdin: TEMPLATE });
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain("MindSave checkpoint saved: add_jwt_refresh_to_2026-");
    expect(saved.stderr).toContain("reviewer"); // unknown field kept, with a warning naming it

    const load = await ok(["load", "--home", t.home], t.opts());
    const block = load.stdout;
    expect(block).toContain("goal: Add JWT refresh to the auth service");
    expect(block).toContain(join(t.repo, "src", "auth.ts"));
    expect(block).toContain("- no tailwind");
    expect(block).toContain(
      "websocket reconnect: failed 3 times behind the proxy [system, ×3, high, project] → instead: long polling",
    );
    expect(block).toContain(
      "MindSave restored. Goal: Add JWT refresh to the auth service. Next: Fix the clock skew",
    );
    expect(block).not.toContain("Wrote the refresh endpoint"); // Layer 3 is never auto-restored

    const recall = await ok(["recall", "--home", t.home], t.opts());
    expect(recall.stdout).toContain("Wrote the refresh endpoint");
    expect(recall.stdout).toContain("reviewer: Lin");
  });

  test("a save from a deep subdirectory lands in the same project as one from the root", async () => {
    const t = setup();
    const deep = join(t.repo, "src", "deep", "dir");
    mkdirSync(deep, { recursive: true });
    await ok(["save", "--goal", "from the root", "--home", t.home], t.opts());
    await ok(
      ["save", "--goal", "from deep inside", "--active-file", "../../auth.ts", "--home", t.home],
      t.opts(deep),
    );
    const list = await okJson(["snapshots", "list", "--home", t.home], t.opts(deep));
    expect(list.snapshots.map((s: any) => s.goal)).toEqual(["from deep inside", "from the root"]);
    const projects = await okJson(["projects", "--home", t.home], t.opts(deep));
    expect(projects.projects).toHaveLength(1);
    expect(projects.projects[0].root).toBe(t.repo);
    // The active file given relative to the deep cwd is stored relative to the root.
    const loaded = await okJson(["load", "1", "--home", t.home], t.opts(deep));
    expect(loaded.layer1.active_files).toEqual([join(t.repo, "src", "auth.ts")]);
    const rows = await sql(t.db, "SELECT active_files FROM snapshots WHERE goal = 'from deep inside'");
    expect(JSON.parse(String(rows[0].active_files))[0].path).toBe("src/auth.ts");
  });

  test("ids are {topic}_{date}, then -2 and -3 the same day; Chinese goals give Chinese slugs", async () => {
    const t = setup();
    const names: string[] = [];
    for (let i = 0; i < 3; i++)
      names.push((await okJson(["save", "--goal", "Fix login bug", "--home", t.home], t.opts())).saved);
    const day = names[0].slice(-10);
    expect(names).toEqual([`fix_login_bug_${day}`, `fix_login_bug_${day}-2`, `fix_login_bug_${day}-3`]);
    const zh = await okJson(
      ["save", "--goal", "重构认证模块并修复令牌刷新的问题以及相关的所有测试用例", "--home", t.home],
      t.opts(),
    );
    const topic = zh.saved.slice(0, -11);
    expect([...topic].length).toBeLessThanOrEqual(20);
    expect(topic).toMatch(/^[\u4e00-\u9fff]+$/u);
    const symbols = await okJson(["save", "--goal", "!!!", "--home", t.home], t.opts());
    expect(symbols.saved).toStartWith("snapshot_");
    const custom = await okJson(
      ["save", "--goal", "x", "--topic", "My Topic: auth/jwt", "--home", t.home],
      t.opts(),
    );
    expect(custom.saved).toStartWith("my_topic_auth_jwt_");
  });

  test("load picks by number, name and prefix; several without a choice prints a numbered list", async () => {
    const t = setup();
    await save(t.here, { goal: "first task", topic: "first" });
    await save(t.here, { goal: "second task", topic: "second" });
    const list = await ok(["load", "--home", t.home], t.opts());
    expect(list.stdout).toMatch(/^ ?1\. second_\S+ .*second task$/m);
    expect(list.stdout).toMatch(/^ ?2\. first_\S+ .*first task$/m);
    expect(list.stdout).not.toContain("MindSave restored");
    expect((await ok(["load", "2", "--home", t.home], t.opts())).stdout).toContain("goal: first task");
    expect((await ok(["load", "--latest", "--home", t.home], t.opts())).stdout).toContain(
      "goal: second task",
    );
    expect((await ok(["load", "fir", "--home", t.home], t.opts())).stdout).toContain("goal: first task");
    const choose = await okJson(["load", "--home", t.home], t.opts());
    expect(choose.choose.map((c: any) => c.n)).toEqual([1, 2]);
  });

  test("--verify reports missing and modified active files", async () => {
    const t = setup();
    writeFileSync(join(t.repo, "src", "keep.ts"), "same\n");
    await save(t.here, { goal: "verify me", activeFile: ["src/auth.ts", "src/keep.ts", "src/gone.ts"] });
    writeFileSync(join(t.repo, "src", "auth.ts"), "changed!\n");
    const r = await ok(["load", "--verify", "--home", t.home], t.opts());
    expect(r.stdout).toContain("⚠ Workspace differs from snapshot:");
    expect(r.stdout).toContain("- src/auth.ts has changed since the snapshot");
    expect(r.stdout).toContain("- src/gone.ts is missing on this host");
    expect(r.stdout).not.toContain("src/keep.ts has changed");
    const j = await okJson(["load", "--verify", "--home", t.home], t.opts());
    expect(Object.fromEntries(j.verify.map((v: any) => [v.path, v.status]))).toEqual({
      "src/auth.ts": "modified",
      "src/keep.ts": "ok",
      "src/gone.ts": "missing",
    });
  });

  test("--overflow writes an L1-only OVF_ snapshot", async () => {
    const t = setup();
    const r = await run(
      [
        "save",
        "--overflow",
        "--goal",
        "Ship release",
        "--state",
        "tagging",
        "--constraint",
        "no force push",
        "--home",
        t.home,
      ],
      t.opts(),
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("keeps Layer 1 only");
    const rows = await sql(t.db, "SELECT name, kind, constraints FROM snapshots");
    expect(String(rows[0].name)).toMatch(/^OVF_ship_release_\d{4}-\d{2}-\d{2}_\d{6}$/);
    expect(rows[0].kind).toBe("overflow");
    expect(rows[0].constraints).toBe("[]");
  });

  test("Layer 1 over 300 tokens is saved: the state is shortened, its words as written move to Layer 3, and the save says so", async () => {
    const t = setup();
    await save(t.here, { goal: "small" });
    const long = Array.from({ length: 120 }, (_, i) => `step${i} done`).join(", ");
    const r = await run(["save", "--goal", "too big", "--state", long, "--home", t.home], t.opts());
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /Layer 1 was \d+ tokens, over its 300-token budget: moved to Layer 3 under "Moved from Layer 1": the rest of state\./,
    );
    const row = (await sql(t.db, "SELECT state, layer3, l1_tokens FROM snapshots WHERE goal = 'too big'"))[0];
    expect(Number(row.l1_tokens)).toBeLessThanOrEqual(300);
    expect(long.startsWith(String(row.state).slice(0, -1))).toBe(true);
    expect(String(row.layer3)).toContain(`state (as written): ${long}`);
  });

  test("Layer 2 over 500 tokens is compressed first; what still does not fit moves to Layer 3", async () => {
    const t = setup();
    // The same few rules said many ways, as agents accumulate them over a long session.
    const subjects: [string, string | null][] = [
      ["tailwind", "css variables"],
      ["bootstrap", null],
      ["mongodb", null],
      ["graphql", "REST"],
      ["an orm", null],
      ["sessions", "JWT"],
    ];
    // (Each form differs in words: "don't use X" would fold into "do not use X" as a near duplicate.)
    const forms = [
      "no X",
      "never use X",
      "avoid X",
      "do not use X",
      "we never want X",
      "X is banned",
      "stop using X",
      "不要用X",
      "禁止使用X",
    ];
    const constraints: string[] = [];
    for (const [x, y] of subjects) {
      for (const f of forms) constraints.push(f.replace("X", x));
      if (y) constraints.push(`use ${y}`, `prefer ${y}`);
    }
    const decisions = Array.from(
      { length: 8 },
      (_, i) => `decision number ${i} keeps module ${i} independent of the others`,
    );
    const args = [
      "save",
      "--goal",
      "compress me",
      "--home",
      t.home,
      ...constraints.flatMap((c) => ["--constraint", c]),
      ...decisions.flatMap((d) => ["--decision", d]),
    ];
    const fits = await run(args, t.opts());
    expect(fits.code).toBe(0);
    expect(fits.stderr).toContain("was compressed");
    const row = (await sql(t.db, "SELECT constraints, compressed, l2_tokens FROM snapshots"))[0];
    expect(Number(row.l2_tokens)).toBeLessThanOrEqual(500);
    const compressed = JSON.parse(String(row.compressed));
    expect(compressed.symbolic.theme_system.rejected).toContain("Tailwind");
    expect(compressed.original_constraints).toEqual(constraints);
    const recall = await ok(["recall", "--home", t.home], t.opts());
    expect(recall.stdout).toContain("Constraints Before Compression");

    const huge = Array.from(
      { length: 60 },
      (_, i) => `decision ${i}: the module ${i} must keep its own independent data layer`,
    );
    const r = await run(
      ["save", "--goal", "too much", "--home", t.home, ...huge.flatMap((d) => ["--decision", d])],
      t.opts(),
    );
    expect(r.code).toBe(0);
    const saved = (
      await sql(t.db, "SELECT decisions, layer3, l2_tokens FROM snapshots WHERE goal = 'too much'")
    )[0];
    expect(Number(saved.l2_tokens)).toBeLessThanOrEqual(500);
    const kept: string[] = JSON.parse(String(saved.decisions));
    expect(kept).toEqual(huge.slice(0, kept.length));
    expect(r.stderr).toContain(
      `moved to Layer 3 under "Moved from Layer 2": ${huge.length - kept.length} decision(s).`,
    );
    for (const d of huge.slice(kept.length)) expect(String(saved.layer3)).toContain(`- ${d}`);
  });

  test("retention lists 20 (in-progress and blocked counted too), archives completed older than 30 days, deletes nothing", async () => {
    const t = setup();
    for (let i = 0; i < 3; i++) await save(t.here, { goal: `wip ${i}` });
    await save(t.here, { goal: "blocked one", blocker: "waiting for keys" });
    // Twenty more saved by the engine in one session (what `mindsave save` runs, retention included).
    await atPlace(t.here, async (session) => {
      for (let i = 0; i < 20; i++)
        await saveSnapshot(session, { input: fromFields({ goal: `done ${i}`, status: "completed" }) });
    });
    const list = await okJson(["snapshots", "list", "--home", t.home], t.opts());
    expect(list.snapshots).toHaveLength(20);
    const goals = list.snapshots.map((s: any) => s.goal);
    expect(goals).not.toContain("wip 0");
    expect(goals).not.toContain("blocked one");
    expect(goals).toContain("done 0");
    expect(goals).toContain("done 19");
    // An old completed snapshot is archived even under the count limit (the newest aside: load restores it).
    await sql(t.db, "UPDATE snapshots SET created_at = '2020-01-01T00:00:00.000Z' WHERE goal = 'done 18'");
    const cleaned = await okJson(["snapshots", "clean", "--home", t.home], t.opts());
    expect(cleaned.archived).toHaveLength(1);
    const after = await okJson(["snapshots", "list", "--home", t.home], t.opts());
    expect(after.snapshots.map((s: any) => s.goal)).not.toContain("done 18");
    // Nothing was deleted: every snapshot is whole, and `list --all` shows the archived ones.
    expect((await sql(t.db, "SELECT count(*) AS n FROM snapshots WHERE deleted = 1"))[0].n).toBe(0);
    const all = await okJson(["snapshots", "list", "--all", "--home", t.home], t.opts());
    expect(all.snapshots).toHaveLength(24);
    expect(
      all.snapshots
        .filter((s: any) => s.archived)
        .map((s: any) => s.goal)
        .sort(),
    ).toEqual(["blocked one", "done 18", "wip 0", "wip 1", "wip 2"]);
  });

  test("snapshots show prints the spec's file format and complete/delete change the store", async () => {
    const t = setup();
    await save(t.here, { goal: "shown", constraint: ["tabs not spaces"] });
    const show = await ok(["snapshots", "show", "--home", t.home], t.opts());
    expect(show.stdout).toStartWith("---\nsnapshot_id: shown_");
    expect(show.stdout).toContain("constraints:\n  - tabs not spaces");
    const name = show.stdout.match(/snapshot_id: (\S+)/)![1];
    await ok(["snapshots", "complete", name, "--home", t.home], t.opts());
    expect((await sql(t.db, "SELECT status FROM snapshots"))[0].status).toBe("completed");
    await ok(["snapshots", "delete", name, "--home", t.home], t.opts());
    expect((await okJson(["snapshots", "list", "--home", t.home], t.opts())).snapshots).toHaveLength(0);
    const stats = await okJson(["snapshots", "stats", "--home", t.home], t.opts());
    expect(stats.count).toBe(0);
  });

  test("sizes are UTF-8 bytes of everything stored, and the list's add up to the stats' total", async () => {
    const t = setup();
    await save(t.here, { goal: "重构认证模块", constraint: ["不要改接口"], decision: ["use 令牌"] });
    await save(t.here, { goal: "second one", state: "état: à moitié" });
    const list = (await okJson(["snapshots", "list", "--home", t.home], t.opts())).snapshots as {
      size: number;
    }[];
    const stats = await okJson(["snapshots", "stats", "--home", t.home], t.opts());
    const columns = [
      "goal",
      "state",
      "next_action",
      "blocker",
      "active_files",
      "constraints",
      "decisions",
      "failure_graph",
      "compressed",
      "layer3",
    ];
    const rows = await sql(t.db, `SELECT ${columns.join(", ")} FROM snapshots WHERE deleted = 0`);
    const stored = rows.reduce(
      (n, r) => n + columns.reduce((m, c) => m + Buffer.byteLength(String(r[c] ?? ""), "utf8"), 0),
      0,
    );
    expect(stats.bytes).toBe(stored);
    expect(list.reduce((n, s) => n + s.size, 0)).toBe(stored);
    expect(stats.layer1 + stats.layer2 + stats.layer3).toBe(stats.bytes);
  });

  test("global options work before or after the command name, and MINDSAVE_HOME is honoured", async () => {
    const t = setup();
    await ok(["--home", t.home, "--json", "save", "--goal", "before"], t.opts());
    await ok(["save", "--goal", "after", "--home", t.home, "--json"], t.opts());
    const viaEnv = await okJson(["snapshots", "list"], {
      cwd: t.repo,
      env: { ...t.env, MINDSAVE_HOME: t.home },
    });
    expect(viaEnv.snapshots.map((s: any) => s.goal)).toEqual(["after", "before"]);
    // Without --home or MINDSAVE_HOME the store is ~/.mindsave/mindsave.db of this HOME.
    await ok(["save", "--goal", "default home"], t.opts());
    const doc = await okJson(["doctor"], t.opts());
    expect(doc.store).toBe(join(t.env.HOME, ".mindsave", "mindsave.db"));
    expect(doc.integrity).toBe("ok");
  });
});

describe("a save that leaves its task's last snapshot's constraints and decisions behind", () => {
  test("says how many `load` stops restoring; a save that gives them again, or an overflow one, says nothing", async () => {
    const t = setup();
    await save(t.here, {
      goal: "g",
      state: "s",
      next: "n",
      constraint: ["no new dependencies"],
      decision: ["use polling"],
    });
    const again = await ok(
      [
        "save",
        "--goal",
        "g",
        "--state",
        "s2",
        "--next",
        "n",
        "--constraint",
        "No new dependencies.",
        "--decision",
        "use polling",
        "--home",
        t.home,
      ],
      t.opts(),
    );
    expect(again.stderr).not.toContain("are not in this snapshot");
    const progress = await ok(
      ["save", "--goal", "g", "--state", "s3", "--next", "n", "--home", t.home],
      t.opts(),
    );
    expect(progress.stderr).toContain("1 constraint(s) and 1 decision(s) of ");
    expect(progress.stderr).toContain(
      'are not in this snapshot ("No new dependencies.", "use polling"), so `load` no longer restores them',
    );
    const overflow = await ok(
      ["save", "--goal", "g", "--state", "s4", "--next", "n", "--overflow", "--home", t.home],
      t.opts(),
    );
    expect(overflow.stderr).not.toContain("are not in this snapshot");
  });

  test("a save that gives decisions of its own replaces the last ones quietly; a constraint left out is still told", async () => {
    const t = setup();
    const left = (r: { warnings: string[] }) =>
      r.warnings.find((w) => w.includes("are not in this snapshot")) ?? "";
    await save(t.here, {
      goal: "Speed up CI",
      state: "s",
      next: "n",
      constraint: ["no new dependencies"],
      decision: ["cache node_modules"],
    });
    // A decision replaced, round after round: nothing said.
    for (const decision of ["cache the pnpm store", "缓存 pnpm store 和 Docker 层"])
      expect(
        left(
          await save(t.here, {
            goal: "Speed up CI",
            state: "s",
            next: "n",
            constraint: ["no new dependencies"],
            decision: [decision],
          }),
        ),
      ).toBe("");
    // Its constraint left out: told, and only the constraint.
    const dropped = await save(t.here, {
      goal: "Speed up CI",
      state: "s",
      next: "n",
      decision: ["cache the pnpm store"],
    });
    expect(left(dropped)).toStartWith("1 constraint(s) of ");
    // It names what it leaves behind.
    expect(left(dropped)).toContain('are not in this snapshot ("no new dependencies")');
    expect(left(dropped)).not.toContain("decision(s)");
    // No decision given at all: the last ones are lost, and that is told.
    const none = await save(t.here, {
      goal: "Speed up CI",
      state: "s",
      next: "n",
      constraint: ["no new dependencies"],
    });
    expect(left(none)).toStartWith(`1 decision(s) of ${dropped.snapshot.name} are not in this snapshot`);
  });

  test("a save of another task is not told the last task's are left; back on that task after it, the save is", async () => {
    const t = setup();
    const oauth = "Add OAuth login to the API";
    const first = await save(t.here, {
      goal: oauth,
      state: "s",
      next: "n",
      constraint: ["no new dependencies"],
      decision: ["use polling"],
    });
    const other = await ok(
      ["save", "--goal", "Fix the flaky CI job", "--state", "s", "--next", "n", "--home", t.home],
      t.opts(),
    );
    expect(other.stderr).not.toContain("are not in this snapshot");
    // The task again, said a little differently, past the other task's snapshot.
    const back = await ok(
      [
        "save",
        "--goal",
        `${oauth.toLowerCase()}: refresh tokens`,
        "--state",
        "s2",
        "--next",
        "n",
        "--home",
        t.home,
      ],
      t.opts(),
    );
    expect(back.stderr).toContain(
      `1 constraint(s) and 1 decision(s) of ${first.snapshot.name} are not in this snapshot`,
    );
  });

  test("in Chinese: another task says nothing, the same task ended with 。 is told", async () => {
    const t = setup();
    await save(t.here, {
      goal: "修复登录页的验证码",
      state: "s",
      next: "n",
      constraint: ["不要引入新的依赖"],
    });
    const other = await save(t.here, { goal: "整理部署脚本", state: "s", next: "n" });
    expect(other.warnings.join("\n")).not.toContain("are not in this snapshot");
    const same = await save(t.here, { goal: "修复登录页的验证码。", state: "s2", next: "n" });
    expect(same.warnings.join("\n")).toContain("1 constraint(s) of ");
  });

  test("the task said with a word left out is told too; another task that shares a few words is not", async () => {
    const t = setup();
    const told = (r: { warnings: string[] }) => r.warnings.join("\n").includes("are not in this snapshot");
    await save(t.here, {
      goal: "Add JWT refresh to the auth service",
      state: "s",
      next: "n",
      constraint: ["tokens stay in httpOnly cookies"],
      decision: ["rotate on every refresh"],
    });
    expect(told(await save(t.here, { goal: "Write the quarterly report", state: "s", next: "n" }))).toBe(
      false,
    );
    const back = await save(t.here, { goal: "Add JWT refresh to auth service", state: "s2", next: "n" });
    expect(back.warnings.join("\n")).toContain("1 constraint(s) and 1 decision(s) of ");
    // The same in Chinese, a word left out and one changed.
    await save(t.here, {
      goal: "修复登录页的验证码问题",
      state: "s",
      next: "n",
      constraint: ["不要引入新的依赖"],
    });
    expect(told(await save(t.here, { goal: "修复登录页验证码", state: "s2", next: "n" }))).toBe(true);
    // Three words of four in common, the one that names the task not: another task.
    await save(t.here, { goal: "Fix the bug in login", state: "s", next: "n", constraint: ["keep the API"] });
    expect(told(await save(t.here, { goal: "Fix the bug in signup", state: "s", next: "n" }))).toBe(false);
  });
});

describe("snapshot YAML that cannot mean one thing is refused, and nothing is written", () => {
  test("a field given twice names the field and its line; a repeat_count that is no number names the entry", async () => {
    const p = projectOnLaptop("mindsave-walk5-yaml-");
    await saveGoal(p, "first");
    const before = await dumpStore(p.db);
    const twice = await p.cli(["save"], { stdin: "---\ngoal: x\nstate: s\ngoal: y\n---\n" });
    expect(twice.code).toBe(1);
    expect(twice.stderr.trim()).toBe(
      'mindsave: The snapshot on stdin gives "goal" twice (the second at line 4); give each field once.',
    );
    const lots = await p.cli(["save"], {
      stdin: "goal: x\nfailure_graph:\n  redis: {reason: slow, repeat_count: lots}\n",
    });
    expect(lots.code).toBe(1);
    expect(lots.stderr.trim()).toBe(
      'mindsave: failure_graph entry "redis" has repeat_count "lots"; give a whole number (how many times it was tried).',
    );
    expect(await dumpStore(p.db)).toBe(before);
    // A count written as text that is a number is still one.
    await p.okCli(["save"], {
      stdin:
        "goal: x\nstate: s\nnext_action: n\nfailure_graph:\n  redis: {reason: slow, repeat_count: '3'}\n",
    });
  }, 30_000);

  test("an import keeps a file whose repeat_count is no number, the value set aside with a warning", () => {
    const warnings: string[] = [];
    const e = normaliseEntry("redis", { reason: "slow", repeat_count: "lots" }, warnings, "snapshots/a.md");
    expect(e.repeat_count).toBeUndefined();
    expect((e as Record<string, unknown>).original_repeat_count).toBe("lots");
    expect(warnings).toEqual([
      'snapshots/a.md: failure "redis" has repeat_count "lots", which is not a number; kept as original_repeat_count.',
    ]);
    expect(normaliseEntry("redis", { repeat_count: " 4 " }, [], "x").repeat_count).toBe(4);
  });

  test("a YAML error is reported at its line of the input, with or without front matter", async () => {
    const p = projectOnLaptop("mindsave-walk5-line-");
    // "---" opening a document that never closes is all YAML: the unclosed list ends at line 3.
    const open = await p.cli(["save"], { stdin: "---\ngoal: [\n" });
    expect(open.stderr).toContain("is not valid YAML at line 3:");
    // In front matter, the line is counted in the whole input (the opening "---" is line 1).
    const front = await p.cli(["save"], { stdin: "---\ngoal: x\nstate: s\n- item\n---\nbody\n" });
    expect(front.stderr).toContain("is not valid YAML at line 4:");
    const plain = await p.cli(["save"], { stdin: "goal: x\nstate: s\n- item\n" });
    expect(plain.stderr).toContain("is not valid YAML at line 3:");
  }, 30_000);
});

describe("save keeps what is distinct", () => {
  test("active files differing only in case or spacing are two files; a decision repeated in other case is dropped with a warning", async () => {
    const t = projectOnLaptop("mindsave-six-");
    const files = ["Foo.ts", "foo.ts", "b c.ts", "b  c.ts"];
    for (const f of files) writeFileSync(join(t.repo, f), "x\n");
    const saved = await t.cli([
      "save",
      "--goal",
      "g",
      "--state",
      "s",
      "--next",
      "n",
      ...files.flatMap((f) => ["--active-file", f]),
      "--decision",
      "Use X",
      "--decision",
      "use  x",
    ]);
    expect(saved.code).toBe(0);
    expect(saved.stderr).toContain('Decision "use  x" was left out: it repeats "Use X".');
    const load = await t.json(["load", "--latest"]);
    expect(load.layer1.active_files.map((f: string) => f.split("/").pop())).toEqual(files);
    expect(load.layer2.decisions).toEqual(["Use X"]);
  });
});

describe("load --json carries what the block restores", () => {
  test("standing rules, unexpired facts, the plan and the tags, beside the layers", async () => {
    const t = projectOnLaptop("mindsave-six-");
    await saveText(
      inRepo(t),
      "goal: ship\nstate: s\nnext_action: n\nplan:\n  - {content: write it, status: completed}\n  - {content: test it, status: in_progress}\ntags: [sprint-3]\n",
    );
    await addRuleAt(inRepo(t), "Never push to main");
    await atPlace(inRepo(t), (s) =>
      addFact(s, "the staging DB is read-only", { ttl: "7d", scope: "project" }),
    );
    const load = await t.json(["load", "--latest"]);
    expect(load.rules).toEqual([{ text: "Never push to main", scope: "project" }]);
    expect(load.facts.map((f: any) => [f.text, f.scope])).toEqual([
      ["the staging DB is read-only", "project"],
    ]);
    expect(load.plan).toEqual([
      { content: "write it", status: "completed" },
      { content: "test it", status: "in_progress" },
    ]);
    expect(load.tags).toEqual(["sprint-3"]);
  });
});

describe("a constraint of several lines", () => {
  test("keeps its first line's indentation (only the blank space around it goes), through load --json, export and import", async () => {
    const t = projectOnLaptop("mindsave-seven-");
    const code = "  if (user) {\n    return token;\n  }";
    await t.okCli(["save", "--goal", "g", "--constraint", `\n${code}\n\n`, "--decision", "  one line  "]);
    const loaded = await t.json(["load", "--latest"]);
    expect(loaded.layer2.constraints).toEqual([code]);
    expect(loaded.layer2.decisions).toEqual(["one line"]);
    const out = join(t.base, "out");
    await t.okCli(["export", "--out", out]);
    const other = projectOnLaptop("mindsave-seven-");
    await other.okCli(["import", out]);
    expect((await other.json(["load", "--latest"])).layer2.constraints).toEqual([code]);
  });
});
