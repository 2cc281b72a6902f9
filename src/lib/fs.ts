// File-system primitives every layer shares. Writes go through a temporary file and a rename, so
// a reader (or a crash) never sees half a file; a small helper rather than write-file-atomic
// because we also need an atomic copy (binaries) and nothing of its ownership and queueing logic.
import {
  type Stats,
  chmodSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";

const tempName = (path: string) => `${path}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`;

export interface ModeOptions {
  /** The permissions to set. */
  mode?: number;
  /**
   * The mode is a wish, not a need: a file system that keeps no permissions refuses chmod (FAT32
   * through FUSE with ENOSYS, the kernel's vfat with EPERM), and then the file is kept as written.
   */
  modeBestEffort?: boolean;
}

function setMode(path: string, opts: ModeOptions): void {
  if (opts.mode === undefined) return;
  try {
    chmodSync(path, opts.mode);
  } catch (e) {
    if (!opts.modeBestEffort) throw e;
  }
}

/** Writes text (or bytes) atomically, creating the folders above it; `mode` sets permissions. */
export function writeFileAtomic(path: string, data: string | Uint8Array, opts: ModeOptions = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = tempName(path);
  try {
    writeFileSync(tmp, data, { flag: "wx" });
    setMode(tmp, opts);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Copies a file atomically: a half-copied file is never left under the final name. */
export function copyFileAtomic(src: string, dest: string, opts: ModeOptions = {}): void {
  mkdirSync(dirname(dest), { recursive: true });
  const tmp = tempName(dest);
  try {
    copyFileSync(src, tmp);
    setMode(tmp, opts);
    // Windows cannot rename over a file that exists.
    rmSync(dest, { force: true });
    renameSync(tmp, dest);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

export function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A folder's entries, sorted; none when it cannot be read. */
export function listDir(path: string): string[] {
  try {
    return readdirSync(path).sort();
  } catch {
    return [];
  }
}

/** True when `path` is a symbolic link (false when it does not exist). */
export function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Reads a regular file's text without following a symbolic link: a folder someone else wrote
 * (an import, a shared drive) must not make us read `/etc/passwd` through a link.
 */
export function readTextNoFollow(path: string): string {
  regularFileStat(path);
  return readFileSync(path, "utf8");
}

/** `path`'s own status when it is a regular file; a symbolic link (not followed) or anything else throws. */
export function regularFileStat(path: string): Stats {
  const st = lstatSync(path);
  if (st.isSymbolicLink()) throw new Error(`${basename(path)} is a symbolic link, not followed`);
  if (!st.isFile()) throw new Error(`${basename(path)} is not a regular file`);
  return st;
}

/** A folder's entries, sorted; none when the folder is a symbolic link or cannot be read. */
export function listDirNoFollow(path: string): string[] {
  return isSymlink(path) ? [] : listDir(path);
}

/**
 * True when `path` lies inside `root` (or is it) and nothing from `root` down to it is a symbolic
 * link, so a write there cannot land anywhere else. Parts that do not exist yet are fine.
 */
export function staysInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return false;
  let at = root;
  for (const part of rel.split(sep).filter(Boolean)) {
    at = join(at, part);
    if (isSymlink(at)) return false;
  }
  return true;
}

/** The folders above `path` that do not exist yet, nearest first: what writing `path` creates. */
export function missingParents(path: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(path); !isDir(dir) && dirname(dir) !== dir; dir = dirname(dir)) out.push(dir);
  return out;
}

/** Removes each folder that is empty, nearest first (an install's own folders on uninstall). */
export function removeEmptyDirs(dirs: string[]): void {
  for (const dir of dirs) {
    try {
      if (!readdirSync(dir).length) rmdirSync(dir);
    } catch {
      // gone already, or not ours to remove
    }
  }
}
