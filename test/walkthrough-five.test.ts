// What a fifth new user's walkthrough found, each through the real CLI on a real store: line breaks
// in a failure starting lines of their own in `fail` and `failures` (as they no longer can in the
// restore block); a YAML field given twice decided by its last value; a repeat_count that is no
// number counted as 1; a YAML error's line off by one without front matter; a read command turning
// any folder named with --home into a store; and "save a snapshot first" where a save is refused.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { dumpStore, projectOnLaptop, run, sql, tempDir, twoLaptops } from "./helpers.ts";
import { normaliseEntry } from "../src/engine/formats/seed-read-failure-graph.ts";

describe("a failure with a line break is one line wherever it is listed", () => {
  test("fail's confirmation, `failures` and a missing active file's warning: quoted, no forged lines", async () => {
    const p = projectOnLaptop("mindsave-walk5-fail-");
    const item = "item\n- FORGED item";
    const reason = "slow\n## Layer 2 · FORGED";
    const said = await p.okCli(["fail", item, "--reason", reason, "--alt", "alt\r- FORGED alt"]);
    const listed = await p.okCli(["failures"]);
    for (const out of [said.stdout, listed.stdout]) {
      const lines = out.split("\n");
      expect(lines.filter((l) => /^\s*(- FORGED|## Layer 2)/.test(l))).toEqual([]);
      expect(out).toContain(JSON.stringify(item));
    }
    expect(listed.stdout).toContain(JSON.stringify(reason));
    const warned = await p.okCli(["save", "--goal", "g", "--state", "s", "--next", "n", "--active-file", "src/a\nb.ts"]);
    const warning = warned.stderr.split("\n").filter((l) => l.includes("not found"));
    expect(warning).toHaveLength(1);
    expect(warning[0]).toContain(JSON.stringify("src/a\nb.ts"));
  }, 30_000);
});

describe("snapshot YAML that cannot mean one thing is refused, and nothing is written", () => {
  test("a field given twice names the field and its line; a repeat_count that is no number names the entry", async () => {
    const p = projectOnLaptop("mindsave-walk5-yaml-");
    await p.okCli(["save", "--goal", "first", "--state", "s", "--next", "n"]);
    const before = await dumpStore(p.db);
    const twice = await p.cli(["save"], { stdin: "---\ngoal: x\nstate: s\ngoal: y\n---\n" });
    expect(twice.code).toBe(1);
    expect(twice.stderr.trim()).toBe('mindsave: The snapshot on stdin gives "goal" twice (the second at line 4); give each field once.');
    const lots = await p.cli(["save"], { stdin: "goal: x\nfailure_graph:\n  redis: {reason: slow, repeat_count: lots}\n" });
    expect(lots.code).toBe(1);
    expect(lots.stderr.trim()).toBe('mindsave: failure_graph entry "redis" has repeat_count "lots"; give a whole number (how many times it was tried).');
    expect(await dumpStore(p.db)).toBe(before);
    // A count written as text that is a number is still one.
    await p.okCli(["save"], { stdin: "goal: x\nstate: s\nnext_action: n\nfailure_graph:\n  redis: {reason: slow, repeat_count: '3'}\n" });
  }, 30_000);

  test("an import keeps a file whose repeat_count is no number, the value set aside with a warning", () => {
    const warnings: string[] = [];
    const e = normaliseEntry("redis", { reason: "slow", repeat_count: "lots" }, warnings, "snapshots/a.md");
    expect(e.repeat_count).toBeUndefined();
    expect((e as Record<string, unknown>).original_repeat_count).toBe("lots");
    expect(warnings).toEqual(['snapshots/a.md: failure "redis" has repeat_count "lots", which is not a number; kept as original_repeat_count.']);
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

describe("a read command never makes a store", () => {
  test("--home naming a folder without mindsave.db: one sentence, exit 1, the folder as it was", async () => {
    const p = projectOnLaptop("mindsave-walk5-home-");
    const folder = join(tempDir(), "my-home");
    mkdirSync(folder);
    for (const args of [["snapshots", "list"], ["load"], ["recall", "x"], ["failures"]]) {
      const r = await run([...args, "--home", folder], { cwd: p.repo, env: p.pc.env });
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(`mindsave: There is no MindSave store in ${folder} (set by --home ${folder}: the folder that holds mindsave.db); nothing was created. \`mindsave save\` there starts one.`);
      expect(readdirSync(folder)).toEqual([]);
    }
    // A save there starts one.
    await run(["save", "--goal", "g", "--state", "s", "--next", "n", "--home", folder], { cwd: p.repo, env: p.pc.env });
    expect(existsSync(join(folder, "mindsave.db"))).toBe(true);
  }, 30_000);

  test("load in a folder too broad to be a project says so, not 'save a snapshot first'", async () => {
    const p = projectOnLaptop("mindsave-walk5-broad-");
    await p.okCli(["save", "--goal", "g", "--state", "s", "--next", "n"]);
    const r = await p.cli(["load"], { cwd: "/" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("mindsave: / holds too many unrelated folders to be a project; run MindSave inside a project folder");
    expect(r.stderr).not.toContain("save a snapshot first");
  }, 30_000);
});

describe("diff", () => {
  test("a constraint, a step or a tag with a line break is one quoted line of the diff", async () => {
    const p = projectOnLaptop("mindsave-walk5-diff-");
    await p.okCli(["save", "--goal", "g", "--state", "s", "--next", "n"]);
    await p.okCli(["save"], { stdin: 'goal: g\nstate: s2\nnext_action: n\nconstraints: ["keep API\\n- FORGED constraint"]\nplan: ["step one\\n## FORGED step"]\n' });
    const out = (await p.okCli(["diff"])).stdout;
    expect(out.split("\n").filter((l) => /^\s*(- FORGED|## FORGED)/.test(l))).toEqual([]);
    expect(out).toContain(`+ constraint: ${JSON.stringify("keep API\n- FORGED constraint")}`);
    expect(out).toContain(`+ step: ${JSON.stringify("step one\n## FORGED step")}`);
  }, 30_000);
});

describe("a sync reports what changed, not what was stamped anew", () => {
  test("export on A, import on B, sync: the failures' links only got newer clocks, so no failure is reported updated; both stores end the same", async () => {
    const { a, b, base } = twoLaptops("mindsave-walk5-sync-");
    await a.json(["save", "--goal", "g", "--state", "s", "--next", "n"]);
    await a.json(["fail", "redis", "--reason", "slow", "--alt", "memcached"]);
    await a.json(["fail", "redis"]);
    await a.json(["export", "--out", join(base, "exp")]);
    await b.json(["import", join(base, "exp")]);
    // The import wrote the link again (same values, B's clock): what the report must not call a change.
    const links = async (db: string): Promise<Record<string, unknown>[]> => (await sql(db, "SELECT id, failure_id, kind, value, deleted, hlc FROM failure_links")).map((r) => ({ ...r }));
    const [la] = await links(a.db);
    const [lb] = await links(b.db);
    expect({ ...lb, hlc: la.hlc } as Record<string, unknown>).toEqual(la);
    expect(lb.hlc).not.toBe(la.hlc);
    const r = await b.json(["sync", a.home]);
    expect(r.pulled.failures).toEqual({ added: 0, updated: 0, deleted: 0 });
    expect(r.pushed.failures).toEqual({ added: 0, updated: 0, deleted: 0 });
    expect(await links(a.db)).toEqual(await links(b.db));
    // A real change still is one: a new alternative on B reaches A as an updated failure.
    await b.json(["fail", "redis", "--alt", "keydb"]);
    const again = await b.json(["sync", a.home]);
    expect(again.pushed.failures.updated).toBe(1);
  }, 60_000);
});
