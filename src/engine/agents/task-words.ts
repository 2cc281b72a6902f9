// What the user's prompts and the agent's last words say about the task, read without a model for
// the mechanical snapshot: the task apart from its constraints, the constraints and corrections
// stated on the way, and the next step the agent announced. English and Chinese.
import { foldDuplicates } from "../snapshots/constraint-hygiene.ts";
import { PRIVATE_MARK } from "../snapshots/private-spans.ts";

// The words that make a sentence a rule for the work (spec: constraints and decisions the user states).
const RULE_EN =
  /\b(?:never|don'?t|do not|doesn'?t|must(?:n'?t)?|always|only|avoid|no longer|not allowed|rather than)\b|\bI(?:'d| would) (?:rather|prefer)(?: (?:we|you|they))? (?:not|didn'?t|don'?t|never)\b/i;
const RULE_ZH =
  /不要|不用|别|必须|只用|只能|只要|只支持|不对|我说的是|我的意思是|禁止|不能|不许|不准|不得(?![了不])|切勿|一律|统一用|保持原样|保持.{0,16}不变|保留|留着|先留|沿用|照旧|一定要|务必|避免|改用|只有[^，。]{1,24}才/u;
// A requirement put on the work, not on a person ("It has to return 429", "the migration can't lock
// it", "It should be at /healthz", "those requests need to keep working", "数据卷里的数据要保住"; not
// "I have to leave", "we can't reproduce it", "我下午要开会"), and a limit told by its number ("at
// most 3 retries", "under 20 minutes", "最多重试 3 次", "单个文件上限 50MB", "超时设成 2 小时").
const REQUIRED_EN =
  /(?<!\b(?:I|we|you)(?:'d| would| really| still| just| also)?\s+)\b(?:has to|have to|needs? to|can'?t|cannot|can not|should(?:n'?t| not)?)\b/i;
// 要 as "must" after the thing it binds; not inside a word (需要, 重要, 只要, 要是, 要不要…).
const REQUIRED_ZH =
  /(?<![我你他她们需只主重想将快还就也都不是摘概纲必首紧索要])要(?![不是求么点紧素命闻])\p{Script=Han}/u;
const LIMIT_NUMBER_EN =
  /\b(?:at most|at least|no more than|no fewer than|no less than|not more than|a maximum of|a minimum of|under|below|within|less than|fewer than)\s+(?:\d|one|two|three|four|five|ten)/i;
const LIMIT_ZH = /最多|至多|最少|至少|不超过|不多于|不少于|上限|下限|[设改定调](?:成|为|到)\s*\d/u;
// A scope told with 只 before what may be done ("只改展示层"); not 只是/只有/只要, a measure (一只), or
// what was done (只改了一行).
const SCOPE_ZH = /(?<![一两三几每那这])只(?![是有要好不过])(?!\p{Script=Han}{1,3}了)(?=\p{Script=Han})/u;
// A choice of means told of a part of the work: "查重用 Redis 的 SETNX" (inside a request it is the
// task's); not how a thing is, told with 是…的 ("线上是用 configmap 挂的").
const CHOICE_ZH = /(?:(?<=\p{Script=Han})(?<![我你他她们成为是])|(?<=[，；]\s*))用\s*[A-Za-z]/u;
// A Chinese sentence that fronts its object with 把 asks for a change ("把登录改成用 JWT"): a request.
const DISPOSAL_ZH = /把/u;
// A choice told by what it is not, closing an order: "Fall back to en-GB when the locale is invalid,
// not en-US"; not a fact ("It's the parser, not the lexer", "Dates show as 11/02, not 02.11").
const CONTRAST_END = /,\s+not\s+(?:an?\s+|the\s+)?[\w.-]+(?:\s+[\w.-]+)?[.!]?$/i;
// A choice refused in a bare fragment, the way a correction opens: "not alpine.", "No, not the ORM."
const REFUSED =
  /^(?:no,?\s+)?not\s+(?!(?:sure|yet|really|bad|now|quite|exactly|much|that|me|so|again|always|urgent|important|needed|necessary|critical|required|today|here|\w+ing)\b)(?:the\s+|an?\s+)?[\w.-]+(?:\s+[\w.-]+)?[.!]?$/i;
const STATEMENT_OPENING = /^(?:it|its|it's|this|that|these|those|the|a|an|there|he|she|they|we|i|you)\b/i;
const MAIN_CLAUSE = /^.*?(?=\b(?:when|if|unless|because|since|while|which)\b|,|$)/i;
// A choice of means: "Use zod for the schemas", "Use X instead of Y" (not "make it wait instead of sleeping").
const CHOICE_EN = /^(?:please\s+|also\s+|and\s+)?(?:use|prefer|stick (?:to|with)|go with)\b/i;
const INSTEAD_EN = /\b(?:use|prefer|pick|choose|call|keep)\b.*\binstead of\b/i;
// A limit told as an order, at the start of a clause: "No new dependencies", "keep the response
// shape backwards compatible", "keep reading the old names as a fallback", "Skip mypy for now", "Leave the class components as they are",
// "Without adding a CSS-in-JS library".
const LIMIT_EN = new RegExp(
  [
    String.raw`(?:^|[,;:]\s*|\band\s+)no\s+(?!problem|worries|idea|rush|hurry|need|way|one|doubt)(?:new|more|extra|other)?\s*[a-z]{3,}`,
    String.raw`(?:^|[,;:]\s*|\band\s+)keep\s+(?:\w+ing\s+)?(?:the|every|all|each|its|our|this|these|them|it)\b`,
    String.raw`^(?:actually,?\s+|just\s+|please\s+)?skip\b`,
    String.raw`\bleave\b.*\b(?:as (?:it is|they are)|alone|untouched|unchanged)\b`,
    // Something kept where it is: "leave that field in the mobile config response".
    String.raw`\bleave\s+(?:the|that|this|these|those|it|them|its|our)\b[^,.;]*\s(?:in|at|on)\s`,
    String.raw`^without\s+\w+ing\b`,
  ].join("|"),
  "i",
);

// The same words where they state no rule: a guess ("you must be tired", "it must be failing"), a
// fact ("it only takes a second", "the only thing left", "I only have an hour", "the update will
// never happen"), a habit told ("I always forget", "you always write…"), reassurance ("don't
// worry", "别担心") and "不对劲" (something is off).
const NOT_RULE_EN = new RegExp(
  [
    String.raw`\bmust(?: have)? be (?:\w+ing|tired|sick|busy|bored|kidding|joking|exhausted|frustrated)\b`,
    String.raw`\b(?:the|an?|not|if)\s+only\b`,
    String.raw`\b(?:it|this|that|which|who|he|she)\s+only\s+\w+s\b`,
    String.raw`\b(?:I|we)\s+only\s+have\s+(?:an?|one|two|a few|\d+)\s+(?:minutes?|hours?|days?|weeks?)\b`,
    String.raw`\b(?:I|we|they)\s+(?:always|never)\s+(?:\w+ed|had|was|were|did|got|forget|forgot|understood|knew|thought)\b`,
    // A guess or a failure told ("that should fix it", "it can't find the module"), and a deadline
    // ("it has to ship by Friday", "must be live before the demo").
    String.raw`\bshould(?:n'?t| not)?\s+(?:be\s+)?(?:fine|ok(?:ay)?|quick|easy|simple|enough|faster|better|done|ready|work|help|fix|do)\b`,
    String.raw`\b(?:can'?t|cannot|can not)\s+(?:find|resolve|connect|open|load|read|reach|start|see|reproduce|tell|remember|figure|believe|wait)\b`,
    String.raw`\b(?:must|has to|have to|needs? to|should)\s+(?:be\s+)?(?:ship(?:ped)?|done|live|out|released|merged|finished|ready|in)\s+(?:by|before)\b`,
    String.raw`\byou\s+always\b`,
    String.raw`\b(?:will|would|could|has|have|had)\s+never\b`,
    String.raw`\b(?:don'?t|do not) worry\b`,
  ].join("|"),
  "gi",
);
// 别 inside a word (识别, 特别, 区别, 级别…) is no "don't".
const NOT_RULE_ZH =
  /不对劲|别担心|不要担心|不用担心|别着急|不用急|别急|[识区特分类告级性派辨鉴个差离临惜道]别|别(?:扭|人|处)|(?:今天|今晚|明天|明早|后天|这周|本周|下周|周[一二三四五六日末]|月底|年底|上线前)(?:[^，。]{0,6}?(?:之前|以前|前))?(?:必须|一定要|务必|得|要)(?:上线|发布|发版|交付|完成|搞定|做完|提测)|^(?:我|我们|咱们)(?!的)[^，。要]{0,12}?(?<![一务])要/gu;

/** The sentences of a text, each with its closing mark (". ", "。", "!", "？", a line break); a dot inside a word ("deploy.ts", "v2.3.0") closes none. */
export function sentencesOf(text: string): string[] {
  return (text.match(/(?:[^.!?。！？\n]|[.!?](?!\s|$))+(?:[.!?](?=\s|$)|[。！？]|\n|$)+/gu) ?? [])
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter(Boolean);
}

// Pasted text, neither task nor rule: a fenced block, and a log or stack line ("Error: …",
// "TypeError: …", "error TS2322: …", "Warning: …", "WARN retries …", "    at f (file.ts:4:2)").
const FENCE = /^\s*(?:```|~~~)[^\n]*\n[\s\S]*?(?:^\s*(?:```|~~~)\s*$|(?![\s\S]))/gm;
const LOG_LINE =
  /^\s*(?:at \S.*:\d+(?::\d+)?\)?\s*$|[\w.]*(?:Error|Exception|Warning)(?: \w+)?:|(?:error|warning|warn|fatal|panic)(?: [A-Z]+\d+)?:|\[(?:error|warn|warning|fatal)\]|Traceback \(most recent call last\))/i;

// A log level in capitals opening a line ("WARN retries …", "INFO sync fetched …"): a line of a log.
const LOG_LEVEL = /^\s*(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL)\b/;

/** A prompt without what the user pasted into it (logs, stack traces, fenced blocks). */
export function ownWords(prompt: string): string {
  return prompt
    .replace(FENCE, "\n")
    .split("\n")
    .filter((l) => !LOG_LINE.test(l) && !LOG_LEVEL.test(l))
    .join("\n");
}

// Not a rule for the work: a question, "don't save" (about MindSave), a pasted log or text.
// A remark the user takes back at its end ("…哦不对中国没有夏令时，忽略。", "…, never mind"): no rule.
const TAKEN_BACK = /(?:忽略|算了|当我没说|never ?mind|scratch that|ignore (?:that|me))[\s。.!！]*$/iu;
const NO_SAVE = /\b(?:don'?t|do not|never)\s+(?:save|snapshot)\b|不要保存|别保存|不用保存/iu;
const RULE_MAX = 240;

/** An order closed by what it is not ("Fall back to en-GB …, not en-US"): its main clause states no fact. */
function isContrastOrder(sentence: string): boolean {
  if (!CONTRAST_END.test(sentence) || STATEMENT_OPENING.test(sentence)) return false;
  return !/\b(?:is|are|was|were|see|sees|shows?)\b/i.test(MAIN_CLAUSE.exec(sentence)?.[0] ?? "");
}

/** A sentence that states a rule for the work: "Never use Redis for it", "只用 Postgres", "Use zod for the schemas". */
export function isRule(sentence: string): boolean {
  const s = sentence.replace(/[\u2018\u2019]/g, "'");
  if (s.length > RULE_MAX || /[?？]$/u.test(s) || NO_SAVE.test(s) || TAKEN_BACK.test(s)) return false;
  const said = s.replace(NOT_RULE_EN, " ").replace(NOT_RULE_ZH, " ");
  const rules = [RULE_EN, RULE_ZH, CHOICE_EN, INSTEAD_EN, LIMIT_EN, REQUIRED_EN, REQUIRED_ZH];
  if (rules.some((rule) => rule.test(said)) || isContrastOrder(said)) return true;
  // A number's limit, a means chosen or a scope inside a request is the task's ("Add validation: a password of
  // at least 12 characters", "帮我用 Go 写个脚本").
  const limits = [LIMIT_NUMBER_EN, LIMIT_ZH, CHOICE_ZH, SCOPE_ZH];
  return limits.some((rule) => rule.test(said)) && !requestOf(s) && !DISPOSAL_ZH.test(s);
}

/**
 * A Chinese prompt's opening sentence split where its rules begin: "把 README 翻译成英文，术语表里的词
 * 保持原样，不用翻译代码注释。" is the task "把 README 翻译成英文" and the rules after it. A sentence that
 * opens with its rule ("不要用 Redis，我们只有 Postgres。") stays whole: the clauses after it are its reason.
 */
function taskThenRules(sentence: string): string[] {
  if (!/\p{Script=Han}/u.test(sentence)) return [sentence];
  const clauses = sentence.split(/(?<=[，；])/u);
  const first = clauses.findIndex((c) => isRule(c.replace(/[，；]$/u, "")));
  if (first <= 0) return [sentence];
  const rules = clauses.slice(first).join("");
  // Rules too long to keep as one (a run-on prompt) leave the sentence whole, its words unchanged.
  if (!isRule(rules)) return [sentence];
  return [
    clauses
      .slice(0, first)
      .join("")
      .replace(/[，；]$/u, ""),
    rules,
  ];
}

// "Fix it without adding a CSS-in-JS library": a request, then the limit it ends with.
const WITHOUT = /^(.+?),?\s+(without\s+\w+ing\b.*)$/i;

/** A request split from the "without …" limit it ends with, a rule of its own; any other sentence as it is. */
function requestThenLimit(sentence: string): string[] {
  const m = WITHOUT.exec(sentence);
  if (!m || !requestOf(m[1])) return [sentence];
  return [m[1], m[2].charAt(0).toUpperCase() + m[2].slice(1)];
}

/**
 * A prompt's own sentences (what it pasted left out), each request split from its "without …" limit;
 * in the prompt that names the task, its opening sentence split from the rules it holds.
 */
function piecesOf(prompt: string, namesTask = true): string[] {
  const [opening, ...rest] = sentencesOf(ownWords(prompt));
  if (opening === undefined) return [];
  return [...(namesTask ? taskThenRules(opening) : [opening]), ...rest].flatMap(requestThenLimit);
}

// A sentence that asks for work: an imperative ("Fix the deadlock"), a polite request ("Can you add
// retries …?", "Please …", "I want you to …", "帮我…", "请…"). A Chinese imperative without such
// words is not told apart from context: there the task is what is not a rule.
const POLITE =
  /^(?:(?:hey|ok(?:ay)?|so|now|also|then),?\s+)?(?:(?:can|could|would|will) you (?:please )?|please |i(?:'d| would) like you to |i (?:want|need) you to |let'?s |(?:你能不能|能不能|麻烦你?|请你?(?!求))?帮我|请你?(?!求))/iu;
const TASK_VERB =
  /^(?:add|make|fix|find|write|create|build|implement|refactor|rename|remove|delete|update|upgrade|bump|migrate|port|move|replace|convert|set up|speed up|clean up|generate|cache|look into|investigate|debug|change|switch|support|enable|disable|handle|extract|split|merge|improve|optimi[sz]e|document|wire|integrate|deploy|translate|format|help|get|try|stop|show|allow|limit|reduce|increase|rewrite|restore|introduce|drop|expose|run|rerun|test|commit|push|ship|publish|release|verify|check|review|install|configure)\b/i;
// A request's sequencing opener ("Then run it", "And then push", "After that, deploy"): not the work.
const THEN = /^(?:and\s+)?(?:then|after that|afterwards|finally|next),?\s+/i;
const PRIVATE_OPENER = new RegExp(`^(?:${PRIVATE_MARK.replace(/[[\]]/g, "\\$&")}\\s*)+`);

/** The work a sentence asks for, without its polite wrapping ("Add retries …" from "Can you add retries …?"), or null. */
export function requestOf(sentence: string): string | null {
  // What a private span left at its start ("[private] Then run it.") is not the sentence's opener.
  const unsequenced = sentence.replace(PRIVATE_OPENER, "").replace(THEN, "");
  const polite = POLITE.exec(unsequenced);
  const rest = polite ? unsequenced.slice(polite[0].length) : unsequenced;
  if (!polite && (/[?？]$/u.test(rest) || !TASK_VERB.test(rest))) return null;
  return rest.charAt(0).toUpperCase() + rest.slice(1).replace(/[?？]$/u, "");
}

// A request that points back at what was said before it ("fix it", "look into this").
const POINTS_BACK = /\b(?:it|them|this|that|these|those)\b/i;
// A request that names no object ("fix pls", "Fix!"): its work is what was said before it.
const OBJECTLESS = /^\p{L}+(?:\s+(?:pls|plz|please|asap|now|thanks|thx))*[.!]*$/iu;
// A Chinese request opened by the change it asks for, its object left to the sentence before it
// ("改成每单只能用一张券"; English says "Change it to …").
const CHANGE_ZH = /^(?:那就|就)?(?:改成|改为|换成)/u;

/**
 * In the prompt naming the task, the sentence that asks for the change although it holds a rule
 * word, after a statement of the problem and with no other request: "优惠券现在能叠加用…。改成每单只能
 * 用一张券。", "Checkout takes any number of coupons. Make it accept only one." It is the task's.
 */
function changeAsked(pieces: string[]): string | undefined {
  const asks = (s: string) => CHANGE_ZH.test(s) || !!requestOf(s);
  const problem = pieces.findIndex((s) => !isRule(s) && !asks(s));
  if (problem < 0 || pieces.some((s) => !isRule(s) && asks(s))) return undefined;
  return pieces.slice(problem + 1).find((s) => {
    const asked = requestOf(s);
    return (
      CHANGE_ZH.test(s) ||
      (!!asked && TASK_VERB.test(asked) && !NEGATED.test(s) && !/^make sure\b/i.test(asked))
    );
  });
}

/**
 * The task a prompt names, without the rules it adds or what it pasted: "Add rate limiting to the
 * login endpoint" from "Add rate limiting to the login endpoint. Never use Redis for it: …". Where
 * the prompt asks in so many words ("Find the race and fix it"), the asking sentences, after the
 * first sentence that is not a rule when they point back at it. A prompt that is all rules, or
 * one sentence, is the task as written.
 */
export function taskOf(prompt: string): string {
  const sentences = piecesOf(prompt);
  const change = changeAsked(sentences);
  const task = sentences.filter((s) => !isRule(s) || s === change);
  if (!task.length) return prompt;
  const asked = task.flatMap((s) => requestOf(s) ?? []);
  if (asked.length && asked.length < task.length) {
    const pointsBack = asked.some((a) => POINTS_BACK.test(a) || OBJECTLESS.test(a));
    const before = pointsBack ? task.find((s) => !requestOf(s)) : undefined;
    return [before, ...asked]
      .filter(Boolean)
      .join(" ")
      .replace(/[.。]$/u, "");
  }
  if (task.length === sentences.length && sentences.length === sentencesOf(prompt).length) return prompt;
  return task.join(" ").replace(/[.。]$/u, "");
}

// A sentence that opens with what is allowed alone: "Only 5xx gets another try", "只有 5xx 才重试".
const EXCEPTION = /^(?:only|只有|只)/iu;
// A rule that says what not to do, also as a thing refused ("No retries in the test").
const NEGATED =
  /\b(?:don'?t|do not|never|stop|must not|mustn'?t|should not|shouldn'?t|cannot|can'?t)\b|^no\s+\w|不要|别|不许|不能/iu;

/**
 * What the sentence after a rule adds to it, as part of that rule: what to do instead of what the
 * rule forbids ("Don't skip duplicates silently. Merge them into the existing contact."), pointing
 * back at it or, in a prompt that adds to the task, whatever it asks ("The bucket must not be public
 * in any way. Add a public access block …"); there, also a short reason pointing back ("Then leave
 * that field in the mobile config response. Old app versions read it.").
 */
function addsToRule(rule: string, next: string, later: boolean): boolean {
  // What a prohibition still allows, said next: "4xx 的不要重试…。只有 5xx 和超时才重试。"
  const allowed = later && NEGATED.test(rule) && EXCEPTION.test(next);
  if (allowed && rule.length + next.length < RULE_MAX) return true;
  if (isRule(next) || /[?？]$/u.test(next) || rule.length + next.length >= RULE_MAX) return false;
  if (requestOf(next)) return NEGATED.test(rule) && (later || POINTS_BACK.test(next));
  return later && POINTS_BACK.test(next) && next.split(/\s+/).length <= 8;
}

/**
 * A rule that says what alone is allowed, after the short statement of the case it is an exception
 * to ("and a declined charge is final. only timeouts and 5xx get another try"): one rule.
 */
function exceptsCase(statement: string, rule: string): boolean {
  if (!EXCEPTION.test(rule) || !isRule(rule) || isRule(statement) || requestOf(statement)) return false;
  return !/[?？]$/u.test(statement) && statement.split(/\s+/).length <= 10 && statement.length <= 60;
}

// A prompt opened by refusing what the agent did: "no, …", "nope", "not alpine."
const REFUSAL_OPENING = /^(?:no|nope|not)\b/i;

/**
 * A later prompt that opens by refusing what the agent did, with the reason and what is fine instead
 * after it ("not alpine. we hit musl DNS weirdness with it last year. debian slim is fine"): one
 * rule, when the prompt is that short and asks no question and states no other rule. A bare "not X."
 * is a rule alone.
 */
function refusalWithReason(pieces: string[]): string | null {
  const [opening, ...rest] = pieces;
  if (!opening || rest.length > 2 || !REFUSAL_OPENING.test(opening)) return null;
  if (!REFUSED.test(opening) && !(rest.length && isRule(opening))) return null;
  const whole = pieces.join(" ");
  if (whole.length >= RULE_MAX || rest.some((p) => isRule(p) || /[?？]$/u.test(p))) return null;
  return whole;
}

/** A prompt's pieces with what a sentence adds to the rule before it joined to that rule (see addsToRule). */
function withWhatInstead(pieces: string[], later: boolean): string[] {
  const out: string[] = [];
  for (const p of pieces) {
    const last = out.at(-1);
    // Chinese sentences run on without a space.
    const joined = `${last}${/[。！？]$/u.test(last ?? "") ? "" : " "}${p}`;
    if (last !== undefined && isRule(last) && addsToRule(last, p, later)) out[out.length - 1] = joined;
    else if (last !== undefined && later && exceptsCase(last, p)) out[out.length - 1] = joined;
    else out.push(p);
  }
  return out;
}

/**
 * The rules the user stated across the session's prompts, each once, in order; a rule an earlier
 * snapshot or a noted correction already holds (its words inside this sentence) is not said twice.
 */
export function promptRules(prompts: readonly string[], known: readonly string[]): string[] {
  const held = known.map((k) => k.replace(/^User correction: /, "").trim()).filter((k) => k.length >= 4);
  const rules = prompts
    .flatMap((p, i) => rulesOfPrompt(p, i > 0))
    .filter((s) => !held.some((k) => s.includes(k) || k.includes(s)));
  return foldDuplicates(rules).kept;
}

/**
 * The rules one prompt states. Only the first prompt names the task: a later one's sentence keeps
 * its opening clause with its rule ("用 Element Plus 自带的 el-table-v2，别再装别的虚拟列表库。" is one
 * rule), and a later one that refuses what the agent did, or questions it and then refuses it, is
 * that one correction.
 */
function rulesOfPrompt(prompt: string, later: boolean): string[] {
  const pieces = piecesOf(prompt, !later);
  const correction = later ? (challengeAnswered(pieces) ?? refusalWithReason(pieces)) : null;
  if (correction) return [correction];
  // A bare refusal opening a later prompt ("not alpine.") is a rule whatever follows it.
  const refused = later && REFUSED.test(pieces[0] ?? "") ? pieces.slice(0, 1) : [];
  const change = later ? undefined : changeAsked(pieces);
  const rest = pieces.slice(refused.length).filter((s) => s !== change);
  return [...refused, ...withWhatInstead(rest, later).filter(isRule)];
}

// The user questioning what the agent did: "why did you add retries?", "为什么装了 papaparse？".
const CHALLENGE =
  /^(?:but\s+|wait,?\s+)?(?:why(?: did|'d| would| are)? you\b|为什么(?:你)?(?:要)?(?:装|加|改|用|删|换|引|写|把))/iu;
// What refuses the thing questioned: a prohibition, "不需要", "没必要".
const REFUSES = new RegExp(`${NEGATED.source}|不需要|没必要|用不着`, "iu");

/**
 * A prompt that opens by questioning what the agent did and then refuses it, in one or two
 * sentences and no further question ("为什么装了 papaparse？拼个 CSV 不需要库，自己写就行…"): those
 * sentences are the correction, a rule whatever its words.
 */
function challengeAnswered(pieces: string[]): string | null {
  const [question, ...rest] = pieces;
  if (!question || !CHALLENGE.test(question) || !/[?？]$/u.test(question)) return null;
  if (!rest.length || rest.length > 2 || rest.some((p) => /[?？]$/u.test(p))) return null;
  const answer = rest.join(/[。！]$/u.test(rest[0]) ? "" : " ");
  return REFUSES.test(answer) && answer.length < RULE_MAX ? answer : null;
}

// The agent announcing its next step: "Next, I'll …", "Next step: …", "接下来…", "下一步…".
const NEXT_EN =
  /^(?:(?:next(?: steps?| up)?[:,]?\s+(?!steps?\b)(?:(?:I'll|I will|we'll|we will|I'm going to|is to|is)\s+)?)|(?:(?:then|after that,?)\s+(?:I'll|I will|we'll|we will|I'm going to)\s+))(.{6,})/i;
const NEXT_ZH = /^(?:下一步|接下来|然后)(?:是|就是)?[：:，,]?\s*(?:我(?:会|将|要|再))?\s*(.{2,})/u;
// The step said as what is left of the task: "What remains is …", "Still to do: …", "The remaining
// piece is …", "还差：…", "还剩最后一件：…", "剩下的就是…".
const LEFT_EN =
  /^(?:(?:what(?:['\u2019]s| is) (?:still )?left(?: to do)?(?: now)?|what remains(?: to (?:do|be done))?|(?:the )?(?:only )?remaining (?:piece|step|part|work|task|bit|item|thing)s?) (?:is|are):?|(?:remaining|(?:still|left) to do|still left)\s*:)\s+(.{6,})/i;
const LEFT_ZH =
  /^(?:(?:还差|还剩下?)[：:，,]|(?:还差|还剩下?)(?:最后)?(?:一件事?|一步|一项|一个|一处)[：:]|剩下的?(?:就|只)?是[：:，,]?|还没做的(?:就)?是[：:，,]?)\s*(.{2,})/u;

/** The next step the agent's last message states, or what it says is left, if any (its last such sentence). */
export function statedNextStep(reply: string): string | null {
  for (const s of sentencesOf(reply).reverse()) {
    const m = NEXT_EN.exec(s) ?? NEXT_ZH.exec(s) ?? LEFT_EN.exec(s) ?? LEFT_ZH.exec(s);
    if (m) {
      const step = m[1].trim().replace(/[.。!！]$/u, "");
      return step.charAt(0).toUpperCase() + step.slice(1);
    }
  }
  return null;
}

// Words that name no work: greetings, pointers back, question words, time, "continue", "pick up".
// A prompt of only these ("hey, back on this. where were we?", "我们上次做到哪了？", "继续昨天那个")
// carries on the task before it, in the user's own words.
const NO_TASK_EN = new Set(
  (
    "hey hi hello morning good afternoon evening ok okay so well alright right thanks yes yeah sure now " +
    "back on to at in this that it where wheres were was we us our you i im is are what whats left did do " +
    "done doing leave off stop stopped pick picking up continue continuing resume resuming carry carrying " +
    "go going get getting again last time yesterday earlier before today status lets let the a and then"
  ).split(" "),
);
const NO_TASK_ZH =
  /我们|咱们|你|我|上次|上回|昨天|前天|刚才|之前|那个|这个|那里|这里|[做弄搞写改]到|哪儿|哪里|哪|进度|继续|接着|回来|早上好|早|好的?|嗯|看看|一下|了|的|吗|呢|吧|啊|呀|来|做/gu;

/** A short prompt of words that name no work: it carries on the task before it (see NO_TASK_EN). */
export function namesNoTask(prompt: string): boolean {
  const text = prompt.toLowerCase().replace(/[\u2018\u2019']/g, "");
  if (text.length > 80) return false;
  const han = text.replace(/[^\p{Script=Han}]/gu, "").replace(NO_TASK_ZH, "");
  const words = text.replace(/\p{Script=Han}/gu, " ").match(/[\p{L}\p{N}]+/gu) ?? [];
  return !han && words.every((w) => NO_TASK_EN.has(w)) && /[\p{L}\p{N}]/u.test(text);
}

/**
 * A prompt of a few words that asks for no work in so many words ("k lets continue", "picking up
 * yesterday's thing"): no request, no question. Whether it carries on a task is for the session to
 * show (auto-snapshot: the files it goes to first).
 */
export function asksNoWork(prompt: string): boolean {
  const text = ownWords(prompt).trim();
  const latin = text.replace(/\p{Script=Han}/gu, " ").match(/[\p{L}\p{N}]+/gu) ?? [];
  const han = text.match(/\p{Script=Han}/gu) ?? [];
  if (!latin.length && !han.length) return false;
  if (latin.length > 5 || han.length > 8) return false;
  return sentencesOf(text).every((s) => !requestOf(s) && !/[?？]$/u.test(s));
}

/** A reply that says only that the turn ended ("done", "OK", "完成"): no news about the task. */
export function isBareReply(reply: string): boolean {
  return /^(?:done|all done|finished|complete[d]?|ok(?:ay)?|fixed|好了|完成了?|搞定了?|已完成|做完了)[\s.!。！~]*$/iu.test(
    reply.trim(),
  );
}
