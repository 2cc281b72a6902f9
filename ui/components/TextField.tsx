// A one-line text field drawn by the screen that owns it; the screen's own key handler edits it
// (textEdit.ts), so nothing typed right after the field appears can be lost. The cursor shows
// where typing goes: at the end a block, inside the text the character under it inverted. Text
// longer than the field shows the part around the cursor.
import { Text } from "ink";
import { useUi } from "../context.ts";
import { fit, fitStart, graphemes, width as textWidth } from "../../src/lib/text.ts";
import type { Field } from "../hooks/textEdit.ts";

/** The clusters before the cursor, the one under it (none at the end) and after it, cut to `room` columns around the cursor. */
export function fieldWindow(
  f: Field,
  room: number,
  ellipsis: string,
): { before: string; under: string; after: string } {
  const before = graphemes(f.text.slice(0, f.cursor));
  const rest = graphemes(f.text.slice(f.cursor));
  const under = rest[0] ?? "";
  const after = rest.slice(1);
  const w = (parts: string[]) => parts.reduce((n, p) => n + textWidth(p), 0);
  const e = textWidth(ellipsis);
  const cursorW = under ? textWidth(under) : 1;
  if (w(before) + cursorW + w(after) <= room)
    return { before: before.join(""), under, after: after.join("") };
  const cutAfter = after.length ? e : 0;
  if (w(before) + cursorW + cutAfter <= room) {
    // All that was typed before the cursor shows; what follows it fills the rest.
    let space = room - w(before) - cursorW - e;
    const right: string[] = [];
    for (const p of after) {
      if (textWidth(p) > space) break;
      right.push(p);
      space -= textWidth(p);
    }
    return { before: before.join(""), under, after: right.join("") + ellipsis };
  }
  // The cursor is far along: the end of what comes before it shows, after an ellipsis.
  const left: string[] = [];
  let space = room - cursorW - e - cutAfter;
  for (let i = before.length - 1; i >= 0 && textWidth(before[i]) <= space; i--) {
    left.unshift(before[i]);
    space -= textWidth(before[i]);
  }
  return { before: ellipsis + left.join(""), under, after: after.length ? ellipsis : "" };
}

export interface FieldProps {
  value: Field;
  focus: boolean;
  placeholder?: string;
  width?: number;
}

/** The placeholder within the field's width (beside the cursor's block when focused): it never wraps. */
function placeholderShown(props: FieldProps, ellipsis: string): string {
  const p = props.placeholder ?? "";
  return props.width ? fit(p, props.width - (props.focus ? 1 : 0), ellipsis) : p;
}

/** How many columns the field takes of its line as drawn now: what is left is for what follows it. */
export function fieldColumns(props: FieldProps, ellipsis: string): number {
  if (!props.value.text && props.placeholder)
    return (props.focus ? 1 : 0) + textWidth(placeholderShown(props, ellipsis));
  if (!props.focus)
    return textWidth(props.width ? fitStart(props.value.text, props.width, ellipsis) : props.value.text);
  const { before, under, after } = fieldWindow(props.value, props.width ?? Infinity, ellipsis);
  return textWidth(before) + (under ? textWidth(under) : 1) + textWidth(after);
}

export function TextField(props: FieldProps) {
  const { theme } = useUi();
  const block = theme.ascii ? "_" : "█";
  if (!props.value.text && props.placeholder) {
    return (
      <Text>
        {props.focus ? block : ""}
        <Text color={theme.c("muted")}>{placeholderShown(props, theme.g.ellipsis)}</Text>
      </Text>
    );
  }
  if (!props.focus) {
    return (
      <Text wrap="truncate">
        {props.width ? fitStart(props.value.text, props.width, theme.g.ellipsis) : props.value.text}
      </Text>
    );
  }
  const { before, under, after } = fieldWindow(props.value, props.width ?? Infinity, theme.g.ellipsis);
  return (
    <Text wrap="truncate">
      {before}
      {under ? <Text inverse>{under}</Text> : block}
      {after}
    </Text>
  );
}
