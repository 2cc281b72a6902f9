// The USB drive: `drive init` lays out binaries for every OS, launchers, an empty store and a note
// for whoever finds the drive; `install` copies this host's binary to ~/.mindsave/bin so agent
// hooks keep working when the drive is unplugged.
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { UserError } from "../../errors.ts";
import { DRIVE_MARKER, ensureLocalHome, isCompiled, STORE_FILE } from "./home.ts";
import { Store } from "../../store/store.ts";
import { encryptionState, newKey, writeKeyFile, type EncryptionState } from "./encryption.ts";
import { askNewPassphrase } from "./passphrase.ts";
import { VERSION } from "../../version.ts";
import { copyFileAtomic, missingParents, removeEmptyDirs, writeFileAtomic } from "../../lib/fs.ts";
import { shellWord } from "../../lib/text.ts";

export const DRIVE_TARGETS = [
  { name: "linux-x64", exe: "mindsave" },
  { name: "linux-arm64", exe: "mindsave" },
  { name: "darwin-x64", exe: "mindsave" },
  { name: "darwin-arm64", exe: "mindsave" },
  { name: "windows-x64", exe: "mindsave.exe" },
] as const;

export function currentTarget(): string {
  return (
    process.env.MINDSAVE_BUILD_TARGET ||
    `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`
  );
}

const exeName = (target: string) => (target.startsWith("windows") ? "mindsave.exe" : "mindsave");

/** This checkout, when running from source (a compiled binary has none). */
const CHECKOUT = resolve(import.meta.dir, "..", "..", "..");

const INSTALL = "mindsave install";

/**
 * How to get the binaries from where the user stands, then run `rerun` again: from source, build
 * in this checkout; an installed or a drive's binary has no checkout, so it needs one (or another drive) and --from.
 */
export function buildAdvice(rerun: string): string {
  // An install needs this host's binary alone; a drive carries every OS's.
  const build =
    rerun === INSTALL
      ? "`bun run build --target host` (this host's binary)"
      : "`bun run build` (it builds every OS)";
  if (!isCompiled()) return `run ${build} in ${shellWord(CHECKOUT)}, then \`${rerun}\` again`;
  return `build them in a MindSave checkout with \`bun run build\`, then run \`${rerun} --from CHECKOUT/dist\` (or --from another MindSave drive's mindsave/bin)`;
}

/**
 * Where the built binaries are: `--from DIR`, else the folder of per-target folders that holds the
 * running binary (dist/<target>/ or a drive's bin/<target>/), else this checkout's dist/. `rerun`:
 * the command (without --from) the advice in the error names.
 */
export function findBinaries(from?: string, rerun = INSTALL): string {
  const candidates = from ? [resolve(from)] : [];
  if (!from && isCompiled()) candidates.push(dirname(dirname(process.execPath)));
  if (!from) candidates.push(join(CHECKOUT, "dist"));
  for (const dir of candidates) {
    if (DRIVE_TARGETS.some((t) => existsSync(join(dir, t.name, t.exe)))) return dir;
  }
  if (from)
    throw new UserError(
      `${resolve(from)} holds no MindSave binaries (expected folders like linux-x64/mindsave); ${buildAdvice(rerun)}.`,
    );
  throw new UserError(
    isCompiled()
      ? `${process.execPath} has no binaries for other systems beside it; ${buildAdvice(rerun)}.`
      : `No built MindSave binaries in ${join(CHECKOUT, "dist")}; ${buildAdvice(rerun)}.`,
  );
}

const POSIX_LAUNCHER = `#!/bin/sh
# MindSave launcher: runs this machine's binary from the drive, with the drive's store.
dir=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) echo "MindSave: no binary for $(uname -s) on this drive; on Windows run mindsave.cmd" >&2; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64|amd64) arch=x64 ;;
  aarch64|arm64) arch=arm64 ;;
  *) echo "MindSave: no binary for the $(uname -m) processor on this drive" >&2; exit 1 ;;
esac
bin="$dir/bin/$os-$arch/mindsave"
if [ ! -f "$bin" ]; then
  echo "MindSave: $bin is missing from this drive" >&2
  exit 1
fi
if [ ! -x "$bin" ]; then
  # Drives formatted FAT32/exFAT may not keep the run bit, or be mounted no-exec: run a copy in a
  # temp folder of this user's own, named by the binary's size and time, so it is made once per
  # binary (not per command) and a changed binary replaces it.
  own="\${TMPDIR:-/tmp}/mindsave-$(id -u)"
  mkdir -p -m 700 "$own" 2>/dev/null
  if [ -L "$own" ] || [ ! -d "$own" ] || [ ! -O "$own" ]; then
    echo "MindSave: $own is not a folder of yours; remove it or set TMPDIR to another one" >&2
    exit 1
  fi
  key=$(stat -c %s-%Y "$bin" 2>/dev/null || stat -f %z-%m "$bin" 2>/dev/null || cksum < "$bin" | tr ' ' -)
  tmp="$own/$os-$arch-$key"
  if [ ! -x "$tmp" ]; then
    # Copied under a name of this process's own, then renamed: a launch beside it never runs half a
    # copy, and an interrupted one leaves none.
    trap 'rm -f "$tmp.$$"; exit 130' HUP INT TERM
    if ! { cp "$bin" "$tmp.$$" && chmod 700 "$tmp.$$" && mv -f "$tmp.$$" "$tmp"; }; then
      rm -f "$tmp.$$"
      echo "MindSave: cannot copy $bin to $own to run it" >&2
      exit 1
    fi
    trap - HUP INT TERM
    for old in "$own/$os-$arch-"*; do
      case "$old" in "$tmp" | *.[0-9]*) ;; *) rm -f "$old" ;; esac
    done
  fi
  MINDSAVE_HOME="$dir" exec "$tmp" "$@"
fi
exec "$bin" "$@"
`;

const WINDOWS_LAUNCHER = `@echo off\r
rem MindSave launcher: runs the Windows binary from the drive, with the drive's store.\r
"%~dp0bin\\windows-x64\\mindsave.exe" %*\r
`;

const README = `MindSave — a portable "save game" for AI coding agents
=====================================================

This drive holds MindSave and its data (mindsave.db): saved working states of
coding agents (goal, next step, decisions, rejected approaches) for a person's
projects.

To use it on this computer, open a terminal in a project folder and run:
  macOS / Linux:  <drive>/mindsave/mindsave
  Windows:        <drive>\\mindsave\\mindsave.cmd
Then, for example:  mindsave load      (restore the last saved state)
                    mindsave projects  (what is on this drive)

Nothing is installed on the computer unless you run "mindsave install", which
copies MindSave to ~/.mindsave/bin so it keeps working when the drive is out.

If you found this drive, please return it to its owner.
`;

export interface DriveInitResult {
  dir: string;
  /** Where the binaries were copied from. */
  source: string;
  binaries: string[];
  missing: string[];
  store: string;
  created_store: boolean;
  encrypted: boolean;
  /** The launchers on the drive: `mindsave` (macOS, Linux), `mindsave.cmd` (Windows). */
  launchers: string[];
}

/** The files and folders a `drive init` made that were not there before, so a failed init can remove them. */
class DriveWrites {
  private files: string[] = [];
  private dirs = new Set<string>();

  /** Called before `path` is written: remembered when it is new, with the folders writing it creates. */
  note(path: string): void {
    if (existsSync(path)) return;
    this.files.push(path);
    for (const d of missingParents(path)) this.dirs.add(d);
  }

  undo(): void {
    for (const f of this.files) rmSync(f, { force: true });
    // Deepest first; a folder something else was put into meanwhile stays.
    removeEmptyDirs([...this.dirs].sort((a, b) => b.length - a.length));
  }
}

/**
 * Copies the binaries and writes the launchers, README and marker into the drive's folder. The
 * run bit is best-effort: FAT32 keeps none, and the POSIX launcher runs a temp copy then.
 */
function layOutDrive(
  dir: string,
  source: string,
  made: DriveWrites,
): { binaries: string[]; missing: string[] } {
  const binaries: string[] = [];
  const missing: string[] = [];
  const write = (path: string, text: string, mode?: number) => {
    made.note(path);
    writeFileAtomic(path, text, { mode, modeBestEffort: true });
  };
  for (const t of DRIVE_TARGETS) {
    const src = join(source, t.name, t.exe);
    if (!existsSync(src)) {
      missing.push(t.name);
      continue;
    }
    const dest = join(dir, "bin", t.name, t.exe);
    made.note(dest);
    if (resolve(src) !== resolve(dest)) copyFileAtomic(src, dest, { mode: 0o755, modeBestEffort: true });
    binaries.push(dest);
  }
  if (!binaries.length) throw new UserError(`No binaries were copied from ${source}.`);
  // A launcher for each family of systems the drive has a binary for (copied now or before).
  const on = (t: (typeof DRIVE_TARGETS)[number]) => existsSync(join(dir, "bin", t.name, t.exe));
  if (DRIVE_TARGETS.some((t) => t.name !== "windows-x64" && on(t)))
    write(join(dir, "mindsave"), POSIX_LAUNCHER, 0o755);
  if (DRIVE_TARGETS.some((t) => t.name === "windows-x64" && on(t)))
    write(join(dir, "mindsave.cmd"), WINDOWS_LAUNCHER);
  write(join(dir, "README.txt"), README);
  if (!existsSync(join(dir, DRIVE_MARKER))) {
    write(
      join(dir, DRIVE_MARKER),
      JSON.stringify({ created_at: new Date().toISOString(), created_by: `mindsave ${VERSION}` }, null, 2) +
        "\n",
    );
  }
  return { binaries, missing };
}

/** The refusal of a drive whose file system did not keep `what` whole (`problem`: how it came back). */
const lossyDrive = (what: string, problem: string) =>
  new UserError(
    `The drive did not keep ${what} whole when it was read back (${problem}): its file system loses what is written to it, so MindSave keeps nothing on it; check the drive or format it again.`,
  );

/**
 * Writes a test file as a store's pages are written (blocks rewritten in the middle while the file
 * grows past a few dozen clusters: what a broken FAT driver loses, while a new store's first
 * write, one commit, may come through), reads it back and takes it away. Throws on a difference.
 */
function probeWrites(dir: string, made: DriveWrites): void {
  const probe = join(dir, ".mindsave-probe.tmp");
  made.note(probe);
  const block = (n: number) => Buffer.alloc(4096, n + 1);
  const order = [...Array(22).keys(), 1, 22, 1, 23];
  const fd = openSync(probe, "w+");
  try {
    for (const n of order) writeSync(fd, block(n), 0, 4096, n * 4096);
    fsyncSync(fd);
  } catch (e) {
    // A write refused midway (not for want of room) is the file system failing the same way.
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOSPC") throw e;
    throw lossyDrive("a test file", `a write of it failed: ${code ?? (e as Error).message}`);
  } finally {
    closeSync(fd);
  }
  const back = readFileSync(probe);
  const blocks = Math.max(...order) + 1;
  const whole =
    back.length === blocks * 4096 &&
    [...Array(blocks).keys()].every((n) => back.subarray(n * 4096, (n + 1) * 4096).equals(block(n)));
  rmSync(probe, { force: true });
  if (!whole) throw lossyDrive("a test file", `${back.length} of ${blocks * 4096} bytes, not all as written`);
}

/**
 * Opens the new store again and checks it: a file system that loses what is written to it (a
 * broken driver, a stick smaller than it claims) is found now, not at the first save.
 */
async function readBack(store: string, encryptionKey?: string): Promise<void> {
  let problem: string;
  try {
    const s = await Store.open(store, { journalMode: "DELETE", encryptionKey });
    try {
      problem = await s.integrityCheck();
    } finally {
      s.close();
    }
  } catch (e) {
    problem = (e as Error).message.split("\n")[0];
  }
  if (problem !== "ok") throw lossyDrive("the new store", problem.split("; ")[0]);
}

/** `drive init` for this mount point, as a person pastes it. */
export const driveInitCommand = (mount: string, encrypt?: boolean) =>
  `mindsave drive init ${shellWord(resolve(mount))}${encrypt ? " --encrypt" : ""}`;

export async function initDrive(
  path: string,
  opts: { from?: string; encrypt?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<DriveInitResult> {
  const mount = mountPoint(path);
  const source = findBinaries(opts.from, driveInitCommand(mount, opts.encrypt));
  const dir = join(mount, "mindsave");
  const storePath = join(dir, STORE_FILE);
  const store: DriveStore = {
    path: storePath,
    state: encryptionState(storePath),
    created: !existsSync(storePath),
  };
  const key = await driveKey(store, opts);
  const laid = await writeDrive(dir, source, store, key);
  const launchers = ["mindsave", "mindsave.cmd"].filter((f) => existsSync(join(dir, f)));
  return {
    dir,
    source,
    binaries: laid.binaries,
    missing: laid.missing,
    store: store.path,
    created_store: store.created,
    encrypted: !!key || store.state.encrypted,
    launchers,
  };
}

/** The drive's mount point, resolved: an existing directory. */
function mountPoint(path: string): string {
  const mount = resolve(path);
  if (!existsSync(mount))
    throw new UserError(`${mount} does not exist; give the drive's mount point, e.g. /media/usb.`);
  if (!statSync(mount).isDirectory())
    throw new UserError(`${mount} is not a directory; give the drive's mount point, e.g. /media/usb.`);
  return mount;
}

/** The drive's store: where it is, whether it is encrypted, and whether this init creates it. */
interface DriveStore {
  path: string;
  state: EncryptionState;
  created: boolean;
}

type DriveKey = Awaited<ReturnType<typeof newKey>>;

/**
 * The key of a new encrypted store (null when none is to be made). Asked before anything is
 * written, so a missing passphrase leaves the drive as it was.
 */
async function driveKey(
  store: DriveStore,
  opts: { encrypt?: boolean; env?: NodeJS.ProcessEnv },
): Promise<DriveKey | null> {
  if (opts.encrypt && !store.created && !store.state.encrypted) {
    throw new UserError(
      `The drive already holds an unencrypted store (${store.path}); encrypt it with \`mindsave encrypt --home ${shellWord(dirname(store.path))}\`.`,
    );
  }
  if (!opts.encrypt || !store.created) return null;
  const env = opts.env ?? process.env;
  return newKey(await askNewPassphrase({ env, store: store.path }), new Date(), env);
}

/** Lays out the drive and makes (or opens) its store; a failure takes away what it made. */
async function writeDrive(
  dir: string,
  source: string,
  store: DriveStore,
  key: DriveKey | null,
): Promise<{ binaries: string[]; missing: string[] }> {
  const made = new DriveWrites();
  try {
    const laid = layOutDrive(dir, source, made);
    if (key) {
      made.note(store.state.keyFile);
      writeKeyFile(store.state.keyFile, key.file); // before the store: an encrypted store never exists without it
    }
    // An existing encrypted store is left as it is (opening it would need its passphrase).
    if (key || !store.state.encrypted) {
      // A new store's journal goes with it; an existing store's is never touched (it may roll a write back).
      if (store.created) {
        probeWrites(dir, made);
        for (const suffix of ["", "-journal", "-wal", "-shm"]) made.note(store.path + suffix);
      }
      const s = await Store.open(store.path, { journalMode: "DELETE", encryptionKey: key?.key });
      s.close();
      if (store.created) await readBack(store.path, key?.key);
    }
    return laid;
  } catch (e) {
    // A failed init takes away what it made; what was on the drive before stays.
    made.undo();
    if (e instanceof UserError) throw e;
    throw new UserError(`Cannot write to the drive at ${dir}: ${(e as Error).message}`);
  }
}

export interface InstallResult {
  binary: string;
  target: string;
  on_path: boolean;
}

/** Copies the running (compiled) binary to ~/.mindsave/bin/. */
export function installLocal(
  env: NodeJS.ProcessEnv = process.env,
  opts: { from?: string } = {},
): InstallResult {
  const target = currentTarget();
  let src: string;
  if (opts.from) {
    src = join(findBinaries(opts.from), target, exeName(target));
    if (!existsSync(src))
      throw new UserError(`${src} does not exist; build it with \`bun run build --target host\`.`);
  } else if (isCompiled()) {
    src = process.execPath;
  } else {
    src = join(findBinaries(), target, exeName(target));
    if (!existsSync(src))
      throw new UserError(
        "`mindsave install` copies a compiled binary; run `bun run build --target host` first.",
      );
  }
  const binDir = join(ensureLocalHome(env), "bin");
  const dest = join(binDir, exeName(target));
  try {
    if (resolve(src) !== resolve(dest)) copyFileAtomic(src, dest, { mode: 0o755 });
  } catch (e) {
    throw new UserError(`Cannot install into ${binDir}: ${(e as Error).message}`);
  }
  const sep = process.platform === "win32" ? ";" : ":";
  const onPath = (env.PATH ?? "").split(sep).some((p) => p && resolve(p) === resolve(binDir));
  return { binary: dest, target, on_path: onPath };
}
