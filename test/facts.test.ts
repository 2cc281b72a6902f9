// Facts through the real CLI: restating one keeps its confidence and time to live, here and after a sync.
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { gitRepo, laptop, okJson, sql, tempDir, twoLaptops } from "./helpers.ts";

const DAY = 86_400_000;
const span = (f: { confirmed_at: string; expires_at: string | null }) =>
  f.expires_at === null ? null : Date.parse(f.expires_at) - Date.parse(f.confirmed_at);

describe("restating a fact keeps what it was", () => {
  test("`fact` again without --confidence/--ttl keeps high and never, or its own span; given ones win; `facts renew` alike", async () => {
    const base = tempDir("mindsave-walk4-facts-");
    const pc = laptop("walker", base);
    const home = join(base, "home");
    mkdirSync(home);
    const repo = gitRepo(join(base, "shop"));
    const json = (args: string[]) => okJson([...args, "--home", home], { cwd: repo, env: pc.env });

    await json(["fact", "api frozen", "--confidence", "high", "--ttl", "never"]);
    const again = (await json(["fact", "api frozen"])) as { fact: any; renewed: boolean };
    expect(again.renewed).toBe(true);
    expect(again.fact.confidence).toBe("high");
    expect(again.fact.expires_at).toBeNull();

    await json(["fact", "staging DB read-only", "--ttl", "3d", "--confidence", "low"]);
    const restated = (await json(["fact", "staging DB read-only"])).fact;
    expect(restated.confidence).toBe("low");
    expect(span(restated)).toBe(3 * DAY);
    // New ones given are taken.
    const changed = (await json(["fact", "staging DB read-only", "--ttl", "12h", "--confidence", "high"]))
      .fact;
    expect(changed.confidence).toBe("high");
    expect(span(changed)).toBe(12 * 3_600_000);
    // A new fact still gets the defaults.
    const fresh = (await json(["fact", "the CDN caches 5 min"])).fact;
    expect(fresh.confidence).toBe("medium");
    expect(span(fresh)).toBe(7 * DAY);
    // `facts renew` keeps them too.
    const renewed = (await json(["facts", "renew", "staging DB"])).renewed;
    expect(renewed.confidence).toBe("high");
    expect(span(renewed)).toBe(12 * 3_600_000);
    const stored = await sql(
      join(home, "mindsave.db"),
      "SELECT confidence, expires_at FROM facts WHERE text = ? AND deleted = 0",
      ["api frozen"],
    );
    expect(stored).toEqual([{ confidence: "high", expires_at: null }]);
  });

  test("a restatement on another laptop keeps the fact high and never-expiring on both after the syncs", async () => {
    const w = twoLaptops("mindsave-walk4-fact-sync-");
    await w.a.json(["fact", "api frozen", "--confidence", "high", "--ttl", "never"]);
    expect((await w.a.cli(["sync", w.drive])).code).toBe(0);
    expect((await w.b.cli(["sync", w.drive])).code).toBe(0);
    expect((await w.b.json(["fact", "api frozen"])).renewed).toBe(true);
    expect((await w.b.cli(["sync", w.drive])).code).toBe(0);
    expect((await w.a.cli(["sync", w.drive])).code).toBe(0);
    for (const pc of [w.a, w.b]) {
      const facts = (await pc.json(["facts"])).facts;
      expect(facts.map((f: any) => [f.text, f.confidence, f.expires_at])).toEqual([
        ["api frozen", "high", null],
      ]);
    }
  }, 60_000);
});
