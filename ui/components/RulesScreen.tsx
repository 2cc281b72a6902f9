// Standing rules: what always applies here (the global rules and the project's), with their token
// total out of the budget; `a` adds one (project or global), `e` edits, `x` removes after a `y`.
// The engine refuses a rule over the budget: its sentence shows on the status line, nothing changes.
import { useState } from "react";
import { Box, Text, type Key } from "ink";
import { useKeys } from "../hooks/useKeys.ts";
import { TextField } from "./TextField.tsx";
import { useRefState } from "../hooks/useRefState.ts";
import { editField, field, type Field } from "../hooks/textEdit.ts";
import {
  addRule,
  editRule,
  removeRule,
  rulesHere,
  RULES_BUDGET,
  type RuleScope,
} from "../../src/engine/memory/rules.ts";
import { useUi } from "../context.ts";
import { useAsync } from "../hooks/useAsync.ts";
import { useAction } from "../hooks/useAction.ts";
import { useConfirm } from "../hooks/useConfirm.ts";
import { useListNavigation } from "../hooks/useListNavigation.ts";
import { useProjectSession } from "../hooks/useProjectSession.ts";
import { bar } from "../theme.ts";
import { fit, pad } from "../../src/lib/text.ts";
import { Frame, nameRoom, question, statusHeight } from "./Frame.tsx";
import type { HelpKeys } from "./HelpOverlay.tsx";
import { inline } from "../../src/engine/snapshots/layers.ts";

export const RULES_KEYS: HelpKeys = [
  ["↑/↓ j/k", "move"],
  ["a", "add a rule"],
  ["e Enter", "edit the selected rule"],
  ["x Delete", "remove the selected rule (asks first)"],
  ["Tab ↑/↓", "text / scope in the form"],
  ["Space ←/→", "scope: project or global (when adding)"],
  ["Enter", "save the form"],
  ["?", "keys"],
  ["q Esc", "back (Esc also cancels the form)"],
];

interface Form {
  mode: "add" | "edit";
  /** The rule's number (edit). */
  n: number;
  text: Field;
  scope: RuleScope;
  focus: "text" | "scope";
}

const isToggle = (input: string, key: Key) => input === " " || key.leftArrow || key.rightArrow;

export function RulesScreen(props: {
  projectId: string | null;
  projectName?: string;
  width: number;
  height: number;
  active: boolean;
  onBack: () => void;
  onTyping: (typing: boolean) => void;
}) {
  const { theme } = useUi();
  const here = useProjectSession(props.projectId);
  const [getForm, setFormState] = useRefState<Form | null>(null);
  const setForm = (f: Form | null) => {
    setFormState(f);
    props.onTyping(f !== null);
  };
  const [status, setStatus] = useState<string | undefined>();
  const data = useAsync(() => rulesHere(here), [here]);
  const rules = data.data?.rules ?? [];
  const tokens = data.data?.tokens ?? 0;
  const form = getForm();
  const confirm = useConfirm();
  const action = useAction(setStatus);
  // Title, budget line, column heads; the form takes its border, title and two fields.
  const visible = Math.max(
    1,
    props.height - 5 - statusHeight(confirm.question ?? status, props.width) - (form ? 5 : 0),
  );
  const nav = useListNavigation(rules.length, visible);

  const submit = (f: Form) =>
    action.run(async () => {
      if (!f.text.text.trim()) return "Type the rule first (e.g. Never push to main).";
      if (f.mode === "add") {
        const r = await addRule(here, f.text.text, f.scope);
        await data.reload();
        setForm(null);
        return `Added ${r.rule.scope} rule: ${r.rule.text} (rules now ${r.tokens}/${RULES_BUDGET} tokens).`;
      }
      const { rule: edited } = await editRule(here, String(f.n), f.text.text);
      await data.reload();
      setForm(null);
      return `Edited rule ${f.n}: ${edited.text}`;
    });

  action.release(
    useKeys(
      (input, key) => {
        if (confirm.answer(input, () => setStatus("Kept it."))) return;
        const f = getForm();
        if (f) {
          if (key.escape) {
            setForm(null);
            setStatus("Cancelled.");
          } else if (key.return) void submit(f);
          else if (f.mode === "add" && (key.tab || key.upArrow || key.downArrow))
            setForm({ ...f, focus: f.focus === "text" ? "scope" : "text" });
          else if (f.focus === "scope") {
            if (!isToggle(input, key)) return;
            if (!props.projectId) setStatus("No project is chosen, so a rule here can only be global.");
            else setForm({ ...f, scope: f.scope === "project" ? "global" : "project" });
          } else {
            const next = editField(f.text, input, key);
            if (next !== null) setForm({ ...f, text: next });
          }
          return;
        }
        if (nav.handle(input, key)) return;
        const row = rules[nav.selected];
        const n = nav.selected + 1;
        if (input === "a") {
          setStatus(undefined);
          setForm({
            mode: "add",
            n: 0,
            text: field(),
            scope: props.projectId ? "project" : "global",
            focus: "text",
          });
        } else if ((input === "e" || key.return) && row) {
          setStatus(undefined);
          setForm({ mode: "edit", n, text: field(row.text), scope: row.scope, focus: "text" });
        } else if ((input === "x" || key.delete) && row) {
          confirm.ask(
            question(
              `Remove rule ${n}: `,
              row.text,
              "? y to remove, any other key to keep it.",
              props.width,
              theme.g.ellipsis,
            ),
            () =>
              void action.run(async () => {
                const gone = await removeRule(here, String(n));
                await data.reload();
                return `Removed rule ${n}: ${gone.text}`;
              }),
          );
        } else if (input === "q" || key.escape) props.onBack();
      },
      { isActive: props.active, ready: !!data.data || !!data.error, wait: action.busy },
    ),
  );

  const w = props.width;
  const g = theme.g;
  // The count is never cut: the project's name gives way.
  const whose = props.projectName
    ? `${fit(props.projectName, nameRoom(w, g.sep, `Standing rules ${g.sep}  + global ${g.sep} ${rules.length}`), g.ellipsis)} + global`
    : props.projectId
      ? "project + global"
      : "global";
  const over = tokens > RULES_BUDGET;
  const numW = String(Math.max(1, rules.length)).length + 2;
  const textW = Math.max(10, w - 2 - numW - 9);
  const hints = !form
    ? ["a add", "e edit", "x remove", "? keys", "q back"]
    : form.focus === "scope"
      ? ["Space/←/→ project or global", "Tab text", "Enter save", "Esc cancel"]
      : [...(form.mode === "add" ? ["Tab scope"] : []), "Enter save", "Esc cancel"];
  return (
    <Frame
      title={`Standing rules ${g.sep} ${whose} ${g.sep} ${rules.length}`}
      width={w}
      height={props.height}
      status={confirm.question ?? status}
      hints={hints}
    >
      <Text color={over ? theme.c("warn") : theme.c("muted")} wrap="truncate">
        {`${tokens}/${RULES_BUDGET} tokens `}
        <Text color={over ? theme.c("bad") : theme.c("accent")}>
          {bar(theme, Math.min(tokens, RULES_BUDGET), RULES_BUDGET, 20)}
        </Text>
        {over ? " over budget: the last ones are left out" : " restored first in every block, never trimmed"}
      </Text>
      <Text color={theme.c("muted")}>{`  ${pad("#", numW)}${pad("scope", 9)}rule`}</Text>
      {rules.length === 0 ? (
        <Text color={theme.c("muted")}>
          {data.error
            ? data.error.message
            : data.loading
              ? "Loading…"
              : "No standing rules here. Press a to add one (e.g. Never push to main)."}
        </Text>
      ) : null}
      {rules.slice(nav.offset, nav.offset + visible).map((r, i) => {
        const sel = nav.offset + i === nav.selected;
        return (
          <Text key={r.id} inverse={sel} wrap="truncate">
            {sel ? g.pointer : " "} {pad(`${nav.offset + i + 1}.`, numW)}
            {pad(r.scope, 9)}
            {fit(inline(r.text), textW, g.ellipsis)}
          </Text>
        );
      })}
      {form ? (
        <Box flexDirection="column" borderStyle={theme.border} paddingX={1} flexShrink={0}>
          <Text bold>{form.mode === "add" ? "Add a rule" : `Edit rule ${form.n}`}</Text>
          <Box>
            <Text color={form.focus === "text" ? theme.c("accent") : undefined}>{"rule:  "}</Text>
            <TextField
              value={form.text}
              focus={form.focus === "text"}
              width={Math.max(10, w - 11)}
              placeholder="one line that always applies, e.g. Never push to main"
            />
          </Box>
          {form.mode === "add" ? (
            <Box>
              <Text color={form.focus === "scope" ? theme.c("accent") : undefined}>{"scope: "}</Text>
              {(["project", "global"] as const).map((s) => (
                <Text
                  key={s}
                  inverse={form.focus === "scope" && form.scope === s}
                  color={form.scope === s ? theme.c("accent") : theme.c("muted")}
                >
                  {`(${form.scope === s ? g.bullet : " "}) ${s}${s === "project" && !props.projectId ? " (no project chosen)" : ""}`}
                  {"  "}
                </Text>
              ))}
            </Box>
          ) : (
            <Text>
              {"scope: "}
              {form.scope}
              <Text color={theme.c("muted")}> (a rule's scope is fixed)</Text>
            </Text>
          )}
        </Box>
      ) : null}
    </Frame>
  );
}
