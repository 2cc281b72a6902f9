// The screens the app stacks (home → picker → snapshot or diff; failures, rules and facts from home
// and the picker; sync from home), each drawn from its own fields and what it may ask of the app.
import React from "react";
import type { ProjectView } from "../src/engine/projects/projects.ts";
import { HomeScreen, HOME_KEYS } from "./components/HomeScreen.tsx";
import { PickerScreen, PICKER_KEYS } from "./components/PickerScreen.tsx";
import { SnapshotScreen, SNAPSHOT_KEYS } from "./components/SnapshotScreen.tsx";
import { FailuresScreen, FAILURE_KEYS } from "./components/FailuresScreen.tsx";
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
export const HELP: Record<Screen["name"], [string, HelpKeys]> = {
  home: ["projects", HOME_KEYS],
  picker: ["snapshots", PICKER_KEYS],
  snapshot: ["snapshot", SNAPSHOT_KEYS],
  failures: ["failure graph", FAILURE_KEYS],
  sync: ["sync", SYNC_KEYS],
  rules: ["standing rules", RULES_KEYS],
  facts: ["facts", FACTS_KEYS],
  diff: ["what changed", DIFF_KEYS],
};

/** What a screen may ask of the app, and what the app tells the screens. */
export interface Navigation {
  push: (s: Screen) => void;
  pop: () => void;
  /** A change below the top (a sync): the screens under it are mounted again. */
  changedBelow: () => void;
  /** A snapshot marked completed: the lists read their rows again, keeping filter and selection. */
  edited: () => void;
  /**
   * A snapshot deleted above: the lists read their rows again (a list's selection moves to the next
   * row) and the screen below says so in its status line.
   */
  deleted: (name: string) => void;
  /** Home's Enter: the project's snapshots, its only snapshot, or why there is none. */
  openProject: (p: ProjectView) => Promise<void>;
  quit: () => void;
  setTyping: (typing: boolean) => void;
  status?: string;
  /** Counts the store's changes made elsewhere and snapshots edited above: lists read again. */
  edits: number;
}

/** The size every screen is drawn at, and whether it takes the keys (on top, no overlay). */
export interface Place {
  width: number;
  height: number;
  active: boolean;
}

type Draw<N extends Screen["name"]> = (
  s: Extract<Screen, { name: N }>,
  at: Place,
  nav: Navigation,
) => React.ReactNode;

/** The project of a screen opened from a project's list: failures, rules and facts. */
const ofProject = (s: { projectId: string; projectName: string }) => ({
  projectId: s.projectId,
  projectName: s.projectName,
});

const DRAW: { [N in Screen["name"]]: Draw<N> } = {
  home: (_s, at, nav) => (
    <HomeScreen
      {...at}
      status={nav.status}
      edits={nav.edits}
      onQuit={nav.quit}
      onFailures={(projectId, projectName) => nav.push({ name: "failures", projectId, projectName })}
      onSync={() => nav.push({ name: "sync" })}
      onRules={(projectId, projectName) => nav.push({ name: "rules", projectId, projectName })}
      onFacts={(projectId, projectName) => nav.push({ name: "facts", projectId, projectName })}
      onOpen={nav.openProject}
    />
  ),
  picker: (s, at, nav) => (
    <PickerScreen
      {...at}
      projectId={s.projectId}
      projectName={s.projectName}
      status={nav.status}
      edits={nav.edits}
      onOpen={(snapshotId) => nav.push({ name: "snapshot", snapshotId })}
      onBack={nav.pop}
      onTyping={nav.setTyping}
      onFailures={() => nav.push({ name: "failures", ...ofProject(s) })}
      onRules={() => nav.push({ name: "rules", ...ofProject(s) })}
      onFacts={() => nav.push({ name: "facts", ...ofProject(s) })}
      onDiff={(from, to) => nav.push({ name: "diff", ...ofProject(s), from, to })}
    />
  ),
  snapshot: (s, at, nav) => (
    <SnapshotScreen
      {...at}
      snapshotId={s.snapshotId}
      onBack={(change) => {
        nav.pop();
        if (change === "edited") nav.edited();
        else if (change) nav.deleted(change.deleted);
      }}
      onFailures={(projectId, projectName) => nav.push({ name: "failures", projectId, projectName })}
    />
  ),
  sync: (_s, at, nav) => (
    <SyncScreen
      {...at}
      onBack={() => {
        nav.pop();
        nav.changedBelow(); // what a sync brought in shows on the screens below
      }}
    />
  ),
  rules: (s, at, nav) => (
    <RulesScreen
      {...at}
      projectId={s.projectId}
      projectName={s.projectName}
      onBack={nav.pop}
      onTyping={nav.setTyping}
    />
  ),
  facts: (s, at, nav) => (
    <FactsScreen {...at} projectId={s.projectId} projectName={s.projectName} onBack={nav.pop} />
  ),
  diff: (s, at, nav) => (
    <DiffScreen
      {...at}
      projectId={s.projectId}
      projectName={s.projectName}
      from={s.from}
      to={s.to}
      onBack={nav.pop}
    />
  ),
  failures: (s, at, nav) => (
    <FailuresScreen
      {...at}
      projectId={s.projectId}
      projectName={s.projectName}
      onBack={nav.pop}
      onTyping={nav.setTyping}
    />
  ),
};

/** The screen `s` as drawn at `at`. */
export function drawScreen(s: Screen, at: Place, nav: Navigation): React.ReactNode {
  return (DRAW[s.name] as Draw<Screen["name"]>)(s as never, at, nav);
}
