// The frame around every screen: a title line (the title first; home and host get what is left),
// the body, a status line when there is news, and a key-hint line at the bottom.
import React from "react";
import { Box, Text } from "ink";
import { useUi } from "../context.ts";
import { fit, width } from "../../src/lib/text.ts";

/** Keeps the end of a path, which says the most: "…/usb/mindsave". */
function fitLeft(text: string, cols: number, ellipsis: string): string {
  if (width(text) <= cols) return text;
  if (cols <= width(ellipsis)) return "";
  const chars = [...text];
  let out = "";
  let w = width(ellipsis);
  for (let i = chars.length - 1; i >= 0; i--) {
    const cw = width(chars[i]);
    if (w + cw > cols) break;
    out = chars[i] + out;
    w += cw;
  }
  return ellipsis + out;
}

export function Frame(props: { title: string; hints: string[]; status?: string; width: number; height: number; children: React.ReactNode }) {
  const { session, theme } = useUi();
  const sep = theme.g.sep;
  const title = `MindSave ${sep} ${props.title}`;
  const titleText = fit(title, Math.max(10, props.width - 12), theme.g.ellipsis);
  const room = props.width - width(titleText) - 2;
  const host = `host ${session.host.name}`;
  const home = `${session.home.reason === "portable" ? "drive" : "home"} `;
  let where = "";
  if (room >= width(host) + 8) where = `${home}${fitLeft(session.home.dir, room - width(host) - width(home) - 3, theme.g.ellipsis)} ${sep} ${host}`;
  else if (room >= width(host)) where = host;
  return (
    <Box flexDirection="column" width={props.width} height={props.height}>
      <Box justifyContent="space-between">
        <Text bold color={theme.c("title")}>{titleText}</Text>
        <Text color={theme.c("muted")}>{where}</Text>
      </Box>
      <Box flexDirection="column" flexGrow={1} overflow="hidden">{props.children}</Box>
      {props.status ? <Text color={theme.c("warn")}>{fit(props.status, props.width, theme.g.ellipsis)}</Text> : null}
      <Text color={theme.c("muted")}>{fit(props.hints.join(` ${sep} `), props.width, theme.g.ellipsis)}</Text>
    </Box>
  );
}
