// The store's health checks: a quick one, bounded at any size (`doctor`), and SQLite's check of
// every page with the search index's own (`doctor --full`).
import { existsSync } from "node:fs";
import { realStorePath, sizeOf } from "./driver.ts";
import { type Exec, str } from "./rows.ts";
import { headerFacts, integrityLines, q } from "./salvage.ts";

/** The file shorter than its header says (a copy or a write cut short), in words; null when not, or not a local file. */
function cutShort(path: string): string | null {
  if (!existsSync(path)) return null; // a remote store: its server keeps the file
  const { expected_size } = headerFacts(path);
  const size = sizeOf(path);
  return expected_size !== null && size < expected_size
    ? `the file holds ${size} bytes but its header says ${expected_size}: it was cut short`
    : null;
}

export async function integrityCheck(conn: Exec): Promise<string> {
  try {
    return integrityLines((await conn.execute("PRAGMA integrity_check(20)")).rows).join("; ");
  } catch (e) {
    return (e as Error).message.split("\n")[0]; // so damaged that the check itself stops
  }
}

/**
 * What can be checked in a moment at any size, "ok" or what is wrong: the file against its header,
 * the free list against the page count, every table's rows counted (from its smallest b-tree: the
 * snapshots' from an index, never their own pages), and the search index's rows against the live
 * snapshots'. Every other page waits for integrityCheck (`doctor --full`).
 */
export async function quickCheck(conn: Exec, path: string): Promise<string> {
  try {
    const found = [cutShort(realStorePath(path)), await freeListCheck(conn), ...(await countCheck(conn))];
    const problems = found.filter((x): x is string => x !== null);
    return problems.length ? problems.join("; ") : "ok";
  } catch (e) {
    return (e as Error).message.split("\n")[0]; // a page these checks read is damaged
  }
}

async function freeListCheck(conn: Exec): Promise<string | null> {
  const pages = Number((await conn.execute("PRAGMA page_count")).rows[0]?.[0] ?? 0);
  const free = Number((await conn.execute("PRAGMA freelist_count")).rows[0]?.[0] ?? 0);
  return free > pages ? `the free list counts ${free} pages of the file's ${pages}` : null;
}

/** Each table that cannot be counted, and a search index whose row count is not the live snapshots'. */
async function countCheck(conn: Exec): Promise<string[]> {
  // The search index's text and segments are most of a large store: their pages wait for --full.
  const names = (
    await conn.execute(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT IN ('snapshot_search_data', 'snapshot_search_content')",
    )
  ).rows.map((r) => str(r.name));
  const out: string[] = [];
  for (const name of names) {
    try {
      // Each table's own pages (NOT INDEXED), small at any size but for the snapshots': theirs from an index.
      await conn.execute(`SELECT count(*) FROM ${q(name)}${name === "snapshots" ? "" : " NOT INDEXED"}`);
    } catch (e) {
      out.push(`${name}: ${(e as Error).message.split("\n")[0]}`);
    }
  }
  const [row] = (
    await conn.execute(
      "SELECT (SELECT count(*) FROM snapshots WHERE deleted = 0) AS live, (SELECT count(*) FROM snapshot_search_docsize) AS indexed",
    )
  ).rows;
  const live = Number(row?.live ?? 0),
    indexed = Number(row?.indexed ?? 0);
  if (live !== indexed) out.push(`the search index holds ${indexed} snapshots, the store ${live}`);
  return out;
}

/** "ok", or what the full-text index's own check says is wrong with it. */
async function searchIndexCheck(conn: Exec): Promise<string> {
  try {
    await conn.execute("INSERT INTO snapshot_search(snapshot_search) VALUES ('integrity-check')");
    return "ok";
  } catch (e) {
    return (e as Error).message.split("\n")[0];
  }
}

/** Whether this SQLite's integrity_check runs the search index's own check too (from 3.44: virtual tables' xIntegrity). */
async function checksSearchIndex(conn: Exec): Promise<boolean> {
  const version = str((await conn.execute("SELECT sqlite_version() AS v")).rows[0]?.v ?? "0");
  const [major, minor] = version.split(".").map(Number);
  return major > 3 || (major === 3 && minor >= 44);
}

/**
 * "ok", or what the check of every page finds (`doctor --full`), the search index's included: by
 * integrity_check itself from SQLite 3.44, else by the index's own check after it (not twice).
 */
export async function fullCheck(conn: Exec): Promise<string> {
  const pages = await integrityCheck(conn);
  if (pages !== "ok" || (await checksSearchIndex(conn))) return pages;
  const index = await searchIndexCheck(conn);
  return index === "ok" ? "ok" : `search index: ${index}`;
}
