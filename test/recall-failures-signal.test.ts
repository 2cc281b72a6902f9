// recall (FTS5), the failure graph, and the signal, through the real CLI.
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { gitRepo, laptop, ok, okJson, sql, tempDir } from "./helpers.ts";
import { recordFailure } from "../src/engine/failures/record.ts";
import { atPlace, fail, save, saveText } from "./engine-setup.ts";
import { recallSearch } from "../src/engine/snapshots/recall.ts";

function setup() {
  const base = tempDir();
  const home = join(base, "home");
  mkdirSync(home);
  const repo = gitRepo(join(base, "repo"));
  const other = gitRepo(join(base, "other"), { "x.txt": "other project\n" });
  const pc = laptop("p", base);
  return {
    base,
    home,
    repo,
    other,
    env: pc.env,
    db: join(home, "mindsave.db"),
    at: (cwd: string) => ({ cwd, env: pc.env }),
    /** Where set-up records state in this process (the engine's use cases, as the CLI's): in `cwd`. */
    here: (cwd: string) => ({ home, cwd, env: pc.env }),
  };
}

describe("recall", () => {
  test("searches every layer with a context line per hit; any keyword searches, none crashes", async () => {
    const t = setup();
    await saveText(
      t.here(t.repo),
      `---\ngoal: Add JWT refresh\nstate: endpoint done\n---\n### Recent Tool Calls\n1. curl -X POST /auth/refresh returned 401 "expired"\n`,
    );
    await save(t.here(t.repo), { goal: "修复令牌刷新的并发问题", decision: ["使用互斥锁保护刷新流程"] });
    await save(t.here(t.repo), {
      goal: "Tune the C++ build (-O2 vs -O3)",
      constraint: ["keep NOT NULL columns"],
    });

    const jwt = await ok(["recall", "jwt", "--home", t.home], t.at(t.repo));
    expect(jwt.stdout).toContain("1 snapshot(s) match");
    expect(jwt.stdout).toContain("«JWT»");
    // Its time says its zone, as every time MindSave prints does.
    const [hit] = (await okJson(["recall", "jwt", "--home", t.home], t.at(t.repo))).hits;
    expect(jwt.stdout).toContain(
      `${String(hit.created_at).slice(0, 16).replace("T", " ")} UTC  Add JWT refresh`,
    );
    const l3 = await okJson(["recall", "returned 401", "--home", t.home], t.at(t.repo));
    expect(l3.hits).toHaveLength(1);
    expect(l3.hits[0].context).toContain("«returned 401»".slice(0, 5));
    // Two-character Chinese words (below the trigram length) still match.
    const zh = await okJson(["recall", "令牌", "--home", t.home], t.at(t.repo));
    expect(zh.hits.map((h: any) => h.goal)).toEqual(["修复令牌刷新的并发问题"]);
    expect((await okJson(["recall", "互斥锁", "--home", t.home], t.at(t.repo))).hits).toHaveLength(1);

    // Any keyword, FTS5's syntax and SQL included, searches and none crashes: the search `recall`
    // runs, in this process (the CLI's `--` before a keyword is run just below).
    await atPlace(t.here(t.repo), async (s) => {
      for (const keyword of [
        '"',
        "*",
        "-",
        "OR",
        "NOT",
        "AND",
        "(",
        ")",
        "^",
        "NEAR(",
        'a"b',
        "-O2",
        "C++",
        "'; DROP TABLE snapshots; --",
        "col:val",
        "{x}",
        "%",
        "_",
      ])
        expect(Array.isArray((await recallSearch(s, [keyword])).hits)).toBe(true);
    });
    expect((await okJson(["recall", "--home", t.home, "--", "-O2"], t.at(t.repo))).hits).toHaveLength(1);
    expect((await okJson(["recall", "--home", t.home, "--", "C++"], t.at(t.repo))).hits).toHaveLength(1);
    expect((await okJson(["recall", "--home", t.home, "--", "NOT NULL"], t.at(t.repo))).hits).toHaveLength(1);
    expect((await okJson(["recall", "--home", t.home, "--", '"expired"'], t.at(t.repo))).hits).toHaveLength(
      1,
    );
    expect((await sql(t.db, "SELECT count(*) AS n FROM snapshots"))[0].n).toBe(3);
  });

  test("stays within the project unless --all-projects", async () => {
    const t = setup();
    await save(t.here(t.repo), { goal: "database migration in repo" });
    await save(t.here(t.other), { goal: "database tuning in other" });
    expect((await okJson(["recall", "database", "--home", t.home], t.at(t.repo))).hits).toHaveLength(1);
    expect(
      (await okJson(["recall", "database", "--all-projects", "--home", t.home], t.at(t.repo))).hits,
    ).toHaveLength(2);
  });

  test("without a keyword shows the newest or a chosen snapshot's Layer 3", async () => {
    const t = setup();
    await saveText(t.here(t.repo), "---\ngoal: older\n---\n### Completed Steps\n1. old step\n", {
      topic: "older",
    });
    await saveText(t.here(t.repo), "---\ngoal: newer\n---\n### Completed Steps\n1. new step\n");
    expect((await ok(["recall", "--home", t.home], t.at(t.repo))).stdout).toContain("new step");
    expect((await ok(["recall", "--snapshot", "older", "--home", t.home], t.at(t.repo))).stdout).toContain(
      "old step",
    );
  });
});

describe("failure graph", () => {
  test("the same item again increments repeat_count and merges related and alternatives", async () => {
    const t = setup();
    // The first two in this process; the third is the CLI's, whose answer is checked.
    await fail(t.here(t.repo), "Tailwind", "style conflict", {
      related: ["Bootstrap"],
      alternatives: ["CSS Modules"],
    });
    await fail(t.here(t.repo), "tailwind", undefined, {
      related: ["utility-first CSS"],
      alternatives: ["CSS Modules", "vanilla CSS"],
    });
    const third = await okJson(["fail", "Tailwind", "--by", "system", "--home", t.home], t.at(t.repo));
    expect(third.repeat_count).toBe(3);
    expect(third.confidence).toBe("high");
    expect(third.reason).toBe("style conflict");
    expect(third.related).toEqual(["Bootstrap", "utility-first CSS"]);
    expect(third.alternatives).toEqual(["CSS Modules", "vanilla CSS"]);
    const graph = (await okJson(["failures", "--home", t.home], t.at(t.repo))).failure_graph.project;
    expect(graph.Tailwind).toMatchObject({
      schema_version: "1.0",
      rejected_by: "system",
      repeat_count: 3,
      confidence: "high",
      scope: "project",
    });
    // Counted per host: all three on this host.
    expect(await sql(t.db, "SELECT count FROM failure_counts")).toEqual([{ count: 3 }] as any);
  });

  test("global failures show in every project's restore block; project ones only in theirs", async () => {
    const t = setup();
    await fail(t.here(t.repo), "localStorage for tokens", "XSS exposure", {
      scope: "global",
      alternatives: ["httpOnly cookies"],
    });
    await fail(t.here(t.repo), "websocket reconnect", "proxy drops it");
    await save(t.here(t.repo), { goal: "repo task" });
    await save(t.here(t.other), { goal: "other task" });
    const repoBlock = (await ok(["load", "--home", t.home], t.at(t.repo))).stdout;
    const otherBlock = (await ok(["load", "--home", t.home], t.at(t.other))).stdout;
    expect(repoBlock).toContain("localStorage for tokens: XSS exposure");
    expect(repoBlock).toContain("websocket reconnect: proxy drops it");
    expect(otherBlock).toContain(
      "localStorage for tokens: XSS exposure [user, ×1, medium, global] → instead: httpOnly cookies",
    );
    expect(otherBlock).not.toContain("websocket reconnect");
  });

  test("legacy excluded_paths in a snapshot become failure-graph entries", async () => {
    const t = setup();
    const yaml = `goal: legacy import\nexcluded_paths:\n  - "Don't use Tailwind — causes style conflict"\n  - "websocket reconnect failed 3 times, switched to polling"\n  - "不要用Redux：太重了"\n`;
    await saveText(t.here(t.repo), yaml);
    await save(t.here(t.repo), { goal: "flag form", failed: ["MongoDB: no transactions"] });
    const graph = (await okJson(["failures", "--home", t.home], t.at(t.repo))).failure_graph.project;
    expect(graph.Tailwind.reason).toBe("causes style conflict");
    expect(graph.Redux.reason).toBe("太重了");
    expect(graph.MongoDB.reason).toBe("no transactions");
    // The spec's own example: the item, how often it failed, and what replaced it.
    expect(graph["websocket reconnect"]).toMatchObject({
      reason: "failed 3 times",
      repeat_count: 3,
      alternatives: ["polling"],
    });
    const row = await sql(t.db, "SELECT failure_graph FROM snapshots WHERE goal = 'legacy import'");
    expect(Object.keys(JSON.parse(String(row[0].failure_graph)))).toHaveLength(3);
  });

  test("a snapshot's failure_graph repeat_count is a floor, not added again on each save", async () => {
    const t = setup();
    const yaml = "goal: g\nfailure_graph:\n  Redis cache:\n    reason: stale reads\n    repeat_count: 2\n";
    await saveText(t.here(t.repo), yaml);
    await saveText(t.here(t.repo), yaml);
    expect(
      (await okJson(["failures", "--home", t.home], t.at(t.repo))).failure_graph.project["Redis cache"]
        .repeat_count,
    ).toBe(2);
  });

  test("the restore block stays within 800 tokens and says what it left out", async () => {
    const t = setup();
    // Forty failures recorded by the engine in one process (what `mindsave fail` runs; the CLI is
    // what the load below tests, not this loop).
    await atPlace(t.here(t.repo), async (session) => {
      for (let i = 0; i < 40; i++) {
        await recordFailure(session, {
          item: `approach number ${i} with a fairly long descriptive name`,
          reason: `it failed for reason ${i}, which took a long time to find out`,
          increment: true,
        });
      }
    });
    await save(t.here(t.repo), { goal: "many failures", constraint: ["always keep this constraint"] });
    const j = await okJson(["load", "--home", t.home], t.at(t.repo));
    expect(j.tokens).toBeLessThanOrEqual(800);
    expect(j.omitted.failures).toBeGreaterThan(0);
    expect(j.restore_block).toContain("Left out to stay within 800 tokens");
    expect(j.restore_block).toContain("mindsave failures");
    expect(j.restore_block).toContain("always keep this constraint");
    expect(j.restore_block).toContain("goal: many failures");
  });
});

describe("a failure given another reason", () => {
  test("says which reason it replaced, in the text and in --json", async () => {
    const t = setup();
    await fail(t.here(t.repo), "redis cache", "memory leak");
    const text = await ok(
      ["fail", "redis cache", "--reason", "too slow under load", "--home", t.home],
      t.at(t.repo),
    );
    expect(text.stdout).toContain(`Its reason was "memory leak"; it is now "too slow under load".`);
    const same = await ok(
      ["fail", "redis cache", "--reason", "too slow under load", "--home", t.home],
      t.at(t.repo),
    );
    expect(same.stdout).not.toContain("Its reason was");
    const json = await okJson(
      ["fail", "redis cache", "--reason", "leaks again", "--home", t.home],
      t.at(t.repo),
    );
    expect([json.reason, json.replaced_reason]).toEqual(["leaks again", "too slow under load"]);
  });
});

describe("signal", () => {
  test("tool calls, ratio and turns drive GREEN/YELLOW/RED with adaptive thresholds; --json is the spec's signal.json", async () => {
    const t = setup();
    await save(t.here(t.repo), { goal: "g" });
    const green = await okJson(["signal", "--ratio", "0.5", "--home", t.home], t.at(t.repo));
    expect(Object.keys(green).sort()).toEqual([
      "auto_save_count",
      "complexity",
      "estimated_tokens_ratio",
      "growth_rate",
      "last_auto_save_time",
      "last_auto_save_turn",
      "last_save",
      "pressure_state",
      "thresholds",
      "tool_calls_since_save",
      "trigger_reason",
    ]);
    // No tool call watched yet: the spec's typical growth, not a slow one.
    expect(green).toMatchObject({
      pressure_state: "GREEN",
      growth_rate: "normal",
      thresholds: { warning: 0.6, critical: 0.8 },
    });
    const fast = await okJson(["signal", "--tool-call", "8", "--home", t.home], t.at(t.repo));
    expect(fast).toMatchObject({
      growth_rate: "fast",
      pressure_state: "YELLOW",
      tool_calls_since_save: 8,
      thresholds: { warning: 0.48, critical: 0.64 },
    });
    const red = await ok(["signal", "--ratio", "0.7", "--home", t.home], t.at(t.repo));
    expect(red.stdout).toContain("Pressure RED");
    await save(t.here(t.repo), { goal: "g2" });
    expect((await okJson(["signal", "--home", t.home], t.at(t.repo))).tool_calls_since_save).toBe(0);
  });
});
