// `mindsave projects [list] | link OTHER | split`.
import { attachProject, linkProjects, listProjects, splitProject } from "../engine/projects/projects.ts";
import { print, printJson, withSession } from "./shared.ts";
import { age, padEnd, truncate } from "../lib/text.ts";
import type { GlobalOptions } from "../types.ts";

export async function list(_o: unknown, _a: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, false, async (session) => {
    const projects = await listProjects(session);
    if (g.json) {
      printJson({ host: { id: session.host.id, name: session.host.name }, home: session.home.dir, projects });
      return 0;
    }
    if (!projects.length) {
      print(`No projects in ${session.home.dbPath} yet; \`mindsave save\` in a workspace creates one.`);
      return 0;
    }
    const now = session.now();
    const w = Math.min(28, Math.max(...projects.map((p) => Bun.stringWidth(p.name))));
    print(`Projects in ${session.home.dbPath} (host ${session.host.name}):`);
    for (const p of projects) {
      const where = `${p.root ? (p.root_exists ? p.root : `${p.root} (missing)`) : "not on this host"}${p.off ? "  (MindSave off)" : ""}`;
      const newest = p.newest ? `, newest ${age(p.newest, now, "long")}` : "";
      print(
        `${p.current ? "*" : " "} ${padEnd(truncate(p.name, 28), w)}  ${padEnd(`${p.snapshots} snapshot(s)${newest}`, 36)}  ${where}`,
      );
    }
    return 0;
  });
}

export async function link(_o: unknown, args: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, true, async (session) => {
    const r = await linkProjects(session, args[0]);
    if (g.json)
      printJson({
        into: r.into.id,
        from: r.from.id,
        snapshots: r.snapshots,
        failures: r.failures,
        off: r.off.length > 0,
      });
    else {
      print(
        `Linked ${r.from.name} into ${r.into.name}: moved ${r.snapshots} snapshot(s) and ${r.failures} failure(s).`,
      );
      if (r.off.length)
        print(
          `MindSave is off in ${r.into.name}: ${r.off.map((p) => p.name).join(" and ")} ${r.off.length > 1 ? "were" : "was"} switched off, so the linked project is too, and agents' hooks save and restore nothing in either folder. \`mindsave on\` turns it back on.`,
        );
    }
    return 0;
  });
}

export async function split(_o: unknown, _a: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, true, async (session) => {
    const r = await splitProject(session);
    if (g.json)
      printJson({
        project: r.project.id,
        name: r.project.name,
        from: r.from.id,
        snapshots: r.snapshots,
        off: r.off,
      });
    else {
      print(
        `This checkout is now project ${r.project.name} (${r.project.id}), split from ${r.from.name}; ${r.snapshots} snapshot(s) saved here moved with it.`,
      );
      if (r.off)
        print(
          `MindSave is off in ${r.project.name}, as it was in ${r.from.name}: agents' hooks save and restore nothing here. \`mindsave on\` turns it back on.`,
        );
    }
    return 0;
  });
}

export async function attach(_o: unknown, args: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, true, async (session) => {
    const r = await attachProject(session, args[0]);
    if (g.json)
      printJson({
        project: r.project.id,
        name: r.project.name,
        root: r.root,
        from: r.from?.id ?? null,
        off_left: r.offLeft,
      });
    else {
      print(
        `This checkout (${r.root}) is now project ${r.project.name} on this host${r.from ? ` (it was ${r.from.name}, which is unchanged)` : ""}.`,
      );
      if (r.offLeft)
        print(
          `MindSave was off in ${r.from?.name} and is on in ${r.project.name}: agents' hooks keep memory in this checkout from now on. \`mindsave off\` here switches ${r.project.name} off (for every checkout of it).`,
        );
    }
    return 0;
  });
}
