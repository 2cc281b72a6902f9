// Where the tokenizer's vocabulary (cl100k.ranks, 2 MB) is read from. Every load and hook counts
// tokens, and reading the file copies 2 MB into fresh memory: ~800 page faults, ~4 ms of CPU on
// this project's VM, as much as starting the runtime. Mapped from a file instead, a count touches
// only the pages it looks up, straight from the page cache (~0.4 ms). A compiled binary cannot
// map its own embedded copy (Bun.mmap opens files for writing: the running binary is ETXTBSY),
// so it keeps one copy in the host's cache folder, written once and named by Bun's content hash
// of the file. The copy is a cache only: when it is missing, partial or cannot be written
// (read-only home, no cache folder, Windows), the vocabulary is read from the binary as before.
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, isAbsolute, join } from "node:path";
import ranksPath from "./cl100k.ranks" with { type: "file" };

export interface RanksBytes {
  bytes: Uint8Array;
  /** "mapped": from `path` by mmap; "read": copied into memory from `path`. */
  how: "mapped" | "read";
  path: string;
}

/** Inside a compiled binary, files live in Bun's virtual folder and cannot be mapped. */
const embedded = (path: string) => path.startsWith("/$bunfs/") || /^[A-Z]:\\~BUN\\/i.test(path);

/** The host's folder for MindSave's caches (XDG on Linux, ~/Library/Caches on macOS), or null. */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string | null {
  if (process.platform === "win32") return null; // Bun.mmap is not there
  const home = env.HOME && isAbsolute(env.HOME) ? env.HOME : null;
  if (process.platform === "darwin") return home ? join(home, "Library", "Caches", "mindsave") : null;
  const xdg = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : home ? join(home, ".cache") : null;
  return xdg ? join(xdg, "mindsave") : null;
}

/** The file mapped when it holds `size` bytes (never a partial copy), else null. */
function mapWhole(path: string, size: number): Uint8Array | null {
  try {
    if (statSync(path).size !== size) return null;
    const bytes = Bun.mmap(path, { shared: false });
    return bytes.byteLength === size ? bytes : null;
  } catch {
    return null;
  }
}

/** Writes the cache copy whole or not at all (a rename: readers never see a partial file). */
function writeCopy(file: string, bytes: Uint8Array): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(join(file, ".."), { recursive: true, mode: 0o700 });
    writeFileSync(tmp, bytes, { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // (Bun says EFAULT, not ENOENT, under a parent that is a file.)
    }
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
        const mapped = avoid === file ? null : mapWhole(file, size);
        if (mapped) return { bytes: mapped, how: "mapped", path: file };
        const bytes = readFileSync(ranksPath);
        writeCopy(file, bytes);
        return { bytes, how: "read", path: ranksPath };
      }
    }
  }
  return { bytes: readFileSync(ranksPath), how: "read", path: ranksPath };
}
