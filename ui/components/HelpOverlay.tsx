// `?`: the keys of the current screen. Laid out here, line by line, so a short terminal shows
// whole lines and a marker (↑/↓ scroll) instead of rows that ink drops or draws over each other.
import { Box, Text } from "ink";
import { useUi } from "../context.ts";
import { asciiKeys } from "./Frame.tsx";
import { fit, pad, width, wrap } from "../../src/lib/text.ts";

export type HelpKeys = [string, string][];

const FOOTER = "Every action is also a command (`mindsave --help`). ? or Esc closes this.";

/** The overlay's lines at `cols` × `rows`: the key rows (a long description wraps under itself), the footer, and how far it scrolls. */
export function helpLayout(keys: HelpKeys, cols: number, rows: number, ascii: boolean) {
  const boxW = Math.min(cols, 78);
  const inner = boxW - 4; // border and padding
  const shown: HelpKeys = keys.map(([k, what]) => [asciiKeys(k, ascii), what]);
  const keyW = Math.min(Math.max(...shown.map(([k]) => width(k))) + 2, Math.floor(inner / 2));
  const lines = shown.flatMap(([k, what]) =>
    wrap(what, inner - keyW).map((l, i) => ({ key: i ? "" : k, text: l })),
  );
  const footer = wrap(FOOTER, inner);
  // Border, title and footer always show; when the keys do not all fit, one line says what is hidden.
  const all = rows - 3 - footer.length;
  const room = lines.length <= all ? lines.length : Math.max(1, all - 1);
  return { boxW, inner, keyW, lines, footer, room, maxTop: Math.max(0, lines.length - room) };
}

export function HelpOverlay(props: {
  title: string;
  keys: HelpKeys;
  width: number;
  height: number;
  top: number;
}) {
  const { theme } = useUi();
  const g = theme.g;
  const { boxW, inner, keyW, lines, footer, room, maxTop } = helpLayout(
    props.keys,
    props.width,
    props.height,
    theme.ascii,
  );
  const top = Math.max(0, Math.min(props.top, maxTop));
  const below = lines.length - top - room;
  const marker = [
    below > 0
      ? theme.ascii
        ? `${below} more below (Down/PgDn)`
        : `${g.down} ${below} more (${g.down}/PgDn)`
      : "",
    top ? (theme.ascii ? `${top} above (Up/PgUp)` : `${g.up} ${top} above (${g.up}/PgUp)`) : "",
  ]
    .filter(Boolean)
    .join(` ${g.sep} `);
  return (
    <Box flexDirection="column" borderStyle={theme.border} paddingX={1} width={boxW} flexShrink={0}>
      <Text bold>{fit(`Keys ${g.sep} ${props.title}`, inner, g.ellipsis)}</Text>
      {lines.slice(top, top + room).map((l, i) => (
        <Text key={i}>
          <Text color={theme.c("accent")}>{pad(l.key, keyW - 2, g.ellipsis)} </Text>
          {l.text}
        </Text>
      ))}
      {maxTop ? <Text color={theme.c("muted")}>{fit(marker, inner, g.ellipsis)}</Text> : null}
      {footer.map((l, i) => (
        <Text key={`f${i}`} color={theme.c("muted")}>
          {l}
        </Text>
      ))}
    </Box>
  );
}
