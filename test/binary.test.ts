// The compiled binaries: built by build.ts for every target, run from empty directories with no
// node_modules above them, laid out on a drive, installed locally, and the arm64 one under qemu.
import { beforeAll, describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  chmodSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { buildTarget, commanderLight, hostTarget, sourcesHash, TARGETS, type Target } from "../build.ts";
import { REPO, TEST_BIN_DIR, gitRepo, laptop, run, sql, tempDir } from "./helpers.ts";

const QEMU = spawnSync("sh", ["-c", "command -v qemu-aarch64-static"]).stdout?.toString().trim();
const ARM_SYSROOT = "/usr/aarch64-linux-gnu";
const canRunArm = !!QEMU && existsSync(ARM_SYSROOT) && process.platform === "linux";
if (!canRunArm)
  console.log(
    "skipped arm64 test: qemu-aarch64-static or the arm64 libc (/usr/aarch64-linux-gnu) is not installed (apt-get install qemu-user-static libc6-arm64-cross libgcc-s1-arm64-cross)",
  );

/**
 * Every target's binary, beside the host one `bun run test` builds: each is built again only when
 * the sources changed since it was (build.ts's hash, taken before building), so a run after an
 * edit of the tests alone builds nothing.
 */
const dist = TEST_BIN_DIR;
const built = new Map<string, string>();

beforeAll(async () => {
  const sources = sourcesHash();
  for (const t of TARGETS) {
    const exe = join(dist, t.name, t.exe);
    const stamp = join(dist, t.name, "sources.sha256");
    if (!existsSync(exe) || !existsSync(stamp) || readFileSync(stamp, "utf8").trim() !== sources) {
      await buildTarget(t, dist);
      writeFileSync(stamp, sources + "\n");
    }
    built.set(t.name, exe);
  }
}, 240_000);

const ADDON_DIR: Record<string, string> = {
  "linux-x64": "linux-x64-gnu",
  "linux-arm64": "linux-arm64-gnu",
  "darwin-x64": "darwin-x64",
  "darwin-arm64": "darwin-arm64",
  "windows-x64": "win32-x64-msvc",
};

/** The executable format from its header: what `file` would say, read directly. */
function format(bytes: Buffer): string {
  if (bytes.readUInt32BE(0) === 0x7f454c46) {
    const machine = bytes.readUInt16LE(18);
    return `ELF ${bytes[4] === 2 ? "64" : "32"}-bit ${machine === 0x3e ? "x86-64" : machine === 0xb7 ? "aarch64" : `machine ${machine}`}`;
  }
  if (bytes.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = bytes.readUInt32LE(4);
    return `Mach-O 64-bit ${cpu === 0x01000007 ? "x86_64" : cpu === 0x0100000c ? "arm64" : `cpu ${cpu}`}`;
  }
  if (bytes.toString("latin1", 0, 2) === "MZ") {
    const pe = bytes.readUInt32LE(0x3c);
    if (bytes.toString("latin1", pe, pe + 4) !== "PE\0\0") return "MZ without PE";
    const machine = bytes.readUInt16LE(pe + 4);
    const magic = bytes.readUInt16LE(pe + 24);
    return `${magic === 0x20b ? "PE32+" : "PE32"} ${machine === 0x8664 ? "x86-64" : `machine ${machine}`}`;
  }
  return "unknown";
}

const EXPECTED: Record<string, string> = {
  "linux-x64": "ELF 64-bit x86-64",
  "linux-arm64": "ELF 64-bit aarch64",
  "darwin-x64": "Mach-O 64-bit x86_64",
  "darwin-arm64": "Mach-O 64-bit arm64",
  "windows-x64": "PE32+ x86-64",
};

/** No node_modules in this directory or any above it: the binary must carry everything. */
function noNodeModulesAbove(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, "node_modules"))) return false;
    if (dirname(d) === d) return true;
  }
}

function emptyDirWith(target: Target, name = "bin"): string {
  const dir = join(tempDir("mindsave-empty-"), name);
  mkdirSync(dir, { recursive: true });
  const exe = join(dir, target.exe);
  copyFileSync(built.get(target.name)!, exe);
  chmodSync(exe, 0o755);
  return exe;
}

/**
 * What `drive init --from` lays out in a test: the host's binary, which runs from the drive, and
 * stand-ins for the other targets: their bytes are the first test's subject, here only their
 * places on the drive.
 */
function driveSource(base: string): string {
  const from = join(base, "dist");
  for (const t of TARGETS) {
    mkdirSync(join(from, t.name), { recursive: true });
    if (t.name === hostTarget().name) symlinkSync(built.get(t.name)!, join(from, t.name, t.exe));
    else writeFileSync(join(from, t.name, t.exe), `a stand-in for the ${t.name} binary\n`);
  }
  return from;
}

describe("compiled binaries", () => {
  test("every target has its format and embeds its own platform's libSQL addon, and only that one", () => {
    const addons = Object.fromEntries(
      Object.entries(ADDON_DIR).map(([t, a]) => {
        const bytes = readFileSync(join(REPO, "node_modules", "@libsql", a, "index.node"));
        return [t, bytes.subarray(bytes.length >> 1, (bytes.length >> 1) + 512)];
      }),
    );
    for (const t of TARGETS) {
      const bytes = readFileSync(built.get(t.name)!);
      expect(format(bytes)).toBe(EXPECTED[t.name]);
      for (const [other, sample] of Object.entries(addons)) {
        expect({ target: t.name, addon: other, embedded: bytes.includes(sample) }).toEqual({
          target: t.name,
          addon: other,
          embedded: other === t.name,
        });
      }
    }
  });

  test("the TUI's React is its production build (build.ts defines NODE_ENV): no development-only checks", () => {
    // A warning only React's development build carries: it checks and traces every render.
    const devOnly = Buffer.from("Each child in a list should have a unique");
    const bytes = readFileSync(built.get(hostTarget().name)!);
    expect(bytes.includes(devOnly)).toBe(false);
    // React's development build (in node_modules) does carry it (so the check can fail).
    const dev = readFileSync(
      join(REPO, "node_modules", "react-reconciler", "cjs", "react-reconciler.development.js"),
    );
    expect(dev.includes(devOnly)).toBe(true);
  });

  test("the host binary, alone in an empty directory, runs save → list → load", async () => {
    const exe = emptyDirWith(hostTarget());
    const dir = dirname(exe);
    expect(noNodeModulesAbove(dir)).toBe(true);
    const pc = laptop("compiled", dirname(dir));
    const repo = gitRepo(join(dirname(dir), "repo"));
    const opts = { cwd: join(repo, "src"), env: pc.env, bin: [exe] };
    const saved = await run(
      ["save", "--goal", "compiled end to end", "--next", "check the list", "--active-file", "auth.ts"],
      opts,
    );
    expect(saved.stderr).toBe("");
    expect(saved.code).toBe(0);
    const list = await run(["snapshots", "list"], opts);
    expect(list.stdout).toContain("compiled end to end");
    const load = await run(["load"], opts);
    expect(load.code).toBe(0);
    expect(load.stdout).toContain("goal: compiled end to end");
    expect(load.stdout).toContain(join(repo, "src", "auth.ts"));
  });

  test("--version, --help and a plain store need no unpacked engine; an encrypted store says it needs one", async () => {
    const exe = emptyDirWith(hostTarget());
    const home = join(dirname(exe), "home");
    mkdirSync(home);
    const env = {
      ...laptop("lazy").env,
      TMPDIR: "/nonexistent/mindsave-tmp",
      MINDSAVE_PASSPHRASE: "correct horse battery staple",
    };
    const version = await run(["--version"], { cwd: dirname(exe), env, bin: [exe] });
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^mindsave \d+\.\d+\.\d+ \(.+\) · home /);
    const help = await run(["--help"], { cwd: dirname(exe), env, bin: [exe] });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: mindsave");
    // A plain store runs on the SQLite built into the runtime: nothing to unpack.
    const repo = gitRepo(join(dirname(exe), "repo"));
    const saved = await run(
      ["save", "--goal", "no temp dir", "--state", "s", "--next", "n", "--home", home],
      { cwd: repo, env, bin: [exe] },
    );
    expect({ code: saved.code, stderr: saved.stderr }).toEqual({ code: 0, stderr: "" });
    // An encrypted one needs libSQL's addon, unpacked into the temp directory: a sentence, not a loader stack trace.
    const encrypt = await run(["encrypt", "--home", home], { cwd: dirname(exe), env, bin: [exe] });
    expect(encrypt.code).toBe(1);
    expect(encrypt.stderr.trim()).toBe(
      "mindsave: MindSave cannot unpack its database engine into the temp directory /nonexistent/mindsave-tmp (missing, not writable, or mounted noexec); set TMPDIR to a writable directory programs may run from.",
    );
    // Refused before anything was written: the store is still plain and as it was.
    const load = await run(["load", "--home", home], { cwd: repo, env, bin: [exe] });
    expect(load.code).toBe(0);
    expect(load.stdout).toContain("goal: no temp dir");
    expect(existsSync(join(home, "mindsave.db.key.json"))).toBe(false);
    // Salvaging a damaged file reads it with libSQL too: the same sentence, never "nothing can be read".
    const cut = join(dirname(exe), "cut");
    mkdirSync(cut);
    const whole = readFileSync(join(home, "mindsave.db"));
    writeFileSync(join(cut, "mindsave.db"), whole.subarray(0, whole.length >> 1));
    const repair = await run(["doctor", "--repair", "--home", cut], { cwd: repo, env, bin: [exe] });
    expect(repair.code).toBe(1);
    expect(repair.stderr.trim()).toBe(encrypt.stderr.trim());
    expect(readFileSync(join(cut, "mindsave.db"))).toEqual(whole.subarray(0, whole.length >> 1));
  });

  test("drive init lays out a drive whose binary uses the drive's store with no flag; install copies it home", async () => {
    const base = tempDir("mindsave-drive-");
    const usb = join(base, "usb");
    mkdirSync(usb);
    const a = laptop("laptop-a", base);
    const from = driveSource(base);
    const init = await run(["drive", "init", usb, "--from", from], { cwd: base, env: a.env });
    expect(init.code).toBe(0);
    const root = join(usb, "mindsave");
    for (const t of TARGETS) expect(existsSync(join(root, "bin", t.name, t.exe))).toBe(true);
    for (const f of ["mindsave", "mindsave.cmd", "README.txt", "mindsave.db"])
      expect(existsSync(join(root, f))).toBe(true);
    expect(readFileSync(join(root, "mindsave.cmd"), "utf8")).toContain("bin\\windows-x64\\mindsave.exe");
    expect(readFileSync(join(root, "README.txt"), "utf8")).toContain("If you found this drive");
    expect(noNodeModulesAbove(root)).toBe(true);

    // Plugged into laptop A: the launcher picks the binary; the drive's store is used without flags.
    const repo = gitRepo(join(base, "repo"));
    const launcher = { cwd: repo, env: a.env, bin: ["sh", join(root, "mindsave")] };
    const doctor = JSON.parse((await run(["doctor", "--json"], launcher)).stdout);
    expect(doctor).toMatchObject({
      home: root,
      store: join(root, "mindsave.db"),
      journal_mode: "delete",
      on_drive: true,
      integrity: "ok",
    });
    expect(doctor.home_reason).toContain("portable");
    expect((await run(["--version"], launcher)).stdout).toContain(`home ${root} (portable`);
    expect((await run(["save", "--goal", "saved on the drive"], launcher)).code).toBe(0);
    expect((await sql(join(root, "mindsave.db"), "SELECT goal FROM snapshots")).map((r) => r.goal)).toEqual([
      "saved on the drive",
    ]);

    // Laptop B runs the drive's binary directly and sees the same store.
    const b = laptop("laptop-b", base);
    const direct = join(root, "bin", hostTarget().name, hostTarget().exe);
    const listB = await run(["projects", "--json"], { cwd: base, env: b.env, bin: [direct] });
    expect(JSON.parse(listB.stdout).projects.map((p: any) => p.name)).toEqual(["repo"]);

    // install: the host's binary lands in ~/.mindsave/bin and runs from there with the local home.
    const inst = await run(["install", "--json"], { cwd: base, env: b.env, bin: [direct] });
    expect(inst.code).toBe(0);
    const local = join(b.home, ".mindsave", "bin", hostTarget().exe);
    expect(JSON.parse(inst.stdout).binary).toBe(local);
    const localVersion = await run(["--version"], { cwd: base, env: b.env, bin: [local] });
    expect(localVersion.stdout).toContain(`home ${join(b.home, ".mindsave")} (default local home)`);
    // With a store in ~/.mindsave beside ~/.mindsave/bin, the installed copy still sees the local
    // home (not a drive): WAL journal, and every write folded back into mindsave.db on close.
    expect(
      (
        await run(["save", "--goal", "saved by the installed copy", "--workspace", base], {
          cwd: base,
          env: b.env,
          bin: [local],
        })
      ).code,
    ).toBe(0);
    const localDoctor = JSON.parse(
      (await run(["doctor", "--json"], { cwd: base, env: b.env, bin: [local] })).stdout,
    );
    expect(localDoctor).toMatchObject({
      home: join(b.home, ".mindsave"),
      home_reason: "default local home",
      journal_mode: "wal",
      on_drive: false,
    });
    const copy = join(base, "backup");
    mkdirSync(copy);
    copyFileSync(join(b.home, ".mindsave", "mindsave.db"), join(copy, "mindsave.db"));
    const fromCopy = JSON.parse(
      (
        await run(["snapshots", "list", "--json", "--workspace", base, "--home", copy], {
          cwd: base,
          env: b.env,
          bin: [local],
        })
      ).stdout,
    );
    expect(fromCopy.snapshots.map((s: any) => s.goal)).toEqual(["saved by the installed copy"]);
    // Re-running init keeps the store.
    expect((await run(["drive", "init", usb, "--from", from], { cwd: base, env: a.env })).stdout).toContain(
      "kept as it was",
    );
    expect((await sql(join(root, "mindsave.db"), "SELECT count(*) AS n FROM snapshots"))[0].n).toBe(1);
  });

  test.skipIf(!canRunArm)("the linux-arm64 binary runs save → load under qemu-aarch64-static", async () => {
    const exe = emptyDirWith(TARGETS.find((t) => t.name === "linux-arm64")!);
    const dir = dirname(exe);
    const pc = laptop("arm", dirname(dir));
    const opts = { cwd: dir, env: pc.env, bin: [QEMU!, "-L", ARM_SYSROOT, exe] };
    const version = await run(["--version"], opts);
    expect(version.stdout).toContain("(linux-arm64)");
    expect((await run(["save", "--goal", "saved on arm64", "--workspace", dir], opts)).code).toBe(0);
    const load = await run(["load", "--workspace", dir], opts);
    expect(load.code).toBe(0);
    expect(load.stdout).toContain("goal: saved on arm64");
  });

  test("a writer killed in the middle of a transaction leaves the drive's store valid and unchanged", async () => {
    const base = tempDir("mindsave-kill-");
    const db = join(base, "mindsave.db");
    const script = join(base, "writer.ts");
    writeFileSync(
      script,
      `
      import { Store } from ${JSON.stringify(join(REPO, "src", "store", "store.ts"))};
      const s = await Store.open(${JSON.stringify(db)}, { journalMode: "DELETE" });
      await s.write("killer", async (w) => {
        for (let i = 0; i < 4000; i++) await w.setMeta("junk" + i, "x".repeat(2000));
        process.stdout.write("inside\\n");
        await new Promise(() => setInterval(() => {}, 2 ** 30)); // (a timer: no core spun while it waits)
      });
    `,
    );
    const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve) =>
      child.stdout!.on("data", (d) => String(d).includes("inside") && resolve()),
    );
    expect(existsSync(`${db}-journal`)).toBe(true); // a hot journal: the kill lands mid-transaction
    child.kill("SIGKILL");
    await new Promise((r) => child.on("exit", r));
    const pc = laptop("after-kill", base);
    const r = await run(["doctor", "--json", "--home", base], { cwd: base, env: pc.env });
    expect(JSON.parse(r.stdout).integrity).toBe("ok");
    expect((await sql(db, "SELECT count(*) AS n FROM meta WHERE key LIKE 'junk%'"))[0].n).toBe(0);
    // (A project of its own beside the store: the drive's folder, which holds the store, is no project.)
    const work = join(base, "work");
    mkdirSync(work);
    expect(
      (
        await run(["save", "--goal", "after the crash", "--workspace", work, "--home", base], {
          cwd: base,
          env: pc.env,
        })
      ).code,
    ).toBe(0);
  });
});

describe("the binary's command line", () => {
  test("commander is bundled without node:events and with node:util and node:child_process only on demand (build.ts commanderLight)", async () => {
    // Bun loads those modules as JavaScript at start: every command paid for them (docs/benchmarks.md).
    const out = tempDir("mindsave-commander-");
    const entry = join(out, "entry.ts");
    writeFileSync(
      entry,
      `import { Command } from ${JSON.stringify(join(REPO, "node_modules", "commander", "index.js"))};\nconsole.log(new Command("x").name());\n`,
    );
    const built = await Bun.build({
      entrypoints: [entry],
      outdir: join(out, "dist"),
      target: "bun",
      format: "esm",
      plugins: [commanderLight],
    });
    expect(built.success).toBe(true);
    const code = readFileSync(join(out, "dist", "entry.js"), "utf8");
    expect(code).not.toMatch(/from\s*["'](node:)?events["']/);
    expect(code).not.toMatch(/from\s*["'](node:)?(child_process|util)["']/);
    expect(code).toContain("stripVTControlCharacters");
    // The commander it makes still works: the small EventEmitter carries its option events.
    const r = spawnSync(process.execPath, [join(out, "dist", "entry.js")], { encoding: "utf8" });
    expect(r.stdout.trim()).toBe("x");
  });
});
