// The failure graph: the project's and the global failures, sortable by repeat count or last
// seen; `a` adds an entry and `e` edits the selected one (the same engine call as `mindsave fail`).
import { useState } from "react";
import { Box, Text } from "ink";
import { useKeys } from "../hooks/useKeys.ts";
import { TextField } from "./TextField.tsx";
import { editText, useRefState } from "../hooks/useRefState.ts";
import { effectiveConfidence, failuresFor, recordFailure, type FailureRecord } from "../../src/engine/failures/record.ts";
import { useUi } from "../context.ts";
import { useAsync } from "../hooks/useAsync.ts";
import { useListNavigation } from "../hooks/useListNavigation.ts";
import { age, fit, pad } from "../../src/lib/text.ts";
import { Frame } from "./Frame.tsx";
import type { HelpKeys } from "./HelpOverlay.tsx";

export const FAILURE_KEYS: HelpKeys = [
  ["↑/↓ j/k", "move"], ["s", "sort by repeat count / last seen"], ["a", "add a failure"], ["e", "edit the selected failure"],
  ["Tab", "next field in the form"], ["Enter", "save the form"], ["?", "keys"], ["q Esc", "back (Esc also cancels the form)"],
];

type Sort = "repeats" | "last_seen";

interface Form {
  mode: "add" | "edit";
  fields: { item: string; reason: string; scope: string; alternative: string };
  focus: number;
}

const FORM_FIELDS = ["item", "reason", "scope", "alternative"] as const;

export function FailuresScreen(props: {
  projectId: string | null; width: number; height: number; active: boolean; onBack: () => void; onTyping: (typing: boolean) => void;
}) {
  const { session, theme, now } = useUi();
  const [sort, setSort] = useState<Sort>("repeats");
  const [getForm, setFormState] = useRefState<Form | null>(null);
  // The app must know at once (not after a render) whether keys are text, so `?` typed into a
  // field is a question mark and `?` right after the form closes is help.
  const setForm = (f: Form | null) => {
    setFormState(f);
    props.onTyping(f !== null);
  };
  const form = getForm();
  const [status, setStatus] = useState<string | undefined>();
  const data = useAsync(() => failuresFor(session, props.projectId), [props.projectId]);
  const rows = [...(data.data ?? [])].sort((a, b) =>
    sort === "repeats" ? b.repeat_count - a.repeat_count || b.last_seen.localeCompare(a.last_seen) : b.last_seen.localeCompare(a.last_seen) || b.repeat_count - a.repeat_count);
  const visible = Math.max(1, props.height - (form ? 11 : 5));
  const nav = useListNavigation(rows.length, visible);

  const submit = async (f: Form) => {
    const { item, reason, scope, alternative } = f.fields;
    try {
      const { failure: saved } = await recordFailure(session, {
        item, reason: reason || undefined, scope: scope || "project",
        alternatives: alternative ? [alternative] : [], increment: f.mode === "add",
      }, { projectId: props.projectId });
      setForm(null);
      data.reload();
      setStatus(`${f.mode === "add" ? "Recorded" : "Updated"} ${saved.item} (${theme.g.times}${saved.repeat_count}).`);
    } catch (e) {
      setStatus((e as Error).message);
    }
  };

  useKeys((input, key) => {
    const f = getForm();
    if (f) {
      if (key.escape) {
        setForm(null);
        setStatus("Cancelled.");
      } else if (key.tab || key.downArrow) setForm({ ...f, focus: (f.focus + 1) % FORM_FIELDS.length });
      else if (key.upArrow) setForm({ ...f, focus: (f.focus + FORM_FIELDS.length - 1) % FORM_FIELDS.length });
      else if (key.return) void submit(f);
      else {
        const name = FORM_FIELDS[f.focus];
        // An existing failure's item is its identity: edit the rest.
        if (f.mode === "edit" && name === "item") return;
        const next = editText(f.fields[name], input, key);
        if (next !== null) setForm({ ...f, fields: { ...f.fields, [name]: next } });
      }
      return;
    }
    if (nav.handle(input, key)) return;
    const row = rows[nav.selected];
    if (input === "s") setSort((s) => (s === "repeats" ? "last_seen" : "repeats"));
    else if (input === "a") setForm({ mode: "add", fields: { item: "", reason: "", scope: props.projectId ? "project" : "global", alternative: "" }, focus: 0 });
    else if (input === "e" && row) setForm({ mode: "edit", fields: { item: row.item, reason: row.reason, scope: row.scope, alternative: "" }, focus: 1 });
    else if (input === "q" || key.escape) props.onBack();
  }, { isActive: props.active });

  const w = props.width;
  const itemW = Math.min(28, Math.max(10, ...rows.map((r) => Bun.stringWidth(r.item))));
  const reasonW = Math.max(0, w - 2 - itemW - 8 - 6 - 7 - 5 - 5);
  const title = `Failure graph ${theme.g.sep} ${rows.length} ${theme.g.sep} sorted by ${sort === "repeats" ? "repeat count" : "last seen"}`;
  return (
    <Frame title={title} width={w} height={props.height} status={status}
      hints={form ? ["Tab next field", "Enter save", "Esc cancel"] : ["a add", "e edit", "s sort", "? keys", "q back"]}>
      <Text color={theme.c("muted")}>{`  ${pad("item", itemW)} ${pad("scope", 8)}${pad("seen", 6)}${pad("conf.", 7)}${pad("last", 5)}reason`}</Text>
      {rows.length === 0 ? <Text color={theme.c("muted")}>{data.loading ? "Loading…" : "No failures recorded. Press a to add one."}</Text> : null}
      {rows.slice(nav.offset, nav.offset + visible).map((f: FailureRecord, i) => {
        const sel = nav.offset + i === nav.selected;
        return (
          <Text key={f.id} inverse={sel} wrap="truncate">
            {sel ? theme.g.pointer : " "} {pad(f.item, itemW, theme.g.ellipsis)} {pad(f.scope, 8)}{pad(`${theme.g.times}${f.repeat_count}`, 6)}
            {pad(effectiveConfidence(f, now()), 7)}{pad(age(f.last_seen, now()), 5)}{fit(f.reason, reasonW, theme.g.ellipsis)}
          </Text>
        );
      })}
      {form ? (
        <Box flexDirection="column" borderStyle={theme.border} paddingX={1} marginTop={1}>
          <Text bold>{form.mode === "add" ? "Add a failure" : `Edit ${form.fields.item}`}</Text>
          {FORM_FIELDS.map((name, i) => (
            <Box key={name}>
              <Text color={i === form.focus ? theme.c("accent") : undefined}>{`${name === "alternative" ? "add alternative" : name}:`.padEnd(17)}</Text>
              <TextField value={form.fields[name]} focus={i === form.focus && !(form.mode === "edit" && name === "item")}
                placeholder={name === "scope" && i === form.focus ? "project or global" : undefined} />
            </Box>
          ))}
        </Box>
      ) : null}
    </Frame>
  );
}
