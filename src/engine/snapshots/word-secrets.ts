// Passwords made of words: a value after a password's name is a secret whatever its entropy
// (`DB_PASSWORD=correcthorsebattery`, `POSTGRES_PASSWORD: changeme`, `"password": "letmein"`), where
// the way it is written says it is a value, not prose: an environment assignment, a JSON key, a
// YAML line, a quoted value, a flag. Left as written: placeholders and references (`${PW}`,
// `<password>`, `***`, `args.password`), types and keywords (`password: string`, `None`),
// messages (`"Enter your password"`), and a bare `name: value` inside a sentence.

/** How an assignment is written. */
export interface Written {
  /** The value was in quotes: `"…"`, `'…'`, `` `…` ``. */
  quoted: boolean;
  /** The key was in quotes: `"password": …`. */
  keyQuoted: boolean;
  /** A command-line flag: `--password …`. */
  flag: boolean;
  /** An environment variable: `DB_PASSWORD=…`, `POSTGRES_PASSWORD: …` (upper case, its prefix too). */
  env: boolean;
  /** A YAML line: the key starts the line, the value ends it. */
  yamlLine: boolean;
  /** `name = value` or `name := value` unquoted in code, where a value may be a variable's name. */
  code: boolean;
  /** The key has a prefix (`db_password`, `client_secret`): more surely a setting than a word in prose. */
  prefixed: boolean;
}

/** Stand-ins for a value in examples (gitleaks' curl allowlist without `changeme`, a real default password; one character repeated). */
export const STAND_IN = /^(?:pass(?:word)?|pwd|secret|test|token|\*+|x+|(.)\1*)$/i;

/** Placeholders, references, paths and URLs: values that name a secret without holding one. */
export const NOT_A_VALUE =
  /^(?:\$|%\w+%$|\{\{|<.*>$|\[REDACTED|\*+$|x+$|(.)\1*$|[a-z][\w+.-]*:\/\/|~?\/|\.\.?\/|[a-z]:\\)/i;

/** Values that ask to be replaced: `your-api-key-here`, `REPLACE_ME`, `<token>`, `example`. */
const ASKS_FOR_ONE =
  /^(?:your|my|some|insert|enter|put)[-_ .]|[-_ .](?:here|goes[-_]here)$|^replace[-_ ]?(?:me|this)$|^(?:example|sample|dummy|placeholder)$/i;

/** Types, keywords and the words of a sentence that follow a name without being its value. */
const NOT_A_PASSWORD = new Set([
  "string",
  "str",
  "text",
  "int",
  "integer",
  "number",
  "bool",
  "boolean",
  "bytes",
  "char",
  "any",
  "object",
  "unknown",
  "secretstr",
  "none",
  "null",
  "nil",
  "undefined",
  "true",
  "false",
  "yes",
  "no",
  "on",
  "off",
  "empty",
  "blank",
  "unset",
  "optional",
  "required",
  "hidden",
  "masked",
  "redacted",
  "omitted",
  "elided",
  "removed",
  "same",
  "see",
  "below",
  "above",
  "tbd",
  "todo",
  "n/a",
  "na",
  "the",
  "a",
  "an",
  "to",
  "is",
  "was",
  "be",
  "and",
  "or",
  "of",
  "in",
  "for",
  "with",
  "from",
  "by",
  "as",
  "at",
  "if",
  "it",
  "this",
  "that",
  "expired",
  "revoked",
  "rotated",
  "invalid",
  "valid",
  "missing",
  "set",
  "present",
  "absent",
  "configured",
  "pending",
  "ok",
  "flag",
  "option",
  "argument",
  "field",
  "value",
  "here",
  "there",
  "instead",
  "only",
  "first",
  "then",
  "when",
  "must",
  "should",
]);

/** An environment variable's name, quoted or not: `"DB_PASSWORD"`, `` `MINDSAVE_PEER_PASSPHRASE` ``. */
const ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

/** A variable's name in code: `user_password`, `dbPassword`, `self.password`, `args.pw`. */
const REFERENCE =
  /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$|^[a-z_$][a-z0-9$]*(?:_[a-z0-9$]+)+$|^[a-z$][a-z0-9$]*(?:[A-Z][a-z0-9$]*)+$/;

/** Words a note starts with: `see the vault`, `stored in 1Password`, `ask ops`. */
const NOTE_START =
  /^(?:see|the|a|an|in|on|at|to|from|use|set|stored|kept|ask|check|read|via|same|not|no|none|tbd|todo|rotate[ds]?)\s/i;

/**
 * A sentence of words is a message or a note, not a passphrase: it starts with a capital word or
 * a note's word, ends as a sentence does, names a secret, or runs long.
 */
function message(value: string): boolean {
  if (!/\s/.test(value)) return false;
  return (
    /^[A-Z][a-z]+\s/.test(value) ||
    NOTE_START.test(value) ||
    /[.:!?…)]$/.test(value) ||
    /pass(?:word|phrase)|secret|token|\bkey\b|credential/i.test(value) ||
    value.split(/\s+/).length > 5
  );
}

/**
 * Whether a value after a secret's name is a secret in its own right, however plain: for a
 * password's name wherever the writing says it is a value; for other names (`secret`, `token`,
 * `api_key`) in an environment variable, a JSON key, quotes, or a YAML line whose key has a prefix.
 */
export function wordSecret(value: string, password: boolean, w: Written): boolean {
  if (!writtenAsValue(password, w) || !value || !/[\p{L}\p{N}]/u.test(value)) return false;
  if (noSecretWord(value)) return false;
  if (w.quoted) return !message(value);
  if (/\s/.test(value)) return false;
  // Unquoted in code, a plain name is a variable (`password = user_password`); in env files and YAML it is the value.
  if (w.code && !w.env && REFERENCE.test(value)) return false;
  return value.length >= (w.yamlLine && !w.prefixed && !w.env ? 4 : 3);
}

/** Whether the writing makes what follows a secret's name its value, however plain. */
function writtenAsValue(password: boolean, w: Written): boolean {
  // Unquoted in code (`password = other`) a plain word is a variable's name: only ini-style keys with a prefix count there.
  return w.quoted || w.keyQuoted || w.env || w.yamlLine || (password && (w.flag || (w.code && w.prefixed)));
}

/** Words that stand in for a value or say there is none (`none`, `<your token>`, `$DB_PASSWORD`, `42`). */
function noSecretWord(value: string): boolean {
  return (
    NOT_A_VALUE.test(value) ||
    STAND_IN.test(value) ||
    ASKS_FOR_ONE.test(value) ||
    ENV_NAME.test(value) ||
    NOT_A_PASSWORD.has(value.toLowerCase()) ||
    /^\d{1,3}$/.test(value)
  );
}
