// `mindsave doctor`: which home and why, the store's health, this host, hosts with clocks far ahead.
import { healthReport } from "../engine/home/doctor.ts";
import { print, printJson, withSession } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

export async function run(_o: unknown, _a: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, false, async (session) => {
    const r = await healthReport(session);
    if (g.json) printJson(r);
    else {
      print([
        `MindSave ${r.version} (${r.target}${r.compiled ? `, compiled: ${r.binary}` : ", from source"})`,
        `home:      ${r.home} (${r.home_reason})`,
        `store:     ${r.store}`,
        `encrypted: ${r.encryption.encrypted ? `yes (${r.encryption.cipher}, key from a passphrase by ${r.encryption.kdf}; key file ${r.encryption.key_file})` : "no"}${r.encryption.stale_key_file ? ` (ignoring ${r.encryption.stale_key_file}, left by an interrupted conversion)` : ""}`,
        `schema:    ${r.schema_version} (this build supports up to ${r.schema_supported}), journal ${r.journal_mode}`,
        `integrity: ${r.integrity}`,
        `host:      ${r.host.name} (${r.host.id}, ${r.host.platform})`,
        `free:      ${r.free_bytes === null ? "unknown" : `${(r.free_bytes / 1024 ** 3).toFixed(1)} GiB`} on the ${r.on_drive ? "drive" : "home's disk"}`,
        ...r.clocks_ahead.map((c) => `clock:     ${c.message}`),
      ].join("\n"));
    }
    return r.integrity === "ok" ? 0 : 1;
  });
}
