// The failures a restore block shows, read page by page. A block of 800 tokens holds a few dozen
// failure lines, while a project sees hundreds or thousands (its own and the global ones): the
// store finds the few that can be first (failureCandidates: an index's top few and a bounded set
// it cannot order, see src/store/failure-ranks.ts), they are ranked here (sortFailures, the same
// aged weights as ever), and text and links are read only for those, a page at a time. The block is
// built as with every failure read: wherever it would need a line not read yet it throws
// NeedMoreFailures, and is built again with more, so the text is the same byte for byte.
import { countTokens, knowCountWhenAsked, tokenLowerBound } from "./tokens.ts";
import { failureHead } from "./stored-tokens.ts";
import { inline } from "./layers.ts";
import { effectiveConfidence, sortFailures } from "../failures/graph.ts";
import type { FailureRank, FailureRecord, Queries } from "../../store/store.ts";

/** Failures in the block's order: how many there are, and the first `read.length` of them read in full. */
export interface RankedFailures {
  total: number;
  read: FailureRecord[];
  /** The unread failures whose item is one of these (null: every failure is read). */
  unreadWithItems: ((items: string[]) => Promise<FailureRank[]>) | null;
}

/** The block asked for a failure not read yet: read at least `count` of them and build it again. */
export class NeedMoreFailures {
  constructor(readonly count: number) {}
}

/**
 * Failures read in full before the block is first built. The block needs the lines it keeps plus
 * enough to know the rest cannot fit: 800 tokens' worth, ~30 lines of ~27 tokens in the benchmark's
 * projects; 48 lines suffice down to 17 tokens a line (the shortest lines measured are 14).
 */
export const FIRST_PAGE = 48;

function tags(f: FailureRank, now: Date): string {
  return [f.rejected_by, `×${f.repeat_count}`, effectiveConfidence(f, now), f.scope].join(", ");
}

export function failureLine(f: FailureRecord, now: Date): string {
  return failureHead(f) + failureTags(f, now) + failureTail(f);
}

/** The part of a failure line that changes with time (its confidence ages) and with each repeat. */
function failureTags(f: FailureRank, now: Date): string {
  return ` [${inline(tags(f, now))}`;
}

/** A failure line's end: what to do instead and the related items (kept apart from the failure's row). */
function failureTail(f: Pick<FailureRecord, "alternatives" | "related">): string {
  let tail = "]";
  if (f.alternatives.length) tail += ` → instead: ${f.alternatives.map(inline).join("; ")}`;
  if (f.related.length) tail += ` (related: ${f.related.map(inline).join(", ")})`;
  return tail;
}

/** What may end a failure line's head and its tags for their counts to add up (see countedFailureLine). */
const ENDS_HEAD = /\S$/u;
const ENDS_TAGS = /[\p{L}\p{N}]$/u;

/**
 * A failure's line, its count (with its newline, the part the block counts), when asked, taken as
 * its head's count stored with the failure (stored-tokens.ts) plus its tags' and tail's, counted
 * apart (few distinct tags, each counted once a process). Exact: cl100k's split never makes a piece across
 * the space before " [" when the head ends with a non-space, nor across the "]" when the tags end
 * with a letter or digit, and no run of one kind of character that tokens.ts cuts crosses either.
 */
export function countedFailureLine(f: FailureRecord, now: Date): string {
  const head = failureHead(f);
  const tags = failureTags(f, now);
  const tail = failureTail(f);
  const line = head + tags + tail;
  const stored = f.head_tokens;
  if (stored === null || stored === undefined || line.includes("\n")) return line;
  if (ENDS_HEAD.test(head) && ENDS_TAGS.test(tags))
    knowCountWhenAsked(`${line}\n`, () => stored + countTokens(tags) + countTokens(`${tail}\n`));
  return line;
}

/**
 * Whether the block with every failure is over `budget`, known from the lines read so far; throws
 * NeedMoreFailures when they cannot tell. Sound because a text's token count is the sum of its parts
 * cut after each newline followed by a non-space (countTokensWithin counts exactly so), and every
 * failure line starts with "- " and is followed by another failure line while any is unread: so
 * each read line, with its newline, is counted within the whole block exactly as on its own.
 */
export function allFailuresOver(f: RankedFailures, lines: (string | null)[], budget: number): boolean {
  if (f.read.length === f.total) return false;
  // The split's pieces first: when they alone are over, no line needs its exact count (the
  // lines past what the block keeps were counted only for this).
  let least = 0;
  for (let i = 0; i < f.read.length && least <= budget; i++) least += tokenLowerBound(`${lines[i]}\n`);
  if (least > budget) return true;
  let tokens = 0;
  for (let i = 0; i < f.read.length && tokens <= budget; i++) tokens += countTokens(`${lines[i]}\n`);
  if (tokens > budget) return true;
  throw new NeedMoreFailures(f.read.length * 2);
}

/**
 * The block lists (in RestoreBlock.failures) every failure whose line is one it kept, so an unread
 * failure whose line may equal a kept one (same item, then ": ", same tags) must be read first.
 */
export async function checkUnreadLines(f: RankedFailures, kept: string[], now: Date): Promise<void> {
  if (f.read.length === f.total || !f.unreadWithItems) return;
  // The items a line could start with: "- ITEM: …", cut at each ": " (an item may hold one too).
  const heads = new Set<string>();
  for (const line of kept) {
    if (line.startsWith("- "))
      for (let at = line.indexOf(": ", 2); at >= 0; at = line.indexOf(": ", at + 1))
        heads.add(line.slice(2, at));
  }
  if (!heads.size) return;
  for (const u of await f.unreadWithItems([...heads])) {
    const head = `- ${u.item}: `;
    const tail = ` [${tags(u, now)}]`;
    // Its place is not known: twice as many are read until it is among them.
    if (kept.some((line) => line.startsWith(head) && line.includes(tail)))
      throw new NeedMoreFailures(f.read.length * 2);
  }
}

/**
 * Builds with the project's failures (and the global ones) ranked, reading them in full page by
 * page while `build` asks for more. `everything`: all are read at once (a block without a budget).
 * `reader` must see one moment (Store.consistentRead): the count, the ranks and the pages are
 * separate reads.
 */
export async function withRankedFailures<T>(
  reader: Queries,
  projectId: string,
  now: Date,
  everything: boolean,
  build: (f: RankedFailures) => Promise<T>,
): Promise<T> {
  if (everything) {
    const all = sortFailures(await reader.listFailures(projectId), now);
    return build({ total: all.length, read: all, unreadWithItems: null });
  }
  const total = await reader.rankedFailureCount(projectId);
  const read: FailureRecord[] = [];
  const unreadWithItems = (items: string[]) =>
    reader.failuresWithItems(
      projectId,
      items,
      read.map((r) => r.id),
    );
  let want = Math.min(FIRST_PAGE, total);
  for (;;) {
    await readFirst(reader, projectId, now, want, read);
    try {
      return await build({ total, read, unreadWithItems });
    } catch (e) {
      if (!(e instanceof NeedMoreFailures)) throw e;
      if (read.length === total)
        throw new Error("The restore block asked for a failure past the last one.", { cause: e });
      // At least one more each time (read.length > 0 here), so this ends once all are read.
      want = Math.min(total, Math.max(e.count, read.length * 2));
    }
  }
}

/**
 * Reads in full the failures ranked from `read.length` up to `want`: the first `want` of the
 * store's candidates in the block's order (the same order for any `want`, so those read stay first).
 */
async function readFirst(
  reader: Queries,
  projectId: string,
  now: Date,
  want: number,
  read: FailureRecord[],
): Promise<void> {
  const ranked = sortFailures(await reader.failureCandidates(projectId, want, now.getTime()), now);
  if (ranked.length < want)
    throw new Error(`Only ${ranked.length} of the first ${want} failures were found.`);
  const page = ranked.slice(read.length, want);
  const byId = new Map((await reader.rankedFailuresInFull(page)).map((x) => [x.id, x]));
  for (const r of page) {
    const full = byId.get(r.id);
    if (!full) throw new Error(`Failure ${r.id} was ranked but cannot be read in the same transaction.`);
    read.push(full);
  }
}
