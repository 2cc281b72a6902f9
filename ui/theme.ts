// Glyphs and colours, with a plain-ASCII, colourless fallback for NO_COLOR or a terminal that is not UTF-8.

export interface Theme {
  ascii: boolean;
  color: boolean;
  g: { ok: string; bad: string; changed: string; pointer: string; bullet: string; sep: string; up: string; down: string; arrow: string; ellipsis: string; current: string; times: string };
  /** A colour name when colours are on, else undefined (ink then prints plain text). */
  c: (name: "accent" | "muted" | "good" | "bad" | "warn" | "title") => string | undefined;
  border: "round" | "classic";
}

const COLORS = { accent: "cyan", muted: "gray", good: "green", bad: "red", warn: "yellow", title: "magenta" } as const;

export function isUtf8Terminal(env: NodeJS.ProcessEnv = process.env): boolean {
  if (process.platform === "win32") return true;
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || "";
  return /utf-?8/i.test(locale);
}

export function makeTheme(env: NodeJS.ProcessEnv = process.env): Theme {
  const ascii = env.MINDSAVE_ASCII === "1" || !!env.NO_COLOR || !isUtf8Terminal(env);
  const color = !env.NO_COLOR && env.TERM !== "dumb";
  const g = ascii
    ? { ok: "+", bad: "x", changed: "~", pointer: ">", bullet: "*", sep: "-", up: "^", down: "v", arrow: "->", ellipsis: "...", current: "*", times: "x" }
    : { ok: "✓", bad: "✗", changed: "~", pointer: "›", bullet: "•", sep: "·", up: "↑", down: "↓", arrow: "→", ellipsis: "…", current: "●", times: "×" };
  return { ascii, color, g, c: (name) => (color ? COLORS[name] : undefined), border: ascii ? "classic" : "round" };
}

/** Display width of text: East Asian wide characters take two columns. */
export function width(text: string): number {
  return Bun.stringWidth(text);
}

/** Cuts text to a display width, ending with an ellipsis when cut. */
export function fit(text: string, cols: number, ellipsis = "…"): string {
  const flat = text.replace(/\s+/g, " ");
  if (cols <= 0) return "";
  if (width(flat) <= cols) return flat;
  let out = "";
  let w = 0;
  const room = cols - width(ellipsis);
  for (const ch of flat) {
    const cw = width(ch);
    if (w + cw > room) break;
    out += ch;
    w += cw;
  }
  return out + ellipsis;
}

/** Pads text with spaces to a display width (cutting it first if it is wider). */
export function pad(text: string, cols: number, ellipsis = "…"): string {
  const t = fit(text, cols, ellipsis);
  return t + " ".repeat(Math.max(0, cols - width(t)));
}

/** Word-wraps text to a display width; long words and CJK text break anywhere. */
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
      for (const ch of token) {
        const cw = width(ch);
        if (w + cw > cols) {
          out.push(line.trimEnd());
          line = "";
          w = 0;
        }
        line += ch;
        w += cw;
      }
    }
    out.push(line.trimEnd());
  }
  return out;
}

export function age(iso: string, now: Date = new Date()): string {
  const s = Math.max(0, Math.round((now.getTime() - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.round(s / 60)}m`;
  if (s < 86400) return `${Math.round(s / 3600)}h`;
  return `${Math.round(s / 86400)}d`;
}
