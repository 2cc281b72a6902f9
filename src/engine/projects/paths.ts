// Active files are stored relative to the project root with `/` separators, and printed absolute
// for the host that loads them. Windows and POSIX inputs are both understood on every host.
import nodePath from "node:path";
import { existsSync, realpathSync } from "node:fs";

type PathFlavor = typeof nodePath.posix;

/** A Windows path from a drive (`C:\…`) or a network share (UNC: `\\server\share\…`, `//server/share/…`). */
const WIN_ABS = /^(?:[A-Za-z]:[\\/]|[\\/]{2}(?![\\/]))/;

export function isAbsoluteAny(p: string): boolean {
  return p.startsWith("/") || WIN_ABS.test(p);
}

/** Normalises a relative path to the stored form: `/` separators, no `.` segments, no leading `./`. */
export function normaliseRelative(p: string): string {
  const parts: string[] = [];
  for (const seg of p.replace(/\\/g, "/").split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === ".." && parts.length && parts[parts.length - 1] !== "..") parts.pop();
    else parts.push(seg);
  }
  return parts.join("/") || ".";
}

/**
 * The stored form of `input` for a workspace at `root`. Relative inputs are taken from `cwd` when
 * that file exists there, else from the root (agents usually write root-relative paths). A path
 * outside the root stays absolute (it cannot be portable) with `/` separators.
 */
export function toStoredPath(
  input: string,
  root: string,
  cwd: string = root,
  path: PathFlavor = nodePath,
): string {
  const raw = input.trim();
  let abs: string;
  if (isAbsoluteAny(raw)) {
    // A POSIX host reads `\\server\share` and `C:\` as names under its current folder: a Windows
    // path is kept absolute as Windows resolves it (a share stored as `//server/share/…`).
    if (path.sep === "/" && WIN_ABS.test(raw)) return nodePath.win32.resolve(raw).replace(/\\/g, "/");
    abs = path.resolve(raw);
  } else {
    const fromCwd = path.resolve(cwd, raw.replace(/[\\/]/g, path.sep));
    abs = cwd !== root && existsSync(fromCwd) ? fromCwd : path.resolve(root, raw.replace(/[\\/]/g, path.sep));
  }
  const inside = (from: string, to: string) => {
    const rel = path.relative(from, to);
    return rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel) ? null : rel;
  };
  // A path through a symlink to the project (the root is its real path) is inside it too.
  const rel = inside(root, abs) ?? (path === nodePath ? inside(realPrefix(root), realPrefix(abs)) : null);
  return rel === null ? abs.replace(/\\/g, "/") : normaliseRelative(rel);
}

/** The real path of the longest part of `abs` that exists here, with the rest as written (a file saved before it is made). */
function realPrefix(abs: string): string {
  const rest: string[] = [];
  for (let head = abs; ;) {
    try {
      return nodePath.join(realpathSync(head), ...rest);
    } catch {
      const up = nodePath.dirname(head);
      if (up === head) return abs;
      rest.unshift(nodePath.basename(head));
      head = up;
    }
  }
}

/** The absolute path of a stored file on this host. */
export function toHostPath(stored: string, root: string | null, path: PathFlavor = nodePath): string {
  if (isAbsoluteAny(stored))
    return path === nodePath.win32 || path.sep === "\\" ? stored.replace(/\//g, "\\") : stored;
  if (!root) return stored;
  return path.join(root, ...stored.split("/"));
}

/**
 * A folder path in the form two paths are compared by: `/` separators, no trailing slash, NFC,
 * and case-folded where the file system is (Windows, macOS), so `C:\Code\app` and `c:/code/app/`
 * are one root there and two on Linux.
 */
export function pathKey(p: string, platform: string = process.platform): string {
  let key = p.normalize("NFC").replace(/\\/g, "/");
  if (key.length > 1) key = key.replace(/\/+$/, "");
  if (/^[A-Za-z]:$/.test(key)) key += "/";
  return platform === "win32" || platform === "darwin" ? key.toLowerCase() : key;
}

export function samePath(a: string, b: string, platform: string = process.platform): boolean {
  return pathKey(a, platform) === pathKey(b, platform);
}
