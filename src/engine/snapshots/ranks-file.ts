// Where the tokenizer's vocabulary (cl100k.ranks, 2 MB) is read from. Every load and hook counts
// tokens, and reading the file copies 2 MB into fresh memory, one page fault a page. Mapped from
// a file instead, a count touches only the pages it looks up, straight from the page cache. A
// compiled binary cannot map its own embedded copy (Bun.mmap opens files for writing: the running
// binary is ETXTBSY), so it keeps one copy in the host's cache folder, written once and named by
// Bun's content hash of the file. The copy is a cache only: when it is missing, partial or cannot be written
// (read-only home, no cache folder, Windows), the vocabulary is read from the binary as before.
// It is trusted only in a folder no other user can write, as a regular file of this user's
// holding exactly the vocabulary's bytes (its CRC, checked once and remembered beside it with the
// copy's ctime, which any write changes).
import {
  type Stats,
  closeSync,
  existsSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statfsSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join } from "node:path";
import ranksPath from "./cl100k.ranks" with { type: "file" };

/** Bun.hash.crc32 of cl100k.ranks (test/tokens.test.ts checks it): a mapped file must hold exactly these bytes. */
export const RANKS_CRC32 = 0xebd72ad8;

export interface RanksBytes {
  bytes: Uint8Array;
  /** "mapped": from `path` by mmap; "read": copied into memory from `path`. */
  how: "mapped" | "read";
  path: string;
  /** When read: what became of the cache copy (written now for later runs, or why there is none). */
  cache?: string;
}

/** Inside a compiled binary, files live in Bun's virtual folder and cannot be mapped. */
const embedded = (path: string) => path.startsWith("/$bunfs/") || /^[A-Z]:\\~BUN\\/i.test(path);

/** The host's folder for MindSave's caches (XDG on Linux, ~/Library/Caches on macOS), or null. */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string | null {
  if (process.platform === "win32") return null; // Bun.mmap is not there
  const home = env.HOME && isAbsolute(env.HOME) ? env.HOME : null;
  if (process.platform === "darwin") return home ? join(home, "Library", "Caches", "mindsave") : null;
  const xdg =
    env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : home
        ? join(home, ".cache")
        : null;
  return xdg ? join(xdg, "mindsave") : null;
}

/** A copy's identity and last change: any write to it since (even one that keeps its time) changes its ctime. */
const stampOf = (s: Stats) => `${s.dev}:${s.ino}:${s.size}:${s.ctimeMs}`;

/** Beside a copy whose every byte was checked: what it was then (so the next runs skip the ~1 M instructions of its CRC). */
const stampPath = (copy: string) => `${copy}.checked`;

function readStamp(copy: string): string | null {
  try {
    return readFileSync(stampPath(copy), "utf8");
  } catch {
    return null;
  }
}

function writeStamp(copy: string, s: Stats): void {
  const tmp = `${stampPath(copy)}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, stampOf(s), { flag: "wx", mode: 0o600 });
    renameSync(tmp, stampPath(copy));
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // (see writeCopy)
    }
  }
}

/**
 * The file mapped when it is a regular file of this user's holding exactly the vocabulary (never a
 * partial or damaged copy, nor a link), else null. `stamped`: a cache copy, whose check is
 * remembered beside it until it changes.
 */
function mapWhole(path: string, size: number, stamped = false): Uint8Array | null {
  try {
    const s = lstatSync(path);
    if (!s.isFile() || s.uid !== process.getuid!() || s.size !== size) return null;
    const bytes = Bun.mmap(path, { shared: false });
    if (bytes.byteLength !== size) return null;
    if (stamped && readStamp(path) === stampOf(s)) return bytes;
    if (Bun.hash.crc32(bytes) !== RANKS_CRC32) return null;
    if (stamped) writeStamp(path, s);
    return bytes;
  } catch {
    return null;
  }
}

/** A folder of this user's that no one else can write into (so no one else can plant a file or a link in it). */
function ownFolder(path: string): boolean {
  try {
    const s = lstatSync(path);
    return s.isDirectory() && s.uid === process.getuid!() && (s.mode & 0o022) === 0;
  } catch {
    return false; // (ENOTDIR too, under a file)
  }
}

/** Makes the cache folder (0700) unless the nearest folder above it is another user's (root with a user's HOME, as sudo may leave it, would leave them folders they cannot use). */
function makeFolder(folder: string): boolean {
  let up = dirname(folder);
  while (!existsSync(up) && dirname(up) !== up) up = dirname(up);
  if (statSync(up).uid !== process.getuid!()) return false;
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  return ownFolder(folder);
}

/** Writes the cache copy whole or not at all (a rename: readers never see a partial file); says what became of it. */
function writeCopy(folder: string, file: string, bytes: Uint8Array): string {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    if (lstatSync(folder, { throwIfNoEntry: false })) {
      if (!ownFolder(folder))
        return `not cached: ${folder} is not a folder of this user's that only it can write`;
    } else if (!makeFolder(folder)) return `not cached: the folder above ${folder} is another user's`;
    // Never the last free megabytes of a disk, which the store may need.
    const free = statfsSync(folder);
    if (free.bavail * free.bsize < 32 * bytes.byteLength)
      return `not cached: less than ${Math.round((32 * bytes.byteLength) / 2 ** 20)} MB free on the disk of ${folder}`;
    // Half-written copies a killed run left (a live writer finishes in well under a minute).
    for (const f of readdirSync(folder)) {
      if (
        /\.ranks(\.checked)?\.\d+\.tmp$/.test(f) &&
        Date.now() - (lstatSync(join(folder, f), { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) >
          10 * 60_000
      )
        rmSync(join(folder, f), { force: true });
    }
    // "wx": never through a link or into a file someone else made; synced so a crash cannot leave a renamed copy of zeros.
    const fd = openSync(tmp, "wx", 0o600);
    try {
      writeFileSync(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    writeStamp(file, lstatSync(file)); // (its bytes are the binary's own)
    return `copied to ${file} for later runs to map`;
  } catch (e) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // (Bun says EFAULT, not ENOENT, under a parent that is a file.)
    }
    return `not cached: cannot write in ${folder} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
}

/** The vocabulary's bytes, mapped where it can be. `avoid`: a copy found unusable, read instead (and rewritten). */
export function ranksBytes(avoid?: string): RanksBytes {
  if (process.platform !== "win32") {
    if (!embedded(ranksPath)) {
      const bytes = avoid === ranksPath ? null : mapWhole(ranksPath, statSync(ranksPath).size);
      if (bytes) return { bytes, how: "mapped", path: ranksPath };
    } else {
      const folder = cacheFolder();
      if (folder) {
        const file = join(folder, basename(ranksPath));
        const size = statSync(ranksPath).size;
        const mapped = avoid === file || !ownFolder(folder) ? null : mapWhole(file, size, true);
        if (mapped) return { bytes: mapped, how: "mapped", path: file };
        const bytes = readFileSync(ranksPath);
        return { bytes, how: "read", path: ranksPath, cache: writeCopy(folder, file, bytes) };
      }
      return {
        bytes: readFileSync(ranksPath),
        how: "read",
        path: ranksPath,
        cache: "not cached: no cache folder (HOME is not set)",
      };
    }
  }
  return {
    bytes: readFileSync(ranksPath),
    how: "read",
    path: ranksPath,
    cache:
      process.platform === "win32"
        ? "not cached: files cannot be mapped on Windows"
        : "not cached: it cannot be mapped where it is",
  };
}
