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
import { isToggle, ScopeChoice } from "./ScopeChoice.tsx";
import type { Session } from "../../src/engine/session.ts";
import type { AsyncState } from "../hooks/useAsync.ts";
import type { Confirm } from "../hooks/useConfirm.ts";
import type { ListNav } from "../hooks/useListNavigation.ts";

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

interface RulesProps {
  projectId: string | null;
  projectName?: string;
  width: number;
  height: number;
  active: boolean;
  onBack: () => void;
  onTyping: (typing: boolean) => void;
}

export function RulesScreen(props: RulesProps) {
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
  const form = getForm();
  const confirm = useConfirm();
  // Title, budget line, column heads; the form takes its border, title and two fields.
  const visible = Math.max(
    1,
    props.height - 5 - statusHeight(confirm.question ?? status, props.width) - (form ? 5 : 0),
  );
  const nav = useListNavigation(rules.length, visible);
  useRuleKeys(props, { here, data, nav, confirm, getForm, setForm, setStatus });

  const w = props.width;
  const g = theme.g;
  // The count is never cut: the project's name gives way.
  const whose = props.projectName
    ? `${fit(props.projectName, nameRoom(w, g.sep, `Standing rules ${g.sep}  + global ${g.sep} ${rules.length}`), g.ellipsis)} + global`
    : props.projectId
      ? "project + global"
      : "global";
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
      <BudgetLine tokens={data.data?.tokens ?? 0} />
      <RuleList rules={rules} nav={nav} visible={visible} width={w} />
      {rules.length === 0 ? (
        <Text color={theme.c("muted")}>
          {data.error
            ? data.error.message
            : data.loading
              ? "Loading…"
              : "No standing rules here. Press a to add one (e.g. Never push to main)."}
        </Text>
      ) : null}
      {form ? <RuleForm form={form} width={w} hasProject={!!props.projectId} /> : null}
    </Frame>
  );
}

/** What the rules' keys act on: the list, the open question, the form. */
interface RuleKeyParts {
  here: Session;
  data: AsyncState<Awaited<ReturnType<typeof rulesHere>>>;
  nav: ListNav;
  confirm: Confirm;
  getForm: () => Form | null;
  setForm: (f: Form | null) => void;
  setStatus: (text: string | undefined) => void;
}

/** The rules' keys: with the form open they edit it, else a adds, e edits, x removes (after a `y`). */
function useRuleKeys(props: RulesProps, parts: RuleKeyParts) {
  const { theme } = useUi();
  const { here, data, nav, confirm, getForm, setForm, setStatus } = parts;
  const action = useAction(setStatus);
  const submit = (f: Form) =>
    action.run(async () => {
      if (!f.text.text.trim()) return "Type the rule first (e.g. Never push to main).";
      const said = await saveRule(here, f);
      await data.reload();
      setForm(null);
      return said;
    });
  const formKey = (f: Form, input: string, key: Key) => {
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
  };
  const remove = (n: number, text: string) =>
    confirm.ask(
      question(
        `Remove rule ${n}: `,
        text,
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
  const listKey = (input: string, key: Key) => {
    if (nav.handle(input, key)) return;
    const row = data.data?.rules[nav.selected];
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
    } else if ((input === "x" || key.delete) && row) remove(n, row.text);
    else if (input === "q" || key.escape) props.onBack();
  };
  action.release(
    useKeys(
      (input, key) => {
        if (confirm.answer(input, () => setStatus("Kept it."))) return;
        const f = getForm();
        if (f) formKey(f, input, key);
        else listKey(input, key);
      },
      { isActive: props.active, ready: !!data.data || !!data.error, wait: action.busy },
    ),
  );
}

/** The form's rule added or edited; what the status line says. */
async function saveRule(here: Session, f: Form): Promise<string> {
  if (f.mode === "add") {
    const r = await addRule(here, f.text.text, f.scope);
    return `Added ${r.rule.scope} rule: ${r.rule.text} (rules now ${r.tokens}/${RULES_BUDGET} tokens).`;
  }
  const { rule: edited } = await editRule(here, String(f.n), f.text.text);
  return `Edited rule ${f.n}: ${edited.text}`;
}

/** The rules' tokens out of the budget, with a bar; over it, the last ones are left out. */
function BudgetLine(props: { tokens: number }) {
  const { theme } = useUi();
  const { tokens } = props;
  const over = tokens > RULES_BUDGET;
  return (
    <Text color={over ? theme.c("warn") : theme.c("muted")} wrap="truncate">
      {`${tokens}/${RULES_BUDGET} tokens `}
      <Text color={over ? theme.c("bad") : theme.c("accent")}>
        {bar(theme, Math.min(tokens, RULES_BUDGET), RULES_BUDGET, 20)}
      </Text>
      {over ? " over budget: the last ones are left out" : " restored first in every block, never trimmed"}
    </Text>
  );
}

/** The column heads, then the rules shown: number, scope, text. */
function RuleList(props: {
  rules: { id: string; text: string; scope: RuleScope }[];
  nav: ListNav;
  visible: number;
  width: number;
}) {
  const { theme } = useUi();
  const { rules, nav } = props;
  const g = theme.g;
  const numW = String(Math.max(1, rules.length)).length + 2;
  const textW = Math.max(10, props.width - 2 - numW - 9);
  return (
    <>
      <Text color={theme.c("muted")}>{`  ${pad("#", numW)}${pad("scope", 9)}rule`}</Text>
      {rules.slice(nav.offset, nav.offset + props.visible).map((r, i) => {
        const sel = nav.offset + i === nav.selected;
        return (
          <Text key={r.id} inverse={sel} wrap="truncate">
            {sel ? g.pointer : " "} {pad(`${nav.offset + i + 1}.`, numW)}
            {pad(r.scope, 9)}
            {fit(inline(r.text), textW, g.ellipsis)}
          </Text>
        );
      })}
    </>
  );
}

/** The form that adds a rule (its text and scope) or edits one (its text; the scope is fixed). */
function RuleForm(props: { form: Form; width: number; hasProject: boolean }) {
  const { theme } = useUi();
  const { form } = props;
  return (
    <Box flexDirection="column" borderStyle={theme.border} paddingX={1} flexShrink={0}>
      <Text bold>{form.mode === "add" ? "Add a rule" : `Edit rule ${form.n}`}</Text>
      <Box>
        <Text color={form.focus === "text" ? theme.c("accent") : undefined}>{"rule:  "}</Text>
        <TextField
          value={form.text}
          focus={form.focus === "text"}
          width={Math.max(10, props.width - 11)}
          placeholder="one line that always applies, e.g. Never push to main"
        />
      </Box>
      <ScopeChoice
        label="scope: "
        scope={form.scope}
        focus={form.focus === "scope"}
        hasProject={props.hasProject}
        noProject=" (no project chosen)"
        fixed={form.mode === "edit" ? "a rule's scope is fixed" : undefined}
      />
    </Box>
  );
}
