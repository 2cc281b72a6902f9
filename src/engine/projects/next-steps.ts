// Where to go from a place with nothing to load (a drive folder, a folder outside any project, a
// project with no snapshots yet): the store's other projects, its peers. In the CLI's words.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { DRIVE_MARKER } from "../home/home.ts";
import type { Session } from "../session.ts";

/**
 * Clauses that continue a "nothing here" sentence (", or …"), or "" when the store has nowhere
 * else to go. `here`: the current project, not offered; `allProjects`: the command takes --all-projects.
 */
export async function nextSteps(
  session: Session,
  here: string | null,
  opts: { allProjects?: boolean } = {},
): Promise<string> {
  const [projects, counts, peers] = await Promise.all([
    session.store.listProjects(),
    session.store.snapshotCounts(),
    session.store.syncReader().peers(),
  ]);
  const others = projects.filter((p) => p.id !== here && counts.get(p.id)?.count);
  // From a drive, a plain `mindsave sync` always has this laptop's home to sync with.
  const onDrive = session.home.reason === "portable" || existsSync(join(session.home.dir, DRIVE_MARKER));
  const out: string[] = [];
  if (others.length && opts.allProjects) out.push("search every project with `--all-projects`");
  if (others.length) {
    const names =
      others
        .slice(0, 3)
        .map((p) => p.name)
        .join(", ") + (others.length > 3 ? ", …" : "");
    out.push(`pick a project of this store with \`--in NAME\` (${names}; \`mindsave projects\` lists them)`);
  }
  if (peers.length || onDrive)
    out.push("run `mindsave sync` to bring in what your other homes and drives hold");
  return out.map((c) => `, or ${c}`).join("");
}
