// One command's view of the world: the home and its store, this host, and (lazily) the project of
// the current workspace. Commands and the TUI reach the store only through the engine.
import { existsSync } from "node:fs";
import { resolveHome, prepareHome, refuseStorelessFolder, journalModeFor, type Home } from "./home/home.ts";
import { currentHost, type HostIdentity } from "./home/host.ts";
import { resolveWorkspace, deepenedFrom, gitCommonDir, isShallow, sameOrigin, takeBackProjectFile, tooBroad, type Workspace } from "./projects/workspace.ts";
import { pathKey, samePath } from "./projects/paths.ts";
import { linkTarget } from "./projects/aliases.ts";
import { linkFirstHistory } from "./projects/first-history.ts";
import { derivedId, newId } from "./ids.ts";
import { freeProjectName } from "./projects/names.ts";
import { openStore } from "./home/encryption.ts";
import { backupStore } from "./home/backups.ts";
import { redactDeep } from "./snapshots/redact.ts";
import { SCHEMA_VERSION, type Store, type ProjectRecord, type RootRecord, type StoreWriter, type Queries } from "../store/store.ts";
import { UserError } from "../errors.ts";

export interface SessionOptions {
  home?: string;
  workspace?: string;
  /** A project chosen by id, id prefix or name instead of the current directory's. */
  project?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
  /** How long a write waits for another process's write lock (default 15 s; a hook waits less). */
  busyTimeoutMs?: number;
}

export interface ProjectContext {
  project: ProjectRecord;
  /** The project's root on this host, or null when it has none here. */
  root: string | null;
  workspace: Workspace | null;
  /** A sentence to show once, e.g. when a second checkout became its own project. */
  note?: string;
}

export class Session {
  private constructor(
    readonly home: Home,
    readonly store: Store,
    readonly host: HostIdentity,
    readonly opts: SessionOptions,
    /** git's answers to remember beside the store once the command is done (see `close`); shared with `forProject`'s sessions. */
    private readonly remember: (() => void)[] = [],
  ) {}

  static async open(opts: SessionOptions = {}, mode: { write: boolean } = { write: false }): Promise<Session> {
    const env = opts.env ?? process.env;
    const home = resolveHome({ flag: opts.home, env });
    prepareHome(home, { write: mode.write || !existsSync(home.dbPath) });
    const host = currentHost(env);
    refuseStorelessFolder(home, mode.write);
    // An encrypted store opens with its passphrase's key (home/encryption.ts); an older schema is backed up before its upgrade.
    let upgraded: string | null = null;
    const store = await openStore(home.dbPath, {
      journalMode: journalModeFor(home), busyTimeoutMs: opts.busyTimeoutMs, env,
      beforeMigrate: async (s, from) => {
        const { backup } = await backupStore(s, home.dbPath, { at: opts.now ? opts.now() : new Date(), env });
        upgraded = `Upgraded the store ${home.dbPath} from schema ${from} to ${SCHEMA_VERSION}; the store as it was is kept as ${backup}.`;
      },
    });
    const session = new Session(home, store, host, opts);
    if (upgraded) session.notice(upgraded);
    return session;
  }

  get cwd(): string { return this.opts.cwd ?? process.cwd(); }

  get env(): NodeJS.ProcessEnv { return this.opts.env ?? process.env; }

  now(): Date {
    return this.opts.now ? this.opts.now() : new Date();
  }

  private readonly later = (write: () => void) => this.remember.push(write);

  /**
   * Closes the store (folding a WAL back into mindsave.db after writes), and remembers git's
   * answers in the home, unless the store turned out damaged: a look at it leaves nothing beside it.
   */
  async close(opts: { failed?: boolean } = {}): Promise<void> {
    // After a failure, the `.mindsave/project.json` the command wrote goes, unless a project of it is in the store.
    const made = opts.failed ? this.resolved?.madeFile : undefined;
    if (made) takeBackProjectFile(made, await this.store.projectsByIdentity(`file:${made.id}`).then((p) => p.length > 0, () => true));
    if (!this.store.damaged) for (const write of this.remember.splice(0)) write();
    return this.store.closeAsync();
  }

  /** Runs a command's `fn` and closes the session: after a failure, as `close({ failed: true })`. */
  async run<T>(fn: (session: Session) => Promise<T>): Promise<T> {
    const result = await fn(this).catch(async (e: unknown) => {
      await this.close({ failed: true });
      throw e;
    });
    await this.close();
    return result;
  }

  private writer: StoreWriter | null = null;

  /** Where to read: the open write transaction when there is one (its connection is the only one), else the store. */
  get reader(): Queries { return this.writer ?? this.store; }

  /** Changes whenever another process commits to the store (a screen kept open reads its rows again then). */
  storeVersion = (): Promise<number> => this.store.dataVersion();

  /**
   * Runs `fn` in one write transaction, after recording this host in the store. Called inside
   * another `write` (an import of many snapshots), it joins that transaction: all or nothing.
   */
  async write<T>(fn: (w: StoreWriter) => Promise<T>): Promise<T> {
    if (this.writer) return fn(this.writer);
    return this.store.write(this.host.id, async (w) => {
      // The signal's free-form data is redacted as a whole where it is stored (every other table
      // has one engine function its rows come in through, which redacts them).
      w.scrubSignal = redactDeep;
      this.writer = w;
      try {
        return await this.hostThen(w, fn);
      } finally {
        this.writer = null;
      }
    }, () => this.now().getTime());
  }

  /** Records this host (at most once a day), then runs `fn`. */
  private async hostThen<T>(w: StoreWriter, fn: (w: StoreWriter) => Promise<T>): Promise<T> {
    const now = this.now().toISOString();
    const known = await w.getHost(this.host.id);
    if (!known || known.name !== this.host.name || known.last_seen.slice(0, 10) !== now.slice(0, 10)) {
      await w.upsertHost({ id: this.host.id, name: this.host.name, platform: this.host.platform, first_seen: known?.first_seen ?? now, last_seen: now });
    }
    return fn(w);
  }

  /**
   * The project this command is about. With `create`, a workspace seen for the first time becomes a
   * project and its root on this host is recorded (inside the caller's transaction `w`).
   */
  async project(opts: { create: false }): Promise<ProjectContext | null>;
  async project(opts: { create: true; w: StoreWriter }): Promise<ProjectContext>;
  async project(opts: { create: boolean; w?: StoreWriter }): Promise<ProjectContext | null> {
    const q: Queries = opts.w ?? this.reader;
    if (this.projectKey) return this.namedProject(q, this.projectKey);
    const ws = this.workspace(opts.create);
    if (!ws) return null;
    const found = await this.findProject(q, ws);
    if (found) {
      if (opts.w) {
        await this.recordRoot(opts.w, found.project.id, ws.root);
        await linkFirstHistory(opts.w, found.project, ws, this.now());
      }
      return { ...found, root: ws.root, workspace: ws };
    }
    if (!opts.create || !opts.w) return null;
    return this.createProject(opts.w, ws);
  }

  private pinned: string | undefined;

  /** The project chosen by id or name for this session (`--in`, `import --into`), if any. */
  get projectKey(): string | undefined { return this.pinned ?? this.opts.project; }

  /** From now on this session acts on the project `key` (id, id prefix or name), whatever the workspace. */
  async pinProject(key: string): Promise<ProjectContext> {
    const ctx = await this.namedProject(this.store, key);
    this.pinned = ctx.project.id;
    return ctx;
  }

  /**
   * The same store and host acting on project `id`, as `--in` would: what the TUI uses on a screen
   * of a project chosen from a list, so "here" means that project. Never close it (the store is shared).
   */
  forProject(id: string): Session {
    return new Session(this.home, this.store, this.host, { ...this.opts, project: id }, this.remember);
  }

  /** Sentences for the person (e.g. "this checkout matches two projects"), each said once. */
  readonly notices: string[] = [];

  private notice(text: string): void { if (!this.notices.includes(text)) this.notices.push(text); }

  /** A project chosen by id (e.g. from a list), with its root on this host if it has one. */
  async projectById(id: string): Promise<ProjectContext> {
    const project = await this.follow(this.store, await this.store.getProject(id));
    if (!project) throw new UserError(`Project ${id} no longer exists.`);
    return { project, root: await this.rootOnThisHost(this.store, project.id), workspace: null };
  }

  /**
   * The project `key` names: by id or name, else by the name of its folder on this host (a
   * project keeps the name it was first given, maybe on another laptop), else by id or name
   * prefix; live projects first, then projects linked into another (each stands for the project
   * its links lead to).
   */
  async namedProject(q: Queries, key: string, opts: { prefix?: boolean } = {}): Promise<ProjectContext> {
    const [all, linked] = await Promise.all([q.listProjects(), q.mergedProjects()]);
    const exact = (p: ProjectRecord) => p.id === key || p.name === key;
    const prefix = (p: ProjectRecord) => p.id.startsWith(key) || p.name.toLowerCase().startsWith(key.toLowerCase());
    const matching = async (test: (p: ProjectRecord) => boolean) => {
      const live = all.filter(test);
      return live.length ? live : this.followAll(q, linked.filter(test));
    };
    let matches = await matching(exact);
    if (!matches.length) {
      const folders = await this.projectsByFolder(q, key);
      if (folders.length > 1) {
        throw new UserError(`${JSON.stringify(key)} is the folder of ${folders.length} projects on this host (${folders.map((f) => `${f.project.name} ${f.project.id} at ${f.path}`).join(", ")}); use the id.`);
      }
      matches = folders.map((f) => f.project);
    }
    if (!matches.length && opts.prefix !== false) matches = await matching(prefix);
    if (matches.length === 0) throw new UserError(`No project ${opts.prefix === false ? "has the name or id" : "matches"} ${JSON.stringify(key)}; see \`mindsave projects\`.`);
    if (matches.length > 1) {
      throw new UserError(`${JSON.stringify(key)} matches ${matches.length} projects (${matches.map((p) => `${p.name} ${p.id}`).join(", ")}); use the id.`);
    }
    const project = matches[0];
    return { project, root: await this.rootOnThisHost(q, project.id), workspace: null };
  }

  /** The live projects with a root on this host whose folder is called `name` (as the file system compares names). */
  private async projectsByFolder(q: Queries, name: string): Promise<{ project: ProjectRecord; path: string }[]> {
    const out: { project: ProjectRecord; path: string }[] = [];
    for (const r of await q.rootsOnHost(this.host.id)) {
      if (pathKey(r.path).split("/").pop() !== pathKey(name)) continue;
      const project = await this.follow(q, await q.getProject(r.project_id));
      if (project && !out.some((o) => o.project.id === project.id)) out.push({ project, path: r.path });
    }
    return out;
  }

  /**
   * The project's root on this host: the current directory's, when it is one of them (a project
   * linked from another checkout has several); else the one used last that still exists.
   */
  async rootOnThisHost(q: Queries, projectId: string): Promise<string | null> {
    const roots = (await q.rootsOfProject(projectId)).filter((r) => r.host_id === this.host.id);
    const ws = roots.length > 1 ? this.workspaceOrNull() : null;
    const here = ws ? roots.find((r) => samePath(r.path, ws.root)) : undefined;
    return here?.path ?? roots.find((r) => existsSync(r.path))?.path ?? roots[0]?.path ?? null;
  }

  /** The current workspace, or null where there is none or it cannot be one (a command given --in still runs). */
  private workspaceOrNull(): Workspace | null {
    try {
      return this.workspace(false);
    } catch {
      return null;
    }
  }

  /** The live project `project` stands for: itself, or where its links lead (see aliases.ts). */
  private async follow(q: Queries, project: ProjectRecord | null): Promise<ProjectRecord | null> {
    if (project?.merged_into) {
      const links = new Map((await q.mergedProjects()).map((p) => [p.id, p.merged_into!]));
      const target = linkTarget(project.id, links.set(project.id, project.merged_into));
      if (target !== project.id) project = await q.getProject(target);
    }
    return project && !project.deleted ? project : null;
  }

  /** `projects` each followed to its live project, once each. */
  private async followAll(q: Queries, projects: ProjectRecord[]): Promise<ProjectRecord[]> {
    const out: ProjectRecord[] = [];
    for (const p of projects) {
      const live = await this.follow(q, p);
      if (live && !out.some((o) => o.id === live.id)) out.push(live);
    }
    return out;
  }

  /** The histories a project answers to: its own and those of the projects linked into it. */
  async identitiesOf(q: Queries, project: ProjectRecord): Promise<string[]> {
    const linked = await q.mergedProjects();
    const links = new Map(linked.map((p) => [p.id, p.merged_into!]));
    return [project.identity, ...linked.filter((p) => linkTarget(p.id, links) === project.id).map((p) => p.identity)];
  }

  /**
   * Finds the project for a workspace: first by this host's recorded root at this path (compared
   * canonically), then among projects of the same identity that are not already checked out
   * elsewhere on this host. When more than one could be meant, the choice is said, never silent.
   * A checkout with several root commits is looked for under each (its identity first): merging
   * another history may have added a smaller root than the one its project was made with.
   */
  private async findProject(q: Queries, ws: Workspace): Promise<{ project: ProjectRecord; note?: string } | null> {
    const onHost = await q.rootsOnHost(this.host.id);
    for (const root of onHost.filter((r) => samePath(r.path, ws.root))) {
      const p = await this.follow(q, await q.getProject(root.project_id));
      // Its own history first (linked projects' only when that is not it: every hook passes here), then a shallow clone's since deepened.
      if (p && (ws.identities.includes(p.identity) || (await this.identitiesOf(q, p)).some((i) => ws.identities.includes(i)) || deepenedFrom(ws, p.identity))) return { project: p };
    }
    for (const identity of ws.identities) {
      const found = await this.findByIdentity(q, ws, identity, onHost);
      if (found) return found;
    }
    // A shallow clone's first commit is only where it was cut: which project it is cannot be known, so it is said, never guessed.
    const kin = isShallow(ws) ? await this.followAll(q, [...await q.listProjects(), ...await q.mergedProjects()].filter((p) => sameOrigin(ws, p))) : [];
    if (kin.length) this.notice(`This shallow clone (${ws.root}) does not reach its first commit, so MindSave cannot tell whether it is ${kin.map((p) => `${p.name} (${p.id})`).join(" or ")}, made from another clone of its origin: \`git fetch --unshallow\` before its first save finds the project by its history; after it, \`mindsave projects link ${kin[0].id}\` merges the two.`);
    return null;
  }

  /** The live projects of a history: its own, and those a project of it was linked into. */
  private async kinOf(q: Queries, identity: string): Promise<ProjectRecord[]> {
    const linked = (await q.mergedProjects()).filter((p) => p.identity === identity);
    return this.followAll(q, [...(await q.projectsByIdentity(identity)), ...linked]);
  }

  private async findByIdentity(q: Queries, ws: Workspace, identity: string, onHost: RootRecord[]): Promise<{ project: ProjectRecord } | null> {
    const candidates = await this.kinOf(q, identity);
    const free: { project: ProjectRecord; score: number }[] = [];
    for (const project of candidates) {
      const here = onHost.filter((r) => r.project_id === project.id && !samePath(r.path, ws.root));
      let score = 0;
      let taken = false;
      for (const r of here) {
        if (!existsSync(r.path)) continue; // moved away: the old root is stale
        const sameRepo = ws.gitCommonDir !== null && gitCommonDir(r.path) === ws.gitCommonDir;
        if (sameRepo) score += 4; // a worktree of a checkout we know: same project
        else if (resolveWorkspace(r.path, { override: r.path, create: false, env: this.env, home: this.rootsCache, later: this.later })?.identities.includes(identity)) taken = true;
      }
      if (taken && score === 0) continue;
      if (ws.remote && project.remote === ws.remote) score += 2;
      free.push({ project, score });
    }
    if (!free.length) return null;
    free.sort((a, b) => b.score - a.score);
    if (free.length > 1) {
      this.notice(`This checkout (${ws.root}) could be any of ${free.length} projects that share its history: ${free.map((f) => `${f.project.name} (${f.project.id})`).join(", ")}; using ${free[0].project.name}. Say which it is with \`mindsave projects attach PROJECT\`.`);
    }
    return { project: free[0].project };
  }

  private async createProject(w: StoreWriter, ws: Workspace): Promise<ProjectContext> {
    const existing = await this.kinOf(w, ws.identity);
    // The first project of an identity gets an id derived from it, so two hosts that meet it
    // independently agree; a second checkout on one host (a fork or a copy) gets a fresh id.
    const primary = derivedId("p", ws.identity);
    const id = existing.length === 0 && !(await w.getProject(primary)) ? primary : `p_${newId()}`;
    const name = await freeProjectName(w, ws.name);
    await w.insertProject({ id, identity: ws.identity, name, remote: ws.remote, created_at: this.now().toISOString(), merged_into: null });
    await this.recordRoot(w, id, ws.root);
    const project = (await w.getProject(id))!;
    const note = existing.length
      ? `This checkout shares its history with project ${existing.map((p) => p.name).join(", ")} at another path on this host, so it is tracked as a separate project "${name}"; run \`mindsave projects link ${existing[0].id}\` here to merge them.`
      : undefined;
    return { project, root: ws.root, workspace: ws, note };
  }

  async recordRoot(w: StoreWriter, projectId: string, path: string): Promise<void> {
    const today = this.now().toISOString();
    // The same folder spelled differently (case on Windows/macOS, a trailing slash) is one root.
    const mine = (await w.rootsOnHost(this.host.id)).filter((r) => r.project_id === projectId);
    const known = mine.find((r) => samePath(r.path, path));
    const id = known?.id ?? derivedId("r", projectId, this.host.id, path);
    path = known?.path ?? path;
    // Touch last_used at most once a day, so reads stay reads and sync stays quiet; and whenever
    // another root of the project here was used later (newest first), so the one used last leads.
    if (!known || known.last_used.slice(0, 10) !== today.slice(0, 10) || mine[0] !== known) {
      await w.upsertRoot({ id, project_id: projectId, host_id: this.host.id, path, last_used: today });
    }
  }

  private resolved: Workspace | null | undefined;

  /** Where git's answers about checkouts are remembered: the home, unless its store is read-only here (then nothing is written beside it). */
  private get rootsCache(): string | null {
    return this.store.readOnly || this.store.remote ? null : this.home.dir;
  }

  /** The workspace of the current directory (or --workspace), resolved once per command. */
  workspace(create: boolean): Workspace | null {
    if (this.resolved === undefined || (this.resolved === null && create)) {
      this.resolved = resolveWorkspace(this.cwd, { override: this.opts.workspace, create, env: this.env, home: this.rootsCache, later: this.later });
    }
    return this.resolved;
  }

  /** The current project or a clear sentence saying there is none yet (and, with `nextSteps`, where to go instead). */
  async requireProject(nextSteps?: () => Promise<string>): Promise<ProjectContext> {
    const ctx = await this.project({ create: false });
    if (ctx) return ctx;
    const ws = this.workspace(false);
    const kin = ws ? (await Promise.all(ws.identities.map((i) => this.kinOf(this.store, i)))).flat() : [];
    if (kin.length) {
      const p = kin[0];
      const root = await this.rootOnThisHost(this.store, p.id);
      throw new UserError(
        `This checkout shares its history with project ${p.name}${root ? ` at ${root}` : ""} but is not part of it: load that one with \`mindsave load --in ${p.id}\`, or merge them by running \`mindsave projects link ${p.id}\` here.`,
      );
    }
    const where = ws?.root ?? this.opts.workspace ?? this.cwd; // (too broad: a save is refused there too)
    if (ws ? ws.marker === "directory" && tooBroad(ws.root) : tooBroad(where)) throw new UserError(`${where} holds too many unrelated folders to be a project; run MindSave inside a project folder${nextSteps ? await nextSteps() : ""}.`);
    throw new UserError(`No MindSave project here yet (${where}); save a snapshot first with \`mindsave save\`${nextSteps ? await nextSteps() : ""}.`);
  }
}
