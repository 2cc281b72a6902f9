// Full-text search of snapshots (recall, the TUI's filter): the trigram index, bounded work on any
// snapshot, and the context line of each hit. Part of the store: the only place with SQL.
import type { Row } from "./db.ts";
import { graphemeBoundary } from "../lib/text.ts";
import { TAGGED, str, type Exec } from "./rows.ts";
import type { SearchHit } from "./records.ts";

const query = async (db: Exec, sql: string, args: unknown[]): Promise<Row[]> =>
  (await db.execute({ sql, args: args as never })).rows;

/**
 * Full-text search, newest first. Terms of three or more characters go through the FTS5 trigram
 * index (each quoted, so FTS syntax in user input is searched for, never interpreted); shorter
 * terms are matched with instr() on the same indexed text. All terms must match.
 * Bounded work on any snapshot: the query finds the hits, then reads of each hit's layers only a
 * window of CONTEXT_WINDOW characters around the first term, and the context line is cut from
 * that in JS (FTS5's snippet() scores every position of a long layer: minutes on a megabyte).
 */
export async function searchSnapshots(
  db: Exec,
  projectId: string | null,
  terms: string[],
  limit = 50,
  opts: SearchFilter = {},
): Promise<SearchHit[]> {
  const { tag, listed = false } = opts;
  const long = terms.filter((t) => [...t].length >= 3);
  const short = terms.filter((t) => [...t].length < 3).map((t) => t.toLowerCase());
  const match = long.map((t) => `"${t.replaceAll('"', '""')}"`).join(" ");
  // SQLite's lower() folds ASCII only: fold the anchor the same way, so instr() finds it.
  const anchor = (long[0] ?? short[0] ?? "").replace(/[A-Z]+/g, (c) => c.toLowerCase());
  const hits = (w: SearchWay) => {
    const q: SearchQuery = { from: "", where: ["s.deleted = 0"], args: [] };
    q.from = matchedBy(q, { ...w, match, long });
    const inProject = w.found !== null || w.newest !== null;
    narrowed(q, { short, inProject, projectId, fromListed: w.fromListed, listed, tag });
    q.args.push(limit);
    return hitRows(db, q, anchor);
  };
  const listsFew = listed && projectId !== null && !(await listsMany(db, projectId, opts.manyListed));
  // The project's newest snapshots hold the first `limit` hits when they have that many, or when
  // they are the whole project; else the project is searched by its matches (searchWay).
  const newest = long.length > 0 && !listsFew ? await newestWay(db, projectId, limit, opts) : null;
  let rows = newest ? await hits(newest) : [];
  if (!newest || (rows.length < limit && !newest.wholeProject))
    rows = await hits(await searchWay(db, projectId, match, long.length > 0, listsFew, opts));
  return rows.map((r) => ({
    id: str(r.id),
    project_id: str(r.project_id),
    name: str(r.name),
    created_at: str(r.created_at),
    status: str(r.status) as SearchHit["status"],
    goal: str(r.goal),
    archived: Number(r.archived) === 1,
    context: matchContext([str(r.layer1), str(r.layer2), str(r.layer3)], terms),
  }));
}

/** A search's query as it is put together: the rows it reads, its conditions and their arguments. */
interface SearchQuery {
  from: string;
  where: string[];
  args: unknown[];
}

/** How a search finds its long terms' matches (the ways below), chosen by how many there are. */
interface SearchWay {
  /** A project's first matches (up to the many threshold and one more); null for every project. */
  found: number[] | null;
  /** Few matches: looked up by their rowids. */
  few: boolean;
  /** Only the project's listed snapshots, each matched alone. */
  fromListed: boolean;
  /** The project's newest snapshots, the only ones searched; null when not. */
  newest: NewestSnapshots | null;
  /** `newest` is every snapshot of the project. */
  wholeProject: boolean;
}

/**
 * The way that searches only a project's newest snapshots, tried first: a common word's hits are
 * among them, at the same cost at any size, and a word's matches over the whole store (which grow
 * with it) are never read. Every project's: the store's newest (its index made). Null for a search
 * of few listed snapshots.
 */
async function newestWay(
  db: Exec,
  projectId: string | null,
  limit: number,
  opts: SearchFilter,
): Promise<SearchWay | null> {
  const recent = opts.recent ?? Math.max(RECENT_WINDOW, limit * 4);
  if (recent <= 0) return null;
  if (projectId === null && !(await hasIndex(db, NEWEST_INDEX))) return null;
  const newest =
    projectId === null
      ? await storeNewestRowids(db, recent, opts.rangeGap)
      : await newestRowids(db, projectId, recent, opts.rangeGap);
  return { found: null, few: false, fromListed: false, newest, wholeProject: newest.count < recent };
}

async function searchWay(
  db: Exec,
  projectId: string | null,
  match: string,
  hasLong: boolean,
  listsFew: boolean,
  opts: SearchFilter,
): Promise<SearchWay> {
  const { manyMatches = MANY_MATCHES } = opts;
  // A project's search reads the rowids of up to `manyMatches` + 1 matches. Fewer are looked up by
  // those rowids (the full-text query runs once, not again in a join), which costs each match a
  // row, not each snapshot of the project a step. More (a word in thousands of snapshots) become
  // a set of rowids and the project's index is walked newest first against it, stopping at the
  // limit: those thousands are never read as rows. A search of every project joins the matches
  // and sorts them (no index orders them all by time). All the ways give the same rows.
  const found = projectId !== null && hasLong ? await matchingRowids(db, match, manyMatches + 1) : null;
  const few = !!found && found.length <= manyMatches;
  // Only the listed snapshots of a project (the picker with archived hidden): its few rows in
  // listed_snapshots' index are walked, never its archived thousands (unless the few matches are
  // looked up by their rowids, which is less), and each is matched alone rather than every match
  // read into a set. Matched alone, each costs a full-text lookup: a project that keeps thousands
  // listed (a large --keep) walks its index against the set of matches instead.
  const fromListed = listsFew && !few;
  return { found, few, fromListed, newest: null, wholeProject: false };
}

/** How the long terms' matches are found (one of the ways of searchWay): the FROM clause, conditions added to `q`. */
function matchedBy(q: SearchQuery, way: SearchWay & { match: string; long: string[] }): string {
  const walked = way.fromListed
    ? "listed_snapshots l CROSS JOIN snapshots s ON s.id = l.snapshot_id"
    : "snapshots s";
  if (way.few) {
    // (CROSS JOIN keeps SQLite from walking the project's index instead of looking the rowids up.)
    q.args.push(JSON.stringify(way.found));
    return "json_each(?) AS m CROSS JOIN snapshots s ON s.rowid = m.value";
  }
  const ranges = way.newest?.ranges;
  if (way.newest && ranges) {
    // Only the matches within the newest rowids' ranges are read: the full-text index seeks to each.
    // Tested on m.value, so before a snapshot's row is read: only the hits' rows are (a row is large,
    // its `deleted` lies past the layers, in overflow pages).
    const inRange =
      "SELECT rowid FROM snapshot_search WHERE snapshot_search MATCH ? AND rowid BETWEEN ? AND ?";
    q.where.push(`m.value IN (${ranges.map(() => inRange).join(" UNION ALL ")})`);
    q.args.push(way.newest.rowids, ...ranges.flatMap(([low, high]) => [way.match, low, high]));
    return "json_each(?) AS m CROSS JOIN snapshots s ON s.rowid = m.value";
  }
  if (way.found) {
    q.where.push(
      way.fromListed
        ? "EXISTS (SELECT 1 FROM snapshot_search WHERE rowid = s.rowid AND snapshot_search MATCH ?)"
        : "s.rowid IN (SELECT rowid FROM snapshot_search WHERE snapshot_search MATCH ?)",
    );
    q.args.push(way.match);
    return walked;
  }
  if (way.long.length) {
    q.where.push("snapshot_search MATCH ?");
    q.args.push(way.match);
  }
  return way.fromListed
    ? `${walked} JOIN snapshot_search f ON f.rowid = s.rowid`
    : "snapshot_search f JOIN snapshots s ON s.rowid = f.rowid";
}

/** The search narrowed: short terms by instr(), then the project, the listed snapshots, a tag. */
function narrowed(
  q: SearchQuery,
  by: {
    short: string[];
    inProject: boolean;
    projectId: string | null;
    fromListed: boolean;
    listed: boolean;
    tag?: string;
  },
): void {
  const text = "instr(lower(f.layer1 || char(10) || f.layer2 || char(10) || f.layer3), ?) > 0";
  for (const t of by.short) {
    q.where.push(
      by.inProject ? `EXISTS (SELECT 1 FROM snapshot_search f WHERE f.rowid = s.rowid AND ${text})` : text,
    );
    q.args.push(t);
  }
  if (by.projectId) {
    q.where.push(by.fromListed ? "l.project_id = ?" : "s.project_id = ?");
    q.args.push(by.projectId);
  }
  if (by.listed && !by.fromListed) q.where.push(LISTED);
  if (by.tag !== undefined) {
    q.where.push(TAGGED.replaceAll("tags", "s.tags"));
    q.args.push(by.tag);
  }
}

/** The hits, newest first, each with a window of its layers around `anchor`. */
async function hitRows(db: Exec, q: SearchQuery, anchor: string): Promise<Row[]> {
  const window = (col: string) =>
    `substr(f.${col}, max(1, instr(lower(f.${col}), ?) - ${CONTEXT_BEFORE}), ${CONTEXT_WINDOW}) AS ${col}`;
  // The windows are cut for the hits only: the inner query sorts and limits first.
  return query(
    db,
    `SELECT h.*, ${window("layer1")}, ${window("layer2")}, ${window("layer3")}
     FROM (SELECT s.rowid AS rid, s.id, s.project_id, s.name, s.created_at, s.status, s.goal, NOT ${LISTED} AS archived
           FROM ${q.from}
           WHERE ${q.where.join(" AND ")} ORDER BY s.created_at DESC, s.id DESC LIMIT ?) AS h
     JOIN snapshot_search f ON f.rowid = h.rid
     ORDER BY h.created_at DESC, h.id DESC`,
    [anchor, anchor, anchor, ...q.args],
  );
}

/** A snapshot (`s`) retention left in the default views: not archived. */
const LISTED = "EXISTS (SELECT 1 FROM listed_snapshots ls WHERE ls.snapshot_id = s.id)";

/** What narrows a search: a tag, the listed snapshots only; `manyMatches`, `manyListed` and `recent` (tests) pick the way a project is searched. */
export interface SearchFilter {
  tag?: string;
  listed?: boolean;
  manyMatches?: number;
  manyListed?: number;
  /** How many of the project's newest snapshots a search reads first (0: none). */
  recent?: number;
  /** The widest gap of rowids inside one range of the newest snapshots (rowidRanges). */
  rangeGap?: number;
}

/** Whether the project has more than `n` listed snapshots (counting no further). */
async function listsMany(db: Exec, projectId: string, n = MANY_LISTED): Promise<boolean> {
  const rows = await query(
    db,
    "SELECT count(*) AS c FROM (SELECT 1 FROM listed_snapshots WHERE project_id = ? LIMIT ?)",
    [projectId, n + 1],
  );
  return Number(rows[0]?.c ?? 0) > n;
}

/** A project's (or the store's) newest snapshots: their rowids (a JSON array), how many, the rowid ranges that hold them. */
interface NewestSnapshots {
  rowids: string;
  count: number;
  ranges: [low: number, high: number][];
}

/** The index that orders every snapshot of the store by time (migrations.ts INDEXES). */
const NEWEST_INDEX = "snapshots_newest";

/**
 * Whether the store has the index yet: it is made on a writable open, and without it the store's
 * newest would be found by reading every snapshot's row.
 */
async function hasIndex(db: Exec, name: string): Promise<boolean> {
  return (
    (await query(db, "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", [name])).length > 0
  );
}

/**
 * The store's `n` newest snapshots, of every project: read off NEWEST_INDEX. Searched in their
 * rowid ranges as a project's are (written last, they are mostly the last rowids; one matched
 * alone costs a full-text lookup of each term, ~1 ms for a word of 8 trigrams at 100k).
 */
async function storeNewestRowids(db: Exec, n: number, gap = RANGE_GAP): Promise<NewestSnapshots> {
  const rows = await query(
    db,
    `SELECT json_group_array(r) AS rowids, count(*) AS count
     FROM (SELECT rowid AS r FROM snapshots INDEXED BY ${NEWEST_INDEX} WHERE deleted = 0 ORDER BY created_at DESC, id DESC LIMIT ?)`,
    [n],
  );
  return newestOf(str(rows[0].rowids), Number(rows[0].count), gap);
}

/** The project's `n` newest snapshots (those a search reads first), gathered in SQL, not row by row. */
async function newestRowids(
  db: Exec,
  projectId: string,
  n: number,
  gap = RANGE_GAP,
): Promise<NewestSnapshots> {
  const rows = await query(
    db,
    `SELECT json_group_array(r) AS rowids, count(*) AS count
     FROM (SELECT rowid AS r FROM snapshots WHERE project_id = ? AND deleted = 0 ORDER BY created_at DESC, id DESC LIMIT ?)`,
    [projectId, n],
  );
  return newestOf(str(rows[0].rowids), Number(rows[0].count), gap);
}

/** Newest snapshots from their rowids (a JSON array): with the ranges that hold them. */
function newestOf(rowids: string, count: number, gap: number): NewestSnapshots {
  // No snapshot: an empty range.
  if (count === 0) return { rowids: "[]", count: 0, ranges: [[1, 0]] };
  return { rowids, count, ranges: rowidRanges(JSON.parse(rowids) as number[], gap) };
}

/**
 * Rowid ranges that hold `rowids`, at most MAX_RANGES: a full-text query reads every match between
 * a range's ends, so a gap of other projects' snapshots (thousands, in a store of many) splits one.
 * A range costs a lookup of each term, so the narrowest gaps are closed first.
 */
export function rowidRanges(rowids: number[], gap = RANGE_GAP): [number, number][] {
  const sorted = [...rowids].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const id of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && id - last[1] <= gap) last[1] = id;
    else ranges.push([id, id]);
  }
  while (ranges.length > MAX_RANGES) {
    let narrowest = 0;
    for (let i = 1; i < ranges.length - 1; i++)
      if (ranges[i + 1][0] - ranges[i][1] < ranges[narrowest + 1][0] - ranges[narrowest][1]) narrowest = i;
    ranges.splice(narrowest, 2, [ranges[narrowest][0], ranges[narrowest + 1][1]]);
  }
  return ranges;
}

/**
 * Rowids between two of a project's newest snapshots read as one range up to this gap: a range's
 * own lookups cost about what a few hundred other snapshots' matches do (100k store, 8 trigrams).
 */
const RANGE_GAP = 512;

/** The most ranges a search of the newest snapshots makes (each is a full-text query of its own). */
const MAX_RANGES = 8;

/** The rowids of at most `n` snapshots the full-text query matches. */
async function matchingRowids(db: Exec, match: string, n: number): Promise<number[]> {
  return (
    await query(db, "SELECT rowid AS r FROM snapshot_search WHERE snapshot_search MATCH ? LIMIT ?", [
      match,
      n,
    ])
  ).map((r) => Number(r.r));
}

/** How much of a layer a search hit reads for its context line, and from how far before the first term. */
const CONTEXT_WINDOW = 64 * 1024;
/**
 * Past this many matches (when its newest snapshots hold too few hits), a search in a project walks
 * its index against the set of matches rather than looking each match up: a lookup reads a row
 * (~5x a step of the walk, measured), and a word rare in the store is looked up whatever its size.
 */
const MANY_MATCHES = 1024;
/** How many of a project's newest snapshots a search reads first, at the least. */
const RECENT_WINDOW = 256;
/** Past this many listed snapshots, a search of them matches against the set of matches, not each alone. */
const MANY_LISTED = 256;
const CONTEXT_BEFORE = 1024;

/**
 * A context line around the first match of any term, in the first layer that has one, with every
 * match in it marked «like this» and cut at word boundaries; else the first line of the first layer.
 */
function matchContext(texts: string[], terms: string[]): string {
  const escaped = terms.filter(Boolean).map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const re = escaped.length ? new RegExp(escaped.join("|"), "giu") : null;
  for (const text of re ? texts : []) {
    re!.lastIndex = 0;
    const m = re!.exec(text);
    if (!m) continue;
    let start = Math.max(0, m.index - 30);
    let end = Math.min(text.length, Math.max(start + 100, m.index + m[0].length + 40));
    // Whole words at the cuts, when a space is near.
    const space = text.slice(start, m.index).search(/\s/);
    if (start > 0 && space >= 0 && space < 15) start += space + 1;
    const tail = text.slice(m.index + m[0].length, end).search(/\s\S*$/);
    if (end < text.length && tail >= 0) end = m.index + m[0].length + tail;
    // Never half an emoji or a letter without its accent at either cut.
    start = graphemeBoundary(text, start, "down");
    end = graphemeBoundary(text, end, "up");
    const marked = text.slice(start, end).replace(re!, (hit) => `«${hit}»`);
    return (start > 0 ? "…" : "") + marked + (end < text.length ? "…" : "");
  }
  const first =
    texts
      .find((t) => t.trim())
      ?.trim()
      .split("\n")[0] ?? "";
  return first.slice(0, graphemeBoundary(first, 200, "down"));
}
