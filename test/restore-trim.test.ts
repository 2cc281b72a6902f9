// The restore block keeps what matters when it is trimmed: failures ranked by weight (repeats,
// confidence, recency), failures and decisions dropped one at a time by value (a long failure list
// no longer takes every decision at once), and a save's Layer 1 count covering every active file.
import { describe, expect, test } from "bun:test";
import { buildRestoreBlock } from "../src/engine/snapshots/restore.ts";
import { layer1Text } from "../src/engine/snapshots/layers.ts";
import { countTokens, loadTokenizer } from "../src/engine/snapshots/tokens.ts";
import { projectOnLaptop } from "./helpers.ts";
import type { FailureRecord, SnapshotRecord } from "../src/store/store.ts";

// Pinned: every time below is an offset from this one.
const T0 = Date.parse("2026-11-20T10:00:00.000Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();

function snapshot(decisions: string[] = []): SnapshotRecord {
  return {
    id: "s1",
    project_id: "p1",
    name: "release_2026-11-20",
    topic: "release",
    kind: "full",
    status: "in_progress",
    created_at: at(0),
    version: "3.5",
    goal: "ship the release",
    state: "testing",
    next_action: "run the suite",
    blocker: "none",
    active_files: [],
    constraints: [],
    decisions,
    failure_graph: {},
    compressed: null,
    layer3: "",
    auto_trigger: null,
    extra: null,
    l1_tokens: 0,
    l2_tokens: 0,
    saved_host: "h1",
    saved_root: null,
    hlc: "0",
    host: "h1",
    deleted: false,
  } as unknown as SnapshotRecord;
}

function failure(item: string, o: Partial<FailureRecord>): FailureRecord {
  return {
    id: `f_${item}`,
    project_id: "p1",
    scope: "project",
    item,
    rejected_by: "user",
    reason: "it broke the build in a way that took an afternoon to find",
    confidence: "medium",
    schema_version: "3.5",
    first_seen: at(0),
    last_seen: at(0),
    repeat_count: 1,
    related: [],
    alternatives: [],
    hlc: "0",
    host: "h1",
    deleted: false,
    ...o,
  };
}

describe("failures are trimmed by weight", () => {
  test("a ×8 high-confidence failure outranks seven ×1 medium ones recorded a second later", async () => {
    const heavy = failure("websocket transport", {
      rejected_by: "system",
      confidence: "high",
      repeat_count: 8,
      last_seen: at(0),
    });
    const light = Array.from({ length: 7 }, (_, i) => failure(`approach ${i}`, { last_seen: at(1000) }));
    const ctx = { root: null, savedOn: null, failures: [...light, heavy], now: new Date(T0 + 3_600_000) };
    const full = await buildRestoreBlock(snapshot(), ctx);
    expect(full.omitted.failures).toBe(0);
    // The tightest budgets that leave out one failure, then two, …: the ×8 one is never among them.
    let trimmed = 0;
    for (let budget = full.tokens - 1; trimmed < 7; budget--) {
      const b = await buildRestoreBlock(snapshot(), { ...ctx, budget });
      if (b.omitted.failures === trimmed) continue;
      trimmed = b.omitted.failures;
      if (trimmed < 8) expect(b.text).toContain("- websocket transport:");
    }
    expect(trimmed).toBe(7);
  });
});

describe("decisions go one at a time", () => {
  test("a long failure list leaves the first decisions in, and the last decision goes first", async () => {
    const failures = Array.from({ length: 25 }, (_, i) =>
      failure(`approach ${i} with a long name`, { last_seen: at(i * 1000) }),
    );
    const decisions = Array.from(
      { length: 12 },
      (_, i) => `decision ${i}: use the component library variant ${i} for its accessibility`,
    );
    const ctx = { root: null, savedOn: null, failures, now: new Date(T0 + 3_600_000) };
    const b = await buildRestoreBlock(snapshot(decisions), ctx);
    expect(b.tokens).toBeLessThanOrEqual(800);
    expect(b.omitted.failures).toBeGreaterThan(0);
    expect(b.omitted.decisions).toBeGreaterThan(0);
    expect(b.omitted.decisions).toBeLessThan(decisions.length);
    // The decisions kept are the first ones, in order.
    const kept = decisions.filter((d) => b.text.includes(`- ${d}\n`));
    expect(kept).toEqual(decisions.slice(0, kept.length));
    // Trimmed step by step from the whole block, decisions leave last first, one at a time.
    const full = await buildRestoreBlock(snapshot(decisions), { ...ctx, budget: Infinity });
    let left = decisions.length;
    for (let budget = full.tokens - 1; left > 1; budget -= 2) {
      const t = await buildRestoreBlock(snapshot(decisions), { ...ctx, budget });
      const now = decisions.filter((d) => t.text.includes(`- ${d}\n`)).length;
      expect(left - now).toBeLessThanOrEqual(1);
      expect(decisions.slice(0, now).every((d) => t.text.includes(`- ${d}\n`))).toBe(true);
      left = now;
    }
  });
});

describe("the Layer 1 count covers every active file", () => {
  test("a save of 40 active files reports the tokens of the Layer 1 it keeps, and the files it moved are in Layer 3", async () => {
    await loadTokenizer();
    const p = projectOnLaptop("mindsave-trim-");
    const files = Array.from(
      { length: 40 },
      (_, i) => `src/components/feature${i}/widgets/Component${i}.tsx`,
    );
    const saved = await p.json([
      "save",
      "--goal",
      "Move every widget to the new theme",
      "--state",
      "half moved",
      "--next",
      "move the rest",
      ...files.flatMap((f) => ["--active-file", f]),
    ]);
    const shown = await p.json(["load", "--latest", "--full"]);
    const l1 = shown.layer1;
    // What is reported is what Layer 1 renders with every file it keeps (relative to the root).
    const rendered = layer1Text({
      goal: l1.goal,
      state: l1.state,
      next_action: l1.next_action,
      active_files: l1.active_files.map((f: string) => f.slice(p.repo.length + 1)),
      blocker: l1.blocker,
    });
    expect(saved.tokens.layer1).toBe(countTokens(rendered));
    expect(saved.tokens.layer1).toBeLessThanOrEqual(300);
    // Nothing is lost: the files Layer 1 does not keep are in Layer 3, and the save says so.
    const kept = l1.active_files.length;
    expect(kept).toBeLessThan(40);
    const archive = (await p.okCli(["recall"])).stdout;
    for (const f of files.slice(kept)) expect(archive).toContain(`- ${f}`);
    expect(saved.warnings.join("\n")).toContain(
      `moved to Layer 3 under "Moved from Layer 1": ${40 - kept} active file(s)`,
    );
  }, 60_000);
});
