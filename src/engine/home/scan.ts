// `mindsave scan`: what a store already holds that looks like a secret (written by an older
// version, merged in from a peer, imported from elsewhere): which table, record and field, and
// which kind; never the secret itself, only its format prefix and length. `--fix` redacts every
// one in place, in one transaction, after a backup copy of the store; the rewrites go through the
// writer (clock, host, change log), so sync carries them to every peer. Then the WAL is folded
// back and the file rebuilt, so the old bytes are in no file of the store.
import { findSecrets, mask, redact, redactDeep } from "../snapshots/redact.ts";
import { safeName } from "../snapshots/slug.ts";
import { SCAN_TABLES, type ScanRow, type ScanTable } from "../../store/scan.ts";
import type { Queries } from "../../store/store.ts";
import type { Session } from "../session.ts";
import { backupStore, listBackups } from "./backups.ts";

export interface ScanFinding {
  table: string;
  /** The row's key (an id), never its text. */
  record: string;
  /** The column, and the place inside a JSON column: `failure_graph.<item>.reason`, `constraints[2]`, `extra.<key> (key)`. */
  field: string;
  kind: string;
  /** The secret's format prefix and how many characters follow, never any of them: `ghp_…(36)`. */
  preview: string;
  /** The row is a tombstone: deleted, but its text still in the file. */
  deleted: boolean;
}

export interface ScanReport {
  store: string;
  /** Rows read. */
  rows: number;
  findings: ScanFinding[];
  /** The store's backups (`mindsave.db.bak-…`): older copies, not scanned, that may still hold what a fix redacted. */
  backups: string[];
}

export interface FixReport extends ScanReport {
  /** Rows rewritten. */
  fixed_records: number;
  /** The copy of the store made before the fix (it still holds the secrets), or null when nothing needed fixing. */
  backup: string | null;
  /** Older backups removed to keep the newest three. */
  pruned: string[];
  /** False when another process kept the WAL from being folded back or the file from being rebuilt. */
  compacted: boolean;
}

/** A JSON key as a finding names it: redacted, on one line, short. */
function keyLabel(key: string): string {
  const k = redact(key).replace(/\s+/g, " ");
  return k.length > 40 ? `${k.slice(0, 39)}…` : k;
}

type Found = (field: string, f: { kind: string; secret: string }) => void;

function walk(value: unknown, path: string, found: Found): void {
  if (typeof value === "string") {
    for (const f of findSecrets(value)) found(path, f);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => walk(v, `${path}[${i}]`, found));
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const at = `${path}.${keyLabel(k)}`;
      for (const f of findSecrets(k)) found(`${at} (key)`, f);
      walk(v, at, found);
    }
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function rowFindings(t: ScanTable, row: ScanRow): ScanFinding[] {
  const out: ScanFinding[] = [];
  const found: Found = (field, f) => {
    out.push({
      table: t.name,
      record: row.key.join("/"),
      field,
      kind: f.kind,
      preview: mask(f.secret),
      deleted: row.deleted,
    });
  };
  for (const c of t.text) if (row.cells[c] !== null) walk(row.cells[c], c, found);
  for (const c of t.json) {
    const text = row.cells[c];
    if (text === null) continue;
    const parsed = parseJson(text);
    walk(parsed.ok ? parsed.value : text, c, found);
  }
  return out;
}

/** The row's cells that change once redacted. */
function fixedCells(t: ScanTable, row: ScanRow): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of t.text) {
    const text = row.cells[c];
    if (text === null) continue;
    const clean = redact(text);
    // A snapshot's name is a file name on export: it stays one.
    if (clean !== text)
      out[c] = t.name === "snapshots" && c === "name" ? safeName(clean, row.key[0]!) : clean;
  }
  for (const c of t.json) {
    const text = row.cells[c];
    if (text === null) continue;
    const parsed = parseJson(text);
    if (!parsed.ok) {
      const clean = redact(text);
      if (clean !== text) out[c] = clean;
      continue;
    }
    const clean = JSON.stringify(redactDeep(parsed.value));
    if (clean !== JSON.stringify(parsed.value)) out[c] = clean;
  }
  return out;
}

/** Reads every row of every scanned table, a page at a time; `onFound` gets each row with findings. */
async function scanAll(
  q: Queries,
  onFound?: (t: ScanTable, row: ScanRow) => Promise<void>,
): Promise<{ rows: number; findings: ScanFinding[] }> {
  let rows = 0;
  const findings: ScanFinding[] = [];
  for (const t of SCAN_TABLES) {
    for (let after = 0; ;) {
      const page = await q.scanRows(t.name, after, t.page);
      for (const row of page) {
        rows++;
        const found = rowFindings(t, row);
        if (!found.length) continue;
        findings.push(...found);
        await onFound?.(t, row);
      }
      if (page.length < t.page) break;
      after = page[page.length - 1]!.rowid;
    }
  }
  return { rows, findings };
}

/** What the home's store holds that looks like a secret. Reads only. */
export async function scanStore(session: Session): Promise<ScanReport> {
  return {
    store: session.home.dbPath,
    ...(await scanAll(session.store)),
    backups: listBackups(session.home.dbPath),
  };
}

/**
 * Redacts in place every secret `scanStore` finds: a backup copy first (the newest three kept),
 * then one write transaction (rows rewritten through the writer, the full-text index merged),
 * then the WAL folded back, the file rebuilt without its free pages, and the WAL folded again
 * (that last part even when nothing was found).
 */
export async function fixStore(session: Session): Promise<FixReport> {
  const before = await scanStore(session);
  let done = { ...before, fixed: 0 };
  let saved: { backup: string | null; pruned: string[] } = { backup: null, pruned: [] };
  if (before.findings.length) {
    saved = await backupStore(session.store, session.home.dbPath, { at: session.now(), env: session.env });
    done = await session.write(async (w) => {
      let fixed = 0;
      // Scanned again inside the transaction: what another process wrote since is fixed too.
      const scanned = await scanAll(w, async (t, row) => {
        await w.rewriteCells(t.name, row.key, fixedCells(t, row));
        fixed++;
      });
      if (fixed) await w.optimizeSearch();
      return { ...before, ...scanned, fixed };
    });
  }
  // Also when nothing was found: a peer that took the redacted rows from a sync still has the old
  // ones in its free pages until its file is rebuilt.
  let compacted = await session.store.checkpoint();
  try {
    await session.store.vacuum();
  } catch {
    compacted = false; // another process is in the store: the free pages stay until the next fix
  }
  compacted = (await session.store.checkpoint()) && compacted;
  return {
    store: before.store,
    rows: done.rows,
    findings: done.findings,
    backups: listBackups(before.store),
    fixed_records: done.fixed,
    ...saved,
    compacted,
  };
}
