// Topic slugs and snapshot names, per the spec: topic ≤20 characters of letters, digits and `_`
// (any script: a Chinese goal gives a Chinese slug, never an empty one); id `{topic}_{YYYY-MM-DD}`,
// then `-2`, `-3` for the same day.

export const TOPIC_MAX = 20;

export function topicSlug(text: string): string {
  const chars = [...text.normalize("NFC").replace(/[^\p{L}\p{N}\p{M}]+/gu, "_").replace(/^_+|_+$/g, "").toLowerCase()];
  let slug = chars.slice(0, TOPIC_MAX).join("");
  // Cut at a word boundary when the cut fell inside a word and a reasonable prefix remains.
  if (chars.length > TOPIC_MAX && chars[TOPIC_MAX] !== "_") {
    const at = slug.lastIndexOf("_");
    if (at >= 8) slug = slug.slice(0, at);
  }
  slug = slug.replace(/_+$/g, "");
  return slug || "snapshot";
}

/** A valid topic given by the user is kept as is (after slugging); `OVF_` prefixes are reserved. */
export function isValidTopic(topic: string): boolean {
  return /^[\p{L}\p{N}\p{M}_]{1,20}$/u.test(topic);
}

// One calendar everywhere: ids, lists, exports and displays all use UTC, so the same save has the
// same date in its id on every host and in every time zone.
export function utcDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function utcDateTime(d: Date): string {
  const iso = d.toISOString();
  return `${iso.slice(0, 10)}_${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
}

/** The first free name among base, base-2, base-3… given the names already used. */
export function nextFreeName(base: string, used: Iterable<string>): string {
  const taken = new Set(used);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
