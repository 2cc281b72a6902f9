// `mindsave encrypt` / `mindsave decrypt`: converts a home's store in place, safely. The converted
// copy is written beside the store, reopened and checked (integrity, the same row count in every
// table), and only then swapped in with one rename; the old file stays as mindsave.db.bak-<time>
// (the newest 3 MindSave made are kept; see backups.ts). At no moment is mindsave.db half
// converted: every intermediate state opens as either the old store or the new one.
import { copyFileSync, existsSync, linkSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { UserError } from "../../errors.ts";
import { Store, realStorePath, sizeOf } from "../../store/store.ts";
import { resolveHome, prepareHome, journalModeFor, type Home } from "./home.ts";
import { encryptionState, keyFilePath, newKey, storeKey, writeKeyFile, CIPHER } from "./encryption.ts";
import { askNewPassphrase } from "./passphrase.ts";
import { backupName, keepBackup } from "./backups.ts";

const SIDE_FILES = ["-wal", "-shm", "-journal"];

export interface ConvertResult {
  store: string;
  encrypted: boolean;
  /** The store as it was before, or null when there was none (a new, empty store was created). */
  backup: string | null;
  /** Older backups MindSave made, removed to keep the newest KEEP_BACKUPS. */
  pruned: string[];
  key_file: string | null;
  kdf: { name: "scrypt"; N: number; r: number; p: number } | null;
  cipher: string | null;
  /** Rows per table, the same in the old and the new file. */
  rows: Record<string, number>;
}

export interface ConvertOptions {
  home?: string;
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
}

/** Encrypts the home's store with a new passphrase (a new, empty encrypted store when there is none). */
export async function encryptHome(opts: ConvertOptions = {}): Promise<ConvertResult> {
  const env = opts.env ?? process.env;
  const home = resolveHome({ flag: opts.home, env });
  prepareHome(home, { write: true });
  const state = encryptionState(home.dbPath);
  if (state.encrypted)
    throw new UserError(`The store ${home.dbPath} is already encrypted; nothing was changed.`);
  const pass = await askNewPassphrase({ env, store: home.dbPath });
  const { file, key } = await newKey(pass, now(opts), env);
  const base = {
    store: home.dbPath,
    encrypted: true,
    key_file: state.keyFile,
    kdf: { name: "scrypt" as const, ...file.params },
    cipher: CIPHER,
  };
  if (!existsSync(home.dbPath)) {
    // Nothing to convert: the key file first, then the store, so a store never exists without it.
    writeKeyFile(state.keyFile, file);
    const s = await Store.open(home.dbPath, { journalMode: journalModeFor(home), encryptionKey: key });
    const rows = await s.tableCounts();
    await s.closeAsync();
    return { ...base, backup: null, pruned: [], rows };
  }
  // On libSQL's driver: only it writes the encrypted copy.
  const source = await Store.open(home.dbPath, { journalMode: journalModeFor(home), libsql: true });
  const done = await convert(home, source, key, opts, {
    // The key file goes first: until the rename, it sits beside a plain store, which is read as plain.
    beforeSwap: () => writeKeyFile(state.keyFile, file),
    undoBeforeSwap: () => rmSync(state.keyFile, { force: true }),
  });
  return { ...base, ...done };
}

/** Decrypts the home's encrypted store (its passphrase is asked for); the key file goes with it. */
export async function decryptHome(opts: ConvertOptions = {}): Promise<ConvertResult> {
  const env = opts.env ?? process.env;
  const home = resolveHome({ flag: opts.home, env });
  prepareHome(home, { write: true });
  const state = encryptionState(home.dbPath);
  if (!state.encrypted)
    throw new UserError(`The store ${home.dbPath} is not encrypted; nothing was changed.`);
  const key = await storeKey(home.dbPath, state.file!, { env });
  if (!existsSync(home.dbPath)) {
    rmSync(state.keyFile, { force: true });
    return {
      store: home.dbPath,
      encrypted: false,
      backup: null,
      pruned: [],
      key_file: null,
      kdf: null,
      cipher: null,
      rows: {},
    };
  }
  const source = await Store.open(home.dbPath, { journalMode: journalModeFor(home), encryptionKey: key });
  const done = await convert(home, source, null, opts, {
    // The backup stays encrypted: its key file goes with it, or it could never be read again.
    afterBackup: (backup) => copyFileSync(state.keyFile, keyFilePath(backup)),
    // Until the key file is gone it sits beside a plain store, which is read as plain.
    afterSwap: () => rmSync(state.keyFile, { force: true }),
  });
  return { store: home.dbPath, encrypted: false, key_file: null, kdf: null, cipher: null, ...done };
}

interface Hooks {
  beforeSwap?: () => void;
  /** Undoes beforeSwap when the swap did not happen. */
  undoBeforeSwap?: () => void;
  afterBackup?: (backup: string) => void;
  afterSwap?: () => void;
}

const now = (opts: ConvertOptions) => (opts.now ? opts.now() : new Date());

/**
 * Copies `source` into a new file encrypted with `key` (plain when null), checks it, and swaps it
 * in. `source` is closed when this returns or throws.
 */
async function convert(
  home: Home,
  source: Store,
  key: string | null,
  opts: ConvertOptions,
  hooks: Hooks,
): Promise<{ backup: string; pruned: string[]; rows: Record<string, number> }> {
  const db = home.dbPath;
  // A symlinked store is converted where its target is: the link stays, and the swap is one
  // rename on the target's own filesystem.
  const real = realStorePath(db);
  const tmp = `${real}.converting-${process.pid}.tmp`;
  for (const beside of new Set([db, real])) removeLeftovers(beside);
  let open = true;
  let backup: string | null = null;
  let swapped = false;
  try {
    const rows = await copyUntouched(home, source, tmp, key);
    await source.closeAsync();
    open = false;
    if (sizeOf(real + "-wal") > 0) throw storeBusy(db, "its write-ahead log is not empty");
    if (sizeOf(real + "-journal") > 0) throw storeBusy(db, "it has a journal");
    backup = backupName(db, now(opts));
    hooks.beforeSwap?.();
    try {
      linkSync(real, backup); // the old file itself, under its backup name (no copy)
    } catch {
      copyFileSync(real, backup); // FAT drives have no hard links (nor links across filesystems)
    }
    hooks.afterBackup?.(backup);
    // The old file's (empty) log and shared memory: never to be paired with the new file.
    for (const s of SIDE_FILES) rmSync(real + s, { force: true });
    renameSync(tmp, real);
    swapped = true;
    hooks.afterSwap?.();
    return { backup, pruned: keepBackup(db, backup), rows };
  } catch (e) {
    if (open) source.close();
    if (!swapped) {
      // The store is as it was: take back what was laid beside it (the backup may be a hard link to it).
      if (backup) for (const f of [backup, keyFilePath(backup)]) rmSync(f, { force: true });
      hooks.undoBeforeSwap?.();
      removeStore(tmp);
    }
    throw e;
  }
}

/** The refusal when another program holds the store open. */
const storeBusy = (db: string, why: string) =>
  new UserError(
    `Another program is using the store ${db} (${why}); close it and try again (nothing was changed).`,
  );

/**
 * Copies `source` to `tmp` (encrypted with `key`, plain when null) and checks the copy; another
 * process may write meanwhile, and then the copy is stale and made again. The rows copied.
 */
async function copyUntouched(
  home: Home,
  source: Store,
  tmp: string,
  key: string | null,
): Promise<Record<string, number>> {
  for (let attempt = 1; ; attempt++) {
    const version = await source.dataVersion();
    const rows = await source.tableCounts();
    removeStore(tmp);
    await source.copyTo(tmp, key);
    await verifyCopy(tmp, key, rows, home);
    if ((await source.dataVersion()) === version && same(await source.tableCounts(), rows)) {
      // The old file must be whole on its own: it becomes the backup. A write that landed while
      // its log was folded back is not in the copy: then the copy is made again. (One that lands
      // after this is refused by its writer, which finds the file swapped: Store.transaction.)
      if (!(await source.checkpoint())) throw storeBusy(home.dbPath, "its write-ahead log is in use");
      if ((await source.dataVersion()) === version) return rows;
    }
    if (attempt === 3)
      throw new UserError(
        `The store ${home.dbPath} kept changing while it was being converted; stop the agents using it and try again (nothing was changed).`,
      );
  }
}

async function verifyCopy(
  tmp: string,
  key: string | null,
  rows: Record<string, number>,
  home: Home,
): Promise<void> {
  let copy: Store;
  try {
    copy = await Store.open(tmp, { journalMode: journalModeFor(home), encryptionKey: key ?? undefined });
  } catch (e) {
    throw new UserError(
      `The converted copy of ${home.dbPath} does not open (${(e as Error).message}); nothing was changed.`,
    );
  }
  try {
    const integrity = await copy.integrityCheck();
    if (integrity !== "ok")
      throw new UserError(
        `The converted copy of ${home.dbPath} fails its integrity check (${integrity}); nothing was changed.`,
      );
    const got = await copy.tableCounts();
    if (!same(got, rows))
      throw new UserError(
        `The converted copy of ${home.dbPath} does not hold the same rows as the store; nothing was changed.`,
      );
    if (copy.encrypted !== (key !== null)) throw new Error("converted copy has the wrong encryption");
    await copy.checkpoint();
  } finally {
    await copy.closeAsync();
  }
  for (const s of SIDE_FILES) rmSync(tmp + s, { force: true });
}

function same(a: Record<string, number>, b: Record<string, number>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

function removeStore(path: string): void {
  for (const s of ["", ...SIDE_FILES]) rmSync(path + s, { force: true });
}

/** Copies left by a conversion that was killed: never swapped in, so never needed. */
function removeLeftovers(db: string): void {
  const prefix = `${basename(db)}.converting-`;
  for (const f of readdirSync(dirname(db)))
    if (f.startsWith(prefix)) rmSync(join(dirname(db), f), { force: true });
}
