// A form's scope, project or global: a toggle (Space, ←/→), not text, in the rules' and the
// failure graph's forms. Without a project, the project choice says why it cannot be taken.
import { Text, type Key } from "ink";
import { useUi } from "../context.ts";

export type Scope = "project" | "global";

/** The keys that switch the scope while it has the focus. */
export const isToggle = (input: string, key: Key) => input === " " || key.leftArrow || key.rightArrow;

export function ScopeChoice(props: { scope: Scope; focus: boolean; hasProject: boolean; noProject: string }) {
  const { theme } = useUi();
  return (["project", "global"] as const).map((s) => (
    <Text
      key={s}
      inverse={props.focus && props.scope === s}
      color={props.scope === s ? theme.c("accent") : theme.c("muted")}
    >
      {`(${props.scope === s ? theme.g.bullet : " "}) ${s}${s === "project" && !props.hasProject ? props.noProject : ""}`}
      {"  "}
    </Text>
  ));
}
