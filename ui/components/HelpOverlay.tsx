// `?`: the keys of the current screen. Laid out here, line by line, so a short terminal shows
// whole lines and a marker (↑/↓ scroll) instead of rows that ink drops or draws over each other.
import { Box, Text, type Key } from "ink";
import { useUi } from "../context.ts";
import { useRefState } from "../hooks/useRefState.ts";
import type { KeyOverlay } from "../hooks/useKeyRouter.ts";
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

/** How far a key scrolls the overlay's lines: ↑/↓ j/k a line, PgUp/PgDn Space a page; 0 for any other key. */
export function helpScroll(input: string, key: Key, room: number): number {
  if (key.downArrow || input === "j") return 1;
  if (key.upArrow || input === "k") return -1;
  if (key.pageDown || input === " ") return room;
  if (key.pageUp) return -room;
  return 0;
}

/**
 * The overlay's state, read by the key router between renders: open or not, and its first line of
 * keys (a short terminal scrolls them). `keysOnTop`: the keys of the screen on top, if any; the
 * overlay is drawn at `columns` × `rows` - 1.
 */
export function useHelpOverlay(
  keysOnTop: () => HelpKeys | undefined,
  size: { columns: number; rows: number },
  ascii: boolean,
): KeyOverlay & { top: () => number } {
  const [isOpen, setOpen] = useRefState(false);
  const [getTop, setTop] = useRefState(0);
  return {
    isOpen,
    top: getTop,
    open: () => {
      setTop(0);
      setOpen(true);
    },
    key: (input, key) => {
      if (input === "?" || key.escape || input === "q") return setOpen(false);
      const keys = keysOnTop();
      if (!keys) return;
      const { room, maxTop } = helpLayout(keys, size.columns, size.rows - 1, ascii);
      const by = helpScroll(input, key, room);
      if (by) setTop(Math.max(0, Math.min(maxTop, getTop() + by)));
    },
  };
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
          <Text color={theme.c("accent")}>
            {pad(l.key, keyW - 2, g.ellipsis)}
            {"  "}
          </Text>
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
