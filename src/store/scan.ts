// What `mindsave scan` reads and rewrites: every column of the store that holds text a person, an
// agent or an import wrote (ids, clocks and times aside; hosts and roots, which every write
// records again from the machine itself, aside too), table by table; and the SQL to page through
// those columns, rewrite some of them, and compact the file afterwards.
import { type Exec, str, strOrNull } from "./rows.ts";

export interface ScanTable {
  name: string;
  /** The columns that name a row (shown, never rewritten). */
  key: readonly string[];
  /** Plain text columns. */
  text: readonly string[];
  /** Columns holding JSON: their values and their keys are text. */
  json: readonly string[];
  /** Synced: a rewrite stamps the clock and the host, so the next sync carries it to every peer. */
  replicated: boolean;
  /** Rows read at a time: a store of any size is scanned in bounded memory (a snapshot may hold megabytes). */
  page: number;
}

export const SCAN_TABLES: readonly ScanTable[] = [
  {
    name: "snapshots",
    key: ["id"],
    replicated: true,
    page: 16,
    text: ["name", "topic", "goal", "state", "next_action", "blocker", "layer3", "saved_root"],
    json: [
      "active_files",
      "constraints",
      "decisions",
      "failure_graph",
      "compressed",
      "auto_trigger",
      "extra",
      "plan",
      "tags",
    ],
  },
  { name: "rules", key: ["id"], text: ["text"], json: [], replicated: true, page: 500 },
  { name: "facts", key: ["id"], text: ["text"], json: [], replicated: true, page: 500 },
  {
    name: "retirements",
    key: ["id"],
    text: ["text", "reason", "retired_by"],
    json: [],
    replicated: true,
    page: 500,
  },
  { name: "failures", key: ["id"], text: ["item", "reason"], json: [], replicated: true, page: 500 },
  { name: "failure_links", key: ["id"], text: ["value"], json: [], replicated: true, page: 500 },
  {
    name: "tool_calls",
    key: ["id"],
    text: ["session_id", "timestamp", "action", "tool", "target", "summary"],
    json: [],
    replicated: true,
    page: 500,
  },
  { name: "signals", key: ["project_id"], text: [], json: ["data"], replicated: true, page: 500 },
  { name: "projects", key: ["id"], text: ["name", "remote"], json: [], replicated: true, page: 500 },
  // This store's own record of its peers (never synced): a location may be a URL with a password.
  { name: "sync_peers", key: ["store_id"], text: ["location"], json: [], replicated: false, page: 500 },
];

/** One row as scan sees it: where it is, its key, whether it is a tombstone, its text cells. */
export interface ScanRow {
  rowid: number;
  key: string[];
  deleted: boolean;
  cells: Record<string, string | null>;
}

function table(name: string): ScanTable {
  const t = SCAN_TABLES.find((x) => x.name === name);
  if (!t) throw new Error(`scan: unknown table ${name}`);
  return t;
}

/** Up to `limit` rows of `name` after `afterRowid`, in rowid order, tombstones included. */
export async function scanRows(
  db: Exec,
  name: string,
  afterRowid: number,
  limit: number,
): Promise<ScanRow[]> {
  const t = table(name);
  const cols = [...t.text, ...t.json];
  const deleted = t.replicated ? "deleted" : "0";
  const rows = (
    await db.execute({
      sql: `SELECT rowid AS scan_rowid, ${deleted} AS scan_deleted, ${[...t.key, ...cols].join(", ")} FROM ${t.name} WHERE rowid > ? ORDER BY rowid LIMIT ?`,
      args: [afterRowid, limit],
    })
  ).rows;
  return rows.map((r) => ({
    rowid: Number(r.scan_rowid),
    key: t.key.map((k) => str(r[k])),
    deleted: Number(r.scan_deleted) === 1,
    cells: Object.fromEntries(cols.map((c) => [c, strOrNull(r[c])])),
  }));
}

/** The token counts stored with text columns (schema 9, stored-tokens.ts), by table: count → its texts. */
const COUNTS_OF: Record<string, Record<string, string[]>> = {
  snapshots: { line_tokens: ["constraints", "decisions"] },
  failures: { head_tokens: ["item", "reason"] },
};

/**
 * Rewrites text cells of one row (named by its key). A synced table's row gets the writer's clock
 * and host, so the change log records it and sync carries the new text over every peer's copy.
 */
export async function rewriteCells(
  db: Exec,
  name: string,
  key: string[],
  cells: Record<string, string | null>,
  stamp: { hlc: string; host: string } | null,
): Promise<void> {
  const t = table(name);
  const cols = Object.keys(cells);
  for (const c of cols)
    if (!t.text.includes(c) && !t.json.includes(c))
      throw new Error(`scan: ${name}.${c} is not a text column`);
  if (!cols.length) return;
  const sets = cols.map((c) => `${c} = ?`);
  const args: unknown[] = cols.map((c) => cells[c]);
  // A stored token count of a rewritten text is no longer its count: null is counted at restore.
  for (const [count, texts] of Object.entries(COUNTS_OF[name] ?? {}))
    if (texts.some((c) => cols.includes(c))) sets.push(`${count} = NULL`);
  if (t.replicated && stamp) {
    sets.push("hlc = ?", "host = ?");
    args.push(stamp.hlc, stamp.host);
  }
  await db.execute({
    sql: `UPDATE ${t.name} SET ${sets.join(", ")} WHERE ${t.key.map((k) => `${k} = ?`).join(" AND ")}`,
    args: [...args, ...key] as never,
  });
}

/** Merges the full-text indexes' segments, so entries of rewritten rows are gone from them, not only marked. */
export async function optimizeSearch(db: Exec): Promise<void> {
  await db.execute("INSERT INTO snapshot_search(snapshot_search) VALUES ('optimize')");
  // The failures' index (failure-search.ts), where this store has it: a rewritten item's words too.
  const failures = await db.execute({
    sql: "SELECT 1 FROM sqlite_master WHERE name = 'failure_search'",
    args: [],
  });
  if (failures.rows.length)
    await db.execute("INSERT INTO failure_search(failure_search) VALUES ('optimize')");
}

/** Rebuilds the file without its free pages (which still hold the bytes of rewritten rows). Never inside a transaction. */
export async function vacuum(db: Exec): Promise<void> {
  await db.execute("VACUUM");
}
