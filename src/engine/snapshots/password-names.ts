// A password's name in other languages: `密码: correcthorsebattery`, `数据库密码是 hunter22`,
// `パスワード：letmein`, `Passwort: changeme`, `пароль=swordfish`. The value after such a name is
// a secret whatever its entropy when it is written in Latin letters, digits and symbols (4+
// characters). A value in CJK (or Cyrillic) is left: `密码：必须至少8位`, `密码是必填项` describe a
// password, and a description in the sentence's own script is far more likely than a CJK password.

import { computed, valueOf } from "./secret-assignments.ts";
import { looksSecret, tag, type Found } from "./secret-values.ts";
import { wordSecret, type Written } from "./word-secrets.ts";

/** Lower-case keywords that make the scan worth running (`redact.ts` looks for them first). */
export const PASSWORD_NAME_KEYWORDS = [
  "密码",
  "密碼",
  "口令",
  "パスワード",
  "비밀번호",
  "passwort",
  "kennwort",
  "mot de passe",
  "palavra-passe",
  "contrase",
  "senha",
  "пароль",
];

/** CJK names: words are not spaced, so the name may end a longer one (`DB密码`, `数据库密码`). */
const CJK_NAMES = "密码|密碼|口令|パスワード|비밀번호";
/** German compounds end in the name (`Datenbankpasswort`, `Root-Kennwort`): no start needed. */
const COMPOUND_NAMES = "passwort|kennwort";
/** Other names start a word. */
const WORD_NAMES = "mot de passe|palavra-passe|contrase[ñn]a|senha|пароль";
/** `:`, full-width `：`, `=`, and the CJK copulas (`是`, `为`, `為`, Japanese `は`), a colon after them too. */
const SEPARATOR = "[:：=]|(?:是|为|為|は)[ \\t]{0,3}[:：]?";

/** CJK letters and punctuation (full-width forms included): a bare value ends at them. */
const CJK =
  "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u3000-\\u303F\\uFF00-\\uFFEF";
const CJK_CHAR = new RegExp(`[${CJK}]`, "u");
/** A CJK letter (not punctuation): glued to a Latin value, it makes the value part of a word. */
const CJK_LETTER = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const QUOTED = `"[^"\\n]{1,300}"|'[^'\\n]{1,300}'|“[^”\\n]{1,300}”|「[^」\\n]{1,300}」|『[^』\\n]{1,300}』`;
const BARE = `[^\\s"'\`${CJK}][^\\s${CJK}]{0,299}`;

const NAMED = () =>
  new RegExp(
    `(?:${CJK_NAMES}|(?:${COMPOUND_NAMES})(?![\\p{L}\\p{N}])|(?<![\\p{L}\\p{N}_])(?:${WORD_NAMES})(?![\\p{L}\\p{N}]))` +
      `["'”」]?[ \\t]{0,3}(?:${SEPARATOR})[ \\t]{0,3}(?<value>${QUOTED}|${BARE})`,
    "giu",
  );
let named: RegExp | null = null;

/** Latin letters, digits, symbols (and, quoted, spaces): the script a password is typed in. */
const LATIN_VALUE = /^(?=.*[\p{L}\p{N}])[\p{Script=Latin}\p{N}\p{P}\p{S} ]+$/u;
/** A value as a line or a quote gives it: the plain word counts (`word-secrets.ts`). */
const ALONE: Written = {
  quoted: false,
  keyQuoted: false,
  flag: false,
  env: false,
  yamlLine: true,
  code: false,
  prefixed: true,
};

/** Whether a bare value is a secret; `rest`: the text after it. */
function bareSecret(value: string, rest: string): boolean {
  if (!LATIN_VALUE.test(value) || /^[<{[(]/.test(value) || computed(value)) return false;
  // Latin words after it (`密码: stored in the vault`) or CJK letters glued to it (`密码：bcrypt加密`)
  // make it part of a sentence: only a secret-looking value counts there.
  const inSentence = /^[ \t]+[\p{Script=Latin}\p{N}]/u.test(rest) || CJK_LETTER.test(rest);
  if (inSentence) return value.length >= 6 && looksSecret(value, true);
  return value.length >= 4 && wordSecret(value, true, ALONE);
}

function quotedSecret(inner: string): boolean {
  return (
    inner.length >= 4 &&
    LATIN_VALUE.test(inner) &&
    !CJK_CHAR.test(inner) &&
    wordSecret(inner, true, { ...ALONE, quoted: true })
  );
}

/** Every Latin-script value after a password's name in another language, replaced by `[REDACTED:password]`. */
export function redactPasswordNames(text: string, found: Found): string {
  named ??= NAMED();
  return text.replace(named, (match: string, ...rest: unknown[]) => {
    const offset = rest.find((r) => typeof r === "number") as number;
    const full = (rest[rest.length - 1] as { value: string }).value;
    const head = match.slice(0, match.length - full.length);
    if (/^["'“「『]/.test(full)) {
      const inner = full.slice(1, -1);
      if (!quotedSecret(inner)) return match;
      found?.("password", inner);
      return head + full[0] + tag("password") + full[full.length - 1];
    }
    const value = valueOf(full);
    if (!bareSecret(value, full.slice(value.length) + text.slice(offset + match.length))) return match;
    found?.("password", value);
    return head + tag("password") + full.slice(value.length);
  });
}
