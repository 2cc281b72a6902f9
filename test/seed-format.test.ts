// `mindsave import` / `mindsave export`: the original MindSave skill's .mindsave/ layout, both ways,
// through the real CLI on real temp stores. The fixtures are written here to the v3.5 spec's
// template and to the quirks of the original skill and SDK (absolute index paths, JSON in YAML
// block scalars, item names only in file names, older field names, v2 session-named tool logs).
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import {
  childEnv,
  gitRepo,
  laptop,
  ok,
  okJson,
  projectOnLaptop,
  run,
  sql,
  tempDir,
  type RunOptions,
} from "./helpers.ts";
import { atPlace, fail, inRepo, save, saveGoal, saveText, type Place } from "./engine-setup.ts";
import { importSeed } from "../src/engine/formats/seed-import.ts";
import { locateSeed } from "../src/engine/formats/seed-layout.ts";
import { exportSeed } from "../src/engine/formats/seed-export.ts";
import { deleteSnapshot } from "../src/engine/snapshots/manage.ts";
import { observeSignal } from "../src/engine/agents/signal.ts";
import { Session } from "../src/engine/session.ts";
import { requireProject } from "../src/engine/projects/resolve.ts";
import { selectSnapshot } from "../src/engine/snapshots/select.ts";

const cli = (args: string[], opts: RunOptions = {}) => run(args, opts);
const cliOk = (args: string[], opts: RunOptions = {}) => ok(args, opts);
const cliJson = <T = any>(args: string[], opts: RunOptions = {}) => okJson<T>(args, opts);

/** `mindsave import DIR` as set-up, in this process: the workspace is DIR's, as the CLI takes it. */
function importAt(place: Place, dir: string) {
  const loc = locateSeed(dir);
  return atPlace({ ...place, cwd: loc.root }, (s) => importSeed(s, loc, {}));
}

/** `mindsave snapshots delete NAME` as set-up, in this process. */
const deleteAt = (place: Place, name: string) => atPlace(place, (s) => deleteSnapshot(s, name));

const ORIGINAL_ROOT = "/Users/lin/code/shop-api";

function write(path: string, text: string) {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

const json = (v: unknown) => JSON.stringify(v, null, 2);

/** A .mindsave/ tree as the original skill and SDK leave it, in `root`; the laptop's HOME holds ~/.mindsave/global. */
function originalTree(root: string, home: string) {
  const ms = join(root, ".mindsave");
  write(
    join(ms, "snapshots", "add_jwt_refresh_20260510.md"),
    `---
snapshot_id: "add_jwt_refresh_20260510"
created_at: "2026-05-10T14:30:00+08:00"
version: "3.0"

# Layer 1: Execution Register (always restored)
goal: "Add JWT refresh to the auth service"
state: "Refresh endpoint written, tests failing"
next_action: "Fix the clock skew in token expiry tests"
active_files:
  - "${ORIGINAL_ROOT}/src/auth.ts"
  - "src/jwt.ts"
blocker: "none"

# Layer 2: Cognitive Cache (restored on demand)
constraints:
  - "no new runtime dependencies"
decisions:
  - "rotate refresh tokens on every use"
failure_graph:
  "websocket reconnect":
    rejected_by: "system"
    reason: "corporate proxy drops idle sockets"
    repeat_count: 3
    confidence: "high"
    scope: "project"
    related: ["socket.io"]
    alternatives: ["long polling"]

# Auto-trigger metadata (optional)
auto_trigger:
  reason: "key-decision"
  tool_calls_since_last: 12
---

## Layer 3: Cold Archive (debug only)

### Completed Steps
1. Wrote the refresh endpoint

### File Changes
 src/auth.ts | 40 ++++++++++

### Recent Tool Calls
1. bun test test/auth.test.ts
`,
  );
  // Written by the v3.5 SDK: failure_graph and _compressed as JSON text in YAML block scalars.
  write(
    join(ms, "snapshots", "重构认证模块_20260511.md"),
    `---
snapshot_id: "重构认证模块_20260511"
created_at: "2026-05-11T09:15:00+08:00"
version: "3.5"

# Layer 1: Execution Register (always restored)
goal: "重构认证模块并修复令牌刷新问题"
state: "刷新接口已完成，两个测试失败"
next_action: "修复过期测试中的时钟偏差"
active_files:
  - "${ORIGINAL_ROOT}/src/auth.ts"
blocker: "none"

# Layer 2: Cognitive Cache (restored on demand)
_compressed: |
    {
      "constraints": ["不要引入新的依赖"],
      "decisions": ["每次使用时轮换刷新令牌"],
      "symbolic": {}
    }
constraints:
  - "不要引入新的依赖"
decisions:
  - "每次使用时轮换刷新令牌"
excluded_paths: []

# Failure Graph (negative cognitive memory)
failure_graph: |
    {
      "用 Redux 管理表单状态": {
        "schema_version": "1.0",
        "rejected_by": "user",
        "reason": "样板代码太多",
        "repeat_count": 2,
        "confidence": "medium",
        "scope": "project",
        "related": [],
        "alternatives": ["React Hook Form"]
      }
    }
---
## Layer 3: Cold Archive (debug only)

### Completed Steps
1. 重写了令牌刷新逻辑
`,
  );
  // v3.4: the flat excluded_paths list.
  write(
    join(ms, "snapshots", "legacy_css_20260420.md"),
    `---
snapshot_id: "legacy_css_20260420"
created_at: "2026-04-20T10:00:00+00:00"
version: "3.4"
goal: "Restyle the settings page"
state: "Theme variables defined"
next_action: "Apply the variables to the settings form"
active_files: ["src/styles/theme.css"]
blocker: "none"
status: "completed"
excluded_paths:
  - "Don't use Tailwind — causes style conflict with existing CSS"
  - "不要用 localStorage 存令牌：有 XSS 风险"
---

### Completed Steps
1. Defined the CSS variables
`,
  );
  // An older version with other field names, and a field nobody defined.
  write(
    join(ms, "snapshots", "dark_mode_20260301.md"),
    `---
id: "dark_mode_20260301"
created: "2026-03-01T08:00:00Z"
task_goal: "Implement dark mode toggle for the settings page"
status: "in_progress"
files:
  - "src/components/Settings.tsx"
next_steps:
  - "Add toggle component to Settings page"
  - "Persist theme preference to localStorage"
blockers: ["waiting for the design review"]
failed_approaches:
  - "CSS-in-JS themes — runtime cost too high"
owner: "Lin"
---

## Completed Steps
1. Created useTheme hook

## Key Context
- Using CSS variables for theme switching (not class-based)
`,
  );
  write(
    join(ms, "snapshots", "OVF_add_jwt_20260512_101500.md"),
    `---
snapshot_id: "OVF_add_jwt_20260512_101500"
created_at: "2026-05-12T10:15:00+08:00"
version: "3.5"
goal: "Add JWT refresh to the auth service"
state: "Context overflow while fixing the expiry tests"
next_action: "Re-run the expiry tests"
active_files:
  - "${ORIGINAL_ROOT}/src/jwt.ts"
blocker: "none"
---
`,
  );
  const entry = (id: string, created_at: string, goal: string, layers = ["L1", "L2", "L3"]) => ({
    id,
    path: `${ORIGINAL_ROOT}/.mindsave/snapshots/${id}.md`,
    created_at,
    goal,
    active_files: [],
    blocker: "none",
    layers,
    auto_trigger: null,
  });
  write(
    join(ms, "index.json"),
    json({
      snapshots: [
        entry(
          "OVF_add_jwt_20260512_101500",
          "2026-05-12T02:15:00+00:00",
          "Add JWT refresh to the auth service",
          ["L1"],
        ),
        entry("重构认证模块_20260511", "2026-05-11T01:15:00+00:00", "重构认证模块并修复令牌刷新问题"),
        entry("add_jwt_refresh_20260510", "2026-05-10T06:30:00+00:00", "Add JWT refresh to the auth service"),
        entry("legacy_css_20260420", "2026-04-20T10:00:00+00:00", "Restyle the settings page"),
        entry(
          "dark_mode_20260301",
          "2026-03-01T08:00:00+00:00",
          "Implement dark mode toggle for the settings page",
        ),
        entry("old_task_20260101", "2026-01-01T08:00:00+00:00", "A snapshot whose file was deleted"),
      ],
    }),
  );
  // Failure nodes: the original names the file after the item and keeps no name inside.
  write(
    join(ms, "failure_graph", "project", "websocket_reconnect.json"),
    json({
      schema_version: "1.0",
      rejected_by: "system",
      reason: "corporate proxy drops idle sockets",
      repeat_count: 4,
      confidence: "high",
      scope: "project",
      related: ["socket.io"],
      alternatives: ["long polling", "server-sent events"],
      first_seen: "2026-05-01T10:00:00+00:00",
      last_seen: "2026-05-12T01:00:00+00:00",
    }),
  );
  // A Chinese item: the original's file name is "unknown"; the name is only inside.
  write(
    join(ms, "failure_graph", "project", "unknown.json"),
    json({
      item: "用 Redux 管理表单状态",
      schema_version: "1.0",
      rejected_by: "user",
      reason: "样板代码太多",
      repeat_count: 2,
      confidence: "medium",
      scope: "project",
      related: [],
      alternatives: ["React Hook Form"],
      first_seen: "2026-05-09T03:00:00+00:00",
      last_seen: "2026-05-11T01:15:00+00:00",
    }),
  );
  write(
    join(ms, "failure_graph", "global", "localStorage_for_tokens.json"),
    json({
      schema_version: "1.0",
      rejected_by: "user",
      reason: "XSS exposure",
      repeat_count: 1,
      confidence: "low",
      scope: "global",
      related: [],
      alternatives: ["httpOnly cookie"],
      first_seen: "2026-02-01T00:00:00+00:00",
      last_seen: "2026-02-01T00:00:00+00:00",
    }),
  );
  write(
    join(home, ".mindsave", "global", "moment_js.json"),
    json({
      name: "moment.js",
      schema_version: "1.0",
      rejected_by: "ai",
      reason: "too large for the bundle",
      repeat_count: 3,
      confidence: "high",
      scope: "global",
      related: ["date-fns"],
      alternatives: ["Temporal", "date-fns"],
      first_seen: "2026-01-10T00:00:00+00:00",
      last_seen: "2026-04-01T00:00:00+00:00",
    }),
  );
  // v2 named tool logs by session; v3.5 by anything. One line is broken, one has a field more.
  write(
    join(ms, "tool_logs", "sess-abc123.jsonl"),
    [
      `{"timestamp":"2026-05-10T14:20:00+08:00","action":"edit","target":"src/auth.ts","summary":"added the refresh endpoint"}`,
      `{"timestamp":"2026-05-10T14:25:00+08:00","action":"bash","target":"bun test","summary":"2 failures","exit_code":1}`,
      `{"timestamp":"2026-05-10T14:26:00+08:00","action":"Read","target":"src/jwt.ts","summary":"checked the expiry"}`,
      `not json at all`,
    ].join("\n") + "\n",
  );
  write(
    join(ms, "tool_logs", "2026-05-11.jsonl"),
    `{"timestamp":"2026-05-11T09:00:00+08:00","action":"write","target":"src/auth.ts","summary":"重写令牌刷新"}\n`,
  );
  write(
    join(ms, "signal.json"),
    json({
      last_save: "2026-05-12T10:15:00+08:00",
      last_auto_save_time: "2026-05-12T10:15:00+08:00",
      last_auto_save_turn: 12,
      tool_calls_since_save: 0,
      auto_save_count: 3,
      trigger_reason: "sub-task completed",
      pressure_state: "YELLOW",
      thresholds: { warning: 0.6, critical: 0.8 },
      growth_rate: "normal",
      complexity: "low",
      estimated_tokens_ratio: 0.65,
    }),
  );
  write(join(ms, "execution_graphs", "dag_20260510.json"), "{}\n");
  write(join(ms, "notes.txt"), "scratch\n");
}

const SNAPSHOT_IDS = [
  "OVF_add_jwt_20260512_101500",
  "重构认证模块_20260511",
  "add_jwt_refresh_20260510",
  "legacy_css_20260420",
  "dark_mode_20260301",
];

function setup() {
  const base = tempDir("mindsave-seed-");
  const pc = laptop("alpha", base);
  const repo = gitRepo(join(base, "shop-api"), {
    "src/auth.ts": "export const auth = 1;\n",
    "src/jwt.ts": "export const jwt = 1;\n",
    "src/styles/theme.css": ":root { --bg: white; }\n",
    "src/components/Settings.tsx": "export const Settings = () => null;\n",
    "README.md": "# shop\n",
  });
  const home = join(base, "store");
  mkdirSync(home);
  originalTree(repo, pc.home);
  const opts = (cwd = repo): RunOptions => ({ cwd, env: pc.env });
  const place: Place = { home, cwd: repo, env: pc.env };
  return { base, home, repo, pc, opts, place, db: join(home, "mindsave.db") };
}

/** What `snapshots show NAME --json` prints for each of `names` at `place`: its engine call, one read session. */
async function shownAt(place: Place, names: string[]): Promise<unknown[]> {
  const session = await Session.open({ home: place.home, cwd: place.cwd, env: childEnv(place.env) });
  return session.run(async (s) => {
    const { project } = await requireProject(s);
    const shown: unknown[] = [];
    for (const name of names) {
      const sel = await selectSnapshot(s, project.id, name, { latest: true });
      if (sel.kind !== "snapshot") throw new Error(`${place.home}: no snapshot ${name}`);
      shown.push(JSON.parse(JSON.stringify(sel.snapshot)));
    }
    return shown;
  });
}

/** The rows import writes, without the per-run bookkeeping (hosts, roots, the change log). */
async function contentRows(db: string) {
  const out: Record<string, unknown[]> = {};
  for (const t of ["snapshots", "failures", "failure_counts", "failure_links", "signals", "tool_calls"]) {
    out[t] = await sql(db, `SELECT * FROM ${t} ORDER BY 1`);
  }
  return out;
}

describe("import the original's .mindsave/", () => {
  test("snapshots, failures, tool logs and signal land in the workspace's project; a second import adds nothing", async () => {
    const { home, repo, opts, db, place } = setup();
    const r = await cliJson(["import", repo, "--home", home], opts());
    expect([...r.snapshots.imported].sort()).toEqual([...SNAPSHOT_IDS].sort());
    expect(r.snapshots.failed).toEqual([]);
    expect(r.failures).toEqual({ imported: 4, skipped: 0 });
    expect(r.tool_calls).toEqual({ imported: 4, skipped: 0 });
    expect(r.signal).toBe("imported");
    const warnings = r.warnings.join("\n");
    expect(warnings).toContain("id → snapshot_id");
    expect(warnings).toContain("task_goal → goal");
    expect(warnings).toContain("failed_approaches → excluded_paths");
    expect(warnings).toContain("owner"); // kept in extra, named
    expect(warnings).toContain("old_task_20260101"); // listed in index.json, file missing
    expect(warnings).toContain("notes.txt");
    expect(warnings).toContain("execution_graphs/");
    expect(warnings).toMatch(/sess-abc123\.jsonl: line 4/);
    expect(warnings).toContain("exit_code");

    // Newest first, with the original ids and times. The completed one older than 30 days is
    // archived by retention: out of the list, still there with --all.
    expect(r.snapshots.archived).toEqual(["legacy_css_20260420"]);
    const list = await okJson(["snapshots", "list", "--all", "--home", home], opts());
    expect(list.snapshots.map((s: any) => s.name)).toEqual(SNAPSHOT_IDS);
    const listed = await okJson(["snapshots", "list", "--home", home], opts());
    expect(listed.snapshots.map((s: any) => s.name)).toEqual(
      SNAPSHOT_IDS.filter((n) => n !== "legacy_css_20260420"),
    );
    const show = async (id: string): Promise<any> => (await shownAt(place, [id]))[0];

    const jwt = await show("add_jwt_refresh_20260510");
    expect(jwt.created_at).toBe("2026-05-10T06:30:00.000Z");
    expect(jwt.topic).toBe("add_jwt_refresh");
    // The original host's absolute path is rebased onto this root, and stored relative.
    expect(jwt.active_files.map((f: any) => f.path)).toEqual(["src/auth.ts", "src/jwt.ts"]);
    expect(jwt.auto_trigger).toEqual({ reason: "key-decision", tool_calls_since_last: 12 });
    expect(jwt.layer3).toContain("### Completed Steps");
    expect(jwt.extra).toEqual({ original_version: "3.0" });

    const zh = await show("重构认证模块_20260511");
    expect(zh.goal).toBe("重构认证模块并修复令牌刷新问题");
    expect(zh.state).toBe("刷新接口已完成，两个测试失败");
    expect(zh.topic).toBe("重构认证模块");
    expect(zh.failure_graph["用 Redux 管理表单状态"].alternatives).toEqual(["React Hook Form"]);
    expect(zh.extra._compressed.decisions).toEqual(["每次使用时轮换刷新令牌"]);

    const old = await show("dark_mode_20260301");
    expect(old.goal).toBe("Implement dark mode toggle for the settings page");
    // next_steps is the plan, its first step the next action; Key Context is Layer 2 (restored).
    expect(old.next_action).toBe("Add toggle component to Settings page");
    expect(old.plan.map((p: any) => [p.content, p.status])).toEqual([
      ["Add toggle component to Settings page", "pending"],
      ["Persist theme preference to localStorage", "pending"],
    ]);
    expect(old.constraints).toEqual(["Using CSS variables for theme switching (not class-based)"]);
    expect(old.blocker).toBe("waiting for the design review");
    expect(old.status).toBe("in_progress");
    expect(old.active_files.map((f: any) => f.path)).toEqual(["src/components/Settings.tsx"]);
    expect(old.created_at).toBe("2026-03-01T08:00:00.000Z");
    expect(old.extra).toEqual({ owner: "Lin" });
    expect(Object.keys(old.failure_graph)).toEqual(["CSS-in-JS themes"]);
    expect(old.layer3).toContain("## Key Context");

    const legacy = await show("legacy_css_20260420");
    expect(legacy.status).toBe("completed");
    expect(legacy.failure_graph.Tailwind.reason).toBe("causes style conflict with existing CSS");

    const ovf = await show("OVF_add_jwt_20260512_101500");
    expect(ovf.kind).toBe("overflow");
    expect(ovf.active_files.map((f: any) => f.path)).toEqual(["src/jwt.ts"]);

    // The failure graph: node files merged with the snapshots' entries; names from inside the JSON.
    const f = await okJson(["failures", "--home", home], opts());
    const ws = f.failure_graph.project["websocket reconnect"];
    expect(ws.repeat_count).toBe(4);
    expect(ws.alternatives).toEqual(["long polling", "server-sent events"]);
    expect(ws.first_seen).toBe("2026-05-01T10:00:00.000Z");
    expect(ws.last_seen).toBe("2026-05-12T01:00:00.000Z");
    expect(f.failure_graph.project["用 Redux 管理表单状态"]).toMatchObject({
      repeat_count: 2,
      rejected_by: "user",
      reason: "样板代码太多",
    });
    expect(Object.keys(f.failure_graph.project).sort()).toEqual(
      [
        "CSS-in-JS themes",
        "localStorage 存令牌",
        "Tailwind",
        "websocket reconnect",
        "用 Redux 管理表单状态",
      ].sort(),
    );
    expect(f.failure_graph.global["localStorage for tokens"]).toMatchObject({
      reason: "XSS exposure",
      alternatives: ["httpOnly cookie"],
      first_seen: "2026-02-01T00:00:00.000Z",
    });
    expect(f.failure_graph.global["moment.js"]).toMatchObject({
      rejected_by: "system",
      repeat_count: 3,
      confidence: "high",
      alternatives: ["Temporal", "date-fns"],
    });

    // Load and recall see the imported snapshots (Chinese included).
    const load = await ok(["load", "重构认证模块_20260511", "--home", home], opts());
    expect(load.stdout).toContain("重构认证模块并修复令牌刷新问题");
    expect(load.stdout).toContain("用 Redux 管理表单状态");
    const recall = await okJson(["recall", "令牌刷新", "--home", home], opts());
    expect(recall.hits.map((h: any) => h.name)).toContain("重构认证模块_20260511");
    const recallEn = await ok(["recall", "clock skew", "--home", home], opts());
    expect(recallEn.stdout).toContain("add_jwt_refresh_20260510");

    const calls = await sql(
      db,
      "SELECT timestamp, action, tool, target, summary, session_id FROM tool_calls ORDER BY timestamp",
    );
    expect(calls.length).toBe(4);
    expect(calls[0]).toMatchObject({
      timestamp: "2026-05-10T06:20:00.000Z",
      action: "edit",
      target: "src/auth.ts",
      session_id: "sess-abc123",
    });
    expect(calls[1].summary).toBe('2 failures {"exit_code":1}');
    expect(calls[2]).toMatchObject({ action: "read", tool: "Read" });
    const signal = await okJson(["signal", "--home", home], opts());
    expect(signal).toMatchObject({
      last_save: "2026-05-12T02:15:00.000Z",
      auto_save_count: 3,
      last_auto_save_turn: 12,
      trigger_reason: "sub-task completed",
      estimated_tokens_ratio: 0.65,
    });

    // Again: nothing new, nothing changed.
    const rows = await contentRows(db);
    const again = await cliJson(["import", repo, "--home", home], opts());
    expect(again.snapshots.imported).toEqual([]);
    expect([...again.snapshots.skipped].sort()).toEqual([...SNAPSHOT_IDS].sort());
    expect(again.failures).toEqual({ imported: 0, skipped: 4 });
    expect(again.tool_calls).toEqual({ imported: 0, skipped: 4 });
    expect(again.signal).toBe("unchanged");
    expect(await contentRows(db)).toEqual(rows);
  });

  test("DIR may be the .mindsave folder itself; text output; a folder without .mindsave is refused", async () => {
    const { home, repo, opts, base } = setup();
    const r = await cliOk(["import", join(repo, ".mindsave"), "--home", home], opts(base));
    expect(r.stdout).toContain("snapshots   5 imported, 0 skipped");
    expect(r.stdout).toContain("failures    4 imported");
    expect(r.stderr).toContain("mindsave: warning:");
    expect(r.stdout).toContain("archived    1 older snapshot(s), out of the default list");
    const list = await okJson(["snapshots", "list", "--all", "--home", home], opts());
    expect(list.snapshots.length).toBe(5);

    const empty = tempDir("mindsave-seed-empty-");
    const bad = await cli(["import", empty, "--home", home], opts(base));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("has no .mindsave folder");
    const missing = join(base, "no-such-folder");
    const none = await cli(["import", missing, "--home", home], opts(base));
    expect([none.code, none.stderr.trim()]).toEqual([
      1,
      `mindsave: ${missing} does not exist; give the workspace root or its .mindsave folder.`,
    ]);
  });

  test("a snapshot that cannot be read is reported and the rest still land", async () => {
    const { home, repo, opts } = setup();
    write(
      join(repo, ".mindsave", "snapshots", "broken_20260513.md"),
      `---\ngoal: "unterminated\nstate: [\n---\n`,
    );
    write(join(repo, ".mindsave", "snapshots", "nogoal_20260514.md"), `---\nstate: "no goal here"\n---\n`);
    const r = await cliJson(["import", repo, "--home", home], opts());
    expect(r.snapshots.imported.length).toBe(5);
    expect(r.snapshots.failed.map((f: any) => f.file).sort()).toEqual([
      "snapshots/broken_20260513.md",
      "snapshots/nogoal_20260514.md",
    ]);
    expect(r.snapshots.failed.find((f: any) => f.file.includes("nogoal")).reason).toContain("needs a goal");
  });
});

describe("import fills the full-text index once, at its end", () => {
  test("a recall right after an import finds words of every layer; the index holds each live snapshot once; later saves are indexed again", async () => {
    const { home, repo, opts, db, place } = setup();
    // A snapshot already in the store: indexed by the trigger, before the import.
    await save(place, { goal: "Survey the zeppelin hangar", next: "count the mooring lines" });
    const triggers = "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name";
    const before = await sql(db, triggers);
    const r = await cliJson(["import", repo, "--home", home], opts());
    expect(r.snapshots.imported.length).toBe(5);
    const found = async (words: string) =>
      (await okJson(["recall", words, "--home", home], opts())).hits.map((h: any) => h.name);
    expect(await found("auth service")).toContain("add_jwt_refresh_20260510"); // Layer 1: goal
    expect(await found("runtime dependencies")).toContain("add_jwt_refresh_20260510"); // Layer 2: a constraint
    expect(await found("corporate proxy")).toContain("add_jwt_refresh_20260510"); // Layer 2: a failure's reason
    expect(await found("Wrote the refresh endpoint")).toContain("add_jwt_refresh_20260510"); // Layer 3
    expect(await found("令牌刷新逻辑")).toContain("重构认证模块_20260511"); // Layer 3, Chinese
    expect(await found("zeppelin hangar")).toHaveLength(1);
    // Each live snapshot once, and the index agrees with its rows; the insert trigger is back as it was.
    const live = Number((await sql(db, "SELECT count(*) AS n FROM snapshots WHERE deleted = 0"))[0]!.n);
    expect(live).toBe(6);
    expect(Number((await sql(db, "SELECT count(*) AS n FROM snapshot_search"))[0]!.n)).toBe(live);
    await sql(db, "INSERT INTO snapshot_search(snapshot_search) VALUES ('integrity-check')");
    expect(await sql(db, triggers)).toEqual(before);
    await save(place, { goal: "Inspect the dirigible gondola" });
    expect(await found("dirigible gondola")).toHaveLength(1);
  });
});

describe("export to the original's layout", () => {
  test("export writes the spec's files with relative paths; a fresh store importing them keeps every field", async () => {
    const { home, repo, opts, pc, place } = setup();
    await importAt(place, repo);
    // Native MindSave state too: a topic of its own, a Layer 2 big enough to be compressed, a failure, signal counters.
    const techs = [
      "Tailwind",
      "Bootstrap",
      "Sass",
      "Material UI",
      "Ant Design",
      "Chakra UI",
      "styled-components",
      "OAuth",
      "SAML",
      "MongoDB",
      "GraphQL",
    ];
    const constraints = [
      ...techs.flatMap((t) => [
        `no ${t}`,
        `avoid ${t}`,
        `do not use ${t}`,
        `never use ${t}`,
        `don't use ${t}`,
        `no ${t} anywhere`,
        `no ${t} at all`,
        `stop using ${t}`,
      ]),
      "keep every page under 200 kB of JavaScript",
    ];
    await saveText(
      place,
      `---\ngoal: "Tidy the settings styles"\nstate: "half done"\nnext_action: "finish the form"\ntopic: "styles"\nconstraints:\n${constraints.map((c) => `  - "${c}"`).join("\n")}\nreviewer: "Mo"\n---\n### Completed Steps\n1. the header\n`,
    );
    await fail(place, "jQuery", "legacy only", {
      scope: "global",
      confidence: "low",
      alternatives: ["vanilla DOM"],
    });
    await atPlace(place, (s) => observeSignal(s, { toolCalls: 3, ratio: 0.3 }));
    // Archived snapshots are exported too (the completed legacy_css one: completed and older than 30 days).
    const list = (await okJson(["snapshots", "list", "--all", "--home", home], opts())).snapshots.map(
      (s: any) => s.name,
    );
    expect(list.length).toBe(6);
    const native = await okJson(["snapshots", "show", list[0], "--home", home], opts());
    expect(native.topic).toBe("styles");
    expect(native.compressed).not.toBeNull();

    const ex = await cliJson(["export", "--home", home], opts(join(repo, "src")));
    expect(ex.dir).toBe(join(repo, ".mindsave"));
    expect(ex.snapshots).toEqual(list);
    const ms = join(repo, ".mindsave");

    // index.json: newest first, relative paths, nothing of this host's or the original's absolute paths.
    const index = JSON.parse(readFileSync(join(ms, "index.json"), "utf8"));
    expect(index.snapshots.map((e: any) => e.id)).toEqual(list);
    const times = index.snapshots.map((e: any) => Date.parse(e.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    for (const e of index.snapshots) {
      expect(Object.keys(e)).toEqual([
        "id",
        "path",
        "created_at",
        "goal",
        "active_files",
        "blocker",
        "layers",
        "auto_trigger",
      ]);
      expect(e.path).toBe(`.mindsave/snapshots/${e.id}.md`);
    }
    const indexText = readFileSync(join(ms, "index.json"), "utf8");
    expect(indexText).not.toContain(repo);
    expect(indexText).not.toContain(ORIGINAL_ROOT);
    expect(index.snapshots.find((e: any) => e.id === "add_jwt_refresh_20260510")).toMatchObject({
      active_files: ["src/auth.ts", "src/jwt.ts"],
      layers: ["L1", "L2", "L3"],
      auto_trigger: "key-decision",
    });

    // A snapshot file in the spec's template with relative active files.
    const file = readFileSync(join(ms, "snapshots", "add_jwt_refresh_20260510.md"), "utf8");
    expect(file.startsWith("---\nsnapshot_id: add_jwt_refresh_20260510\n")).toBe(true);
    expect(file).toContain("active_files:\n  - src/auth.ts\n  - src/jwt.ts\n");
    expect(file).toContain("## Layer 3: Cold Archive (debug only)");
    expect(file).not.toContain(repo);

    // Failure nodes: the v3.5 fields plus the real name; existing files are reused by the name inside.
    const node = (scope: string, name: string) =>
      JSON.parse(readFileSync(join(ms, "failure_graph", scope, name), "utf8"));
    const wsNode = node("project", "websocket_reconnect.json");
    expect(Object.keys(wsNode).sort()).toEqual([
      "_mindsave",
      "alternatives",
      "confidence",
      "first_seen",
      "item",
      "last_seen",
      "reason",
      "rejected_by",
      "related",
      "repeat_count",
      "schema_version",
      "scope",
    ]);
    expect(wsNode).toMatchObject({ item: "websocket reconnect", repeat_count: 4, scope: "project" });
    // Which host counted the repeats (all this laptop's: it imported them), adding up to repeat_count.
    expect(Object.values(wsNode._mindsave.counts)).toEqual([4]);
    expect(node("project", "unknown.json").item).toBe("用 Redux 管理表单状态");
    expect(node("global", "moment_js.json").item).toBe("moment.js");
    expect(node("global", "jQuery.json")).toMatchObject({
      item: "jQuery",
      confidence: "low",
      alternatives: ["vanilla DOM"],
    });
    expect(readdirSync(join(ms, "failure_graph", "project")).sort()).toEqual(
      [
        "CSS_in_JS_themes.json",
        "Tailwind.json",
        "localStorage_存令牌.json",
        "unknown.json",
        "websocket_reconnect.json",
      ].sort(),
    );

    const signal = JSON.parse(readFileSync(join(ms, "signal.json"), "utf8"));
    expect(Object.keys(signal)).toEqual([
      "last_save",
      "last_auto_save_time",
      "last_auto_save_turn",
      "tool_calls_since_save",
      "auto_save_count",
      "trigger_reason",
      "pressure_state",
      "thresholds",
      "growth_rate",
      "complexity",
      "estimated_tokens_ratio",
    ]);
    expect(signal.tool_calls_since_save).toBe(3);
    // Every call is already in a log on disk: export adds no duplicate lines.
    expect(ex.tool_calls).toBe(0);

    // Round trip into a fresh store on the same laptop.
    const home2 = join(pc.home, "..", "store2");
    mkdirSync(home2);
    const back = await cliJson(["import", repo, "--home", home2], opts());
    expect(back.snapshots.failed).toEqual([]);
    // Everything exported, the archived legacy snapshot included: nothing is left on disk that the store lost.
    expect(ex.warnings.join("\n")).not.toContain("legacy_css_20260420.md");
    expect([...back.snapshots.imported].sort()).toEqual([...list].sort());
    expect(back.warnings.join("\n")).not.toContain("Kept fields"); // export's own extra fields come back quietly
    const strip = (s: any) => {
      const { id: _id, hlc: _hlc, ...rest } = s;
      return rest;
    };
    const [shownA, shownB] = [await shownAt(place, list), await shownAt({ ...place, home: home2 }, list)];
    expect(shownB.map(strip)).toEqual(shownA.map(strip));
    const fa = await okJson(["failures", "--home", home], opts());
    const fb = await okJson(["failures", "--home", home2], opts());
    expect(fb).toEqual(fa);
    const sa = await sql(
      join(home, "mindsave.db"),
      "SELECT timestamp, action, tool, target, summary, session_id FROM tool_calls ORDER BY timestamp, target",
    );
    const sb = await sql(
      join(home2, "mindsave.db"),
      "SELECT timestamp, action, tool, target, summary, session_id FROM tool_calls ORDER BY timestamp, target",
    );
    expect(sb).toEqual(sa);
  });

  test("--out writes a fresh tree: tool logs by day, at most 20 snapshots in index.json, newest first", async () => {
    const base = tempDir("mindsave-seed-many-");
    const pc = laptop("beta", base);
    const home = join(base, "store");
    mkdirSync(home);
    const ws = join(base, "notes"); // not a git repository: the project id lives in .mindsave/project.json
    for (let i = 1; i <= 22; i++) {
      const day = String(i).padStart(2, "0");
      write(
        join(ws, ".mindsave", "snapshots", `task_${i}_202603${day}.md`),
        `---\nsnapshot_id: "task_${i}_202603${day}"\ncreated_at: "2026-03-${day}T12:00:00Z"\ngoal: "Task number ${i}"\nstate: "started"\nnext_action: "continue"\nactive_files: ["docs/t${i}.md"]\nblocker: "none"\n---\n`,
      );
    }
    write(
      join(ws, ".mindsave", "tool_logs", "log.jsonl"),
      [
        `{"timestamp":"2026-03-01T10:00:00Z","action":"edit","target":"docs/t1.md","summary":"first"}`,
        `{"timestamp":"2026-03-02T10:00:00Z","action":"bash","target":"make","summary":"second"}`,
      ].join("\n") + "\n",
    );
    const opts = { cwd: ws, env: pc.env };
    const r = await cliJson(["import", ws, "--home", home], opts);
    expect(r.snapshots.imported.length).toBe(22);
    expect(existsSync(join(ws, ".mindsave", "project.json"))).toBe(true);

    const out = join(base, "exported");
    const ex = await cliJson(["export", "--out", out, "--home", home], opts);
    expect(ex.dir).toBe(join(out, ".mindsave"));
    const index = JSON.parse(readFileSync(join(out, ".mindsave", "index.json"), "utf8"));
    expect(index.snapshots.length).toBe(20);
    expect(index.snapshots[0].id).toBe("task_22_20260322");
    expect(index.snapshots[19].id).toBe("task_3_20260303");
    expect(readdirSync(join(out, ".mindsave", "snapshots")).length).toBe(22);
    expect(readdirSync(join(out, ".mindsave", "tool_logs")).sort()).toEqual([
      "2026-03-01.jsonl",
      "2026-03-02.jsonl",
    ]);
    const line = JSON.parse(
      readFileSync(join(out, ".mindsave", "tool_logs", "2026-03-01.jsonl"), "utf8").trim(),
    );
    expect(line).toEqual({
      timestamp: "2026-03-01T10:00:00.000Z",
      action: "edit",
      target: "docs/t1.md",
      summary: "first",
      session_id: "log",
    });
    const snap = readFileSync(join(out, ".mindsave", "snapshots", "task_1_20260301.md"), "utf8");
    expect(snap).toContain("active_files:\n  - docs/t1.md\n");

    // A second export changes nothing it does not own and adds no duplicate log lines.
    const again = await cliJson(["export", "--out", out, "--home", home], opts);
    expect(again.tool_calls).toBe(0);
    expect(
      readFileSync(join(out, ".mindsave", "tool_logs", "2026-03-01.jsonl"), "utf8")
        .trim()
        .split("\n").length,
    ).toBe(1);
  });

  test("export refuses to overwrite a different snapshot that exists only on disk", async () => {
    const { home, repo, opts, place } = setup();
    const name = (await save(place, { goal: "Write the changelog", topic: "changelog" })).snapshot.name;
    write(
      join(repo, ".mindsave", "snapshots", `${name}.md`),
      `---\nsnapshot_id: "${name}"\ncreated_at: "2020-01-01T00:00:00Z"\ngoal: "Something else entirely"\n---\n`,
    );
    const r = await cli(["export", "--home", home], opts());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`snapshots/${name}.md`);
    expect(readFileSync(join(repo, ".mindsave", "snapshots", `${name}.md`), "utf8")).toContain(
      "Something else entirely",
    );
    // Imported first, the disk's snapshot gets its own id; then export writes both.
    const imp = await cliJson(["import", repo, "--home", home], opts());
    expect(imp.snapshots.imported).toContain(`${name}-2`);
    expect(imp.warnings.join("\n")).toContain(`imported as ${name}-2`);
    await cliOk(["export", "--home", home], opts());
    expect(readFileSync(join(repo, ".mindsave", "snapshots", `${name}.md`), "utf8")).toContain(
      "Write the changelog",
    );
    expect(readFileSync(join(repo, ".mindsave", "snapshots", `${name}-2.md`), "utf8")).toContain(
      "Something else entirely",
    );
  });
});

describe("exported files read the same in YAML 1.1 (the original's Python SDK)", () => {
  test("values YAML 1.1 would read as booleans or numbers (yes, off, 1:20, 1_000) are quoted; both versions read the text", async () => {
    const base = tempDir("mindsave-yaml11-");
    const pc = laptop("yaml-laptop", base);
    const repo = gitRepo(join(base, "repo"));
    const home = join(base, "home");
    mkdirSync(home);
    const at: RunOptions = { cwd: repo, env: pc.env };
    await ok(
      [
        "save",
        "--home",
        home,
        "--goal",
        "ship it",
        "--state",
        "yes",
        "--next",
        "1:20",
        "--blocker",
        "off",
        "--constraint",
        "1_000",
        "--decision",
        "no",
      ],
      at,
    );
    const ex = await okJson(["export", "--home", home, "--out", join(base, "out")], at);
    const text = readFileSync(join(ex.dir, "snapshots", `${ex.snapshots[0]}.md`), "utf8");
    const front = text.split("\n---\n")[0].replace(/^---\n/, "");
    const { parse } = await import("yaml");
    for (const version of ["1.1", "1.2"] as const) {
      const data = parse(front, { version });
      expect([data.state, data.next_action, data.blocker, data.constraints, data.decisions]).toEqual([
        "yes",
        "1:20",
        "off",
        ["1_000"],
        ["no"],
      ]);
    }
  });
});

/** PyYAML, the YAML 1.1 reader of the original's Python SDK, when this machine has it. */
const pyyaml = spawnSync("python3", ["-c", "import yaml"]).status === 0;

describe("the spec's files read the same in YAML 1.1", () => {
  const values = [
    "<<",
    "=",
    "2024-01-01",
    "2024-1-1 10:00:00",
    "2001-12-14 21:59:43.10 -5",
    "+0x1F",
    "+017",
    "plain words",
  ];

  test("snapshots show quotes a merge key, a value key, dates and signed hex or octal numbers", async () => {
    const t = projectOnLaptop("mindsave-six-");
    await save(inRepo(t), { goal: "g", state: "s", next: "n", decision: values });
    const shown = (await t.okCli(["snapshots", "show"])).stdout;
    for (const v of values.slice(0, -1)) expect(shown).toContain(`  - "${v}"\n`);
    expect(shown).toContain("  - plain words\n");
  });

  test.skipIf(!pyyaml)(
    "PyYAML reads every value back as the text it was (needs python3 with PyYAML)",
    async () => {
      const t = projectOnLaptop("mindsave-six-");
      const failed = ["<<", "2024-01-01"];
      await save(inRepo(t), { goal: "g", state: "s", next: "n", decision: values, failed });
      const shown = (await t.okCli(["snapshots", "show"])).stdout;
      const read = spawnSync(
        "python3",
        [
          "-c",
          "import sys, yaml, json; d = yaml.safe_load(sys.stdin.read().split('\\n---\\n', 1)[0][4:]); print(json.dumps([d['decisions'], sorted(d['failure_graph'])]))",
        ],
        { input: shown, encoding: "utf8" },
      );
      expect(read.stderr).toBe("");
      expect(JSON.parse(read.stdout)).toEqual([values, ["2024-01-01", "<<"]]);
    },
  );
});

describe("importing the same folder again", () => {
  // A failure node (the original's last word on the failure) and snapshots that mention it with an
  // older word: rejected by the system then, by the user by the node's last_seen.
  const NODE = {
    item: "moment.js",
    rejected_by: "user",
    reason: "too heavy for the bundle",
    repeat_count: 2,
    scope: "project",
    related: [],
    alternatives: ["date-fns"],
    first_seen: "2026-03-01T10:00:00.000Z",
    last_seen: "2026-03-05T10:00:00.000Z",
  };
  const snapshot = (id: string, at: string) => `---
snapshot_id: "${id}"
created_at: "${at}"
version: "3.5"
goal: "Replace the date library 替换日期库"
state: "Comparing bundle sizes"
next_action: "Measure date-fns"
blocker: "none"
failure_graph:
  "moment.js":
    rejected_by: "system"
    reason: "build failed once"
    repeat_count: 1
    scope: "project"
---
`;
  function folder() {
    const t = projectOnLaptop("mindsave-seed-again-");
    write(join(t.repo, ".mindsave", "failure_graph", "project", "moment_js.json"), json(NODE));
    write(
      join(t.repo, ".mindsave", "snapshots", "dates_20260305.md"),
      snapshot("dates_20260305", "2026-03-05T10:00:00.000Z"),
    );
    return t;
  }
  const failureRow = async (db: string) =>
    (await sql(db, "SELECT rejected_by, reason, hlc FROM failures WHERE item = ?", ["moment.js"]))[0];

  test("an older snapshot mentioning a known failure does not rewrite it: the node file's word stands, the failure is skipped", async () => {
    const t = folder();
    await importAt(inRepo(t), join(t.repo, ".mindsave"));
    const first = await failureRow(t.db);
    expect(first.rejected_by).toBe(NODE.rejected_by);
    expect(first.reason).toBe(NODE.reason);
    // A snapshot from before the node's last_seen appears in the folder (copied in from elsewhere).
    write(
      join(t.repo, ".mindsave", "snapshots", "dates_20260302.md"),
      snapshot("dates_20260302", "2026-03-02T10:00:00.000Z"),
    );
    const r = await t.json(["import", ".mindsave"]);
    expect(r.snapshots.imported).toEqual(["dates_20260302"]);
    expect(r.failures).toEqual({ imported: 0, skipped: 1 });
    // Not rewritten at all: the same word and the same clock (a sync has nothing to send).
    expect(await failureRow(t.db)).toEqual(first);
  });

  test("a snapshot deleted here stays deleted; the summary says so, and --restore-deleted brings it back", async () => {
    const t = folder();
    write(
      join(t.repo, ".mindsave", "snapshots", "dates_20260302.md"),
      snapshot("dates_20260302", "2026-03-02T10:00:00.000Z"),
    );
    await importAt(inRepo(t), join(t.repo, ".mindsave"));
    await deleteAt(inRepo(t), "dates_20260302");
    const again = await t.okCli(["import", ".mindsave"]);
    expect(again.stdout).toContain(
      "0 imported, 1 skipped (already in the store), 1 deleted here earlier (not brought back; --restore-deleted brings them back)",
    );
    const names = async () =>
      (await t.json(["snapshots", "list", "--all"])).snapshots.map((s: any) => s.name);
    expect(await names()).toEqual(["dates_20260305"]);
    const json = await t.json(["import", ".mindsave"]);
    expect(json.snapshots.deleted).toEqual(["dates_20260302"]);
    const restored = await t.json(["import", ".mindsave", "--restore-deleted"]);
    expect(restored.snapshots.imported).toEqual(["dates_20260302"]);
    expect(await names()).toEqual(["dates_20260305", "dates_20260302"]);
  });

  test("MindSave's own export: a snapshot deleted since stays deleted; brought back with --restore-deleted, a later import skips it", async () => {
    const t = projectOnLaptop("mindsave-seed-again-");
    await saveGoal(t, "Port the billing page");
    await saveGoal(t, "Port the invoice page");
    const out = join(t.base, "out");
    await atPlace(inRepo(t), (s) => exportSeed(s, { out }));
    const names = async () =>
      (await t.json(["snapshots", "list", "--all"])).snapshots.map((s: any) => s.name).sort();
    const all = await names();
    const gone = all.find((n: string) => n.startsWith("port_the_billing"))!;
    await deleteAt(inRepo(t), gone);
    expect((await t.json(["import", out])).snapshots.deleted).toEqual([gone]);
    const restored = await t.json(["import", out, "--restore-deleted"]);
    expect(restored.snapshots.imported).toEqual([gone]);
    expect(await names()).toEqual(all);
    const later = await t.json(["import", out]);
    expect(later.snapshots).toMatchObject({ imported: [], deleted: [] });
    expect([...later.snapshots.skipped].sort()).toEqual(all);
  });
});
