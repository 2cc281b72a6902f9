// Where the store lives. Order: --home, MINDSAVE_HOME, a mindsave.db beside the running
// executable (portable mode: the binary on a USB drive finds its data), ~/.mindsave/.
import { existsSync, mkdirSync, statSync, statfsSync, accessSync, constants } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { homedir } from "../../lib/os.ts";
import { UserError } from "../../errors.ts";
import { realStorePath } from "../../store/driver.ts";
import { StoreProblem } from "../../store/problems.ts";

export const STORE_FILE = "mindsave.db";

export type HomeReason = "flag" | "env" | "portable" | "default";

export interface Home {
  dir: string;
  dbPath: string;
  reason: HomeReason;
  /** A sentence for people: which home and why. */
  why: string;
}

/** True when running as a `bun build --compile` executable (its modules live in Bun's virtual fs). */
export function isCompiled(): boolean {
  return Bun.isStandaloneExecutable;
}

export function localHomeDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.HOME || env.USERPROFILE || homedir(), ".mindsave");
}

/** The local home, made private (0700) when it is not there yet: whatever first writes into it. */
export function ensureLocalHome(env: NodeJS.ProcessEnv = process.env): string {
  const dir = localHomeDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/**
 * The drive layout puts binaries in `<home>/bin/<target>/`; the spec's portable rule looks beside
 * the executable or one folder above. We look up to two folders above so the per-target layout
 * finds the drive's store too.
 */
export function portableHomeFor(execPath: string): string | null {
  let dir = dirname(execPath);
  for (let i = 0; i < 3; i++) {
    if (existsSync(join(dir, STORE_FILE))) return dir;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

export function resolveHome(opts: { flag?: string; env?: NodeJS.ProcessEnv; execPath?: string } = {}): Home {
  const env = opts.env ?? process.env;
  if (opts.flag) return explicitHome(resolve(opts.flag), "flag", `--home ${opts.flag}`);
  if (env.MINDSAVE_HOME) return explicitHome(resolve(env.MINDSAVE_HOME), "env", "MINDSAVE_HOME");
  if (isCompiled() || opts.execPath) {
    const dir = portableHomeFor(opts.execPath ?? process.execPath);
    // The copy `mindsave install` puts in ~/.mindsave/bin finds ~/.mindsave: that is the local home, not a drive.
    if (dir && resolve(dir) !== resolve(localHomeDir(env))) {
      return {
        dir,
        dbPath: join(dir, STORE_FILE),
        reason: "portable",
        why: `portable mode: the ${STORE_FILE} that travels with this executable`,
      };
    }
  }
  const dir = localHomeDir(env);
  return { dir, dbPath: join(dir, STORE_FILE), reason: "default", why: "default local home" };
}

function explicitHome(dir: string, reason: HomeReason, source: string): Home {
  return { dir, dbPath: join(dir, STORE_FILE), reason, why: `set by ${source}` };
}

/**
 * A folder named with --home or MINDSAVE_HOME that holds no store is not made one by a command
 * that only reads (`--home ~`, meant as "my home", left an empty store there). A drive's folder
 * is: `drive init` prepared it, and the read says to sync.
 */
export function refuseStorelessFolder(home: Home, write: boolean): void {
  refuseFolderAboveStore(home);
  if (write) return;
  // Nor an empty file (a copy cut short?) into a store: only a save starts one there. (A stat, not
  // the header read storeFileKind makes: every hook's read passes here, and the store's open reads it.)
  const st = statSync(home.dbPath, { throwIfNoEntry: false });
  if (st?.isFile() && st.size === 0) {
    throw new StoreProblem(
      "damaged",
      home.dbPath,
      `The store ${home.dbPath} is an empty file (0 bytes): a copy cut short, or a store never written. Reading leaves it as it is; put the store back from a copy, or a save starts a new one in it.`,
    );
  }
  if (home.reason !== "flag" && home.reason !== "env") return;
  if (!existsSync(home.dir) || existsSync(home.dbPath) || existsSync(join(home.dir, DRIVE_MARKER))) return;
  throw new UserError(
    `There is no MindSave store in ${home.dir} (${home.why}: the folder that holds ${STORE_FILE}); nothing was created. \`mindsave save\` there starts one.`,
  );
}

/**
 * A folder named with --home or MINDSAVE_HOME that holds no store but a `.mindsave` home with one
 * (`--home ~`, meant as "my home") is not made a second, empty store, by a save or a sync either:
 * the command is refused with the folder it most likely meant.
 */
function refuseFolderAboveStore(home: Home): void {
  if (home.reason !== "flag" && home.reason !== "env") return;
  if (existsSync(home.dbPath) || existsSync(join(home.dir, DRIVE_MARKER))) return;
  const inside = join(home.dir, ".mindsave");
  if (!existsSync(join(inside, STORE_FILE))) return;
  throw new UserError(
    `There is no MindSave store in ${home.dir} (${home.why}: the folder that holds ${STORE_FILE}), but ${inside} holds one: name that folder (--home ${inside}); nothing was created.`,
  );
}

/** Checks the home before the store is opened, so a bad home gets a sentence instead of a driver error. */
export function prepareHome(home: Home, opts: { write: boolean }): void {
  if (!existsSync(home.dir)) {
    if (home.reason === "default" && opts.write) {
      try {
        // Owner only, as ~/.ssh: the store and its backups hold what the agents worked on.
        mkdirSync(home.dir, { recursive: true, mode: 0o700 });
        return;
      } catch {
        throw new UserError(
          `Cannot create the MindSave home ${home.dir}; check that its parent directory is writable.`,
        );
      }
    }
    if (home.reason === "default") return;
    throw new UserError(
      `The MindSave home ${home.dir} does not exist (${home.why}); create it first or pick another with --home.`,
    );
  }
  if (!statSync(home.dir).isDirectory()) {
    throw new UserError(`The MindSave home ${home.dir} is not a directory (${home.why}).`);
  }
  if (opts.write || !existsSync(home.dbPath)) {
    try {
      accessSync(home.dir, constants.W_OK);
    } catch {
      if (opts.write) throw new UserError(`The MindSave home ${home.dir} is read-only; nothing was written.`);
    }
  }
}

/** Filesystems where WAL's shared-memory file is unsafe or unsupported: FAT, exFAT, FUSE, network. */
const ROLLBACK_FS = new Set([0x4d44, 0x2011bab0, 0x65735546, 0x6969, 0x517b, 0xff534d42, 0xfe534d42]);

export const DRIVE_MARKER = "drive.json";

/**
 * A drive can be pulled out at any moment and is often FAT32/exFAT: there the store uses a
 * rollback journal (DELETE), which needs no shared memory and recovers from a hot journal on the
 * next open. A laptop's own home uses WAL, which lets readers and a writer work side by side.
 */
export function journalModeFor(home: Home): "WAL" | "DELETE" {
  // A symlinked store is judged where it really is too (a drive's folder, a FAT stick).
  const dirs = [...new Set([home.dir, dirname(realStorePath(home.dbPath))])];
  if (home.reason === "portable" || dirs.some((d) => existsSync(join(d, DRIVE_MARKER)))) return "DELETE";
  if (process.platform === "linux") {
    for (const d of dirs) {
      try {
        if (ROLLBACK_FS.has(Number(statfsSync(d).type))) return "DELETE";
      } catch {
        // unknown filesystem: keep WAL
      }
    }
  }
  return "WAL";
}
