// File-system primitives every layer shares. Writes go through a temporary file and a rename, so
// a reader (or a crash) never sees half a file; a small helper rather than write-file-atomic
// because we also need an atomic copy (binaries) and nothing of its ownership and queueing logic.
import { chmodSync, copyFileSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

const tempName = (path: string) => `${path}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`;

/** Writes text (or bytes) atomically, creating the folders above it; `mode` sets permissions. */
export function writeFileAtomic(path: string, data: string | Uint8Array, opts: { mode?: number } = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = tempName(path);
  try {
    writeFileSync(tmp, data, { flag: "wx" });
    if (opts.mode !== undefined) chmodSync(tmp, opts.mode);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Copies a file atomically: a half-copied file is never left under the final name. */
export function copyFileAtomic(src: string, dest: string, opts: { mode?: number } = {}): void {
  mkdirSync(dirname(dest), { recursive: true });
  const tmp = tempName(dest);
  try {
    copyFileSync(src, tmp);
    if (opts.mode !== undefined) chmodSync(tmp, opts.mode);
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
