// Private spans: what a person writes between `<private>` and `</private>` never reaches the store.
// `redact` (every text stored comes through it) leaves each span out first, before secrets are looked
// for and before any text is cut short or counted; `[private]` stands in its place. When in doubt the
// text is private: an unclosed `<private>` hides everything after it, a stray `</private>` everything
// before it (back to the previous span), so a span cut in two by a field or a message is still hidden
// whole. Spans nest; the tags are matched in any case, with spaces inside the angle brackets.

/** What a private span leaves behind. */
export const PRIVATE_MARK = "[private]";

const TAG = /<\s*(\/?)\s*private\s*>/gi;

/** The text with every private span replaced by `[private]`; a text without one comes back as it is. */
export function withoutPrivate(text: string): string {
  if (!text.includes("<")) return text;
  let out = "";
  let depth = 0;
  // Where the text not yet copied to `out` begins (after the last tag dealt with).
  let from = 0;
  let found = false;
  for (const m of text.matchAll(TAG)) {
    found = true;
    const end = m.index + m[0].length;
    if (!m[1]) {
      if (depth++ === 0) out += text.slice(from, m.index);
    } else if (depth > 0) {
      if (--depth === 0) out += PRIVATE_MARK;
    } else if (from < m.index) {
      // A closing tag with no span open: the text before it, back to the last span, is private.
      out += PRIVATE_MARK;
    }
    if (depth === 0) from = end;
  }
  if (!found) return text;
  return depth > 0 ? out + PRIVATE_MARK : out + text.slice(from);
}
