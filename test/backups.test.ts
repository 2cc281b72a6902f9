// Backups survive their own rotation: every backup MindSave makes (scan --fix, doctor --repair,
// encrypt, decrypt, settings backups) is recorded as it is made, and rotation keeps the newest by
// that record, never by file name. Files named like later backups (a clock ahead, a copy from a
// shared drive, a planted file) never push out the one just made; rotation removes only regular
// files MindSave made, never a link nor what it points at. After a `scan --fix`, scan and doctor say the
// backups may still hold what it removed.
import { describe, expect, test } from "bun:test";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, join } from "node:path";
import { gitRepo, laptop, ok, okJson, run, sql, tempDir } from "./helpers.ts";
import { atPlace, save, saveText } from "./engine-setup.ts";
import { fixStore } from "../src/engine/home/scan.ts";
import { fakeSecrets } from "./secrets.ts";
import { backupName } from "../src/engine/home/backups.ts";
import { agentProject } from "./agent-fixtures.ts";

const { fakes } = fakeSecrets(0xbac0);
const githubToken = fakes.find((g) => g().kind === "github-pat")!;

interface Planted {
  /** Regular files named like backups (later and earlier than any MindSave makes), with their bytes. */
  files: Map<string, string>;
  /** Links named like backups, with the outside file each points at and its bytes. */
  links: Map<string, { target: string; bytes: string }>;
}

/** Plants, beside `dir`'s files, regular files and links named `${prefix}<name>`. */
function plant(
  dir: string,
  outside: string,
  prefix: string,
  names: { files: string[]; links: string[] },
): Planted {
  const files = new Map(names.files.map((n) => [join(dir, prefix + n), `not MindSave's: ${n} 数据`]));
  for (const [f, bytes] of files) writeFileSync(f, bytes);
  const links = new Map(
    names.links.map((n, i) => [
      join(dir, prefix + n),
      { target: join(outside, `must-survive-${i}.txt`), bytes: `someone's file ${i}` },
    ]),
  );
  for (const [link, { target, bytes }] of links) {
    writeFileSync(target, bytes);
    symlinkSync(target, link);
  }
  return { files, links };
}

/** What is at `path` without following a link: "link", the bytes of a file, or "missing". */
function found(path: string): string {
  if (!existsSync(path) && !isLink(path)) return "missing";
  return isLink(path) ? "link" : readFileSync(path, "utf8");
}
const isLink = (path: string) => {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
};

/** Every planted file and link is still there, as it was; every link's target too. */
function untouched(p: Planted): void {
  for (const [f, bytes] of p.files) expect({ f, is: found(f) }).toEqual({ f, is: bytes });
  for (const [link, { target, bytes }] of p.links) {
    expect({ link, is: found(link) }).toEqual({ link, is: "link" });
    expect({ target, is: found(target) }).toEqual({ target, is: bytes });
  }
}

function storeHome() {
  const base = tempDir("mindsave-backups-");
  const pc = laptop("backups", base);
  const home = join(base, "home");
  mkdirSync(home);
  const outside = join(base, "outside");
  mkdirSync(outside);
  const repo = gitRepo(join(base, "shop"));
  const opts = { cwd: repo, env: pc.env };
  // Where set-up saves in this process (the engine's save, as the CLI's): the backups are what is tested.
  const here = { home, ...opts };
  const db = join(home, "mindsave.db");
  const cli = (args: string[], env: Record<string, string> = {}) =>
    okJson([...args, "--home", home], { ...opts, env: { ...pc.env, ...env } });
  // MindSave's own backups: named like one, neither planted nor a key file.
  const own = (p: Planted) =>
    readdirSync(home)
      .filter((f) => f.startsWith("mindsave.db.bak-") && !f.endsWith(".key.json"))
      .map((f) => join(home, f))
      .filter((f) => !p.files.has(f) && !p.links.has(f))
      .sort();
  // A secret written past redaction (as an older version stored it), so scan --fix has work to do.
  const fixNeeded = (i: number) =>
    sql(db, "UPDATE snapshots SET goal = ?", [`Run ${i}: found ${githubToken().secret} in the CI log`]);
  // `scan --fix` in this process (the engine's fixStore, as the CLI's), where the rotation of its
  // backups is what a test checks and not the command.
  const fix = () => atPlace(here, fixStore);
  return { base, home, db, outside, opts, here, cli, fix, own, fixNeeded };
}

// Later names than any backup made now, and earlier ones: rotation by name would keep the first
// and remove the second (and, with three later ones, the backup just made).
const LATER = ["20990101T000000Z", "20990102T000000Z"];
const LATER_LINK = "20990103T000000Z";
const EARLIER = ["19700101T000000Z"];
const EARLIER_LINK = "19700102T000000Z";

describe("store backups are rotated by the order MindSave made them", () => {
  test("scan --fix four times beside files and links named like backups: the backup just made stays, only MindSave's own oldest goes", async () => {
    const s = storeHome();
    await save(s.here, { goal: "Ship the billing page" });
    const p = plant(s.home, s.outside, "mindsave.db.bak-", {
      files: [...LATER, ...EARLIER],
      links: [LATER_LINK, EARLIER_LINK],
    });
    const made: string[] = [];
    for (let i = 0; i < 4; i++) {
      await s.fixNeeded(i);
      const r = await s.cli(["scan", "--fix"]);
      expect(r.findings.length).toBeGreaterThan(0);
      made.push(r.backup);
      expect(r.pruned).toEqual(made.slice(0, -3));
      expect(s.own(p)).toEqual(made.slice(-3).sort());
      untouched(p);
    }
  });

  test("doctor --repair, encrypt and decrypt share one record: a damaged store's backup is rotated in turn, a decrypt's backup leaves with its key file", async () => {
    const s = storeHome();
    for (let i = 1; i <= 4; i++)
      await saveText(
        s.here,
        `---\ngoal: goal number ${i}\nstate: working\n---\n${`archived note ${i} `.repeat(2500)}\n`,
      );
    await ok(["eject", "--home", s.home], s.opts); // everything in mindsave.db alone
    const bytes = readFileSync(s.db);
    bytes.fill(0xab, Math.floor(bytes.length * 0.45), Math.floor(bytes.length * 0.6));
    writeFileSync(s.db, bytes);
    const p = plant(s.home, s.outside, "mindsave.db.bak-", {
      files: [...LATER, ...EARLIER, `${LATER[0]}.key.json`],
      links: [LATER_LINK, EARLIER_LINK],
    });

    const pass = { MINDSAVE_PASSPHRASE: "correct horse battery staple" };
    const repaired = await s.cli(["doctor", "--repair"]);
    expect(repaired.repaired).toBe(true);
    const made = [repaired.backup];
    const steps = ["encrypt", "decrypt", "encrypt", "decrypt", "encrypt"];
    for (const step of steps) {
      const r = await s.cli([step], pass);
      made.push(r.backup);
      expect(r.pruned).toEqual(made.slice(0, -3).slice(-1));
      expect(s.own(p)).toEqual(made.slice(-3).sort());
      untouched(p);
    }
    // The decrypts' backups are encrypted, each with its key file: the first one's went with it.
    const keys = readdirSync(s.home)
      .filter((f) => f.endsWith(".key.json") && f.startsWith("mindsave.db.bak-"))
      .map((f) => join(s.home, f));
    expect(keys.filter((k) => !p.files.has(k)).sort()).toEqual([`${made[4]}.key.json`]);
  });

  test("a recorded backup replaced by a link is left alone (its target too); one deleted by hand is just dropped", async () => {
    const s = storeHome();
    await save(s.here, { goal: "Ship the billing page" });
    const made: string[] = [];
    const fix = async (i: number) => {
      await s.fixNeeded(i);
      const r = await s.fix();
      made.push(r.backup!);
      return r.pruned;
    };
    for (let i = 0; i < 3; i++) await fix(i);
    // The oldest becomes a link to someone's file; the next one is deleted by hand.
    const target = join(s.outside, "someone.txt");
    writeFileSync(target, "someone's file");
    renameSync(made[0]!, join(s.outside, basename(made[0]!)));
    symlinkSync(target, made[0]!);
    rmSync(made[1]!);

    // Left of MindSave's: one (the link is not its any more); two more make three, the third goes on.
    expect(await fix(3)).toEqual([]);
    expect(await fix(4)).toEqual([]);
    expect(await fix(5)).toEqual([made[2]]);
    expect(found(made[0]!)).toBe("link");
    expect(found(target)).toBe("someone's file");
    expect(s.own({ files: new Map(), links: new Map([[made[0]!, { target, bytes: "" }]]) })).toEqual(
      made.slice(-3).sort(),
    );
  });

  test("a record edited to name files elsewhere cannot make rotation remove them", async () => {
    const s = storeHome();
    await save(s.here, { goal: "Ship the billing page" });
    const victims = [join(s.outside, "victim.txt"), join(s.base, "mindsave.db.bak-20200101T000000Z")];
    for (const v of victims) writeFileSync(v, "someone's file");
    writeFileSync(
      join(s.home, "mindsave.db.backups.json"),
      JSON.stringify({ made: ["../outside/victim.txt", victims[1], "..", 42] }),
    );
    const made: string[] = [];
    for (let i = 0; i < 4; i++) {
      await s.fixNeeded(i);
      made.push((await s.fix()).backup!);
    }
    for (const v of victims) expect({ v, is: found(v) }).toEqual({ v, is: "someone's file" });
    expect(s.own({ files: new Map(), links: new Map() })).toEqual(made.slice(-3).sort());
  });
});

describe("settings backups are rotated by the order MindSave made them", () => {
  test("hooks install and uninstall six times beside files and links named like backups: the newest 5 MindSave made stay, nothing planted is touched", async () => {
    const base = tempDir("mindsave-settings-backups-");
    const pc = laptop("ada-laptop", base);
    const settings = join(pc.home, ".claude", "settings.json");
    mkdirSync(join(pc.home, ".claude"));
    writeFileSync(settings, '{ "model": "opus" }\n');
    // `hooks install` wants a mindsave to call: any command of that name on PATH will do here.
    const bin = join(base, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "mindsave"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    const env = { ...pc.env, PATH: `${bin}:${process.env.PATH}` };
    const cli = async (args: string[]) => {
      const r = await run(["--json", ...args], { cwd: pc.home, env });
      expect(r.stderr).toBe("");
      return JSON.parse(r.stdout);
    };
    const dir = join(pc.home, ".mindsave", "backups", "settings");
    const made: string[] = [(await cli(["hooks", "install"])).backup];
    // Named as this settings file's backups are (its folder and path hash), later and earlier.
    const prefix = basename(made[0]!).split(".")[0] + ".";
    const outside = join(base, "outside");
    mkdirSync(outside);
    const p = plant(dir, outside, prefix, {
      files: ["20990101T000000Z.9998.json", "20990101T000000Z.9999.json", "19700101T000000Z.0001.json"],
      links: ["20990102T000000Z.9999.json", "19700101T000000Z.0002.json"],
    });
    const own = () =>
      readdirSync(dir)
        .filter((f) => f.startsWith(prefix))
        .map((f) => join(dir, f))
        .filter((f) => !p.files.has(f) && !p.links.has(f))
        .sort();
    for (let i = 0; i < 6; i++) {
      made.push((await cli(["hooks", i % 2 ? "install" : "uninstall"])).backup);
      expect(own()).toEqual(made.slice(-5).sort());
      untouched(p);
    }
  });
});

describe("a backup is never written through a link", () => {
  test("a link (even a dangling one) under a backup's name, or its key file's, makes the next name be used", () => {
    const dir = tempDir("mindsave-backup-names-");
    const db = join(dir, "mindsave.db");
    const at = new Date("2026-11-21T10:00:00Z");
    const target = join(dir, "elsewhere", "not-yet.txt");
    symlinkSync(target, `${db}.bak-20261121T100000Z`);
    expect(backupName(db, at)).toBe(`${db}.bak-20261121T100000Z-2`);
    symlinkSync(target, `${db}.bak-20261121T100000Z-2.key.json`);
    expect(backupName(db, at)).toBe(`${db}.bak-20261121T100000Z-3`);
  });
});

describe("scan: backups made before a fix", () => {
  test("'No secrets found' after --fix says the backups may still hold them and how to remove them; doctor says so too", async () => {
    const t = agentProject();
    expect((await t.cli(["save", "--goal", "Ship the billing page"])).code).toBe(0);
    const token = `ghp_${Array.from({ length: 36 }, (_, i) => "aZ3kQ9xLmP2vR7tWb5NcY8dHf4GjS6uE1oKq"[(i * 7) % 36]).join("")}`;
    await sql(t.db, "UPDATE snapshots SET goal = goal || ' ' || ?", [token]);
    expect((await t.cli(["scan"])).code).toBe(1);
    expect((await t.cli(["scan", "--fix"])).code).toBe(0);
    const backups = readdirSync(t.home).filter((f) => /^mindsave\.db\.bak-/.test(f));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(t.home, backups[0]!)).includes(token)).toBe(true); // the backup does hold it

    const clean = await t.cli(["scan"]);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain("No secrets found");
    expect(clean.stdout).toContain(
      `1 file(s) named like backups of the store (mindsave.db.bak-* in ${t.home}, made before an earlier \`scan --fix\` or other rewrite, or put there by someone else) may still hold what it removed: delete them`,
    );
    expect(clean.stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse((await t.cli(["scan", "--json"])).stdout).backups).toEqual([join(t.home, backups[0]!)]);
    expect((await t.cli(["doctor"])).stdout).toMatch(
      /backups: .*mindsave\.db\.bak-.* \(files named like the store's backups, MindSave's or not: after a `scan --fix` they may still hold what it redacted\)/,
    );

    rmSync(join(t.home, backups[0]!));
    expect(existsSync(join(t.home, backups[0]!))).toBe(false);
    const none = await t.cli(["scan"]);
    expect(none.stdout).toContain("No secrets found");
    expect(none.stdout).not.toContain("backup");
  });
});
