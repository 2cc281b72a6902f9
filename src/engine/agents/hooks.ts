// Claude Code hooks: merged into settings.json idempotently, every existing hook kept, the file
// backed up first; uninstall removes exactly the entries install added (recorded in the local home).
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import {  join } from "node:path";
import { UserError } from "../../errors.ts";
import { localHomeDir } from "../home/home.ts";
import { writeFileAtomic } from "../../lib/fs.ts";

// PostToolUse stays synchronous: its warnings must reach the user (an async hook's systemMessage
// is not shown) and its emergency snapshot must be written before the context is lost.
// PostToolUseFailure only counts failures in the signal, so it runs in the background.
export const HOOK_EVENTS: readonly { event: string; matcher?: string; arg: string; timeout: number; async?: true }[] = [
  { event: "SessionStart", matcher: "startup|resume|clear|compact|fork", arg: "session-start", timeout: 10 },
  { event: "UserPromptSubmit", arg: "user-prompt-submit", timeout: 10 },
  { event: "PostToolUse", matcher: "", arg: "post-tool-use", timeout: 5 },
  { event: "PostToolUseFailure", matcher: "", arg: "post-tool-use-failure", timeout: 5, async: true },
  { event: "PreCompact", matcher: "manual|auto", arg: "pre-compact", timeout: 10 },
  { event: "Stop", arg: "stop", timeout: 10 },
  { event: "SessionEnd", arg: "session-end", timeout: 10 },
];

/** What `mindsave hook EVENT` accepts. */
export const HOOK_ARGS = HOOK_EVENTS.map((h) => h.arg);

export type HookArg = string;

interface HookCommand {
  type: "command";
  command: string;
  timeout?: number;
  async?: boolean;
}

interface MatcherGroup {
  matcher?: string;
  hooks: HookCommand[];
}

type Settings = Record<string, unknown> & { hooks?: Record<string, MatcherGroup[]> };

interface Manifest {
  /** settings file → the exact commands install added there. */
  installed: Record<string, string[]>;
}

function manifestPath(env: NodeJS.ProcessEnv): string {
  return join(localHomeDir(env), "hooks-installed.json");
}

function readManifest(env: NodeJS.ProcessEnv): Manifest {
  try {
    return JSON.parse(readFileSync(manifestPath(env), "utf8")) as Manifest;
  } catch {
    return { installed: {} };
  }
}

/** The indentation a JSON file already uses (a person's settings keep their look). */
function indentOf(path: string): string | number {
  try {
    const m = /\n([ \t]+)"/.exec(readFileSync(path, "utf8"));
    return m ? m[1] : 2;
  } catch {
    return 2;
  }
}

function writeJsonAtomic(path: string, value: unknown): void {
  const indent = existsSync(path) ? indentOf(path) : 2;
  writeFileAtomic(path, JSON.stringify(value, null, indent) + "\n");
}

export function settingsPath(scope: "user" | "project", env: NodeJS.ProcessEnv, projectRoot: string | null): string {
  if (scope === "user") return join(env.HOME || env.USERPROFILE || "", ".claude", "settings.json");
  if (!projectRoot) throw new UserError("--project needs a workspace: run it inside the project (or give --workspace).");
  return join(projectRoot, ".claude", "settings.json");
}

function readSettings(path: string): Settings {
  if (!existsSync(path)) return {};
  const text = readFileSync(path, "utf8");
  if (!text.trim()) return {};
  try {
    const v = JSON.parse(text);
    if (v && typeof v === "object" && !Array.isArray(v)) return v as Settings;
  } catch {
    // fall through
  }
  throw new UserError(`${path} is not valid JSON; fix it first (MindSave will not overwrite a settings file it cannot read).`);
}

function quote(path: string): string {
  return process.platform === "win32" ? `"${path}"` : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** The command a hook runs: the locally installed binary, never one on a drive. */
export function hookCommand(binary: string, arg: HookArg): string {
  return `${quote(binary)} hook ${arg}`;
}

export function localBinary(env: NodeJS.ProcessEnv): string {
  return join(localHomeDir(env), "bin", process.platform === "win32" ? "mindsave.exe" : "mindsave");
}

export interface HooksResult {
  settings: string;
  added: string[];
  /** Hooks of an earlier install brought up to date (e.g. a SessionStart matcher without `fork`). */
  updated: string[];
  removed: string[];
  backup: string | null;
}

function backup(path: string, now: Date): string | null {
  if (!existsSync(path)) return null;
  const to = `${path}.mindsave-backup-${now.toISOString().replace(/[:.]/g, "-")}`;
  copyFileSync(path, to);
  return to;
}

export function installHooks(path: string, binary: string, env: NodeJS.ProcessEnv, now: Date): HooksResult {
  const settings = readSettings(path);
  const hooks = (settings.hooks && typeof settings.hooks === "object" ? settings.hooks : {}) as Record<string, MatcherGroup[]>;
  const added: string[] = [];
  const updated: string[] = [];
  for (const h of HOOK_EVENTS) {
    const command = hookCommand(binary, h.arg);
    const groups = Array.isArray(hooks[h.event]) ? hooks[h.event] : [];
    const group: MatcherGroup = { ...(h.matcher !== undefined ? { matcher: h.matcher } : {}), hooks: [{ type: "command", command, timeout: h.timeout, ...(h.async ? { async: true } : {}) }] };
    const at = groups.findIndex((g) => Array.isArray(g?.hooks) && g.hooks.some((c) => c?.command === command));
    if (at === -1) {
      hooks[h.event] = [...groups, group];
      added.push(command);
    } else if (groups[at].hooks.length === 1 && JSON.stringify(groups[at]) !== JSON.stringify(group)) {
      // A group that holds only our hook is ours: an earlier install's matcher or options are replaced.
      hooks[h.event] = groups.map((g, i) => (i === at ? group : g));
      updated.push(command);
    }
  }
  let saved: string | null = null;
  if (added.length || updated.length) {
    saved = backup(path, now);
    writeJsonAtomic(path, { ...settings, hooks });
    const m = readManifest(env);
    m.installed[path] = [...new Set([...(m.installed[path] ?? []), ...added, ...updated])];
    writeJsonAtomic(manifestPath(env), m);
  }
  return { settings: path, added, updated, removed: [], backup: saved };
}

export function uninstallHooks(path: string, env: NodeJS.ProcessEnv, now: Date): HooksResult {
  const m = readManifest(env);
  const ours = new Set(m.installed[path] ?? []);
  if (!ours.size || !existsSync(path)) return { settings: path, added: [], updated: [], removed: [], backup: null };
  const settings = readSettings(path);
  const hooks = (settings.hooks ?? {}) as Record<string, MatcherGroup[]>;
  const removed: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const kept: MatcherGroup[] = [];
    for (const g of groups) {
      if (!Array.isArray(g?.hooks)) {
        kept.push(g);
        continue;
      }
      const rest = g.hooks.filter((c) => {
        if (ours.has(c?.command)) {
          removed.push(c.command);
          return false;
        }
        return true;
      });
      // A group that held only our hook was ours: it goes; any other group keeps its other hooks.
      if (rest.length || rest.length === g.hooks.length) kept.push({ ...g, hooks: rest });
    }
    if (kept.length) hooks[event] = kept;
    else delete hooks[event];
  }
  let saved: string | null = null;
  if (removed.length) {
    saved = backup(path, now);
    const next: Settings = { ...settings, hooks };
    if (!Object.keys(hooks).length) delete next.hooks;
    writeJsonAtomic(path, next);
  }
  delete m.installed[path];
  writeJsonAtomic(manifestPath(env), m);
  return { settings: path, added: [], updated: [], removed, backup: saved };
}
