// Text primitives for terminals and agents: display widths (East Asian wide characters take two
// columns, emoji sequences stay whole), cutting, padding, wrapping, and ages.

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Display width in terminal columns. */
export function width(text: string): number {
  return Bun.stringWidth(text);
}

/** Cuts text to a display width, whitespace runs folded to one space, ending with an ellipsis when cut; never inside a character. */
export function fit(text: string, cols: number, ellipsis = "…"): string {
  const flat = text.replace(/\s+/g, " ");
  if (cols <= 0) return "";
  if (width(flat) <= cols) return flat;
  let out = "";
  let w = 0;
  const room = cols - width(ellipsis);
  for (const { segment } of graphemes.segment(flat)) {
    const cw = width(segment);
    if (w + cw > room) break;
    out += segment;
    w += cw;
  }
  return out + ellipsis;
}

/** `fit` without the leading and trailing whitespace: for one-line summaries of free text. */
export function truncate(text: string, cols: number): string {
  return fit(text.trim(), cols);
}

/** Pads text with spaces to a display width, cutting it first if it is wider. */
export function pad(text: string, cols: number, ellipsis = "…"): string {
  const t = fit(text, cols, ellipsis);
  return t + " ".repeat(Math.max(0, cols - width(t)));
}

/** Pads text with spaces to a display width; wider text is left whole. */
export function padEnd(text: string, cols: number): string {
  return text + " ".repeat(Math.max(0, cols - width(text)));
}

/** Word-wraps text to a display width; long words and CJK text break anywhere (between characters). */
export function wrap(text: string, cols: number): string[] {
  const out: string[] = [];
  for (const para of text.split("\n")) {
    let line = "";
    let w = 0;
    for (const token of para.split(/(\s+)/)) {
      if (!token) continue;
      const tw = width(token);
      if (/^\s+$/.test(token)) {
        if (w > 0 && w + 1 <= cols) {
          line += " ";
          w += 1;
        }
        continue;
      }
      if (w + tw <= cols) {
        line += token;
        w += tw;
        continue;
      }
      if (tw <= cols && w > 0) {
        out.push(line.trimEnd());
        line = token;
        w = tw;
        continue;
      }
      for (const { segment } of graphemes.segment(token)) {
        const cw = width(segment);
        if (w + cw > cols) {
          out.push(line.trimEnd());
          line = "";
          w = 0;
        }
        line += segment;
        w += cw;
      }
    }
    out.push(line.trimEnd());
  }
  return out;
}

/**
 * How long ago an instant was. `short` ("42s", "5m", "3h", "2d") fits a table column; `long`
 * ("42s ago", "5 min ago", "3 h ago", "2 days ago") reads in a sentence.
 */
export function age(iso: string, now: Date = new Date(), style: "short" | "long" = "short"): string {
  const s = Math.max(0, Math.round((now.getTime() - Date.parse(iso)) / 1000));
  if (style === "short") {
    if (s < 60) return `${s}s`;
    if (s < 3600) return `${Math.round(s / 60)}m`;
    if (s < 86400) return `${Math.round(s / 3600)}h`;
    return `${Math.round(s / 86400)}d`;
  }
  if (s < 90) return `${s}s ago`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min ago`;
  if (s < 36 * 3600) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} days ago`;
}
