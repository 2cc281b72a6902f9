// The original MindSave `.mindsave/` layout: its constants, the import/export reports, finding the
// folder, and small readers (times, JSON, lists, node file names) the format's modules share.
import { HOST_ID } from "../home/host.ts";
import { existsSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { UserError } from "../../errors.ts";
import { isSafeName } from "../snapshots/slug.ts";
import { MARKERS, exportedFrom } from "../projects/workspace.ts";
import { isDir, isSymlink } from "../../lib/fs.ts";
import { readTextNoFollowCapped } from "../../lib/bounded-read.ts";
import { JSON_FILE_MAX } from "../snapshots/input-limits.ts";

/** The project an `export` folder came from, as its index.json names it (MindSave's own field). */
export { exportedFrom };

export const SEED_DIR = ".mindsave";
/** The original keeps at most this many snapshots in index.json. */
export const INDEX_MAX = 20;

export interface SeedLocation {
  /** The workspace root (the folder holding `.mindsave/`). */
  root: string;
  /** The `.mindsave/` folder itself. */
  dir: string;
}

export interface ImportReport {
  source: string;
  /** The project's root on this host (null: it has none here). */
  root: string | null;
  project: { id: string; name: string } | null;
  /**
   * skipped: already in the store; deleted: deleted in this store earlier, by record id or by name
   * and time (not brought back unless asked); archived: left out of the default views by retention (still whole).
   */
  snapshots: {
    imported: string[];
    skipped: string[];
    deleted: string[];
    failed: { file: string; reason: string }[];
    archived: string[];
  };
  failures: { imported: number; skipped: number };
  tool_calls: { imported: number; skipped: number };
  /** imported: applied to the project's signal; unchanged: already there; older: the store's is newer; absent: no signal.json. */
  signal: "imported" | "unchanged" | "older" | "absent";
  /** Rules, facts and retirements added (rules.json, facts.json, retired.json). */
  memory: { rules: number; facts: number; retired: number };
  /** The project was switched off by this import (the export's `off.json`); never switched on. */
  off: boolean;
  warnings: string[];
}

export interface ExportReport {
  dir: string;
  project: { id: string; name: string };
  snapshots: string[];
  index: number;
  failures: { project: number; global: number };
  tool_calls: number;
  tool_log_files: string[];
  signal: boolean;
  memory: { rules: number; facts: number; retired: number };
  /** The project is off: `off.json` carries its switch. */
  off: boolean;
  warnings: string[];
}

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

export function mtime(p: string): Date {
  try {
    return new Date(statSync(p).mtimeMs);
  } catch {
    return new Date();
  }
}

export function instant(v: unknown): number {
  if (v instanceof Date) return v.getTime();
  if (typeof v === "number") return v;
  if (typeof v !== "string") return NaN;
  const s = v.trim();
  if (!s) return NaN;
  // The original's ids and logs use YYYYMMDD; Date.parse does not.
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  return Date.parse(compact ? `${compact[1]}-${compact[2]}-${compact[3]}` : s);
}

export const sameInstant = (a: unknown, b: unknown) => {
  const x = instant(a);
  return Number.isFinite(x) && x === instant(b);
};

export function readJson(path: string, label: string, warnings: string[]): unknown {
  let text: string;
  try {
    text = readTextNoFollowCapped(path, JSON_FILE_MAX);
  } catch (e) {
    warnings.push(`${label}: cannot be read (${(e as Error).message}); not imported.`);
    return undefined;
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    warnings.push(`${label}: not valid JSON (${(e as Error).message}); not imported.`);
    return undefined;
  }
}

export const asStrings = (v: unknown): string[] =>
  v === null || v === undefined
    ? []
    : (Array.isArray(v) ? v : [v])
        .map((x) => (typeof x === "string" ? x : JSON.stringify(x)))
        .map((s) => s.trim())
        .filter(Boolean);

/** The original's `_safe_id`: ASCII letters and digits, `_` for the rest, 40 characters. */
export function originalSafeId(name: string): string {
  return name
    .replace(/[^a-zA-Z0-9]/g, "_")
    .slice(0, 40)
    .replace(/_+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** A failure node's file name: the original's for ASCII names (so it finds the node), letters of any script otherwise. */
export function failureFileStem(item: string): string {
  if (/^[\x20-\x7e]*$/.test(item)) {
    const stem = originalSafeId(item) || "unknown";
    return isSafeName(stem) ? stem : `${stem}_`; // CON.json cannot exist on Windows
  }
  const s = [
    ...item
      .normalize("NFC")
      .replace(/[^\p{L}\p{N}\p{M}]+/gu, "_")
      .replace(/^_+|_+$/g, ""),
  ]
    .slice(0, 40)
    .join("");
  return s.replace(/_+$/g, "") || "unknown";
}

/** The original rebuilds a node's name from its file name (`_` → space); the best we can do without an `item` field. */
export function unslug(stem: string): string {
  return stem.replace(/_+/g, " ").trim() || stem;
}

/** DIR may be the workspace root or its `.mindsave/` folder. */
export function locateSeed(input: string): SeedLocation {
  const abs = resolve(input);
  if (!existsSync(abs))
    throw new UserError(`${abs} does not exist; give the workspace root or its .mindsave folder.`);
  if (!isDir(abs))
    throw new UserError(`${abs} is not a directory; give the workspace root or its .mindsave folder.`);
  const dir = basename(abs) === SEED_DIR ? abs : join(abs, SEED_DIR);
  if (dir !== abs && isSymlink(dir))
    throw new UserError(
      `${dir} is a symbolic link; MindSave does not follow links out of a workspace (give the folder it points to, if you trust it).`,
    );
  if (!isDir(dir))
    throw new UserError(
      `${abs} has no .mindsave folder; give the workspace root that holds the original MindSave's .mindsave/ (or that folder itself).`,
    );
  if (existsSync(join(dir, "mindsave.db")))
    throw new UserError(
      `${dir} is a MindSave home (it holds mindsave.db), not a workspace's .mindsave folder.`,
    );
  return { root: dirname(dir), dir };
}

/**
 * Whether `loc` is a folder `mindsave export --out` wrote, not a workspace: its index.json names
 * the project it came from, and nothing makes the folder a project of its own (no git, no project
 * marker, no project.json). Its relative paths belong to that project's root, not to this folder.
 */
export function isStandaloneExport(loc: SeedLocation): boolean {
  if (!exportedFrom(loc.dir) || existsSync(join(loc.dir, "project.json"))) return false;
  return !existsSync(join(loc.root, ".git")) && !MARKERS.some((m) => existsSync(join(loc.root, m)));
}

/** A record's id and clock as `mindsave export` writes them (beside the spec's fields). */
export const RECORD_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{7,63}$/;
/** A clock as the store writes it (hlc.ts): wall, counter, and a host id as host.ts allows. */
export const RECORD_CLOCK = new RegExp(String.raw`^\d{13}-\d{4}-` + HOST_ID.source.slice(1));
