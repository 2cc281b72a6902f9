// The store's health checks: a quick one, bounded at any size (`doctor`), and SQLite's check of
// every page with the search index's own (`doctor --full`), a table at a time so that its progress
// can be shown.
import { closeSync, existsSync, openSync, readSync } from "node:fs";
import type { Row } from "./db.ts";
import { headerBytes, realStorePath, sizeOf } from "./driver.ts";
import { type Exec, str } from "./rows.ts";
import { tableWords } from "./table-words.ts";

/** A quoted SQL name. */
export const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Size facts from a plain SQLite header (an encrypted one cannot be read). */
export function headerFacts(path: string): { page_size: number | null; expected_size: number | null } {
  const h = headerBytes(path, 100);
  if (h.length < 100 || h.subarray(0, 16).toString("latin1") !== "SQLite format 3\0")
    return { page_size: null, expected_size: null };
  const raw = h.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  // The page count at 28 is valid only when the change counter (24) matches "version valid for" (92).
  const pages = h.readUInt32BE(24) === h.readUInt32BE(92) ? h.readUInt32BE(28) : 0;
  return { page_size: pageSize, expected_size: pages ? pages * pageSize : null };
}

/** The integrity check's findings, one a line, without its "in database main" headings. */
export function integrityLines(rows: Row[]): string[] {
  return rows
    .flatMap((r) => str(r[0]).split("\n"))
    .map((l) => l.trim())
    .filter((l) => l && !/^\*\*\* in database/.test(l))
    .slice(0, 20);
}

/**
 * Reports the full check's progress: pages checked so far, of the pages the store's tables use, and
 * the part being checked now (a search index's own check is one statement, most of the time, with
 * no progress of its own: naming it shows the check is alive).
 */
export type CheckProgress = (done: number, total: number, part?: string) => void;

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
  return (await wholeCheck(conn)).join("; ");
}

/** SQLite's check of the whole file in one piece: ["ok"], or up to 20 lines of what it finds. */
async function wholeCheck(conn: Exec): Promise<string[]> {
  try {
    return integrityLines((await conn.execute("PRAGMA integrity_check(20)")).rows);
  } catch (e) {
    return [(e as Error).message.split("\n")[0]]; // so damaged that the check itself stops
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

/** Each table that cannot be counted (in the product's words), and a search index whose row count is not the live snapshots'. */
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
      out.push(`${tableWords(name)}: ${(e as Error).message.split("\n")[0]}`);
    }
  }
  try {
    const [row] = (
      await conn.execute(
        "SELECT (SELECT count(*) FROM snapshots WHERE deleted = 0) AS live, (SELECT count(*) FROM snapshot_search_docsize) AS indexed",
      )
    ).rows;
    const live = Number(row?.live ?? 0),
      indexed = Number(row?.indexed ?? 0);
    if (live !== indexed) out.push(`the search index holds ${indexed} snapshots, the store ${live}`);
  } catch (e) {
    out.push(`the search index: ${(e as Error).message.split("\n")[0]}`);
  }
  // The search index's tables are one part to a person: said once.
  return [...new Set(out)];
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

/** This SQLite's version as [major, minor]. */
async function sqliteVersion(conn: Exec): Promise<[number, number]> {
  const version = str((await conn.execute("SELECT sqlite_version() AS v")).rows[0]?.v ?? "0");
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return [major, minor];
}

/** Whether this SQLite's integrity_check runs the search index's own check too (from 3.44: virtual tables' xIntegrity). */
async function checksSearchIndex(conn: Exec): Promise<boolean> {
  const [major, minor] = await sqliteVersion(conn);
  return major > 3 || (major === 3 && minor >= 44);
}

/**
 * "ok", or what the check of every page finds (`doctor --full`), the search index's included: by
 * integrity_check itself from SQLite 3.44, else by the index's own check after it (not twice).
 */
export async function fullCheck(conn: Exec, path: string, progress?: CheckProgress): Promise<string> {
  const pages = (await everyPageCheck(conn, path, progress)).join("; ");
  if (pages !== "ok" || (await checksSearchIndex(conn))) return pages;
  const index = await searchIndexCheck(conn);
  return index === "ok" ? "ok" : `${tableWords("snapshot_search")}: ${index}`;
}

/**
 * SQLite's check of every page of the store at `path` (a table at a time, with its progress; see
 * pagesCheck): ["ok"], or up to 20 lines of what it finds.
 */
export async function everyPageCheck(conn: Exec, path: string, progress?: CheckProgress): Promise<string[]> {
  return mapped(conn, () => pagesCheck(conn, path, progress));
}

/**
 * `work` with the file's pages read through a memory map, not copied one read at a time: the
 * check reads every page (twice, with the count of pages), which otherwise costs an eighth of its
 * time in the kernel. Pages past the file's end, in a file cut short, are still read, not mapped.
 */
async function mapped<T>(conn: Exec, work: () => Promise<T>): Promise<T> {
  let before: number | null;
  try {
    before = Number((await conn.execute("PRAGMA mmap_size")).rows[0]?.[0] ?? 0);
    await conn.execute(`PRAGMA mmap_size = ${2 ** 40}`); // past any store: SQLite caps it at its own limit
  } catch {
    before = null; // not mapped: the check reads its pages as before
  }
  try {
    return await work();
  } finally {
    if (before !== null) await conn.execute(`PRAGMA mmap_size = ${before}`).catch(() => {});
  }
}

/**
 * A piece the full check takes at once: a table with its indexes, or a search index (a virtual
 * table) with the tables that hold it, then its own check; and the pages they use.
 */
interface CheckPart {
  names: string[];
  pages: number;
  /** What the progress line calls it, in the product's words: "snapshots", "the search index". */
  label: string;
}

/**
 * Page numbers summed, to compare sets of pages without holding them: how many, their sum, and the
 * sum of their squares (each modulo a prime, so that the sum stays exact at any size).
 */
interface PageSum {
  count: number;
  sum: number;
  squares: number;
}

const PRIME = 1_000_000_007;

/** The file's pages as SQLite's whole check accounts for them: in the tables and indexes, free, in all. */
interface PageAccount {
  listed: PageSum;
  free: number[];
  all: number;
  pageSize: number;
}

/**
 * SQLite's check of every page, a part at a time (`PRAGMA integrity_check(TABLE)`), each part's
 * pages reported done; then the file's pages accounted for, which a part's check cannot see (a
 * page no table uses, or one two use). In one piece, as before, where it cannot be split.
 */
async function pagesCheck(conn: Exec, path: string, progress?: CheckProgress): Promise<string[]> {
  const plan = await checkPlan(conn, path);
  if (!plan) return wholeCheck(conn);
  const found = await checkParts(conn, plan.parts, progress);
  // Only the whole check names the pages: it runs again, for its own words, when they are amiss.
  if (!accountsFor(plan.account)) return wholeCheck(conn);
  return found.length ? found.slice(0, 20) : ["ok"];
}

/**
 * The parts of the check, biggest first (the search index, whose own check is most of the time,
 * before the rest), and the file's pages; null where the check cannot be split: a SQLite before
 * 3.33 (no check of one table), pointer-map pages (auto_vacuum), or pages too damaged to list.
 */
async function checkPlan(
  conn: Exec,
  path: string,
): Promise<{ parts: CheckPart[]; account: PageAccount } | null> {
  const [major, minor] = await sqliteVersion(conn);
  if (major === 3 && minor < 33) return null;
  const number = async (pragma: string) => Number((await conn.execute(`PRAGMA ${pragma}`)).rows[0]?.[0] ?? 0);
  try {
    if ((await number("auto_vacuum")) !== 0) return null;
    // Every page of every table and index (overflow pages too), once for each that reaches it.
    const trees = (
      await conn.execute(
        `SELECT name, count(*) AS pages, sum(pageno) AS sum, sum(pageno * pageno % ${PRIME}) AS squares FROM dbstat GROUP BY name`,
      )
    ).rows.map((r) => ({
      name: str(r.name),
      count: Number(r.pages),
      sum: Number(r.sum),
      squares: Number(r.squares),
    }));
    const listed = { count: 0, sum: 0, squares: 0 };
    for (const t of trees) addSum(listed, t);
    const pageSize = await number("page_size");
    const free = await freePages(conn, path, pageSize, await number("freelist_count"));
    if (!free) return null;
    const account = { listed, free, all: await number("page_count"), pageSize };
    const parts = await partsOf(conn, new Map(trees.map((t) => [t.name, t.count])));
    return { parts: parts.sort((a, b) => b.pages - a.pages), account };
  } catch {
    return null; // pages too damaged to list: the whole check says what is wrong
  }
}

/** The store's tables grouped into parts (a search index with its own tables), with their indexes' pages. */
async function partsOf(conn: Exec, pages: Map<string, number>): Promise<CheckPart[]> {
  const schema = (
    await conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE type IN ('table', 'index')")
  ).rows.map((r) => ({ type: str(r.type), name: str(r.name), table: str(r.tbl_name), sql: str(r.sql) }));
  const virtual = schema
    .filter((x) => x.type === "table" && /^CREATE VIRTUAL/i.test(x.sql))
    .map((x) => x.name);
  const partOf = (table: string) => virtual.find((v) => table.startsWith(`${v}_`)) ?? table;
  // The schema's own page and the free list: `integrity_check(sqlite_schema)` checks both.
  const parts = new Map<string, CheckPart>([
    ["sqlite_schema", { names: ["sqlite_schema"], pages: 0, label: "the store's layout and its free pages" }],
  ]);
  for (const x of schema) {
    const part = parts.get(partOf(x.table)) ?? { names: [], pages: 0, label: tableWords(partOf(x.table)) };
    parts.set(partOf(x.table), part);
    if (x.type === "table" && !virtual.includes(x.name)) part.names.push(x.name);
  }
  for (const v of virtual) parts.get(v)!.names.push(v); // its own check after its tables'
  for (const [name, n] of pages) {
    const table = name === "sqlite_schema" ? name : (schema.find((x) => x.name === name)?.table ?? name);
    const part = parts.get(partOf(table));
    if (part) part.pages += n;
  }
  return [...parts.values()];
}

/** Each part checked in turn, named as it starts, its pages counted done after; what the checks found, in their words. */
async function checkParts(conn: Exec, parts: CheckPart[], progress?: CheckProgress): Promise<string[]> {
  const total = parts.reduce((a, p) => a + p.pages, 0);
  let done = 0;
  const found: string[] = [];
  for (const part of parts) {
    progress?.(done, total, part.label);
    for (const name of part.names) found.push(...(await tableCheck(conn, name)));
    done += part.pages;
  }
  progress?.(done, total);
  return found;
}

/**
 * What `integrity_check` finds in one table and its indexes (or a virtual table's own check), each
 * finding after the table's product words ("snapshots: row 3 missing from index …"); [] when ok.
 */
async function tableCheck(conn: Exec, name: string): Promise<string[]> {
  const said = (finding: string) => `${tableWords(name)}: ${finding}`;
  try {
    const lines = integrityLines((await conn.execute(`PRAGMA integrity_check(${q(name)})`)).rows);
    return lines.filter((l) => l !== "ok").map(said);
  } catch (e) {
    return [said((e as Error).message.split("\n")[0])]; // so damaged that its check stops
  }
}

/**
 * The free list's pages, as the file's header and trunk pages list them; no more than `count` (the
 * header's), so that a list damaged into a loop ends. Null when its pages cannot be read.
 */
async function freePages(
  conn: Exec,
  path: string,
  pageSize: number,
  count: number,
): Promise<number[] | null> {
  if (count === 0) return [];
  const page = await pageReader(conn, path, pageSize);
  if (!page) return null;
  const out: number[] = [];
  let trunk = (await page(1)).getUint32(32);
  while (trunk !== 0 && out.length < count) {
    out.push(trunk);
    const d = await page(trunk);
    const leaves = Math.min(d.getUint32(4), (d.byteLength - 8) / 4);
    for (let i = 0; i < leaves; i++) out.push(d.getUint32(8 + i * 4));
    trunk = d.getUint32(0);
  }
  return out;
}

/**
 * A page of the store as SQLite sees it: through sqlite_dbpage where this SQLite has it (libSQL's,
 * an encrypted store's pages decrypted), else from the file itself (Bun's SQLite has no
 * sqlite_dbpage) while its write-ahead log holds no newer pages; null when neither.
 */
async function pageReader(
  conn: Exec,
  path: string,
  pageSize: number,
): Promise<((n: number) => Promise<DataView>) | null> {
  const fromSql = async (n: number) => {
    const { rows } = await conn.execute({ sql: "SELECT data FROM sqlite_dbpage WHERE pgno = ?", args: [n] });
    return new DataView(rows[0]?.data as ArrayBuffer);
  };
  try {
    await fromSql(1);
    return fromSql;
  } catch {
    const file = realStorePath(path);
    if (!existsSync(file) || sizeOf(`${file}-wal`) > 0) return null;
    return async (n) => {
      const bytes = Buffer.alloc(pageSize);
      const fd = openSync(file, "r");
      try {
        readSync(fd, bytes, 0, pageSize, (n - 1) * pageSize);
      } finally {
        closeSync(fd);
      }
      return new DataView(bytes.buffer, bytes.byteOffset, pageSize);
    };
  }
}

function addSum(to: PageSum, more: PageSum): void {
  to.count += more.count;
  to.sum += more.sum;
  to.squares += more.squares;
}

const pageSum = (n: number): PageSum => ({ count: 1, sum: n, squares: (n * n) % PRIME });

/**
 * Whether every page of the file is in exactly one table or index, or on the free list, as the
 * whole check finds (a page no table uses, one two tables use, or a free page a table uses changes
 * the sums); the page of SQLite's lock bytes, in a file past 1 GiB, is in none by design.
 */
function accountsFor(a: PageAccount): boolean {
  const lockPage = Math.floor(0x40000000 / a.pageSize) + 1;
  const taken = { ...a.listed };
  for (const n of a.free) addSum(taken, pageSum(n));
  if (a.all >= lockPage) addSum(taken, pageSum(lockPage));
  const every = { count: 0, sum: 0, squares: 0 };
  for (let n = 1; n <= a.all; n++) addSum(every, pageSum(n));
  return taken.count === every.count && taken.sum === every.sum && taken.squares === every.squares;
}
