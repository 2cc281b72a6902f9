// The health report behind `mindsave doctor`: home and why, store, schema, integrity, host, free
// space, and hosts whose clocks ran far ahead of this one (recorded by sync).
import { statfsSync } from "node:fs";
import { DRIVE_MARKER, isCompiled } from "./home.ts";
import { currentTarget } from "./drive.ts";
import { encryptionReport } from "./encryption.ts";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { SCHEMA_VERSION, parseHlc } from "../../store/store.ts";
import { VERSION } from "../../version.ts";
import type { Session } from "../session.ts";

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
      host_id: c.host, host_name: name, ahead_days: days, wins_until, hlc: c.hlc, seen_at: c.seen_at,
      message: `host ${name === c.host ? name : `${name} (${c.host})`}'s clock is ${days} day${days === 1 ? "" : "s"} ahead of this one; its edits win over newer ones here until ${wins_until.slice(0, 10)}.`,
    });
  }
  return out;
}

export async function healthReport(session: Session) {
  let free: number | null = null;
  try {
    const fs = statfsSync(session.home.dir);
    free = fs.bavail * fs.bsize;
  } catch {
    free = null;
  }
  return {
    version: VERSION,
    target: currentTarget(),
    compiled: isCompiled(),
    binary: isCompiled() ? process.execPath : null,
    on_drive: session.home.reason === "portable" || existsSync(join(session.home.dir, DRIVE_MARKER)),
    temp_dir: tmpdir(),
    home: session.home.dir,
    home_reason: session.home.why,
    store: session.home.dbPath,
    encryption: encryptionReport(session.home.dbPath),
    schema_version: await session.store.schemaVersion(),
    schema_supported: SCHEMA_VERSION,
    journal_mode: await session.store.journalMode(),
    integrity: await session.store.integrityCheck(),
    host: session.host,
    free_bytes: free,
    clocks_ahead: await clocksAhead(session),
  };
}
