// Which project a folder is: the workspace of the current directory (resolved once per session),
// the project of its history on this host (its identity, its kin that share the history, the
// roots recorded here), or a project named by id or name. The session only holds the store.
import { existsSync } from "node:fs";
import {
  resolveWorkspace,
  deepenedFrom,
  gitCommonDir,
  isShallow,
  markedAsProject,
  sameOrigin,
  takeBackProjectFile,
  tooBroad,
  type Workspace,
} from "./workspace.ts";
import { pathKey, samePath } from "./paths.ts";
import { linkTarget } from "./aliases.ts";
import { linkFirstHistory } from "./first-history.ts";
import { folderNameOf, freeProjectName, projectWord } from "./names.ts";
import { keepOff, offAtFolder, offByHistory, projectSwitch } from "./off-switch.ts";
import { derivedId, newId } from "../ids.ts";
import type { Session } from "../session.ts";
import type { ProjectRecord, RootRecord, StoreWriter, Queries } from "../../store/store.ts";
import { UserError } from "../../errors.ts";

export interface ProjectContext {
  project: ProjectRecord;
  /** The project's root on this host, or null when it has none here. */
  root: string | null;
  workspace: Workspace | null;
  /** A sentence to show once, e.g. when a second checkout became its own project. */
  note?: string;
}

/**
 * The project this command is about. With `create`, a workspace seen for the first time becomes a
 * project and its root on this host is recorded (inside the caller's transaction `w`).
 */
export async function resolveProject(
  session: Session,
  opts: { create: false },
): Promise<ProjectContext | null>;
export async function resolveProject(
  session: Session,
  opts: { create: true; w: StoreWriter },
): Promise<ProjectContext>;
export async function resolveProject(
  session: Session,
  opts: { create: boolean; w?: StoreWriter },
): Promise<ProjectContext | null> {
  const q: Queries = opts.w ?? session.reader;
  if (session.projectKey) return namedProject(session, q, session.projectKey);
  const ws = currentWorkspace(session, opts.create);
  if (!ws) return null;
  // This host's roots: finding the project reads them, and recording its root (in the same
  // transaction `w`, nothing written between) reads the same rows.
  const onHost = await q.rootsOnHost(session.host.id);
  const found = await findProject(session, q, ws, onHost);
  if (found) {
    if (opts.w) {
      await recordRoot(session, opts.w, found.project.id, ws.root, onHost);
      await linkFirstHistory(opts.w, found.project, ws, session.now());
    }
    return { ...found, root: ws.root, workspace: ws };
  }
  if (!opts.create || !opts.w) return null;
  return createProject(session, opts.w, ws);
}

/** From now on `session` acts on the project `key` (id, id prefix or name), whatever the workspace. */
export async function pinProject(session: Session, key: string): Promise<ProjectContext> {
  const ctx = await namedProject(session, session.store, key);
  session.pin(ctx.project.id);
  return ctx;
}

/** A project chosen by id (e.g. from a list), with its root on this host if it has one. */
export async function projectById(session: Session, id: string): Promise<ProjectContext> {
  const project = await follow(session.store, await session.store.getProject(id));
  if (!project) throw new UserError(`Project ${id} no longer exists.`);
  return { project, root: await rootOnThisHost(session, session.store, project.id), workspace: null };
}

/**
 * The project `key` names: by id or name, else by the name of its folder on this host (a
 * project keeps the name it was first given, maybe on another laptop), else by id or name
 * prefix; live projects first, then projects linked into another (each stands for the project
 * its links lead to).
 */
export async function namedProject(
  session: Session,
  q: Queries,
  key: string,
  opts: { prefix?: boolean } = {},
): Promise<ProjectContext> {
  const [all, linked] = await Promise.all([q.listProjects(), q.mergedProjects()]);
  const exact = (p: ProjectRecord) => p.id === key || p.name === key;
  const prefix = (p: ProjectRecord) =>
    p.id.startsWith(key) || p.name.toLowerCase().startsWith(key.toLowerCase());
  const matching = async (test: (p: ProjectRecord) => boolean) => {
    const live = all.filter(test);
    return live.length ? live : followAll(q, linked.filter(test));
  };
  let matches = await matching(exact);
  if (!matches.length) {
    const folders = await projectsByFolder(session, q, key);
    if (folders.length > 1) {
      throw new UserError(
        `${JSON.stringify(key)} is the folder of ${folders.length} projects on this host (${folders.map((f) => `${f.project.name} ${f.project.id} at ${f.path}`).join(", ")}); use the id.`,
      );
    }
    matches = folders.map((f) => f.project);
  }
  if (!matches.length && opts.prefix !== false) matches = await matching(prefix);
  if (matches.length === 0)
    throw new UserError(
      `No project ${opts.prefix === false ? "has the name or id" : "matches"} ${JSON.stringify(key)}; see \`mindsave projects\`.`,
    );
  if (matches.length > 1) {
    throw new UserError(
      `${JSON.stringify(key)} matches ${matches.length} projects (${matches.map((p) => `${p.name} ${p.id}`).join(", ")}); use the id.`,
    );
  }
  const project = matches[0];
  return { project, root: await rootOnThisHost(session, q, project.id), workspace: null };
}

/** The live projects with a root on this host whose folder is called `name` (as the file system compares names). */
async function projectsByFolder(
  session: Session,
  q: Queries,
  name: string,
): Promise<{ project: ProjectRecord; path: string }[]> {
  const out: { project: ProjectRecord; path: string }[] = [];
  for (const r of await q.rootsOnHost(session.host.id)) {
    if (pathKey(r.path).split("/").pop() !== pathKey(name)) continue;
    const project = await follow(q, await q.getProject(r.project_id));
    if (project && !out.some((o) => o.project.id === project.id)) out.push({ project, path: r.path });
  }
  return out;
}

/**
 * The project's root on this host: the current directory's, when it is one of them (a project
 * linked from another checkout has several); else the one used last that still exists.
 */
async function rootOnThisHost(session: Session, q: Queries, projectId: string): Promise<string | null> {
  const roots = (await q.rootsOfProject(projectId)).filter((r) => r.host_id === session.host.id);
  const ws = roots.length > 1 ? workspaceOrNull(session) : null;
  const here = ws ? roots.find((r) => samePath(r.path, ws.root)) : undefined;
  return here?.path ?? roots.find((r) => existsSync(r.path))?.path ?? roots[0]?.path ?? null;
}

/** The current workspace, or null where there is none or it cannot be one (a command given --in still runs). */
function workspaceOrNull(session: Session): Workspace | null {
  try {
    return currentWorkspace(session, false);
  } catch {
    return null;
  }
}

/** The live project `project` stands for: itself, or where its links lead (see aliases.ts). */
async function follow(q: Queries, project: ProjectRecord | null): Promise<ProjectRecord | null> {
  if (project?.merged_into) {
    const links = new Map((await q.mergedProjects()).map((p) => [p.id, p.merged_into!]));
    const target = linkTarget(project.id, links.set(project.id, project.merged_into));
    if (target !== project.id) project = await q.getProject(target);
  }
  return project && !project.deleted ? project : null;
}

/** `projects` each followed to its live project, once each. */
async function followAll(q: Queries, projects: ProjectRecord[]): Promise<ProjectRecord[]> {
  const out: ProjectRecord[] = [];
  for (const p of projects) {
    const live = await follow(q, p);
    if (live && !out.some((o) => o.id === live.id)) out.push(live);
  }
  return out;
}

/** The histories a project answers to: its own and those of the projects linked into it. */
export async function identitiesOf(q: Queries, project: ProjectRecord): Promise<string[]> {
  const linked = await q.mergedProjects();
  const links = new Map(linked.map((p) => [p.id, p.merged_into!]));
  return [
    project.identity,
    ...linked.filter((p) => linkTarget(p.id, links) === project.id).map((p) => p.identity),
  ];
}

/**
 * Finds the project for a workspace: first by this host's recorded root at this path (compared
 * canonically), then among projects of the same identity that are not already checked out
 * elsewhere on this host. When more than one could be meant, the choice is said, never silent.
 * A checkout with several root commits is looked for under each (its identity first): merging
 * another history may have added a smaller root than the one its project was made with.
 */
async function findProject(
  session: Session,
  q: Queries,
  ws: Workspace,
  onHost: RootRecord[],
): Promise<{ project: ProjectRecord; note?: string } | null> {
  for (const root of onHost.filter((r) => samePath(r.path, ws.root))) {
    const p = await follow(q, await q.getProject(root.project_id));
    // Its own history first (linked projects' only when that is not it: every hook passes here), then a shallow clone's since deepened.
    if (
      p &&
      (ws.identities.includes(p.identity) ||
        (await identitiesOf(q, p)).some((i) => ws.identities.includes(i)) ||
        deepenedFrom(ws, p.identity))
    )
      return { project: p };
  }
  for (const identity of ws.identities) {
    const found = await findByIdentity(session, q, ws, identity, onHost);
    if (found) return found;
  }
  // A shallow clone's first commit is only where it was cut: which project it is cannot be known, so it is said, never guessed.
  const kin = isShallow(ws)
    ? await followAll(
        q,
        [...(await q.listProjects()), ...(await q.mergedProjects())].filter((p) => sameOrigin(ws, p)),
      )
    : [];
  if (kin.length)
    session.notice(
      `This shallow clone (${ws.root}) does not reach its first commit, so MindSave cannot tell whether it is ${kin.map((p) => `${p.name} (${p.id})`).join(" or ")}, made from another clone of its origin: \`git fetch --unshallow\` before its first save finds the project by its history; after it, \`mindsave projects link ${kin[0].id}\` merges the two.`,
    );
  return null;
}

/** The live projects of a history: its own, and those a project of it was linked into. */
async function kinOf(q: Queries, identity: string): Promise<ProjectRecord[]> {
  const linked = (await q.mergedProjects()).filter((p) => p.identity === identity);
  return followAll(q, [...(await q.projectsByIdentity(identity)), ...linked]);
}

async function findByIdentity(
  session: Session,
  q: Queries,
  ws: Workspace,
  identity: string,
  onHost: RootRecord[],
): Promise<{ project: ProjectRecord } | null> {
  const free: { project: ProjectRecord; score: number }[] = [];
  const kin = await kinOf(q, identity);
  // A score only orders the projects a checkout could be: one alone is not scored.
  const rank = kin.length > 1;
  for (const project of kin) {
    const score = await checkoutScore(session, q, { ws, identity, project, onHost, rank });
    if (score !== null) free.push({ project, score });
  }
  if (!free.length) return null;
  free.sort((a, b) => b.score - a.score);
  await offFirstAmongTied(q, free);
  if (free.length > 1) {
    session.notice(
      `This checkout (${ws.root}) could be any of ${free.length} projects that share its history: ${free.map((f) => `${f.project.name} (${f.project.id})`).join(", ")}; using ${free[0].project.name}. Say which it is with \`mindsave projects attach PROJECT\`.`,
    );
  }
  return { project: free[0].project };
}

/**
 * How surely checkout `ws` is `project` of history `identity`; null when it is not, another folder
 * here being that project's checkout. A worktree of its checkout here is it, and so, nearly, is the
 * folder it saved a snapshot in on this host (its roots lost in a repair); its remote, then its name
 * made from the folder's, are hints. Only `rank`ed when there is more than one to order.
 */
async function checkoutScore(
  session: Session,
  q: Queries,
  c: { ws: Workspace; identity: string; project: ProjectRecord; onHost: RootRecord[]; rank: boolean },
): Promise<number | null> {
  const { ws, identity, project, onHost } = c;
  const here = onHost.filter((r) => r.project_id === project.id && !samePath(r.path, ws.root));
  let score = 0;
  let taken = false;
  for (const r of here) {
    if (!existsSync(r.path)) continue; // moved away: the old root is stale
    const sameRepo = ws.gitCommonDir !== null && gitCommonDir(r.path) === ws.gitCommonDir;
    if (sameRepo)
      score += 4; // a worktree of a checkout we know: same project
    else if (
      resolveWorkspace(r.path, {
        override: r.path,
        create: false,
        env: session.env,
        home: gitAnswersHome(session),
        later: session.later,
      })?.identities.includes(identity)
    )
      taken = true;
  }
  if (taken && score === 0) return null;
  if (!c.rank) return score;
  if ((await q.savedRootsOnHost(project.id, session.host.id)).some((p) => samePath(p, ws.root))) score += 4;
  if (ws.remote && project.remote === ws.remote) score += 2;
  if (folderNameOf(project.name) === ws.name) score += 1;
  return score;
}

/**
 * Projects the checkout could be, told apart by nothing (the best score shared): one switched off
 * goes first, so that a folder a person switched off never finds MindSave on by a guess.
 */
async function offFirstAmongTied(q: Queries, ranked: { project: ProjectRecord; score: number }[]) {
  const tied = ranked.filter((r) => r.score === ranked[0].score);
  if (tied.length < 2) return;
  for (const [i, t] of tied.entries()) {
    if (!(await projectSwitch(q, t.project.id))) continue;
    ranked.unshift(...ranked.splice(i, 1));
    return;
  }
}

async function createProject(session: Session, w: StoreWriter, ws: Workspace): Promise<ProjectContext> {
  const existing = await kinOf(w, ws.identity);
  // The first project of an identity gets an id derived from it, so two hosts that meet it
  // independently agree; a second checkout on one host (a fork or a copy) gets a fresh id.
  const primary = derivedId("p", ws.identity);
  const id = existing.length === 0 && !(await w.getProject(primary)) ? primary : `p_${newId()}`;
  const name = await freeProjectName(w, ws.name);
  await w.insertProject({
    id,
    identity: ws.identity,
    name,
    remote: ws.remote,
    created_at: session.now().toISOString(),
    merged_into: null,
  });
  // Where a project that is off had this folder (its history since replaced) or was this history's
  // first (a repair lost its row), the new one is off too.
  const wasOff = (await offAtFolder(w, session.host.id, ws.root)) ?? (await offByHistory(w, ws.identity));
  if (wasOff) await keepOff(w, id, wasOff.off_at);
  await recordRoot(session, w, id, ws.root);
  const project = (await w.getProject(id))!;
  const note = existing.length
    ? `This checkout shares its history with project ${existing.map((p) => p.name).join(", ")} at another path on this host, so it is tracked as a separate project "${name}"; run \`mindsave projects link ${await projectWord(w, existing[0])}\` here to merge them.`
    : undefined;
  return { project, root: ws.root, workspace: ws, note };
}

/**
 * Records `path` as a root of project `projectId` on this host (inside the caller's transaction
 * `w`; `onHost`: this host's roots, when `w` just read them).
 */
export async function recordRoot(
  session: Session,
  w: StoreWriter,
  projectId: string,
  path: string,
  onHost?: RootRecord[],
): Promise<void> {
  const today = session.now().toISOString();
  // The same folder spelled differently (case on Windows/macOS, a trailing slash) is one root.
  const mine = (onHost ?? (await w.rootsOnHost(session.host.id))).filter((r) => r.project_id === projectId);
  const known = mine.find((r) => samePath(r.path, path));
  const id = known?.id ?? derivedId("r", projectId, session.host.id, path);
  path = known?.path ?? path;
  // Touch last_used at most once a day, so reads stay reads and sync stays quiet; and whenever
  // another root of the project here was used later (newest first), so the one used last leads.
  if (!known || known.last_used.slice(0, 10) !== today.slice(0, 10) || mine[0] !== known) {
    await w.upsertRoot({ id, project_id: projectId, host_id: session.host.id, path, last_used: today });
  }
}

/** Where git's answers about checkouts are remembered: the home, unless its store is read-only here (then nothing is written beside it). */
function gitAnswersHome(session: Session): string | null {
  return session.store.readOnly || session.store.remote ? null : session.home.dir;
}

/** Each session's workspace, resolved once per command (a session acting on a chosen project is another session). */
const workspaces = new WeakMap<Session, Workspace | null>();

/** The workspace of the current directory (or --workspace), resolved once per command. */
export function currentWorkspace(session: Session, create: boolean): Workspace | null {
  let ws = workspaces.get(session);
  if (ws === undefined || (ws === null && create)) {
    ws = resolveWorkspace(session.cwd, {
      override: session.opts.workspace,
      create,
      env: session.env,
      home: gitAnswersHome(session),
      later: session.later,
    });
    workspaces.set(session, ws);
    // After a failure, the `.mindsave/project.json` this resolution wrote goes, unless a project of it is in the store.
    const made = ws?.madeFile;
    if (made)
      session.onFailure(async () =>
        takeBackProjectFile(
          made,
          await session.store.projectsByIdentity(`file:${made.id}`).then(
            (p) => p.length > 0,
            () => true,
          ),
        ),
      );
  }
  return ws;
}

/**
 * Whether a hook may act here: the folder is a project already, or may become one (a marker, not
 * the home folder). Elsewhere a hook writes nothing, in the store or in the folder.
 */
export async function hookMayAct(session: Session): Promise<boolean> {
  if (session.projectKey || session.opts.workspace || markedAsProject(session.cwd, session.env)) return true;
  return (await resolveProject(session, { create: false })) !== null;
}

/** The current project or a clear sentence saying there is none yet (and, with `nextSteps`, where to go instead). */
export async function requireProject(
  session: Session,
  nextSteps?: () => Promise<string>,
): Promise<ProjectContext> {
  const ctx = await resolveProject(session, { create: false });
  if (ctx) return ctx;
  const ws = currentWorkspace(session, false);
  const kin = ws ? (await Promise.all(ws.identities.map((i) => kinOf(session.store, i)))).flat() : [];
  if (kin.length) {
    const p = kin[0];
    const root = await rootOnThisHost(session, session.store, p.id);
    const word = await projectWord(session.store, p);
    throw new UserError(
      `This checkout shares its history with project ${p.name}${root ? ` at ${root}` : ""} but is not part of it: load that one with \`mindsave load --in ${word}\`, or merge them by running \`mindsave projects link ${word}\` here.`,
    );
  }
  const where = ws?.root ?? session.opts.workspace ?? session.cwd; // (too broad: a save is refused there too)
  if (ws ? ws.marker === "directory" && tooBroad(ws.root) : tooBroad(where))
    throw new UserError(
      `${where} holds too many unrelated folders to be a project; run MindSave inside a project folder${nextSteps ? await nextSteps() : ""}.`,
    );
  throw new UserError(
    `No MindSave project here yet (${where}); save a snapshot first with \`mindsave save\`${nextSteps ? await nextSteps() : ""}.`,
  );
}
