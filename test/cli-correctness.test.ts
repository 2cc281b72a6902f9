// Small correctness fixes of the CLI, each through the real CLI on real stores: numbers a command
// announces are the list's, diff goes from A to B, twin names are told apart in the list, a
// Claude Code session start without a source is a fresh start, "nothing here" says where to go,
// and one choice is not "from 1 to 1".
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dumpStore, gitRepo, laptop, ok, okJson, plainFolder, run, tempDir, twoLaptops } from "./helpers.ts";
import { addRuleAt, inClone, inRepo, save, saveText, setPlanAt, syncScene } from "./engine-setup.ts";

/** A laptop with a home and one git project `shop`; `cli` runs in `cwd` (default the project). */
function setup() {
  const base = tempDir("mindsave-correct-");
  const repo = gitRepo(join(base, "shop"));
  const pc = laptop("fix-laptop", base);
  const home = join(base, "home");
  mkdirSync(home);
  const cli = (args: string[], o: { cwd?: string; stdin?: string } = {}) =>
    run([...args, "--home", home], { cwd: o.cwd ?? repo, env: pc.env, stdin: o.stdin });
  const okc = (args: string[], cwd?: string) =>
    ok([...args, "--home", home], { cwd: cwd ?? repo, env: pc.env });
  const json = (args: string[], cwd?: string) =>
    okJson([...args, "--home", home], { cwd: cwd ?? repo, env: pc.env });
  return { base, repo, home, db: join(home, "mindsave.db"), pc, cli, ok: okc, json };
}

describe("numbers a command announces", () => {
  test("rules add announces the number rules list shows (global rules first), and rules remove N with it removes that rule", async () => {
    const t = setup();
    await addRuleAt(inRepo(t), "Never push to main");
    await addRuleAt(inRepo(t), "Run the linter before a commit");
    const added = await t.ok(["rules", "add", "--scope", "global", "Answer in English"]);
    const announced = Number(/^Added global rule (\d+):/.exec(added.stdout)?.[1]);
    const list = (await t.json(["rules", "list"])).rules;
    expect(list.map((r: any) => r.text)).toEqual([
      "Answer in English",
      "Never push to main",
      "Run the linter before a commit",
    ]);
    expect(announced).toBe(1);
    const again = (await t.json(["rules", "add", "Keep the API stable"])).added;
    expect(again.number).toBe(4);
    await t.ok(["rules", "remove", String(announced)]);
    expect((await t.json(["rules", "list"])).rules.map((r: any) => r.text)).toEqual([
      "Never push to main",
      "Run the linter before a commit",
      "Keep the API stable",
    ]);
  });

  test("rules add of a rule's old words after an edit adds a rule beside it, never over it; an edit to another rule's words is refused", async () => {
    const t = setup();
    await addRuleAt(inRepo(t), "Use pnpm");
    await t.ok(["rules", "edit", "Use pnpm", "Use pnpm 9, never npm"]);
    await t.ok(["rules", "add", "Use pnpm"]);
    const texts = async () => (await t.json(["rules", "list"])).rules.map((r: any) => r.text);
    expect(await texts()).toEqual(["Use pnpm 9, never npm", "Use pnpm"]);
    const before = await dumpStore(t.db);
    const refused = await t.cli(["rules", "edit", "2", "use pnpm 9, never npm"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      "mindsave: That is already rule 1: Use pnpm 9, never npm; remove one of them instead (`mindsave rules remove N`).",
    );
    expect(await dumpStore(t.db)).toBe(before);
  });

  test("fact --json gives the fact's number in `facts` (never 0), which facts drop takes", async () => {
    const t = setup();
    await t.ok(["fact", "staging is read-only until Friday", "--ttl", "3d"]);
    const fact = (await t.json(["fact", "--scope", "global", "CI is slow on Mondays"])).fact;
    const list = (await t.json(["facts"])).facts;
    expect(fact.number).toBe(list.findIndex((f: any) => f.text === "CI is slow on Mondays") + 1);
    expect(fact.number).toBeGreaterThan(0);
    await t.ok(["facts", "drop", String(fact.number)]);
    expect((await t.json(["facts"])).facts.map((f: any) => f.text)).toEqual([
      "staging is read-only until Friday",
    ]);
  });
});

describe("diff A B", () => {
  test("shows the change from A to B as numbered in snapshots list; no arguments: from the second newest to the newest; --help says so", async () => {
    const t = setup();
    await save(inRepo(t), { goal: "first goal", next: "step one" });
    await save(inRepo(t), { goal: "second goal", next: "step two" });
    const list = (await t.json(["snapshots", "list"])).snapshots.map((s: any) => s.goal);
    expect(list).toEqual(["second goal", "first goal"]);
    const forward = '  goal: "first goal" → "second goal"';
    const back = '  goal: "second goal" → "first goal"';
    expect((await t.ok(["diff"])).stdout).toContain(forward);
    expect((await t.ok(["diff", "2", "1"])).stdout).toContain(forward);
    expect((await t.ok(["diff", "2"])).stdout).toContain(forward);
    const reverse = await t.ok(["diff", "1", "2"]);
    expect(reverse.stdout).toContain(back);
    expect(reverse.stdout).toContain('  next_action: "step two" → "step one"');
    const j = await t.json(["diff", "1", "2"]);
    expect([j.from.name, j.to.name]).toEqual(
      (await t.json(["snapshots", "list"])).snapshots.map((s: any) => s.name),
    );
    const help = (await t.ok(["diff", "--help"])).stdout.replace(/\s+/g, " ");
    expect(help).toContain("What changed from snapshot A to snapshot B");
    expect(help).toContain("from the second newest to the newest");
  });
});

describe("diff and retirements", () => {
  test("an item a diff adds that is retired now says so; one it removes because it was retired says by whom", async () => {
    const t = setup();
    await save(inRepo(t), { goal: "g", state: "s", next: "n", constraint: ["no tailwind"] });
    await t.ok(["retire", "no tailwind", "--reason", "we use tailwind now"]);
    await save(inRepo(t), { goal: "g", state: "s2", next: "n" });
    expect((await t.ok(["diff", "1", "2"])).stdout).toContain(
      "+ constraint: no tailwind (retired since: no longer restored)",
    );
    expect((await t.ok(["diff", "2", "1"])).stdout).toContain("retired constraint: no tailwind (by ");
    expect((await t.json(["diff", "1", "2"])).constraints.added_retired).toEqual(["no tailwind"]);
  });
});

describe("snapshots list with twin names", () => {
  test("two hosts' snapshots of one name are shown with the host and an id prefix that load takes", async () => {
    const w = twoLaptops("mindsave-twins-");
    const name = "fix_login_bug_2026-11-22";
    const snap = (goal: string) => `---\nsnapshot_id: "${name}"\ngoal: "${goal}"\nstate: "started"\n---\n`;
    await saveText(inClone(w.a), snap("Fix login bug (A: the cookie path)"));
    await saveText(inClone(w.b), snap("Fix login bug (B: the redirect loop)"));
    for (const pc of [w.a, w.b, w.a]) await syncScene(inClone(pc), w.drive);

    const r = await w.a.cli(["snapshots", "list"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n").filter((l) => l.includes(name));
    expect(lines).toHaveLength(2);
    const rows = (await w.a.json(["snapshots", "list"])).snapshots;
    for (const [i, s] of rows.entries()) {
      const line = lines.find((l) => l.startsWith(`  ${i + 1}. `))!;
      const host = s.goal.includes("(A:") ? "this host" : "laptop-b";
      const m = new RegExp(`${name} \\(${host}, id ([0-9a-f-]+)\\)`).exec(line);
      expect(m).not.toBeNull();
      expect(s.id.startsWith(m![1])).toBe(true);
      // The prefix shown chooses that snapshot, where the name is refused as ambiguous.
      expect((await w.a.json(["load", m![1]])).layer1.goal).toBe(s.goal);
    }
    expect((await w.a.cli(["load", name])).code).toBe(1);
  }, 60_000);

  test("a name of its own is shown as it is", async () => {
    const t = setup();
    await save(inRepo(t), { goal: "only one" });
    const out = (await t.ok(["snapshots", "list"])).stdout;
    expect(out).toMatch(/ {2}1\. only_one_\d{4}-\d{2}-\d{2} {2}/);
    // The header says what the layers column and the size are.
    expect(out.split("\n")[0]).toEndWith(", newest first (the layers each holds, its size):");
    expect(out).toMatch(/ L1 +\d+ B /);
  });
});

describe("Claude Code SessionStart source", () => {
  test("no source, or one MindSave does not know, is a fresh start; resume carries on", async () => {
    const t = setup();
    await save(inRepo(t), { goal: "Old task", next: "old next step" });
    const start = async (payload: Record<string, unknown>) => {
      const r = await t.cli(["hook", "session-start"], {
        stdin: JSON.stringify({ session_id: "s1", cwd: t.repo, hook_event_name: "SessionStart", ...payload }),
      });
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    };
    for (const payload of [{}, { source: "something-new" }, { source: "startup" }]) {
      const ctx = await start(payload);
      expect(ctx).toContain("goal: Old task");
      expect(ctx).toContain("If the user's request continues it");
      expect(ctx).not.toContain("Entering Continuation Mode");
    }
    expect(await start({ source: "resume" })).toContain("Entering Continuation Mode");
  });
});

describe("nothing to load here: where to go next", () => {
  test("outside any project, load names the store's projects and --in; recall offers --all-projects; with a peer, sync; store untouched", async () => {
    const t = setup();
    await save(inRepo(t), { goal: "work in shop" });
    const plain = join(t.base, "plain");
    mkdirSync(plain);
    const before = await dumpStore(t.db);
    const load = await t.cli(["load"], { cwd: plain });
    expect(load.code).toBe(1);
    expect(load.stderr.trim().split("\n")).toHaveLength(1);
    expect(load.stderr).toContain(`No MindSave project here yet (${plain})`);
    expect(load.stderr).toContain("`--in NAME` (shop; `mindsave projects` lists them)");
    expect(load.stderr).not.toContain("mindsave sync");
    const recall = await t.cli(["recall", "work"], { cwd: plain });
    expect(recall.code).toBe(1);
    expect(recall.stderr).toContain("search every project with `--all-projects`");
    expect(await dumpStore(t.db)).toBe(before);
    // What the hints offer works.
    expect((await t.ok(["load", "--in", "shop"], plain)).stdout).toContain("goal: work in shop");
    expect((await t.json(["recall", "work", "--all-projects"], plain)).hits).toHaveLength(1);

    // Once a peer is known, sync is the next step too.
    const other = join(t.base, "other-home");
    mkdirSync(other);
    await syncScene(inRepo(t), join(other, "mindsave.db"));
    expect((await t.cli(["load"], { cwd: plain })).stderr).toContain(
      "or run `mindsave sync` to bring in what your other homes and drives hold",
    );

    // A project with no snapshots yet (a rule made it) says the same.
    const api = gitRepo(join(t.base, "api"));
    await addRuleAt(inRepo(t, api), "Keep the API stable");
    const empty = await t.cli(["load"], { cwd: api });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain(
      "No snapshots in project api yet; save one with `mindsave save`, or pick a project of this store with `--in NAME` (shop;",
    );
  });

  test("from a drive folder, load suggests sync; an empty store adds nothing", async () => {
    const base = tempDir("mindsave-correct-drive-");
    const pc = laptop("drive-laptop", base);
    const drive = join(base, "usb", "mindsave");
    mkdirSync(drive, { recursive: true });
    writeFileSync(join(drive, "drive.json"), "{}");
    const r = await run(["load", "--home", drive], { cwd: drive, env: pc.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("or run `mindsave sync` to bring in what your other homes and drives hold");

    const home = join(base, "home");
    mkdirSync(home);
    const bare = await run(["load", "--home", home], { cwd: base, env: pc.env });
    expect(bare.code).toBe(1);
    // A folder that holds no store is not made one by a read (test/read-commands.test.ts).
    expect(bare.stderr).toBe(
      `mindsave: There is no MindSave store in ${home} (set by --home ${home}: the folder that holds mindsave.db); nothing was created. \`mindsave save\` there starts one.\n`,
    );
    expect(readdirSync(home)).toEqual([]);
  });
});

describe("one choice", () => {
  test('a wrong number with one item says 1, never "from 1 to 1"; with several, the range', async () => {
    const t = setup();
    await addRuleAt(inRepo(t), "Never push to main");
    const one = await t.cli(["rules", "remove", "3"]);
    expect(one.code).toBe(1);
    expect(one.stderr).toContain(
      "There is no rule number 3; give 1 (there is only one rule) or a piece of its text",
    );
    await addRuleAt(inRepo(t), "Run the linter");
    expect((await t.cli(["rules", "remove", "3"])).stderr).toContain(
      "give a number from 1 to 2 or a piece of its text",
    );

    await save(inRepo(t), { goal: "plan it" });
    await setPlanAt(inRepo(t), ["write the limiter"]);
    const step = await t.cli(["plan", "done", "4"]);
    expect(step.code).toBe(1);
    expect(step.stderr).toContain("give 1, the plan's only step");
    expect(step.stderr).not.toContain("1 to 1");
  });
});

describe("snapshots list outside any project", () => {
  test("says where to go, as load and recall do (--in with this store's projects)", async () => {
    const t = plainFolder();
    expect((await t.cli(["save", "--goal", "elsewhere"], { cwd: t.other })).code).toBe(0);
    for (const args of [["snapshots", "list"], ["load"]]) {
      const r = await t.cli(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        "pick a project of this store with `--in NAME` (other; `mindsave projects` lists them)",
      );
    }
  });
});
