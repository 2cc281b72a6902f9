// `?`: the keys of the current screen.
import { Box, Text } from "ink";
import { useUi } from "../context.ts";
import { asciiKeys } from "./Frame.tsx";

export type HelpKeys = [string, string][];

export function HelpOverlay(props: { title: string; keys: HelpKeys; width: number }) {
  const { theme } = useUi();
  const keys: HelpKeys = props.keys.map(([k, what]) => [asciiKeys(k, theme.ascii), what]);
  const keyWidth = Math.max(...keys.map(([k]) => k.length)) + 2;
  return (
    <Box flexDirection="column" borderStyle={theme.border} paddingX={1} width={Math.min(props.width, 78)}>
      <Text bold>Keys {theme.g.sep} {props.title}</Text>
      {keys.map(([k, what]) => (
        // Two columns: a long description wraps under itself, not under the keys.
        <Box key={k}>
          <Box width={keyWidth} flexShrink={0}><Text color={theme.c("accent")}>{k}</Text></Box>
          <Box flexGrow={1}><Text>{what}</Text></Box>
        </Box>
      ))}
      <Text color={theme.c("muted")}>Every action is also a command (`mindsave --help`). ? or Esc closes this.</Text>
    </Box>
  );
}
