// A git checkout's identity is the root commit of its HEAD (`git rev-list --max-parents=0 HEAD`),
// and running git is a cost every command would pay (a hook runs on every tool call). A commit's history
// never changes (its id is a hash of it), so "commit C has root R" stays true forever: the answer
// is kept per HEAD commit in `~/.mindsave/git-roots.json`, and HEAD is read from the git files
// (`HEAD`, a loose ref, `packed-refs`). Git is asked whenever anything is unusual: a ref store of
// another kind (reftable), a shallow clone (its boundary moves when it is deepened), replaced
// history (grafts, `refs/replace`), a HEAD that is not a plain ref to a commit.
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { join, resolve } from "node:path";
import { writeFileAtomic } from "../../lib/fs.ts";

const COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const CACHE_FILE = "git-roots.json";
/** HEAD commits remembered (a few hundred bytes each): the newest ones are kept. */
const KEEP = 500;

/** The checkout's own git directory (a worktree's differs from the shared one). */
function worktreeGitDir(root: string): string | null {
  const dotGit = join(root, ".git");
  try {
    const text = readFileSync(dotGit, "utf8");
    const m = /^gitdir:\s*(.+)$/m.exec(text);
    return m ? resolve(root, m[1].trim()) : null;
  } catch (e) {
    // A directory (the usual case) cannot be read as a file.
    return (e as NodeJS.ErrnoException).code === "EISDIR" ? dotGit : null;
  }
}

const UNBORN = "unborn";

/** The commit HEAD names, read from the git files, or "unborn" (a branch with no commit yet); null when only git can tell. */
function readHead(root: string, commonDir: string): string | null {
  const gitDir = worktreeGitDir(root);
  if (!gitDir) return null;
  try {
    if (["reftable", "shallow", "info/grafts", "refs/replace"].some((p) => existsSync(join(commonDir, p))))
      return null;
    const head = readFileSync(join(gitDir, "HEAD"), "utf8").trim();
    if (COMMIT.test(head)) return head;
    const ref = /^ref: (refs\/heads\/\S+)$/.exec(head)?.[1];
    if (!ref) return null;
    // A loose ref wins over a packed one.
    const loose = join(commonDir, ref);
    if (existsSync(loose)) {
      const id = readFileSync(loose, "utf8").trim();
      return COMMIT.test(id) ? id : null;
    }
    const packed = join(commonDir, "packed-refs");
    if (!existsSync(packed)) return UNBORN;
    let id: string | null = null;
    for (const line of readFileSync(packed, "utf8").split("\n")) {
      if (line.includes(" refs/replace/")) return null;
      if (line.endsWith(` ${ref}`)) id = line.slice(0, line.indexOf(" "));
    }
    return id === null ? UNBORN : COMMIT.test(id) ? id : null;
  } catch {
    return null;
  }
}

/** The commit HEAD names, read from the git files; null when only git can tell. */
export function headCommit(root: string, commonDir: string): string | null {
  const head = readHead(root, commonDir);
  return head === UNBORN ? null : head;
}

/** Whether HEAD, read from git's files, names a branch with no commit yet (a new repository); false when unsure. */
export const unbornHead = (root: string, commonDir: string): boolean => readHead(root, commonDir) === UNBORN;

/** The commits HEAD named before in this checkout, newest first: its reflog's last lines ("old new …"). */
export function earlierHeads(root: string, max = 20): string[] {
  const gitDir = worktreeGitDir(root);
  if (!gitDir) return [];
  let text: string;
  try {
    // The end of the reflog only: it grows with every commit and checkout.
    const fd = openSync(join(gitDir, "logs", "HEAD"), "r");
    try {
      const size = fstatSync(fd).size;
      const buf = Buffer.alloc(Math.min(size, 16 * 1024));
      readSync(fd, buf, 0, buf.length, size - buf.length);
      text = buf.toString("utf8");
    } finally {
      closeSync(fd);
    }
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const line of text.split("\n").reverse()) {
    for (const c of line.split(" ", 2).reverse())
      if (COMMIT.test(c) && !/^0+$/.test(c) && !out.includes(c)) out.push(c);
    if (out.length >= max) break;
  }
  return out;
}

const rootsIn = (v: unknown): string[] | null =>
  Array.isArray(v) && v.length && v.every((c) => typeof c === "string" && COMMIT.test(c))
    ? (v as string[])
    : null;

/**
 * The root commits of the checkout at `root` (shared git directory `commonDir`), sorted: remembered
 * in `cacheDir` (a writable home; null: nothing is kept) by HEAD commit, else `ask` (running git) says.
 * After a commit, the newest earlier HEAD of this checkout that is remembered gives them with
 * `askSince` (the roots only the new commits reach, or null when it is no ancestor of HEAD): git
 * then walks the new commits, not the whole history (seconds in a big repository).
 * `later`: the cache is written when it calls the write it is given (or never), not at once.
 */
export function rootCommitsOf(
  root: string,
  commonDir: string | null,
  cacheDir: string | null,
  ask: () => string[] | null,
  later?: (write: () => void) => void,
  askSince?: (earlier: string) => string[] | null,
): string[] | null {
  const head = commonDir && cacheDir ? headCommit(root, commonDir) : null;
  if (!head || !cacheDir || !existsSync(cacheDir)) return ask();
  const file = join(cacheDir, CACHE_FILE);
  const cache = readCache(file);
  const hit = rootsIn(cache[head]);
  if (hit) return hit;
  let found: string[] | null = null;
  const earlier = askSince ? earlierHeads(root).find((c) => c !== head && rootsIn(cache[c])) : undefined;
  if (earlier) {
    const more = askSince!(earlier);
    if (more) found = [...new Set([...rootsIn(cache[earlier])!, ...more])].sort();
  }
  found ??= ask();
  if (!found?.length) return null;
  const write = () => {
    try {
      // Read again: another answer may have been written since.
      const kept = Object.entries(readCache(file))
        .filter(([k, v]) => k !== head && Array.isArray(v))
        .slice(-(KEEP - 1));
      writeFileAtomic(file, JSON.stringify(Object.fromEntries([...kept, [head, found]])) + "\n");
    } catch {
      // a read-only home: git is asked again next time
    }
  };
  if (later) later(write);
  else write();
  return found;
}

function readCache(file: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8"));
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed;
  } catch {
    // none yet, or unreadable: it is made again
  }
  return {};
}
