// Project names: readable, unique among live projects. Its own module because both the session
// (which creates a project the first time a workspace is seen) and projects.ts (split) need it.
import { shellWord } from "../../lib/text.ts";
import type { ProjectRecord, Queries, StoreWriter } from "../../store/store.ts";

/** `name`, or `name~2`, `name~3`… when another live project already has it. */
export async function freeProjectName(w: StoreWriter, name: string): Promise<string> {
  const taken = new Set((await w.listProjects()).map((p) => p.name));
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) if (!taken.has(`${name}~${n}`)) return `${name}~${n}`;
}

/** The folder name a project's name was made from: `name~2` was `name`, its folder's name taken. */
export const folderNameOf = (projectName: string): string => projectName.replace(/~\d+$/, "");

/**
 * How a command line we suggest names `project` (`projects link …`, `load --in …`): its name when no
 * other live project has it (clearer than an id), else its id.
 */
export async function projectWord(q: Pick<Queries, "listProjects">, project: ProjectRecord): Promise<string> {
  const same = (await q.listProjects()).filter((p) => p.name === project.name);
  return same.length === 1 && same[0].id === project.id ? shellWord(project.name) : project.id;
}
