// Defects a sixth new-user walkthrough found (stop 28): each through the real CLI.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { dumpStore, gitRepo, projectOnLaptop, twoLaptops } from "./helpers.ts";

/** PyYAML, the YAML 1.1 reader of the original's Python SDK, when this machine has it. */
const pyyaml = spawnSync("python3", ["-c", "import yaml"]).status === 0;

describe("save keeps what is distinct", () => {
  test("active files differing only in case or spacing are two files; a decision repeated in other case is dropped with a warning", async () => {
    const t = projectOnLaptop("mindsave-six-");
    const files = ["Foo.ts", "foo.ts", "b c.ts", "b  c.ts"];
    for (const f of files) writeFileSync(join(t.repo, f), "x\n");
    const saved = await t.cli(["save", "--goal", "g", "--state", "s", "--next", "n", ...files.flatMap((f) => ["--active-file", f]), "--decision", "Use X", "--decision", "use  x"]);
    expect(saved.code).toBe(0);
    expect(saved.stderr).toContain('Decision "use  x" was left out: it repeats "Use X".');
    const load = await t.json(["load", "--latest"]);
    expect(load.layer1.active_files.map((f: string) => f.split("/").pop())).toEqual(files);
    expect(load.layer2.decisions).toEqual(["Use X"]);
  });
});

describe("the spec's files read the same in YAML 1.1", () => {
  const values = ["<<", "=", "2024-01-01", "2024-1-1 10:00:00", "2001-12-14 21:59:43.10 -5", "+0x1F", "+017", "plain words"];

  test("snapshots show quotes a merge key, a value key, dates and signed hex or octal numbers", async () => {
    const t = projectOnLaptop("mindsave-six-");
    await t.okCli(["save", "--goal", "g", "--state", "s", "--next", "n", ...values.flatMap((v) => ["--decision", v])]);
    const shown = (await t.okCli(["snapshots", "show"])).stdout;
    for (const v of values.slice(0, -1)) expect(shown).toContain(`  - "${v}"\n`);
    expect(shown).toContain("  - plain words\n");
  });

  test.skipIf(!pyyaml)("PyYAML reads every value back as the text it was (needs python3 with PyYAML)", async () => {
    const t = projectOnLaptop("mindsave-six-");
    await t.okCli(["save", "--goal", "g", "--state", "s", "--next", "n", ...values.flatMap((v) => ["--decision", v]), "--failed", "<<", "--failed", "2024-01-01"]);
    const shown = (await t.okCli(["snapshots", "show"])).stdout;
    const read = spawnSync("python3", ["-c", "import sys, yaml, json; d = yaml.safe_load(sys.stdin.read().split('\\n---\\n', 1)[0][4:]); print(json.dumps([d['decisions'], sorted(d['failure_graph'])]))"], { input: shown, encoding: "utf8" });
    expect(read.stderr).toBe("");
    expect(JSON.parse(read.stdout)).toEqual([values, ["2024-01-01", "<<"]]);
  });
});

describe("an import that takes in nothing", () => {
  test("every snapshot unreadable: exit 1 naming the first, and the store as it was (no empty project left)", async () => {
    const t = projectOnLaptop("mindsave-six-");
    await t.okCli(["save", "--goal", "already here"]);
    const before = await dumpStore(t.db);
    const src = gitRepo(join(t.base, "other"));
    mkdirSync(join(src, ".mindsave", "snapshots"), { recursive: true });
    writeFileSync(join(src, ".mindsave", "snapshots", "x_2026-01-01.md"), "---\ngoal: [unclosed\n---\n");
    const r = await t.cli(["import", src]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Nothing was imported from ${join(src, ".mindsave")}: its one snapshot could not be read (snapshots/x_2026-01-01.md is not valid YAML`);
    expect(await dumpStore(t.db)).toBe(before);
    // A plain folder's workspace gets no project.json from an import that took nothing in.
    const plain = join(t.base, "plain");
    mkdirSync(join(plain, ".mindsave", "snapshots"), { recursive: true });
    writeFileSync(join(plain, ".mindsave", "snapshots", "y_2026-01-01.md"), "---\ngoal: [unclosed\n---\n");
    expect((await t.cli(["import", plain])).code).toBe(1);
    expect(readdirSync(join(plain, ".mindsave"))).toEqual(["snapshots"]);
    expect(await dumpStore(t.db)).toBe(before);
  });
});

describe("sync takes one thing at a time", () => {
  test("--dry-run or a peer beside a peer-list flag, two peer-list flags, an empty peer, a scheme it cannot reach: one sentence each, nothing changed", async () => {
    const t = projectOnLaptop("mindsave-six-");
    await t.okCli(["save", "--goal", "here"]);
    const peer = join(t.base, "peer");
    mkdirSync(peer);
    const before = await dumpStore(t.db);
    const cases: [string[], string][] = [
      [["sync", "--add-peer", peer, "--dry-run"], "--add-peer changes or shows the list of peers and syncs nothing; give it without --dry-run."],
      [["sync", "--add-peer", peer, "--remove-peer", peer], "Give one of --add-peer and --remove-peer at a time."],
      [["sync", peer, "--list-peers"], `--list-peers changes or shows the list of peers and syncs nothing; give it without the peer ${JSON.stringify(peer)}.`],
      [["sync", ""], "The peer is empty"],
      [["sync", "ftp://example.com/store"], "ftp://example.com/store is no place MindSave syncs with"],
    ];
    for (const [args, said] of cases) {
      const r = await t.cli(args);
      expect([args.join(" "), r.code]).toEqual([args.join(" "), 1]);
      expect(r.stderr).toContain(said);
    }
    expect(await dumpStore(t.db)).toBe(before);
    expect(readdirSync(peer)).toEqual([]);
  });
});

describe("load --json carries what the block restores", () => {
  test("standing rules, unexpired facts, the plan and the tags, beside the layers", async () => {
    const t = projectOnLaptop("mindsave-six-");
    await t.okCli(["save"], { stdin: "goal: ship\nstate: s\nnext_action: n\nplan:\n  - {content: write it, status: completed}\n  - {content: test it, status: in_progress}\ntags: [sprint-3]\n" });
    await t.okCli(["rules", "add", "Never push to main"]);
    await t.okCli(["fact", "the staging DB is read-only", "--ttl", "7d"]);
    const load = await t.json(["load", "--latest"]);
    expect(load.rules).toEqual([{ text: "Never push to main", scope: "project" }]);
    expect(load.facts.map((f: any) => [f.text, f.scope])).toEqual([["the staging DB is read-only", "project"]]);
    expect(load.plan).toEqual([{ content: "write it", status: "completed" }, { content: "test it", status: "in_progress" }]);
    expect(load.tags).toEqual(["sprint-3"]);
  });
});

describe("export --out", () => {
  test("an empty --out, or one under a file, is one sentence and exit 1", async () => {
    const t = projectOnLaptop("mindsave-six-");
    await t.okCli(["save", "--goal", "g"]);
    const empty = await t.cli(["export", "--out", ""]);
    expect([empty.code, empty.stderr.trim()]).toEqual([1, "mindsave: --out is empty; give the folder to export to."]);
    const file = join(t.base, "a-file");
    writeFileSync(file, "x");
    const under = await t.cli(["export", "--out", join(file, "sub")]);
    expect([under.code, under.stderr]).toEqual([1, `mindsave: ${file} is not a directory.\n`]);
  });

  test.skipIf(process.platform !== "linux")("a folder that cannot be written (/proc/1) is one sentence and exit 1", async () => {
    const t = projectOnLaptop("mindsave-six-");
    await t.okCli(["save", "--goal", "g"]);
    const r = await t.cli(["export", "--out", "/proc/1/out"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^mindsave: Cannot write the export to \/proc\/1\/out\/\.mindsave .*; give --out a folder you can write\.\n$/);
  });

  test("a misspelled parent folder is refused, not made: only the last folder of --out is created", async () => {
    const t = projectOnLaptop("mindsave-six-");
    await t.okCli(["save", "--goal", "g"]);
    const typo = join(t.base, "exprots");
    const r = await t.cli(["export", "--out", join(typo, "app")]);
    expect([r.code, r.stderr]).toEqual([1, `mindsave: The folder ${typo} does not exist; check --out ${join(typo, "app")}, or create the folder first.\n`]);
    expect(existsSync(typo)).toBe(false);
    await t.okCli(["export", "--out", join(t.base, "fresh")]);
    expect(existsSync(join(t.base, "fresh", ".mindsave", "index.json"))).toBe(true);
  });
});

describe("export again after a failure was forgotten", () => {
  test("the old node file is named in a warning: an import of the folder would record it again", async () => {
    const t = projectOnLaptop("mindsave-six-");
    await t.okCli(["save", "--goal", "g"]);
    await t.okCli(["fail", "Redux", "--reason", "too much boilerplate"]);
    await t.okCli(["fail", "GraphQL", "--reason", "no server support"]);
    const out = join(t.base, "out");
    expect((await t.okCli(["export", "--out", out])).stderr).not.toContain("failure_graph");
    await t.okCli(["failures", "forget", "Redux"]);
    const again = await t.okCli(["export", "--out", out]);
    expect(again.stderr).toMatch(/failure_graph\/project\/ also holds 1 node\(s\) of failures that are not in the store .*: redux\.json\./i);
    expect(again.stderr).not.toMatch(/graphql/i);
  });
});

describe("a file outside the project, restored on another laptop", () => {
  test("its absolute path is marked as a path on the laptop that saved it; on that laptop it is not", async () => {
    const w = twoLaptops("mindsave-six-");
    const sib = join(w.base, "laptop-a-work", "sib");
    mkdirSync(sib, { recursive: true });
    writeFileSync(join(sib, "s.ts"), "x\n");
    expect((await w.a.cli(["save", "--goal", "g", "--state", "s", "--next", "n", "--active-file", "../sib/s.ts", "--active-file", "src/auth.ts"])).code).toBe(0);
    const onA = (await w.a.cli(["load", "--latest"])).stdout;
    expect(onA).toContain(`  - ${join(sib, "s.ts")}\n`);
    await w.a.json(["sync", w.drive]);
    await w.b.json(["sync", w.drive]);
    const onB = (await w.b.cli(["load", "--latest"])).stdout;
    expect(onB).toContain(`  - ${join(sib, "s.ts")} (outside the project: a path on laptop-a)\n`);
    expect(onB).toContain(`  - ${join(w.b.repo, "src", "auth.ts")}\n`);
    // --json says the same in fields: who saved it, and which active files are paths there.
    const jsonB = await w.b.json(["load", "--latest"]);
    expect(jsonB.saved_on).toBe("laptop-a");
    expect(jsonB.outside_project).toEqual([join(sib, "s.ts")]);
    const jsonA = await w.a.json(["load", "--latest"]);
    expect(jsonA.saved_on).toBeNull();
    expect(jsonA.outside_project).toEqual([join(sib, "s.ts")]);
  });
});

describe("a Layer 1 value that a key: value line would read as no text", () => {
  test("is quoted in the restore block (blocker \"null\", which says there is none: status in progress); other values stay as written", async () => {
    const t = projectOnLaptop("mindsave-six-");
    await t.okCli(["save", "--goal", "yes, ship it", "--state", "~", "--next", "yes", "--blocker", "null"]);
    const block = (await t.okCli(["load", "--latest"])).stdout;
    expect(block).toContain("status in_progress");
    expect(block).toContain('\ngoal: yes, ship it\nstate: "~"\nnext_action: "yes"\n');
    expect(block).toContain('\nblocker: "null"\n');
  });
});
