// Topic slugs and snapshot names, per the spec: topic ≤20 characters of letters, digits and `_`
// (any script: a Chinese goal gives a Chinese slug, never an empty one); id `{topic}_{YYYY-MM-DD}`,
// then `-2`, `-3` for the same day.

export const TOPIC_MAX = 20;

export function topicSlug(text: string): string {
  const chars = [
    ...text
      .normalize("NFC")
      .replace(/[^\p{L}\p{N}\p{M}]+/gu, "_")
      .replace(/^_+|_+$/g, "")
      .toLowerCase(),
  ];
  let slug = chars.slice(0, TOPIC_MAX).join("");
  // Cut at a word boundary when the cut fell inside a word and a reasonable prefix remains.
  if (chars.length > TOPIC_MAX && chars[TOPIC_MAX] !== "_") {
    const at = slug.lastIndexOf("_");
    if (at >= 8) slug = slug.slice(0, at);
  }
  slug = slug.replace(/_+$/g, "");
  return slug || "snapshot";
}

// Windows reserves these names for devices, with any extension: `CON.md` cannot be a file there.
const DEVICE_NAME = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(\..*)?$/i;
export const NAME_MAX = 120;

/** True for a file-name-safe word on every OS: letters, digits, `_`, `-`, `.`; no `..`, no device name. */
export function isSafeName(name: string): boolean {
  return (
    typeof name === "string" &&
    name.length <= NAME_MAX &&
    /^[\p{L}\p{N}\p{M}_][\p{L}\p{N}\p{M}_.-]*$/u.test(name) &&
    !name.includes("..") &&
    !name.endsWith(".") &&
    !DEVICE_NAME.test(name)
  );
}

/**
 * A snapshot name from outside (a sync peer, an import, an agent) as it may be stored: the name
 * itself when safe, else a rename that every store computes alike (its letters and digits, then
 * the end of the record's id), so hostile names never reach a path and stores still converge.
 */
export function safeName(name: string, id: string): string {
  if (isSafeName(name)) return name;
  // At most 60 UTF-16 units (not code points): 60 astral letters would pass NAME_MAX.
  let letters = "";
  for (const ch of String(name ?? "")
    .normalize("NFC")
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, "_")
    .replace(/^_+|_+$/g, "")) {
    if (letters.length + ch.length > 60) break;
    letters += ch;
  }
  const base = !letters ? "snapshot" : DEVICE_NAME.test(letters) ? `${letters}_` : letters;
  return `${base}-${String(id)
    .replace(/[^0-9a-z]/gi, "")
    .slice(-8)
    .toLowerCase()}`;
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
