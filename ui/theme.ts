// Glyphs and colours, with a plain-ASCII, colourless fallback for NO_COLOR or a terminal that is not UTF-8.

export interface Theme {
  ascii: boolean;
  color: boolean;
  g: {
    ok: string;
    bad: string;
    changed: string;
    pointer: string;
    bullet: string;
    sep: string;
    up: string;
    down: string;
    arrow: string;
    ellipsis: string;
    current: string;
    times: string;
  };
  /** A colour name when colours are on, else undefined (ink then prints plain text). */
  c: (name: "accent" | "muted" | "good" | "bad" | "warn" | "title") => string | undefined;
  border: "round" | "classic";
}

const COLORS = {
  accent: "cyan",
  muted: "gray",
  good: "green",
  bad: "red",
  warn: "yellow",
  title: "magenta",
} as const;

export function isUtf8Terminal(env: NodeJS.ProcessEnv = process.env): boolean {
  if (process.platform === "win32") return true;
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || "";
  return /utf-?8/i.test(locale);
}

export function makeTheme(env: NodeJS.ProcessEnv = process.env): Theme {
  const ascii = env.MINDSAVE_ASCII === "1" || !!env.NO_COLOR || !isUtf8Terminal(env);
  // A terminal that is not UTF-8 is an old or minimal one: plain text, no colour either (as the README says).
  const color = !env.NO_COLOR && env.TERM !== "dumb" && isUtf8Terminal(env);
  const g = ascii
    ? {
        ok: "+",
        bad: "x",
        changed: "~",
        pointer: ">",
        bullet: "*",
        sep: "-",
        up: "^",
        down: "v",
        arrow: "->",
        ellipsis: "...",
        current: "*",
        times: "x",
      }
    : {
        ok: "✓",
        bad: "✗",
        changed: "~",
        pointer: "›",
        bullet: "•",
        sep: "·",
        up: "↑",
        down: "↓",
        arrow: "→",
        ellipsis: "…",
        current: "●",
        times: "×",
      };
  return {
    ascii,
    color,
    g,
    c: (name) => (color ? COLORS[name] : undefined),
    border: ascii ? "classic" : "round",
  };
}

/** A progress bar `cols` wide: filled for `done` of `total`. */
export function bar(theme: Pick<Theme, "ascii">, done: number, total: number, cols: number): string {
  const filled = total ? Math.max(0, Math.min(cols, Math.round((done / total) * cols))) : 0;
  return (theme.ascii ? "#" : "█").repeat(filled) + (theme.ascii ? "-" : "░").repeat(cols - filled);
}
