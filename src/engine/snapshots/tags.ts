// Tags on a snapshot (`save --tag release`): short labels to list, recall and filter by; which are in use.
import { UserError } from "../../errors.ts";
import { stripControl } from "./input-limits.ts";
import { redact } from "./redact.ts";
import { requireProject } from "../projects/resolve.ts";
import type { Session } from "../session.ts";

export const TAG_MAX = 64;
export const TAGS_MAX = 20;

/**
 * Trimmed, without a leading "#" (nor the spaces after it), inner spaces and tabs folded to one,
 * duplicates (ignoring case) folded; a bad tag is refused by name. A tag normalized again is itself,
 * so an export read back or a synced snapshot keeps its tags.
 */
export function normalizeTags(tags: string[] | undefined): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of tags ?? []) {
    const written = redact(stripControl(String(raw)))
      .replace(/^[#\s]+/, "")
      .trimEnd();
    // (Checked before spaces are folded: a line break is two tags run together, never one.)
    if (/[,\r\n\u2028\u2029]/.test(written))
      throw new UserError(
        `A tag has no commas or line breaks: ${JSON.stringify(written)}; give each tag its own --tag.`,
      );
    const t = written.replace(/\s+/g, " ");
    if (!t) continue;
    if (t.length > TAG_MAX)
      throw new UserError(
        `The tag ${JSON.stringify(t.slice(0, 20) + "…")} is ${t.length} characters; a tag is at most ${TAG_MAX}.`,
      );
    const k = t.toLowerCase();
    if (!seen.has(k)) {
      seen.add(k);
      out.push(t);
    }
  }
  if (out.length > TAGS_MAX)
    throw new UserError(`A snapshot has at most ${TAGS_MAX} tags; ${out.length} were given.`);
  return out;
}

/**
 * A snapshot's tags with the one a list is filtered by first (compared as the store does, case
 * folded), so a row cut short still shows why it is listed.
 */
export function filteredTagFirst(tags: string[], filter: string | undefined): string[] {
  const key = filter?.trim().replace(/^#+/, "").toLowerCase();
  if (!key) return tags;
  return [...tags.filter((t) => t.toLowerCase() === key), ...tags.filter((t) => t.toLowerCase() !== key)];
}

/** One project's tags and how many of its snapshots carry each, most used first. */
export interface ProjectTags {
  project: string;
  project_id: string;
  tags: { tag: string; count: number }[];
}

/**
 * `mindsave tags`: the tags of this project's snapshots (of every project's with `allProjects`,
 * projects by name, those without a tag left out), each with how many snapshots carry it.
 * Archived snapshots count only with `archived`, as `snapshots list` shows them only with `--all`.
 */
export async function tagsInUse(
  session: Session,
  opts: { allProjects?: boolean; archived?: boolean; nextSteps?: () => Promise<string> } = {},
): Promise<ProjectTags[]> {
  const ctx = opts.allProjects ? null : await requireProject(session, opts.nextSteps);
  const counts = await session.store.tagCounts(ctx?.project.id ?? null, { listed: !opts.archived });
  const projects = ctx ? [ctx.project] : await session.store.listProjects();
  const out = projects.map((p) => ({ project: p.name, project_id: p.id, tags: [] as ProjectTags["tags"] }));
  const byId = new Map(out.map((p) => [p.project_id, p]));
  for (const c of counts) {
    // A snapshot of a project no longer listed (deleted, or linked away before its rows moved) under its id.
    let p = byId.get(c.project_id);
    if (!p) byId.set(c.project_id, (p = { project: c.project_id, project_id: c.project_id, tags: [] }));
    p.tags.push({ tag: c.tag, count: c.count });
  }
  return ctx ? out : [...byId.values()].filter((p) => p.tags.length);
}

/**
 * The names of a project's tags, most used first (the picker's hint and completion): counted in
 * the store, not read off every snapshot. `archived`: the archived snapshots' tags too.
 */
export async function projectTagNames(
  session: Session,
  projectId: string,
  opts: { archived?: boolean } = {},
): Promise<string[]> {
  return (await session.store.tagCounts(projectId, { listed: !opts.archived })).map((c) => c.tag);
}
