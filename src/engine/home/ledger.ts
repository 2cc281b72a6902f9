// The record of the backups MindSave made, in the order it made them: a small JSON file written
// atomically beside the backups. Rotation goes by this record, never by file names, so a file named
// like a later backup (a laptop whose clock was ahead, a copy from a shared drive, a planted file)
// can never push out the backup just made; and it deletes only regular files the record names,
// never a link (nor what it points at), never a file MindSave did not make. It needs no store: a
// backup of a damaged store is recorded the same way. Kept free of heavy imports (hooks load it).
import { lstatSync, readFileSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { writeFileAtomic } from "../../lib/fs.ts";

interface LedgerFile {
  /** File names beside the ledger, oldest first. */
  made: string[];
}

export interface Rotation {
  /** How many of the group to keep, the newest by the ledger's order. */
  keep: number;
  /** Which recorded names this rotation counts (a settings file's own backups). */
  group?: (name: string) => boolean;
  /** Files that go with a backup (its key file, a journal), removed with it when they are regular files. */
  companions?: (name: string) => string[];
}

/** True when `path` exists as anything at all, a dangling link included. */
export function taken(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

const isRegularFile = (path: string) => {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
};

// A recorded name must be a plain name in the ledger's own folder: an edited ledger cannot point
// rotation at a file elsewhere.
const plainName = (name: unknown): name is string =>
  typeof name === "string" &&
  name !== "" &&
  name !== "." &&
  name !== ".." &&
  basename(name) === name &&
  !name.includes("\\");

/** The names the ledger records, oldest first; none when it is missing, a link, or unreadable. */
function recordedBackups(ledger: string): string[] {
  try {
    if (!lstatSync(ledger).isFile()) return [];
    const parsed = JSON.parse(readFileSync(ledger, "utf8")) as Partial<LedgerFile>;
    const names = Array.isArray(parsed.made) ? parsed.made.filter(plainName) : [];
    return [...new Set(names)];
  } catch {
    return [];
  }
}

/** The newest backup the ledger records that is still there as a regular file, or null. */
export function newestRecorded(ledger: string, group: (name: string) => boolean = () => true): string | null {
  const dir = dirname(ledger);
  const name = recordedBackups(ledger)
    .filter((n) => group(n) && isRegularFile(join(dir, n)))
    .at(-1);
  return name ? join(dir, name) : null;
}

/**
 * Records `made` (a file beside the ledger) as the newest backup, then removes the oldest of its
 * group beyond `keep`. A recorded name that is gone, or is no longer a regular file (replaced by a
 * link or a folder), is dropped from the record and left alone. The ledger is written before
 * anything is deleted; when it cannot be written nothing is deleted (the backup itself stays).
 * Returns the paths removed.
 */
export function recordAndRotate(ledger: string, made: string, rotation: Rotation): string[] {
  const dir = dirname(ledger);
  const group = rotation.group ?? (() => true);
  const names = [...recordedBackups(ledger).filter((n) => n !== basename(made)), basename(made)].filter((n) =>
    isRegularFile(join(dir, n)),
  );
  const mine = names.filter(group);
  const old = new Set(mine.slice(0, Math.max(0, mine.length - rotation.keep)));
  try {
    writeFileAtomic(
      ledger,
      JSON.stringify({ made: names.filter((n) => !old.has(n)) } satisfies LedgerFile, null, 1) + "\n",
    );
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of old) {
    for (const f of [join(dir, name), ...(rotation.companions?.(join(dir, name)) ?? [])])
      removeRegularFile(f);
    removed.push(join(dir, name));
  }
  return removed;
}

/** Removes `path` only when it is a regular file: a link or a folder of that name stays. */
function removeRegularFile(path: string): void {
  if (!isRegularFile(path)) return;
  try {
    rmSync(path);
  } catch {
    // Not ours to force (permissions); it stays, unrecorded.
  }
}
