// `?`: the keys of the current screen.
import { Box, Text } from "ink";
import { useUi } from "../context.ts";

export type HelpKeys = [string, string][];

export function HelpOverlay(props: { title: string; keys: HelpKeys; width: number }) {
  const { theme } = useUi();
  const keys: HelpKeys = props.keys.map(([k, what]) => [theme.ascii ? k.replace(/↑/g, "Up").replace(/↓/g, "Down") : k, what]);
  const keyWidth = Math.max(...keys.map(([k]) => k.length)) + 2;
  return (
    <Box flexDirection="column" borderStyle={theme.border} paddingX={1} width={Math.min(props.width, 72)}>
      <Text bold>Keys {theme.g.sep} {props.title}</Text>
      {keys.map(([k, what]) => (
        <Text key={k}>
          <Text color={theme.c("accent")}>{k.padEnd(keyWidth)}</Text>
          {what}
        </Text>
      ))}
      <Text color={theme.c("muted")}>Every action here is also a command: see `mindsave --help`. Press ? or Esc to close.</Text>
    </Box>
  );
}
