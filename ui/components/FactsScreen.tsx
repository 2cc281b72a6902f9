// Facts: beliefs about the world with a time to live. Fresh ones are restored, expired ones never
// are; on any fact (an expired one above all) `r` renews it (confirms it as stated now, with its old
// time to live) and `x` drops it, each after a `y`.
import { useState } from "react";
import { Text } from "ink";
import { useKeys } from "../hooks/useKeys.ts";
import { dropFact, factState, factsHere, isFresh, renewFact } from "../../src/engine/memory/facts.ts";
import { useUi } from "../context.ts";
import { useAsync } from "../hooks/useAsync.ts";
import { useAction } from "../hooks/useAction.ts";
import { useConfirm } from "../hooks/useConfirm.ts";
import { useListNavigation } from "../hooks/useListNavigation.ts";
import { useProjectSession } from "../hooks/useProjectSession.ts";
import { useTick } from "../hooks/useTick.ts";
import { fit, pad, padEnd, width } from "../../src/lib/text.ts";
import { Frame, nameRoom, question, statusHeight } from "./Frame.tsx";
import type { HelpKeys } from "./HelpOverlay.tsx";
import { inline } from "../../src/engine/snapshots/layers.ts";
import type { Session } from "../../src/engine/session.ts";
import type { AsyncState } from "../hooks/useAsync.ts";
import type { Action } from "../hooks/useAction.ts";
import type { Confirm } from "../hooks/useConfirm.ts";
import type { ListNav } from "../hooks/useListNavigation.ts";

type Fact = Awaited<ReturnType<typeof factsHere>>[number];

export const FACTS_KEYS: HelpKeys = [
  ["↑/↓ j/k", "move"],
  ["r", "renew the selected fact: confirm it as stated now (asks first)"],
  ["x Delete", "drop the selected fact (asks first)"],
  ["?", "keys"],
  ["q Esc", "back"],
];

interface FactsProps {
  projectId: string | null;
  projectName?: string;
  width: number;
  height: number;
  active: boolean;
  onBack: () => void;
}

export function FactsScreen(props: FactsProps) {
  const { theme, now } = useUi();
  const here = useProjectSession(props.projectId);
  const [status, setStatus] = useState<string | undefined>();
  const data = useAsync(() => factsHere(here), [here]);
  const facts = data.data ?? [];
  const confirm = useConfirm();
  const action = useAction(setStatus);
  const visible = Math.max(1, props.height - 5 - statusHeight(confirm.question ?? status, props.width));
  const nav = useListNavigation(facts.length, visible);
  useFactKeys(props, { here, data, nav, confirm, action, setStatus });

  const w = props.width;
  const g = theme.g;
  const t = now();
  const expired = facts.filter((f) => !isFresh(f, t)).length;
  const counts = `${facts.length}${expired ? ` ${g.sep} ${expired} expired` : ""}`;
  // The counts are never cut: the project's name gives way.
  const whose = props.projectName
    ? `${fit(props.projectName, nameRoom(w, g.sep, `Facts ${g.sep}  + global ${g.sep} ${counts}`), g.ellipsis)} + global`
    : props.projectId
      ? "project + global"
      : "global";
  const shown = facts.slice(nav.offset, nav.offset + visible);
  // Measured over every fact, not only those shown: the columns stay put while the list scrolls.
  const cols = factColumns(
    facts.map((f) => [f.confidence, f.scope, factState(f, t)]),
    w,
  );
  const hints = facts.length ? ["r renew", "x drop", "? keys", "q back"] : ["? keys", "q back"];
  return (
    <Frame
      title={`Facts ${g.sep} ${whose} ${g.sep} ${counts}`}
      width={w}
      height={props.height}
      status={confirm.question ?? status}
      hints={hints}
    >
      <Text color={theme.c("muted")} wrap="truncate">
        Fresh facts are restored; expired ones never are until renewed.
      </Text>
      <Text color={theme.c("muted")} wrap="truncate">{`    ${cols.row("fact", cols.heads)}`}</Text>
      {facts.length === 0 ? (
        <Text color={theme.c("muted")}>
          {fit(
            data.error
              ? data.error.message
              : data.loading
                ? "Loading…"
                : 'No facts here. State one with: mindsave fact "TEXT" --ttl 3d',
            w,
            g.ellipsis,
          )}
        </Text>
      ) : null}
      {shown.map((f, i) => {
        const sel = nav.offset + i === nav.selected;
        const fresh = isFresh(f, t);
        return (
          <Text key={f.id} inverse={sel} wrap="truncate" color={fresh ? undefined : theme.c("warn")}>
            {sel ? g.pointer : " "} {fresh ? g.ok : g.bad}{" "}
            {cols.row(inline(f.text), [f.confidence, f.scope, factState(f, t)], g.ellipsis)}
          </Text>
        );
      })}
    </Frame>
  );
}

/** What the facts' keys act on: the list, its question and the action that writes. */
interface FactKeyParts {
  here: Session;
  data: AsyncState<Fact[]>;
  nav: ListNav;
  confirm: Confirm;
  action: Action;
  setStatus: (text: string | undefined) => void;
}

/** The facts' keys: r renews and x drops the selected fact, each after a `y`. */
function useFactKeys(props: FactsProps, { here, data, nav, confirm, action, setStatus }: FactKeyParts) {
  const { theme, now } = useUi();
  const facts = data.data ?? [];
  // "expires in 15s" is worked out at each render: one every 30 s, and one on any key.
  const tick = useTick(30_000, props.active);
  // The engine numbers facts in the order it lists them, as this screen does.
  const ask = (start: string, f: Fact, end: string, work: (n: string) => Promise<string>) => {
    const n = String(nav.selected + 1);
    confirm.ask(
      question(start, f.text, end, props.width, theme.g.ellipsis),
      () => void action.run(() => work(n)),
    );
  };
  const renew = (f: Fact) =>
    ask('Renew "', f, '" as true now? y to renew, any other key keeps it.', async (n) => {
      const renewed = await renewFact(here, n);
      await data.reload();
      // Renewed, it is the newest: the selection follows it to the top of the list.
      nav.setSelected((await factsHere(here)).findIndex((x) => x.id === renewed.id));
      return `Renewed: ${renewed.text} (${factState(renewed, now())}).`;
    });
  const drop = (f: Fact) =>
    ask('Drop "', f, '"? y to drop, any other key to keep it.', async (n) => {
      const gone = await dropFact(here, n);
      await data.reload();
      return `Dropped: ${gone.text}`;
    });
  action.release(
    useKeys(
      (input, key) => {
        tick();
        if (confirm.answer(input, () => setStatus("Kept it as it was."))) return;
        if (nav.handle(input, key)) return;
        const f = facts[nav.selected];
        if (input === "r" && f) renew(f);
        else if ((input === "x" || key.delete) && f) drop(f);
        else if (input === "q" || key.escape) props.onBack();
      },
      { isActive: props.active, ready: !!data.data || !!data.error, wait: action.busy },
    ),
  );
}

/**
 * The columns after a fact's text, each starting at the same display column on every row (wide
 * characters count two): confidence, scope and state are never cut, the text gives way down to 10
 * columns. When that would leave the text under 20, the heads are shortened instead of widening
 * their columns ("conf." over "medium").
 */
export function factColumns(rows: string[][], cols: number) {
  const widest = (i: number) => Math.max(0, ...rows.map((r) => width(r[i])));
  // The pointer and the mark, two spaces after the text, one between the other columns.
  const fixed = 4 + 2 + 1 + 1;
  const textRoom = (heads: string[]) =>
    cols - fixed - heads.reduce((sum, h, i) => sum + Math.max(width(h), widest(i)), 0);
  const full = ["confidence", "scope", "state"];
  const heads = textRoom(full) >= 20 ? full : ["conf.", "scope", "state"];
  const colW = heads.map((h, i) => Math.max(width(h), widest(i)));
  const textW = Math.max(10, textRoom(heads));
  return {
    heads,
    /** The text padded to its column, then each column padded to its own (the last one not). */
    row: (text: string, values: string[], ellipsis = "…") =>
      `${pad(text, textW, ellipsis)}  ${padEnd(values[0], colW[0])} ${padEnd(values[1], colW[1])} ${values[2]}`,
  };
}
