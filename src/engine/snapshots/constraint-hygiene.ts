// Constraint hygiene, run on every save (not only when Layer 2 is over its budget):
//   - duplicates that differ only in case, spacing, closing punctuation or contractions ("No new
//     dependencies." / "no new dependencies", "don't" / "do not") fold into their first wording,
//     and the save says which it left out;
//   - constraints that contradict each other are flagged, both kept as written, never merged.
//
// The contradiction rule. A clause is read as preferring an object ("use/prefer/always X",
// 用/使用/优先X) or rejecting one ("don't/never/avoid/no X", "X is banned", 不要/别/禁止/避免/不用X;
// in "use X instead of Y" / "prefer X over Y" / 用X代替Y, Y is rejected). Two different constraints
// contradict when one rejects an object whose content words (function words dropped, plurals
// folded; Chinese text compared as substrings) all appear in an object the other prefers: the
// rejection is at least as broad as the preference. "don't use Redis" ↔ "use Redis for sessions"
// is flagged; "don't use Redis for sessions" next to "use Redis" is a scoped exception, and "use
// tabs in Makefiles" next to "never use tabs in TypeScript" are two scopes: neither is flagged.
// Subjects the rule table knows (Tailwind, JWT, sessions…) are also compared through their
// canonical labels across languages, when the rejecting text names nothing but its subjects.
import { CJK_FILLERS, COMPRESSION_RULES, GENERIC_POLARITY as G } from "./compression-rules.ts";
import { type Analysis, CJK, analyze, escapeRe, normalize, splitReason } from "./constraint-analysis.ts";
import { trimValue } from "../../lib/text.ts";

export interface ConstraintConflict {
  /** The rule table's category, or "general" for an object the table does not know. */
  category: string;
  subject: string;
  /** The original texts, unchanged. */
  rejected_by: string;
  preferred_by: string;
}

export interface HygieneResult {
  /** Folded (first wording kept), in input order; nothing but exact and near duplicates removed. */
  constraints: string[];
  folded: { kept: string; dropped: string }[];
  conflicts: ConstraintConflict[];
}

// ---------------------------------------------------------------------------------------------
// Duplicates

/** "don't" → "do not", "can't"/"cannot" → "can not", "won't" → "will not". */
function expandContractions(t: string): string {
  return t
    .replace(/\bcan't\b|\bcannot\b/g, "can not")
    .replace(/\bwon't\b/g, "will not")
    .replace(/\b([a-z]+)n't\b/g, "$1 not")
    .replace(/\bdont\b/g, "do not");
}

const CJK_SPACE = new RegExp(`\\s+(?=[${CJK}])|(?<=[${CJK}])\\s+`, "g");

/**
 * The form two constraints are compared in: case, spacing, a sentence's closing punctuation,
 * code backticks, a hyphen between words ("utility-first"), contractions and 使用/用. Nothing
 * else: a symbol can be the whole meaning ("^4.17" / "~4.17", "===" / "!==", "API_URL" /
 * "api-url", "x²" / "x2"), so texts that differ in one are two constraints.
 */
export function constraintKey(text: string): string {
  const key = expandContractions(
    text
      .normalize("NFC")
      .replace(/[\u2018\u2019\u02bc]/g, "'")
      .toLowerCase(),
  )
    .replace(/使用/g, "用")
    .replace(/`/g, "")
    .replace(/(?<=\p{L})-(?=\p{L})/gu, " ")
    .replace(/[\s.!?;:,。！？；：，、…]+$/u, "")
    .replace(/\s+/g, " ")
    .replace(CJK_SPACE, "")
    .trim();
  return key || text.trim();
}

/** Drops empty texts and folds duplicates into the first wording, in input order. */
export function foldDuplicates(texts: Iterable<string>): {
  kept: string[];
  folded: { kept: string; dropped: string }[];
} {
  const first = new Map<string, string>();
  const folded: { kept: string; dropped: string }[] = [];
  for (const raw of texts) {
    if (typeof raw !== "string") continue;
    const text = trimValue(raw);
    if (!text) continue;
    const key = constraintKey(text);
    const had = first.get(key);
    if (had === undefined) first.set(key, text);
    else folded.push({ kept: had, dropped: text });
  }
  return { kept: [...first.values()], folded };
}

// ---------------------------------------------------------------------------------------------
// Generic polarity

const alt = (words: readonly string[]) =>
  [...words]
    .sort((a, b) => b.length - a.length)
    .map((w) => escapeRe(w).replace(/ /g, "\\s+"))
    .join("|");

const LEAD = `(?:(?:${alt(G.lead)})\\s+)*`;
const EN_NEG = new RegExp(
  `^${LEAD}(?:${alt(G.neg)})(?:\\s+(?:ever|again))?(?:\\s+(?:${alt(G.negVerb)}))?\\s+(.+)$`,
);
const EN_POS = new RegExp(`^${LEAD}(?:(?:${alt(G.posLead)})\\s+)*(${alt(G.pos)})\\s+(.+)$`);
const EN_ALWAYS = new RegExp(`^${LEAD}(?:${alt(G.always)})\\s+(.+)$`);
const EN_TAIL = new RegExp(`^(.+?)\\s+(?:is|are)\\s+(?:${alt(G.negTail)})$`);
const CJK_LEAD = `(?:${alt(G.cjkLead)})*`;
const CJK_VERB = `(?:${alt(G.cjkVerb)})`;
// "用户", "用于", "用途", "用法" are not the verb "use".
const CJK_USE = `${CJK_VERB}(?![户于途法])`;
const CJK_NEG = new RegExp(`^${CJK_LEAD}(?:(?:${alt(G.cjkNeg)})再?(?:${CJK_USE})?|不${CJK_USE})\\s*(.+)$`);
const CJK_POS = new RegExp(`^${CJK_LEAD}(?:(?:${alt(G.cjkPosLead)})*${CJK_USE}|优先)\\s*(.+)$`);
const CJK_ALWAYS = new RegExp(`^${CJK_LEAD}(?:${alt(G.cjkAlways)})\\s*(.+)$`);
const CONTRAST = new RegExp(`\\s+(?:${alt(G.contrast)})\\s+|\\s*(?:${alt(G.cjkContrast)})\\s*`);
const OVER = /\s+over\s+/;
const PREFER = new Set<string>(G.preferVerbs);
const ENUMERATION = new RegExp(G.enumeration.map((e) => escapeRe(e).replace(/ /g, "\\s+")).join("|"));
const CLAUSE_SEP = new RegExp(
  `[,;!?。:\\n()\\[\\]，；：！？]|\\.(?=\\s|$)|\\s[—–-]+\\s|(?<![a-z])(?:but|however|although|though)(?![a-z])|但是|但|而是|然而|不过`,
);
const FUNCTION_WORDS = new Set<string>(G.functionWords);
const CJK_RUN = new RegExp(`[${CJK}]+`, "g");
const FILLERS = [...CJK_FILLERS].sort((a, b) => b.length - a.length);

interface ObjectWords {
  text: string;
  /** Content words (function words dropped), plurals folded. */
  words: Set<string>;
  /** Every word, plurals folded. */
  all: Set<string>;
  /** Chinese runs, fillers removed. */
  cjk: string[];
  /** All the Chinese text of the object, fillers removed, for substring tests. */
  flat: string;
}

interface Statement {
  negated: boolean;
  object: ObjectWords;
}

function stem(w: string): string {
  if (w.length <= 3) return w;
  if (w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (/(?:s|x|z|ch|sh)es$/.test(w)) return w.slice(0, -2);
  if (/[^su]s$/.test(w) && !w.endsWith("is")) return w.slice(0, -1);
  return w;
}

const stripFillers = (run: string) => FILLERS.reduce((r, f) => r.split(f).join(""), run);

function objectWords(raw: string): ObjectWords | null {
  const text = raw.trim().replace(/\s+/g, " ");
  const all = (text.match(/[a-z0-9_\u00c0-\u024f][a-z0-9_\u00c0-\u024f.+#/']*/g) ?? []).map((w) =>
    w.replace(/[./']+$/, ""),
  );
  const content = all.filter((w) => !FUNCTION_WORDS.has(w));
  // Only function words ("don't use any"): then the words themselves are the object.
  const words = new Set((content.length ? content : all).map(stem));
  const cjk = (text.match(CJK_RUN) ?? []).map(stripFillers).filter(Boolean);
  if (!words.size && !cjk.length) return null;
  return { text, words, all: new Set(all.map(stem)), cjk, flat: cjk.join("\u0000") };
}

function statementsOf(clause: string): Statement[] {
  const out: Statement[] = [];
  const add = (negated: boolean, text: string) => {
    for (const part of negated ? text.split(ENUMERATION) : [text]) {
      const object = objectWords(part);
      if (object) out.push({ negated, object });
    }
  };
  const neg = EN_NEG.exec(clause) ?? CJK_NEG.exec(clause) ?? EN_TAIL.exec(clause);
  if (neg) {
    add(true, neg[1]);
    return out;
  }
  const pos = EN_POS.exec(clause);
  const verb = pos?.[1].replace(/\s+/g, " ");
  const object = pos?.[2] ?? (CJK_POS.exec(clause) ?? EN_ALWAYS.exec(clause) ?? CJK_ALWAYS.exec(clause))?.[1];
  if (object === undefined) return out;
  // "use X instead of Y", "prefer X over Y", "用X代替Y": X preferred, Y rejected.
  const contrast = CONTRAST.exec(object) ?? (verb && PREFER.has(verb) ? OVER.exec(object) : null);
  add(false, contrast ? object.slice(0, contrast.index) : object);
  if (contrast) add(true, object.slice(contrast.index + contrast[0].length));
  return out;
}

/** The preferred and rejected objects of one constraint, in order. */
export function readStatements(text: string): Statement[] {
  const head = expandContractions(normalize(splitReason(text).head));
  return head
    .split(CLAUSE_SEP)
    .map((c) => c.trim())
    .filter(Boolean)
    .flatMap(statementsOf);
}

/** The rejected object is at least as broad as the preferred one: all its content is in it. */
function covers(rejected: ObjectWords, preferred: ObjectWords): boolean {
  for (const w of rejected.words) if (!preferred.all.has(w)) return false;
  return rejected.cjk.every((run) => preferred.flat.includes(run));
}

// ---------------------------------------------------------------------------------------------
// Contradictions

/**
 * Contradicting pairs among different constraints, by the rule table's subjects and by generic
 * polarity, and the indices of every text involved (the compressor keeps those verbatim).
 */
export function findContradictions(items: readonly Analysis[]): {
  conflicts: ConstraintConflict[];
  pinned: Set<number>;
} {
  const found: { r: number; p: number; conflict: ConstraintConflict }[] = [];
  const pairs = new Set<string>();
  const pair = (a: number, b: number) => `${Math.min(a, b)}:${Math.max(a, b)}`;

  // Table subjects, through canonical labels (Tailwind = 不要用Tailwind's Tailwind). A rejection
  // that says more than its subjects ("no Tailwind in the admin panel") is a scope, not a conflict.
  const votes = new Map<string, { rule: number; label: string; rejected: number[]; preferred: number[] }>();
  items.forEach((a, i) => {
    for (const [rule, labels] of a.subjects) {
      for (const [label, pol] of labels) {
        const key = `${rule}\u0000${label}`;
        let v = votes.get(key);
        if (!v) votes.set(key, (v = { rule, label, rejected: [], preferred: [] }));
        v[pol].push(i);
      }
    }
  });
  for (const v of votes.values()) {
    for (const r of v.rejected) {
      if (!items[r].foldable) continue;
      for (const p of v.preferred) {
        found.push({
          r,
          p,
          conflict: {
            category: COMPRESSION_RULES[v.rule].category,
            subject: v.label,
            rejected_by: items[r].text,
            preferred_by: items[p].text,
          },
        });
        pairs.add(pair(r, p));
      }
    }
  }

  // Generic polarity, for any object.
  const statements = items.map((a) => readStatements(a.text));
  statements.forEach((mine, r) => {
    for (const n of mine.filter((s) => s.negated)) {
      statements.forEach((theirs, p) => {
        if (p === r || pairs.has(pair(r, p))) return;
        if (!theirs.some((s) => !s.negated && covers(n.object, s.object))) return;
        found.push({
          r,
          p,
          conflict: {
            category: "general",
            subject: n.object.text,
            rejected_by: items[r].text,
            preferred_by: items[p].text,
          },
        });
        pairs.add(pair(r, p));
      });
    }
  });

  // In the order the texts were given.
  const order = (x: { r: number; p: number }) => [Math.min(x.r, x.p), Math.max(x.r, x.p)];
  found.sort((a, b) => order(a)[0] - order(b)[0] || order(a)[1] - order(b)[1]);
  const pinned = new Set<number>();
  for (const f of found) pinned.add(f.r).add(f.p);
  return { conflicts: found.map((f) => f.conflict), pinned };
}

/** The hygiene of one snapshot's constraints: duplicates folded, contradictions found. */
export function constraintHygiene(texts: Iterable<string>): HygieneResult {
  const { kept, folded } = foldDuplicates(texts);
  return { constraints: kept, folded, conflicts: findContradictions(kept.map(analyze)).conflicts };
}
