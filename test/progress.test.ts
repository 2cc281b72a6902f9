// Long work shows its progress on a terminal: done/total (and an estimate once it means something)
// on stderr, rewritten in place and erased when the work ends, and never where a program reads
// (--json) or where no one watches (stderr not a terminal).
// The terminal is a real pseudo-terminal: the CLI runs under script(1), its stdout to a file.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { save } from "./engine-setup.ts";
import { progressLine } from "../src/commands/shared.ts";
import { CLI, childEnv, destroyTable, gitRepo, laptop, run, SHIPPED_JIT, sql, tempDir } from "./helpers.ts";

/** script(1)'s path, or "" where it is not installed (the tests that need it are skipped). */
const SCRIPT = spawnSync("sh", ["-c", "command -v script"]).stdout?.toString().trim() ?? "";
/** Past sync's threshold (500 items), under which no progress is shown. */
const COUNT = 520;
const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
/** The progress line `doing` last drawn, then erased before the next output on the terminal ("exit 0"). */
const erasedBeforeExit = (doing: string) => new RegExp(`${doing} \\d+/\\d+[^\\r]*\\r\\x1b\\[Kexit 0`);

/** An import of COUNT files runs with the JIT as shipped (helpers.ts SHIPPED_JIT): interpreted, it costs twice the CPU. */
const jitFor = (args: string[]) => (args.includes("import") ? SHIPPED_JIT : {});

/** A workspace whose .mindsave/ holds `count` snapshots in the original's layout, and a home to import into. */
function seedWorkspace(count = COUNT) {
  const base = tempDir("mindsave-progress-");
  const repo = gitRepo(join(base, "webapp"));
  const snaps = join(repo, ".mindsave", "snapshots");
  mkdirSync(snaps, { recursive: true });
  for (let i = 0; i < count; i++) {
    const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
    writeFileSync(
      join(snaps, `step_${i}.md`),
      `---\nsnapshot_id: step_${i}\ncreated_at: "${at}"\ngoal: 日志 step ${i}\n---\nLayer 3 of ${i}\n`,
    );
  }
  const home = join(base, "home");
  mkdirSync(home);
  return { base, repo, home, env: laptop("progress-laptop", base).env };
}

let imported: Promise<ReturnType<typeof seedWorkspace>> | undefined;

/**
 * A workspace whose COUNT snapshots are imported into its home, made once, and each test gets its
 * own home, a copy of that one's store. Imported by the CLI with the JIT as shipped: in this
 * process (its JIT's top tier on) the same import cost more CPU, ~2.1 s against ~1.6.
 */
async function importedWorkspace() {
  const w = await (imported ??= (async () => {
    const w = seedWorkspace();
    const r = await run(["--json", "import", w.repo, "--home", w.home], {
      cwd: w.repo,
      env: { ...w.env, ...SHIPPED_JIT },
    });
    expect(JSON.parse(r.stdout).snapshots.imported).toHaveLength(COUNT);
    return w;
  })());
  const home = join(tempDir("mindsave-progress-home-"), "home");
  mkdirSync(home);
  copyFileSync(join(w.home, "mindsave.db"), join(home, "mindsave.db"));
  return { ...w, home };
}

/** A workspace whose home holds a store of two snapshots, saved in this process (the CLI is doctor's). */
async function twoSnapshots() {
  const w = seedWorkspace(0);
  for (const goal of ["限流 first", "second"])
    await save({ home: w.home, cwd: w.repo, env: w.env }, { goal });
  return { ...w, db: join(w.home, "mindsave.db") };
}

/** The CLI on a terminal: what it wrote to stderr (the terminal's screen) and to stdout (a file). */
function onTerminal(args: string[], w: ReturnType<typeof seedWorkspace>) {
  const out = join(w.base, "stdout.txt");
  const command = `${[...CLI, ...args].map(quote).join(" ")} > ${quote(out)}; echo "exit $?"`;
  const r = spawnSync(SCRIPT, ["-qec", command, "/dev/null"], {
    cwd: w.repo,
    env: childEnv({ ...w.env, ...jitFor(args) }, args),
    encoding: "utf8",
  });
  return { screen: r.stdout, stdout: readFileSync(out, "utf8") };
}

describe("progress of long work", () => {
  test.skipIf(!SCRIPT)("on a terminal: importing done/total, the line erased when the import ends", () => {
    const w = seedWorkspace();
    const { screen, stdout } = onTerminal(["import", w.repo, "--home", w.home], w);
    expect(screen).toContain("exit 0");
    expect(screen).toMatch(/importing snapshots \d+\/520/);
    expect(screen).toMatch(erasedBeforeExit("importing snapshots"));
    // The report itself stays on stdout, the progress out of it.
    expect(stdout).toContain(`${COUNT} imported`);
    expect(stdout).not.toContain("importing snapshots");
  });

  test.skipIf(!SCRIPT)("prune on a terminal: deleting done/total, the line erased when done", async () => {
    // Retention keeps the newest 20 listed: the other 500 are archived, what prune deletes.
    const w = await importedWorkspace();
    const { screen, stdout } = onTerminal(["snapshots", "prune", "--yes", "--home", w.home], w);
    expect(screen).toContain("exit 0");
    expect(screen).toMatch(new RegExp(`deleting snapshots \\d+/${COUNT - 20}`));
    expect(screen).toMatch(erasedBeforeExit("deleting snapshots"));
    expect(stdout).toContain(`Deleted ${COUNT - 20} snapshot(s).`);
  });

  test.skipIf(!SCRIPT)("never with --json, and never when stderr is not a terminal", async () => {
    // Every file already imported: each is skipped, and still counted (the terminal run below shows it).
    const w = await importedWorkspace();
    const json = onTerminal(["--json", "import", w.repo, "--home", w.home], w);
    expect(json.screen).toContain("exit 0");
    expect(json.screen).not.toContain("importing snapshots");
    expect(JSON.parse(json.stdout).snapshots.skipped).toHaveLength(COUNT);
    // The same import on a terminal without --json shows it…
    expect(onTerminal(["import", w.repo, "--home", w.home], w).screen).toMatch(
      /importing snapshots \d+\/520/,
    );
    // …and with stderr a pipe, not.
    const piped = await run(["import", w.repo, "--home", w.home], {
      cwd: w.repo,
      env: { ...w.env, ...SHIPPED_JIT },
    });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain(`${COUNT} skipped`);
    expect(piped.stderr).not.toContain("importing snapshots");
  });

  test.skipIf(!SCRIPT)(
    "doctor --full on a terminal: pages checked done/total and the part on now, no estimate, the line erased; none with --json",
    async () => {
      // A small store: the check's parts (its tables) are the steps, whatever the size.
      const w = await twoSnapshots();
      const [{ used }] = await sql(w.db, "SELECT sum(pageno) AS used FROM dbstat WHERE aggregate = TRUE");
      const { screen, stdout } = onTerminal(["doctor", "--full", "--home", w.home], w);
      expect(screen).toContain("exit 0");
      // The part on now is named: the search index, most of a big store's time in one statement, too.
      // In the product's words, never a table's name.
      expect(screen).toMatch(new RegExp(`checking pages \\d+/${used}: the search index\r`));
      expect(screen).toMatch(new RegExp(`checking pages \\d+/${used}: snapshots\r`));
      expect(screen).toMatch(new RegExp(`checking pages \\d+/${used}: project folders\r`));
      expect(screen).not.toMatch(
        /checking pages [^\r]*(table |snapshot_search|failure_counts|roots|sqlite_)/,
      );
      // Its pages are not its time: no rate, so no estimate (the line before the check says roughly how long).
      expect(screen).not.toContain(" left");
      expect(screen).toMatch(erasedBeforeExit("checking pages"));
      expect(stdout).toContain("integrity: ok (every page checked)");
      expect(stdout).not.toContain("checking pages");
      const json = onTerminal(["--json", "doctor", "--full", "--home", w.home], w);
      expect(json.screen).not.toContain("checking pages");
      expect(JSON.parse(json.stdout)).toMatchObject({ check: "full", integrity: "ok" });
    },
  );

  test.skipIf(!SCRIPT)(
    "doctor --repair on a terminal: the store's pages checked, then the repaired copy's, each line erased",
    async () => {
      const w = await twoSnapshots();
      await destroyTable(w.db, "snapshots");
      const { screen, stdout } = onTerminal(["doctor", "--repair", "--home", w.home], w);
      expect(screen).toContain("exit 0");
      expect(stdout).toContain(`Repaired the store ${w.db}`);
      expect(stdout).not.toContain("checking");
      expect(screen).toMatch(
        /checking pages 0\/\d+: [^\r]+\r.*checking the repaired copy's pages 0\/\d+: [^\r]+\r/s,
      );
      expect(screen).toMatch(erasedBeforeExit("checking the repaired copy's pages"));
      // No progress line left on the screen: none ends a row.
      expect(screen).not.toMatch(/checking[^\r\n]*\r\n/);
    },
  );
});

describe("the progress line's estimate", () => {
  /** The lines a progress line draws ("" erases it), its clock moved `msPerItem` at each of `total` items. */
  function drawn(msPerItem: number, total: number, estimate = true): string[] {
    const lines: string[] = [];
    let now = 0;
    const progress = progressLine(
      (line) => lines.push(line),
      () => now,
      { min: 1, estimate },
    );
    for (let done = 0; done <= total; done++, now += msPerItem) progress("deleting snapshots", done, total);
    return lines;
  }

  test("none for work that ends within two seconds; the line erased at the end", () => {
    // 100 items, 19 ms each: 1.9 s in all.
    const lines = drawn(19, 100);
    expect(lines).toContain("deleting snapshots 99/100");
    expect(lines.filter((l) => l.includes("left"))).toEqual([]);
    expect(lines.at(-1)).toBe("");
    expect(lines).not.toContain("deleting snapshots 100/100");
  });

  test("from a second into the work, while a second or more is left: the rate times what is left", () => {
    // 100 items, 40 ms each: at item 24, 0.96 s in; at 25, 1 s in and 75 × 40 ms = 3 s left;
    // at 50, 2 s left; at 88, 12 × 40 ms = 0.48 s left, which is not worth saying.
    const lines = drawn(40, 100);
    expect(lines).toContain("deleting snapshots 24/100");
    expect(lines).toContain("deleting snapshots 25/100, about 3 s left");
    expect(lines).toContain("deleting snapshots 50/100, about 2 s left");
    expect(lines).toContain("deleting snapshots 88/100");
    expect(drawn(40, 100, false).filter((l) => l.includes("left"))).toEqual([]);
  });

  test("the part on now is named, and a new part redraws the line within the same hundredth", () => {
    const lines: string[] = [];
    const progress = progressLine(
      (line) => lines.push(line),
      () => 0,
      { min: 1 },
    );
    progress("checking pages", 0, 1000, "the search index snapshot_search");
    progress("checking pages", 1, 1000, "table 任务");
    progress("checking pages", 1000, 1000);
    expect(lines).toEqual([
      "checking pages 0/1000: the search index snapshot_search",
      "checking pages 1/1000: table 任务",
      "",
    ]);
  });
});
