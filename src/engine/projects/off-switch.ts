// A project's off switch as rows: read, kept off, carried along. The routes that make or merge a
// project (link, split, import, a project made where one that is off had its folder) use these,
// so that a person's "off" is never lost by them; `mindsave off`/`on` itself is off.ts.
import { derivedId } from "../ids.ts";
import { samePath } from "./paths.ts";
import type { OffSwitchRecord, Queries, StoreWriter } from "../../store/store.ts";

export const switchId = (scope: "project" | "host", key: string) => derivedId("off", scope, key);

/** Project `projectId`'s own switch when it is off (null: on). */
export async function projectSwitch(q: Queries, projectId: string): Promise<OffSwitchRecord | null> {
  // No host is named "": only the project's own row is asked for.
  const rows = await q.offSwitches(projectId, "");
  return rows.find((r) => r.scope === "project" && r.project_id === projectId) ?? null;
}

/**
 * Switches project `projectId` off (an import's or a link's doing) unless it is off already: these
 * routes only ever keep a person's "off", never turn a project on. Whether it wrote.
 */
export async function keepOff(w: StoreWriter, projectId: string, offAt: string): Promise<boolean> {
  if (await projectSwitch(w, projectId)) return false;
  await w.putOffSwitch({
    id: switchId("project", projectId),
    scope: "project",
    project_id: projectId,
    host_id: null,
    off_at: offAt,
  });
  return true;
}

/**
 * A project linked into another carries its switch there: off in either, the linked project is off
 * (a person who said "off" never finds MindSave on again by a link). Its own row becomes a tombstone,
 * so that `mindsave on` in the linked project is the one switch to turn.
 */
export async function carryOffSwitch(w: StoreWriter, from: string, to: string): Promise<void> {
  const moved = await projectSwitch(w, from);
  if (!moved) return;
  await keepOff(w, to, moved.off_at);
  await w.tombstone("off_switches", moved.id);
}

/**
 * The switch of the first project of history `identity` (its id is derived from it), when no project
 * holds that identity any more: a repair that lost the project's row makes it again under a
 * placeholder identity (or not at all, when only its switch was saved), so a checkout of that
 * history finds no project and would make a new one that is on.
 */
export async function offByHistory(q: Queries, identity: string): Promise<OffSwitchRecord | null> {
  const id = derivedId("p", identity);
  if ((await q.getProject(id))?.identity === identity) return null; // found by its identity, as ever
  return projectSwitch(q, id);
}

/**
 * The switch of a project that is off and had folder `path` on this host (null: none), e.g. before
 * its history was replaced: a project found there again under a new identity starts off. The folder
 * is the project's root here, or where it saved a snapshot here: a repair that lost the project's
 * row and its roots makes it again with no folder, and its folder would otherwise make a new
 * project that is on.
 */
export async function offAtFolder(q: Queries, hostId: string, path: string): Promise<OffSwitchRecord | null> {
  for (const root of (await q.rootsOnHost(hostId)).filter((r) => samePath(r.path, path))) {
    const off = await projectSwitch(q, root.project_id);
    if (off) return off;
  }
  for (const saved of (await q.offProjectsSavedOnHost(hostId)).filter((s) => samePath(s.path, path))) {
    const off = await projectSwitch(q, saved.project_id);
    if (off) return off;
  }
  return null;
}
