// Recall: a snapshot's cold archive (Layer 3), or a search over every snapshot's layers.
import { UserError } from "../../errors.ts";
import { trimLines } from "../../lib/text.ts";
import { yaml } from "./layers.ts";
import { selectSnapshot } from "./select.ts";
import { listProjects } from "../projects/projects.ts";
import type { RetirementRecord, SearchHit, SnapshotRecord } from "../../store/store.ts";
import type { Session } from "../session.ts";
import { requireProject } from "../projects/resolve.ts";

/** Splits what the user typed into search terms; quotes group words into one phrase. */
export function searchTerms(words: string[]): string[] {
  const line = words.join(" ").normalize("NFC");
  const terms: string[] = [];
  const re = /"([^"]+)"|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    const t = (m[1] ?? m[2]).trim();
    if (t) terms.push(t);
  }
  // An unbalanced quote is searched for literally, not treated as syntax.
  return terms.length ? terms : line.trim() ? [line.trim()] : [];
}

export interface SearchResult {
  hits: SearchHit[];
  /** More snapshots match than `limit`. */
  more: boolean;
}

/**
 * Snapshots matching every term, newest first (archived ones too, unless `listed`); each hit's
 * context has its line breaks as " · ".
 */
export async function search(
  session: Session,
  projectId: string | null,
  words: string[],
  limit = 20,
  filter: { tag?: string; listed?: boolean } = {},
): Promise<SearchResult> {
  const terms = searchTerms(words);
  if (!terms.length) return { hits: [], more: false };
  const rows = await session.store.searchSnapshots(projectId, terms, limit + 1, filter);
  const hits = rows.slice(0, limit).map((h) => ({
    ...h,
    context: h.context
      .replace(/\s*\n+\s*/g, " · ")
      .replace(/\s+/g, " ")
      .trim()
      .replace(/^(?:· )+|(?: ·)+$/g, ""),
  }));
  return { hits, more: rows.length > limit };
}

/** The cold archive as shown to a person or agent: the markdown body plus fields kept aside. */
export function layer3Text(s: SnapshotRecord): string {
  const parts: string[] = [];
  if (s.layer3.trim()) parts.push(trimLines(s.layer3));
  if (s.extra && Object.keys(s.extra).length) parts.push("### Other Fields\n" + yaml(s.extra));
  const original = s.compressed?.original_constraints as string[] | undefined;
  if (original?.length)
    parts.push("### Constraints Before Compression\n" + original.map((c) => `- ${c}`).join("\n"));
  return parts.join("\n\n");
}

export interface RecallHits extends SearchResult {
  query: string;
  /** The project searched, or null for every project (then each hit has its project_name). */
  project: string | null;
  hits: (SearchHit & { project_name?: string })[];
  /** Retired constraints and decisions matching the query (this project only). */
  retired: RetirementRecord[];
  /** The tag the hits were filtered by; `carried`: false when no snapshot of the project has it. */
  tag?: { name: string; carried: boolean };
}

/** The recall use case with keywords: this project's snapshots, or every project's. */
export async function recallSearch(
  session: Session,
  words: string[],
  opts: { allProjects?: boolean; limit?: number; tag?: string; nextSteps?: () => Promise<string> } = {},
): Promise<RecallHits> {
  const ctx = opts.allProjects ? null : await requireProject(session, opts.nextSteps);
  const { hits, more } = await search(session, ctx?.project.id ?? null, words, opts.limit ?? 20, {
    tag: opts.tag,
  });
  const query = words.join(" ");
  // Retired items stay searchable: the retirement says who retired it and when.
  const retired = ctx ? await retiredMatching(session, ctx.project.id, words) : [];
  const tag =
    opts.tag === undefined ? {} : { tag: await tagCarried(session, ctx, opts.tag, hits.length > 0) };
  if (ctx) return { query, project: ctx.project.name, hits, more, retired, ...tag };
  const names = new Map((await listProjects(session)).map((p) => [p.id, p.name]));
  return {
    query,
    project: null,
    hits: hits.map((h) => ({ ...h, project_name: names.get(h.project_id) ?? h.project_id })),
    more,
    retired,
    ...tag,
  };
}

/** Whether any snapshot carries the tag: counted only when nothing matched, to say which of the two. */
async function tagCarried(
  session: Session,
  ctx: { project: { id: string } } | null,
  name: string,
  hit: boolean,
): Promise<{ name: string; carried: boolean }> {
  if (hit || !ctx) return { name, carried: true };
  return { name, carried: (await session.store.countSnapshots(ctx.project.id, { tag: name })) > 0 };
}

/** Retirements whose text has every search term (case folded). */
async function retiredMatching(
  session: Session,
  projectId: string,
  words: string[],
): Promise<RetirementRecord[]> {
  const terms = searchTerms(words).map((t) => t.toLowerCase());
  if (!terms.length) return [];
  return (await session.store.listRetirements(projectId)).filter((r) =>
    terms.every((t) => r.text.normalize("NFC").toLowerCase().includes(t)),
  );
}

/**
 * The recall use case without keywords: one snapshot's cold archive (default: the newest that has
 * one; `newest` then names the newest snapshot when it has none, so the reader is told). `tag`: the
 * newest of the snapshots carrying it; with none, or with `key` too, a refusal (never another's archive).
 */
export async function recallArchive(
  session: Session,
  opts: { key?: string; tag?: string; allProjects?: boolean; nextSteps?: () => Promise<string> } = {},
): Promise<{ snapshot: SnapshotRecord; text: string; newest?: string }> {
  // A cold archive is one project's: never this project's when every project's was asked for.
  if (opts.allProjects)
    throw new UserError(
      "--all-projects searches every project for a keyword; without one, recall shows this project's cold archive: give a keyword, or leave --all-projects out.",
    );
  const ctx = await requireProject(session, opts.nextSteps);
  if (opts.key !== undefined && opts.tag !== undefined)
    throw new UserError("--tag chooses among the snapshots and --snapshot names one: give only one of them.");
  const choice = opts.key === undefined ? await newestArchive(session, ctx.project, opts.tag) : {};
  const sel = await selectSnapshot(session, ctx.project.id, opts.key ?? choice.id, { latest: true });
  if (sel.kind !== "snapshot") throw new UserError(`No snapshots in project ${ctx.project.name} yet.`);
  const newest = choice.passedOver;
  return { snapshot: sel.snapshot, text: layer3Text(sel.snapshot), ...(newest ? { newest } : {}) };
}

/**
 * Whose archive a bare recall shows: the newest (tagged) snapshot that has one, and the name of the
 * newest one passed over for lacking it. Automatic checkpoints often have no Layer 3. Two reads of
 * the newest rows, never a list of the project's every snapshot.
 */
async function newestArchive(
  session: Session,
  project: { id: string; name: string },
  tag: string | undefined,
): Promise<{ id?: string; passedOver?: string }> {
  const filter = tag === undefined ? {} : { tag };
  const [top] = await session.store.listSnapshots(project.id, { ...filter, limit: 1 });
  if (!top && tag !== undefined)
    throw new UserError(`No snapshot of ${project.name} is tagged ${JSON.stringify(tag)}.`);
  if (!top || top.has_layer3) return { id: top?.id };
  const [withArchive] = await session.store.listSnapshots(project.id, {
    ...filter,
    withLayer3: true,
    limit: 1,
  });
  // None with an archive: untagged, the latest (selectSnapshot's own choice); tagged, the newest tagged.
  if (!withArchive) return { id: tag === undefined ? undefined : top.id };
  return { id: withArchive.id, passedOver: top.name };
}
