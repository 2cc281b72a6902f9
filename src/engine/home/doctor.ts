// The health report behind `mindsave doctor`: home and why, store, schema, integrity, host, free space.
import { statfsSync } from "node:fs";
import { DRIVE_MARKER, isCompiled } from "./home.ts";
import { currentTarget } from "./drive.ts";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { SCHEMA_VERSION } from "../../store/store.ts";
import { VERSION } from "../../version.ts";
import type { Session } from "../session.ts";

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
    schema_version: await session.store.schemaVersion(),
    schema_supported: SCHEMA_VERSION,
    journal_mode: await session.store.journalMode(),
    integrity: await session.store.integrityCheck(),
    host: session.host,
    free_bytes: free,
  };
}
