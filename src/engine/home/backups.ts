// Backups of a home's store, shared by everything that rewrites a store in place (encrypt and
// decrypt, scan --fix): `mindsave.db.bak-<UTC time>` beside the store (with its key file when the
// store is encrypted), the newest KEEP_BACKUPS kept.
import { copyFileSync, existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { realStorePath, type Store } from "../../store/store.ts";
import { encryptionState, keyFilePath, storeKey, storeKeyFile, KEY_FILE_SUFFIX } from "./encryption.ts";

export const KEEP_BACKUPS = 3;
const SIDE_FILES = ["-wal", "-shm", "-journal"];

/** `mindsave.db.bak-20250102T030405Z` (with -2, -3… when one already has that name). */
export function backupName(db: string, at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  let name = `${db}.bak-${stamp}`;
  for (let i = 2; existsSync(name); i++) name = `${db}.bak-${stamp}-${i}`;
  return name;
}

/** The backups of `db`, oldest first. */
export function listBackups(db: string): string[] {
  const prefix = `${basename(db)}.bak-`;
  const dir = dirname(db);
  return readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && !f.endsWith(".json") && !SIDE_FILES.some((s) => f.endsWith(s)))
    .sort()
    .map((f) => join(dir, f));
}

/** Removes all but the newest KEEP_BACKUPS backups (with their key files); returns the removed ones. */
export function pruneBackups(db: string): string[] {
  const all = listBackups(db);
  const old = all.slice(0, Math.max(0, all.length - KEEP_BACKUPS));
  for (const b of old) {
    for (const f of [b, keyFilePath(b), ...SIDE_FILES.map((s) => b + s)]) rmSync(f, { force: true });
  }
  return old;
}

/**
 * Copies the open store `store` (at `db`) to a new backup: one consistent read of it, the WAL
 * included, encrypted with the store's own key when it is encrypted (its key file copied beside
 * the backup, so the same passphrase opens it). Then prunes to the newest KEEP_BACKUPS.
 */
export async function backupStore(store: Store, db: string, opts: { at: Date; env: NodeJS.ProcessEnv }): Promise<{ backup: string; pruned: string[] }> {
  const state = encryptionState(db);
  const key = state.encrypted ? await storeKey(db, state.file!, { env: opts.env }) : null;
  const backup = backupName(db, opts.at);
  try {
    if (state.encrypted) copyFileSync(state.keyFile, keyFilePath(backup));
    await store.copyTo(backup, key);
  } catch (e) {
    for (const f of [backup, keyFilePath(backup), ...SIDE_FILES.map((s) => backup + s)]) rmSync(f, { force: true });
    throw e;
  }
  for (const s of SIDE_FILES) rmSync(backup + s, { force: true });
  return { backup, pruned: pruneBackups(db) };
}

/**
 * Copies the store file `db` byte for byte to a new backup, for a store that cannot be read whole
 * through SQLite (a damaged one, before `doctor --repair`): with its key file, and with a journal
 * or write-ahead log that still holds changes (under the backup's name, so they open together).
 * Then prunes to the newest KEEP_BACKUPS.
 */
export function backupFileAsIs(db: string, at: Date): { backup: string; pruned: string[] } {
  const backup = backupName(db, at);
  const parts = [["", ""], [KEY_FILE_SUFFIX, KEY_FILE_SUFFIX], ["-wal", "-wal"], ["-journal", "-journal"]];
  // (The log and journal are beside a symlink's target.)
  const real = realStorePath(db);
  const from = (suffix: string) => (suffix === KEY_FILE_SUFFIX ? storeKeyFile(db) : (suffix === "-wal" || suffix === "-journal" ? real : db) + suffix);
  try {
    for (const [f, to] of parts) {
      if (existsSync(from(f)) && (f === "" || statSync(from(f)).size > 0)) copyFileSync(from(f), backup + to);
    }
  } catch (e) {
    for (const [, to] of parts) rmSync(backup + to, { force: true });
    throw e;
  }
  return { backup, pruned: pruneBackups(db) };
}
