// The TUI's root: a stack of screens (home → picker → snapshot; failures from anywhere), the `?`
// key overlay, and the terminal size. Screens talk to the engine only through its functions.
import React, { useRef, useState } from "react";
import { Box, useWindowSize } from "ink";
import { useKeys } from "./hooks/useKeys.ts";
import { projectSnapshots } from "../src/engine/snapshots/catalog.ts";
import { useUi } from "./context.ts";
import { HomeScreen, HOME_KEYS } from "./components/HomeScreen.tsx";
import { PickerScreen, PICKER_KEYS } from "./components/PickerScreen.tsx";
import { SnapshotScreen, SNAPSHOT_KEYS } from "./components/SnapshotScreen.tsx";
import { FailuresScreen, FAILURE_KEYS } from "./components/FailuresScreen.tsx";
import { HelpOverlay } from "./components/HelpOverlay.tsx";
import { SyncScreen, SYNC_KEYS } from "./components/SyncScreen.tsx";

export type Screen =
  | { name: "home" }
  | { name: "picker"; projectId: string; projectName: string }
  | { name: "snapshot"; snapshotId: string }
  | { name: "failures"; projectId: string | null }
  | { name: "sync" };

export function App(props: { initial?: Screen[]; size?: { columns: number; rows: number } }) {
  const { session, exit } = useUi();
  const window = useWindowSize();
  const columns = Math.max(40, props.size?.columns ?? window.columns ?? 80);
  const rows = Math.max(10, props.size?.rows ?? window.rows ?? 24);
  const [stack, setStack] = useState<Screen[]>(props.initial ?? [{ name: "home" }]);
  const [help, setHelp] = useState(false);
  const typing = useRef(false);
  const setTyping = (v: boolean) => {
    typing.current = v;
  };
  const [status, setStatus] = useState<string | undefined>();
  const top = stack[stack.length - 1];
  const push = (s: Screen) => {
    setStatus(undefined);
    setStack((st) => [...st, s]);
  };
  const pop = () => setStack((st) => (st.length > 1 ? st.slice(0, -1) : st));
  const [version, setVersion] = useState(0);

  useKeys((input, key) => {
    if (help) {
      if (input === "?" || key.escape || input === "q") setHelp(false);
      return;
    }
    if (input === "?" && !typing.current) setHelp(true);
  });

  // Screens below the top stay mounted (hidden), so going back finds the picker's filter and
  // selection as they were; a change below (a delete) re-mounts them through `version`.
  const screens = stack.map((screen, i) => {
    const isTop = i === stack.length - 1;
    const common = { width: columns, height: rows - 1, active: isTop && !help };
    let node: React.ReactNode;
    if (screen.name === "home") {
      node = (
        <HomeScreen {...common} status={status}
          onQuit={() => exit()}
          onFailures={(projectId) => push({ name: "failures", projectId })}
          onSync={() => push({ name: "sync" })}
          onOpen={async (p) => {
            setStatus(undefined);
            if (p.snapshots === 0) return setStatus(`${p.name} has no snapshots yet.`);
            // The spec's rule: a single snapshot is opened directly.
            if (p.snapshots === 1) {
              const [only] = await projectSnapshots(session, p.id, { limit: 1 });
              if (only) return push({ name: "snapshot", snapshotId: only.id });
            }
            push({ name: "picker", projectId: p.id, projectName: p.name });
          }} />
      );
    } else if (screen.name === "picker") {
      node = (
        <PickerScreen {...common} projectId={screen.projectId} projectName={screen.projectName}
          onOpen={(snapshotId) => push({ name: "snapshot", snapshotId })}
          onBack={pop} onTyping={setTyping}
          onFailures={() => push({ name: "failures", projectId: screen.projectId })} />
      );
    } else if (screen.name === "snapshot") {
      node = (
        <SnapshotScreen {...common} snapshotId={screen.snapshotId}
          onBack={(changed) => {
            pop();
            if (changed) setVersion((v) => v + 1);
          }}
          onFailures={(projectId) => push({ name: "failures", projectId })} />
      );
    } else if (screen.name === "sync") {
      node = <SyncScreen {...common} onBack={() => {
        pop();
        setVersion((v) => v + 1); // what a sync brought in shows on the screens below
      }} />;
    } else {
      node = <FailuresScreen {...common} projectId={screen.projectId} onBack={pop} onTyping={setTyping} />;
    }
    const id = screen.name === "picker" ? screen.projectId : screen.name === "snapshot" ? screen.snapshotId : screen.name === "failures" ? String(screen.projectId) : "";
    return (
      <Box key={`${i}:${screen.name}:${id}:${version}`} display={isTop && !help ? "flex" : "none"} flexDirection="column">
        {node}
      </Box>
    );
  });
  const keys = top.name === "home" ? HOME_KEYS : top.name === "picker" ? PICKER_KEYS : top.name === "snapshot" ? SNAPSHOT_KEYS : top.name === "sync" ? SYNC_KEYS : FAILURE_KEYS;
  return (
    <Box flexDirection="column" width={columns} height={rows - 1}>
      {help ? <HelpOverlay title={top.name} keys={keys} width={columns} /> : null}
      {screens}
    </Box>
  );
}
