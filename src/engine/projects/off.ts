// `mindsave off` and `on`: whether MindSave keeps memory in a project, or in every project on this
// host. Off, an agent's hooks save and restore nothing and the MCP tools say so in their answers;
// what a person runs still works. A project's switch is a row of the store that syncs to every
// host; a host's (`--global`) is keyed by that host and read only there (carried by sync, so a
// drive this host uses agrees).
import { utcMinute } from "../../lib/text.ts";
import { currentWorkspace, resolveProject, type ProjectContext } from "./resolve.ts";
import { markedAsProject } from "./workspace.ts";
import { offAtFolder, offByHistory, switchId } from "./off-switch.ts";
import type { Session } from "../session.ts";
import type { OffSwitchRecord, StoreWriter } from "../../store/store.ts";

/** What is off where a command runs: the project's switch, this host's (null: on). */
export interface OffState {
  project: OffSwitchRecord | null;
  host: OffSwitchRecord | null;
}

/** The switches that concern project `projectId` (null: none here yet) on this host. */
export async function offState(session: Session, projectId: string | null): Promise<OffState> {
  const rows = await session.reader.offSwitches(projectId, session.host.id);
  return {
    project: rows.find((r) => r.scope === "project") ?? null,
    host: rows.find((r) => r.scope === "host") ?? null,
  };
}

/** The off state of the current folder's project (or --in's), without making one. */
export async function offHere(session: Session): Promise<OffState> {
  const ctx = await resolveProject(session, { create: false });
  if (ctx) return offState(session, ctx.project.id);
  // No project here yet, but a project that is off had this folder (its history replaced since, its
  // project.json gone) or this history (a repair lost its row): still off, so that a hook makes no
  // new project of it.
  const state = await offState(session, null);
  const ws = currentWorkspace(session, false);
  if (!ws) return state;
  const off =
    (await offAtFolder(session.reader, session.host.id, ws.root)) ??
    (await offByHistory(session.reader, ws.identity));
  return { ...state, project: off };
}

export const isOff = (s: OffState): boolean => s.project !== null || s.host !== null;

/**
 * One sentence saying that MindSave is off here and how to turn it on; null when it is on. `hooks`:
 * what the hooks do not do, as the command showing it needs it said (signal: they measure nothing).
 */
export function offSentence(s: OffState, hooks = "save and restore nothing"): string | null {
  if (s.host)
    return `MindSave is off for every project on this host since ${utcMinute(s.host.off_at)}: hooks ${hooks} (\`mindsave on --global\` turns it back on).`;
  if (s.project)
    return `MindSave is off in this project since ${utcMinute(s.project.off_at)}: hooks ${hooks} (\`mindsave on\` turns it back on).`;
  return null;
}

export interface Switched {
  scope: "project" | "host";
  off: boolean;
  /** False when it already was so (nothing written). */
  changed: boolean;
  project: { id: string; name: string } | null;
  /** The project was made by this command (`on` in a folder that was none). */
  made: boolean;
  /** A sentence to show, e.g. why nothing was switched in a plain folder. */
  note?: string;
}

/** `mindsave off` / `mindsave on` (`global`: every project on this host), in one transaction. */
export async function switchMindSave(
  session: Session,
  opts: { off: boolean; global?: boolean },
): Promise<Switched> {
  return session.write(async (w) => {
    if (opts.global) {
      const was = (await offState(session, null)).host;
      const changed = await flip(session, w, was, opts.off, {
        id: switchId("host", session.host.id),
        scope: "host",
        project_id: null,
        host_id: session.host.id,
      });
      return { scope: "host", off: opts.off, changed, project: null, made: false };
    }
    const found = await resolveProject(session, { create: false });
    const ctx = found ?? (await projectToMake(session, w, opts.off));
    if (!ctx) {
      const note = `No project here, and an agent's hooks make none in a folder without a project marker (git, package.json…): MindSave keeps nothing here already.`;
      return { scope: "project", off: true, changed: false, project: null, made: false, note };
    }
    const was = (await offState(session, ctx.project.id)).project;
    const changed = await flip(session, w, was, opts.off, {
      id: switchId("project", ctx.project.id),
      scope: "project",
      project_id: ctx.project.id,
      host_id: null,
    });
    const made = found === null;
    return { scope: "project", off: opts.off, changed, project: ctx.project, made, note: ctx.note };
  });
}

/**
 * The project `off`/`on` makes where there is none yet: `on` anywhere (a plain folder included: a
 * person chose it); `off` only where a hook would make one (a marker), so that it stays off.
 */
async function projectToMake(session: Session, w: StoreWriter, off: boolean): Promise<ProjectContext | null> {
  if (off && !session.opts.workspace && !markedAsProject(session.cwd, session.env)) return null;
  return resolveProject(session, { create: true, w });
}

/** Writes the switch (off) or its tombstone (on) when it is not so already; whether it wrote. */
async function flip(
  session: Session,
  w: StoreWriter,
  was: OffSwitchRecord | null,
  off: boolean,
  row: Omit<OffSwitchRecord, "off_at" | "hlc" | "host" | "deleted">,
): Promise<boolean> {
  if (off === (was !== null)) return false;
  if (off) await w.putOffSwitch({ ...row, off_at: session.now().toISOString() });
  else await w.tombstone("off_switches", row.id);
  return true;
}
