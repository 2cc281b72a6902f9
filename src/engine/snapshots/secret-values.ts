// What a value looks like: a word, a placeholder, or something random enough to be a secret.
// Shared by the rules (`redact.ts`) and the assignments to a secret's name (`secret-assignments.ts`).
import { NOT_A_VALUE } from "./word-secrets.ts";

export const tag = (kind: string): string => `[REDACTED:${kind}]`;

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
  return value
    .split(/[-_./]+/)
    .every((s) => /^(?:[a-z]*|[A-Z][a-z]+|[A-Z]+|\d{1,4}|[a-z]{0,3}\d{1,4})$/.test(s));
}

/** A value found where a secret is expected (an Authorization header, `curl -u`): anything but a word or a placeholder. */
export function plausible(value: string): boolean {
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

/** A regex match's named groups. */
export type Groups = Record<string, string | undefined>;

/** Where a redaction reports each secret it replaces (kind, and the secret's text): `findSecrets`. */
export type Found = ((kind: string, secret: string) => void) | undefined;
