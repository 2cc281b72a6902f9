// The record of what MindSave's installs wrote into other programs' files (hooks-installed.json in
// the local home): per file, what install added and created, so uninstall removes just that; and
// the folders installs (hooks, skills) created, removed again once empty.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ensureLocalHome, localHomeDir } from "../home/home.ts";
import { missingParents, removeEmptyDirs, writeFileAtomic } from "../../lib/fs.ts";
import type { Insertion } from "./json-edit.ts";

export interface Manifest {
  /** Claude Code settings file → the exact commands install added there. */
  installed: Record<string, string[]>;
  /** Claude Code settings file → what install created: the file itself, its `hooks` key, event keys; and each edit's insertions (undone last first). */
  created?: Record<string, { file?: boolean; keys: string[]; steps?: Insertion[][] }>;
  /** Folders MindSave's installs (hooks, skills) created; removed again once empty. */
  dirs?: string[];
  /** Other agents' hook files (agent-hooks-install.ts): file or folder → what install did there. */
  agents?: Record<string, unknown>;
}

function manifestPath(env: NodeJS.ProcessEnv): string {
  return join(localHomeDir(env), "hooks-installed.json");
}

export function readManifest(env: NodeJS.ProcessEnv): Manifest {
  try {
    return JSON.parse(readFileSync(manifestPath(env), "utf8")) as Manifest;
  } catch {
    return { installed: {} };
  }
}

export function writeManifest(env: NodeJS.ProcessEnv, m: Manifest): void {
  ensureLocalHome(env);
  writeFileAtomic(manifestPath(env), JSON.stringify(m, null, 2) + "\n");
}

/** Notes folders an install is about to create, so an uninstall can take them away again. */
export function noteCreatedDirs(env: NodeJS.ProcessEnv, path: string): void {
  const dirs = missingParents(path);
  if (!dirs.length) return;
  const m = readManifest(env);
  m.dirs = [...new Set([...(m.dirs ?? []), ...dirs])];
  writeManifest(env, m);
}

/** Removes the folders installs created that are empty now (deepest first). */
export function removeCreatedDirs(env: NodeJS.ProcessEnv): void {
  const m = readManifest(env);
  if (!m.dirs?.length) return;
  removeEmptyDirs([...m.dirs].sort((a, b) => b.length - a.length));
  m.dirs = m.dirs.filter((d) => existsSync(d));
  writeManifest(env, m);
}
