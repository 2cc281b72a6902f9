// The TUI's root: a stack of screens (screens.tsx), the `?` key overlay, the terminal size, and the
// key router (useKeyRouter.ts). Screens talk to the engine only through its functions. Started
// inside a project, it opens on that project's snapshots (q: the project list).
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { Box, Text, useWindowSize } from "ink";
import { KeyRouterContext, ScreenIdContext } from "./hooks/useKeys.ts";
import { useKeyRouter, type KeyQueue } from "./hooks/useKeyRouter.ts";
import { useRefState } from "./hooks/useRefState.ts";
import { useStoreChanges } from "./hooks/useStoreChanges.ts";
import { currentProject, projectSnapshots } from "../src/engine/snapshots/catalog.ts";
import type { ProjectView } from "../src/engine/projects/projects.ts";
import type { Session } from "../src/engine/session.ts";
import { useUi } from "./context.ts";
import { HelpOverlay, useHelpOverlay } from "./components/HelpOverlay.tsx";
import { drawScreen, HELP, type Navigation, type Screen } from "./screens.tsx";

export type { Screen } from "./screens.tsx";

interface Entry {
  uid: number;
  screen: Screen;
}

/** Where the TUI opens: inside a project with snapshots, on its picker (the list below it); else the list. */
export async function startScreens(session: Session): Promise<Screen[]> {
  const here = await currentProject(session).catch(() => null);
  if (here?.hasSnapshots)
    return [{ name: "home" }, { name: "picker", projectId: here.id, projectName: here.name }];
  return [{ name: "home" }];
}

/** The stack of screens, each with the id its keys are routed by; read by the key router between renders, so it lives in a ref too. */
function useScreenStack(initial?: Screen[]) {
  const uids = useRef(0);
  const entries = (screens: Screen[]): Entry[] => screens.map((screen) => ({ uid: ++uids.current, screen }));
  const [get, set] = useRefState<Entry[] | null>(initial ? entries(initial) : null);
  return {
    get,
    start: (screens: Screen[]) => set(entries(screens)),
    push: (s: Screen) => set((st) => [...(st ?? []), ...entries([s])]),
    pop: () => set((st) => (st && st.length > 1 ? st.slice(0, -1) : st)),
    top: () => get()?.at(-1),
  };
}

type ScreenStack = ReturnType<typeof useScreenStack>;

/**
 * What the screens may ask of the app, and the status line it keeps for home and the picker. A
 * change below the top (a sync) re-mounts the screens under it (`version`); `edits` counts changes
 * lists read again for (a snapshot deleted or marked completed).
 */
function useNavigation(stack: ScreenStack, keys: KeyQueue): Navigation & { version: number } {
  const { session, exit } = useUi();
  const [status, setStatus] = useState<string | undefined>();
  const [version, setVersion] = useState(0);
  const [edits, setEdits] = useState(0);
  useStoreChanges(session, () => setEdits((n) => n + 1));
  const push = (s: Screen) => {
    setStatus(undefined);
    stack.push(s);
  };
  const openProject = (p: ProjectView) =>
    keys.holdDuring(async () => {
      setStatus(undefined);
      if (p.snapshots === 0)
        return setStatus(`${p.name} has no snapshots yet: save one from its folder with \`mindsave save\`.`);
      // The spec's rule: a single snapshot is opened directly.
      if (p.snapshots === 1) {
        const [only] = await projectSnapshots(session, p.id, { limit: 1 });
        if (only) return push({ name: "snapshot", snapshotId: only.id });
      }
      push({ name: "picker", projectId: p.id, projectName: p.name });
    });
  return {
    push,
    // The status line is said on the screen it was set for: going back leaves it behind.
    pop: () => {
      setStatus(undefined);
      stack.pop();
    },
    changedBelow: () => setVersion((v) => v + 1),
    edited: () => setEdits((n) => n + 1),
    deleted: (name: string) => {
      setStatus(`Deleted ${name}.`);
      setEdits((n) => n + 1);
    },
    openProject,
    quit: () => exit(),
    setTyping: keys.setTyping,
    status,
    edits,
    version,
  };
}

export function App(props: { initial?: Screen[]; size?: { columns: number; rows: number } }) {
  const { session, theme } = useUi();
  const window = useWindowSize();
  const columns = Math.max(40, props.size?.columns ?? window.columns ?? 80);
  const rows = Math.max(10, props.size?.rows ?? window.rows ?? 24);
  const stack = useScreenStack(props.initial);
  const top = stack.top();
  const help = useHelpOverlay(
    () => {
      const on = stack.top();
      return on ? HELP[on.screen.name][1] : undefined;
    },
    { columns, rows },
    theme.ascii,
  );
  const keys = useKeyRouter(() => {
    const on = stack.top();
    return on && String(on.uid);
  }, help);
  const nav = useNavigation(stack, keys);
  const start = useEffectEvent(() => {
    if (stack.get()) return;
    void keys.holdDuring(async () => stack.start(await startScreens(session)));
  });
  useEffect(() => start(), []);

  const entries = stack.get();
  const helpOpen = help.isOpen();
  if (!entries || !top)
    return (
      <Box width={columns} height={rows - 1}>
        <Text> </Text>
      </Box>
    );
  // Screens below the top stay mounted (hidden), so going back finds the picker's filter and
  // selection as they were; a change below (a sync) re-mounts them through `version`, and a
  // snapshot deleted or marked completed has the picker read its rows again (`edits`).
  const screens = entries.map(({ uid, screen }, i) => {
    const isTop = i === entries.length - 1;
    const at = { width: columns, height: rows - 1, active: isTop && !helpOpen };
    return (
      <ScreenIdContext.Provider key={`${uid}:${nav.version}`} value={String(uid)}>
        <Box display={isTop && !helpOpen ? "flex" : "none"} flexDirection="column">
          {drawScreen(screen, at, nav)}
        </Box>
      </ScreenIdContext.Provider>
    );
  });
  const [helpTitle, helpKeys] = HELP[top.screen.name];
  return (
    <KeyRouterContext.Provider value={keys.router}>
      <Box flexDirection="column" width={columns} height={rows - 1}>
        {helpOpen ? (
          <HelpOverlay title={helpTitle} keys={helpKeys} width={columns} height={rows - 1} top={help.top()} />
        ) : null}
        {screens}
      </Box>
    </KeyRouterContext.Provider>
  );
}
