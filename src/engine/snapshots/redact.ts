// Secrets never go into memory: every known secret format (the rules in `secret-rules.ts`, after
// gitleaks) and every secret-looking value assigned to a secret's name (`DB_PASSWORD=…`,
// `"client_secret": "…"`, `--password …`) is replaced by `[REDACTED:<kind>]` before anything is
// stored (snapshots, failures, tool logs); so is a plain word where the writing makes it a value
// (`DB_PASSWORD=correcthorsebattery`: `word-secrets.ts`). Ordinary prose stays as written:
// `token: rotate on use` and `author: Jane`.

import { NAMES_NEEDING_ASSIGNMENT, NOT_SECRET_KEY_PREFIX, NOT_SECRET_KEY_SUFFIX, SECRET_KEY_NAMES, SECRET_RULES, WORDS_NEED_PREFIX, type SecretRule } from "./secret-rules.ts";
import { NOT_A_VALUE, wordSecret, type Written } from "./word-secrets.ts";

const tag = (kind: string): string => `[REDACTED:${kind}]`;

/** Shannon entropy in bits per character, as gitleaks computes it. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / s.length) * Math.log2(n / s.length);
  return bits;
}

/** Words, joined by `-`, `_`, `.` or `/`, and short numbers: `rotate`, `JWT-based`, `v1.2.3-rc1`. */
function wordish(value: string): boolean {
  return value.split(/[-_./]+/).every((s) => /^(?:[a-z]*|[A-Z][a-z]+|[A-Z]+|\d{1,4}|[a-z]{0,3}\d{1,4})$/.test(s));
}

/** A value found where a secret is expected (an Authorization header, `curl -u`): anything but a word or a placeholder. */
function plausible(value: string): boolean {
  return !NOT_A_VALUE.test(value) && !wordish(value);
}

/**
 * A value assigned to a secret's name that looks like a secret: no whitespace, placeholder, path
 * or URL, and a symbol or letters mixed with digits (for a bare `name: value`, which is
 * prose-prone, within one run of 8+ characters); `strong` assignments (`=`, quotes, flags) also
 * take long digit runs and random-looking letters (mixed case that is not camelCase, or long).
 */
export function looksSecret(value: string, strong: boolean): boolean {
  if (/\s/.test(value) || NOT_A_VALUE.test(value)) return false;
  const digit = /\d/.test(value);
  const letter = /[A-Za-z]/.test(value);
  if (/[^\w./-]/.test(value) && (digit || letter)) return true;
  if (!strong) return value.split(/[-_./]+/).some((s) => s.length >= 8 && /\d/.test(s) && /[A-Za-z]/.test(s));
  if (digit) return letter ? !wordish(value) : /^\d{6,}$/.test(value);
  if (!/^[A-Za-z]{12,}$/.test(value) || entropy(value) < 3) return false;
  const upper = value.replace(/[^A-Z]/g, "").length;
  const minority = Math.min(upper, value.length - upper);
  return minority === 0 ? value.length >= 20 && entropy(value) >= 3.5 : minority / value.length >= 0.25;
}

type Groups = Record<string, string | undefined>;

/** Runs one regex over the text; `decide` returns the replacement or undefined to leave the match. */
function replaceAll(text: string, regex: RegExp, decide: (match: string, groups: Groups, offset: number) => string | undefined): string {
  return text.replace(regex, (match: string, ...rest: unknown[]) => {
    const last = rest[rest.length - 1];
    const groups = (typeof last === "object" && last !== null ? last : {}) as Groups;
    const offset = rest.find((r) => typeof r === "number") as number;
    return decide(match, groups, offset) ?? match;
  });
}

/** Where a redaction reports each secret it replaces (kind, and the secret's text): `findSecrets`. */
type Found = ((kind: string, secret: string) => void) | undefined;

function applyRule(text: string, rule: SecretRule, found: Found): string {
  return replaceAll(text, rule.regex, (match, groups) => {
    const keep = groups.keep ?? "";
    const secret = match.slice(keep.length);
    if (rule.entropy !== undefined && entropy(secret) < rule.entropy) return undefined;
    if (rule.allow?.test(secret)) return undefined;
    if (rule.plausible && !plausible(secret)) return undefined;
    found?.(rule.kind ?? rule.id, secret);
    return keep + tag(rule.kind ?? rule.id);
  });
}

// ── Assignments to a secret's name ──────────────────────────────────────────────────────────

const KIND_OF = new Map<string, string>();
for (const { kind, names } of SECRET_KEY_NAMES) for (const n of names) KIND_OF.set(n, kind);

/**
 * `api_key` → api_key, apiKey, ApiKey, API_KEY, api-key, apikey, API.KEY… `secret` also as
 * `secrete`, detect-secrets' spelling (in the pattern, not the names: each name costs every scan).
 */
function namePattern(name: string): string {
  const word = (w: string) => `(?:${w}|${w[0]!.toUpperCase()}${w.slice(1)}|${w.toUpperCase()})`;
  return name.split("_").map(word).join("[_.-]?") + (name === "secret" ? "(?:e|E)?" : "");
}

const NAMES = [...KIND_OF.keys()].sort((a, b) => b.length - a.length);
/** The letters a name starts with: a regex tries a place only when one stands there (most places fail at once). */
const FIRST_LETTERS = [...new Set(NAMES.map((n) => n[0]!))].map((c) => c + c.toUpperCase()).join("");
/**
 * The name starts a word: after a non-letter, or camelCase (`dbPassword`). Words may follow it
 * (`password_super_secure`, `apikey_myservice`, `bot_token1`), and C's brackets (`secret[25]`).
 */
const NAME = `(?=[${FIRST_LETTERS}])(?:(?<![A-Za-z0-9])|(?<=[a-z0-9])(?=[A-Z]))(?<name>${NAMES.map(namePattern).join("|")})(?<suffix>(?:[_.-][A-Za-z0-9]{1,20}){1,2}|\\d{1,3})?(?![A-Za-z0-9])(?:\\[\\d{0,5}\\])?`;
const QUOTED = `"(?:[^"\\\\\\n]|\\\\.){1,300}"|'[^'\\n]{1,300}'|\`[^\`\\n]{1,300}\``;
/** A bare value ends where prose does, full-width (CJK) punctuation included: `password: flow）next`. */
const CJK_PUNCT = "，。；：、（）「」『』【】！？";
/**
 * A bare value runs to the next space: a password's own symbols (`Tr0ub4dor&3x`, `Ab1!cd(ef)gh`,
 * `abc123,def456`) are part of it. `valueOf` then trims what follows it in the sentence.
 */
const BARE = `[^\\s"'\`${CJK_PUNCT}][^\\s${CJK_PUNCT}]{0,299}(?=[\\s${CJK_PUNCT}]|$)`;
const VALUE = `(?<value>${QUOTED}|${BARE})`;
/**
 * `NAME=value`, `NAME: value`, `"name": "value"`, `name := value`, `:name => value`, `--name=value`,
 * `password = @"…"` (Objective-C); a comparison with a quoted value (`if (api_key == "…")`); C++
 * and config forms with a quoted value (`std::string secret("…")`, `secret.assign("…")`,
 * `password "…";`, `("api_token", "…")`), which `formFits` checks. One regex, as each scan of
 * the names costs every text.
 */
const ASSIGNMENT = () => new RegExp(`${NAME}(?<kq>["']?)[ \\t]{0,3}(?<sep>:=|=>|\\?=|!==?|===?|=(?!=)|:(?![:/])|(?:\\(|,[ \\t]{0,3}|[ \\t]{1,3})(?=["'\`]))[ \\t]{0,3}@?${VALUE}`, "g");
/** A quoted value compared with a name: `if ("…" == password)`, `"…" !== my_private_key`. */
const REVERSED = () => new RegExp(`(?<value>${QUOTED})[ \\t]{0,3}(?<sep>!==?|===?)[ \\t]{0,3}(?:[A-Za-z0-9]{1,20}_){0,3}(?<name>${NAMES.map(namePattern).join("|")})(?:_[A-Za-z0-9]{1,20}){0,3}(?![\\w])`, "g");
/** `--name value`, `--db-password value`. */
const FLAG = () => new RegExp(`(?<![\\w-])--(?:[a-z0-9]{1,20}-){0,3}(?<name>${NAMES.map((n) => n.replaceAll("_", "-?")).join("|")})(?<sep>[ \\t]{1,3})${VALUE}`, "g");
/** The regexes, made on first use: every command loads this module, few redact. */
let assignments: { assignment: RegExp; flag: RegExp; reversed: RegExp } | null = null;
const assignmentRegexes = () => (assignments ??= { assignment: ASSIGNMENT(), flag: FLAG(), reversed: REVERSED() });

/** The canonical name a matched spelling stands for (`clientSecret` → secret, `API-KEY` → api_key). */
function canonical(spelling: string): string {
  const flat = spelling.toLowerCase().replace(/[_.-]/g, "");
  return NAMES.find((n) => n.replaceAll("_", "") === flat) ?? spelling.toLowerCase();
}

/** The bracket each closing one pairs with. */
const OPENS: Record<string, string> = { ")": "(", "]": "[", "}": "{", ">": "<" };
const count = (s: string, ch: string): number => s.split(ch).length - 1;

/**
 * A bare value without what the sentence put after it: a full stop, comma, semicolon or colon, a
 * bracket it did not open (`(password=…)`), the quote closing a string around it (`"PW=…"`).
 */
function valueOf(bare: string): string {
  let v = bare;
  while (v) {
    const last = v[v.length - 1]!;
    const open = OPENS[last];
    if (".,;:".includes(last) || (open && count(v, last) > count(v, open))) v = v.slice(0, -1);
    else if ("\"'`".includes(last) && count(v, last) % 2 === 1) v = v.slice(0, v.endsWith(`\\${last}`) ? -2 : -1);
    else break;
  }
  return v;
}

/** Code that computes or looks a value up, no value itself: `crypto.randomBytes(32)`, `os.environ["TOKEN"]`, `{password}`. */
const CODE = /^(?:[A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$]*)*(?:\([^()]*\)|\[[^[\]]*\])(?:\.[A-Za-z_$][\w$]*|\([^()]*\)|\[[^[\]]*\])*|\{[A-Za-z_$][\w$.]*\})$/;

/**
 * The opening of a JSON object or list, no value (`"credentials": {"value": …}`), or of a call
 * cut at a space (`isWithinTokenLimit(text,`).
 */
const STRUCTURE = /^(?:[{[](?:["'{[]|$)|[A-Za-z_$][\w$.]*\()/;

/** What an older version left of a value it cut at a symbol: `[REDACTED:password]&3x`. */
const LEFT_OVER = /^(\[REDACTED:[\w-]+\])(.+)$/s;

/** How the name and value of a match are written, for `wordSecret`. */
function written(text: string, m: RegExpExecArray, value: string, quoted: boolean, flag: boolean): Written {
  const g = m.groups as Groups;
  const lineStart = text.lastIndexOf("\n", m.index - 1) + 1;
  const prefix = /[\w.-]*$/.exec(text.slice(Math.max(lineStart, m.index - 60), m.index))![0];
  const key = prefix + g.name! + (g.suffix ?? "");
  const sep = g.sep ?? "";
  const env = (sep === "=" || sep === ":") && /^[A-Z0-9_.-]+$/.test(key) && /[A-Z]/.test(key);
  const after = text.slice(m.index + m[0].length);
  const yamlLine = sep === ":" && !quoted && value === g.value && /^[ \t]*(?:-[ \t]+)?[\w.-]*$/.test(text.slice(lineStart, m.index)) && /^[ \t]*(?:#[^\n]*)?(?:\r?\n|$)/.test(after);
  return { quoted, keyQuoted: !!g.kq, flag, env, yamlLine, code: !quoted && (sep === "=" || sep === ":="), prefixed: prefix !== "" };
}

const COMPARISON = /^[!=]==?$/;

/** Whether the words after a key name make it describe a secret (`_FILE`, `Url`, `.name`), not hold one. */
function describes(suffix: string | undefined): boolean {
  if (!suffix) return false;
  return suffix.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().split(/[_.-]+/).some((w) => NOT_SECRET_KEY_SUFFIX.has(w));
}

/** Forms that stand for an assignment only in their own place (see `ASSIGNMENT`): comparisons, calls, `name "…";`. */
function formFits(text: string, m: RegExpExecArray, quoted: boolean, flag: boolean, before: string): boolean {
  const sep = m.groups!.sep ?? "";
  if (COMPARISON.test(sep)) return quoted;
  if (sep === "(") return quoted && (m.groups!.suffix === ".assign" || /\bstring[ \t]*$/i.test(before));
  // `GetEnvOrDefault("api_token", "…")`: a quoted name, then its quoted value.
  if (sep.startsWith(",")) return quoted && !!m.groups!.kq;
  if (/^[ \t]+$/.test(sep) && !flag) return quoted && text[m.index + m[0].length] === ";";
  return true;
}

/** An HTTP header written on a command line: `-H "Token: …"`, `--header 'apikey: …'`. */
const HEADER = /(?:-H|--header)[ \t]+["']?$/;

/** The replacement for one assignment, or undefined to leave it. `reversed`: the value comes first (`"…" == password`). */
function assignment(text: string, m: RegExpExecArray, flag: boolean, found: Found, reversed = false): string | Replaced | undefined {
  const g = m.groups as Groups;
  const full = g.value!;
  const quoted = /^["'`]/.test(full);
  const before = text.slice(Math.max(0, m.index - 30), m.index);
  // Most matches in prose end here (`password field`, `token (see below)`): the cheap checks first.
  if (!formFits(text, m, quoted, flag, before)) return undefined;
  if (NOT_SECRET_KEY_PREFIX.test(before) || describes(g.suffix)) return undefined;
  const value = quoted ? full : valueOf(full);
  const name = canonical(g.name!);
  const inner = quoted ? value.slice(1, -1) : value;
  if (!quoted && (CODE.test(inner) || STRUCTURE.test(inner))) return undefined;
  const strong = flag || quoted || !!g.kq || g.sep !== ":" || HEADER.test(before);
  const bare = !/[\w.-]$/.test(before); // the name alone, no prefix
  if (!strong && bare && NAMES_NEEDING_ASSIGNMENT.has(name)) return undefined;
  const at = reversed ? 0 : m[0].length - full.length;
  const line = quoted || reversed || flag ? undefined : wholeLine(text, m, at, found);
  if (line) return line;
  const head = m[0].slice(0, at) + (quoted ? value[0] : "");
  const end = (quoted ? value[0] : full.slice(value.length)) + m[0].slice(at + full.length);
  const left = quoted ? null : LEFT_OVER.exec(value);
  if (left) {
    found?.(left[1]!.slice(10, -1), left[2]!);
    return head + left[1] + end;
  }
  const password = KIND_OF.get(name) === "password";
  // A plain word is a secret where the writing makes it a value; otherwise it must look like one
  // (6 characters on after a password's name or an assignment; others 8, as tokens are long).
  // A name compared or passed with a value (`token == "eof"`, `("api_token", "…")`) is code: only a secret-looking value counts.
  const words = !g.sep!.startsWith(",") && !COMPARISON.test(g.sep!) && (bare ? !WORDS_NEED_PREFIX.has(name) : true);
  const plain = words && wordSecret(inner, password, written(text, m, value, quoted, flag));
  if (!plain && (inner.length < (quoted ? 4 : password || strong ? 6 : 8) || !looksSecret(inner, strong || password))) return undefined;
  const kind = KIND_OF.get(name) ?? "generic-api-key";
  found?.(kind, inner);
  return head + tag(kind) + end;
}

/** A config line's value to its end (or a `#` comment): `aws_secret_access_key: value with quotes and spaces`. */
const LINE_VALUE = /^[^\n#"'`]{1,200}?(?=[ \t]*(?:#|\r?\n|$))/;

/**
 * A config line whose whole rest is its value, words and all, after a key with a prefix or in
 * upper case (a setting, not a sentence: `token: the next page` stays): the replacement and how
 * much of the text it stands for, or undefined to read the value as one word.
 */
function wholeLine(text: string, m: RegExpExecArray, valueAt: number, found: Found): Replaced | undefined {
  const g = m.groups as Groups;
  const lineStart = text.lastIndexOf("\n", m.index - 1) + 1;
  const prefix = /^[ \t]*([\w.-]*)$/.exec(text.slice(lineStart, m.index))?.[1];
  // `KEY=value rest` is a shell's assignment, ended by a space; an ini file spaces its `=` (`key = a b c`).
  if (prefix === undefined || (g.sep !== ":" && !(g.sep === "=" && /[ \t]=/.test(m[0])))) return undefined;
  const value = LINE_VALUE.exec(text.slice(m.index + valueAt))?.[0];
  const key = prefix + g.name! + (g.suffix ?? "");
  const env = /^[A-Z0-9_.-]+$/.test(key);
  if (!value || !/\s/.test(value) || value.split(/\s+/).length > 5 || (!prefix && !env)) return undefined;
  const name = canonical(g.name!);
  const read: Written = { quoted: true, keyQuoted: false, flag: false, env, yamlLine: true, code: false, prefixed: true };
  if ((!prefix && WORDS_NEED_PREFIX.has(name)) || !wordSecret(value, KIND_OF.get(name) === "password", read)) return undefined;
  const kind = KIND_OF.get(name) ?? "generic-api-key";
  found?.(kind, value);
  return { out: m[0].slice(0, valueAt) + tag(kind), length: valueAt + value.length };
}

/** A replacement standing for more of the text than the match (`wholeLine`). */
interface Replaced { out: string; length: number }
type Decide = (text: string, m: RegExpExecArray) => string | Replaced | undefined;

function redactAssignment(text: string, regex: RegExp, decide: Decide): string {
  let out = "";
  let done = 0;
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m; m = regex.exec(text)) {
    const replaced = decide(text, m);
    // Left as it is: another secret's name may stand inside that value (`api_key=$KEY&password=…`).
    if (replaced === undefined) {
      regex.lastIndex = m.index + 1;
      continue;
    }
    const [replacement, length] = typeof replaced === "string" ? [replaced, m[0].length] : [replaced.out, replaced.length];
    out += text.slice(done, m.index) + replacement;
    done = regex.lastIndex = m.index + length;
  }
  return out + text.slice(done);
}

const KEY_WORDS = ["pass", "pwd", "secret", "key", "token", "cred", "auth"];

/** A rule without keywords runs on every text. */
const ALWAYS = SECRET_RULES.some((r) => !r.keywords);

/** Every keyword the rules (and the assignments) look for, longest first. */
export function allKeywords(): string[] {
  return [...new Set([...SECRET_RULES.flatMap((r) => r.keywords ?? []), ...KEY_WORDS])].sort((a, b) => b.length - a.length);
}

/** The keyword scan, made on first use (every command loads this module; few redact). */
let scan: { any: RegExp; prefixes: Map<string, string[]> } | null = null;
function keywordScan(): NonNullable<typeof scan> {
  if (scan) return scan;
  const keywords = allKeywords();
  const known = new Set(keywords);
  // Each keyword with the others that are its prefixes.
  const prefixes = new Map(keywords.map((k) => {
    const own: string[] = [];
    for (let n = 1; n < k.length; n++) if (known.has(k.slice(0, n))) own.push(k.slice(0, n));
    return [k, own];
  }));
  return (scan = { any: new RegExp(keywords.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g"), prefixes });
}

/**
 * The keywords in a (lower-cased) text, in one regex scan instead of an `includes` per keyword
 * and rule: at each place a keyword starts, the longest one found there and those that are its
 * prefixes (two keywords starting at one place are always one the other's prefix).
 */
export function keywordsIn(lower: string): Set<string> {
  const { any, prefixes } = keywordScan();
  const found = new Set<string>();
  any.lastIndex = 0;
  for (let m = any.exec(lower); m; m = any.exec(lower)) {
    found.add(m[0]);
    for (const p of prefixes.get(m[0])!) found.add(p);
    any.lastIndex = m.index + 1;
  }
  return found;
}

/**
 * SHA-256 digests of long texts `redact` returned lately. Redacting is idempotent (a redacted text
 * has nothing more to replace), so such a text comes back as it is without another scan: an import
 * redacts each Layer 3 when it reads the file and again when it saves the snapshot. Digests, not
 * the texts: a long-lived set holding a text made it outlive the young-generation collections, so
 * every Layer 3 an import read stayed in memory until a full one (~10 KB a snapshot; 344 → ~240 MB
 * at 10,000, docs/benchmarks.md). A digest costs ~5 µs for 7 KB, a scan ~1 ms.
 */
const redacted = new Set<string>();
const REMEMBER_FROM = 512;
// Of the UTF-16 code units, not UTF-8: UTF-8 turns every lone surrogate into U+FFFD, so two
// different texts would share a digest.
const digest = (s: string): string => new Bun.CryptoHasher("sha256").update(Buffer.from(s, "utf16le")).digest("base64");

/** Replaces every secret the rules know in a text; everything else stays byte for byte. */
export function redact(text: string): string {
  const key = text.length >= REMEMBER_FROM ? digest(text) : "";
  if (key && redacted.has(key)) return text;
  const out = redactWith(text, undefined);
  if (out.length >= REMEMBER_FROM) {
    if (redacted.size >= 32) redacted.clear();
    redacted.add(out === text ? key : digest(out));
  }
  return out;
}

function redactWith(text: string, found: Found): string {
  if (text.length < 8) return text;
  const lower = text.toLowerCase();
  const present = keywordsIn(lower);
  if (!present.size && !ALWAYS) return text;
  let out = text;
  for (const rule of SECRET_RULES) {
    if (rule.keywords && !rule.keywords.some((k) => present.has(k))) continue;
    out = applyRule(out, rule, found);
  }
  if (KEY_WORDS.some((k) => present.has(k))) {
    const regexes = assignmentRegexes();
    out = redactAssignment(out, regexes.assignment, (t, m) => assignment(t, m, false, found));
    if (lower.includes("--")) out = redactAssignment(out, regexes.flag, (t, m) => assignment(t, m, true, found));
    if (/["'`]/.test(out)) out = redactAssignment(out, regexes.reversed, (t, m) => assignment(t, m, false, found, true));
  }
  return out;
}

/** Room past a cut in which a secret that straddles it is still seen whole. */
const CUT_MARGIN = 1000;

/**
 * At most `max` characters from the start of a text, redacted. The secrets are looked for before
 * the cut, in `max` + CUT_MARGIN characters (a secret cut in half is no longer recognised), less
 * the word that extra cut went through (it may be a secret's first half); a tag is never cut in
 * half. `prepare` cleans the text after that first cut (e.g. strips control characters).
 */
export function redactHead(text: string, max: number, prepare: (s: string) => string = (s) => s): string {
  const cut = text.length > max + CUT_MARGIN;
  let head = prepare(cut ? text.slice(0, max + CUT_MARGIN) : text);
  if (cut) head = head.replace(/\S{1,500}$/, "");
  const out = redact(head);
  if (out.length <= max) return out;
  const kept = out.slice(0, max);
  const open = kept.lastIndexOf("[REDACTED:");
  return open >= 0 && !kept.includes("]", open) ? kept.slice(0, open) : kept;
}

/**
 * Redacts every string inside a JSON-like value, object keys included (a YAML key can carry a
 * secret). Two keys that redact to the same text are both kept: the later one gets ` (2)`, ` (3)`…
 */
export function redactDeep<T>(value: T): T {
  if (typeof value === "string") return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    const keys = entries.map(([k]) => redact(k));
    const taken = new Set(keys.filter((k, i) => k === entries[i]![0]));
    return Object.fromEntries(entries.map(([k, v], i) => {
      let key = keys[i]!;
      if (key !== k) {
        for (let n = 2; taken.has(key); n++) key = `${keys[i]} (${n})`;
        taken.add(key);
      }
      return [key, redactDeep(v)];
    })) as T;
  }
  return value;
}

/**
 * A key as a message may show it: redacted, and hidden whole when it looks like a secret of no
 * known format (a long random-looking word), which redaction keeps in a text but a warning need not echo.
 */
export function shownKey(key: string): string {
  const out = redact(key);
  if (out !== key) return out;
  return key.length >= 16 && looksSecret(key, true) && entropy(key) >= 3.5 ? tag("generic-api-key") : key;
}

/** The secrets `redact` would replace in a text, in the order it finds them, each with its kind. */
export function findSecrets(text: string): { kind: string; secret: string }[] {
  const out: { kind: string; secret: string }[] = [];
  redactWith(text, (kind, secret) => out.push({ kind, secret }));
  return out;
}

/** Known prefixes that name a token's format without being part of its secret: shown by `mask`. */
const FORMAT_PREFIX = /^(?:-----BEGIN[ A-Z0-9_-]{0,40}-----|(?:gh[pousr]|github_pat|glpat|xox[a-z]|npm|pypi|hf|dop_v1|shpat|lin_api|hvs|sk_live|sk_test|rk_live|sk-proj|sk-ant-api03|sk|key|dapi|AGE-SECRET-KEY)[_.-]|AKIA|ASIA|AIza|SG\.|eyJ)/;

/**
 * A secret as it may be shown: its format prefix (when it has a known one) and how many
 * characters follow, never any of them: `ghp_…(36)`, `…(14)`.
 */
export function mask(secret: string): string {
  const prefix = FORMAT_PREFIX.exec(secret)?.[0] ?? "";
  const rest = secret.length - prefix.length;
  return rest < 8 ? `…(${secret.length})` : `${prefix}…(${rest})`;
}

/** What a save says when redaction changed its input: how many secrets it replaced, never which. */
export function redactionWarning(before: unknown, after: unknown): string[] {
  const count = (v: unknown) => (JSON.stringify(v)?.match(/\[REDACTED:[\w-]+\]/g) ?? []).length;
  const n = count(after) - count(before);
  return n > 0 ? [`Replaced ${n} secret(s) with [REDACTED:<kind>] before storing; the rest is as written.`] : [];
}
