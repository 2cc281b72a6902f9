// Encryption at rest, through the real CLI: no plaintext in any file of an encrypted home (its WAL
// or rollback journal included), a wrong or missing passphrase changes nothing, encrypt/decrypt
// round-trips every row, and sync works between an encrypted drive and a plain home.
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import {
  CLI,
  dumpStore,
  gitRepo,
  laptop,
  ok,
  okJson,
  plainFolder,
  run,
  sql,
  tempDir,
  type RunOptions,
} from "./helpers.ts";
import { fail, save, saveText, type Place } from "./engine-setup.ts";

const PASS = "correct horse battery staple";
const MAGIC = "SQLite format 3\0";

/** Every file under `dir` (recursively) with its bytes. */
function allFiles(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) for (const [k, v] of allFiles(p)) out.set(k, v);
    else out.set(p, readFileSync(p));
  }
  return out;
}

function filesWith(dir: string, needle: string): string[] {
  return [...allFiles(dir)].filter(([, b]) => b.includes(needle)).map(([p]) => p);
}

const header = (file: string) => readFileSync(file).subarray(0, 16).toString("latin1");

function setup() {
  const base = tempDir("mindsave-enc-");
  const pc = laptop("enc-laptop", base);
  const repo = gitRepo(join(base, "repo"));
  const home = join(base, "home");
  mkdirSync(home);
  const opts = (extra: Record<string, string> = {}, more: Partial<RunOptions> = {}): RunOptions => ({
    cwd: repo,
    env: { ...pc.env, ...extra },
    ...more,
  });
  const withPass = (pass = PASS) => opts({ MINDSAVE_PASSPHRASE: pass });
  // A plain store's state is saved in this process (test/engine-setup.ts); an encrypted one's
  // through the CLI, which alone opens it.
  const plain = (at = home): Place => ({ home: at, cwd: repo, env: pc.env });
  return { base, pc, repo, home, db: join(home, "mindsave.db"), opts, withPass, plain };
}

let encryptedHome: Promise<string> | undefined;

/**
 * An encrypted home: a snapshot saved before `encrypt` and one after (through the CLI, with PASS),
 * the key file, and the plain backup `encrypt` left. Made once; `into` gets a copy of its files.
 */
async function encryptedStoreIn(into: string): Promise<void> {
  const from = await (encryptedHome ??= (async () => {
    const t = setup();
    await save(t.plain(), { goal: "before encryption" });
    await ok(["--home", t.home, "encrypt"], t.withPass());
    await ok(["--home", t.home, "save", "--goal", "after encryption"], t.withPass());
    return t.home;
  })());
  cpSync(from, into, { recursive: true });
}

/** Runs the CLI until it says it stalled at `point` (MINDSAVE_SYNC_STALL), calls `look`, then kills it. */
async function whileStalled(
  args: string[],
  point: string,
  env: Record<string, string>,
  cwd: string,
  look: () => void,
): Promise<void> {
  const child = spawn(CLI[0], [...CLI.slice(1), ...args], {
    cwd,
    env: { ...process.env, ...env, MINDSAVE_SYNC_STALL: point },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on("data", (d) => {
      err += String(d);
      if (err.includes("stalled")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`exited ${code} before stalling: ${err}`)));
  });
  try {
    look();
  } finally {
    child.kill("SIGKILL");
    await new Promise((r) => child.on("exit", r));
  }
}

function fakeBinaries(base: string): string {
  const dir = join(base, "bins");
  mkdirSync(join(dir, "linux-x64"), { recursive: true });
  writeFileSync(join(dir, "linux-x64", "mindsave"), "#!/bin/sh\necho fake\n");
  return dir;
}

describe("a command that has the store open while encrypt swaps its file", () => {
  test("writes nothing into the old file (the backup): its write is refused with one sentence", async () => {
    const t = setup();
    await save(t.plain(), { goal: "before encrypt", state: "s", next: "n" });
    const { Store } = await import("../src/store/store.ts");
    const open = await Store.open(join(t.home, "mindsave.db"));
    try {
      const done = await okJson(["--home", t.home, "encrypt"], t.withPass());
      await expect(open.write("host-test", (w) => w.setMeta("late_write", "lost?"))).rejects.toThrow(
        "was replaced by another command (encrypt, decrypt or a repair) while this one had it open",
      );
      expect(await sql(done.backup, "SELECT value FROM meta WHERE key = 'late_write'")).toEqual([]);
    } finally {
      open.close();
    }
  });
});

describe("encryption at rest", () => {
  test("a canary saved into an encrypted home appears in no file of it, its WAL included", async () => {
    const t = setup();
    const canary = `zebracanary${randomBytes(6).toString("hex")}`;
    const created = await okJson(["--home", t.home, "encrypt"], t.withPass());
    // The suite's cheaper cost (MINDSAVE_KDF_LOG_N=14, from test/helpers.ts), recorded in the key file.
    expect(created).toMatchObject({
      encrypted: true,
      backup: null,
      kdf: { name: "scrypt", N: 16384, r: 8, p: 1 },
    });
    const yaml = `---\ngoal: "${canary} goal"\nstate: "${canary} state"\nnext_action: "${canary} next"\nconstraints:\n  - "${canary} constraint"\ndecisions:\n  - "${canary} decision"\n---\n# Notes\n${canary} in the cold archive.\n`;
    await ok(["--home", t.home, "save"], { ...t.withPass(), stdin: yaml });
    await ok(["--home", t.home, "fail", `${canary}-approach`, "--reason", `${canary} reason`], t.withPass());
    expect((await ok(["--home", t.home, "recall", canary], t.withPass())).stdout).toContain(canary);
    expect(filesWith(t.home, canary)).toEqual([]);
    // Each command let go of the file: no write-ahead log or shared memory is left beside it.
    expect(readdirSync(t.home).filter((f) => /-(wal|shm)$/.test(f))).toEqual([]);

    // A plain peer with the canary (the control: there it is readable), merged in by a sync that
    // stops after its first transaction committed, so the change sits in the encrypted home's WAL.
    const peer = join(t.base, "peer");
    mkdirSync(peer);
    await save(t.plain(peer), { goal: `${canary} from the plain peer` });
    expect(filesWith(peer, canary).length).toBeGreaterThan(0);
    await whileStalled(
      ["sync", join(peer, "mindsave.db"), "--home", t.home],
      "between",
      { ...t.pc.env, MINDSAVE_PASSPHRASE: PASS },
      t.repo,
      () => {
        expect(statSync(`${t.db}-wal`).size).toBeGreaterThan(0);
        expect(filesWith(t.home, canary)).toEqual([]);
      },
    );
    const goals = (await okJson(["--home", t.home, "snapshots", "list"], t.withPass())).snapshots.map(
      (s: any) => s.goal,
    );
    expect(goals).toEqual([`${canary} from the plain peer`, `${canary} goal`]);
    expect(filesWith(t.home, canary)).toEqual([]);
    expect(header(t.db)).not.toBe(MAGIC);
    expect((await okJson(["--home", t.home, "doctor"], t.withPass())).encryption).toMatchObject({
      encrypted: true,
      cipher: "aes256cbc",
    });
  });

  test("an encrypted drive keeps its rollback journal encrypted too", async () => {
    const t = setup();
    const canary = `okapicanary${randomBytes(6).toString("hex")}`;
    const usb = join(t.base, "usb");
    mkdirSync(usb);
    const init = await okJson(
      ["drive", "init", usb, "--encrypt", "--from", fakeBinaries(t.base)],
      t.withPass(),
    );
    expect(init).toMatchObject({ created_store: true, encrypted: true });
    const drive = join(usb, "mindsave");
    await save(t.plain(), { goal: `${canary} one` });
    await ok(["--home", t.home, "sync", usb], t.withPass());
    await save(t.plain(), { goal: `${canary} two` });
    // Stopped inside the write transaction on the drive: its hot journal holds pages with `one`.
    await whileStalled(
      ["sync", usb, "--home", t.home],
      "in-push",
      { ...t.pc.env, MINDSAVE_PASSPHRASE: PASS },
      t.repo,
      () => {
        expect(statSync(join(drive, "mindsave.db-journal")).size).toBeGreaterThan(0);
        expect(filesWith(drive, canary)).toEqual([]);
      },
    );
    const goals = (await okJson(["--home", drive, "snapshots", "list"], t.withPass())).snapshots.map(
      (s: any) => s.goal,
    );
    expect(goals).toEqual([`${canary} one`]);
    expect(filesWith(usb, canary)).toEqual([]);
  });

  test("a wrong passphrase exits 1 with one sentence and leaves every byte of the store as it was", async () => {
    const t = setup();
    await encryptedStoreIn(t.home);
    const before = allFiles(t.home);
    for (const args of [
      ["load"],
      ["save", "--goal", "never written"],
      ["sync", "--list-peers"],
      ["decrypt"],
      ["doctor"],
    ]) {
      const r = await run(["--home", t.home, ...args], t.withPass("not the passphrase"));
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split("\n")).toEqual([
        `mindsave: Wrong passphrase for the encrypted store ${t.db}; nothing was changed.`,
      ]);
    }
    const after = allFiles(t.home);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [p, bytes] of before) expect(after.get(p)!.equals(bytes)).toBe(true);
  });

  test("without a passphrase and without a terminal: exit 1 and the sentence", async () => {
    const t = setup();
    await encryptedStoreIn(t.home);
    const before = allFiles(t.home);
    for (const args of [["load"], ["save", "--goal", "x"]]) {
      const r = await run(["--home", t.home, ...args], t.opts());
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        "mindsave: This store is encrypted; set MINDSAVE_PASSPHRASE or run on a terminal.\n",
      );
    }
    const json = await run(["--json", "--home", t.home, "load"], t.opts());
    expect(JSON.parse(json.stderr)).toEqual({
      error: "This store is encrypted; set MINDSAVE_PASSPHRASE or run on a terminal.",
      exit_code: 1,
    });
    const after = allFiles(t.home);
    for (const [p, bytes] of before) expect(after.get(p)!.equals(bytes)).toBe(true);
    // Encrypting needs one too, and a short one is refused.
    const plain = join(t.base, "plain");
    mkdirSync(plain);
    await save(t.plain(plain), { goal: "plain" });
    expect((await run(["--home", plain, "encrypt"], t.opts())).stderr).toContain(
      "set MINDSAVE_PASSPHRASE or run on a terminal",
    );
    expect((await run(["--home", plain, "encrypt"], t.withPass("short"))).stderr).toContain(
      "at least 8 characters",
    );
    expect(header(join(plain, "mindsave.db"))).toBe(MAGIC);
    expect(existsSync(join(plain, "mindsave.db.key.json"))).toBe(false);
  });

  test("encrypt then decrypt round-trips every snapshot and row; backups: the last 3", async () => {
    const t = setup();
    await save(t.plain(), { goal: "first", decision: ["keep it small"] });
    await saveText(t.plain(), "---\ngoal: second\nstate: halfway\n---\n# Layer 3\nlong notes\n");
    await save(t.plain(), { goal: "third", blocker: "waiting for review" });
    await fail(t.plain(), "Tailwind", "style conflict");
    const shows = async (o: RunOptions) => {
      const list = (await okJson(["--home", t.home, "snapshots", "list"], o)).snapshots;
      return Promise.all(
        list.map(
          async (_: unknown, i: number) =>
            (await ok(["--home", t.home, "snapshots", "show", String(i + 1)], o)).stdout,
        ),
      );
    };
    const shown = await shows(t.opts());
    expect(shown).toHaveLength(3);
    const rows = await dumpStore(t.db);

    const enc = await okJson(["--home", t.home, "encrypt"], t.withPass());
    expect(enc.encrypted).toBe(true);
    expect(enc.rows.snapshots).toBe(3);
    expect(header(t.db)).not.toBe(MAGIC);
    expect(header(enc.backup)).toBe(MAGIC);
    expect(await dumpStore(enc.backup)).toBe(rows);
    expect(existsSync(`${t.db}.key.json`)).toBe(true);
    expect(await shows(t.withPass())).toEqual(shown);
    expect((await run(["--home", t.home, "encrypt"], t.withPass())).stderr).toContain("already encrypted");

    const dec = await okJson(["--home", t.home, "decrypt"], t.withPass());
    expect(dec).toMatchObject({ encrypted: false, rows: enc.rows });
    expect(header(t.db)).toBe(MAGIC);
    expect(existsSync(`${t.db}.key.json`)).toBe(false);
    expect(existsSync(`${dec.backup}.key.json`)).toBe(true); // the encrypted backup keeps its key file
    expect(await dumpStore(t.db)).toBe(rows);
    expect(await shows(t.opts())).toEqual(shown);
    expect((await okJson(["--home", t.home, "doctor"], t.opts())).encryption.encrypted).toBe(false);

    // Two more round trips: four more backups made, only the newest three kept (with their key files).
    for (let i = 0; i < 2; i++) {
      await ok(["--home", t.home, "encrypt"], t.withPass());
      await ok(["--home", t.home, "decrypt"], t.withPass());
    }
    const left = readdirSync(t.home).filter((f) => f.startsWith("mindsave.db.bak-"));
    expect(left.filter((f) => !f.endsWith(".key.json"))).toHaveLength(3);
    for (const f of left.filter((f) => f.endsWith(".key.json")))
      expect(left).toContain(f.slice(0, -".key.json".length));
    expect(readdirSync(t.home).filter((f) => f.includes("converting"))).toEqual([]);
    expect(await dumpStore(t.db)).toBe(rows);
  });

  test("a damaged encrypted store is told apart from a wrong passphrase", async () => {
    const t = setup();
    await encryptedStoreIn(t.home);
    const bytes = readFileSync(t.db);
    bytes.fill(0x41, 0, 512);
    writeFileSync(t.db, bytes);
    const r = await run(["--home", t.home, "load"], t.withPass());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("damaged");
    expect(r.stderr).not.toContain("Wrong passphrase");
  });

  test("sync between an encrypted drive and a plain home carries snapshots both ways", async () => {
    const t = setup();
    const usb = join(t.base, "usb");
    mkdirSync(usb);
    await ok(["drive", "init", usb, "--encrypt", "--from", fakeBinaries(t.base)], t.withPass());
    const drive = join(usb, "mindsave");
    await save(t.plain(), { goal: "saved on the laptop" });
    await ok(["--home", drive, "save", "--goal", "saved on the drive"], t.withPass());

    // Without the drive's passphrase the sync says which store needs one, and which setting gives it.
    const locked = await run(["--home", t.home, "sync", usb], t.opts());
    expect(locked.code).toBe(1);
    expect(locked.stderr).toBe(
      `mindsave: The sync peer ${join(drive, "mindsave.db")} is encrypted; set MINDSAVE_PEER_PASSPHRASE (or MINDSAVE_PASSPHRASE, when it is the same) or run on a terminal.\n`,
    );
    // From the laptop (plain) with the drive as peer, and back from the drive with the laptop as peer.
    const first = await okJson(["--home", t.home, "sync", usb], t.opts({ MINDSAVE_PEER_PASSPHRASE: PASS }));
    expect(first.pulled.snapshots.added).toBe(1);
    expect(first.pushed.snapshots.added).toBe(1);
    await save(t.plain(), { goal: "laptop again" });
    const back = await okJson(["--home", drive, "sync", t.home], t.withPass());
    expect(back.pulled.snapshots.added).toBe(1);

    const goals = (o: RunOptions, home: string) =>
      okJson(["--home", home, "snapshots", "list"], o).then((r) =>
        r.snapshots.map((s: any) => s.goal).sort(),
      );
    const all = ["laptop again", "saved on the drive", "saved on the laptop"];
    expect(await goals(t.withPass(), drive)).toEqual(all);
    expect(await goals(t.opts(), t.home)).toEqual(all);
    // Each side kept its own form: the laptop's store is plain, the drive's has no plaintext.
    expect((await sql(t.db, "SELECT goal FROM snapshots ORDER BY goal")).map((r) => r.goal)).toEqual(all);
    expect(header(join(drive, "mindsave.db"))).not.toBe(MAGIC);
    expect(filesWith(drive, "saved on the laptop")).toEqual([]);
  });
});

test("a new key costs scrypt N=2^17 unless the suite's MINDSAVE_KDF_LOG_N asks for less", async () => {
  const { kdfParams, newKey } = await import("../src/engine/home/encryption.ts");
  expect((await newKey("correct horse battery", new Date(), {})).file.params).toEqual({
    N: 131072,
    r: 8,
    p: 1,
  });
  expect(
    (await newKey("correct horse battery", new Date(), { MINDSAVE_KDF_LOG_N: "14" })).file.params.N,
  ).toBe(16384);
  // A cost out of range is the default's (its parameters read, not a second key made at 2^17: ~0.5 s).
  expect(kdfParams({ MINDSAVE_KDF_LOG_N: "4" }).N).toBe(131072);
  expect(kdfParams({ MINDSAVE_KDF_LOG_N: "21" }).N).toBe(131072);
});

describe("doctor --repair on an encrypted store whose key file is missing", () => {
  test("says to put the key file back first (a backup is the plain store from before the encryption), and changes nothing", async () => {
    const t = plainFolder();
    const pc = laptop("walker", t.base);
    const withPass = (args: string[]) =>
      run([...args, "--home", t.home], { cwd: t.other, env: { ...pc.env, MINDSAVE_PASSPHRASE: PASS } });
    await encryptedStoreIn(t.home);
    const key = `${t.db}.key.json`;
    renameSync(key, `${key}.away`);
    const bytes = readFileSync(t.db);
    const listing = readdirSync(t.home).sort();
    const r = await withPass(["doctor", "--repair"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^mindsave: .* if it was encrypted, put its key file mindsave\.db\.key\.json back beside it \(a backup lacks everything saved after it was made\), else restore the newest backup .*\.\n$/,
    );
    expect(readFileSync(t.db).equals(bytes)).toBe(true);
    expect(readdirSync(t.home).sort()).toEqual(listing);
  });
});

describe("doctor after encrypt", () => {
  test("names the backup that is the store from before the encryption, not encrypted, and says to delete it once not needed", async () => {
    const t = plainFolder();
    const pc = laptop("walker", t.base);
    const env = { ...pc.env, MINDSAVE_PASSPHRASE: "pass-one-1" };
    const cli = (args: string[]) => run([...args, "--home", t.home], { cwd: t.other, env });
    await save({ home: t.home, cwd: t.other, env: pc.env }, { goal: "before" });
    expect((await cli(["encrypt"])).code).toBe(0);
    const r = await cli(["doctor"]);
    expect(r.stdout).toMatch(
      /\n {11}\S*mindsave\.db\.bak-\S+ is not encrypted: what was saved before `encrypt`, readable by anyone with the file; delete it once you no longer need it\n/,
    );
    expect((await run(["--json", "doctor", "--home", t.home], { cwd: t.other, env })).stdout).toContain(
      '"plain_backups": [',
    );
  });
});
