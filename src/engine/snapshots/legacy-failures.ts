// Legacy failure lines (the spec's flat `excluded_paths`, `--failed`, MCP `failed`) read as
// failure-graph entries, as the spec writes them: "Don't use Tailwind — causes style conflict",
// "websocket reconnect failed 3 times, switched to polling", "不要用Redux：太重了".
import { normaliseItem } from "../failures/graph.ts";
import type { FailureGraphEntry } from "../../store/store.ts";

const NUMBER_WORDS: Record<string, number> = {
  once: 1,
  twice: 2,
  thrice: 3,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
  十: 10,
};
const COUNT = String.raw`(?:(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s*(?:times|x|tries|attempts)|[x×]\s*(\d+)|(once|twice|thrice))(?![a-z])`;
const ZH_COUNT = String.raw`(?:了|过)?\s*(\d+|[一二两三四五六七八九十])\s*[次遍回]`;
const CLAUSE_END = String.raw`(?=\s*(?:[,，;；.。]|$))`;
/** "tried SSR twice": the item sits between the verb and the count, which ends its clause ("tried it once more" is no count). */
const TRIED_FIRST = new RegExp(String.raw`^(?:tried|attempted|retried)\s+(.+?)\s+${COUNT}${CLAUSE_END}`, "i");
/** "X failed 3 times", "X failed" (at the end of its clause), "X失败了3次", "X试了两次". */
const FAILED = new RegExp(
  String.raw`\s*(?:\b(failed|tried|attempted|retried)\s+${COUNT}|\b(failed)${CLAUSE_END}|(失败|试|尝试|重试)${ZH_COUNT}|(失败)(?:了)?${CLAUSE_END})`,
  "i",
);
const ALTERNATIVES = [
  String.raw`(?:and\s+|so\s+|then\s+)?(?:switched|switching|switch|moved|moving|migrated|migrating|fell\s+back|falling\s+back|fall\s+back|went|going)\s+(?:back\s+|over\s+)?(?:to|with)\s+([^,;，；]+?)(?:\s+instead)?`,
  String.raw`(?:so\s+|then\s+)?(?:use|using|used|try|trying|went\s+with)\s+([^,;，；]+?)\s+instead`,
  String.raw`instead,?\s+(?:use|using|used)\s+([^,;，；]+?)`,
  String.raw`replaced\s+(?:it\s+|them\s+)?(?:with|by)\s+([^,;，；]+?)`,
].map(
  (src) =>
    new RegExp(String.raw`(?:^|\s*[,;]\s*|\s+[—–-]+\s+|\s+)${src}(?=\s*(?:[,;，；。]|\.(?:\s|$)|$))`, "gi"),
);
const ZH_ALTERNATIVES = [
  /[，,；;]?\s*(?:改用|换成|换用|改为|改成|切换到|切换为|转用|换到)\s*([^，,；;。]+)/g,
  /[，,；;]?\s*(?:用|使用)\s*([^，,；;。]+?)\s*(?:代替|替代)(?=[，,；;。]|$)/g,
];
/** "use Y instead of X", "用Y代替X": the whole line names the replacement first. */
const SWAPS = [
  /^(?:use|using|used|switched\s+to|switch\s+to|went\s+with)\s+(.+?)\s+(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+/i,
  /^(?:用|使用|改用)\s*(.+?)\s*(?:代替|替代|取代)\s*/,
];
const EDGES = /^[\s,，;；:：—–-]+|[\s,，;；:：—–.。-]+$/g;

/** The first group that is a count ("3", "twice", "两"). */
function countOf(m: RegExpExecArray): number | undefined {
  for (const g of m.slice(1)) {
    const n = g === undefined ? NaN : /^\d+$/.test(g) ? Number(g) : (NUMBER_WORDS[g.toLowerCase()] ?? NaN);
    if (n > 0) return n;
  }
  return undefined;
}

/**
 * A legacy line as a failure: the item (its leading "don't use"/"tried"/不要用 removed), why it
 * failed, how often ("3 times", "twice", "3x", "失败了3次" → repeat_count) and what replaced it
 * ("switched to polling", "use Y instead", "改用Y" → alternatives).
 */
export function legacyExcludedPath(line: string): { item: string; entry: FailureGraphEntry } {
  const alternatives: string[] = [];
  let rest = line.trim();
  for (const re of SWAPS) {
    const m = re.exec(rest);
    if (m && m[0].length < rest.length) {
      alternatives.push(m[1].replace(EDGES, ""));
      rest = rest.slice(m[0].length);
    }
  }
  for (const re of [...ALTERNATIVES, ...ZH_ALTERNATIVES]) {
    rest = rest.replace(re, (_m, alt: string) => {
      const a = alt.replace(EDGES, "");
      if (a && !alternatives.includes(a)) alternatives.push(a);
      return "";
    });
  }
  rest = rest.replace(EDGES, "") || line.trim();

  let item: string;
  let reason: string;
  let failure = "";
  let tried = "";
  let repeat: number | undefined;
  const first = TRIED_FIRST.exec(rest);
  if (first) {
    // "tried SSR twice, too slow"
    item = first[1];
    repeat = countOf(first);
    tried = first[0].replace(first[1], "").replace(/\s+/g, " ").trim();
    reason = rest.slice(first[0].length).replace(EDGES, "");
  } else {
    const sep = /\s+[—–-]{1,2}\s+|:\s+|;\s+|,?\s+because\s+|[,，]?\s*因为\s*|[：；]\s*/i.exec(rest);
    item = (sep ? rest.slice(0, sep.index) : rest).trim();
    reason = sep ? rest.slice(sep.index + sep[0].length).trim() : "";
    const fail = FAILED.exec(item);
    if (fail && fail.index > 0) {
      // "websocket reconnect failed 3 times behind the proxy": the item, then what happened.
      const phrase = fail[0].trim();
      const after = item.slice(fail.index + fail[0].length).replace(EDGES, "");
      item = item.slice(0, fail.index);
      repeat = countOf(fail);
      if (/^(?:failed|失败)/i.test(phrase)) failure = [phrase, after].filter(Boolean).join(" ");
      else {
        tried = phrase;
        reason = [after, reason].filter(Boolean).join(": ");
      }
    } else {
      // "Redis cache — failed twice": the count is in the reason, which stays as written.
      const inReason = FAILED.exec(reason);
      if (inReason) repeat = countOf(inReason);
    }
  }
  item =
    item
      .replace(EDGES, "")
      .replace(
        /^(?:don'?t|do not|never|avoid|no longer|stop)\s+(?:use|using|try|trying)?\s*|^no\s+|^(?:tried|attempted)\s+|^(?:不要|别|禁止|避免|不)(?:用|使用|再用)?/i,
        "",
      )
      .trim() || line.trim();
  const entry: FailureGraphEntry = {
    rejected_by: "system",
    reason: [failure, reason].filter(Boolean).join(": ") || tried || "(no reason recorded)",
  };
  if (repeat !== undefined) entry.repeat_count = repeat;
  if (alternatives.length) entry.alternatives = alternatives;
  return { item, entry };
}

/**
 * The failure graph with the legacy lines added. A line whose item a failure already names is kept
 * under its whole text, so no two are merged into one; only a line that repeats one is left out.
 */
export function withLegacyFailures(
  graph: Record<string, FailureGraphEntry>,
  lines: string[],
  warn: (message: string) => void,
): Record<string, FailureGraphEntry> {
  const out = { ...graph };
  for (const line of lines) {
    const { item, entry } = legacyExcludedPath(line);
    const taken = new Set(Object.keys(out).map(normaliseItem));
    const key = [item, line.trim()].find((k) => !taken.has(normaliseItem(k)));
    if (key === undefined) warn(`Failure "${line.trim()}" was left out: it repeats the failure "${item}".`);
    else out[key] = entry;
  }
  return out;
}
