// `mindsave doctor --repair`: recovers what can still be read of a damaged store into a new file.
// The rows are copied table by table and row by row into `mindsave.db.repaired-<time>` (a fresh
// store of the current schema; its full-text index is rebuilt as the snapshots go in), which is
// then checked (integrity, search index, the rows it was given). Only then is it swapped in with
// one rename; the damaged file is kept, byte for byte, as `mindsave.db.bak-<time>`. Swapping (not
// leaving the new file beside the old one) means the agents' next command just works; the backup
// keeps every byte for anyone who wants to dig further.
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { UserError } from "../../errors.ts";
import { SCHEMA_VERSION, Store, StoreProblem, inspectStore, storeProblem, type SalvagedTable, type StoreInspection } from "../../store/store.ts";
import { prepareHome, resolveHome } from "./home.ts";
import { encryptionState, storeKey } from "./encryption.ts";
import { backupFileAsIs, backupName, listBackups } from "./backups.ts";
// The same options as encrypt and decrypt: which home, the environment, the time for names.
import type { ConvertOptions as RepairOptions } from "./convert.ts";

const SIDE_FILES = ["-wal", "-shm", "-journal"];

export interface RepairResult {
  store: string;
  /** False when the store was healthy and nothing was done. */
  repaired: boolean;
  /** The damaged file as it was (with its journal or WAL), or null when nothing was done. */
  backup: string | null;
  pruned: string[];
  /** Rows saved and lost, per table. */
  tables: Record<string, SalvagedTable>;
  saved: number;
  lost: number;
  /** Tables whose end could not be read: rows after the last one saved may be lost too. */
  end_lost: string[];
  /** Snapshots in the rebuilt full-text index. */
  indexed_snapshots: number;
  /** The damaged store as doctor saw it. */
  before: StoreInspection;
}

/** Repairs the home's store (see the top of this file); a healthy store is left alone. */
export async function repairHome(opts: RepairOptions = {}): Promise<RepairResult> {
  const env = opts.env ?? process.env;
  const at = opts.now ? opts.now() : new Date();
  const home = resolveHome({ flag: opts.home, env });
  prepareHome(home, { write: true });
  const db = home.dbPath;
  if (!existsSync(db)) throw new UserError(`There is no store at ${db} to repair; the first save creates one.`);
  const restore = () => {
    const b = listBackups(db);
    return b.length ? `restore the newest backup (${basename(b[b.length - 1])}) by renaming it to ${basename(db)}` : "move it away to start a new store";
  };
  let key: string | undefined;
  try {
    const state = encryptionState(db);
    if (state.encrypted) key = await storeKey(db, state.file!, { env });
  } catch (e) {
    if (!(e instanceof StoreProblem)) throw e;
    throw new UserError(`${db} is not a SQLite database (nor an encrypted store with its key file), so nothing can be recovered from it; ${restore()}.`);
  }
  const before = await inspectStore(db, { encryptionKey: key });
  if (before.error) {
    throw new UserError(`Nothing can be read from the store ${db} (${before.error}), so nothing can be recovered from it; ${restore()}.`);
  }
  if (before.ours === false) throw new UserError(`${db} is a SQLite database but not a MindSave store; refusing to touch it.`);
  if ((before.schema_version ?? 0) > SCHEMA_VERSION) {
    throw new UserError(`${db} was written by a newer MindSave (store schema ${before.schema_version}); update MindSave instead of repairing it.`);
  }
  const healthy = before.integrity.join() === "ok" && Object.values(before.tables).every((n) => n !== null) && before.ours === true;
  if (healthy) return { store: db, repaired: false, backup: null, pruned: [], tables: {}, saved: 0, lost: 0, end_lost: [], indexed_snapshots: 0, before };

  removeLeftovers(db);
  const fresh = `${db}.repaired-${backupName(db, at).slice(`${db}.bak-`.length)}`;
  let tables: Record<string, SalvagedTable>;
  let indexed: number;
  try {
    const copy = await Store.open(fresh, { journalMode: "DELETE", encryptionKey: key });
    try {
      tables = await copy.salvageFrom(db, key);
      indexed = await verify(copy, tables, db);
    } finally {
      await copy.closeAsync();
    }
  } catch (e) {
    removeStore(fresh);
    throw e;
  }
  let backup: string;
  let pruned: string[];
  try {
    ({ backup, pruned } = backupFileAsIs(db, at));
  } catch (e) {
    removeStore(fresh);
    throw storeProblem(db, e); // a full disk: one sentence, the store as it was
  }
  // The damaged file's journal or WAL went into the backup: never to be paired with the new file.
  for (const s of SIDE_FILES) rmSync(db + s, { force: true });
  renameSync(fresh, db);
  const sum = (k: "saved" | "lost") => Object.values(tables).reduce((n, t) => n + t[k], 0);
  const endLost = Object.keys(tables).filter((t) => tables[t].end_lost);
  return { store: db, repaired: true, backup, pruned, tables, saved: sum("saved"), lost: sum("lost"), end_lost: endLost, indexed_snapshots: indexed, before };
}

/** Checks the repaired copy; returns how many snapshots its search index holds. */
async function verify(copy: Store, tables: Record<string, SalvagedTable>, db: string): Promise<number> {
  const fail = (why: string) => new UserError(`The repaired copy of ${db} fails its own check (${why}); the store was left as it was.`);
  const integrity = await copy.integrityCheck();
  if (integrity !== "ok") throw fail(`integrity: ${integrity}`);
  const index = await copy.searchIndexCheck();
  if (index !== "ok") throw fail(`search index: ${index}`);
  const counts = await copy.tableCounts();
  for (const [t, r] of Object.entries(tables)) {
    if (t !== "meta" && counts[t] !== r.saved) throw fail(`${t} holds ${counts[t]} rows, not the ${r.saved} copied`);
  }
  return counts.snapshot_search ?? 0;
}

function removeStore(path: string): void {
  for (const s of ["", ...SIDE_FILES]) rmSync(path + s, { force: true });
}

/** Copies left by a repair that was killed: never swapped in, so never needed. */
function removeLeftovers(db: string): void {
  const prefix = `${basename(db)}.repaired-`;
  for (const f of readdirSync(dirname(db))) if (f.startsWith(prefix)) rmSync(join(dirname(db), f), { force: true });
}
