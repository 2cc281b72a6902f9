// Project names: readable, unique among live projects. Its own module because both the session
// (which creates a project the first time a workspace is seen) and projects.ts (split) need it.
import type { StoreWriter } from "../../store/store.ts";

/** `name`, or `name~2`, `name~3`… when another live project already has it. */
export async function freeProjectName(w: StoreWriter, name: string): Promise<string> {
  const taken = new Set((await w.listProjects()).map((p) => p.name));
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) if (!taken.has(`${name}~${n}`)) return `${name}~${n}`;
}

/** The folder name a project's name was made from: `name~2` was `name`, its folder's name taken. */
export const folderNameOf = (projectName: string): string => projectName.replace(/~\d+$/, "");
