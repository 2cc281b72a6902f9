// The libSQL driver, loaded lazily (commands that never touch a store skip its native addon), and
// the two ways a store file is opened: for reading and writing, or for reading only. A read-only
// connection is a SQLite URI with `mode=ro` (`immutable=1` too when nothing beside the file can be
// created): it never writes a byte of the file, so a store can be checked before it is trusted,
// and read on a write-protected drive.
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  openSync,
  readSync,
  realpathSync,
  rmSync,
  statSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { tmpdir } from "../lib/os.ts";
import { UserError } from "../errors.ts";
import type { Db } from "./db.ts";
import type { LocalEngine } from "./local.ts";

const SQLITE_MAGIC = "SQLite format 3\0";

/** What a store file looks like from its first bytes, before any driver touches it. */
export type StoreFileKind = "missing" | "empty" | "plain" | "other";

/** Loads a module of the driver; when the compiled binary cannot unpack its addon, says so. */
async function load<T>(importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    if (/shared object|dlopen|ERR_DLOPEN|\.node/i.test(msg + String((e as { code?: string })?.code))) {
      throw new UserError(
        `MindSave cannot unpack its database engine into the temp directory ${tmpdir()} (missing, not writable, or mounted noexec); set TMPDIR to a writable directory programs may run from.`,
      );
    }
    throw e;
  }
}

export function loadDriver(): Promise<typeof import("@libsql/client")> {
  return load(() => import("@libsql/client"));
}

export interface OpenDbOptions {
  encryptionKey?: string;
  /** Milliseconds to wait for another connection's lock. */
  timeoutMs: number;
  /** Reading only (SQLite's `mode=ro`): the file is never written. */
  readOnly?: boolean;
  /** With readOnly: no locks and no shared-memory file (SQLite's `immutable=1`), for a folder nothing can be created in. */
  immutable?: boolean;
  /** libSQL's driver even for a plain file: only it can write an encrypted copy (`VACUUM INTO` with a key). */
  libsql?: boolean;
}

/**
 * The store file at `path` as a Db (local.ts): a plain one on Bun's own SQLite, an encrypted one
 * on libSQL's driver; a file that cannot be opened throws a DbError. A file this process already
 * has open through the other SQLite library is refused (see claimFile).
 */
export async function openDb(path: string, o: OpenDbOptions): Promise<Db> {
  // (Bun's own pathToFileURL: node:url would load more modules on every command.)
  const url = Bun.pathToFileURL(path).href;
  const engine: LocalEngine = o.encryptionKey || o.libsql ? "libsql" : "bun";
  const [driver, { localDb }] = await Promise.all([
    engine === "libsql"
      ? load(() => import("libsql")).then((m) => ({ libsql: m.default }))
      : import("bun:sqlite").then((m) => ({ bun: m.Database })),
    import("./local.ts"),
  ]);
  // A read-only open is a URI with SQLite's own parameters; a writable one the file's path.
  const at = o.readOnly
    ? `${url}?mode=ro${o.immutable ? "&immutable=1" : ""}`
    : decodeURIComponent(new URL(url).pathname);
  const before = fileIdentity(path);
  if (before) refuseOtherLibrary(path, before, engine);
  let release = () => {};
  const db = localDb(driver, at, {
    encryptionKey: o.encryptionKey,
    timeoutMs: o.timeoutMs,
    onClose: () => release(),
  });
  // (A file the open created has an identity only now.)
  const id = before ?? fileIdentity(path);
  if (id) release = claimFile(id, engine);
  return db;
}

/**
 * The SQLite library each file is open through in this process (by device and inode), and how
 * many connections. Two libraries on one file in one process would release each other's POSIX
 * locks (a lock is the process's, and any close of the file drops them all): another process
 * could then write under a connection that believes it holds the file, and the store is damaged.
 */
const openFiles = new Map<string, { engine: LocalEngine; connections: number }>();

/** Refuses (an internal error: a bug of ours) to open through `engine` a file open through the other library. */
function refuseOtherLibrary(path: string, id: string, engine: LocalEngine): void {
  const held = openFiles.get(id);
  if (held && held.engine !== engine) {
    const name = (e: LocalEngine) => (e === "bun" ? "Bun's SQLite" : "libSQL's driver");
    throw new Error(
      `${path} is open through ${name(held.engine)} in this process, so it cannot be opened through ${name(engine)} too (two SQLite libraries on one file release each other's locks); close it first.`,
    );
  }
}

/** Counts a connection to the file `id` through `engine`; the returned function lets go of it. */
function claimFile(id: string, engine: LocalEngine): () => void {
  const held = openFiles.get(id) ?? { engine, connections: 0 };
  held.connections++;
  openFiles.set(id, held);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--held.connections === 0 && openFiles.get(id) === held) openFiles.delete(id);
  };
}

/**
 * Whether `path` (a file, or a folder) may be written by this process. A file or folder without
 * any write permission bit counts as read-only even for root, who could write it anyway: someone
 * write-protected it on purpose.
 */
export function writable(path: string): boolean {
  try {
    if ((statSync(path).mode & 0o222) === 0) return false;
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Bytes in `path`, 0 when it does not exist. */
export function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** The first `n` bytes of a file (fewer when it is shorter). */
export function headerBytes(path: string, n = 100): Buffer {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(n);
    return buf.subarray(0, readSync(fd, buf, 0, n, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * Which file `path` names now (device and inode, through a symlink): another one once the store
 * was swapped for a new file (encrypt, decrypt, repair). Null where it cannot be told.
 */
export function fileIdentity(path: string): string | null {
  try {
    const s = statSync(path, { bigint: true });
    return s.ino ? `${s.dev}:${s.ino}` : null;
  } catch {
    return null;
  }
}

/**
 * The store file itself, `path` with every symlink resolved (a missing file: in its folder's real
 * path): SQLite keeps the journal, log and shared memory beside it, so they are looked for there.
 */
export function realStorePath(path: string): string {
  // (SQLite on Windows does not follow links: its journal and log stay beside the path opened.)
  if (process.platform === "win32") return path;
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

/** How a read-only connection to the store at `path` must be made, given what can be written beside it. */
export function readOnlyMode(link: string): { immutable: boolean; walStuck: boolean } {
  const path = realStorePath(link);
  const dirOk = writable(dirname(path));
  // Header bytes 18–19 are 2 for a WAL database: reading it needs a shared-memory file beside it.
  const head = existsSync(path) ? headerBytes(path, 20) : Buffer.alloc(0);
  const plain = head.subarray(0, 16).toString("latin1") === SQLITE_MAGIC;
  // (An encrypted header cannot be read: it may be WAL.)
  const wal = head.length >= 20 && (!plain || head[18] === 2);
  const walContent = sizeOf(path + "-wal") > 0;
  return {
    // Nothing is created or touched beside a write-protected file or in a write-protected folder
    // (SQLite would make its WAL files with the file's own permissions).
    immutable: wal && !walContent && !(dirOk && writable(path)),
    // Changes still in the WAL, no shared memory to read them with, and none can be made here.
    walStuck: wal && walContent && !dirOk && !existsSync(path + "-shm"),
  };
}

/** Whether `path` is missing, empty, a plain SQLite file, or something else (an encrypted store, or junk). */
export function storeFileKind(path: string): StoreFileKind {
  if (!existsSync(path)) return "missing";
  const st = statSync(path);
  if (st.isDirectory()) throw new UserError(`${path} is a directory, not a MindSave store file.`);
  if (st.size === 0) return "empty";
  return headerBytes(path, 16).toString("latin1") === SQLITE_MAGIC ? "plain" : "other";
}

export interface SideFiles {
  ino: number;
  wal: boolean;
  shm: boolean;
}

/** The store file's identity and which of its WAL files exist. */
export function sideFiles(link: string): SideFiles {
  const path = realStorePath(link);
  return {
    ino: statSync(path, { throwIfNoEntry: false })?.ino ?? -1,
    wal: existsSync(path + "-wal"),
    shm: existsSync(path + "-shm"),
  };
}

/**
 * Removes the empty -wal and -shm files a read-only look at a damaged WAL store made (a read-only
 * connection cannot remove them when it closes). Only those it made, beside the same file: every
 * other process fails the same check on the damaged pages, so none of them writes through them.
 */
export function forgetSideFiles(link: string, before: SideFiles): void {
  const path = realStorePath(link);
  if (before.wal || before.shm || sideFiles(path).ino !== before.ino || sizeOf(path + "-wal") > 0) return;
  for (const s of ["-wal", "-shm"]) rmSync(path + s, { force: true });
}
