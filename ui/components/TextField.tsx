// A one-line text field drawn by the screen that owns it; the screen's own key handler edits it,
// so nothing typed right after the field appears can be lost. Text longer than the field shows
// its end (where the typing is).
import { Text } from "ink";
import { useUi } from "../context.ts";
import { fitStart, width as textWidth } from "../../src/lib/text.ts";

export function TextField(props: { value: string; focus: boolean; placeholder?: string; width?: number }) {
  const { theme } = useUi();
  const cursor = theme.ascii ? "_" : "█";
  if (!props.value && props.placeholder) {
    return <Text>{props.focus ? cursor : ""}<Text color={theme.c("muted")}>{props.placeholder}</Text></Text>;
  }
  const room = props.width ? Math.max(1, props.width - (props.focus ? textWidth(cursor) : 0)) : Infinity;
  const shown = room === Infinity ? props.value : fitStart(props.value, room, theme.g.ellipsis);
  return <Text wrap="truncate">{shown}{props.focus ? cursor : ""}</Text>;
}
