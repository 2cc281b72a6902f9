// `mindsave doctor --repair`: recovers what can still be read of a damaged store into a new file.
// The rows are copied table by table and row by row into `mindsave.db.repaired-<time>` (a fresh
// store of the current schema; its full-text index is rebuilt as the snapshots go in), which is
// then checked (integrity, search index, the rows it was given). Only then is it swapped in with
// one rename; the damaged file is kept, byte for byte, as `mindsave.db.bak-<time>`. Swapping (not
// leaving the new file beside the old one) means the agents' next command just works; the backup
// keeps every byte for anyone who wants to dig further. A project whose own row was lost but whose
// snapshots, roots or failures were saved is made again, so no list hides them (see recreate).
// Snapshots retention archived stay archived (see settleListed).
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { UserError } from "../../errors.ts";
import {
  SCHEMA_VERSION,
  Store,
  StoreProblem,
  inspectStore,
  realStorePath,
  storeProblem,
  type ListedCarried,
  type LostProject,
  type SalvagedTable,
  type StoreInspection,
} from "../../store/store.ts";
import { prepareHome, resolveHome } from "./home.ts";
import { currentHost } from "./host.ts";
import { derivedId } from "../ids.ts";
import { applyRetentionEverywhere } from "../snapshots/retention.ts";
import { DEFAULT_KEEP } from "../snapshots/layers.ts";
import { resolveWorkspace } from "../projects/workspace.ts";
import { projectSwitch } from "../projects/off-switch.ts";
import { encryptionState, storeKey, storeKeyFile } from "./encryption.ts";
import { backupFileAsIs, backupName, listBackups, newestBackup } from "./backups.ts";
import type { ConvertOptions } from "./convert.ts";

const SIDE_FILES = ["-wal", "-shm", "-journal"];

/** The check of every page in progress: of the store as it is, then of its repaired copy (the part on now: see CheckProgress). */
export type RepairProgress = (of: "store" | "copy", done: number, total: number, part?: string) => void;

/** The same options as encrypt and decrypt (which home, the environment, the time for names), and progress. */
export interface RepairOptions extends ConvertOptions {
  progress?: RepairProgress;
}

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
  /** Entries of the change log, rebuilt from the rows copied (the damaged one's is not copied). */
  change_log: number;
  /** Which snapshots the default views show, and how that was decided. */
  listed: RepairListed | null;
  /** Projects made again: their rows were lost, rows naming them were saved. */
  recreated: RecreatedProject[];
  /** The damaged store as doctor saw it. */
  before: StoreInspection;
}

export interface RepairListed {
  /**
   * "carried": listed and archived as in the damaged store; "none archived": it predates archiving;
   * "retention": its list could not be read whole, so retention archived again (nothing deleted).
   */
  how: "carried" | "none archived" | "retention";
  /** What was read of the damaged store's list. */
  read: SalvagedTable;
  listed: number;
  archived: number;
}

export interface RecreatedProject {
  id: string;
  name: string;
  /** Its folder on this host, when that folder was found and is this project's checkout again. */
  root: string | null;
  /** Its last known folder (on any host), when the project could not be matched to a folder here. */
  last_seen_at: string | null;
  /**
   * Switched off (`mindsave off`): its folder stays off where it is tied to it (a snapshot saved
   * there on this host, or its history: off-switch.ts); elsewhere, only a person can say which it is.
   */
  off: boolean;
}

/** Repairs the home's store (see the top of this file); a healthy store is left alone. */
export async function repairHome(opts: RepairOptions = {}): Promise<RepairResult> {
  const env = opts.env ?? process.env;
  const at = opts.now ? opts.now() : new Date();
  const home = resolveHome({ flag: opts.home, env });
  prepareHome(home, { write: true });
  const db = home.dbPath;
  if (!existsSync(db))
    throw new UserError(`There is no store at ${db} to repair; the first save creates one.`);
  const key = await repairKey(db, env);
  const before = await inspectDamaged(db, key, opts.progress);
  if (isHealthy(before)) return { store: db, ...NOTHING_REPAIRED, before };

  // A symlinked store is repaired where its target is: the link stays (see convert.ts).
  const real = realStorePath(db);
  for (const beside of new Set([db, real])) removeLeftovers(beside);
  const fresh = `${real}.repaired-${backupName(db, at).slice(`${db}.bak-`.length)}`;
  const { tables, counts, listed, recreated } = await salvageInto(fresh, db, key, env, at, opts.progress);
  let backup: string;
  let pruned: string[];
  try {
    ({ backup, pruned } = backupFileAsIs(db, at));
  } catch (e) {
    removeStore(fresh);
    throw storeProblem(db, e); // a full disk: one sentence, the store as it was
  }
  // The damaged file's journal or WAL went into the backup: never to be paired with the new file.
  for (const s of SIDE_FILES) rmSync(real + s, { force: true });
  renameSync(fresh, real);
  const sum = (k: "saved" | "lost") => Object.values(tables).reduce((n, t) => n + t[k], 0);
  const endLost = Object.keys(tables).filter((t) => tables[t].end_lost);
  return {
    store: db,
    repaired: true,
    backup,
    pruned,
    tables,
    saved: sum("saved"),
    lost: sum("lost"),
    end_lost: endLost,
    indexed_snapshots: counts.snapshot_search ?? 0,
    change_log: counts.changes ?? 0,
    listed,
    recreated,
    before,
  };
}

/**
 * What to do with a store that cannot be recovered: the newest backup MindSave made, by its
 * record (a file merely named later is not offered; backups from before the record are pointed at,
 * not chosen), else moving it away.
 */
function restoreAdvice(db: string): string {
  const b = newestBackup(db);
  if (b) return `restore the newest backup (${basename(b)}) by renaming it to ${basename(db)}`;
  return listBackups(db).length
    ? `restore one of its backups (${basename(db)}.bak-*) by renaming it to ${basename(db)}`
    : "move it away to start a new store";
}

/** The key of an encrypted store (asked for as any command does), undefined for a plain one. */
async function repairKey(db: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  try {
    const state = encryptionState(db);
    return state.encrypted ? await storeKey(db, state.file!, { env }) : undefined;
  } catch (e) {
    if (!(e instanceof StoreProblem)) throw e;
    // A store encrypted here whose key file went missing looks the same: a backup may be the plain
    // store from before the encryption, so putting the key back comes first.
    const keyName = basename(storeKeyFile(db));
    throw new UserError(
      `${db} is neither a SQLite database nor an encrypted store with its key file, so nothing can be recovered from it; if it was encrypted, put its key file ${keyName} back beside it (a backup lacks everything saved after it was made), else ${restoreAdvice(db)}.`,
    );
  }
}

/** The damaged store as doctor sees it; refused when nothing can be read, it is not ours, or it is newer. */
async function inspectDamaged(
  db: string,
  key: string | undefined,
  progress?: RepairProgress,
): Promise<StoreInspection> {
  const before = await inspectStore(db, {
    encryptionKey: key,
    progress: progress && ((done, total, part) => progress("store", done, total, part)),
  });
  if (before.error) {
    throw new UserError(
      `Nothing can be read from the store ${db} (${before.error}), so nothing can be recovered from it; ${restoreAdvice(db)}.`,
    );
  }
  if (before.ours === false)
    throw new UserError(`${db} is a SQLite database but not a MindSave store; refusing to touch it.`);
  if ((before.schema_version ?? 0) > SCHEMA_VERSION) {
    throw new UserError(
      `${db} was written by a newer MindSave (store schema ${before.schema_version}); update MindSave instead of repairing it.`,
    );
  }
  return before;
}

/** Whole, every table readable, and a MindSave store: nothing to repair. */
const isHealthy = (before: StoreInspection) =>
  before.integrity.join() === "ok" &&
  Object.values(before.tables).every((n) => n !== null) &&
  before.ours === true;

/** The result for a healthy store, left alone. */
const NOTHING_REPAIRED: Omit<RepairResult, "store" | "before"> = {
  repaired: false,
  backup: null,
  pruned: [],
  tables: {},
  saved: 0,
  lost: 0,
  end_lost: [],
  indexed_snapshots: 0,
  change_log: 0,
  listed: null,
  recreated: [],
};

/**
 * Copies what can be read of `db` into the new store `fresh`, makes lost projects again, settles
 * which snapshots are listed, and checks the copy; on any failure `fresh` is removed.
 */
async function salvageInto(
  fresh: string,
  db: string,
  key: string | undefined,
  env: NodeJS.ProcessEnv,
  at: Date,
  progress?: RepairProgress,
): Promise<{
  tables: Record<string, SalvagedTable>;
  counts: Record<string, number>;
  listed: RepairListed;
  recreated: RecreatedProject[];
}> {
  try {
    const copy = await Store.open(fresh, { journalMode: "DELETE", encryptionKey: key });
    try {
      const { tables, listed: read } = await copy.salvageFrom(db, key);
      const hostId = currentHost(env).id;
      const recreated = await recreate(copy, hostId, env, at);
      const listed = await settleListed(copy, read, hostId, at);
      const counts = await verify(copy, tables, db, recreated.length, progress);
      return { tables, counts, listed, recreated };
    } finally {
      await copy.closeAsync();
    }
  } catch (e) {
    removeStore(fresh);
    throw e;
  }
}

/**
 * Makes again each project that saved rows name but whose own row was lost: every list goes
 * through projects, so its snapshots would be there but shown nowhere. Its identity is found
 * from a folder it was saved in that still exists here: the first project of an identity has the
 * id derived from it, and a folder recorded as its root on this host is its checkout (a root is
 * only recorded for a project of that folder's history). Its name is that folder's; else
 * "recovered-…", and an identity no folder has, so it stays apart until it is linked.
 */
async function recreate(
  copy: Store,
  hostId: string,
  env: NodeJS.ProcessEnv,
  at: Date,
): Promise<RecreatedProject[]> {
  const lost = await copy.lostProjects();
  if (!lost.length) return [];
  const taken = new Set((await copy.listProjects()).map((p) => p.name));
  const rows: Parameters<Store["recreateProjects"]>[1] = [];
  const out: RecreatedProject[] = [];
  for (const p of lost) {
    const found = folderOf(p, hostId, env);
    const last = p.roots[0]?.path ?? p.saved_at[0]?.path ?? null;
    const base =
      found?.name ||
      (last && basename(last)) ||
      `recovered-${p.id.replace(/^p_/, "").replaceAll("-", "").slice(-8)}`;
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}~${n}`; // as a new project's name would be
    taken.add(name);
    rows.push({
      id: p.id,
      identity: found?.identity ?? `recovered:${p.id}`,
      name,
      remote: found?.remote ?? null,
      created_at: at.toISOString(),
    });
    const off = (await projectSwitch(copy, p.id)) !== null;
    out.push({ id: p.id, name, root: found?.root ?? null, last_seen_at: found ? null : last, off });
  }
  await copy.recreateProjects(hostId, rows);
  return out;
}

/** The folder here that is this project's checkout, with its identity; null when none is. */
function folderOf(
  p: LostProject,
  hostId: string,
  env: NodeJS.ProcessEnv,
): { root: string; name: string; identity: string; remote: string | null } | null {
  const mine = new Set(p.roots.filter((r) => r.host_id === hostId).map((r) => r.path));
  const paths = [...new Set([...mine, ...p.roots.map((r) => r.path), ...p.saved_at.map((s) => s.path)])]
    .filter((d) => existsSync(d))
    .slice(0, 8);
  let rooted: { root: string; name: string; identity: string; remote: string | null } | null = null;
  for (const path of paths) {
    let ws;
    try {
      ws = resolveWorkspace(path, { override: path, create: false, env, home: null });
    } catch {
      continue; // not a folder any more
    }
    if (!ws) continue;
    const derived = ws.identities.find((i) => derivedId("p", i) === p.id);
    if (derived) return { root: ws.root, name: ws.name, identity: derived, remote: ws.remote };
    if (!rooted && mine.has(path))
      rooted = { root: ws.root, name: ws.name, identity: ws.identity, remote: ws.remote };
  }
  return rooted;
}

/**
 * Snapshots the damaged store listed stay listed and those it archived stay archived (the salvage
 * carried its list over); when that list could not be read whole, the retention pass decides
 * again, as after a sync, so the views are short again and nothing is deleted. Either way what
 * `load` restores is listed, as retention always leaves it.
 */
async function settleListed(
  copy: Store,
  carried: ListedCarried,
  hostId: string,
  at: Date,
): Promise<RepairListed> {
  const retention = carried.how === "unreadable";
  await copy.write(
    hostId,
    async (w) => {
      if (retention) return void (await applyRetentionEverywhere(w, DEFAULT_KEEP, at));
      for (const p of await w.listProjects()) await w.unarchiveSnapshots(await w.restoredIds(p.id));
    },
    () => at.getTime(),
  );
  return {
    how: carried.how === "unreadable" ? "retention" : carried.how,
    read: carried.read,
    ...(await copy.listedCounts()),
  };
}

/** Checks the repaired copy; returns the rows of each of its tables. */
async function verify(
  copy: Store,
  tables: Record<string, SalvagedTable>,
  db: string,
  recreated: number,
  progress?: RepairProgress,
): Promise<Record<string, number>> {
  const fail = (why: string) =>
    new UserError(`The repaired copy of ${db} fails its own check (${why}); the store was left as it was.`);
  const integrity = await copy.fullCheck(
    progress && ((done, total, part) => progress("copy", done, total, part)),
  );
  if (integrity !== "ok") throw fail(`integrity: ${integrity}`);
  const counts = await copy.tableCounts();
  for (const [t, r] of Object.entries(tables)) {
    const expected = r.saved + (t === "projects" ? recreated : 0);
    if (t !== "meta" && counts[t] !== expected)
      throw fail(`${t} holds ${counts[t]} rows, not the ${expected} copied and made again`);
  }
  return counts;
}

function removeStore(path: string): void {
  for (const s of ["", ...SIDE_FILES]) rmSync(path + s, { force: true });
}

/** Copies left by a repair that was killed: never swapped in, so never needed. */
function removeLeftovers(db: string): void {
  const prefix = `${basename(db)}.repaired-`;
  for (const f of readdirSync(dirname(db)))
    if (f.startsWith(prefix)) rmSync(join(dirname(db), f), { force: true });
}
