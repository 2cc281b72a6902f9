// The scorer of `bun run bench:quality`: a snapshot's goal, next action and constraints against a
// session's answer, by normalised tokens (bench/quality/README.md says how, once for all).

/** English words that carry no meaning of a task: left out of the comparison. */
const FUNCTION_WORDS = new Set(
  "a an the to of and or in on at by for with from into it its is are be this that these those i we you ll will now then next step so as up".split(
    " ",
  ),
);

/** The tokens of a text: Latin words and numbers, each Chinese character alone; function words left out. */
export function tokensOf(text: string): string[] {
  const t = text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\b(can)'?t\b|\bcannot\b/g, "can not")
    .replace(/\bwon'?t\b/g, "will not")
    .replace(/\b([a-z]+)n't\b/g, "$1 not")
    .replace(/\b(i|we|you|they)'(ll|m|re|ve|d)\b/g, "$1");
  return (t.match(/\p{Script=Han}|[\p{L}\p{N}_]+/gu) ?? []).filter((w) => !FUNCTION_WORDS.has(w));
}

/** How many tokens two lists share, each token counted as often as both have it. */
function shared(a: string[], b: string[]): number {
  const left = new Map<string, number>();
  for (const w of b) left.set(w, (left.get(w) ?? 0) + 1);
  let n = 0;
  for (const w of a) {
    const k = left.get(w) ?? 0;
    if (k > 0) {
      n++;
      left.set(w, k - 1);
    }
  }
  return n;
}

/** The token F1 of a text against its answer (1: the same words; 0: none in common). */
export function tokenF1(got: string, expected: string): number {
  const [g, e] = [tokensOf(got), tokensOf(expected)];
  if (!g.length || !e.length) return g.length === e.length ? 1 : 0;
  const n = shared(g, e);
  return n ? (2 * n) / (g.length + e.length) : 0;
}

/** A goal or next action is right at this token F1 or above. */
export const TEXT_RIGHT = 0.6;
/** The share of an expected constraint's tokens one extracted constraint must hold. */
const HOLDS = 0.7;
/** The share of an extracted constraint's own tokens that must be the expected constraints'. */
const OWN = 0.5;

/** The share of `part`'s tokens found in `whole`. */
const coverage = (part: string[], whole: string[]) => (part.length ? shared(part, whole) / part.length : 0);

export interface ConstraintScore {
  /** Expected constraints no extracted one holds. */
  missed: string[];
  /** Extracted constraints that are none of the expected ones. */
  wrong: string[];
  expected: number;
  extracted: number;
}

/** Which expected constraints the snapshot recalled, and which of its constraints are real ones. */
export function scoreConstraints(got: readonly string[], expected: readonly string[]): ConstraintScore {
  const g = got.map(tokensOf);
  const e = expected.map(tokensOf);
  const all = e.flat();
  const missed = expected.filter((_, i) => !g.some((x) => coverage(e[i], x) >= HOLDS));
  const wrong = got.filter(
    (_, j) => !(e.some((x) => coverage(x, g[j]) >= HOLDS) && coverage(g[j], all) >= OWN),
  );
  return { missed, wrong, expected: expected.length, extracted: got.length };
}

export interface Answer {
  goal: string;
  constraints: string[];
  next_action: string;
}

export interface SessionScore {
  id: string;
  goal: { got: string; f1: number; right: boolean };
  next_action: { got: string; f1: number; right: boolean };
  constraints: ConstraintScore & { got: string[] };
}

/** One session's snapshot against its answer. */
export function scoreSession(id: string, got: Answer, expected: Answer): SessionScore {
  const text = (g: string, e: string) => {
    const f1 = tokenF1(g, e);
    return { got: g, f1: Math.round(f1 * 100) / 100, right: f1 >= TEXT_RIGHT };
  };
  return {
    id,
    goal: text(got.goal, expected.goal),
    next_action: text(got.next_action, expected.next_action),
    constraints: { ...scoreConstraints(got.constraints, expected.constraints), got: got.constraints },
  };
}

export interface Figures {
  sessions: number;
  recall: number;
  precision: number;
  goal: number;
  next_action: number;
}

/** The three figures over sessions: constraint recall and precision (pooled), goal and next action right. */
export function figuresOf(scores: readonly SessionScore[]): Figures {
  const sum = (f: (s: SessionScore) => number) => scores.reduce((n, s) => n + f(s), 0);
  const expected = sum((s) => s.constraints.expected);
  const extracted = sum((s) => s.constraints.extracted);
  const ratio = (n: number, d: number) => (d ? Math.round((n / d) * 1000) / 1000 : 1);
  return {
    sessions: scores.length,
    recall: ratio(expected - sum((s) => s.constraints.missed.length), expected),
    precision: ratio(extracted - sum((s) => s.constraints.wrong.length), extracted),
    goal: ratio(
      sum((s) => +s.goal.right),
      scores.length,
    ),
    next_action: ratio(
      sum((s) => +s.next_action.right),
      scores.length,
    ),
  };
}
