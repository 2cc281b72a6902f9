// `mindsave scan [--fix]`: what the store holds that looks like a secret (table, record, field,
// kind, a masked preview, never the secret); --fix redacts it all in place after a backup.
import { basename, dirname } from "node:path";
import { fixStore, scanStore, type ScanFinding, type ScanReport } from "../engine/home/scan.ts";
import { pad } from "../lib/text.ts";
import { print, printJson, withSession } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

function table(findings: ScanFinding[]): string[] {
  const cols = [
    Math.max(...findings.map((f) => f.table.length)),
    Math.min(40, Math.max(...findings.map((f) => f.record.length + (f.deleted ? 10 : 0)))),
    Math.min(48, Math.max(...findings.map((f) => f.field.length))),
    Math.max(...findings.map((f) => f.kind.length)),
  ];
  return findings.map(
    (f) =>
      `  ${pad(f.table, cols[0]!)}  ${pad(f.record + (f.deleted ? " (deleted)" : ""), cols[1]!)}  ${pad(f.field, cols[2]!)}  ${pad(f.kind, cols[3]!)}  ${f.preview}`,
  );
}

/** After "No secrets found": the backups beside the store were not scanned and may hold what an earlier fix redacted. */
function backupsNote(r: ScanReport): string {
  if (!r.backups.length) return "";
  return ` ${r.backups.length} file(s) named like backups of the store (${basename(r.store)}.bak-* in ${dirname(r.store)}, made before an earlier \`scan --fix\` or other rewrite, or put there by someone else) may still hold what it removed: delete them once you no longer need them.`;
}

export async function run(opts: { fix?: boolean }, _args: string[], g: GlobalOptions): Promise<number> {
  if (!opts.fix) {
    const r = await withSession(g, false, scanStore);
    if (g.json) printJson({ ...r, clean: r.findings.length === 0 });
    else if (!r.findings.length)
      print(`No secrets found in ${r.store} (${r.rows} record(s) scanned).${backupsNote(r)}`);
    else {
      print(`${r.findings.length} secret(s) found in ${r.store} (${r.rows} record(s) scanned):`);
      print(table(r.findings).join("\n"));
      print("Run `mindsave scan --fix` to redact them in place (a backup copy of the store is made first).");
    }
    return r.findings.length ? 1 : 0;
  }
  const r = await withSession(g, true, fixStore);
  if (g.json) printJson({ ...r, clean: true });
  else if (!r.findings.length)
    print(
      `No secrets found in ${r.store} (${r.rows} record(s) scanned); its file was rebuilt without free pages${r.compacted ? "" : " (not all of it: another program has it open)"}.${backupsNote(r)}`,
    );
  else {
    print(`Redacted ${r.findings.length} secret(s) in ${r.fixed_records} record(s) of ${r.store}:`);
    print(table(r.findings).join("\n"));
    print(
      `Backup of the store as it was: ${r.backup} (it still holds them: delete it once you have checked the store).`,
    );
    if (r.pruned.length) print(`Removed older backup(s): ${r.pruned.join(", ")}.`);
    if (!r.compacted)
      print(
        "Another program has the store open, so its old pages could not be rewritten yet: close it and run `mindsave scan --fix` again.",
      );
    print(
      "Peers get the redacted records on their next sync; run `mindsave scan --fix` there too, so their files are rebuilt without the old pages.",
    );
  }
  return 0;
}
