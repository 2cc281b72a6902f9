// Backups of a home's store, shared by everything that rewrites a store in place (encrypt and
// decrypt, scan --fix, doctor --repair, a schema upgrade): `mindsave.db.bak-<UTC time>` beside the
// store (with its key file when the store is encrypted). Each is recorded in
// `mindsave.db.backups.json` as it is made, and the newest KEEP_BACKUPS by that record are kept
// (see ledger.ts): never chosen by name, and nothing MindSave did not make is removed.
import { copyFileSync, existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { realStorePath, type Store } from "../../store/store.ts";
import { encryptionState, keyFilePath, storeKey, storeKeyFile, KEY_FILE_SUFFIX } from "./encryption.ts";
import { newestRecorded, recordAndRotate, taken } from "./ledger.ts";

export const KEEP_BACKUPS = 3;
const SIDE_FILES = ["-wal", "-shm", "-journal"];

/** The record of the backups made of `db`, beside it. */
export const backupLedger = (db: string) => `${db}.backups.json`;

// The files a backup is made of: a link (even a dangling one) under any of these names is never
// written through, so a name is taken when any of them exists.
const backupParts = (backup: string) => [backup, keyFilePath(backup), ...SIDE_FILES.map((s) => backup + s)];

/** `mindsave.db.bak-20250102T030405Z` (with -2, -3… when one already has that name). */
export function backupName(db: string, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  let name = `${db}.bak-${stamp}`;
  for (let i = 2; backupParts(name).some(taken); i++) name = `${db}.bak-${stamp}-${i}`;
  return name;
}

/** Every file named like a backup of `db`, MindSave's or not, by name (what may hold old data). */
export function listBackups(db: string): string[] {
  const prefix = `${basename(db)}.bak-`;
  const dir = dirname(db);
  return readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && !f.endsWith(".json") && !SIDE_FILES.some((s) => f.endsWith(s)))
    .sort()
    .map((f) => join(dir, f));
}

/** The newest backup MindSave made of `db` that is still there, or null. */
export const newestBackup = (db: string): string | null => newestRecorded(backupLedger(db));

/**
 * Records `backup`, just made, as the newest backup of `db`, and removes those MindSave made
 * before it beyond the newest KEEP_BACKUPS (with their key files); returns the removed ones.
 */
export function keepBackup(db: string, backup: string): string[] {
  return recordAndRotate(backupLedger(db), backup, {
    keep: KEEP_BACKUPS,
    companions: (b) => backupParts(b).slice(1),
  });
}

/**
 * Copies the open store `store` (at `db`) to a new backup: one consistent read of it, the WAL
 * included, encrypted with the store's own key when it is encrypted (its key file copied beside
 * the backup, so the same passphrase opens it). Then rotates (keepBackup).
 */
export async function backupStore(
  store: Store,
  db: string,
  opts: { at: Date; env: NodeJS.ProcessEnv },
): Promise<{ backup: string; pruned: string[] }> {
  const state = encryptionState(db);
  const key = state.encrypted ? await storeKey(db, state.file!, { env: opts.env }) : null;
  const backup = backupName(db, opts.at);
  try {
    if (state.encrypted) copyFileSync(state.keyFile, keyFilePath(backup));
    await store.copyTo(backup, key);
  } catch (e) {
    for (const f of backupParts(backup)) rmSync(f, { force: true });
    throw e;
  }
  for (const s of SIDE_FILES) rmSync(backup + s, { force: true });
  return { backup, pruned: keepBackup(db, backup) };
}

/**
 * Copies the store file `db` byte for byte to a new backup, for a store that cannot be read whole
 * through SQLite (a damaged one, before `doctor --repair`): with its key file, and with a journal
 * or write-ahead log that still holds changes (under the backup's name, so they open together).
 * Then rotates (keepBackup).
 */
export function backupFileAsIs(db: string, at: Date): { backup: string; pruned: string[] } {
  const backup = backupName(db, at);
  const parts = [
    ["", ""],
    [KEY_FILE_SUFFIX, KEY_FILE_SUFFIX],
    ["-wal", "-wal"],
    ["-journal", "-journal"],
  ];
  // (The log and journal are beside a symlink's target.)
  const real = realStorePath(db);
  const from = (suffix: string) =>
    suffix === KEY_FILE_SUFFIX
      ? storeKeyFile(db)
      : (suffix === "-wal" || suffix === "-journal" ? real : db) + suffix;
  try {
    for (const [f, to] of parts) {
      if (existsSync(from(f)) && (f === "" || statSync(from(f)).size > 0)) copyFileSync(from(f), backup + to);
    }
  } catch (e) {
    for (const [, to] of parts) rmSync(backup + to, { force: true });
    throw e;
  }
  return { backup, pruned: keepBackup(db, backup) };
}
