// Tags on a snapshot (`save --tag release`): short labels to list, recall and filter by.
import { UserError } from "../../errors.ts";
import { stripControl } from "./input-limits.ts";
import { redact } from "./redact.ts";

export const TAG_MAX = 64;
export const TAGS_MAX = 20;

/**
 * Trimmed, without a leading "#" (nor the spaces after it), inner spaces and tabs folded to one,
 * duplicates (ignoring case) folded; a bad tag is refused by name. A tag normalized again is itself,
 * so an export read back or a synced snapshot keeps its tags.
 */
export function normalizeTags(tags: string[] | undefined): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of tags ?? []) {
    const written = redact(stripControl(String(raw)))
      .replace(/^[#\s]+/, "")
      .trimEnd();
    // (Checked before spaces are folded: a line break is two tags run together, never one.)
    if (/[,\r\n\u2028\u2029]/.test(written))
      throw new UserError(
        `A tag has no commas or line breaks: ${JSON.stringify(written)}; give each tag its own --tag.`,
      );
    const t = written.replace(/\s+/g, " ");
    if (!t) continue;
    if (t.length > TAG_MAX)
      throw new UserError(
        `The tag ${JSON.stringify(t.slice(0, 20) + "…")} is ${t.length} characters; a tag is at most ${TAG_MAX}.`,
      );
    const k = t.toLowerCase();
    if (!seen.has(k)) {
      seen.add(k);
      out.push(t);
    }
  }
  if (out.length > TAGS_MAX)
    throw new UserError(`A snapshot has at most ${TAGS_MAX} tags; ${out.length} were given.`);
  return out;
}
