// `mindsave encrypt` / `mindsave decrypt`: convert the home's store in place (a checked copy swapped
// in with one rename; the old file kept as mindsave.db.bak-<time>).
import { decryptHome, encryptHome, type ConvertResult } from "../engine/home/convert.ts";
import { print, printJson, warn } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

export async function encrypt(_o: unknown, _a: string[], g: GlobalOptions): Promise<number> {
  const r = await encryptHome({ home: g.home });
  if (g.json) printJson(r);
  else {
    print(summary(r, "Encrypted"));
    if (r.backup)
      warn(
        `the backup ${r.backup} is the old, unencrypted store: delete it once you have checked the encrypted one, or its contents stay readable on this disk.`,
      );
    print(
      `Keep ${r.key_file} beside the store, and the passphrase somewhere safe: without either, the store cannot be opened by anyone, you included.`,
    );
  }
  return 0;
}

export async function decrypt(_o: unknown, _a: string[], g: GlobalOptions): Promise<number> {
  const r = await decryptHome({ home: g.home });
  if (g.json) printJson(r);
  else print(summary(r, "Decrypted"));
  return 0;
}

function summary(r: ConvertResult, what: string): string {
  const rows = Object.values(r.rows).reduce((a, b) => a + b, 0);
  return [
    r.backup
      ? `${what} ${r.store} (${rows} rows in ${Object.keys(r.rows).length} tables, checked).`
      : `${what} ${r.store} (a new, empty store).`,
    ...(r.backup
      ? [
          `The old file is kept as ${r.backup}${r.pruned.length ? `; ${r.pruned.length} older backup${r.pruned.length === 1 ? "" : "s"} removed` : ""}.`,
        ]
      : []),
  ].join("\n");
}
