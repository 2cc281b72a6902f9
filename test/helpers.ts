// Test helpers: temp dirs, git repos, and the real CLI run as a subprocess against real libSQL files.
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
  realpathSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { sourcesHash, sourcesStat } from "../build.ts";
import { spawnSync } from "node:child_process";
import { commandWord } from "../src/cli-only.ts";

export const REPO = resolve(import.meta.dir, "..");
export const MAIN = join(REPO, "src", "main.ts");

/** Where `bun run test` builds this host's binary once, before the tests (see package.json). */
export const TEST_BIN_DIR = join(REPO, ".cache", "test-bin");
const HOST_EXE = join(
  TEST_BIN_DIR,
  `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`,
  process.platform === "win32" ? "mindsave.exe" : "mindsave",
);

/**
 * The compiled host binary `bun run test` built, when it was built from exactly the sources here
 * (build.ts records their hash): the shipped artifact, and ~5× quicker to start than the source
 * (bytecode). Null otherwise, e.g. when a single test file is run by hand after an edit: then the
 * tests run the source.
 */
export function prebuiltBinary(): string | null {
  const stamp = join(dirname(HOST_EXE), "sources.sha256");
  if (!existsSync(HOST_EXE) || !existsSync(stamp)) return null;
  const recorded = readFileSync(stamp, "utf8").trim();
  // Every test file's process asks: the sources' sizes and times as the build recorded them with
  // this hash spare it reading them all to hash them again.
  const stat = join(dirname(HOST_EXE), "sources.stat");
  if (existsSync(stat) && readFileSync(stat, "utf8") === `${recorded}\n${sourcesStat()}`) return HOST_EXE;
  return recorded === sourcesHash() ? HOST_EXE : null;
}

/** The compiled host binary, for tests about the binary itself: the prebuilt one, else built now. */
export async function hostBinary(): Promise<string> {
  const { buildTarget, hostTarget } = await import("../build.ts");
  return prebuiltBinary() ?? buildTarget(hostTarget(), join(tempDir("mindsave-dist-"), "dist"));
}

/** The CLI every test runs as a subprocess: the fresh prebuilt binary, else `bun src/main.ts`. */
export const CLI: string[] = ((bin) => (bin ? [bin] : [process.execPath, MAIN]))(prebuiltBinary());

/** Every temp dir of this test process lives under one root, removed by test/setup.ts after all files. */
export const TEST_ROOT = join(tmpdir(), `mindsave-tests-${process.pid}`);

/** A fresh temp directory (realpath, so macOS /private/var and symlinked /tmp compare equal). */
export function tempDir(prefix = "mindsave-test-"): string {
  // Made on first use: a process that only imports this module (the runner) leaves no empty root.
  mkdirSync(TEST_ROOT, { recursive: true });
  return realpathSync(mkdtempSync(join(TEST_ROOT, prefix)));
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  stdin?: string;
  /** The command to run instead of `bun src/main.ts` (e.g. a compiled binary). */
  bin?: string[];
}

/** A laptop for tests: its own HOME (so its own host id) and a name. */
export interface Laptop {
  home: string;
  env: Record<string, string>;
}

export function laptop(name: string, base = tempDir("mindsave-laptop-")): Laptop {
  const home = join(base, name);
  mkdirSync(home, { recursive: true });
  return { home, env: { HOME: home, USERPROFILE: home, MINDSAVE_HOST_NAME: name } };
}

/**
 * The environment of a CLI child running `args`: this one without any MINDSAVE_ setting, plus
 * `extra`.
 */
export function childEnv(
  extra: Record<string, string | undefined> = {},
  args: string[] = [],
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith("MINDSAVE_")) env[k] = v;
  env.NO_COLOR = "1";
  // Encrypted stores made by tests use a cheaper KDF (the cost is stored with each key; see encryption.ts).
  env.MINDSAVE_KDF_LOG_N = "14";
  // The JIT off: a CLI run in a test is short, and compiling costs it more than it gains (~20% of
  // the suite's time). Behaviour is the same; test/short-run.test.ts checks the JIT as shipped.
  // An import too: a test's imports are of a few dozen files, 20-35% cheaper interpreted; one of
  // hundreds asks for SHIPPED_JIT (twice the CPU without). Its top tier off as well, as the import's
  // own restart would set it (short-run.ts): SHIPPED_JIT then gives that JIT without a second start.
  env.BUN_JSC_useJIT = "0";
  if (commandWord(args) === "import") env.BUN_JSC_useFTLJIT = "0";
  // A project marker in a parent of the temp folder (an AGENTS.md in /tmp) is no test's project.
  env.MINDSAVE_ROOT_CEILING = TEST_ROOT;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/**
 * Set in a CLI run's `env` to give it the JIT as shipped (childEnv turns it off): for a run that
 * works through megabytes (a huge snapshot, 60,000 list items) or an import of hundreds of files,
 * whose long loops the shipped policy compiles; interpreted, such a run costs up to four times the CPU.
 */
export const SHIPPED_JIT = { BUN_JSC_useJIT: undefined };

/** Runs the real CLI in a child process; never inherits the developer's MindSave settings. */
export async function run(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const proc = Bun.spawn([...(opts.bin ?? CLI), ...args], {
    cwd: opts.cwd ?? REPO,
    env: childEnv(opts.env, args),
    stdin: opts.stdin === undefined ? "ignore" : new TextEncoder().encode(opts.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/** Runs and expects exit 0, with the output in the failure message otherwise. */
export async function ok(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const r = await run(args, opts);
  if (r.code !== 0)
    throw new Error(`mindsave ${args.join(" ")} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}

export async function okJson<T = any>(args: string[], opts: RunOptions = {}): Promise<T> {
  const r = await ok(["--json", ...args], opts);
  return JSON.parse(r.stdout) as T;
}

export function git(cwd: string, ...args: string[]): string {
  const r = spawnSync("git", args, {
    cwd,
    encoding: "utf8",
    // Pinned dates: the same files give the same root commit (one project identity) whatever the clock says.
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
      GIT_AUTHOR_DATE: "2026-01-01T12:00:00Z",
      GIT_COMMITTER_DATE: "2026-01-01T12:00:00Z",
    },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout.trim();
}

/** Each set of files' repository, made once in this process: the next ones are copies of it. */
const repoTemplates = new Map<string, string>();

/**
 * A git repository with one commit and a couple of files. A copy of the one made first with the
 * same files (pinned dates: the same commit, so the same project identity), not four git runs.
 */
export function gitRepo(
  dir: string,
  files: Record<string, string> = { "src/auth.ts": "export const auth = 1;\n", "README.md": "# demo\n" },
): string {
  // Files already in the folder go into the commit too: such a repository is made in place.
  if (existsSync(dir) && readdirSync(dir).length > 0) return commitFiles(dir, files);
  const key = JSON.stringify(files);
  let template = repoTemplates.get(key);
  // (Gone when the run's temp root was removed after a test file, with this module kept.)
  if (!template || !existsSync(template))
    repoTemplates.set(key, (template = commitFiles(join(tempDir("mindsave-repo-"), "repo"), files)));
  cpSync(template, dir, { recursive: true });
  return dir;
}

/** `git init` in `dir` and one commit of `files` (and of whatever the folder already holds). */
function commitFiles(dir: string, files: Record<string, string>): string {
  mkdirSync(dir, { recursive: true });
  // No template: git's sample hooks are ~20 files to write per repository, and MindSave reads none of them.
  git(dir, "init", "-q", "--template=", "-b", "main");
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "first");
  return dir;
}

/**
 * A connection to a plain store file as MindSave's own processes make one (Bun's SQLite). Not
 * @libsql/client: its closed connections keep their file handles until they are collected, and a
 * test process reading store files meanwhile (readFileSync of the shared-memory file) drops their
 * locks, so a later connection of the test process reads a stale WAL index: "malformed".
 */
export async function storeClient(dbPath: string) {
  const { openDb } = await import("../src/store/driver.ts");
  return openDb(dbPath, { timeoutMs: 5000 });
}

/** Every row of every table, for "the store is exactly as it was" checks; `via`: read through that client instead (left open). */
export async function dumpStore(dbPath: string, via?: import("../src/store/db.ts").Exec): Promise<string> {
  const c = via ?? (await storeClient(dbPath));
  try {
    const tables = (
      await c.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'snapshot_search%' ORDER BY name",
      )
    ).rows.map((r) => String(r.name));
    const out: string[] = [];
    for (const t of tables) {
      const rows = (await c.execute(`SELECT * FROM "${t}" ORDER BY 1`)).rows;
      out.push(`## ${t}`, ...rows.map((r) => JSON.stringify(r)));
    }
    return out.join("\n");
  } finally {
    if (!via) (c as unknown as { close(): void }).close();
  }
}

/**
 * A PATH whose first `git` is a script that runs `shell` (lines of sh; `$PPID` is the MindSave
 * process that ran git) and then the real git: to see what MindSave asks git, and with what.
 */
export function gitProbePath(shell: string): string {
  const bin = join(tempDir(), "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "git"), `#!/bin/sh\n${shell}\nexec ${Bun.which("git")} "$@"\n`);
  chmodSync(join(bin, "git"), 0o755);
  return `${bin}:${process.env.PATH}`;
}

export async function sql(
  dbPath: string,
  statement: string,
  args: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  const c = await storeClient(dbPath);
  try {
    return (await c.execute({ sql: statement, args: args as never })).rows as unknown as Record<
      string,
      unknown
    >[];
  } finally {
    c.close();
  }
}

/** A laptop with its own home and a clone of the shared origin: what sync and cross-host tests use. */
export interface LaptopWithClone {
  name: string;
  home: string;
  repo: string;
  db: string;
  pc: Laptop;
  env: Record<string, string>;
  /** Options for `run`/`ok` as this laptop, in `cwd` (default: its clone). */
  opts: (cwd?: string) => RunOptions;
  /** The CLI on this laptop's home, in its clone. */
  cli: (args: string[], extra?: { env?: Record<string, string>; stdin?: string }) => Promise<RunResult>;
  json: (args: string[]) => Promise<any>;
}

/** The first clone of a repository gitRepo made with its default files, and that repository's path. */
let firstClone: { dir: string; origin: string } | undefined;

/**
 * `git clone ORIGIN DIR` for an ORIGIN gitRepo made with its default files and not changed since:
 * a copy of the first such clone, the origin's path swapped in (its config and its reflogs).
 */
function cloneOfRepo(origin: string, dir: string): void {
  if (!firstClone || !existsSync(firstClone.dir)) {
    const from = gitRepo(join(tempDir("mindsave-origin-"), "origin"));
    const to = join(tempDir("mindsave-clone-"), "shop");
    git(dirname(to), "clone", "-q", "--template=", from, to);
    firstClone = { dir: to, origin: from };
  }
  cpSync(firstClone.dir, dir, { recursive: true });
  for (const file of ["config", "logs/HEAD", "logs/refs/heads/main", "logs/refs/remotes/origin/HEAD"]) {
    const path = join(dir, ".git", file);
    writeFileSync(path, readFileSync(path, "utf8").replaceAll(firstClone.origin, origin));
  }
}

/** Laptops A and B (distinct hosts, homes and clones of one origin) and a drive folder. */
export function twoLaptops(prefix = "mindsave-laptops-") {
  const base = tempDir(prefix);
  const origin = gitRepo(join(base, "origin"));
  const mk = (name: string, hostId: string): LaptopWithClone => {
    const pc = laptop(name, base);
    const home = join(base, `${name}-home`);
    mkdirSync(home);
    const repo = join(base, `${name}-work`, "shop");
    cloneOfRepo(origin, repo);
    const env: Record<string, string> = { ...pc.env, MINDSAVE_HOST: hostId };
    const cli = (args: string[], extra: { env?: Record<string, string>; stdin?: string } = {}) =>
      run([...args, "--home", home], { cwd: repo, stdin: extra.stdin, env: { ...env, ...extra.env } });
    const json = async (args: string[]) => {
      const r = await cli(["--json", ...args]);
      if (r.code !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
      return JSON.parse(r.stdout);
    };
    return {
      name,
      home,
      repo,
      db: join(home, "mindsave.db"),
      pc,
      env,
      opts: (cwd = repo) => ({ cwd, env }),
      cli,
      json,
    };
  };
  const drive = join(base, "usb", "mindsave");
  mkdirSync(drive, { recursive: true });
  writeFileSync(join(drive, "drive.json"), "{}");
  return {
    base,
    origin,
    a: mk("laptop-a", "host-a"),
    b: mk("laptop-b", "host-b"),
    drive,
    driveDb: join(drive, "mindsave.db"),
  };
}

/** A laptop with a git project `shop` and a home; the CLI runs in the project (or `cwd`) on that home. */
export function projectOnLaptop(prefix: string) {
  return projectAt(tempDir(prefix));
}

/**
 * `projectOnLaptop` in the folder `base`, or, given `parts`, that laptop, project and home (another
 * home for a laptop and project made before: a copy of a fixture store, test/engine-setup.ts).
 */
export function projectAt(base: string, parts?: { pc: Laptop; repo: string; home: string }) {
  const pc = parts?.pc ?? laptop("walker", base);
  const home = parts?.home ?? join(base, "home");
  mkdirSync(home, { recursive: true });
  const repo = parts?.repo ?? gitRepo(join(base, "shop"));
  const at = (o: { cwd?: string; stdin?: string }) => ({ cwd: o.cwd ?? repo, env: pc.env, stdin: o.stdin });
  const cli = (args: string[], o: { cwd?: string; stdin?: string } = {}) =>
    run([...args, "--home", home], at(o));
  const okCli = (args: string[], o: { cwd?: string; stdin?: string } = {}) =>
    ok([...args, "--home", home], at(o));
  const json = (args: string[], cwd = repo) => okJson([...args, "--home", home], { cwd, env: pc.env });
  return { base, pc, home, db: join(home, "mindsave.db"), repo, cli, okCli, json };
}

export type ProjectOnLaptop = ReturnType<typeof projectOnLaptop>;

/** Save a snapshot of `goal` through the CLI, its state and next action placeholders; `more` adds flags. */
export const saveGoal = (t: ProjectOnLaptop, goal: string, ...more: string[]) =>
  t.okCli(["save", "--goal", goal, "--state", "s", "--next", "n", ...more]);

/** A laptop with an empty home and one git project `app`; `at(cwd)` runs the CLI there (default: in the project). */
export function laptopWithApp() {
  const base = tempDir();
  const home = join(base, "home");
  mkdirSync(home);
  const repo = gitRepo(join(base, "app"));
  const pc = laptop("p", base);
  return { base, home, repo, pc, env: pc.env, at: (cwd = repo) => ({ cwd, env: pc.env }) };
}

/** A laptop with its own home folder beside it and a git repo (made when `repo()` is called), under one temp dir. */
export function laptopAndHome(prefix: string) {
  const base = tempDir(prefix);
  const home = join(base, "home");
  mkdirSync(home);
  const pc = laptop("ada", base);
  return { base, home, pc, repo: () => gitRepo(join(base, "repo")) };
}

/** A plain folder `dir` (no git, no .mindsave/) and a folder `other` beside it, on a laptop whose home is empty. */
export function plainFolder() {
  const base = tempDir("mindsave-plain-");
  const pc = laptop("walker", base);
  const home = join(base, "home");
  mkdirSync(home);
  const other = join(base, "other");
  mkdirSync(other);
  const dir = join(base, "app");
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "package.json"), "{}\n");
  writeFileSync(join(dir, "src", "auth.ts"), "x\n");
  const cli = (args: string[], o: { cwd?: string; stdin?: string } = {}) =>
    run([...args, "--home", home], { cwd: o.cwd ?? dir, env: pc.env, stdin: o.stdin });
  return { base, home, db: join(home, "mindsave.db"), dir, other, cli };
}

/**
 * Another process holding the write lock of the store at `db` (a long sync, an import), or a read
 * transaction (another program reading it), until `release`: it says so on stdout once it has the
 * lock, and this waits for that (no sleep).
 */
export async function holdWriteLock(
  db: string,
  mode: "write" | "read" = "write",
): Promise<{ release: () => Promise<void> }> {
  const take =
    mode === "write"
      ? `d.exec("BEGIN IMMEDIATE"); d.exec("UPDATE meta SET value = value WHERE key = 'clock'");`
      : `d.exec("BEGIN"); d.query("SELECT count(*) FROM snapshots").get();`;
  const holder = Bun.spawn(
    [
      process.execPath,
      "-e",
      `const d = new (require("bun:sqlite").Database)(${JSON.stringify(db)}); ${take} console.log("locked"); setInterval(() => {}, 1000);`,
    ],
    { stdout: "pipe" },
  );
  const release = async () => {
    holder.kill();
    await holder.exited;
  };
  const reader = holder.stdout.getReader();
  let said = "";
  while (!said.includes("locked")) {
    const r = await reader.read();
    if (r.done) {
      await release();
      throw new Error("the lock holder ended before taking the lock");
    }
    said += new TextDecoder().decode(r.value);
  }
  return { release };
}

/**
 * The session-start hook's reply in `repo` as Claude Code gets it (JSON: its additionalContext, and
 * the raw stdout) and as Codex gets it (plain text); both must exit 0.
 */
export async function sessionStartReplies(
  cli: (args: string[], o: { stdin?: string }) => Promise<RunResult>,
  repo: string,
) {
  const payload = JSON.stringify({
    session_id: "s1",
    cwd: repo,
    hook_event_name: "SessionStart",
    source: "startup",
    transcript_path: null,
  });
  const claude = await cli(["hook", "session-start"], { stdin: payload });
  const codex = await cli(["hook", "session-start", "--agent", "codex"], { stdin: payload });
  if (claude.code !== 0 || codex.code !== 0)
    throw new Error(`session-start exited ${claude.code}/${codex.code}: ${claude.stderr}${codex.stderr}`);
  return {
    claudeContext: JSON.parse(claude.stdout).hookSpecificOutput.additionalContext as string,
    claudeStdout: claude.stdout,
    codex: codex.stdout,
  };
}

/** Overwrites the one page of `table` with garbage: all its rows unreadable, every other table as it was. */
export async function destroyTable(db: string, table: string): Promise<void> {
  const [{ rootpage }] = await sql(
    db,
    "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?",
    [table],
  );
  const bytes = readFileSync(db);
  const pageSize = bytes.readUInt16BE(16);
  const at = (Number(rootpage) - 1) * pageSize;
  if (bytes[at] !== 0x0d) throw new Error(`${table} is not one leaf page`); // else the damage would miss rows
  bytes.fill(0xab, at, at + pageSize);
  writeFileSync(db, bytes);
}
