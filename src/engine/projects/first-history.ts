// A project made before its repository's first commit, and the history it has since.
import { derivedId, newId } from "../ids.ts";
import type { ProjectRecord, StoreWriter } from "../../store/store.ts";
import type { Workspace } from "./workspace.ts";

/**
 * A project whose project.json was written before its repository's first commit: once it has one,
 * that history is linked into the project (a linked project row, as `projects link` leaves), so a
 * clone without the file, here or on another laptop, is the same project. Not when a project of
 * that history exists already: two projects are merged only when someone says so.
 */
export async function linkFirstHistory(
  w: StoreWriter,
  project: ProjectRecord,
  ws: Workspace | null,
  now: Date,
): Promise<void> {
  const history =
    ws?.identity === project.identity && project.identity.startsWith("file:")
      ? ws.identities.find((i) => i.startsWith("git:"))
      : undefined;
  if (
    !history ||
    (await w.projectsByIdentity(history)).length ||
    (await w.mergedProjects()).some((p) => p.identity === history)
  )
    return;
  const primary = derivedId("p", history);
  const id = (await w.getProject(primary)) ? `p_${newId()}` : primary;
  await w.insertProject({
    id,
    identity: history,
    name: project.name,
    remote: ws!.remote,
    created_at: now.toISOString(),
    merged_into: project.id,
  });
}
