// Projects across hosts: the list with each one's root here, and link/split for checkouts that
// share a root commit (forks, copies) or one codebase tracked twice.
import { existsSync } from "node:fs";
import { UserError } from "../../errors.ts";
import { newId } from "../ids.ts";
import { moveProjectRows } from "./fold.ts";
import { offState } from "./off.ts";
import { keepOff, projectSwitch } from "./off-switch.ts";
import { freeProjectName } from "./names.ts";
import { samePath } from "./paths.ts";
import { listWhatLoadRestores } from "../snapshots/retention.ts";
import type { Session } from "../session.ts";
import {
  currentWorkspace,
  identitiesOf,
  namedProject,
  pinProject,
  recordRoot,
  resolveProject,
} from "./resolve.ts";
import type { ProjectRecord } from "../../store/store.ts";
import { compareCodes, compareText } from "../../lib/text.ts";

export interface ProjectView {
  id: string;
  name: string;
  identity: string;
  /** This host's root, or null: "not on this host". */
  root: string | null;
  root_exists: boolean;
  other_hosts: { host: string; path: string }[];
  snapshots: number;
  newest: string | null;
  current: boolean;
  /** MindSave is off in it on this host (its own switch, or this host's `off --global`): hooks keep nothing. */
  off: boolean;
}

export async function listProjects(session: Session): Promise<ProjectView[]> {
  const q = session.store;
  const [projects, counts, hosts] = await Promise.all([q.listProjects(), q.snapshotCounts(), q.listHosts()]);
  const hostName = new Map(hosts.map((h) => [h.id, h.name]));
  const current = await resolveProject(session, { create: false }).catch(() => null);
  const hostOff = (await offState(session, null)).host !== null;
  const out: ProjectView[] = [];
  for (const p of projects) {
    const roots = await q.rootsOfProject(p.id);
    const mine = roots.filter((r) => r.host_id === session.host.id);
    const here = mine.find((r) => existsSync(r.path)) ?? mine[0] ?? null;
    // The current directory's project is shown at the folder we stand in (a linked project has
    // several here); one synced from another laptop is "here" as soon as we stand in its checkout.
    const root = (current?.project.id === p.id ? current.root : null) ?? here?.path ?? null;
    out.push({
      id: p.id,
      name: p.name,
      identity: p.identity,
      root,
      root_exists: root ? existsSync(root) : false,
      other_hosts: roots
        .filter((r) => r.host_id !== session.host.id)
        .map((r) => ({ host: hostName.get(r.host_id) ?? r.host_id, path: r.path })),
      snapshots: counts.get(p.id)?.count ?? 0,
      newest: counts.get(p.id)?.newest ?? null,
      current: current?.project.id === p.id,
      off: hostOff || (await projectSwitch(q, p.id)) !== null,
    });
  }
  return out.sort(
    (a, b) =>
      Number(b.current) - Number(a.current) ||
      compareCodes(b.newest ?? "", a.newest ?? "") ||
      compareText(a.name, b.name),
  );
}

/**
 * Merges the current project and `otherKey` into one: the one made first keeps its id and name (the
 * name it already has on every host: a second checkout linked to it, as MindSave's hint says, must
 * not rename it), and the other's snapshots, failures, rules, facts, retirements, tool calls and
 * roots move into it; the other stays an alias of it (see fold.ts, aliases.ts).
 */
export async function linkProjects(
  session: Session,
  otherKey: string,
): Promise<{
  into: ProjectRecord;
  from: ProjectRecord;
  snapshots: number;
  failures: number;
  /** The projects that were off before the link: the linked project is off if either was. */
  off: ProjectRecord[];
}> {
  return session.write(async (w) => {
    const here = (await resolveProject(session, { create: true, w })).project;
    // Merging is not undone by split on every host: the project is named whole, never by a prefix.
    const other = (await namedProject(session, w, otherKey, { prefix: false })).project;
    if (other.id === here.id) throw new UserError("That is this project already; nothing to link.");
    const [into, from] = compareCodes(other.created_at, here.created_at) < 0 ? [other, here] : [here, other];
    const off: ProjectRecord[] = [];
    for (const p of [from, into]) if (await projectSwitch(w, p.id)) off.push(p);
    const { snapshots, failures } = await moveProjectRows(w, from.id, into.id);
    await w.updateProject(from.id, { merged_into: into.id });
    return { into, from, snapshots, failures, off };
  });
}

/**
 * Makes this checkout its own project: a new project with the same identity, this root, and the
 * snapshots that were saved from this root on this host.
 */
export async function splitProject(
  session: Session,
): Promise<{ project: ProjectRecord; from: ProjectRecord; snapshots: number; off: boolean }> {
  return session.write(async (w) => {
    const here = await resolveProject(session, { create: true, w });
    if (!here.root) throw new UserError("This project has no root on this host to split off.");
    const others = (await w.rootsOfProject(here.project.id)).filter(
      (r) => !(r.host_id === session.host.id && r.path === here.root),
    );
    if (!others.length)
      throw new UserError(
        `This checkout is the only root of project ${here.project.name}; there is nothing to split it from.`,
      );
    const id = `p_${newId()}`;
    const name = await freeProjectName(w, here.workspace?.name ?? here.project.name);
    // A checkout of a project linked into this one splits off with its own history.
    const identity =
      here.workspace && !here.workspace.identities.includes(here.project.identity)
        ? here.workspace.identity
        : here.project.identity;
    await w.insertProject({
      id,
      identity,
      name,
      remote: here.workspace?.remote ?? null,
      created_at: session.now().toISOString(),
      merged_into: null,
    });
    const mine = (await w.rootsOnHost(session.host.id)).filter(
      (r) => r.project_id === here.project.id && samePath(r.path, here.root!),
    );
    for (const r of mine) await w.deleteRoot(r.id);
    await recordRoot(session, w, id, here.root);
    const ids = (await w.listSnapshots(here.project.id)).map((s) => s.id);
    const moving: string[] = [];
    for (const sid of ids) {
      const s = await w.getSnapshot(sid);
      if (s && s.saved_host === session.host.id && s.saved_root === here.root) moving.push(sid);
    }
    await w.moveSnapshots(here.project.id, id, moving);
    // The newest of each may have been archived while the other held newer ones.
    for (const p of [here.project.id, id]) await listWhatLoadRestores(w, p);
    // A checkout of a project that is off splits off still off: a split never turns MindSave on.
    const off = await projectSwitch(w, here.project.id);
    if (off) await keepOff(w, id, off.off_at);
    const project = (await w.getProject(id))!;
    return { project, from: here.project, snapshots: moving.length, off: off !== null };
  });
}

/**
 * Says "this checkout is project `key`": this folder's root on this host moves to that project.
 * Nothing is renamed or merged; the project must share this checkout's history (same identity).
 */
export async function attachProject(
  session: Session,
  key: string,
): Promise<{
  project: ProjectRecord;
  root: string;
  from: ProjectRecord | null;
  /** The project this checkout was is off and the one it is now is on: hooks keep memory here again. */
  offLeft: boolean;
}> {
  const ws = currentWorkspace(session, false);
  if (!ws)
    throw new UserError(
      "This folder has no project identity yet (no git history, no .mindsave/project.json); save a snapshot here first.",
    );
  const target = (await pinProject(session, key)).project;
  return session.write(async (w) => {
    if (!(await identitiesOf(w, target)).some((i) => ws.identities.includes(i))) {
      throw new UserError(
        `Project ${target.name} has a different history than this checkout (${ws.identity} here); \`mindsave projects link ${target.id}\` merges two projects instead.`,
      );
    }
    const onHost = (await w.rootsOnHost(session.host.id)).filter((r) => samePath(r.path, ws.root));
    const before = onHost.find((r) => r.project_id !== target.id);
    for (const r of onHost) if (r.project_id !== target.id) await w.deleteRoot(r.id);
    await recordRoot(session, w, target.id, ws.root);
    const from = before ? await w.getProject(before.project_id) : null;
    // Attach moves only this checkout, so it does not switch the target off for all of its
    // checkouts; a checkout leaving a project that is off for one that is on is said instead.
    const offLeft =
      from !== null && (await projectSwitch(w, from.id)) !== null && !(await projectSwitch(w, target.id));
    return { project: target, root: ws.root, from, offLeft };
  });
}
