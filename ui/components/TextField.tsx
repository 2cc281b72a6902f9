// A one-line text field drawn by the screen that owns it; the screen's own key handler edits it,
// so nothing typed right after the field appears can be lost.
import { Text } from "ink";
import { useUi } from "../context.ts";

export function TextField(props: { value: string; focus: boolean; placeholder?: string }) {
  const { theme } = useUi();
  const cursor = theme.ascii ? "_" : "█";
  if (!props.value && props.placeholder) {
    return <Text>{props.focus ? cursor : ""}<Text color={theme.c("muted")}>{props.placeholder}</Text></Text>;
  }
  return <Text>{props.value}{props.focus ? cursor : ""}</Text>;
}
