// Data of the Constraint Compression Engine: the rule table (categories, keywords, topics) and the
// word lists it reads constraints with (polarity markers, stop words, CJK fillers).

// ---------------------------------------------------------------------------------------------
// Rule types

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

export type MarkerKind = "neg" | "pos" | "contrast" | "switch" | "from" | "replace" | "prefer" | "ctx_to" | "ctx_with" | "ctx_over";

export const MARKERS: ReadonlyArray<readonly [MarkerKind, readonly string[]]> = [
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
export const STOPWORDS = new Set([
  "a", "an", "the", "this", "that", "these", "those", "it", "its", "it's", "we", "our", "us", "i", "you", "your",
  "for", "in", "on", "of", "to", "with", "by", "at", "as", "via", "from", "and", "or", "also", "any", "all",
  "is", "are", "be", "been", "being", "should", "must", "shall", "will", "would", "can", "could", "may", "might",
  "please", "always", "ever", "again", "anymore", "anywhere", "everywhere", "here", "whatsoever", "s",
  "strictly", "entirely", "completely", "purely", "just", "first", "default", "approach", "strategy", "solution",
  "project", "repo", "codebase", "app", "application", "code", "new", "based", "same",
]);

export const CJK_FILLERS = [
  "本项目", "这个", "我们", "应该", "应当", "必须", "一定", "一律", "统一", "全部", "所有", "任何", "直接", "还是",
  "作为", "实现", "方案", "方式", "进行", "继续", "绝对", "千万", "永远", "总是", "始终", "尽量", "或者", "即可",
  "就行", "就好", "可以", "编写", "项目", "的", "了", "在", "请", "都", "只", "仅", "中", "里", "内", "来", "做",
  "和", "与", "及", "或", "也", "再", "要", "就", "是", "而", "把", "从", "写", "吧", "呢", "啊",
];

// ---------------------------------------------------------------------------------------------
// Generic polarity (data) for constraint hygiene: the words that make ANY object preferred or
// rejected at the start of a clause, whether or not the rule table knows the object.
// English forms are matched after contractions are expanded ("don't" → "do not").

export const GENERIC_POLARITY = {
  /** Said before the verb without changing it ("please never", "we always use"). */
  lead: ["please", "we", "you", "i", "just", "so", "really", "also", "absolutely", "strictly"],
  neg: [
    "do not", "does not", "did not", "should not", "must not", "shall not", "will not", "can not", "should never",
    "must never", "never", "avoid", "no longer", "stop", "no",
  ],
  /** After a negation, the verb that only says "use" ("never use X", "avoid using X"). */
  negVerb: ["use", "using", "to use"],
  /** Before a positive verb ("always use", "only use", "must use"). */
  posLead: ["should", "must", "always", "only"],
  pos: ["use", "using", "prefer", "prefers", "adopt", "favor", "favour", "choose", "pick", "stick with", "stick to", "go with", "rely on"],
  /** "prefer X over Y", "favour X over Y": Y is rejected. */
  preferVerbs: ["prefer", "prefers", "favor", "favour"],
  /** A verb phrase after it is preferred ("always run the tests" vs "never run the tests"). */
  always: ["always"],
  /** "X is banned": a negation after its object. */
  negTail: ["banned", "forbidden", "prohibited", "not allowed", "not permitted", "off-limits", "deprecated"],
  /** Inside a preferred object, what follows is rejected ("use X instead of Y", "X, not Y"). */
  contrast: ["instead of", "rather than", "in place of", "and not", "but not", "not"],
  /** Words that say nothing about the object ("Redis for the sessions" → redis, session). */
  functionWords: [
    "a", "an", "the", "for", "in", "on", "of", "to", "with", "by", "at", "as", "via", "from", "into", "onto", "any", "all",
    "some", "our", "your", "their", "its", "this", "that", "these", "those", "it", "them", "and", "or", "nor", "please",
    "ever", "again", "anymore", "here", "there", "is", "are", "be", "just", "also", "really", "even", "still", "instead",
  ],
  cjkLead: ["请", "我们", "你", "都", "也", "永远", "绝对", "千万", "一定", "务必", "坚决", "一律", "统一", "尽量", "应该", "必须"],
  cjkNeg: ["不要", "不准", "不允许", "不能", "不可以", "不可", "不得", "禁止", "避免", "切勿", "勿", "别", "不再"],
  /** The verbs of use, after a negation or as the positive marker itself. */
  cjkVerb: ["使用", "采用", "选用", "用"],
  cjkPosLead: ["只", "仅", "要", "总是", "始终", "坚持", "优先"],
  cjkAlways: ["总是", "始终", "永远", "一律"],
  cjkContrast: ["而不是", "而非", "而不用", "代替", "替代", "取代"],
  /** Enumerations inside a rejected object: each item is rejected on its own. */
  enumeration: [" or ", " nor ", "、", "或者", "或"],
} as const;
