// The frame around every screen: a title line with home and host, the body, and a key-hint line.
import React from "react";
import { Box, Text } from "ink";
import { useUi } from "../context.ts";
import { fit } from "../theme.ts";

export function Frame(props: { title: string; hints: string[]; status?: string; width: number; height: number; children: React.ReactNode }) {
  const { session, theme } = useUi();
  const where = `${session.home.reason === "portable" ? "drive" : "home"} ${session.home.dir} ${theme.g.sep} host ${session.host.name}`;
  const titleWidth = Math.min(props.width - 2, Math.max(12, props.width - where.length - 4));
  return (
    <Box flexDirection="column" width={props.width} height={props.height}>
      <Box justifyContent="space-between">
        <Text bold color={theme.c("title")}>{fit(`MindSave ${theme.g.sep} ${props.title}`, titleWidth, theme.g.ellipsis)}</Text>
        <Text color={theme.c("muted")}>{fit(where, Math.max(0, props.width - titleWidth - 2), theme.g.ellipsis)}</Text>
      </Box>
      <Box flexDirection="column" flexGrow={1} overflow="hidden">{props.children}</Box>
      {props.status ? <Text color={theme.c("warn")}>{fit(props.status, props.width, theme.g.ellipsis)}</Text> : null}
      <Text color={theme.c("muted")}>{fit(props.hints.join(` ${theme.g.sep} `), props.width, theme.g.ellipsis)}</Text>
    </Box>
  );
}
