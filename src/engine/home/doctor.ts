// The health report behind `mindsave doctor`: home and why, store, schema, integrity, host, free
// space, hosts whose clocks ran far ahead of this one, and peers' rows refused (both recorded by sync). A store that cannot
// be used (damaged, cut short, not a database, of another program or a newer schema) is reported,
// not thrown: the report then says what is wrong from a read-only look at the file, and what to do.
import { existsSync, statSync, statfsSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "../../lib/os.ts";
import { utcMinute } from "../../lib/text.ts";
import { DRIVE_MARKER, isCompiled, resolveHome, type Home } from "./home.ts";
import { currentTarget } from "./drive.ts";
import { currentHost } from "./host.ts";
import { encryptionReport, encryptionState, storeKey } from "./encryption.ts";
import { listBackups } from "./backups.ts";
import {
  SCHEMA_VERSION,
  StoreProblem,
  inspectStore,
  type CheckProgress,
  parseHlc,
  storeFileKind,
  type StoreInspection,
  type StoreProblemKind,
} from "../../store/store.ts";
import { VERSION } from "../../version.ts";
import { Session, type SessionOptions } from "../session.ts";
import { loadVocabulary } from "../snapshots/bpe.ts";
import { offHere, offSentence } from "../projects/off.ts";

// The faces name the store's tables as the checks do: in the product's words.
export { byTableWords, isIndexPart, tableWords } from "../../store/table-words.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ClockAheadReport {
  host_id: string;
  host_name: string;
  ahead_days: number;
  /** Until then (the clock its rows carry), its edits win over newer edits made elsewhere. */
  wins_until: string;
  hlc: string;
  seen_at: string;
  message: string;
}

/** Hosts seen by sync with clocks more than 24 h ahead, while their rows still carry future clocks. */
export async function clocksAhead(session: Session): Promise<ClockAheadReport[]> {
  const now = session.now().getTime();
  const out: ClockAheadReport[] = [];
  for (const c of await session.store.clocksAhead()) {
    const until = parseHlc(c.hlc).wall;
    if (until <= now) continue; // its future has arrived: its clocks no longer beat ours
    const name = (await session.store.getHost(c.host))?.name ?? c.host;
    const days = Math.max(1, Math.floor(c.ahead_ms / DAY_MS));
    const wins_until = new Date(until).toISOString();
    out.push({
      host_id: c.host,
      host_name: name,
      ahead_days: days,
      wins_until,
      hlc: c.hlc,
      seen_at: c.seen_at,
      message: `host ${name === c.host ? name : `${name} (${c.host})`}'s clock is ${days} day${days === 1 ? "" : "s"} ahead of this one; its edits win over newer ones here until ${wins_until.slice(0, 10)}.`,
    });
  }
  return out;
}

/** A peer's row a sync refused (engine/sync/peer-rows.ts): not merged, asked for again at each sync with that peer. */
export interface RefusedRow {
  peer_store_id: string;
  /** Where the peer was when it offered the row. */
  location: string;
  table: string;
  key: string;
  why: string;
  refused_at: string;
}

async function refusedRows(session: Session): Promise<RefusedRow[]> {
  return (await session.store.syncReader().quarantined()).map((q) => ({
    peer_store_id: q.peer,
    location: q.location,
    table: q.tbl,
    key: q.key,
    why: q.why,
    refused_at: q.at,
  }));
}

/** A sync that stopped between two pages (killed, or failed midway): the rest of that peer's changes are not here. */
export interface UnfinishedSync {
  peer_store_id: string;
  location: string;
  started_at: string;
  pages_taken: number;
  message: string;
}

async function unfinishedSyncs(session: Session): Promise<UnfinishedSync[]> {
  return (await session.store.syncReader().unfinishedPulls()).map((u) => ({
    peer_store_id: u.peer,
    location: u.location,
    started_at: u.since,
    pages_taken: u.pages,
    message: `a sync with ${u.location} (started ${utcMinute(u.since)}) stopped after ${u.pages} page(s): part of that peer's changes are not here yet; \`mindsave sync\` with it again finishes it.`,
  }));
}

function freeBytes(dir: string): number | null {
  try {
    const fs = statfsSync(dir);
    return fs.bavail * fs.bsize;
  } catch {
    return null;
  }
}

function basics(home: Home, env: NodeJS.ProcessEnv) {
  let encryption: ReturnType<typeof encryptionReport> | null;
  try {
    encryption = encryptionReport(home.dbPath);
  } catch {
    encryption = null; // not a store at all: said under `problem`
  }
  const backups = existsSync(home.dir) ? listBackups(home.dbPath) : [];
  return {
    version: VERSION,
    target: currentTarget(),
    compiled: isCompiled(),
    binary: isCompiled() ? process.execPath : null,
    on_drive: home.reason === "portable" || existsSync(join(home.dir, DRIVE_MARKER)),
    temp_dir: tmpdir(),
    /** Where the tokenizer's vocabulary comes from: mapped (a cache copy on this host) or read into memory by each run. */
    tokenizer: loadVocabulary(),
    home: home.dir,
    home_reason: home.why,
    store: home.dbPath,
    encryption,
    host: currentHost(env),
    free_bytes: freeBytes(home.dir),
    backups,
    /** Backups that are plain SQLite beside an encrypted store: what was saved before `encrypt`, readable by anyone with the file. */
    plain_backups: encryption?.encrypted ? backups.filter((b) => storeFileKind(b) === "plain") : [],
  };
}

export type HealthReport = ReturnType<typeof basics> & {
  schema_version: number | null;
  schema_supported: number;
  journal_mode: string | null;
  /** "ok", or what the integrity check found. */
  integrity: string;
  /** Which check gave `integrity`: quick (bounded at any size) or full (every page, and the search index's own check). */
  check: DoctorCheck;
  /** The store can only be read here (a write-protected file, folder or drive). */
  read_only: boolean;
  clocks_ahead: ClockAheadReport[];
  /** Rows peers offered that sync refused (malformed, or a snapshot dated ahead): not in this store. */
  refused_rows: RefusedRow[];
  /** Syncs that stopped between two pages: part of a peer's changes are here, the rest not yet. */
  unfinished_syncs: UnfinishedSync[];
  /** `mindsave off` where doctor runs: for this project (synced) and for every project on this host; null when unknown. */
  off: { project: boolean; host: boolean; sentence: string | null } | null;
  /** What is wrong with the store, in one sentence that says what to do; null when it is healthy. */
  problem: string | null;
  problem_kind: StoreProblemKind | null;
  /** A read-only look at a store with a problem: sizes, the integrity check, rows per table. */
  damage: StoreInspection | null;
};

export type DoctorCheck = "quick" | "full";

/** Whether MindSave is off here (`mindsave off`); null when the folder cannot be read as a project (doctor still reports the rest). */
async function offReport(session: Session): Promise<HealthReport["off"]> {
  try {
    const s = await offHere(session);
    return { project: s.project !== null, host: s.host !== null, sentence: offSentence(s) };
  } catch {
    return null;
  }
}

/** Quick: what can be checked in a moment whatever the store's size. Full: every page, and the search index's own check. */
async function integrityOf(session: Session, check: DoctorCheck, progress?: CheckProgress): Promise<string> {
  return check === "quick" ? session.store.quickCheck() : session.store.fullCheck(progress);
}

/**
 * Bytes the full check reads a second, measured by the bench (c5cfc1e, a table at a time): 4.2 s
 * for a 519 MB store (10,000 snapshots), 47–53 s for 5.2 GB (100,000) on a 2-core machine.
 */
const FULL_CHECK_BYTES_PER_S = 100e6;

/** The store's size and roughly how long `doctor --full` reads it: what its progress line says before it starts. */
export function fullCheckEstimate(opts: SessionOptions = {}): { bytes: number; seconds: number } {
  const home = resolveHome({ flag: opts.home, env: opts.env ?? process.env });
  const bytes = existsSync(home.dbPath) ? statSync(home.dbPath).size : 0;
  return { bytes, seconds: Math.ceil(bytes / FULL_CHECK_BYTES_PER_S) };
}

/** The health of the home's store; a store with a problem is described, never thrown. */
export async function healthReport(
  opts: SessionOptions = {},
  check: DoctorCheck = "quick",
  progress?: CheckProgress,
): Promise<HealthReport> {
  const env = opts.env ?? process.env;
  const home = resolveHome({ flag: opts.home, env });
  let session: Session | null = null;
  let problem: StoreProblem | null = null;
  let found: string | null = null; // what the check found, when it found the store damaged
  try {
    session = await Session.open(opts, { write: false });
  } catch (e) {
    if (!(e instanceof StoreProblem)) throw e; // a wrong passphrase, a missing home: one sentence
    problem = e;
  }
  if (session) {
    try {
      const integrity = await integrityOf(session, check, progress);
      const report: HealthReport = {
        ...basics(home, env),
        schema_version: await session.store.schemaVersion(),
        schema_supported: SCHEMA_VERSION,
        journal_mode: await session.store.journalMode(),
        integrity,
        check,
        read_only: session.store.readOnly,
        clocks_ahead: await clocksAhead(session),
        refused_rows: await refusedRows(session),
        unfinished_syncs: await unfinishedSyncs(session),
        off: await offReport(session),
        problem: null,
        problem_kind: null,
        damage: null,
      };
      // Readable but not writable: saves, hooks and syncs into it fail, so it is a problem (exit 1).
      if (session.store.readOnly) {
        report.problem = `The store ${home.dbPath} is read-only here (a write-protected file, folder or drive): reading it works, but save, the hooks and sync cannot write to it; make it writable or copy its home to a writable place.`;
        report.problem_kind = "read_only";
      }
      if (integrity === "ok") return report;
      found = integrity;
      problem = new StoreProblem(
        "damaged",
        home.dbPath,
        `The store ${home.dbPath} is damaged (its integrity check fails); run \`mindsave doctor --repair\` to copy what can still be read into a new store (the damaged file is kept as a backup).`,
      );
    } catch (e) {
      if (!(e instanceof StoreProblem)) throw e;
      problem = e;
    } finally {
      await session.close().catch(() => {});
    }
  }
  return describeProblem(home, env, problem!, found === null ? null : { integrity: found, check });
}

/** `found`: what doctor's own check found (else the read-only look's integrity check is what the report says). */
async function describeProblem(
  home: Home,
  env: NodeJS.ProcessEnv,
  problem: StoreProblem,
  found: { integrity: string; check: DoctorCheck } | null,
): Promise<HealthReport> {
  let key: string | undefined;
  try {
    const state = encryptionState(home.dbPath);
    if (state.encrypted) key = await storeKey(home.dbPath, state.file!, { env });
  } catch (e) {
    if (!(e instanceof StoreProblem)) throw e;
  }
  const damage = existsSync(home.dbPath) ? await inspectStore(home.dbPath, { encryptionKey: key }) : null;
  return {
    ...basics(home, env),
    schema_version: damage?.schema_version ?? null,
    schema_supported: SCHEMA_VERSION,
    journal_mode: null,
    integrity:
      found?.integrity ??
      (damage?.error ? `not checked: ${damage.error}` : damage?.integrity.join("; ") || "not checked"),
    check: found?.check ?? "full", // the read-only look checks every page it can read
    read_only: false,
    clocks_ahead: [],
    refused_rows: [],
    unfinished_syncs: [],
    off: null,
    problem: problem.inDoctor,
    problem_kind: problem.kind,
    damage,
  };
}
