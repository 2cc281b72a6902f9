// Which workspace root and which project identity the current directory belongs to.
// Root: nearest `.mindsave/`, else the git top level, else the nearest project marker, else (a
// plain folder) the top-most folder below the home directory, or the directory itself outside it.
// Identity: `.mindsave/project.json`'s id when present, else the git root commit (the same on
// every clone, every host), else a new id written once into project.json.
import { existsSync, readFileSync, realpathSync, rmdirSync, rmSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, parse, relative, resolve, sep } from "node:path";
import { localHomeDir } from "../home/home.ts";
import { newId } from "../ids.ts";
import { UserError } from "../../errors.ts";
import { isDir, writeFileAtomic } from "../../lib/fs.ts";
import { readTextNoFollowCapped } from "../../lib/bounded-read.ts";
import { JSON_FILE_MAX } from "../snapshots/input-limits.ts";
import { tmpdir } from "../../lib/os.ts";
import { rootCommitsOf, unbornHead } from "./git-roots.ts";
import { samePath } from "./paths.ts";

export const MARKERS = [
  "package.json",
  ".claude",
  "AGENTS.md",
  "CLAUDE.md",
  "Cargo.toml",
  "go.mod",
  "pyproject.toml",
  "setup.py",
  "pom.xml",
  "build.gradle",
  "composer.json",
  "Gemfile",
  "deno.json",
  ".hg",
  ".svn",
] as const;

export type RootMarker = ".mindsave" | "git" | (typeof MARKERS)[number] | "directory" | "flag";

export interface Workspace {
  root: string;
  marker: RootMarker;
  name: string;
  /** `git:<root commit>` or `file:<id>`. */
  identity: string;
  /**
   * Every identity the checkout may have been known by, `identity` first: a history merged from
   * another root adds a root commit, and the smallest one (the identity) may then be the new one.
   */
  identities: string[];
  remote: string | null;
  /** The git directory shared by all worktrees of one clone, when in git. */
  gitCommonDir: string | null;
  /**
   * `.mindsave/project.json` as this resolution wrote it (whether it made `.mindsave/`, and the
   * `.gitignore` it wrote there): undone if the command fails.
   */
  madeFile?: { path: string; id: string; madeDir: boolean; gitignore: string | null };
}

/** A `.mindsave/` directory marks a workspace unless it is a MindSave home (which holds mindsave.db). */
function isWorkspaceMarker(dir: string, env: NodeJS.ProcessEnv): boolean {
  const m = join(dir, ".mindsave");
  if (!isDir(m)) return false;
  if (realDir(m) === realDir(localHomeDir(env))) return false;
  if (existsSync(join(m, "mindsave.db"))) return false;
  if (existsSync(join(m, "project.json"))) return true;
  // What `export --out` wrote names the project it came from: a copy, never a workspace of its own.
  return !exportedFrom(m) && (existsSync(join(m, "index.json")) || isDir(join(m, "snapshots")));
}

/** An instant as the store writes one (toISOString): what an export's `created_at` must be to be taken. */
const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * The project a `mindsave export` folder (its index.json) says it came from, or null; `created_at`
 * when it carries when the project was made (an export before it did not).
 */
export function exportedFrom(dir: string): { id: string; name: string; created_at?: string } | null {
  try {
    const data = JSON.parse(readTextNoFollowCapped(join(dir, "index.json"), JSON_FILE_MAX)) as {
      mindsave_project?: { id?: unknown; name?: unknown; created_at?: unknown };
    };
    const from = data?.mindsave_project;
    if (typeof from?.id !== "string") return null;
    const made = typeof from.created_at === "string" && ISO_INSTANT.test(from.created_at);
    return {
      id: from.id,
      name: typeof from.name === "string" ? from.name : from.id,
      ...(made ? { created_at: from.created_at as string } : {}),
    };
  } catch {
    return null;
  }
}

/** The real path (symlinks resolved), so one folder reached two ways is one workspace. */
function realDir(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return resolve(p);
  }
}

/**
 * `start` and the folders above it, nearest first. Inside `MINDSAVE_ROOT_CEILING` (tests and
 * sandboxes) the walk ends at that folder: a marker above it (an `AGENTS.md` in a parent of the
 * temp folder) is no part of what runs inside it.
 */
function ancestors(start: string, env: NodeJS.ProcessEnv): string[] {
  const ceiling = env.MINDSAVE_ROOT_CEILING ? realDir(env.MINDSAVE_ROOT_CEILING) : null;
  const out: string[] = [];
  let dir = realDir(start);
  for (;;) {
    out.push(dir);
    const up = dirname(dir);
    if (up === dir || (ceiling !== null && samePath(dir, ceiling))) return out;
    dir = up;
  }
}

export function findRoot(
  start: string,
  env: NodeJS.ProcessEnv = process.env,
): { root: string; marker: RootMarker; gitDir: string | null } {
  const dirs = ancestors(start, env);
  const gitAt = dirs.find((d) => existsSync(join(d, ".git"))) ?? null;
  // The nearer of the two: a repository inside a folder someone saved in is its own project, and
  // a .mindsave/ inside a repository (one of a monorepo's parts) is that part's.
  const ms = dirs.find((d) => isWorkspaceMarker(d, env));
  // The user's home directory often holds .claude/; it is not a project root.
  const markerOf = (d: string) =>
    MARKERS.find(
      (name) => existsSync(join(d, name)) && !(name === ".claude" && d === realDir(env.HOME || "/")),
    );
  // Outside git, a project's own marker (package.json…) nearer than a plain folder's .mindsave/
  // above it is a project of its own, not a part of that folder's: only folders nearer are looked in.
  const nearer = ms ? dirs.slice(0, dirs.indexOf(ms)) : dirs;
  const marked = gitAt === null ? nearer.find((d) => markerOf(d) !== undefined) : undefined;
  const msWins = ms && (gitAt === null || dirs.indexOf(ms) <= dirs.indexOf(gitAt)) && marked === undefined;
  if (ms && msWins) return { root: ms, marker: ".mindsave", gitDir: ms === gitAt ? gitAt : null };
  if (gitAt) return { root: gitAt, marker: "git", gitDir: gitAt };
  if (marked) return { root: marked, marker: markerOf(marked)!, gitDir: null };
  return { root: plainFolderRoot(start, env), marker: "directory", gitDir: null };
}

/**
 * Whether a hook may make the folder of `start` a project: it has a project marker (git, a package
 * manifest, a `.mindsave/`…) and its root is not the home folder itself. A plain folder becomes a
 * project only when a person saves there or runs `mindsave on` there (both write its project.json).
 */
export function markedAsProject(start: string, env: NodeJS.ProcessEnv): boolean {
  const { root, marker } = findRoot(start, env);
  const home = env.HOME || env.USERPROFILE;
  return marker !== "directory" && !(home && samePath(root, realDir(home)));
}

/** Folders that hold many workspaces, never one: a plain folder's root is below them. */
const CONTAINERS = new Set([
  "documents",
  "desktop",
  "downloads",
  "code",
  "src",
  "projects",
  "work",
  "dev",
  "repos",
  "git",
  "workspace",
  "workspaces",
]);

/**
 * The root of a folder with no git, no marker and no `.mindsave/` above it: the top-most folder
 * below the home directory (skipping containers such as ~/Documents or ~/code), so a first save
 * from `~/Documents/book/ch3` makes `~/Documents/book` the workspace, not `ch3`. Outside the home
 * directory there is no such anchor, and the folder itself is the root.
 */
function plainFolderRoot(start: string, env: NodeJS.ProcessEnv): string {
  const dir = realDir(start);
  const home = env.HOME || env.USERPROFILE;
  if (!home) return dir;
  const rel = relative(realDir(home), dir);
  if (!rel || rel.startsWith("..") || isAbsolute(rel)) return dir;
  const parts = rel.split(sep);
  let depth = 1;
  while (depth < parts.length && CONTAINERS.has(parts[depth - 1].toLowerCase())) depth++;
  return join(realDir(home), ...parts.slice(0, depth));
}

// (Bun.spawnSync: node:child_process costs every command a module load, see src/lib/os.ts. Its
// environment is given: by default Bun passes the one the process started with, not process.env.)
// Null when git failed; undefined when it gave no answer in time.
function git(root: string, args: string[], timeout = 5000): string | null | undefined {
  try {
    const r = Bun.spawnSync(["git", "-C", root, ...args], {
      env: process.env,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
      timeout,
    });
    if (r.exitedDueToTimeout) return undefined;
    return r.exitCode === 0 ? r.stdout.toString("utf8").trimEnd() : null;
  } catch {
    return null;
  }
}

export function gitCommonDir(root: string): string | null {
  const dotGit = join(root, ".git");
  if (isDir(dotGit)) return resolve(dotGit);
  try {
    const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"));
    if (!m) return null;
    const gitdir = resolve(root, m[1].trim());
    const common = join(gitdir, "commondir");
    return existsSync(common) ? resolve(gitdir, readFileSync(common, "utf8").trim()) : gitdir;
  } catch {
    return null;
  }
}

/** The origin URL, normalised so ssh and https forms of one remote compare equal. */
export function normaliseRemote(url: string): string {
  return url
    .trim()
    .replace(/^[a-z+]+:\/\//i, "")
    .replace(/^[^@/]+@/, "")
    .replace(/:(?!\d+\/)/, "/")
    .replace(/\.git\/?$/, "")
    .replace(/\/+$/, "")
    .toLowerCase();
}

/** The origin URL as git itself reads it (includes, worktrees, quoting), normalised. */
function gitRemote(gitDir: string | null): string | null {
  const url = gitDir ? git(gitDir, ["config", "--get", "remote.origin.url"]) : null;
  return url ? normaliseRemote(url) : null;
}

/**
 * Whether a project's identity (`git:<commit>`) names a commit inside this checkout's history
 * though not its root: the project was made in this folder while it was a shallow clone, whose
 * boundary commit stood for its root, and it was deepened since. Asks git only for such a project.
 */
export function deepenedFrom(ws: Workspace, identity: string): boolean {
  const commit = /^git:([0-9a-f]{40}(?:[0-9a-f]{24})?)$/.exec(identity)?.[1];
  return (
    !!commit &&
    ws.gitCommonDir !== null &&
    git(ws.root, ["merge-base", "--is-ancestor", commit, "HEAD"]) === ""
  );
}

/** A shallow clone: its first commit is only where the clone was cut, not its history's root. */
export const isShallow = (ws: Workspace): boolean =>
  ws.gitCommonDir !== null && existsSync(join(ws.gitCommonDir, "shallow"));

/** Whether git `project` was made from a clone of this checkout's origin (reading `ws.remote` asks git once). */
export const sameOrigin = (ws: Workspace, project: { identity: string; remote: string | null }): boolean =>
  project.identity.startsWith("git:") && project.remote !== null && project.remote === ws.remote;

/** A workspace whose `remote` asks git only when read: most commands never need it. */
function workspace(fields: Omit<Workspace, "remote">, gitDir: string | null): Workspace {
  let remote: string | null | undefined;
  return Object.defineProperty({ ...fields } as Workspace, "remote", {
    enumerable: true,
    get: () => (remote === undefined ? (remote = gitRemote(gitDir)) : remote),
  });
}

/** `git diff --stat HEAD` of a checkout (what changed since the last commit), or "" outside git; quick or nothing. */
export function gitDiffStat(root: string | null): string {
  return root ? (git(root, ["diff", "--stat", "HEAD"], 1500) ?? "") : "";
}

/** The most changed files `gitChangedSince` looks at: a hook stays quick in a tree full of build output. */
const CHANGED_FILES_MAX = 2000;

/**
 * Whether a file of a checkout that git sees as modified or new (not ignored) was written after
 * `since` (ms): work done through any tool, a shell command included. MindSave's own
 * `.mindsave/` does not count. False outside git or when git is slow.
 */
export function gitChangedSince(root: string | null, since: number): boolean {
  const out = root
    ? git(root, ["ls-files", "-z", "--modified", "--others", "--exclude-standard"], 1500)
    : null;
  if (!root || !out) return false;
  const files = out.split("\0").filter((f) => f && !f.startsWith(".mindsave/"));
  return files.slice(0, CHANGED_FILES_MAX).some((f) => {
    try {
      return statSync(join(root, f)).mtimeMs > since;
    } catch {
      return false; // deleted since: its deletion is in the tool log, not on disk
    }
  });
}

/**
 * The root commits HEAD reaches that `earlier` does not (none after ordinary commits), or null
 * when `earlier` is not an ancestor of HEAD (a reset, another branch) or git cannot say.
 */
export function gitRootCommitsSince(root: string, earlier: string): string[] | null {
  if (git(root, ["merge-base", "--is-ancestor", earlier, "HEAD"]) !== "") return null;
  const out = git(root, ["rev-list", "--max-parents=0", "HEAD", `^${earlier}`]);
  if (out === undefined) throw tooSlow(root); // the whole history would take longer still
  return out === null ? null : out.split(/\s+/).filter((c) => /^[0-9a-f]{40,64}$/.test(c));
}

const tooSlow = (root: string) =>
  new UserError(
    `git did not name the first commit of ${root} within 5 s; nothing was done there (try again).`,
  );

/** Sorted so repositories with several root commits (merged histories) agree on every host. */
export function gitRootCommits(root: string): string[] | null {
  const out = git(root, ["rev-list", "--max-parents=0", "HEAD"]);
  // Slow is not "no history yet": such a checkout must not be given a project.json of its own
  // (it became a second project, split from its history's).
  if (out === undefined) throw tooSlow(root);
  if (!out) return null;
  const commits = out
    .split(/\s+/)
    .filter((c) => /^[0-9a-f]{40,64}$/.test(c))
    .sort();
  return commits.length ? commits : null;
}

export interface ProjectFile {
  id: string;
  name?: string;
  created_at?: string;
  /** Written in a git repository before its first commit: its history, once it has one, is this project's too. */
  before_first_commit?: boolean;
}

export function readProjectFile(root: string): ProjectFile | null {
  const file = join(root, ".mindsave", "project.json");
  if (!existsSync(file)) return null;
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as ProjectFile;
    if (typeof data.id === "string" && data.id.trim()) return data;
  } catch {
    // fall through to the error below
  }
  throw new UserError(
    `${file} is not valid MindSave project metadata (expected JSON with an "id"); fix or remove it.`,
  );
}

export function writeProjectFile(root: string, name: string, beforeFirstCommit = false): ProjectFile {
  const dir = join(root, ".mindsave");
  const data: ProjectFile = {
    id: newId(),
    name,
    created_at: new Date().toISOString(),
    ...(beforeFirstCommit ? { before_first_commit: true } : {}),
  };
  try {
    writeFileAtomic(join(dir, "project.json"), JSON.stringify(data, null, 2) + "\n");
  } catch (e) {
    throw new UserError(
      `Cannot write ${join(dir, "project.json")} to give this workspace a project id: ${(e as Error).message}`,
    );
  }
  return readProjectFile(root) ?? data;
}

/**
 * Resolves the workspace for `start` (or the `--workspace` override). `create` allows writing
 * `.mindsave/project.json` for a workspace that has no other stable identity yet. `home`: a
 * writable MindSave home, where git's answers are remembered (git-roots.ts); none, none kept.
 * `later`: that answer is written when it calls the write it is given (see Session.close).
 */
export function resolveWorkspace(
  start: string,
  opts: {
    override?: string;
    create: boolean;
    env?: NodeJS.ProcessEnv;
    home?: string | null;
    later?: (write: () => void) => void;
  },
): Workspace | null {
  const env = opts.env ?? process.env;
  const found = opts.override ? givenRoot(opts.override) : findRoot(start, env);
  const { root } = found;
  const name = basename(root) || root;
  const commonDir = found.gitDir ? gitCommonDir(found.gitDir) : null;
  const at = (identity: string, others: string[] = []) =>
    workspace(
      {
        root,
        marker: found.marker,
        name,
        identity,
        identities: [identity, ...others],
        gitCommonDir: commonDir,
      },
      found.gitDir,
    );
  const gitDir = found.gitDir;
  const history = () =>
    gitDir
      ? rootCommitsOf(
          gitDir,
          commonDir,
          opts.home ?? null,
          () => gitRootCommits(gitDir),
          opts.later,
          (earlier) => gitRootCommitsSince(gitDir, earlier),
        )
      : null;
  const file = readProjectFile(root);
  // Its history once it has one: a clone without project.json (a git-ignored .mindsave/) finds the project by it.
  // (Until then git is not asked: every hook would run it.)
  if (file)
    return at(
      `file:${file.id}`,
      file.before_first_commit && !(commonDir && gitDir && unbornHead(gitDir, commonDir))
        ? (history() ?? []).map((c) => `git:${c}`)
        : [],
    );
  const commits = history();
  if (commits)
    return at(
      `git:${commits[0]}`,
      commits.slice(1).map((c) => `git:${c}`),
    );
  if (!opts.create) return null;
  const dot = join(root, ".mindsave");
  refuseAsNewProject(root, found.marker, env);
  const madeDir = !existsSync(dot);
  const made = writeProjectFile(root, name, gitDir !== null);
  const ws = at(`file:${made.id}`);
  ws.madeFile = {
    path: join(dot, "project.json"),
    id: made.id,
    madeDir,
    gitignore: gitDir !== null ? ignoreInGit(dot, madeDir) : null,
  };
  return ws;
}

/** The folder given with `--workspace` (or the MCP tools' workspace): the root as it is, no walk up. */
function givenRoot(override: string): ReturnType<typeof findRoot> {
  const root = realDir(override);
  if (!isDir(root)) throw new UserError(`The workspace ${root} is not a directory.`);
  return { root, marker: "flag", gitDir: existsSync(join(root, ".git")) ? root : null };
}

/** Refuses a root that must not get a project.json: one not there, a MindSave home, or a folder that holds everything. */
function refuseAsNewProject(root: string, marker: RootMarker, env: NodeJS.ProcessEnv): void {
  // A folder that is not there (an agent's removed worktree in a hook's cwd) is never made.
  if (!isDir(root)) throw new UserError(`The folder ${root} does not exist, so it cannot be a project.`);
  if (existsSync(join(root, "mindsave.db"))) {
    throw new UserError(
      `${root} is a MindSave home (it holds mindsave.db), so it cannot be a project; run MindSave inside a project folder.`,
    );
  }
  // A folder whose .mindsave/ is a MindSave home (your home directory, a drive) is not a project:
  // writing project.json there would mix the two.
  const dot = join(root, ".mindsave");
  if (existsSync(join(dot, "mindsave.db")) || realDir(dot) === realDir(localHomeDir(env))) {
    throw new UserError(
      `${root} holds a MindSave home (${dot}), so it cannot be a project; run MindSave inside a project folder, or give its folder (--workspace, or the MCP tools' workspace).`,
    );
  }
  // Nor a folder that holds everything (/, /tmp, the system's temp folder): its project.json would
  // make every plain folder below it part of one project.
  if ((marker === "directory" || marker === "flag") && tooBroad(root)) {
    throw new UserError(
      `${root} holds too many unrelated folders to be a project; run MindSave inside a project folder, or give its folder (--workspace, or the MCP tools' workspace).`,
    );
  }
}

/**
 * A project.json written in a repository before its first commit is git-ignored like the rest of
 * `.mindsave/` (a machine's state, never the codebase's): a `.mindsave/.gitignore`, unless one is
 * there. One that ignores everything (itself too) in a `.mindsave/` made now; in one that was
 * there, only project.json, so what the person keeps there stays as they had it. The path written,
 * or null.
 */
function ignoreInGit(dot: string, madeDir: boolean): string | null {
  const file = join(dot, ".gitignore");
  if (existsSync(file)) return null;
  try {
    writeFileAtomic(
      file,
      madeDir
        ? "# Written by MindSave: this folder is this machine's, not the repository's.\n*\n"
        : "# Written by MindSave: this machine's project id, not the repository's.\n/project.json\n",
    );
    return file;
  } catch {
    return null; // best effort: project.json is written; at worst git shows it
  }
}

/**
 * Takes back the `.mindsave/project.json` a failed command wrote (and the `.mindsave/` it made),
 * unless the store `knows` a project of it (another process saved one meanwhile) or the file no
 * longer holds the id written.
 */
export function takeBackProjectFile(made: NonNullable<Workspace["madeFile"]>, knows: boolean): void {
  if (knows) return;
  try {
    if (!readFileSync(made.path, "utf8").includes(`"${made.id}"`)) return;
    rmSync(made.path);
    if (made.gitignore) rmSync(made.gitignore);
    if (made.madeDir) rmdirSync(dirname(made.path));
  } catch {
    // (Not there any more, or the folder holds something else now: leave it.)
  }
}

/** The file system's root, a folder right below it (/tmp, /home, C:\\Users), or the system's temp folder. */
export function tooBroad(root: string): boolean {
  const top = parse(root).root;
  return (
    root === top || dirname(root) === top || [tmpdir(), "/tmp", "/var/tmp"].some((t) => realDir(t) === root)
  );
}
