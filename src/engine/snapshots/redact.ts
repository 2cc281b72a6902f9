// Secrets never go into memory: every known secret format (the rules in `secret-rules.ts`, after
// gitleaks) and every secret-looking value assigned to a secret's name (`DB_PASSWORD=…`,
// `"client_secret": "…"`, `--password …`) is replaced by `[REDACTED:<kind>]` before anything is
// stored (snapshots, failures, tool logs); so is a plain word where the writing makes it a value
// (`DB_PASSWORD=correcthorsebattery`: `word-secrets.ts`). Ordinary prose stays as written:
// `token: rotate on use` and `author: Jane`.

import { RULE_KEYWORDS, secretRules, type SecretRule } from "./secret-rules.ts";
import { redactAssignments } from "./secret-assignments.ts";
import { PASSWORD_NAME_KEYWORDS, redactPasswordNames } from "./password-names.ts";
import { entropy, looksSecret, plausible, tag, type Found, type Groups } from "./secret-values.ts";
import { withoutPrivate } from "./private-spans.ts";

/** Runs one regex over the text; `decide` returns the replacement or undefined to leave the match. */
function replaceAll(
  text: string,
  regex: RegExp,
  decide: (match: string, groups: Groups, offset: number) => string | undefined,
): string {
  return text.replace(regex, (match: string, ...rest: unknown[]) => {
    const last = rest[rest.length - 1];
    const groups = (typeof last === "object" && last !== null ? last : {}) as Groups;
    const offset = rest.find((r) => typeof r === "number") as number;
    return decide(match, groups, offset) ?? match;
  });
}

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

const KEY_WORDS = ["pass", "pwd", "secret", "key", "token", "cred", "auth"];

/**
 * What every assignment `secret-assignments.ts` reads has between a name and its value, or around
 * a compared value: `=`, `:`, a quote, or a space (`--password value`). A text without one (a file
 * path, a model's name) holds no assignment.
 */
const ASSIGNMENT_MARK = /[=:"'`\s]/;

/** Every keyword the rules (and the assignments) look for, longest first. */
export function allKeywords(): string[] {
  return [...new Set([...RULE_KEYWORDS, ...KEY_WORDS, ...PASSWORD_NAME_KEYWORDS])].sort(
    (a, b) => b.length - a.length,
  );
}

/** The keyword scan, made on first use (every command loads this module; few redact). */
let scan: { any: RegExp; prefixes: Map<string, string[]> } | null = null;
function keywordScan(): NonNullable<typeof scan> {
  if (scan) return scan;
  const keywords = allKeywords();
  const known = new Set(keywords);
  // Each keyword with the others that are its prefixes.
  const prefixes = new Map(
    keywords.map((k) => {
      const own: string[] = [];
      for (let n = 1; n < k.length; n++) if (known.has(k.slice(0, n))) own.push(k.slice(0, n));
      return [k, own];
    }),
  );
  return (scan = {
    any: new RegExp(keywords.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g"),
    prefixes,
  });
}

let keywordList: string[] | null = null;
/** A text shorter than this is searched for each keyword in turn: building the scan costs more. */
const SCAN_FROM = 256;

/**
 * The keywords in a (lower-cased) text. A longer text takes one regex scan instead of an
 * `includes` per keyword: at each place a keyword starts, the longest one found there and those
 * that are its prefixes (two keywords starting at one place are always one the other's prefix).
 */
export function keywordsIn(lower: string): Set<string> {
  if (lower.length < SCAN_FROM)
    return new Set((keywordList ??= allKeywords()).filter((k) => lower.includes(k)));
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
 * every Layer 3 an import read stayed in memory until a full one. A digest costs a small part of
 * what a scan does.
 */
const redacted = new Set<string>();
const REMEMBER_FROM = 512;
// Of the UTF-16 code units, not UTF-8: UTF-8 turns every lone surrogate into U+FFFD, so two
// different texts would share a digest.
const digest = (s: string): string =>
  new Bun.CryptoHasher("sha256").update(Buffer.from(s, "utf16le")).digest("base64");

/**
 * Replaces every secret the rules know in a text, after leaving out its private spans
 * (`private-spans.ts`); everything else stays byte for byte.
 */
export function redact(raw: string): string {
  const text = withoutPrivate(raw);
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
  // A password's name in another script makes a 7-character secret: `密码:abcd`.
  if (text.length < 8 && !/\P{ASCII}/u.test(text)) return text;
  const lower = text.toLowerCase();
  const present = keywordsIn(lower);
  if (!present.size) return text;
  let out = text;
  // The rule table is built only for a text one of its rules could match (every rule has keywords).
  if (RULE_KEYWORDS.some((k) => present.has(k))) {
    for (const rule of secretRules()) {
      if (rule.keywords && !rule.keywords.some((k) => present.has(k))) continue;
      out = applyRule(out, rule, found);
    }
  }
  if (KEY_WORDS.some((k) => present.has(k)) && ASSIGNMENT_MARK.test(out)) {
    out = redactAssignments(out, lower.includes("--"), found);
  }
  if (PASSWORD_NAME_KEYWORDS.some((k) => present.has(k))) out = redactPasswordNames(out, found);
  return out;
}

/** Room past a cut in which a secret that straddles it is still seen whole. */
const CUT_MARGIN = 1000;

/**
 * At most `max` characters from the start of a text, redacted; its private spans are left out
 * first. The secrets are looked for before the cut, in `max` + CUT_MARGIN characters (a secret cut
 * in half is no longer recognised), less the word that extra cut went through (it may be a secret's
 * first half); a tag is never cut in half. `prepare` cleans the text after that first cut (e.g.
 * strips control characters).
 */
export function redactHead(raw: string, max: number, prepare: (s: string) => string = (s) => s): string {
  // Private spans go first: a cut through one would leave its start unrecognised.
  const text = withoutPrivate(raw);
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
 * Strings `known` says the caller wrote itself (its field names, its times: nothing redaction
 * would change) are kept without a scan.
 */
export function redactDeep<T>(value: T, known: (s: string) => boolean = () => false): T {
  const scrub = (s: string): string => (known(s) ? s : redact(s));
  if (typeof value === "string") return scrub(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, known)) as T;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    const keys = entries.map(([k]) => scrub(k));
    const taken = new Set(keys.filter((k, i) => k === entries[i]![0]));
    return Object.fromEntries(
      entries.map(([k, v], i) => {
        let key = keys[i]!;
        if (key !== k) {
          for (let n = 2; taken.has(key); n++) key = `${keys[i]} (${n})`;
          taken.add(key);
        }
        return [key, redactDeep(v, known)];
      }),
    ) as T;
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
const FORMAT_PREFIX =
  /^(?:-----BEGIN[ A-Z0-9_-]{0,40}-----|(?:gh[pousr]|github_pat|glpat|xox[a-z]|npm|pypi|hf|dop_v1|shpat|lin_api|hvs|sk_live|sk_test|rk_live|sk-proj|sk-ant-api03|sk|key|dapi|AGE-SECRET-KEY)[_.-]|AKIA|ASIA|AIza|SG\.|eyJ)/;

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
  return n > 0
    ? [`Replaced ${n} secret(s) with [REDACTED:<kind>] before storing; the rest is as written.`]
    : [];
}
