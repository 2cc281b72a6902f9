// The frame around every screen: a title line (the title first; home and host get what is left),
// the body, a status line when there is news, and a key-hint line at the bottom.
import React from "react";
import { Box, Text } from "ink";
import { useUi } from "../context.ts";
import { fit, fitStart, width, wrap } from "../../src/lib/text.ts";

/** Arrow keys spelled out for a terminal without Unicode. */
export function asciiKeys(text: string, ascii: boolean): string {
  return ascii
    ? text
        .replace(/↑/g, "Up")
        .replace(/↓/g, "Down")
        .replace(/←/g, "Left")
        .replace(/→/g, "Right")
        .replace(/…/g, "...")
    : text;
}

/**
 * The key hints: `hints`, and each of `more` too (before the last two) while the line still fits.
 * On a narrow terminal the hints before the last two give way first (the first one last): `? keys`
 * and the way back always show.
 */
export function hintLine(hints: string[], more: string[], cols: number, sep: string, ascii: boolean): string {
  const text = (list: string[]) => asciiKeys(list.join(` ${sep} `), ascii);
  let shown = hints;
  while (shown.length > 2 && width(text(shown)) > cols)
    shown = shown.length > 3 ? [...shown.slice(0, -3), ...shown.slice(-2)] : shown.slice(1);
  for (const m of more) {
    const next = [...shown.slice(0, -2), m, ...shown.slice(-2)];
    if (width(text(next)) <= cols) shown = next;
  }
  return text(shown);
}

/**
 * A status or error line as shown: whole when it fits, else wrapped to up to three lines (an
 * engine's refusal is one sentence, often ~200 characters); longer still, its middle gives way (the
 * last line keeps its end, where a hint or advice usually is).
 */
export const STATUS_MAX_LINES = 3;

export function statusLines(status: string | undefined, cols: number, ellipsis = "…"): string[] {
  if (!status) return [];
  const lines = wrap(status.replace(/\s+/g, " ").trim(), cols);
  if (lines.length <= STATUS_MAX_LINES) return lines;
  return [
    ...lines.slice(0, STATUS_MAX_LINES - 1),
    fitStart(lines.slice(STATUS_MAX_LINES - 1).join(" "), cols, ellipsis),
  ];
}

/** How many rows the status line takes (screens leave them out of their lists). */
export function statusHeight(status: string | undefined, cols: number): number {
  return statusLines(status, cols).length;
}

/**
 * A question whose key hint must stay visible: `item` (a rule, a fact, a name) is shortened, by
 * display width and whole characters, so `lead` + item + `tail` fit in one line of `cols`; `cut`
 * says how (a snapshot name keeps its end).
 */
export function question(
  lead: string,
  item: string,
  tail: string,
  cols: number,
  ellipsis = "…",
  cut: (text: string, cols: number, ellipsis: string) => string = fit,
): string {
  return `${lead}${cut(item, Math.max(8, cols - width(lead) - width(tail)), ellipsis)}${tail}`;
}

/** Columns the title keeps from the host at the right. */
const TITLE_MARGIN = 12;

/**
 * How wide a name in a screen's title may be so the rest of the title (`rest`, its counts) is never
 * cut: the name gives way first, down to 4 columns.
 */
export function nameRoom(cols: number, sep: string, rest: string): number {
  return Math.max(4, cols - TITLE_MARGIN - width(`MindSave ${sep} ${rest}`));
}

export function Frame(props: {
  title: string;
  hints: string[];
  more?: string[];
  status?: string;
  width: number;
  height: number;
  children: React.ReactNode;
}) {
  const { session, theme } = useUi();
  const sep = theme.g.sep;
  const title = `MindSave ${sep} ${props.title}`;
  const titleText = fit(title, Math.max(10, props.width - TITLE_MARGIN), theme.g.ellipsis);
  const room = props.width - width(titleText) - 2;
  const host = `host ${session.host.name}`;
  const home = `${session.home.reason === "portable" ? "drive" : "home"} `;
  let where = "";
  // The home's path when enough of it shows to mean something ("home …e" does not).
  const pathRoom = room - width(host) - width(home) - 3;
  if (pathRoom >= Math.min(14, width(session.home.dir)))
    where = `${home}${fitStart(session.home.dir, pathRoom, theme.g.ellipsis)} ${sep} ${host}`;
  else if (room >= width(host)) where = host;
  return (
    <Box flexDirection="column" width={props.width} height={props.height}>
      <Box justifyContent="space-between">
        <Text bold color={theme.c("title")}>
          {titleText}
        </Text>
        <Text color={theme.c("muted")}>{where}</Text>
      </Box>
      <Box flexDirection="column" flexGrow={1} overflow="hidden">
        {props.children}
      </Box>
      {statusLines(props.status, props.width, theme.g.ellipsis).map((l, i) => (
        <Text key={i} color={theme.c("warn")}>
          {l}
        </Text>
      ))}
      <Text color={theme.c("muted")}>
        {fit(
          hintLine(props.hints, props.more ?? [], props.width, sep, theme.ascii),
          props.width,
          theme.g.ellipsis,
        )}
      </Text>
    </Box>
  );
}
