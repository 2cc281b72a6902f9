// Text analysis for the Constraint Compression Engine: tokenizing a constraint, reading the
// polarity of each mention, and deciding whether the text can fold into a symbolic entry.
import {
  CJK_FILLERS,
  COMPRESSION_RULES,
  MARKERS,
  STOPWORDS,
  type MarkerKind,
  type RuleKeyword,
} from "./compression-rules.ts";

// ---------------------------------------------------------------------------------------------
// Matching

/** The CJK ranges, as the inside of a character class. */
export const CJK = "\\u3040-\\u30ff\\u3400-\\u9fff\\uf900-\\ufaff";
export const CJK_RE = new RegExp(`[${CJK}]`);
const CJK_RUN = new RegExp(`[${CJK}]+`, "g");
// ASCII-only word class on purpose: next to a CJK character an English keyword still stands
// on its own ("使用JWT认证").
const WORD = "a-z0-9_\\u00c0-\\u024f";

export const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

function pluralize(part: string): string {
  if (/[^aeiou]y$/.test(part)) return `${part.slice(0, -1)}(?:y|ies)`;
  if (/(?:s|x|sh|ch)$/.test(part)) return `${part}(?:es)?`;
  return `${part}s?`;
}

function termRegex(term: string, plural: boolean): RegExp {
  const t = normalize(term);
  if (CJK_RE.test(t)) {
    // Mixed input often puts a space where Latin meets CJK ("CSS 变量").
    let src = "";
    const chars = [...t];
    chars.forEach((c, i) => {
      if (i > 0 && CJK_RE.test(c) !== CJK_RE.test(chars[i - 1])) src += "\\s*";
      src += escapeRe(c);
    });
    return new RegExp(src, "g");
  }
  const parts = t
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map(escapeRe);
  if (plural) parts[parts.length - 1] = pluralize(parts[parts.length - 1]);
  return new RegExp(`(?<![${WORD}])${parts.join("[\\s_-]*")}(?![${WORD}])`, "g");
}

/** The form all matching works on; the caller's text is never rewritten. */
export function normalize(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .toLowerCase();
}

interface CompiledTerm {
  re: RegExp;
  rule: number;
  keyword: RuleKeyword;
}
interface CompiledMarker {
  re: RegExp;
  kind: MarkerKind;
}

// Compiled on first use, not when the module loads: `load` imports this module but rarely analyses.
let compiled: { terms: CompiledTerm[]; markers: CompiledMarker[] } | null = null;
function compiledRules() {
  return (compiled ??= {
    terms: COMPRESSION_RULES.flatMap((rule, ri) =>
      rule.keywords.map((keyword) => ({ re: termRegex(keyword.term, true), rule: ri, keyword })),
    ),
    markers: MARKERS.flatMap(([kind, words]) => words.map((w) => ({ re: termRegex(w, false), kind }))),
  });
}
// "," may be an enumeration ("no tailwind, bootstrap or mui"); the others always end a clause.
const SOFT_SEP = /,/g;
const HARD_SEP = new RegExp(
  `[;!?。:\\n()\\[\\]]|\\.(?=\\s|$)|(?<![${WORD}])(?:but|however|although|though)(?![${WORD}])|但是|但|而是|然而|不过`,
  "g",
);

type Token =
  | { start: number; end: number; type: "mention"; rule: number; keyword: RuleKeyword }
  | { start: number; end: number; type: "marker"; kind: MarkerKind }
  | { start: number; end: number; type: "sep"; soft: boolean };

function guardRejects(text: string, start: number, end: number, k: RuleKeyword): boolean {
  const word = (w: string) => escapeRe(normalize(w));
  if (
    k.notBefore?.length &&
    new RegExp(`(?:^|[^${WORD}])(?:${k.notBefore.map(word).join("|")})\\s+$`).test(text.slice(0, start))
  )
    return true;
  if (
    k.notAfter?.length &&
    new RegExp(`^\\s+(?:${k.notAfter.map(word).join("|")})(?![${WORD}])`).test(text.slice(end))
  )
    return true;
  return false;
}

/** Leftmost-longest, non-overlapping tokens: "不要用" is a negation, not "要" + "用". */
function tokenize(text: string): Token[] {
  const found: Token[] = [];
  for (const t of compiledRules().terms) {
    for (const m of text.matchAll(t.re)) {
      const start = m.index!,
        end = start + m[0].length;
      if (!guardRejects(text, start, end, t.keyword))
        found.push({ start, end, type: "mention", rule: t.rule, keyword: t.keyword });
    }
  }
  for (const mk of compiledRules().markers) {
    for (const m of text.matchAll(mk.re))
      found.push({ start: m.index!, end: m.index! + m[0].length, type: "marker", kind: mk.kind });
  }
  for (const [re, soft] of [
    [SOFT_SEP, true],
    [HARD_SEP, false],
  ] as const) {
    for (const m of text.matchAll(re))
      found.push({ start: m.index!, end: m.index! + m[0].length, type: "sep", soft });
  }
  const rank = { sep: 0, mention: 1, marker: 2 } as const;
  found.sort(
    (a, b) => a.start - b.start || b.end - b.start - (a.end - a.start) || rank[a.type] - rank[b.type],
  );
  const out: Token[] = [];
  let last = 0;
  for (const t of found)
    if (t.start >= last && t.end > t.start) {
      out.push(t);
      last = t.end;
    }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading one constraint

type Polarity = "preferred" | "rejected";

export interface Analysis {
  text: string;
  reason?: string;
  /** rule index → label → polarity, in order of mention. */
  subjects: Map<number, Map<string, Polarity>>;
  /** The same subject is both preferred and rejected inside this one text (a scoped statement). */
  ambiguous: boolean;
  /** Nothing but markers, keywords and filler: the symbolic entry says all the text says. */
  foldable: boolean;
}

const REASON_DASH = /\s+(?:--?|[—–])\s+|\s*[—–]\s*/;
const REASON_WORD =
  /(?:\s*[,，;；]\s*|\s+|(?<=[\u3400-\u9fff]))(?:because of|because|due to)(?![a-z])\s*|\s*[,，;；]?\s*(?:因为|由于|原因是|原因[:：])\s*/i;

/** "no tailwind — causes style conflict" → the constraint and its reason ("because", "因为", a dash). */
export function splitReason(text: string): { head: string; reason?: string } {
  let best: RegExpExecArray | null = null;
  for (const re of [REASON_DASH, REASON_WORD]) {
    const m = re.exec(text);
    if (m && (!best || m.index < best.index)) best = m;
  }
  if (!best) return { head: text };
  const head = text.slice(0, best.index).replace(/[\s,，;；:：]+$/, "");
  const reason = text
    .slice(best.index + best[0].length)
    .trim()
    .replace(/[\s.。!！]+$/, "");
  return head && reason ? { head, reason } : { head: text };
}

interface Mention {
  rule: number;
  keyword: RuleKeyword;
  polarity: Polarity;
  uncertain?: boolean;
}

interface Clause {
  mentions: Mention[];
  bare: boolean;
  softBefore: boolean;
  conjunction: boolean;
}

/** Where the reading of one clause stands: the polarity its markers set and the mentions they reach. */
interface ClauseReading {
  state: Polarity | null;
  mentionSinceMarker: boolean;
  hasMarker: boolean;
  /** Mentions before any marker: a later switch ("X to Y") rejects them. */
  unmarked: Mention[];
  /** Mentions a trailing negation rejects when nothing follows it ("X is banned"). */
  pendingBack: Mention[] | null;
  /** Verbs seen ("from", "replace", "prefer"): the words that complete them count from here on. */
  enabled: Set<MarkerKind>;
}

function readPolarities(
  text: string,
  tokens: Token[],
): { mentions: Mention[]; consumed: [number, number][]; uncertain: boolean } {
  const clauses: Clause[] = [];
  const consumed: [number, number][] = [];
  let softBefore = false;
  for (let i = 0; i <= tokens.length;) {
    // One clause: tokens up to the next separator.
    let j = i;
    while (j < tokens.length && tokens[j].type !== "sep") j++;
    const clauseText = text.slice(
      i > 0 ? tokens[i - 1].end : 0,
      j < tokens.length ? tokens[j].start : text.length,
    );
    clauses.push(readClause(clauseText, tokens.slice(i, j), softBefore, consumed));
    if (j < tokens.length) {
      const sep = tokens[j] as Extract<Token, { type: "sep" }>;
      softBefore = sep.soft;
      consumed.push([sep.start, sep.end]);
    }
    i = j + 1;
  }
  const uncertain = listsAfterNegation(clauses);
  return { mentions: clauses.flatMap((cl) => cl.mentions), consumed, uncertain };
}

/** One clause's mentions with their polarity; the spans of its mentions and markers go to `consumed`. */
function readClause(
  clauseText: string,
  tokens: Token[],
  softBefore: boolean,
  consumed: [number, number][],
): Clause {
  const inClause: Mention[] = [];
  const r: ClauseReading = {
    state: null,
    mentionSinceMarker: false,
    hasMarker: false,
    unmarked: [],
    pendingBack: null,
    enabled: new Set(),
  };
  for (const t of tokens) {
    if (t.type === "mention") {
      // No marker yet: a constraint states what holds, so a plain mention is a preference.
      const m: Mention = { rule: t.rule, keyword: t.keyword, polarity: r.state ?? "preferred" };
      if (r.state === null) r.unmarked.push(m);
      inClause.push(m);
      consumed.push([t.start, t.end]);
      r.mentionSinceMarker = true;
      r.pendingBack = null;
      continue;
    }
    if (t.type !== "marker") continue;
    const kind = markerKindHere(t.kind, r.enabled);
    if (!kind) continue;
    consumed.push([t.start, t.end]);
    applyMarker(r, kind);
  }
  if (r.pendingBack) for (const m of r.pendingBack) m.polarity = "rejected";
  return {
    mentions: inClause,
    // Chinese writes lists with "、", so a clause containing CJK is never a bare list item.
    bare: !r.hasMarker && inClause.length > 0 && !CJK_RE.test(clauseText),
    softBefore,
    conjunction: /(?<![a-z0-9])(?:or|nor|and)(?![a-z0-9])|&/.test(clauseText),
  };
}

/** A context word ("to", "with", "over") is a marker only after the verb it completes; else null. */
function markerKindHere(kind: MarkerKind, enabled: Set<MarkerKind>): MarkerKind | null {
  if (kind === "ctx_to") return enabled.has("from") ? "switch" : null;
  if (kind === "ctx_with") return enabled.has("replace") ? "switch" : null;
  if (kind === "ctx_over") return enabled.has("prefer") ? "contrast" : null;
  return kind;
}

/** A marker read: the polarity it sets for what follows, and what it does to mentions before it. */
function applyMarker(r: ClauseReading, kind: MarkerKind): void {
  r.hasMarker = true;
  // A verb right after a negation belongs to it: "don't use X", "禁止使用X", "不要换成X".
  const governed = r.state === "rejected" && !r.mentionSinceMarker;
  if (kind === "from" || kind === "replace" || kind === "prefer") r.enabled.add(kind);
  if (kind === "neg" || kind === "from" || kind === "replace") {
    r.state = "rejected";
    // "X is banned", "Tailwind 禁用": a trailing negation applies backwards, if nothing follows.
    r.pendingBack = governed ? r.pendingBack : r.unmarked.length ? r.unmarked.slice() : null;
  } else if (kind === "pos" || kind === "prefer") {
    if (!governed) {
      r.state = "preferred";
      r.pendingBack = null;
    }
  } else if (kind === "contrast") {
    r.state = "rejected";
    r.pendingBack = null;
  } else if (kind === "switch" && !governed) {
    for (const m of r.unmarked) m.polarity = "rejected";
    r.unmarked = [];
    r.state = "preferred";
    r.pendingBack = null;
  }
  if (!governed) r.mentionSinceMarker = false;
}

/**
 * Bare items after "," following a negation: "no tailwind, bootstrap, or mui" is a list and
 * inherits the negation; "no tailwind, css variables" could mean either, so it is not guessed:
 * true when some list was left uncertain.
 */
function listsAfterNegation(clauses: Clause[]): boolean {
  let uncertain = false;
  const item = (c: number) => c < clauses.length && clauses[c].bare && clauses[c].softBefore;
  for (let c = 1; c < clauses.length; c++) {
    if (!item(c)) continue;
    let k = c;
    while (item(k + 1)) k++;
    const before = clauses[c - 1].mentions.at(-1)?.polarity;
    if (before === "rejected") {
      const group = clauses.slice(c, k + 1).flatMap((cl) => cl.mentions);
      if (clauses[k].conjunction) for (const m of group) m.polarity = "rejected";
      else {
        uncertain = true;
        for (const m of group) m.uncertain = true;
      }
    }
    c = k;
  }
  return uncertain;
}

function hasResidue(text: string, consumed: [number, number][], rules: Set<number>): boolean {
  let rest = "";
  let at = 0;
  for (const [s, e] of [...consumed].sort((a, b) => a[0] - b[0])) {
    rest += `${text.slice(at, s)} `;
    at = Math.max(at, e);
  }
  rest += text.slice(at);

  const topics = [...rules].flatMap((r) => COMPRESSION_RULES[r].topics.map(normalize));
  const words = new Set([...STOPWORDS, ...topics.filter((t) => !CJK_RE.test(t))]);
  const known = (w: string) =>
    words.has(w) ||
    (w.endsWith("s") && words.has(w.slice(0, -1))) ||
    (w.endsWith("es") && words.has(w.slice(0, -2)));
  for (const w of rest.match(/[a-z0-9]+(?:'[a-z]+)*/g) ?? []) if (!known(w)) return true;

  const fillers = [...CJK_FILLERS, ...topics.filter((t) => CJK_RE.test(t))].sort(
    (a, b) => b.length - a.length,
  );
  for (let run of rest.match(CJK_RUN) ?? []) {
    for (const f of fillers) run = run.split(f).join("");
    if (run) return true;
  }
  return false;
}

export function analyze(text: string): Analysis {
  const { head, reason } = splitReason(text);
  const norm = normalize(head);
  const tokens = tokenize(norm);
  const { mentions, consumed, uncertain } = readPolarities(norm, tokens);

  // Generic words ("auth", "认证") only stand as the subject when nothing specific is named.
  const specific = new Set(mentions.filter((m) => !m.keyword.generic).map((m) => m.rule));
  const subjects = new Map<number, Map<string, Polarity>>();
  let ambiguous = false;
  const both = new Set<string>();
  for (const m of mentions) {
    if (m.uncertain || (m.keyword.generic && specific.has(m.rule))) continue;
    let labels = subjects.get(m.rule);
    if (!labels) subjects.set(m.rule, (labels = new Map()));
    const had = labels.get(m.keyword.label);
    if (had && had !== m.polarity) both.add(`${m.rule}\u0000${m.keyword.label}`);
    else labels.set(m.keyword.label, m.polarity);
  }
  for (const key of both) {
    const [rule, label] = key.split("\u0000");
    subjects.get(Number(rule))!.delete(label);
    ambiguous = true;
  }
  for (const [rule, labels] of subjects) if (!labels.size) subjects.delete(rule);

  const foldable =
    subjects.size > 0 &&
    !ambiguous &&
    !uncertain &&
    !hasResidue(norm, consumed, new Set(mentions.map((m) => m.rule)));
  return { text, reason, subjects, ambiguous, foldable };
}
