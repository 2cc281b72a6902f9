// Assignments to a secret's name: `DB_PASSWORD=…`, `"client_secret": "…"`, `--password …`,
// `"…" == password`. A secret-looking value is replaced; so is a plain word where the writing makes
// it a value (`word-secrets.ts`).
import {
  NAMES_NEEDING_ASSIGNMENT,
  NOT_SECRET_KEY_PREFIX,
  NOT_SECRET_KEY_SUFFIX,
  SECRET_KEY_NAMES,
  WORDS_NEED_PREFIX,
} from "./secret-rules.ts";
import { looksSecret, tag, type Found, type Groups } from "./secret-values.ts";
import { wordSecret, type Written } from "./word-secrets.ts";

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
const ASSIGNMENT = () =>
  new RegExp(
    `${NAME}(?<kq>["']?)[ \\t]{0,3}(?<sep>:=|=>|\\?=|!==?|===?|=(?!=)|:(?![:/])|(?:\\(|,[ \\t]{0,3}|[ \\t]{1,3})(?=["'\`]))[ \\t]{0,3}@?${VALUE}`,
    "g",
  );
/** A quoted value compared with a name: `if ("…" == password)`, `"…" !== my_private_key`. */
const REVERSED = () =>
  new RegExp(
    `(?<value>${QUOTED})[ \\t]{0,3}(?<sep>!==?|===?)[ \\t]{0,3}(?:[A-Za-z0-9]{1,20}_){0,3}(?<name>${NAMES.map(namePattern).join("|")})(?:_[A-Za-z0-9]{1,20}){0,3}(?![\\w])`,
    "g",
  );
/** `--name value`, `--db-password value`. */
const FLAG = () =>
  new RegExp(
    `(?<![\\w-])--(?:[a-z0-9]{1,20}-){0,3}(?<name>${NAMES.map((n) => n.replaceAll("_", "-?")).join("|")})(?<sep>[ \\t]{1,3})${VALUE}`,
    "g",
  );
/** The regexes, made on first use: every command loads this module, few redact. */
let assignments: { assignment: RegExp; flag: RegExp; reversed: RegExp } | null = null;
const assignmentRegexes = () =>
  (assignments ??= { assignment: ASSIGNMENT(), flag: FLAG(), reversed: REVERSED() });

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
export function valueOf(bare: string): string {
  let v = bare;
  while (v) {
    const last = v[v.length - 1]!;
    const open = OPENS[last];
    if (".,;:".includes(last) || (open && count(v, last) > count(v, open))) v = v.slice(0, -1);
    else if ("\"'`".includes(last) && count(v, last) % 2 === 1)
      v = v.slice(0, v.endsWith(`\\${last}`) ? -2 : -1);
    else break;
  }
  return v;
}

/** Code that computes or looks a value up, no value itself: `crypto.randomBytes(32)`, `os.environ["TOKEN"]`, `{password}`. */
const CODE =
  /^(?:[A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$]*)*(?:\([^()]*\)|\[[^[\]]*\])(?:\.[A-Za-z_$][\w$]*|\([^()]*\)|\[[^[\]]*\])*|\{[A-Za-z_$][\w$.]*\})$/;

/**
 * The opening of a JSON object or list, no value (`"credentials": {"value": …}`), or of a call
 * cut at a space (`isWithinTokenLimit(text,`).
 */
const STRUCTURE = /^(?:[{[](?:["'{[]|$)|[A-Za-z_$][\w$.]*\()/;

/** Code or structure, no value itself: `crypto.randomBytes(32)`, `{password}`, `[`. */
export const computed = (value: string): boolean => CODE.test(value) || STRUCTURE.test(value);

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
  const yamlLine =
    sep === ":" &&
    !quoted &&
    value === g.value &&
    /^[ \t]*(?:-[ \t]+)?[\w.-]*$/.test(text.slice(lineStart, m.index)) &&
    /^[ \t]*(?:#[^\n]*)?(?:\r?\n|$)/.test(after);
  return {
    quoted,
    keyQuoted: !!g.kq,
    flag,
    env,
    yamlLine,
    code: !quoted && (sep === "=" || sep === ":="),
    prefixed: prefix !== "",
  };
}

const COMPARISON = /^[!=]==?$/;

/** Whether the words after a key name make it describe a secret (`_FILE`, `Url`, `.name`), not hold one. */
function describes(suffix: string | undefined): boolean {
  if (!suffix) return false;
  return suffix
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[_.-]+/)
    .some((w) => NOT_SECRET_KEY_SUFFIX.has(w));
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
function assignment(
  text: string,
  m: RegExpExecArray,
  flag: boolean,
  found: Found,
  reversed = false,
): string | Replaced | undefined {
  const g = m.groups as Groups;
  const quoted = /^["'`]/.test(g.value!);
  const before = text.slice(Math.max(0, m.index - 30), m.index);
  // Most matches in prose end here (`password field`, `token (see below)`): the cheap checks first.
  if (!formFits(text, m, quoted, flag, before)) return undefined;
  if (NOT_SECRET_KEY_PREFIX.test(before) || describes(g.suffix)) return undefined;
  const a = readAssignment(g, quoted, flag, before);
  if (!a) return undefined;
  const at = reversed ? 0 : m[0].length - g.value!.length;
  const line = quoted || reversed || flag ? undefined : wholeLine(text, m, at, found);
  if (line) return line;
  return replacedValue(text, m, a, { at, flag, found });
}

/** An assignment as read: its value, its secret's name, and how surely its writing makes it one. */
interface AssignmentRead {
  quoted: boolean;
  /** The value as written, its quotes included. */
  value: string;
  /** The value without its quotes. */
  inner: string;
  /** The secret's name, canonical. */
  name: string;
  /** A flag, quotes, a quoted key, a separator other than `:`, or a header: an assignment, not prose. */
  strong: boolean;
  /** The name alone, no prefix. */
  bare: boolean;
}

/** The assignment's value and name, or undefined when the value is computed or the name needs a surer writing. */
function readAssignment(
  g: Groups,
  quoted: boolean,
  flag: boolean,
  before: string,
): AssignmentRead | undefined {
  const full = g.value!;
  const value = quoted ? full : valueOf(full);
  const name = canonical(g.name!);
  const inner = quoted ? value.slice(1, -1) : value;
  if (!quoted && computed(inner)) return undefined;
  const strong = flag || quoted || !!g.kq || g.sep !== ":" || HEADER.test(before);
  const bare = !/[\w.-]$/.test(before); // the name alone, no prefix
  if (!strong && bare && NAMES_NEEDING_ASSIGNMENT.has(name)) return undefined;
  return { quoted, value, inner, name, strong, bare };
}

/** The match with its value replaced by the secret's tag (a tag left over from before kept), or undefined for no secret. */
function replacedValue(
  text: string,
  m: RegExpExecArray,
  a: AssignmentRead,
  { at, flag, found }: { at: number; flag: boolean; found: Found },
): string | undefined {
  const full = m.groups!.value!;
  const { quoted, value, inner } = a;
  const head = m[0].slice(0, at) + (quoted ? value[0] : "");
  const end = (quoted ? value[0] : full.slice(value.length)) + m[0].slice(at + full.length);
  const left = quoted ? null : LEFT_OVER.exec(value);
  if (left) {
    found?.(left[1]!.slice(10, -1), left[2]!);
    return head + left[1] + end;
  }
  if (!holdsSecret(text, m, a, flag)) return undefined;
  const kind = KIND_OF.get(a.name) ?? "generic-api-key";
  found?.(kind, inner);
  return head + tag(kind) + end;
}

/** Whether the assigned value is a secret: a plain word where the writing makes it a value, else one that looks like a secret. */
function holdsSecret(text: string, m: RegExpExecArray, a: AssignmentRead, flag: boolean): boolean {
  const sep = m.groups!.sep!;
  const password = KIND_OF.get(a.name) === "password";
  // A plain word is a secret where the writing makes it a value; otherwise it must look like one
  // (6 characters on after a password's name or an assignment; others 8, as tokens are long).
  // A name compared or passed with a value (`token == "eof"`, `("api_token", "…")`) is code: only a secret-looking value counts.
  const words =
    !sep.startsWith(",") && !COMPARISON.test(sep) && (a.bare ? !WORDS_NEED_PREFIX.has(a.name) : true);
  if (words && wordSecret(a.inner, password, written(text, m, a.value, a.quoted, flag))) return true;
  const shortest = a.quoted ? 4 : password || a.strong ? 6 : 8;
  return a.inner.length >= shortest && looksSecret(a.inner, a.strong || password);
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
  const read: Written = {
    quoted: true,
    keyQuoted: false,
    flag: false,
    env,
    yamlLine: true,
    code: false,
    prefixed: true,
  };
  if ((!prefix && WORDS_NEED_PREFIX.has(name)) || !wordSecret(value, KIND_OF.get(name) === "password", read))
    return undefined;
  const kind = KIND_OF.get(name) ?? "generic-api-key";
  found?.(kind, value);
  return { out: m[0].slice(0, valueAt) + tag(kind), length: valueAt + value.length };
}

/** A replacement standing for more of the text than the match (`wholeLine`). */
interface Replaced {
  out: string;
  length: number;
}
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
    const [replacement, length] =
      typeof replaced === "string" ? [replaced, m[0].length] : [replaced.out, replaced.length];
    out += text.slice(done, m.index) + replacement;
    done = regex.lastIndex = m.index + length;
  }
  return out + text.slice(done);
}

/** Every assignment to a secret's name in a text, replaced; `flags`: the text holds a `--` (flags are looked for only then). */
export function redactAssignments(text: string, flags: boolean, found: Found): string {
  const regexes = assignmentRegexes();
  let out = redactAssignment(text, regexes.assignment, (t, m) => assignment(t, m, false, found));
  if (flags) out = redactAssignment(out, regexes.flag, (t, m) => assignment(t, m, true, found));
  if (/["'`]/.test(out))
    out = redactAssignment(out, regexes.reversed, (t, m) => assignment(t, m, false, found, true));
  return out;
}
