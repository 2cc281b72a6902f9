// A form's scope, project or global: a toggle (Space, ←/→), not text, in the rules' and the
// failure graph's forms. Without a project, the project choice says why it cannot be taken.
import { Box, Text, type Key } from "ink";
import { useUi } from "../context.ts";

export type Scope = "project" | "global";

/** The keys that switch the scope while it has the focus. */
export const isToggle = (input: string, key: Key) => input === " " || key.leftArrow || key.rightArrow;

/**
 * The form's scope line: `label`, then the two choices; on an entry whose scope is `fixed` (an
 * edit), the scope and why it cannot change.
 */
export function ScopeChoice(props: {
  label: string;
  scope: Scope;
  focus: boolean;
  hasProject: boolean;
  noProject: string;
  fixed?: string;
}) {
  const { theme } = useUi();
  if (props.fixed)
    return (
      <Text>
        {props.label}
        {props.scope}
        <Text color={theme.c("muted")}> ({props.fixed})</Text>
      </Text>
    );
  return (
    <Box>
      <Text color={props.focus ? theme.c("accent") : undefined}>{props.label}</Text>
      {(["project", "global"] as const).map((s) => (
        <Text
          key={s}
          inverse={props.focus && props.scope === s}
          color={props.scope === s ? theme.c("accent") : theme.c("muted")}
        >
          {`(${props.scope === s ? theme.g.bullet : " "}) ${s}${s === "project" && !props.hasProject ? props.noProject : ""}`}
          {"  "}
        </Text>
      ))}
    </Box>
  );
}
