// `mindsave doctor`: which home and why, the store's health, this host.
import { statfsSync } from "node:fs";
import { isCompiled } from "../engine/home.ts";
import { SCHEMA_VERSION } from "../store/store.ts";
import { VERSION } from "../version.ts";
import { print, printJson, withSession } from "./shared.ts";
import type { GlobalOptions } from "../cli.ts";

export async function run(_o: unknown, _a: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, false, async (session) => {
    const integrity = await session.store.integrityCheck();
    let free: number | null = null;
    try {
      const fs = statfsSync(session.home.dir);
      free = fs.bavail * fs.bsize;
    } catch {
      free = null;
    }
    const report = {
      version: VERSION,
      target: `${process.platform}-${process.arch}`,
      compiled: isCompiled(),
      home: session.home.dir,
      home_reason: session.home.why,
      store: session.home.dbPath,
      schema_version: await session.store.schemaVersion(),
      schema_supported: SCHEMA_VERSION,
      journal_mode: await session.store.journalMode(),
      integrity,
      host: session.host,
      free_bytes: free,
    };
    if (g.json) printJson(report);
    else {
      print([
        `MindSave ${report.version} (${report.target}${report.compiled ? ", compiled" : ""})`,
        `home:      ${report.home} (${report.home_reason})`,
        `store:     ${report.store}`,
        `schema:    ${report.schema_version} (this build supports up to ${report.schema_supported}), journal ${report.journal_mode}`,
        `integrity: ${integrity}`,
        `host:      ${session.host.name} (${session.host.id}, ${session.host.platform})`,
        `free:      ${free === null ? "unknown" : `${(free / 1024 ** 3).toFixed(1)} GiB`}`,
      ].join("\n"));
    }
    return integrity === "ok" ? 0 : 1;
  });
}
