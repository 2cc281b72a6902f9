// `mindsave tags [--all-projects] [--all]`: the tags in use, each with how many snapshots carry it.
import { tagsInUse, type ProjectTags } from "../engine/snapshots/tags.ts";
import { nextSteps } from "../engine/projects/next-steps.ts";
import { print, printJson, withSession } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

/** A project's tags, one a line: the count right-aligned, then the tag. */
function tagLines(p: ProjectTags): string[] {
  const cols = String(p.tags[0]?.count ?? 0).length;
  return p.tags.map((t) => `  ${String(t.count).padStart(cols)}  ${t.tag}`);
}

export async function run(
  opts: { allProjects?: boolean; all?: boolean },
  _a: string[],
  g: GlobalOptions,
): Promise<number> {
  return withSession(g, false, async (session) => {
    const projects = await tagsInUse(session, {
      allProjects: opts.allProjects,
      archived: opts.all,
      nextSteps: () => nextSteps(session, null, { allProjects: true }),
    });
    const archived = !!opts.all;
    if (g.json) {
      const shown = projects.map((p) => ({ project: p.project, project_id: p.project_id, tags: p.tags }));
      printJson(opts.allProjects ? { archived, projects: shown } : { archived, ...shown[0] });
      return 0;
    }
    const counted = archived
      ? "archived snapshots counted"
      : "listed snapshots; --all counts archived ones too";
    const tagged = projects.filter((p) => p.tags.length);
    if (!tagged.length) {
      const where = opts.allProjects ? "in this store" : `of ${projects[0]!.project}`;
      print(
        `No ${archived ? "" : "listed "}snapshot ${where} has a tag (\`mindsave save --tag TAG\` adds one${archived ? "" : "; --all counts archived snapshots too"}).`,
      );
      return 0;
    }
    if (!opts.allProjects) print(`Tags of ${tagged[0]!.project}, most used first (${counted}):`);
    else print(`Tags of every project, most used first (${counted}):`);
    for (const p of tagged) {
      if (opts.allProjects) print(p.project);
      print(tagLines(p).join("\n"));
    }
    return 0;
  });
}
