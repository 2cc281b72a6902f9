// What every benchmark script needs before it measures: the compiled host binary, the compiled
// baselines, the cached data set, and a working copy of its store (commands that write change the
// copy, never the cache).
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { buildTarget, hostTarget, libsqlAddon } from "../build.ts";
import { GEN_VERSION, prepareData, type DataSet, type GenConfig } from "./gen.ts";
import { SCHEMA_VERSION } from "../src/store/migrations.ts";

export const ROOT = resolve(import.meta.dir, "..");

export function log(msg: string): void {
  process.stderr.write(`[bench ${(performance.now() / 1000).toFixed(1).padStart(6)} s] ${msg}\n`);
}

const sha = (s: string | Buffer) => createHash("sha256").update(s).digest("hex");

/** A baseline under bench/baselines/ compiled with `bun build --compile`, cached by its source and Bun's version. */
export function compileBaseline(name: string, binDir: string): string {
  const src = join(ROOT, "bench", "baselines", `${name}.ts`);
  const out = join(binDir, `${name}-${sha(readFileSync(src) + Bun.version).slice(0, 12)}`);
  if (existsSync(out)) return out;
  mkdirSync(binDir, { recursive: true });
  const r = Bun.spawnSync([process.execPath, "build", "--compile", "--minify", src, "--outfile", out], {
    stdout: "ignore",
    stderr: "pipe",
  });
  if (r.exitCode !== 0) throw new Error(`could not compile ${src}: ${r.stderr.toString()}`);
  return out;
}

/**
 * A baseline that loads libSQL's native module, compiled as MindSave is (the addon embedded by
 * build.ts's plugin), cached by its source, build.ts and Bun's version.
 */
export async function compileLibsqlBaseline(name: string, binDir: string): Promise<string> {
  const src = join(ROOT, "bench", "baselines", `${name}.ts`);
  const out = join(
    binDir,
    `${name}-${sha(readFileSync(src, "utf8") + readFileSync(join(ROOT, "build.ts"), "utf8") + Bun.version).slice(0, 12)}`,
  );
  if (existsSync(out)) return out;
  mkdirSync(binDir, { recursive: true });
  const target = hostTarget();
  const r = await Bun.build({
    entrypoints: [src],
    compile: { target: target.bun, outfile: out, autoloadDotenv: false, autoloadBunfig: false },
    bytecode: true,
    format: "esm",
    minify: true,
    plugins: [libsqlAddon(target)],
  });
  if (!r.success) throw new Error(`could not compile ${src}: ${r.logs.map(String).join("\n")}`);
  return out;
}

/** bench/ru.c compiled with the system's C compiler (cached), or null when there is none. */
export function compileRusageHelper(binDir: string): string | null {
  const src = join(ROOT, "bench", "ru.c");
  const out = join(binDir, `ru-${sha(readFileSync(src)).slice(0, 12)}`);
  if (existsSync(out)) return out;
  const cc = Bun.spawnSync(["sh", "-c", "command -v cc || command -v gcc || command -v clang"], {
    stdout: "pipe",
  })
    .stdout.toString()
    .trim()
    .split("\n")[0];
  if (!cc) return null;
  mkdirSync(binDir, { recursive: true });
  const r = Bun.spawnSync([cc, "-O2", "-o", out, src], { stdout: "ignore", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`could not compile ${src}: ${r.stderr.toString()}`);
  return out;
}

/** The host binary: `exe` when given, else built now from this checkout (about 2 s). */
export async function hostExe(exe: string | undefined, binDir: string): Promise<string> {
  if (exe) return resolve(exe);
  return buildTarget(hostTarget(), join(binDir, "dist"));
}

/**
 * The cache key: the generator's version, its config, and this checkout's schema version, so a
 * store is made again when the schema changes, not for every change of the engine nor of
 * migrations.ts's text (its indexes outside the schema version are made on a writable open). (The
 * binary was asked before, by `doctor --json`, which answers only where a store exists: it never
 * did, and the key followed migrations.ts's every edit.)
 */
export function dataKey(name: string, config: GenConfig): string {
  return `${name}-v${GEN_VERSION}-${sha(JSON.stringify(config) + `schema${SCHEMA_VERSION}`).slice(0, 10)}`;
}

/** The data set (generated and imported through `exe` when not cached). */
export function data(cacheRoot: string, name: string, config: GenConfig, exe: string): DataSet {
  const key = dataKey(name, config);
  return prepareData(
    cacheRoot,
    config,
    key,
    (args, o) => {
      const r = Bun.spawnSync([exe, ...args], {
        cwd: o.cwd,
        env: { PATH: process.env.PATH, ...o.env },
        stdout: "pipe",
        stderr: "pipe",
      });
      if (r.exitCode !== 0)
        throw new Error(
          `mindsave ${args.join(" ")} exited ${r.exitCode}: ${r.stderr.toString().slice(-2000)}`,
        );
    },
    log,
  );
}

export interface Work {
  dir: string;
  home: string;
  db: string;
  userHome: string;
  env: Record<string, string | undefined>;
}

/** A fresh working copy of the data set's store, and the environment every command runs in. */
export function workCopy(ds: DataSet, dir: string): Work {
  rmSync(dir, { recursive: true, force: true });
  const home = join(dir, "home");
  const userHome = join(dir, "userhome");
  mkdirSync(userHome, { recursive: true });
  cpSync(ds.home, home, { recursive: true });
  const env = {
    PATH: process.env.PATH,
    HOME: userHome,
    MINDSAVE_HOME: home,
    MINDSAVE_HOST: "bench-a",
    NO_COLOR: "1",
    LANG: "C.UTF-8",
    TMPDIR: process.env.TMPDIR,
  };
  return { dir, home, db: join(home, "mindsave.db"), userHome, env };
}

export function git(args: string[]): string {
  const r = Bun.spawnSync(["git", "-C", ROOT, ...args], { stdout: "pipe", stderr: "ignore" });
  return r.exitCode === 0 ? r.stdout.toString().trim() : "";
}

export function machine() {
  const cpu = cpus();
  let model = cpu[0]?.model ?? "unknown";
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    if (m) model = m[1].trim();
  } catch {
    // not Linux
  }
  return {
    cores: cpu.length,
    memory_gb: Math.round(totalmem() / 1024 ** 3),
    cpu: model,
    os: `${process.platform}-${process.arch}`,
  };
}
