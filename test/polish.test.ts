// What a new user tripped over, kept fixed: pipes closed early, global failures repeated without
// --scope, forgetting a failure, split on a lone checkout, typos in subcommands, JSON errors,
// compression that never drops a constraint, recall's order, limit and context.
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { git, gitRepo, laptop, ok, okJson, run, tempDir, CLI } from "./helpers.ts";

function setup() {
  const base = tempDir();
  const home = join(base, "home");
  mkdirSync(home);
  const repo = gitRepo(join(base, "app"));
  const pc = laptop("p", base);
  return { base, home, repo, env: pc.env, at: (cwd: string) => ({ cwd, env: pc.env }) };
}

describe("polish", () => {
  test("a reader that closes the pipe early gets no stack trace", async () => {
    const t = setup();
    // Far more output than a pipe holds, so the writer is still writing when `head` goes away.
    const archive = Array.from({ length: 6000 }, (_, i) => `${i}. a long line of the cold archive that nobody will read to the end`).join("\n");
    await ok(["save", "--home", t.home], { ...t.at(t.repo), stdin: `---\ngoal: big archive\n---\n${archive}\n` });
    const r = Bun.spawnSync(["sh", "-c", `${CLI.map((a) => `'${a}'`).join(" ")} snapshots show --home '${t.home}' | head -1`], { cwd: t.repo, env: { ...process.env, ...t.env } });
    expect(r.stdout.toString()).toBe("---\n");
    expect(r.stderr.toString()).toBe("");
  });

  test("repeating a global failure without --scope counts on the global entry; forget removes it", async () => {
    const t = setup();
    await ok(["fail", "localStorage for tokens", "--reason", "XSS", "--scope", "global", "--home", t.home], t.at(t.repo));
    const again = await okJson(["fail", "localStorage for tokens", "--home", t.home], t.at(t.repo));
    expect(again).toMatchObject({ scope: "global", repeat_count: 2 });
    const graph = (await okJson(["failures", "--home", t.home], t.at(t.repo))).failure_graph;
    expect(Object.keys(graph.project)).toEqual([]);
    expect(graph.global["localStorage for tokens"].repeat_count).toBe(2);
    await ok(["failures", "forget", "localStorage for tokens", "--home", t.home], t.at(t.repo));
    expect(Object.keys((await okJson(["failures", "--home", t.home], t.at(t.repo))).failure_graph.global)).toEqual([]);
    const missing = await run(["failures", "forget", "nothing here", "--home", t.home], t.at(t.repo));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No failure "nothing here"');
  });

  test("a failure forgotten and recorded again starts from one, without its old alternatives and related items", async () => {
    const t = setup();
    const fail = (...args: string[]) => okJson(["fail", "moment.js", ...args, "--home", t.home], t.at(t.repo));
    for (let i = 0; i < 3; i++) await fail("--reason", "too big", "--alt", "date-fns", "--related", "bundle size");
    await ok(["failures", "forget", "moment.js", "--home", t.home], t.at(t.repo));
    const again = await fail("--reason", "deprecated");
    expect(again).toMatchObject({ reason: "deprecated", repeat_count: 1, confidence: "medium", alternatives: [], related: [] });
    expect((await fail()).repeat_count).toBe(2);
    // Given again, an alternative comes back.
    expect(await fail("--alt", "date-fns")).toMatchObject({ alternatives: ["date-fns"] });
  });

  test("the same item in both scopes is two entries in --json, not one", async () => {
    const t = setup();
    await ok(["fail", "Redux", "--reason", "too heavy here", "--home", t.home], t.at(t.repo));
    await ok(["fail", "Redux", "--reason", "too heavy anywhere", "--scope", "global", "--home", t.home], t.at(t.repo));
    const graph = (await okJson(["failures", "--home", t.home], t.at(t.repo))).failure_graph;
    expect(graph.project.Redux.reason).toBe("too heavy here");
    expect(graph.global.Redux.reason).toBe("too heavy anywhere");
  });

  test("split refuses a checkout that is its project's only root; a second clone gets a free name", async () => {
    const t = setup();
    await ok(["save", "--goal", "g", "--home", t.home], t.at(t.repo));
    const r = await run(["projects", "split", "--home", t.home], t.at(t.repo));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("only root");
    const copy = join(t.base, "app-copy");
    git(t.base, "clone", "-q", t.repo, copy);
    const hint = await run(["load", "--home", t.home], t.at(copy));
    expect(hint.code).toBe(1);
    expect(hint.stderr).toContain("shares its history with project app");
    await ok(["save", "--goal", "in the copy", "--home", t.home], t.at(copy));
    const names = (await okJson(["projects", "--home", t.home], t.at(copy))).projects.map((p: any) => p.name).sort();
    expect(names).toEqual(["app", "app-copy"]);
  });

  test("a typo in a subcommand gets a suggestion, not an argument error", async () => {
    const t = setup();
    const r = await run(["snapshots", "lst", "--home", t.home], t.at(t.repo));
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("mindsave: Unknown command `mindsave snapshots lst`; choose list, stats, clean, prune, show, complete, delete. Did you mean list?");
  });

  test("with --json, errors are JSON on stderr", async () => {
    const t = setup();
    const r = await run(["load", "--json", "--home", t.home], t.at(t.repo));
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr)).toMatchObject({ exit_code: 1 });
  });

  test("--status takes the same words as YAML status; base thresholds outside their range are refused", async () => {
    const t = setup();
    expect((await okJson(["save", "--goal", "g", "--status", "done", "--home", t.home], t.at(t.repo))).status).toBe("completed");
    const bad = await run(["signal", "--base-warning", "0.95", "--home", t.home], t.at(t.repo));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("--base-warning must be a number from 0.50 to 0.70");
  });

  test("compression never drops a constraint: what cannot fold and does not fit moves to Layer 3 whole, never cut", async () => {
    const t = setup();
    const constraints = Array.from({ length: 40 }, (_, i) => `rule number ${i + 1}: keep module ${i + 1} free of global state and side effects`);
    const r = await run(["save", "--json", "--goal", "many rules", "--home", t.home, ...constraints.flatMap((c) => ["--constraint", c])], t.at(t.repo));
    expect(r.code).toBe(0);
    const kept = (await okJson(["load", "--home", t.home], t.at(t.repo))).layer2.constraints as string[];
    expect(kept).toEqual(constraints.slice(0, kept.length));
    expect(JSON.parse(r.stdout).warnings.join("\n")).toContain(`"Moved from Layer 2": ${constraints.length - kept.length} constraint(s).`);
    const archive = (await okJson(["recall", "--home", t.home], t.at(t.repo))).layer3 as string;
    for (const c of constraints.slice(kept.length)) expect(`${archive}\n`).toContain(`- ${c}\n`);
    // Compressed, with more than twenty constraints left as written: none of them is cut.
    const unique = Array.from({ length: 24 }, (_, i) => `rule number ${i + 1}`);
    const foldable = ["tailwind", "bootstrap", "mongodb", "graphql", "sessions", "an orm"].flatMap((x) =>
      ["no X", "never use X", "avoid X", "do not use X", "don't use X", "X is banned", "stop using X", "不要用X", "禁止使用X", "never ever use X"].map((f) => f.replace("X", x)));
    const saved = await run(["save", "--goal", "some rules", "--home", t.home, ...[...unique, ...foldable].flatMap((c) => ["--constraint", c])], t.at(t.repo));
    expect(saved.code).toBe(0);
    expect(saved.stderr).toContain("was compressed");
    const loaded = await okJson(["load", "--latest", "--home", t.home], t.at(t.repo));
    expect(loaded.layer2.constraints).toEqual(unique);
    expect(Object.keys(loaded.layer2.compressed).length).toBeGreaterThan(0);
  });

  test("recall: newest first, says when --limit hides more, context shows whole words and separates fields", async () => {
    const t = setup();
    for (let i = 1; i <= 5; i++) {
      await ok(["save", "--goal", `step ${i} of the refresh endpoint work`, "--state", `state ${i}`, "--constraint", `rule ${i}`, "--home", t.home], t.at(t.repo));
    }
    const r = await okJson(["recall", "refresh", "endpoint", "--limit", "3", "--home", t.home], t.at(t.repo));
    expect(r.hits.map((h: any) => h.goal)).toEqual(["step 5 of the refresh endpoint work", "step 4 of the refresh endpoint work", "step 3 of the refresh endpoint work"]);
    expect(r.more).toBe(true);
    expect(r.hits[0].context).toContain("«refresh» «endpoint»");
    expect(r.hits[0].context).toContain(" · state 5");
    const text = await ok(["recall", "refresh", "--limit", "2", "--home", t.home], t.at(t.repo));
    expect(text.stdout).toContain("More than 2 snapshots match");
    // The date inside a snapshot's id is not content: "2026" matches nothing here.
    expect((await okJson(["recall", String(new Date().getFullYear()), "--home", t.home], t.at(t.repo))).hits).toHaveLength(0);
    // List items are indexed as text, not as JSON.
    const rule = await okJson(["recall", "rule 3", "--home", t.home], t.at(t.repo));
    expect(rule.hits[0].context).not.toContain('","');
  });
});
