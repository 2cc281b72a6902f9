// Repeat warnings: a prompt (or a tool's input) matched against the project's and the global
// failure graph before the agent acts on it. The store's trigram index finds the failures that
// share a word with the text (failure-search.ts); each is then matched here on its normalised
// words: English words without their endings, Chinese as overlapping pairs of characters (it has
// no spaces). A failure matches when most of its item's words are in the text, or one of its
// related terms whole and none of its alternatives.
import type { Queries } from "../../store/queries.ts";
import type { FailureRecord } from "../../store/records.ts";

/** The most failures one warning names: more would bury the prompt. */
export const MAX_WARNINGS = 3;
/** Of a failure's item or related term, the share of words the text must hold (an item: two at least). */
const SHARE = 0.75;
/** A word of a related term this long also matches a longer one it begins ("tailwind" in "tailwindcss"). */
const PREFIX_CHARS = 5;

// Words that say nothing about an approach; a failure is never matched on them.
const STOP = new Set(
  (
    "the and for with from this that these those into onto over under then than when what which who why how " +
    "use using used uses again instead try tried trying let lets can could should would will not don dont " +
    "our you your all any some just also only still very more most make made need needs want wants please " +
    "file files code run runs running test tests thing things way ways one two does did done have has had " +
    "are was were been being get got set its it's there here about after before because"
  ).split(" "),
);

const CJK = /[\u3400-\u9fff\uf900-\ufaff]+/gu;
const WORD = /[\p{L}\p{N}_]+/gu;
// A command's option (`-f`, `--force`) is a word of its own: `git push -f` is not `git push`.
const FLAG = /(?<![\p{L}\p{N}_-])--?[a-z][a-z-]*/giu;

/** An English word without its common endings: "caching", "cached", "caches" → "cach". */
export function stem(word: string): string {
  const w = word.toLowerCase();
  for (const end of ["ations", "ation", "ings", "ing", "ies", "ied", "es", "ed", "s"])
    if (w.length - end.length >= 4 && w.endsWith(end)) return undouble(w.slice(0, -end.length));
  return w;
}

/** "formatt" (from "formatting") → "format": the stem of the word without its ending. */
const undouble = (w: string) =>
  /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ss|ll|zz)$/.test(w) ? w.slice(0, -1) : w;

/** A text's words as the matching compares them: English stems and Chinese character pairs. */
export function words(text: string): Set<string> {
  const out = new Set<string>();
  for (const run of text.match(CJK) ?? []) {
    const chars = [...run];
    if (chars.length === 1) continue;
    for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i] + chars[i + 1]);
  }
  for (const w of text.replace(CJK, " ").match(WORD) ?? []) {
    const s = stem(w);
    if ([...s].length >= 3 && !STOP.has(w.toLowerCase()) && !/^\d+$/.test(s)) out.add(s);
  }
  for (const flag of text.match(FLAG) ?? []) out.add(flag.toLowerCase());
  return out;
}

/** What the index is asked for: English stems (and their starts) and the text's Chinese runs in threes (its shortest term). */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  for (const run of text.match(CJK) ?? []) {
    const chars = [...run];
    for (let i = 0; i + 2 < chars.length; i++) terms.push(chars.slice(i, i + 3).join(""));
  }
  for (const w of words(text)) {
    if (/[\u3400-\u9fff\uf900-\ufaff]/u.test(w) || w.startsWith("-")) continue;
    terms.push(w);
    // A related term may be the start of the word ("tailwind" of "tailwindcss"): its first letters find it.
    if ([...w].length > PREFIX_CHARS) terms.push([...w].slice(0, PREFIX_CHARS).join(""));
  }
  return [...new Set(terms)].slice(0, 64);
}

/**
 * How many of `need` the text's words hold, and their share of `need`; with `prefixes`, a long
 * word of `need` is also held as the start of one (a related term's "tailwind" in "tailwindcss").
 */
export function heldShare(need: Set<string>, said: Set<string>, prefixes = false): [number, number] {
  let n = 0;
  for (const w of need)
    if (said.has(w) || (prefixes && [...w].length >= PREFIX_CHARS && [...said].some((s) => s.startsWith(w))))
      n++;
  return [n, need.size ? n / need.size : 0];
}

/** One of the related terms nearly whole in what was said (its words may be the start of longer ones). */
const namesRelated = (terms: string[], said: Set<string>) =>
  terms.some((t) => heldShare(words(t), said, true)[1] >= SHARE);

/** One of the alternatives nearly whole, two of its words at least (one word, "bun", says too little). */
const namesAlternative = (alternatives: string[], said: Set<string>) =>
  alternatives.some((a) => {
    const [n, share] = heldShare(words(a), said);
    return n >= 2 && share >= SHARE;
  });

/**
 * Whether a failure is about what the text proposes: its item nearly whole; or one of its related
 * terms, unless the text also names one of its alternatives (then it is about the alternative:
 * "sessions in a Postgres table, not Redis").
 */
export function failureMatches(
  f: Pick<FailureRecord, "item" | "related" | "alternatives">,
  said: Set<string>,
): boolean {
  const item = words(f.item);
  const [n, share] = heldShare(item, said);
  if (item.size === 1 ? n === 1 : n >= 2 && share >= SHARE) return true;
  return namesRelated(f.related, said) && !namesAlternative(f.alternatives, said);
}

/**
 * The failures `text` proposes again, best first, leaving out those already warned of (`warned`
 * ids); at most MAX_WARNINGS. Reads only the failures the index says share a word with the text.
 */
export async function repeatedFailures(
  reader: Queries,
  projectId: string | null,
  text: string,
  warned: ReadonlySet<string> = new Set(),
): Promise<FailureRecord[]> {
  const ids = (await reader.failuresMatching(projectId, searchTerms(text))).filter((id) => !warned.has(id));
  if (!ids.length) return [];
  const said = words(text);
  const byId = new Map((await reader.failuresByIds(ids)).map((f) => [f.id, f]));
  return ids
    .map((id) => byId.get(id))
    .filter((f): f is FailureRecord => !!f && !f.deleted && failureMatches(f, said))
    .slice(0, MAX_WARNINGS);
}

/** The warning put into the agent's context: what was tried, why it was rejected, how often, what instead. */
export function repeatWarning(failures: FailureRecord[]): string {
  const lines = [
    "MindSave repeat warning: this looks like an approach already tried and rejected here. Do not repeat it unless the user asks.",
  ];
  for (const f of failures) {
    const times = f.repeat_count === 1 ? "once" : `${f.repeat_count} times`;
    lines.push(`- Tried: ${f.item}. Rejected by ${f.rejected_by}, ${times}: ${f.reason}`);
    if (f.alternatives.length) lines.push(`  Instead: ${f.alternatives.join("; ")}`);
  }
  return lines.join("\n");
}
