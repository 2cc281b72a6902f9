// The tokenizer's vocabulary in the compiled binary: copied once into the host's cache folder and
// mapped from there by later runs (src/engine/snapshots/ranks-file.ts). The copy is a cache only:
// missing, cut short, damaged or impossible to write, the binary reads its own and the restore
// block is the same byte for byte.
import { beforeAll, describe, expect, test } from "bun:test";
import {
  chownSync,
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { REPO, gitRepo, hostBinary, laptop, run, tempDir } from "./helpers.ts";

const VOCABULARY = readFileSync(join(REPO, "src", "engine", "snapshots", "cl100k.ranks"));

let bin: string;
let repo: string;
let env: Record<string, string>;
let cache: string;

beforeAll(async () => {
  bin = await hostBinary();
  const base = tempDir("mindsave-vocab-");
  const pc = laptop("pc", base);
  repo = gitRepo(join(base, "repo"));
  cache = join(base, "xdg-cache");
  // The fixture's runs fill another cache folder: the first test sees the first run of its own.
  const setup = { ...pc.env, XDG_CACHE_HOME: join(base, "setup-cache") };
  env = { ...pc.env, XDG_CACHE_HOME: cache };
  const save = await run(
    [
      "save",
      "--goal",
      "认证 flow: tokens counted in every load",
      "--state",
      "half done",
      "--next",
      "finish the 认证 handler",
    ],
    { bin: [bin], cwd: repo, env: setup },
  );
  expect(save.code).toBe(0);
  await run(["fail", "Tailwind", "--reason", "clashes with the design system"], {
    bin: [bin],
    cwd: repo,
    env: setup,
  });
}, 240_000);

const doctor = async (e: Record<string, string | undefined>) => {
  const r = await run(["--json", "doctor"], { bin: [bin], cwd: repo, env: e });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout).tokenizer as { how: string; path: string; cache?: string };
};
// The block says how long ago the snapshot was saved: runs a second apart differ there and only there.
const sameAge = (block: string) => block.replace(/ \([^()\n]* ago\) /, " (…) ");
const load = async (e: Record<string, string | undefined>) => {
  const r = await run(["load", "--latest"], { bin: [bin], cwd: repo, env: e });
  expect(r.code).toBe(0);
  return sameAge(r.stdout);
};
const tokens = async (e: Record<string, string | undefined>) => {
  const r = await run(["--json", "load", "--latest"], { bin: [bin], cwd: repo, env: e });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout).tokens as number;
};
/** A fresh cache folder (its mindsave folder made, 0700, empty) and the path of the copy in it. */
const seeded = () => {
  const xdg = join(tempDir("mindsave-vocab-seeded-"), "cache");
  mkdirSync(join(xdg, "mindsave"), { recursive: true, mode: 0o700 });
  return { xdg, file: join(xdg, "mindsave", copies()[0]) };
};
const copies = () =>
  existsSync(join(cache, "mindsave"))
    ? readdirSync(join(cache, "mindsave")).filter((f) => f.endsWith(".ranks"))
    : [];

describe("the tokenizer's vocabulary, mapped from a cache copy on this host", () => {
  test("the first run reads the binary's own and writes the copy whole (owner only); later runs map it; the block is the same", async () => {
    const first = await doctor(env);
    expect(first.how).toBe("read");
    expect(first.path.startsWith("/$bunfs/")).toBe(true);
    expect(copies()).toHaveLength(1);
    const file = join(cache, "mindsave", copies()[0]);
    expect(copies()[0]).toMatch(/^cl100k-\w+\.ranks$/);
    expect(Buffer.compare(readFileSync(file), VOCABULARY)).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(cache, "mindsave")).mode & 0o777).toBe(0o700);
    expect(first.cache).toBe(`copied to ${file} for later runs to map`);
    expect(readdirSync(join(cache, "mindsave")).sort()).toEqual([copies()[0], `${copies()[0]}.checked`]);
    expect(await doctor(env)).toEqual({ how: "mapped", path: file });
    // Without any copy (no cache folder at all) the block is the same.
    const mapped = await load(env);
    expect(mapped).toContain("认证");
    expect(await load({ ...env, HOME: undefined, XDG_CACHE_HOME: undefined })).toBe(mapped);
    expect(await doctor({ ...env, HOME: undefined, XDG_CACHE_HOME: undefined })).toEqual({
      how: "read",
      path: first.path,
      cache: "not cached: no cache folder (HOME is not set)",
    });
    const text = await run(["doctor"], {
      bin: [bin],
      cwd: repo,
      env: { ...env, HOME: undefined, XDG_CACHE_HOME: undefined },
    });
    expect(text.stdout).toContain(
      "\ntokenizer: vocabulary read from the binary; not cached: no cache folder (HOME is not set)\n",
    );
  });

  test("a copy cut short, or damaged past its header, is never mapped: the binary's own is read and the copy written again", async () => {
    const expected = await load(env);
    const file = join(cache, "mindsave", copies()[0]);
    truncateSync(file, 1000);
    expect((await doctor(env)).how).toBe("read");
    expect(Buffer.compare(readFileSync(file), VOCABULARY)).toBe(0);
    // The same size, the hash table wiped (every slot taken: a lookup that never meets an empty one).
    const damaged = Buffer.from(VOCABULARY);
    const n = damaged.readUInt32LE(4);
    const tableAt = 16 + 4 * (n + 1);
    damaged.fill(0xff, tableAt, tableAt + 4 * damaged.readUInt32LE(8));
    writeFileSync(file, damaged);
    expect(await load(env)).toBe(expected);
    expect(Buffer.compare(readFileSync(file), VOCABULARY)).toBe(0);
    // A header of another kind of file.
    writeFileSync(file, Buffer.concat([Buffer.from("SQLite format 3\0"), VOCABULARY.subarray(16)]));
    expect(await load(env)).toBe(expected);
    expect((await doctor(env)).how).toBe("mapped");
  });

  test("a cache folder that cannot be written costs nothing but the speed: no error, no stray file, the same block", async () => {
    const expected = await load(env);
    const blocked = join(tempDir("mindsave-vocab-ro-"), "not-a-folder");
    writeFileSync(blocked, "a file where the cache folder would be\n");
    const r = await run(["load", "--latest"], {
      bin: [bin],
      cwd: repo,
      env: { ...env, XDG_CACHE_HOME: blocked },
    });
    expect([r.code, r.stderr, sameAge(r.stdout)]).toEqual([0, "", expected]);
    expect(readdirSync(join(blocked, ".."))).toEqual(["not-a-folder"]);
  });

  test("a copy damaged in one byte of a token the block counts is never mapped: the count is the binary's own and the copy is written again", async () => {
    const expected = await tokens({ ...env, HOME: undefined, XDG_CACHE_HOME: undefined });
    const { xdg, file } = seeded();
    // The shape and the spot-checked tokens stay right: only " handler" (in the snapshot's next step) is spelt wrong.
    const damaged = Buffer.from(VOCABULARY);
    const n = damaged.readUInt32LE(4);
    const at = damaged.indexOf(" handler", 16 + 4 * (n + 1) + 4 * damaged.readUInt32LE(8));
    damaged[at + 3] ^= 0x20;
    writeFileSync(file, damaged, { mode: 0o600 });
    expect(await tokens({ ...env, XDG_CACHE_HOME: xdg })).toBe(expected);
    expect(Buffer.compare(readFileSync(file), VOCABULARY)).toBe(0);
    expect((await doctor({ ...env, XDG_CACHE_HOME: xdg })).how).toBe("mapped");
  });

  test("a link at the copy's path is never followed: what it points to is left alone and a copy of this user's takes its place", async () => {
    const { xdg, file } = seeded();
    const elsewhere = join(xdg, "..", "elsewhere.ranks");
    writeFileSync(elsewhere, VOCABULARY);
    symlinkSync(elsewhere, file);
    const before = statSync(elsewhere);
    expect(await doctor({ ...env, XDG_CACHE_HOME: xdg })).toEqual({
      how: "read",
      path: expect.stringMatching(/^\/\$bunfs\//),
      cache: expect.stringMatching(/^copied to /),
    });
    expect(lstatSync(file).isFile()).toBe(true);
    expect(Buffer.compare(readFileSync(file), VOCABULARY)).toBe(0);
    expect([statSync(elsewhere).ino, statSync(elsewhere).mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect((await doctor({ ...env, XDG_CACHE_HOME: xdg })).how).toBe("mapped");
  });

  test("the copy is never written through a link planted where its half-written file goes", async () => {
    const { xdg, file } = seeded();
    const victim = join(xdg, "..", "victim.txt");
    writeFileSync(victim, "someone's file\n");
    // The binary runs as this shell's pid (exec), so the link is at the exact name it writes first.
    const plant = ["sh", "-c", `ln -s "${victim}" "${file}.$$.tmp" && exec "$0" "$@"`, bin];
    const r = await run(["load", "--latest"], {
      bin: plant,
      cwd: repo,
      env: { ...env, XDG_CACHE_HOME: xdg },
    });
    expect([r.code, r.stderr, sameAge(r.stdout)]).toEqual([0, "", await load(env)]);
    expect(readFileSync(victim, "utf8")).toBe("someone's file\n");
  });

  test("a cache folder other users can write, or another user's, is neither mapped from nor written to", async () => {
    const open = seeded();
    writeFileSync(open.file, VOCABULARY, { mode: 0o600 });
    chmodSync(join(open.xdg, "mindsave"), 0o777);
    const before = statSync(open.file);
    expect(await doctor({ ...env, XDG_CACHE_HOME: open.xdg })).toMatchObject({
      how: "read",
      cache: `not cached: ${join(open.xdg, "mindsave")} is not a folder of this user's that only it can write`,
    });
    expect(statSync(open.file).ino).toBe(before.ino);
    expect(readdirSync(join(open.xdg, "mindsave"))).toEqual([copies()[0]]);
    // (chown needs root, as in CI: another user's folder, and a cache folder that would be made inside another user's home.)
    if (process.getuid?.() !== 0) return;
    const theirs = seeded();
    writeFileSync(theirs.file, VOCABULARY, { mode: 0o600 });
    chownSync(theirs.file, 65534, 65534);
    chownSync(join(theirs.xdg, "mindsave"), 65534, 65534);
    const theirsBefore = statSync(theirs.file);
    expect((await doctor({ ...env, XDG_CACHE_HOME: theirs.xdg })).how).toBe("read");
    expect([statSync(theirs.file).ino, statSync(theirs.file).uid]).toEqual([theirsBefore.ino, 65534]);
    const userHome = tempDir("mindsave-vocab-theirs-");
    chownSync(userHome, 65534, 65534);
    expect((await doctor({ ...env, XDG_CACHE_HOME: join(userHome, ".cache") })).how).toBe("read");
    expect(readdirSync(userHome)).toEqual([]);
  });

  test("a copy whose bytes were checked is not checked again until it changes: its stamp (identity and ctime) is what is trusted", async () => {
    const { xdg, file } = seeded();
    const e = { ...env, XDG_CACHE_HOME: xdg };
    expect((await doctor(e)).how).toBe("read");
    const stamp = `${file}.checked`;
    const s = lstatSync(file);
    expect(readFileSync(stamp, "utf8")).toBe(`${s.dev}:${s.ino}:${s.size}:${s.ctimeMs}`);
    expect((await doctor(e)).how).toBe("mapped");
    // Damaged after its check: its ctime moved, so the stamp no longer vouches for it.
    const damaged = Buffer.from(VOCABULARY);
    damaged[damaged.length - 100] ^= 0x20;
    writeFileSync(file, damaged);
    expect((await doctor(e)).how).toBe("read");
    expect(Buffer.compare(readFileSync(file), VOCABULARY)).toBe(0);
    // A stamp made to match the damaged copy is believed: the CRC is not run again (the trust this saves ~1 M instructions on).
    writeFileSync(file, damaged);
    const d = lstatSync(file);
    writeFileSync(stamp, `${d.dev}:${d.ino}:${d.size}:${d.ctimeMs}`);
    expect((await doctor(e)).how).toBe("mapped");
  });

  test("half-written copies a killed run left behind are cleared by the next copy's writing once they are 10 minutes old; a fresh one (a live writer's) stays", async () => {
    const { xdg, file } = seeded();
    const stale = `${file}.4242.tmp`;
    const live = `${file}.4343.tmp`;
    writeFileSync(stale, "half");
    writeFileSync(live, "half");
    const old = new Date(Date.now() - 11 * 60_000);
    utimesSync(stale, old, old);
    expect((await doctor({ ...env, XDG_CACHE_HOME: xdg })).cache).toMatch(/^copied to /);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });
});
