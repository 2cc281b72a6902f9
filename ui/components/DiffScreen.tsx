// What changed between two snapshots of a project, per layer (the same lines as `mindsave diff`),
// scrollable: what an agent did overnight, reviewed from the picker.
import { useMemo } from "react";
import { Box, Text } from "ink";
import { useKeys } from "../hooks/useKeys.ts";
import { diffInProject, diffText } from "../../src/engine/snapshots/diff.ts";
import { useUi } from "../context.ts";
import { useAsync } from "../hooks/useAsync.ts";
import { useProjectSession } from "../hooks/useProjectSession.ts";
import { useScroll } from "../hooks/useScroll.ts";
import { fit, UTC_MINUTE, width, wrap } from "../../src/lib/text.ts";
import { Frame } from "./Frame.tsx";
import type { HelpKeys } from "./HelpOverlay.tsx";

export const DIFF_KEYS: HelpKeys = [
  ["↑/↓ j/k", "scroll a line"],
  ["PgUp/PgDn Space b", "scroll a page"],
  ["g/G Home/End", "top, end"],
  ["?", "keys"],
  ["q Esc", "back"],
];

interface Line {
  text: string;
  color?: string;
  bold?: boolean;
}

export function DiffScreen(props: {
  projectId: string;
  projectName: string;
  from: string;
  to: string;
  width: number;
  height: number;
  active: boolean;
  onBack: () => void;
}) {
  const { theme } = useUi();
  const here = useProjectSession(props.projectId);
  const data = useAsync(
    async () => diffText(await diffInProject(here, props.from, props.to, { olderFirst: true })),
    [here, props.from, props.to],
  );
  const cols = props.width;
  const lines = useMemo(() => (data.data ? diffLines(data.data, cols, theme) : []), [data.data, cols, theme]);
  const visible = Math.max(1, props.height - 3);
  const scroll = useScroll(lines.length, visible);

  useKeys(
    (input, key) => {
      if (scroll.handle(input, key)) return;
      if (input === "q" || key.escape) props.onBack();
    },
    { isActive: props.active, ready: !!data.data || !!data.error },
  );

  const g = theme.g;
  const below = Math.max(0, lines.length - scroll.top - visible);
  const marker = [
    below
      ? theme.ascii
        ? `${below} more line${below === 1 ? "" : "s"} below (Down/PgDn)`
        : `${g.down} ${below} more line${below === 1 ? "" : "s"} (${g.down}/PgDn)`
      : scroll.top
        ? "end"
        : "",
    scroll.top ? (theme.ascii ? `${scroll.top} above` : `${g.up} ${scroll.top} above`) : "",
  ]
    .filter(Boolean)
    .join(` ${g.sep} `);
  return (
    <Frame
      title={`${fit(props.projectName, Math.max(8, Math.floor(cols / 3)), g.ellipsis)} ${g.sep} what changed`}
      width={cols}
      height={props.height}
      hints={["↑/↓ scroll", "? keys", "q back"]}
    >
      {data.error ? <Text color={theme.c("bad")}>{fit(data.error.message, cols, g.ellipsis)}</Text> : null}
      {!data.data && !data.error ? <Text color={theme.c("muted")}>Comparing…</Text> : null}
      <Box flexDirection="column" height={data.data ? visible : undefined}>
        {lines.slice(scroll.top, scroll.top + visible).map((l, i) => (
          <Text key={scroll.top + i} color={l.color} bold={l.bold} wrap="truncate">
            {l.text || " "}
          </Text>
        ))}
      </Box>
      {marker ? <Text color={theme.c("accent")}>{fit(marker, cols, g.ellipsis)}</Text> : null}
    </Frame>
  );
}

/**
 * diffText's lines, coloured, each wrapped under its own indentation (a long path or goal stays
 * readable), a date-time never broken (the header's "(2026-11-29 01:19 UTC)").
 */
export function diffLines(text: string[], cols: number, theme: ReturnType<typeof useUi>["theme"]): Line[] {
  const out: Line[] = [];
  text.forEach((raw, i) => {
    // The engine's arrows and ellipses, spelled out for a terminal without Unicode.
    const l = theme.ascii ? raw.replace(/→/g, "->").replace(/…/g, "...") : raw;
    const lead = /^ */.exec(l)![0];
    const item = l.slice(lead.length);
    const head = i > 0 && !!l && !lead;
    const color =
      i === 0
        ? theme.c("muted")
        : head
          ? theme.c("accent")
          : item.startsWith("+ ") || item.startsWith("completed:")
            ? theme.c("good")
            : item.startsWith("- ")
              ? theme.c("bad")
              : item.startsWith("retired ") || item.startsWith("repeated:")
                ? theme.c("warn")
                : undefined;
    if (!item) return out.push({ text: "" });
    wrap(item, Math.max(10, cols - width(lead) - 2), { together: UTC_MINUTE }).forEach((part, j) =>
      out.push({ text: `${lead}${j ? "  " : ""}${part}`, color, bold: head }),
    );
  });
  return out;
}
