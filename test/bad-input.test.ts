// Bad input gets one clear sentence on stderr, a non-zero exit, and the store exactly as it was.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync, copyFileSync } from "node:fs";
import { join } from "node:path";
import {
  dumpStore,
  laptopWithApp as setup,
  okJson,
  plainFolder,
  projectOnLaptop,
  run,
  sql,
  tempDir,
} from "./helpers.ts";
import { fail, inRepo, save, storeFixture } from "./engine-setup.ts";

/** A store with a snapshot and a failure, built once in this process; each test gets its own copy. */
const seededStore = storeFixture("mindsave-bad-input-", async (t) => {
  await save(inRepo(t), { goal: "existing work", constraint: ["keep it"] });
  await fail(inRepo(t), "Tailwind", "conflicts");
});

async function seeded() {
  const { base, home, repo, pc, db } = await seededStore();
  const opts = { cwd: repo, env: pc.env };
  return { base, home, repo, opts, db, before: await dumpStore(db) };
}

const IS_ROOT = process.getuid?.() === 0;

/** Makes `dir` a read-only bind mount of itself; null when done, else why not. */
function readOnlyMount(dir: string): string | null {
  const m = spawnSync("sh", ["-c", `mount --bind '${dir}' '${dir}' && mount -o remount,bind,ro '${dir}'`]);
  return m.status === 0 ? null : m.stderr.toString().trim() || `exit ${m.status}`;
}

/**
 * Why no home can be made read-only here, or null. Root ignores permission bits, so it needs a
 * read-only bind mount, which a container without CAP_SYS_ADMIN refuses: tried once, on a probe.
 */
const READ_ONLY_REFUSED: string | null = ((): string | null => {
  if (!IS_ROOT) return null;
  const probe = tempDir("mindsave-ro-probe-");
  const why = readOnlyMount(probe);
  if (why === null) spawnSync("umount", [probe]);
  return why === null ? null : `root cannot make a read-only bind mount here: ${why}`;
})();

/** One sentence: a single line on stderr that names the problem. */
function expectOneSentence(stderr: string, ...parts: string[]) {
  const lines = stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith("mindsave: ");
  for (const p of parts) expect(lines[0]).toContain(p);
}

describe("bad input", () => {
  test("malformed YAML", async () => {
    const t = await seeded();
    const r = await run(["save", "--home", t.home], {
      ...t.opts,
      stdin: "---\ngoal: [unclosed\nstate: x\n---\n",
    });
    expect(r.code).toBe(1);
    expectOneSentence(r.stderr, "not valid YAML");
    expect(await dumpStore(t.db)).toBe(t.before);
  });

  test("YAML that is not a mapping, and a field of the wrong type", async () => {
    const t = await seeded();
    const list = await run(["save", "--home", t.home], { ...t.opts, stdin: "- just\n- a list\n" });
    expect(list.code).toBe(1);
    expectOneSentence(list.stderr, "must be a YAML mapping");
    const typed = await run(["save", "--home", t.home], { ...t.opts, stdin: "goal:\n  nested: mapping\n" });
    expect(typed.code).toBe(1);
    expectOneSentence(typed.stderr, "goal must be a single line of text");
    expect(await dumpStore(t.db)).toBe(t.before);
  });

  test("a missing goal", async () => {
    const t = await seeded();
    const flags = await run(["save", "--state", "no goal here", "--home", t.home], t.opts);
    expect(flags.code).toBe(1);
    expectOneSentence(flags.stderr, "needs a goal");
    const yaml = await run(["save", "--home", t.home], { ...t.opts, stdin: "state: x\nnext_action: y\n" });
    expect(yaml.code).toBe(1);
    expectOneSentence(yaml.stderr, "needs a goal");
    const empty = await run(["save", "--home", t.home], { ...t.opts, stdin: "" });
    expect(empty.code).toBe(1);
    expect(await dumpStore(t.db)).toBe(t.before);
  });

  test("an id that does not exist, and a list number out of range", async () => {
    const t = await seeded();
    for (const args of [
      ["load", "no_such_snapshot"],
      ["load", "7"],
      ["snapshots", "delete", "nope"],
      ["snapshots", "complete", "nope"],
      ["recall", "--snapshot", "nope"],
    ]) {
      const r = await run([...args, "--home", t.home], t.opts);
      expect(r.code).toBe(1);
      expectOneSentence(r.stderr);
    }
    expect(await dumpStore(t.db)).toBe(t.before);
  });

  test("unknown commands, unknown options and bad option values", async () => {
    const t = await seeded();
    for (const args of [
      ["frobnicate"],
      ["save", "--bogus"],
      ["save", "--goal", "x", "--status", "maybe"],
      ["save", "--goal", "x", "--keep", "zero"],
      ["signal", "--ratio", "7"],
      ["fail", "X", "--by", "robot"],
    ]) {
      const r = await run([...args, "--home", t.home], t.opts);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^mindsave: [^\n]+\n$/);
      // Commander's own errors (it starts them lower-case) read as MindSave's sentences do.
      if (args[0] === "frobnicate" || args[1] === "--bogus")
        expect(r.stderr).toMatch(/^mindsave: Unknown (command|option) /);
    }
    expect(await dumpStore(t.db)).toBe(t.before);
  });

  test("a new failure without a reason", async () => {
    const t = await seeded();
    const r = await run(["fail", "Redux", "--home", t.home], t.opts);
    expect(r.code).toBe(1);
    expectOneSentence(r.stderr, "needs a reason", 'give it with --reason "…"');
    expect(await dumpStore(t.db)).toBe(t.before);
  });

  test("a home directory that is missing", async () => {
    const t = await seeded();
    const missing = join(t.base, "no-such-home");
    const r = await run(["save", "--goal", "x", "--home", missing], t.opts);
    expect(r.code).toBe(1);
    expectOneSentence(r.stderr, "does not exist");
    expect(existsSync(missing)).toBe(false);
  });

  test.skipIf(READ_ONLY_REFUSED !== null)(
    `a home directory that is read-only${READ_ONLY_REFUSED ? ` (skipped: ${READ_ONLY_REFUSED})` : ""}`,
    async () => {
      const t = await seeded();
      const ro = join(t.base, "ro-home");
      mkdirSync(ro);
      copyFileSync(t.db, join(ro, "mindsave.db"));
      const before = await dumpStore(join(ro, "mindsave.db"));
      let cleanup: () => void;
      if (IS_ROOT) {
        // Root ignores permission bits; a read-only bind mount is what a locked drive looks like.
        const m = readOnlyMount(ro);
        expect(m).toBe(null);
        cleanup = () => spawnSync("umount", [ro]);
      } else {
        spawnSync("chmod", ["555", ro]);
        cleanup = () => spawnSync("chmod", ["755", ro]);
      }
      try {
        const r = await run(["save", "--goal", "x", "--home", ro], t.opts);
        expect(r.code).toBe(1);
        expectOneSentence(r.stderr, "read-only");
      } finally {
        cleanup();
      }
      expect(await dumpStore(join(ro, "mindsave.db"))).toBe(before);
    },
  );

  test("a store file that is not a database is refused and left untouched", async () => {
    const t = await seeded();
    const home = join(t.base, "junk-home");
    mkdirSync(home);
    const junk = join(home, "mindsave.db");
    writeFileSync(junk, "this is a text file, not a database\n".repeat(40));
    const before = readFileSync(junk);
    for (const args of [["save", "--goal", "x"], ["load"], ["projects"]]) {
      const r = await run([...args, "--home", home], t.opts);
      expect(r.code).toBe(1);
      expectOneSentence(r.stderr, "not a MindSave store");
    }
    expect(readFileSync(junk).equals(before)).toBe(true);
  });

  test("a SQLite database that is not ours is refused and left untouched", async () => {
    const t = await seeded();
    const home = join(t.base, "foreign");
    mkdirSync(home);
    const foreign = join(home, "mindsave.db");
    await sql(foreign, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)");
    await sql(foreign, "INSERT INTO customers(name) VALUES ('Ada')");
    const before = await dumpStore(foreign);
    const r = await run(["save", "--goal", "x", "--home", home], t.opts);
    expect(r.code).toBe(1);
    expectOneSentence(r.stderr, "not a MindSave store");
    expect(await dumpStore(foreign)).toBe(before);
  });

  test("a store written by a newer schema version is refused", async () => {
    const t = await seeded();
    await sql(t.db, "UPDATE meta SET value = '99' WHERE key = 'schema_version'");
    const before = await dumpStore(t.db);
    for (const args of [["save", "--goal", "x"], ["load"]]) {
      const r = await run([...args, "--home", t.home], t.opts);
      expect(r.code).toBe(1);
      expectOneSentence(r.stderr, "newer MindSave", "schema 99");
    }
    expect(await dumpStore(t.db)).toBe(before);
  });

  test("two saves at the same moment both land, with distinct ids", async () => {
    const t = await seeded();
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        run(
          ["save", "--goal", "parallel save", "--state", `writer ${i}`, "--home", t.home, "--json"],
          t.opts,
        ),
      ),
    );
    for (const r of results) expect(r.code).toBe(0);
    const names = results.map((r) => JSON.parse(r.stdout).saved);
    expect(new Set(names).size).toBe(4);
    const rows = await sql(
      t.db,
      "SELECT state FROM snapshots WHERE goal = 'parallel save' AND deleted = 0 ORDER BY state",
    );
    expect(rows.map((r) => r.state)).toEqual(["writer 0", "writer 1", "writer 2", "writer 3"]);
  });

  test("a fresh store's first opening is safe when several processes race to create it", async () => {
    const t = await seeded();
    const home = join(t.base, "fresh");
    mkdirSync(home);
    const results = await Promise.all(
      Array.from({ length: 3 }, (_, i) => run(["save", "--goal", `racer ${i}`, "--home", home], t.opts)),
    );
    for (const r of results) expect(r.code).toBe(0);
    expect((await okJson(["snapshots", "list", "--home", home], t.opts)).snapshots).toHaveLength(3);
  });

  test("exit code 0 for success and help; help for each command", async () => {
    const t = await seeded();
    const help = await run(["--help"], t.opts);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("save");
    for (const cmd of [
      "save",
      "load",
      "recall",
      "snapshots",
      "projects",
      "fail",
      "failures",
      "signal",
      "doctor",
    ]) {
      const r = await run([cmd, "--help"], t.opts);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: mindsave ${cmd}`);
    }
  });
});

describe("a command that fails writes nothing into the working tree", () => {
  test("fail without a reason, fact with a bad --ttl, an over-long rule: exit 1 and no .mindsave/project.json in a plain folder; a command that succeeds then writes it", async () => {
    const t = plainFolder();
    for (const args of [
      ["fail", "thing"],
      ["fact", "f", "--ttl", "bad"],
      ["rules", "add", "x".repeat(5000)],
    ]) {
      const r = await t.cli(args);
      expect({ args: args[0], code: r.code }).toEqual({ args: args[0], code: 1 });
      expect(r.stderr).toMatch(/^mindsave: .+\n$/);
      expect(readdirSync(t.dir).sort()).toEqual(["package.json", "src"]);
    }
    expect((await t.cli(["fail", "thing", "--reason", "too slow"])).code).toBe(0);
    expect(existsSync(join(t.dir, ".mindsave", "project.json"))).toBe(true);
  });

  test("a fact with a bad --ttl or --confidence on a fresh home starts no store", async () => {
    const t = plainFolder();
    for (const args of [
      ["fact", "f", "--ttl", "bad"],
      ["fact", "f", "--confidence", "sure"],
    ]) {
      expect((await t.cli(args)).code).toBe(1);
      expect(readdirSync(t.home)).toEqual([]);
    }
  });

  test("a .mindsave/ that was there before is left, with what else it holds", async () => {
    const t = plainFolder();
    mkdirSync(join(t.dir, ".mindsave"));
    writeFileSync(join(t.dir, ".mindsave", "notes.md"), "mine\n");
    expect((await t.cli(["fail", "thing"])).code).toBe(1);
    expect(readdirSync(join(t.dir, ".mindsave"))).toEqual(["notes.md"]);
  });
});

describe("a message that repeats a long value", () => {
  test("keeps its start and says how long it was: a 5,000-character snapshot id is not echoed back whole", async () => {
    const t = projectOnLaptop("mindsave-seven-");
    await t.okCli(["save", "--goal", "g"]);
    const r = await t.cli(["load", "é".repeat(5000)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `mindsave: No snapshot "${"é".repeat(99)}…" (5000 characters) in this project; see \`mindsave snapshots list\`.\n`,
    );
  });
});

describe("words and ranges of options", () => {
  test("--status takes the same words as YAML status; base thresholds outside their range are refused", async () => {
    const t = setup();
    expect(
      (await okJson(["save", "--goal", "g", "--status", "done", "--home", t.home], t.at(t.repo))).status,
    ).toBe("completed");
    const bad = await run(["signal", "--base-warning", "0.95", "--home", t.home], t.at(t.repo));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("--base-warning must be a number from 0.50 to 0.70");
  });
});

describe("MINDSAVE_HOST", () => {
  test("an invalid MINDSAVE_HOST is the user's input: exit 1, one sentence", async () => {
    const t = setup();
    const r = await run(["load", "--home", t.home], {
      ...t.at(),
      env: { ...t.pc.env, MINDSAVE_HOST: "not a host id!" },
    });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("MINDSAVE_HOST must be");
  });
});
