// Constraint Compression Engine (CCE, spec v3.5): folds Layer 2 constraints that talk about the
// same technical choice into one symbolic entry per category, so Layer 2 stays inside its budget.
//
// Compared with the original SDK it (a) matches English keywords on word boundaries and Chinese
// ones as substrings, (b) files a positive preference under `preferred`, not `rejected`,
// (c) flags contradictions instead of merging them, and (d) never folds a constraint whose text
// says more than its entry could hold ("no Tailwind in the admin panel" stays verbatim), so
// compression loses no meaning. Everything is deterministic: no clocks, no randomness.

// ---------------------------------------------------------------------------------------------
// Public types

export interface RuleKeyword {
  /** Lower-case term. Containing CJK → matched as a substring; otherwise on word boundaries. */
  readonly term: string;
  /** Canonical display label; terms that mean the same thing share one. */
  readonly label: string;
  /** Names the category itself (auth, 令牌…): a subject only when nothing more specific is said. */
  readonly generic?: boolean;
  /** Words that, directly before/after the term, mean it is a different word ("at rest", "rest of"). */
  readonly notBefore?: readonly string[];
  readonly notAfter?: readonly string[];
}

export interface CompressionRule {
  readonly category: string;
  readonly keywords: readonly RuleKeyword[];
  /** Words about the category that carry no extra meaning once folded into it ("css", "接口"). */
  readonly topics: readonly string[];
}

export interface SymbolicEntry {
  strategy?: string;
  preferred: string[];
  rejected: string[];
  reason?: string;
  /** How many input constraints were folded into this entry. */
  sources: number;
}

export interface ConstraintConflict {
  category: string;
  subject: string;
  /** The original texts, unchanged. */
  rejected_by: string;
  preferred_by: string;
}

export interface CompressionResult {
  /** Constraints kept verbatim (unmatched, conflicting or not safely foldable), input order. */
  constraints: string[];
  symbolic: Record<string, SymbolicEntry>;
  conflicts: ConstraintConflict[];
  dropped_duplicates: number;
  /** Verbatim constraints beyond `maxConstraints`, for the caller to move to the cold archive. */
  overflow: string[];
}

export interface Layer2Compressed extends CompressionResult {
  decisions: string[];
  excluded_paths: string[];
}

// ---------------------------------------------------------------------------------------------
// Rule table (data). First the keywords, each with its display label.

const kw = (label: string, terms: readonly string[], extra: Partial<RuleKeyword> = {}): RuleKeyword[] =>
  terms.map((term) => ({ term, label, ...extra }));

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

export const COMPRESSION_RULES: readonly CompressionRule[] = deepFreeze([
  {
    category: "theme_system",
    keywords: [
      ...kw("Tailwind", ["tailwind", "tailwindcss", "tailwind css"]),
      ...kw("utility-first", ["utility-first", "utility css", "utility framework", "utility class", "atomic css", "实用优先", "工具类css", "原子化css", "原子css", "原子类"]),
      ...kw("CSS framework", ["css framework", "样式框架", "css框架"]),
      ...kw("css variables", ["css variable", "css var", "css custom property", "custom property", "css变量", "css自定义属性"]),
      ...kw("CSS modules", ["css module", "css模块"]),
      ...kw("CSS-in-JS", ["css-in-js", "styled-components"]),
      ...kw("Sass", ["sass", "scss"]),
    ],
    topics: ["css", "style", "styling", "stylesheet", "theme", "theming", "framework", "class", "样式", "主题", "框架"],
  },
  {
    category: "ui_framework",
    keywords: [
      ...kw("Bootstrap", ["bootstrap"]),
      ...kw("component library", ["component library", "ui component library", "组件库", "ui组件库"]),
      ...kw("UI framework", ["ui framework", "ui library", "ui kit", "ui框架", "界面框架", "ui库"]),
      ...kw("Material UI", ["material ui", "material-ui", "mui"]),
      ...kw("Ant Design", ["ant design", "antd"]),
      ...kw("Chakra UI", ["chakra ui", "chakra"]),
      ...kw("shadcn/ui", ["shadcn/ui", "shadcn"]),
    ],
    topics: ["ui", "component", "framework", "library", "kit", "组件", "界面", "框架", "库"],
  },
  {
    category: "auth_strategy",
    keywords: [
      ...kw("JWT", ["jwt", "jwt token", "json web token"]),
      ...kw("OAuth", ["oauth", "oauth2"]),
      ...kw("OpenID Connect", ["oidc", "openid connect"]),
      ...kw("SSO", ["sso", "single sign-on", "single sign on", "单点登录"]),
      ...kw("SAML", ["saml"]),
      ...kw("API key", ["api key", "api密钥"]),
      ...kw("Basic auth", ["basic auth", "http basic auth"]),
      ...kw("refresh token", ["refresh token", "刷新令牌"]),
      ...kw("passkeys", ["passkey", "webauthn"]),
      ...kw("auth", ["auth", "authentication", "authorization", "authn", "authz", "认证", "鉴权", "授权", "身份验证", "身份认证"], { generic: true }),
      ...kw("token", ["token", "令牌"], { generic: true }),
    ],
    topics: ["login", "sign-in", "signin", "credential", "登录", "验证"],
  },
  {
    category: "session_management",
    keywords: [
      ...kw("session", ["session", "会话"]),
      ...kw("server-side session", ["server-side session", "server session", "服务端会话", "服务器端会话"]),
      ...kw("session cookie", ["session cookie", "cookie session", "cookie-based session"]),
      ...kw("sticky session", ["sticky session"]),
      ...kw("cookie", ["cookie"]),
      ...kw("stateless", ["stateless", "无状态"]),
      ...kw("stateful", ["stateful", "有状态"]),
    ],
    topics: ["management", "state", "storage", "管理", "状态", "存储"],
  },
  {
    category: "db_access",
    keywords: [
      ...kw("ORM", ["orm", "数据库orm", "对象关系映射"]),
      ...kw("Django ORM", ["django orm"]),
      ...kw("SQLAlchemy", ["sqlalchemy"]),
      ...kw("Prisma", ["prisma"]),
      ...kw("Drizzle", ["drizzle"]),
      ...kw("TypeORM", ["typeorm"]),
      ...kw("Sequelize", ["sequelize"]),
      ...kw("Knex", ["knex"]),
      ...kw("query builder", ["query builder", "查询构建器"]),
      ...kw("raw SQL", ["raw sql", "plain sql", "direct sql", "hand-written sql", "handwritten sql", "原生sql", "手写sql"]),
    ],
    topics: ["db", "database", "data", "access", "layer", "query", "数据库", "数据", "访问", "查询", "层"],
  },
  {
    category: "db_type",
    keywords: [
      ...kw("NoSQL", ["nosql", "非关系型数据库", "非关系型"]),
      ...kw("MongoDB", ["mongodb", "mongo"]),
      ...kw("document DB", ["document db", "document database", "document store", "文档数据库"]),
      ...kw("DynamoDB", ["dynamodb"]),
      ...kw("relational DB", ["relational db", "relational database", "rdbms", "关系型数据库", "关系数据库"]),
      ...kw("SQL database", ["sql database", "sql db"]),
      ...kw("PostgreSQL", ["postgresql", "postgres"]),
      ...kw("MySQL", ["mysql"]),
      ...kw("SQLite", ["sqlite"]),
      ...kw("libSQL", ["libsql"]),
    ],
    topics: ["db", "database", "store", "storage", "engine", "数据库", "存储", "类型"],
  },
  {
    // The original had two api_style rules (REST, GraphQL); one category holds both subjects.
    category: "api_style",
    keywords: [
      ...kw("REST", ["rest", "restful", "rest api", "restful api", "表述性状态转移", "表现层状态转移"], { notBefore: ["at"], notAfter: ["of"] }),
      ...kw("GraphQL", ["graphql", "gql", "图查询"]),
      ...kw("gRPC", ["grpc"]),
      ...kw("tRPC", ["trpc"]),
      ...kw("JSON-RPC", ["json-rpc", "jsonrpc"]),
      ...kw("SOAP", ["soap"]),
    ],
    topics: ["api", "endpoint", "style", "interface", "layer", "接口风格", "接口", "风格", "设计"],
  },
]);

// ---------------------------------------------------------------------------------------------
// Polarity markers (data). Kinds:
//   neg       the mentions after it are rejected ("no", "avoid", 不要)
//   pos       the mentions after it are preferred ("use", 使用)
//   contrast  "X instead of Y": what follows is rejected, what came before keeps its own polarity
//   switch    "从X换成Y": unmarked mentions before it are rejected, those after preferred
//   from / replace / prefer   like neg/neg/pos, and they enable the contextual words to/with/over
//   ctx_*     "to", "with", "over": a marker only after the word that enables it

type MarkerKind = "neg" | "pos" | "contrast" | "switch" | "from" | "replace" | "prefer" | "ctx_to" | "ctx_with" | "ctx_over";

const MARKERS: ReadonlyArray<readonly [MarkerKind, readonly string[]]> = [
  ["neg", [
    "no", "not", "don't", "dont", "do not", "does not", "doesn't", "never", "avoid", "avoids", "avoiding", "without",
    "stop using", "stop", "no longer", "neither", "nor", "ban", "banned", "forbid", "forbidden", "prohibit",
    "prohibited", "disallow", "disallowed", "deprecate", "deprecated", "remove", "drop", "get rid of", "exclude",
    "reject", "disable", "must not", "mustn't", "should not", "shouldn't", "cannot", "can't", "won't",
    "not allowed", "is not allowed", "are not allowed", "not permitted", "off-limits",
    "不要", "不用", "别用", "别再用", "别使用", "不使用", "不采用", "禁止", "禁用", "避免", "弃用", "放弃", "不是",
    "不准", "不允许", "不能", "不可", "不得", "去掉", "去除", "移除", "拒绝", "不再", "切勿", "勿", "不需要", "无需", "不考虑",
  ]],
  ["from", ["switch from", "switching from", "migrate from", "migrating from", "move from", "moving from", "move away from", "moving away from", "away from"]],
  ["replace", ["replace", "replacing", "swap out"]],
  ["prefer", ["prefer", "prefers", "preferred", "preferring", "favor", "favour", "favors", "favours", "choose", "pick"]],
  ["pos", [
    "use", "uses", "using", "adopt", "go with", "stick with", "stick to", "keep", "rely on", "require", "requires",
    "only", "instead", "want", "must use", "add", "adding", "introduce", "install", "include",
    "使用", "用", "采用", "选用", "选择", "优先", "偏好", "推荐", "坚持", "基于", "保留", "只用", "仅用",
  ]],
  ["contrast", ["instead of", "rather than", "in place of", "而不是", "而非", "而不用", "代替", "替代", "取代", "替换"]],
  ["switch", ["switch to", "migrate to", "move to", "换成", "换为", "改为", "改成", "改用", "替换为", "替换成", "迁移到", "切换到", "切换为", "转为"]],
  ["ctx_to", ["to"]],
  ["ctx_with", ["with", "by"]],
  ["ctx_over", ["over"]],
];

// Words that add nothing once a constraint is folded; anything else left over keeps it verbatim.
const STOPWORDS = new Set([
  "a", "an", "the", "this", "that", "these", "those", "it", "its", "it's", "we", "our", "us", "i", "you", "your",
  "for", "in", "on", "of", "to", "with", "by", "at", "as", "via", "from", "and", "or", "also", "any", "all",
  "is", "are", "be", "been", "being", "should", "must", "shall", "will", "would", "can", "could", "may", "might",
  "please", "always", "ever", "again", "anymore", "anywhere", "everywhere", "here", "whatsoever", "s",
  "strictly", "entirely", "completely", "purely", "just", "first", "default", "approach", "strategy", "solution",
  "project", "repo", "codebase", "app", "application", "code", "new", "based", "same",
]);

const CJK_FILLERS = [
  "本项目", "这个", "我们", "应该", "应当", "必须", "一定", "一律", "统一", "全部", "所有", "任何", "直接", "还是",
  "作为", "实现", "方案", "方式", "进行", "继续", "绝对", "千万", "永远", "总是", "始终", "尽量", "或者", "即可",
  "就行", "就好", "可以", "编写", "项目", "的", "了", "在", "请", "都", "只", "仅", "中", "里", "内", "来", "做",
  "和", "与", "及", "或", "也", "再", "要", "就", "是", "而", "把", "从", "写", "吧", "呢", "啊",
];

// ---------------------------------------------------------------------------------------------
// Matching

const CJK = "\\u3040-\\u30ff\\u3400-\\u9fff\\uf900-\\ufaff";
const CJK_RE = new RegExp(`[${CJK}]`);
const CJK_RUN = new RegExp(`[${CJK}]+`, "g");
// ASCII-only word class on purpose: next to a CJK character an English keyword still stands
// on its own ("使用JWT认证").
const WORD = "a-z0-9_\\u00c0-\\u024f";

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

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
  const parts = t.split(/[\s_-]+/).filter(Boolean).map(escapeRe);
  if (plural) parts[parts.length - 1] = pluralize(parts[parts.length - 1]);
  return new RegExp(`(?<![${WORD}])${parts.join("[\\s_-]*")}(?![${WORD}])`, "g");
}

/** The form all matching works on; the caller's text is never rewritten. */
function normalize(text: string): string {
  return text.normalize("NFKC").replace(/[\u2018\u2019\u02bc]/g, "'").toLowerCase();
}

interface CompiledTerm { re: RegExp; rule: number; keyword: RuleKeyword }
interface CompiledMarker { re: RegExp; kind: MarkerKind }

const COMPILED_TERMS: CompiledTerm[] = COMPRESSION_RULES.flatMap((rule, ri) =>
  rule.keywords.map((keyword) => ({ re: termRegex(keyword.term, true), rule: ri, keyword })),
);
const COMPILED_MARKERS: CompiledMarker[] = MARKERS.flatMap(([kind, words]) =>
  words.map((w) => ({ re: termRegex(w, false), kind })),
);
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
  if (k.notBefore?.length && new RegExp(`(?:^|[^${WORD}])(?:${k.notBefore.map(word).join("|")})\\s+$`).test(text.slice(0, start))) return true;
  if (k.notAfter?.length && new RegExp(`^\\s+(?:${k.notAfter.map(word).join("|")})(?![${WORD}])`).test(text.slice(end))) return true;
  return false;
}

/** Leftmost-longest, non-overlapping tokens: "不要用" is a negation, not "要" + "用". */
function tokenize(text: string): Token[] {
  const found: Token[] = [];
  for (const t of COMPILED_TERMS) {
    for (const m of text.matchAll(t.re)) {
      const start = m.index!, end = start + m[0].length;
      if (!guardRejects(text, start, end, t.keyword)) found.push({ start, end, type: "mention", rule: t.rule, keyword: t.keyword });
    }
  }
  for (const mk of COMPILED_MARKERS) {
    for (const m of text.matchAll(mk.re)) found.push({ start: m.index!, end: m.index! + m[0].length, type: "marker", kind: mk.kind });
  }
  for (const [re, soft] of [[SOFT_SEP, true], [HARD_SEP, false]] as const) {
    for (const m of text.matchAll(re)) found.push({ start: m.index!, end: m.index! + m[0].length, type: "sep", soft });
  }
  const rank = { sep: 0, mention: 1, marker: 2 } as const;
  found.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start) || rank[a.type] - rank[b.type]);
  const out: Token[] = [];
  let last = 0;
  for (const t of found) if (t.start >= last && t.end > t.start) { out.push(t); last = t.end; }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading one constraint

type Polarity = "preferred" | "rejected";

interface Analysis {
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
const REASON_WORD = /(?:\s*[,，;；]\s*|\s+|(?<=[\u3400-\u9fff]))(?:because of|because|due to)(?![a-z])\s*|\s*[,，;；]?\s*(?:因为|由于|原因是|原因[:：])\s*/i;

function splitReason(text: string): { head: string; reason?: string } {
  let best: RegExpExecArray | null = null;
  for (const re of [REASON_DASH, REASON_WORD]) {
    const m = re.exec(text);
    if (m && (!best || m.index < best.index)) best = m;
  }
  if (!best) return { head: text };
  const head = text.slice(0, best.index).replace(/[\s,，;；:：]+$/, "");
  const reason = text.slice(best.index + best[0].length).trim().replace(/[\s.。!！]+$/, "");
  return head && reason ? { head, reason } : { head: text };
}

interface Mention { rule: number; keyword: RuleKeyword; polarity: Polarity; uncertain?: boolean }

interface Clause { mentions: Mention[]; bare: boolean; softBefore: boolean; conjunction: boolean }

function readPolarities(text: string, tokens: Token[]): { mentions: Mention[]; consumed: [number, number][]; uncertain: boolean } {
  const clauses: Clause[] = [];
  const consumed: [number, number][] = [];
  let softBefore = false;
  for (let i = 0; i <= tokens.length; ) {
    // One clause: tokens up to the next separator.
    let j = i;
    while (j < tokens.length && tokens[j].type !== "sep") j++;
    const clauseText = text.slice(i > 0 ? tokens[i - 1].end : 0, j < tokens.length ? tokens[j].start : text.length);

    const inClause: Mention[] = [];
    let state: Polarity | null = null;
    let mentionSinceMarker = false;
    let hasMarker = false;
    let unmarked: Mention[] = [];
    let pendingBack: Mention[] | null = null;
    const enabled = new Set<MarkerKind>();
    for (const t of tokens.slice(i, j)) {
      if (t.type === "mention") {
        // No marker yet: a constraint states what holds, so a plain mention is a preference.
        const m: Mention = { rule: t.rule, keyword: t.keyword, polarity: state ?? "preferred" };
        if (state === null) unmarked.push(m);
        inClause.push(m);
        consumed.push([t.start, t.end]);
        mentionSinceMarker = true;
        pendingBack = null;
        continue;
      }
      if (t.type !== "marker") continue;
      let kind = t.kind;
      if (kind === "ctx_to") { if (!enabled.has("from")) continue; kind = "switch"; }
      if (kind === "ctx_with") { if (!enabled.has("replace")) continue; kind = "switch"; }
      if (kind === "ctx_over") { if (!enabled.has("prefer")) continue; kind = "contrast"; }
      consumed.push([t.start, t.end]);
      hasMarker = true;
      // A verb right after a negation belongs to it: "don't use X", "禁止使用X", "不要换成X".
      const governed = state === "rejected" && !mentionSinceMarker;
      if (kind === "from" || kind === "replace" || kind === "prefer") enabled.add(kind);
      if (kind === "neg" || kind === "from" || kind === "replace") {
        state = "rejected";
        // "X is banned", "Tailwind 禁用": a trailing negation applies backwards, if nothing follows.
        pendingBack = governed ? pendingBack : unmarked.length ? unmarked.slice() : null;
      } else if (kind === "pos" || kind === "prefer") {
        if (!governed) { state = "preferred"; pendingBack = null; }
      } else if (kind === "contrast") {
        state = "rejected";
        pendingBack = null;
      } else if (kind === "switch" && !governed) {
        for (const m of unmarked) m.polarity = "rejected";
        unmarked = [];
        state = "preferred";
        pendingBack = null;
      }
      if (!governed) mentionSinceMarker = false;
    }
    if (pendingBack) for (const m of pendingBack) m.polarity = "rejected";
    clauses.push({
      mentions: inClause,
      // Chinese writes lists with "、", so a clause containing CJK is never a bare list item.
      bare: !hasMarker && inClause.length > 0 && !CJK_RE.test(clauseText),
      softBefore,
      conjunction: /(?<![a-z0-9])(?:or|nor|and)(?![a-z0-9])|&/.test(clauseText),
    });
    if (j < tokens.length) {
      const sep = tokens[j] as Extract<Token, { type: "sep" }>;
      softBefore = sep.soft;
      consumed.push([sep.start, sep.end]);
    }
    i = j + 1;
  }

  // Bare items after "," following a negation: "no tailwind, bootstrap, or mui" is a list and
  // inherits the negation; "no tailwind, css variables" could mean either, so it is not guessed.
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
      else { uncertain = true; for (const m of group) m.uncertain = true; }
    }
    c = k;
  }
  return { mentions: clauses.flatMap((cl) => cl.mentions), consumed, uncertain };
}

function hasResidue(text: string, consumed: [number, number][], rules: Set<number>): boolean {
  let rest = "";
  let at = 0;
  for (const [s, e] of [...consumed].sort((a, b) => a[0] - b[0])) { rest += `${text.slice(at, s)} `; at = Math.max(at, e); }
  rest += text.slice(at);

  const topics = [...rules].flatMap((r) => COMPRESSION_RULES[r].topics.map(normalize));
  const words = new Set([...STOPWORDS, ...topics.filter((t) => !CJK_RE.test(t))]);
  const known = (w: string) => words.has(w) || (w.endsWith("s") && words.has(w.slice(0, -1))) || (w.endsWith("es") && words.has(w.slice(0, -2)));
  for (const w of rest.match(/[a-z0-9]+(?:'[a-z]+)*/g) ?? []) if (!known(w)) return true;

  const fillers = [...CJK_FILLERS, ...topics.filter((t) => CJK_RE.test(t))].sort((a, b) => b.length - a.length);
  for (let run of rest.match(CJK_RUN) ?? []) {
    for (const f of fillers) run = run.split(f).join("");
    if (run) return true;
  }
  return false;
}

function analyze(text: string): Analysis {
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

  const foldable = subjects.size > 0 && !ambiguous && !uncertain && !hasResidue(norm, consumed, new Set(mentions.map((m) => m.rule)));
  return { text, reason, subjects, ambiguous, foldable };
}

// ---------------------------------------------------------------------------------------------
// Compression

const dedupeKey = (text: string) => normalize(text).replace(/\s+/g, " ").trim();

function strategyOf(label: string): string | undefined {
  const slug = label.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  return slug || undefined;
}

export class ConstraintCompressor {
  private readonly items: string[] = [];
  private readonly maxConstraints: number;

  constructor(maxConstraints = 20) {
    if (!Number.isInteger(maxConstraints) || maxConstraints < 0) {
      throw new RangeError(`maxConstraints must be a non-negative integer, got ${maxConstraints}`);
    }
    this.maxConstraints = maxConstraints;
  }

  addConstraint(text: string): this {
    if (typeof text !== "string") throw new TypeError(`constraint must be a string, got ${typeof text}`);
    this.items.push(text);
    return this;
  }

  addConstraints(texts: Iterable<string>): this {
    for (const t of texts) this.addConstraint(t);
    return this;
  }

  /** Pure: the compressor keeps its constraints, so more can be added and compress() run again. */
  compress(): CompressionResult {
    const seen = new Set<string>();
    let dropped = 0;
    const items: Analysis[] = [];
    for (const raw of this.items) {
      const text = raw.trim();
      if (!text) continue;
      const key = dedupeKey(text);
      if (seen.has(key)) { dropped++; continue; }
      seen.add(key);
      items.push(analyze(text));
    }

    // A subject both rejected and preferred by different constraints is a contradiction: both
    // texts stay verbatim for a human (or the agent) to settle.
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
    const pinned = new Set<number>();
    const conflicts: ConstraintConflict[] = [];
    for (const v of votes.values()) {
      if (!v.rejected.length || !v.preferred.length) continue;
      for (const r of v.rejected) {
        for (const p of v.preferred) {
          conflicts.push({ category: COMPRESSION_RULES[v.rule].category, subject: v.label, rejected_by: items[r].text, preferred_by: items[p].text });
          pinned.add(r).add(p);
        }
      }
    }

    type Acc = { preferred: string[]; rejected: string[]; reasons: Map<string, string[]>; sources: number };
    const acc: (Acc | undefined)[] = COMPRESSION_RULES.map(() => undefined);
    const verbatim: string[] = [];
    items.forEach((a, i) => {
      if (!a.foldable || pinned.has(i)) { verbatim.push(a.text); return; }
      for (const [rule, labels] of a.subjects) {
        const e: Acc = (acc[rule] ??= { preferred: [], rejected: [], reasons: new Map(), sources: 0 } as Acc);
        e.sources++;
        for (const [label, pol] of labels) if (!e[pol].includes(label)) e[pol].push(label);
        if (a.reason) {
          const of = e.reasons.get(a.reason) ?? [];
          for (const label of labels.keys()) if (!of.includes(label)) of.push(label);
          e.reasons.set(a.reason, of);
        }
      }
    });

    const symbolic: Record<string, SymbolicEntry> = {};
    acc.forEach((e, rule) => {
      if (!e) return;
      // The strategy is what the user asked for, never a guess: no preference, no strategy.
      const strategy = e.preferred.length ? strategyOf(e.preferred[0]) : undefined;
      const reasons = [...e.reasons];
      const reason = reasons.length === 1
        ? reasons[0][0]
        // Several reasons in one entry: say which subjects each one is about.
        : reasons.map(([why, labels]) => `${labels.join(", ")}: ${why}`).join("; ");
      symbolic[COMPRESSION_RULES[rule].category] = {
        ...(strategy ? { strategy } : {}),
        preferred: e.preferred,
        rejected: e.rejected,
        ...(reason ? { reason } : {}),
        sources: e.sources,
      };
    });

    return {
      constraints: verbatim.slice(0, this.maxConstraints),
      symbolic,
      conflicts,
      dropped_duplicates: dropped,
      overflow: verbatim.slice(this.maxConstraints),
    };
  }
}

function dedupe(texts: Iterable<string>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of texts) {
    if (typeof raw !== "string") continue;
    const text = raw.trim();
    const key = dedupeKey(text);
    if (!text || seen.has(key)) continue;
    seen.add(key);
    out.push(text);
  }
  return out;
}

/** Compresses a snapshot's Layer 2; decisions and excluded paths pass through, deduplicated. */
export function compressLayer2(
  constraints: string[],
  decisions: string[] = [],
  excludedPaths: string[] = [],
  options: { maxConstraints?: number } = {},
): Layer2Compressed {
  const result = new ConstraintCompressor(options.maxConstraints ?? 20).addConstraints(constraints ?? []).compress();
  return { ...result, decisions: dedupe(decisions ?? []), excluded_paths: dedupe(excludedPaths ?? []) };
}
