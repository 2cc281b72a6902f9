// The TUI's root: a stack of screens (home → picker → snapshot or diff; failures, rules and facts
// from home and the picker), the `?`
// key overlay, the terminal size, and the key router. Screens talk to the engine only through its
// functions. Started inside a project, it opens on that project's snapshots (q: the project list).
import React, { useEffect, useRef, useState } from "react";
import { Box, Text, useInput, useWindowSize, type Key } from "ink";
import {
  escapeThenKey,
  KeyRouterContext,
  ScreenIdContext,
  splitKeys,
  type KeyRouter,
  type KeyTarget,
} from "./hooks/useKeys.ts";
import { useRefState } from "./hooks/useRefState.ts";
import { useStoreChanges } from "./hooks/useStoreChanges.ts";
import { currentProject, projectSnapshots } from "../src/engine/snapshots/catalog.ts";
import type { Session } from "../src/engine/session.ts";
import { useUi } from "./context.ts";
import { HomeScreen, HOME_KEYS } from "./components/HomeScreen.tsx";
import { PickerScreen, PICKER_KEYS } from "./components/PickerScreen.tsx";
import { SnapshotScreen, SNAPSHOT_KEYS } from "./components/SnapshotScreen.tsx";
import { FailuresScreen, FAILURE_KEYS } from "./components/FailuresScreen.tsx";
import { HelpOverlay, helpLayout } from "./components/HelpOverlay.tsx";
import { SyncScreen, SYNC_KEYS } from "./components/SyncScreen.tsx";
import { RulesScreen, RULES_KEYS } from "./components/RulesScreen.tsx";
import { FactsScreen, FACTS_KEYS } from "./components/FactsScreen.tsx";
import { DiffScreen, DIFF_KEYS } from "./components/DiffScreen.tsx";
import type { HelpKeys } from "./components/HelpOverlay.tsx";

export type Screen =
  | { name: "home" }
  | { name: "picker"; projectId: string; projectName: string }
  | { name: "snapshot"; snapshotId: string }
  | { name: "failures"; projectId: string | null; projectName?: string }
  | { name: "sync" }
  | { name: "rules"; projectId: string | null; projectName?: string }
  | { name: "facts"; projectId: string | null; projectName?: string }
  | { name: "diff"; projectId: string; projectName: string; from: string; to: string };

/** Each screen's `?` overlay: its title and keys. */
const HELP: Record<Screen["name"], [string, HelpKeys]> = {
  home: ["projects", HOME_KEYS],
  picker: ["snapshots", PICKER_KEYS],
  snapshot: ["snapshot", SNAPSHOT_KEYS],
  failures: ["failure graph", FAILURE_KEYS],
  sync: ["sync", SYNC_KEYS],
  rules: ["standing rules", RULES_KEYS],
  facts: ["facts", FACTS_KEYS],
  diff: ["what changed", DIFF_KEYS],
};

interface Entry {
  uid: number;
  screen: Screen;
}

/** Where the TUI opens: inside a project with snapshots, on its picker (the list below it); else the list. */
export async function startScreens(session: Session): Promise<Screen[]> {
  const here = await currentProject(session).catch(() => null);
  if (here && here.snapshots > 0)
    return [{ name: "home" }, { name: "picker", projectId: here.id, projectName: here.name }];
  return [{ name: "home" }];
}

export function App(props: { initial?: Screen[]; size?: { columns: number; rows: number } }) {
  const { session, exit, theme } = useUi();
  const window = useWindowSize();
  const columns = Math.max(40, props.size?.columns ?? window.columns ?? 80);
  const rows = Math.max(10, props.size?.rows ?? window.rows ?? 24);
  const uids = useRef(0);
  const entries = (screens: Screen[]): Entry[] => screens.map((screen) => ({ uid: ++uids.current, screen }));
  // The stack is read by the key router between renders, so it lives in a ref too.
  const [getStack, setStackState] = useRefState<Entry[] | null>(
    props.initial ? entries(props.initial) : null,
  );
  const [getHelp, setHelp] = useRefState(false);
  // The first line of keys the overlay shows (a short terminal scrolls them); the size in a ref, as keys are handled between renders.
  const [getHelpTop, setHelpTop] = useRefState(0);
  const size = useRef({ columns, rows });
  size.current = { columns, rows };
  const [status, setStatus] = useState<string | undefined>();
  const [version, setVersion] = useState(0);
  const [edits, setEdits] = useState(0);
  useStoreChanges(session, () => setEdits((n) => n + 1));
  const typing = useRef(false);
  const setTyping = (v: boolean) => {
    typing.current = v;
  };

  // Keys: queued, then handed one by one to the screen on top, once it is mounted and ready.
  const queue = useRef<[string, Key][]>([]);
  const targets = useRef(new Map<string, { current: KeyTarget }>());
  const holding = useRef(0);
  const flushing = useRef(false);
  const flush = () => {
    if (flushing.current) return;
    flushing.current = true;
    try {
      while (queue.current.length) {
        const stack = getStack();
        const target =
          stack && !holding.current ? targets.current.get(String(stack[stack.length - 1].uid)) : undefined;
        // The keys go nowhere yet: the stack is changing or the screen is still mounting.
        if (!getHelp() && !target) return;
        // Esc and a key in one read: two keys, told apart now that it is known whether a field takes them.
        const both = escapeThenKey(queue.current[0][0], queue.current[0][1], typing.current && !getHelp());
        if (both) {
          queue.current.splice(0, 1, ...both);
          continue;
        }
        const [input, key] = queue.current[0];
        if (getHelp()) {
          queue.current.shift();
          if (input === "?" || key.escape || input === "q") setHelp(false);
          else if (stack) {
            const [, keys] = HELP[stack[stack.length - 1].screen.name];
            const { room, maxTop } = helpLayout(
              keys,
              size.current.columns,
              size.current.rows - 1,
              theme.ascii,
            );
            const by =
              key.downArrow || input === "j"
                ? 1
                : key.upArrow || input === "k"
                  ? -1
                  : key.pageDown || input === " "
                    ? room
                    : key.pageUp
                      ? -room
                      : 0;
            if (by) setHelpTop(Math.max(0, Math.min(maxTop, getHelpTop() + by)));
          }
          continue;
        }
        if (!target) return;
        if (input === "?" && !typing.current) {
          queue.current.shift();
          setHelpTop(0);
          setHelp(true);
          continue;
        }
        if (target.current.wait?.(input, key)) return;
        queue.current.shift();
        target.current.handle(input, key);
      }
    } finally {
      flushing.current = false;
    }
  };
  const router = useRef<KeyRouter>({
    register: (id, target) => {
      targets.current.set(id, target);
      flush();
      return () => {
        if (targets.current.get(id) === target) targets.current.delete(id);
      };
    },
    flush: () => flush(),
  }).current;
  useInput((input, key) => {
    queue.current.push(...splitKeys(input, key));
    flush();
  });
  /** Keys wait while `work` runs (a screen change that needs the store first). */
  const holdDuring = async (work: () => Promise<void>) => {
    holding.current++;
    try {
      await work();
    } finally {
      holding.current--;
      flush();
    }
  };

  useEffect(() => {
    if (getStack()) return;
    void holdDuring(async () => setStackState(entries(await startScreens(session))));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const push = (s: Screen) => {
    setStatus(undefined);
    setStackState((st) => [...(st ?? []), ...entries([s])]);
  };
  const pop = () => setStackState((st) => (st && st.length > 1 ? st.slice(0, -1) : st));

  const stack = getStack();
  const help = getHelp();
  if (!stack)
    return (
      <Box width={columns} height={rows - 1}>
        <Text> </Text>
      </Box>
    );
  const top = stack[stack.length - 1].screen;

  // Screens below the top stay mounted (hidden), so going back finds the picker's filter and
  // selection as they were; a change below (a delete) re-mounts them through `version`, and a
  // snapshot marked completed has the picker read its rows again (`edits`).
  const screens = stack.map(({ uid, screen }, i) => {
    const isTop = i === stack.length - 1;
    const common = { width: columns, height: rows - 1, active: isTop && !help };
    let node: React.ReactNode;
    if (screen.name === "home") {
      node = (
        <HomeScreen
          {...common}
          status={status}
          edits={edits}
          onQuit={() => exit()}
          onFailures={(projectId, projectName) => push({ name: "failures", projectId, projectName })}
          onSync={() => push({ name: "sync" })}
          onRules={(projectId, projectName) => push({ name: "rules", projectId, projectName })}
          onFacts={(projectId, projectName) => push({ name: "facts", projectId, projectName })}
          onOpen={(p) =>
            holdDuring(async () => {
              setStatus(undefined);
              if (p.snapshots === 0)
                return setStatus(
                  `${p.name} has no snapshots yet: save one from its folder with \`mindsave save\`.`,
                );
              // The spec's rule: a single snapshot is opened directly.
              if (p.snapshots === 1) {
                const [only] = await projectSnapshots(session, p.id, { limit: 1 });
                if (only) return push({ name: "snapshot", snapshotId: only.id });
              }
              push({ name: "picker", projectId: p.id, projectName: p.name });
            })
          }
        />
      );
    } else if (screen.name === "picker") {
      node = (
        <PickerScreen
          {...common}
          projectId={screen.projectId}
          projectName={screen.projectName}
          edits={edits}
          onOpen={(snapshotId) => push({ name: "snapshot", snapshotId })}
          onBack={pop}
          onTyping={setTyping}
          onFailures={() =>
            push({ name: "failures", projectId: screen.projectId, projectName: screen.projectName })
          }
          onRules={() =>
            push({ name: "rules", projectId: screen.projectId, projectName: screen.projectName })
          }
          onFacts={() =>
            push({ name: "facts", projectId: screen.projectId, projectName: screen.projectName })
          }
          onDiff={(from, to) =>
            push({ name: "diff", projectId: screen.projectId, projectName: screen.projectName, from, to })
          }
        />
      );
    } else if (screen.name === "snapshot") {
      node = (
        <SnapshotScreen
          {...common}
          snapshotId={screen.snapshotId}
          onBack={(change) => {
            pop();
            if (change === "deleted") setVersion((v) => v + 1);
            // Marked completed: the picker reads its rows again, keeping its filter and selection.
            else if (change === "edited") setEdits((n) => n + 1);
          }}
          onFailures={(projectId, projectName) => push({ name: "failures", projectId, projectName })}
        />
      );
    } else if (screen.name === "sync") {
      node = (
        <SyncScreen
          {...common}
          onBack={() => {
            pop();
            setVersion((v) => v + 1); // what a sync brought in shows on the screens below
          }}
        />
      );
    } else if (screen.name === "rules") {
      node = (
        <RulesScreen
          {...common}
          projectId={screen.projectId}
          projectName={screen.projectName}
          onBack={pop}
          onTyping={setTyping}
        />
      );
    } else if (screen.name === "facts") {
      node = (
        <FactsScreen {...common} projectId={screen.projectId} projectName={screen.projectName} onBack={pop} />
      );
    } else if (screen.name === "diff") {
      node = (
        <DiffScreen
          {...common}
          projectId={screen.projectId}
          projectName={screen.projectName}
          from={screen.from}
          to={screen.to}
          onBack={pop}
        />
      );
    } else {
      node = (
        <FailuresScreen
          {...common}
          projectId={screen.projectId}
          projectName={screen.projectName}
          onBack={pop}
          onTyping={setTyping}
        />
      );
    }
    return (
      <ScreenIdContext.Provider key={`${uid}:${version}`} value={String(uid)}>
        <Box display={isTop && !help ? "flex" : "none"} flexDirection="column">
          {node}
        </Box>
      </ScreenIdContext.Provider>
    );
  });
  const [helpTitle, keys] = HELP[top.name];
  return (
    <KeyRouterContext.Provider value={router}>
      <Box flexDirection="column" width={columns} height={rows - 1}>
        {help ? (
          <HelpOverlay title={helpTitle} keys={keys} width={columns} height={rows - 1} top={getHelpTop()} />
        ) : null}
        {screens}
      </Box>
    </KeyRouterContext.Provider>
  );
}
