// Claude Code hooks: merged into settings.json idempotently, every existing hook kept. The file is
// edited in place with jsonc-parser, so everything else in it (indentation, inline arrays,
// comments, CRLF, a missing final newline) stays byte for byte, and uninstall gives back exactly
// the bytes install found. A backup goes to ~/.mindsave/backups/settings/ (the newest 5 per file);
// what install added and created is recorded in the local home, so uninstall removes just that.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { FormattingOptions, JSONPath, ParseError } from "jsonc-parser";
import { UserError } from "../../errors.ts";
import { ensureLocalHome, localHomeDir } from "../home/home.ts";
import { newestRecorded, recordAndRotate, taken } from "../home/ledger.ts";
import { copyFileAtomic, missingParents, removeEmptyDirs, writeFileAtomic } from "../../lib/fs.ts";

// jsonc-parser on first use (`require`): every hook imports this module, few edit a settings file.
const JSONC = () => require("jsonc-parser/lib/esm/main.js") as typeof import("jsonc-parser");

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

/** Settings backups kept per settings file. */
export const KEEP_SETTINGS_BACKUPS = 5;

/** The record of the settings backups MindSave made (ledger.ts), beside them. */
export const SETTINGS_LEDGER = "backups.json";

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

export interface Manifest {
  /** settings file → the exact commands install added there. */
  installed: Record<string, string[]>;
  /** settings file → what install created: the file itself, its `hooks` key, event keys. */
  created?: Record<string, { file?: boolean; keys: string[] }>;
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

export function settingsPath(scope: "user" | "project", env: NodeJS.ProcessEnv, projectRoot: string | null): string {
  if (scope === "user") return join(env.HOME || env.USERPROFILE || "", ".claude", "settings.json");
  if (!projectRoot) throw new UserError("--project needs a workspace: run it inside the project (or give --workspace).");
  return join(projectRoot, ".claude", "settings.json");
}

/** A settings file's value; comments and trailing commas are allowed, anything else unreadable is refused. */
function parseSettings(path: string, text: string): Record<string, unknown> {
  if (!text.trim()) return {};
  const errors: ParseError[] = [];
  const v = JSONC().parse(text, errors, { allowTrailingComma: true });
  if (!errors.length && v && typeof v === "object" && !Array.isArray(v)) {
    const hooks = (v as Record<string, unknown>).hooks;
    if (hooks === undefined || (hooks && typeof hooks === "object" && !Array.isArray(hooks))) return v;
    throw new UserError(`"hooks" in ${path} is not an object; fix it first (MindSave will not overwrite a settings file it cannot read).`);
  }
  throw new UserError(`${path} is not valid JSON; fix it first (MindSave will not overwrite a settings file it cannot read).`);
}

/** The layout a settings file already uses, so what is added looks like the rest of it. */
function layoutOf(text: string): FormattingOptions {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indent = /\n([ \t]+)["{[\]}]/.exec(text)?.[1];
  if (indent?.startsWith("\t")) return { insertSpaces: false, tabSize: 4, eol };
  return { insertSpaces: true, tabSize: indent ? indent.length : 2, eol };
}

/** Sets `value` at `path` (appending when `append`), formatting only the new text. */
function insertAt(text: string, path: JSONPath, value: unknown, layout: FormattingOptions, append = false): string {
  const container = JSONC().findNodeAtLocation(JSONC().parseTree(text)!, path.slice(0, -1))!;
  const [edit] = JSONC().modify(text, path, value, { isArrayInsertion: append });
  const out = JSONC().applyEdits(text, [edit]);
  // A container written on one line gets what is added on that line too (a minified file stays one line).
  if (!/[\r\n]/.test(text.slice(container.offset, container.offset + container.length)) && container.children?.length) return out;
  // Into an empty `{}` or `[]` the container is laid out too; anywhere else only what was added.
  const range = container.children?.length
    ? { offset: edit.offset, length: edit.content.length }
    : { offset: container.offset, length: container.length - edit.length + edit.content.length };
  return JSONC().applyEdits(out, JSONC().format(out, range, { ...layout, keepLines: false }));
}

/** Removes the property or element at `path`: the exact inverse of `insertAt` adding it. */
function removeAt(text: string, path: JSONPath): string {
  const node = JSONC().findNodeAtLocation(JSONC().parseTree(text)!, path)!;
  const item = node.parent?.type === "property" ? node.parent : node;
  const container = item.parent!;
  const siblings = container.children!;
  const i = siblings.indexOf(item);
  const end = item.offset + item.length;
  if (i > 0) {
    const prev = siblings[i - 1];
    return text.slice(0, prev.offset + prev.length) + text.slice(end);
  }
  if (siblings.length > 1) return text.slice(0, item.offset) + text.slice(siblings[1].offset);
  return text.slice(0, container.offset + 1) + text.slice(container.offset + container.length - 1);
}

function quote(path: string): string {
  return process.platform === "win32" ? `"${path}"` : `'${path.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command a hook runs. By default one line of POSIX sh that works for everyone who has
 * MindSave, so a project's settings can be committed: the copy `mindsave install` put in
 * ~/.mindsave/bin, else `mindsave` on PATH, else nothing (exit 0, quietly). Claude Code runs hooks
 * through a shell (Git Bash on Windows, where `mindsave.exe` answers to `mindsave`). With
 * `binary` (`--command`), that binary by its absolute path.
 */
export function hookCommand(binary: string | null, arg: HookArg): string {
  if (binary) return `${quote(binary)} hook ${arg}`;
  return `m="$HOME/.mindsave/bin/mindsave"; [ -x "$m" ] || m=$(command -v mindsave) || exit 0; exec "$m" hook ${arg}`;
}

/** A hook an earlier version wrote: the local copy by its absolute path, on any machine. */
function legacyArg(command: unknown): string | null {
  const m = typeof command === "string" ? /^(['"])[^'"]*[\\/]\.mindsave[\\/]bin[\\/]mindsave(?:\.exe)?\1 hook ([a-z-]+)$/.exec(command) : null;
  return m && HOOK_ARGS.includes(m[2]) ? m[2] : null;
}

export function localBinary(env: NodeJS.ProcessEnv): string {
  return join(localHomeDir(env), "bin", process.platform === "win32" ? "mindsave.exe" : "mindsave");
}

export interface HooksResult {
  settings: string;
  added: string[];
  /** Hooks of an earlier install brought up to date (a SessionStart matcher without `fork`, an absolute path). */
  updated: string[];
  removed: string[];
  backup: string | null;
  /** Uninstall only: the settings file (and folder) install had created, removed again. */
  deleted?: string[];
}

/**
 * Copies a settings file to ~/.mindsave/backups/settings/ before it is changed, as
 * `<folder>-<path hash>.<UTC time>.<n>.json` (n counts that file's backups), recorded in that
 * folder's backups.json; keeps the newest 5 of that file by that record, never by name (ledger.ts).
 */
function backup(path: string, env: NodeJS.ProcessEnv, now: Date): string | null {
  if (!existsSync(path)) return null;
  const dir = join(ensureLocalHome(env), "backups", "settings");
  const ledger = join(dir, SETTINGS_LEDGER);
  const prefix = `${basename(dirname(dirname(path))) || "root"}-${new Bun.CryptoHasher("sha256").update(path).digest("hex").slice(0, 8)}.`;
  const ofThisFile = (name: string) => name.startsWith(prefix) && name.endsWith(".json");
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  const named = (n: number) => join(dir, `${prefix}${stamp}.${String(n).padStart(4, "0")}.json`);
  let n = Number(/\.(\d+)\.json$/.exec(newestRecorded(ledger, ofThisFile) ?? "")?.[1] ?? 0) + 1;
  // A name already there (anything, a link included) is never written over.
  while (taken(named(n))) n++;
  const to = named(n);
  copyFileAtomic(path, to);
  recordAndRotate(ledger, to, { keep: KEEP_SETTINGS_BACKUPS, group: ofThisFile });
  return to;
}

const isGroup = (g: unknown): g is MatcherGroup => !!g && typeof g === "object" && Array.isArray((g as MatcherGroup).hooks);

export function installHooks(path: string, binary: string | null, env: NodeJS.ProcessEnv, now: Date): HooksResult {
  const existed = existsSync(path);
  let text = existed ? readFileSync(path, "utf8") : "";
  const settings = parseSettings(path, text);
  const hooks = (settings.hooks ?? {}) as Record<string, unknown>;
  const m = readManifest(env);
  const known = new Set(m.installed[path] ?? []);
  const added: { event: string; group: MatcherGroup }[] = [];
  const updated: { event: string; at: number; group: MatcherGroup }[] = [];
  const earlierKeys: string[] = [];
  for (const h of HOOK_EVENTS) {
    const command = hookCommand(binary, h.arg);
    const group: MatcherGroup = { ...(h.matcher !== undefined ? { matcher: h.matcher } : {}), hooks: [{ type: "command", command, timeout: h.timeout, ...(h.async ? { async: true } : {}) }] };
    const groups = hooks[h.event];
    if (groups !== undefined && !Array.isArray(groups)) throw new UserError(`hooks.${h.event} in ${path} is not a list; fix it first.`);
    const list = (groups ?? []) as unknown[];
    const mine = (c: HookCommand) => c?.command === command;
    // A group holding only a hook an earlier install wrote for this event is ours to bring up to date.
    const earlier = (c: HookCommand) => mine(c) || legacyArg(c?.command) === h.arg || (known.has(c?.command) && c.command.endsWith(` hook ${h.arg}`));
    const at = list.findIndex((g) => isGroup(g) && g.hooks.some(mine));
    const old = at === -1 ? list.findIndex((g) => isGroup(g) && g.hooks.length === 1 && earlier(g.hooks[0])) : at;
    if (old === -1) added.push({ event: h.event, group });
    else if ((list[old] as MatcherGroup).hooks.length === 1 && JSON.stringify(list[old]) !== JSON.stringify(group)) {
      updated.push({ event: h.event, at: old, group });
      // A list holding nothing but that earlier install's group was made by it: uninstall may remove it.
      if (list.length === 1) earlierKeys.push(h.event);
    }
  }
  const result: HooksResult = { settings: path, added: added.map((a) => a.group.hooks[0].command), updated: updated.map((u) => u.group.hooks[0].command), removed: [], backup: null };
  if (!added.length && !updated.length) return result;

  const created = m.created?.[path] ?? { keys: [] };
  created.keys.push(...earlierKeys);
  if (earlierKeys.length && earlierKeys.length === Object.keys(hooks).length) created.keys.push("hooks");
  if (!text.trim()) {
    text = JSON.stringify({ hooks: Object.fromEntries(added.map((a) => [a.event, [a.group]])) }, null, 2) + "\n";
    created.file ||= !existed;
    created.keys = ["hooks"];
  } else {
    const layout = layoutOf(text);
    for (const u of updated) text = insertAt(text, ["hooks", u.event, u.at], u.group, layout);
    if (settings.hooks === undefined) {
      text = insertAt(text, ["hooks"], Object.fromEntries(added.map((a) => [a.event, [a.group]])), layout);
      created.keys.push("hooks");
    } else {
      for (const a of added) {
        const fresh = hooks[a.event] === undefined;
        text = insertAt(text, ["hooks", a.event, ...(fresh ? [] : [-1])], fresh ? [a.group] : a.group, layout, !fresh);
        if (fresh) created.keys.push(a.event);
      }
    }
  }
  result.backup = backup(path, env, now);
  const dirs = missingParents(path);
  writeFileAtomic(path, text);
  m.installed[path] = [...new Set([...(m.installed[path] ?? []), ...result.added, ...result.updated])];
  m.created = { ...m.created, [path]: { ...created, keys: [...new Set(created.keys)] } };
  m.dirs = [...new Set([...(m.dirs ?? []), ...dirs])];
  writeManifest(env, m);
  return result;
}

/** The first hook of ours in `hooks`: its command, and the path to remove (its group when that holds only it). */
function findOurs(hooks: Record<string, unknown>, ours: (c: unknown) => boolean): { at: JSONPath; command: string } | null {
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const [gi, g] of groups.entries()) {
      if (!isGroup(g)) continue;
      const hi = g.hooks.findIndex((c) => ours(c?.command));
      if (hi === -1) continue;
      // A group that held only our hook was ours: it goes; any other group keeps its other hooks.
      return { at: g.hooks.length === 1 ? ["hooks", event, gi] : ["hooks", event, gi, "hooks", hi], command: g.hooks[hi].command };
    }
  }
  return null;
}

export function uninstallHooks(path: string, env: NodeJS.ProcessEnv, now: Date): HooksResult {
  const m = readManifest(env);
  const known = new Set(m.installed[path] ?? []);
  const portable = new Set(HOOK_ARGS.map((a) => hookCommand(null, a)));
  const ours = (c: unknown) => typeof c === "string" && (known.has(c) || portable.has(c) || legacyArg(c) !== null);
  const result: HooksResult = { settings: path, added: [], updated: [], removed: [], backup: null };
  if (!existsSync(path)) return result;
  let text = readFileSync(path, "utf8");
  let settings = parseSettings(path, text);
  const record = m.created?.[path];
  // Without a record (another person's install, an older version), a list MindSave emptied goes.
  const createdKey = (k: string) => !record || record.keys.includes(k) || record.keys.includes("hooks");
  const hooksOf = () => (settings.hooks ?? {}) as Record<string, unknown[]>;
  const emptied = new Set<string>();
  for (let hit = findOurs(hooksOf(), ours); hit; hit = findOurs(hooksOf(), ours)) {
    result.removed.push(hit.command);
    text = removeAt(text, hit.at);
    emptied.add(String(hit.at[1]));
    settings = parseSettings(path, text);
  }
  if (!result.removed.length) return result;
  for (const event of emptied) {
    if (Array.isArray(hooksOf()[event]) && !hooksOf()[event].length && createdKey(event)) {
      text = removeAt(text, ["hooks", event]);
      settings = parseSettings(path, text);
    }
  }
  if (settings.hooks && !Object.keys(hooksOf()).length && (!record || record.keys.includes("hooks"))) text = removeAt(text, ["hooks"]);
  result.backup = backup(path, env, now);
  if (record?.file && text.replace(/\s/g, "") === "{}") {
    // The file install created holds nothing else: it goes, and its folder when install made that too.
    rmSync(path);
    result.deleted = [path];
  } else writeFileAtomic(path, text);
  delete m.installed[path];
  if (m.created) delete m.created[path];
  writeManifest(env, m);
  const dir = dirname(path);
  removeCreatedDirs(env);
  if (result.deleted && !existsSync(dir)) result.deleted.push(dir);
  return result;
}
