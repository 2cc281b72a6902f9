// The store's tables in the product's words: what doctor's checks, its progress line and a repair's
// report call them, so a person reads "the search index", never `snapshot_search_docsize`.

// In the order a person reads them: their work first, MindSave's own bookkeeping last.
const WORDS: Record<string, string> = {
  snapshots: "snapshots",
  listed_snapshots: "snapshots listed (not archived)",
  snapshot_search: "the search index",
  failures: "failures",
  failure_counts: "failures' repeat counts",
  failure_links: "links between failures",
  failure_ranks: "failures' ranking",
  failure_search: "the failures' search index",
  rules: "standing rules",
  facts: "facts",
  retirements: "retirements",
  projects: "projects",
  roots: "project folders",
  off_switches: "off switches",
  hosts: "hosts",
  signals: "pressure signals",
  tool_calls: "tool calls",
  sync_peers: "sync peers",
  changes: "the change log",
  meta: "settings",
  sqlite_schema: "the store's layout",
  sqlite_master: "the store's layout",
  // SQLite's own tables: the change log's AUTOINCREMENT counter, ANALYZE's statistics.
  sqlite_sequence: "the store's counters",
  sqlite_stat1: "the store's statistics",
};

/** A full-text index's own tables (`snapshot_search_docsize`, …) belong to the index they hold. */
const INDEX_PART = /^(snapshot_search|failure_search)_(data|idx|content|docsize|config)$/;

/** Every `sqlite_stat1` … `sqlite_stat4` is one set of statistics. */
const STATS = /^sqlite_stat\d$/;

/** The table whose words say `name`: an index's own tables are the index, every statistics table the first. */
const wordsKey = (name: string): string => name.replace(INDEX_PART, "$1").replace(STATS, "sqlite_stat1");

/**
 * What a person calls table `name`: its product words, an index's tables as the index. Any other
 * SQLite table is the store's own records, never its internal name; a table without words keeps its name.
 */
export function tableWords(name: string): string {
  return WORDS[wordsKey(name)] ?? (/^sqlite_/i.test(name) ? "the store's own records" : name);
}

/** Whether `name` is one of a full-text index's own tables (listed as the index itself). */
export const isIndexPart = (name: string): boolean => INDEX_PART.test(name);

const ORDER = Object.keys(WORDS);

/** Sorts table names in the order a person reads them (WORDS'); tables without words last. */
export function byTableWords(a: string, b: string): number {
  const at = (name: string) => {
    const i = ORDER.indexOf(wordsKey(name));
    return i < 0 ? ORDER.length : i;
  };
  return at(a) - at(b) || (a < b ? -1 : a > b ? 1 : 0);
}
