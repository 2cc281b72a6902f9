// The failure graph: the project's and the global failures, sortable by repeat count or last
// seen; `a` adds an entry and `e` edits the selected one (the same engine call as `mindsave fail`).
import React, { useEffect, useEffectEvent, useRef, useState } from "react";
import { Box, Text, type Key } from "ink";
import { useKeys } from "../hooks/useKeys.ts";
import { TextField } from "./TextField.tsx";
import { useRefState } from "../hooks/useRefState.ts";
import { editField, field, type Field } from "../hooks/textEdit.ts";
import { AGES_EVERY_MS, useTick } from "../hooks/useTick.ts";
import {
  effectiveConfidence,
  failuresFor,
  recordFailure,
  type FailureRecord,
} from "../../src/engine/failures/record.ts";
import { inline } from "../../src/engine/snapshots/layers.ts";
import { useUi } from "../context.ts";
import { useAsync } from "../hooks/useAsync.ts";
import { useListNavigation } from "../hooks/useListNavigation.ts";
import { age, compareCodes, fit, pad, width } from "../../src/lib/text.ts";
import { Frame, nameRoom, statusHeight } from "./Frame.tsx";
import type { HelpKeys } from "./HelpOverlay.tsx";
import { isToggle, ScopeChoice, type Scope } from "./ScopeChoice.tsx";
import type { AsyncState } from "../hooks/useAsync.ts";
import type { ListNav } from "../hooks/useListNavigation.ts";

export const FAILURE_KEYS: HelpKeys = [
  ["↑/↓ j/k", "move"],
  ["s", "sort by repeat count / last seen (keeps the selection)"],
  ["a", "add a failure"],
  ["e Enter", "edit the selected failure: reason, another alternative"],
  ["Tab ↑/↓", "next / previous field in the form"],
  ["Space ←/→", "scope: project or global (when adding)"],
  ["Enter", "save the form"],
  ["?", "keys"],
  ["q Esc", "back (Esc also cancels the form)"],
];

type Sort = "repeats" | "last_seen";
type FieldName = "item" | "reason" | "scope" | "alternative";

interface Form {
  mode: "add" | "edit";
  item: Field;
  reason: Field;
  scope: Scope;
  alternative: Field;
  /** Recorded already (edit): shown, kept; the form adds one more. */
  alternatives: string[];
  focus: FieldName;
}

/** The fields Tab moves between: an existing failure's item and scope are its identity. */
function focusable(f: Form): FieldName[] {
  return f.mode === "add" ? ["item", "reason", "scope", "alternative"] : ["reason", "alternative"];
}

function sorted(list: FailureRecord[], sort: Sort): FailureRecord[] {
  return [...list].sort((a, b) =>
    sort === "repeats"
      ? b.repeat_count - a.repeat_count || compareCodes(b.last_seen, a.last_seen)
      : compareCodes(b.last_seen, a.last_seen) || b.repeat_count - a.repeat_count,
  );
}

interface FailuresProps {
  projectId: string | null;
  projectName?: string;
  width: number;
  height: number;
  active: boolean;
  onBack: () => void;
  onTyping: (typing: boolean) => void;
}

export function FailuresScreen(props: FailuresProps) {
  const { session, theme } = useUi();
  const [getSort, setSort] = useRefState<Sort>("repeats");
  const [getForm, setFormState] = useRefState<Form | null>(null);
  // The app must know at once (not after a render) whether keys are text, so `?` typed into a
  // field is a question mark and `?` right after the form closes is help.
  const setForm = (f: Form | null) => {
    setFormState(f);
    props.onTyping(f !== null);
  };
  const form = getForm();
  const sort = getSort();
  const [status, setStatus] = useState<string | undefined>();
  const data = useAsync(() => failuresFor(session, props.projectId), [props.projectId]);
  const rows = sorted(data.data ?? [], sort);
  // The form: its border, margin and title, then four lines (both modes).
  const formHeight = form ? 8 : 0;
  const visible = Math.max(1, props.height - 4 - statusHeight(status, props.width) - formHeight);
  const nav = useListNavigation(rows.length, visible);
  // Last seen ages and confidence (which decays with time) follow the clock while the graph is on top.
  useTick(AGES_EVERY_MS, props.active);
  const save = useFailureSave(props, { data, rows, nav, setForm, setStatus });
  useFailureKeys(props, { data, rows, nav, getForm, setForm, getSort, setSort, setStatus, save });

  const w = props.width;
  // The project's name gives way, so the count and the sort always show.
  const sep = theme.g.sep;
  const tail = `${rows.length} ${sep} by ${sort === "repeats" ? "repeat count" : "last seen"}`;
  const whose = props.projectName
    ? `${fit(props.projectName, nameRoom(w, sep, `Failure graph ${sep}  + global ${sep} ${tail}`), theme.g.ellipsis)} + global`
    : props.projectId
      ? "project + global"
      : "global";
  const title = `Failure graph ${sep} ${whose} ${sep} ${tail}`;
  const hints = !form
    ? ["a add", "e edit", "s sort", "? keys", "q back"]
    : form.focus === "scope"
      ? ["Space/←/→ project or global", "Tab next field", "Enter save", "Esc cancel"]
      : ["Tab next field", "Enter save", "Esc cancel"];
  return (
    <Frame title={title} width={w} height={props.height} status={status} hints={hints}>
      <FailureList rows={rows} nav={nav} visible={visible} width={w}>
        {rows.length === 0 ? (
          <Text color={theme.c("muted")}>
            {data.error
              ? data.error.message
              : data.loading
                ? "Loading…"
                : "No failures recorded. Press a to add one."}
          </Text>
        ) : null}
      </FailureList>
      {form ? <FailureForm form={form} width={w} hasProject={!!props.projectId} /> : null}
    </Frame>
  );
}

/** What saving the form and the keys act on: the graph's rows and the form. */
interface FailureParts {
  data: AsyncState<FailureRecord[]>;
  rows: FailureRecord[];
  nav: ListNav;
  setForm: (f: Form | null) => void;
  setStatus: (text: string | undefined) => void;
}

/**
 * Saving the form (the same engine call as `mindsave fail`). While a save runs and the list reloads,
 * keys wait: none is typed into a closing form or acts on old rows. The failure just saved is then
 * selected in the reloaded list, wherever it sorts (keys wait for that too).
 */
function useFailureSave(props: FailuresProps, { data, rows, nav, setForm, setStatus }: FailureParts) {
  const { session, theme } = useUi();
  const saving = useRef(false);
  const follow = useRef<string | null>(null);
  const handOn = useRef<() => void>(() => {});
  const selectSaved = useEffectEvent(() => {
    if (!follow.current || data.loading) return;
    const at = rows.findIndex((r) => r.id === follow.current);
    follow.current = null;
    if (at >= 0) nav.setSelected(at);
    handOn.current();
  });
  useEffect(() => selectSaved(), [data.data, data.error, data.loading]);
  const submit = async (f: Form) => {
    if (!f.item.text.trim()) return setStatus("Type the approach that failed first (e.g. Tailwind).");
    saving.current = true;
    try {
      const { failure: saved } = await recordFailure(
        session,
        {
          item: f.item.text,
          reason: f.reason.text || undefined,
          scope: f.scope,
          alternatives: f.alternative.text.trim() ? [f.alternative.text] : [],
          ...(f.mode === "add" ? { increment: true } : { edit: true }),
        },
        { projectId: props.projectId },
      );
      follow.current = saved.id;
      await data.reload();
      setStatus(
        `${f.mode === "add" ? "Recorded" : "Updated"} ${saved.item} (${saved.scope}, ${theme.g.times}${saved.repeat_count}).`,
      );
      setForm(null);
    } catch (e) {
      follow.current = null;
      setStatus((e as Error).message);
    } finally {
      saving.current = false;
      handOn.current();
    }
  };
  return {
    submit,
    busy: () => saving.current || follow.current !== null,
    /** The function that hands held keys on once the save is over (useKeys' return value). */
    release: (fn: () => void) => {
      handOn.current = fn;
    },
  };
}

interface FailureKeyParts extends FailureParts {
  getForm: () => Form | null;
  getSort: () => Sort;
  setSort: (s: Sort) => void;
  save: ReturnType<typeof useFailureSave>;
}

/** The graph's keys: with the form open they edit it, else s sorts, a adds, e edits the selected failure. */
function useFailureKeys(props: FailuresProps, parts: FailureKeyParts) {
  const { data, rows, nav, getForm, setForm, getSort, setSort, setStatus, save } = parts;
  const formKey = (f: Form, input: string, key: Key) => {
    const fields = focusable(f);
    const at = fields.indexOf(f.focus);
    if (key.escape) {
      setForm(null);
      setStatus("Cancelled.");
    } else if (key.tab || key.downArrow) setForm({ ...f, focus: fields[(at + 1) % fields.length] });
    else if (key.upArrow) setForm({ ...f, focus: fields[(at + fields.length - 1) % fields.length] });
    else if (key.return) void save.submit(f);
    else if (f.focus === "scope") {
      // A toggle, not text: without a project only the global graph can take it.
      if (!isToggle(input, key)) return;
      if (!props.projectId) setStatus("No project is open here, so a failure can only be global.");
      else setForm({ ...f, scope: f.scope === "project" ? "global" : "project" });
    } else {
      const next = editField(f[f.focus], input, key);
      if (next !== null) setForm({ ...f, [f.focus]: next });
    }
  };
  const listKey = (input: string, key: Key) => {
    if (nav.handle(input, key)) return;
    const row = rows[nav.selected];
    if (input === "s") {
      // The selection stays on the same failure, wherever the new order puts it.
      const next: Sort = getSort() === "repeats" ? "last_seen" : "repeats";
      setSort(next);
      if (row) nav.setSelected(sorted(data.data ?? [], next).findIndex((x) => x.id === row.id));
    } else if (input === "a") {
      setStatus(undefined);
      setForm(addForm(props.projectId ? "project" : "global"));
    } else if ((input === "e" || key.return) && row) {
      setStatus(undefined);
      setForm(editForm(row));
    } else if (input === "q" || key.escape) props.onBack();
  };
  save.release(
    useKeys(
      (input, key) => {
        const f = getForm();
        if (f) formKey(f, input, key);
        else listKey(input, key);
      },
      { isActive: props.active, ready: !!data.data || !!data.error, wait: save.busy },
    ),
  );
}

/** A new failure's form: empty, the focus on its item. */
const addForm = (scope: Scope): Form => ({
  mode: "add",
  item: field(),
  reason: field(),
  scope,
  alternative: field(),
  alternatives: [],
  focus: "item",
});

/** The selected failure's form: its reason to edit, one more alternative to add. */
const editForm = (row: FailureRecord): Form => ({
  mode: "edit",
  item: field(row.item),
  reason: field(row.reason),
  scope: row.scope === "global" ? "global" : "project",
  alternative: field(),
  alternatives: row.alternatives,
  focus: "reason",
});

/**
 * The column heads, then the failures shown (`children` between them: what an empty graph says).
 * Counts, confidence and ages are never cut: the item gives way down to 10 columns, the reason takes the rest.
 */
function FailureList(props: {
  rows: FailureRecord[];
  nav: ListNav;
  visible: number;
  width: number;
  children: React.ReactNode;
}) {
  const { theme, now } = useUi();
  const { rows, nav } = props;
  const w = props.width;
  const seen = (f: FailureRecord) => `${theme.g.times}${f.repeat_count}`;
  const seenW = Math.max(5, ...rows.map((f) => width(seen(f)))) + 1;
  const lastW = Math.max(4, ...rows.map((f) => width(age(f.last_seen, now())))) + 1;
  const fixed = 2 + 1 + 8 + seenW + 7 + lastW + 1;
  const itemW = Math.max(10, Math.min(28, Math.max(4, ...rows.map((r) => width(r.item))), w - fixed - 12));
  const reasonW = Math.max(0, w - fixed - itemW);
  return (
    <>
      <Text
        color={theme.c("muted")}
      >{`  ${pad("item", itemW)} ${pad("scope", 8)}${pad("seen", seenW)}${pad("conf.", 7)}${pad("last", lastW)}reason`}</Text>
      {props.children}
      {rows.slice(nav.offset, nav.offset + props.visible).map((f: FailureRecord, i) => {
        const sel = nav.offset + i === nav.selected;
        return (
          <Text key={f.id} inverse={sel} wrap="truncate">
            {sel ? theme.g.pointer : " "} {pad(inline(f.item), itemW, theme.g.ellipsis)} {pad(f.scope, 8)}
            {pad(seen(f), seenW)}
            {pad(effectiveConfidence(f, now()), 7)}
            {pad(age(f.last_seen, now()), lastW)}
            {fit(inline(f.reason), reasonW, theme.g.ellipsis)}
          </Text>
        );
      })}
    </>
  );
}

/** The form that adds a failure (item, reason, scope, an alternative) or edits one (its reason, one more alternative). */
function FailureForm(props: { form: Form; width: number; hasProject: boolean }) {
  const { theme } = useUi();
  const { form } = props;
  const w = props.width;
  const label = (text: string, on: boolean) => (
    <Text color={on ? theme.c("accent") : undefined}>{pad(`${text}:`, 17)}</Text>
  );
  const fieldW = Math.max(10, w - 4 - 17);
  return (
    <Box flexDirection="column" borderStyle={theme.border} paddingX={1} marginTop={1} flexShrink={0}>
      <Text bold>
        {form.mode === "add"
          ? "Add a failure"
          : fit(`Edit ${inline(form.item.text)}`, w - 4, theme.g.ellipsis)}
      </Text>
      {form.mode === "add" ? (
        <Box>
          {label("item", form.focus === "item")}
          <TextField
            value={form.item}
            focus={form.focus === "item"}
            width={fieldW}
            placeholder="the approach that failed, e.g. Tailwind"
          />
        </Box>
      ) : null}
      <Box>
        {label("reason", form.focus === "reason")}
        <TextField
          value={form.reason}
          focus={form.focus === "reason"}
          width={fieldW}
          placeholder="why it failed or was rejected"
        />
      </Box>
      <ScopeChoice
        label={pad("scope:", 17)}
        scope={form.scope}
        focus={form.focus === "scope"}
        hasProject={props.hasProject}
        noProject=" (no project here)"
        fixed={form.mode === "edit" ? "an entry's scope and item are fixed" : undefined}
      />
      {form.mode === "edit" ? (
        <Text>
          {pad("alternatives:", 17)}
          {fit(
            form.alternatives.length ? form.alternatives.map(inline).join("; ") : "(none yet)",
            fieldW,
            theme.g.ellipsis,
          )}
        </Text>
      ) : null}
      <Box>
        {label(form.mode === "edit" ? "add alternative" : "alternative", form.focus === "alternative")}
        <TextField
          value={form.alternative}
          focus={form.focus === "alternative"}
          width={fieldW}
          placeholder={form.focus === "alternative" ? "what to try instead (optional)" : undefined}
        />
      </Box>
    </Box>
  );
}
