// Claude Code hooks: merged into settings.json idempotently, every existing hook kept. The file is
// edited in place as every agent's hooks file is (json-edit.ts), so everything else in it
// (indentation, inline arrays, comments, CRLF, a missing final newline) stays byte for byte, and
// uninstall gives back exactly the bytes install found while they are still there. A backup goes to
// ~/.mindsave/backups/settings/ (the newest 5 per file); what install added and created, and its
// insertions, are recorded in the local home (hooks-manifest.ts), so uninstall removes just that.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { UserError } from "../../errors.ts";
import { ensureLocalHome, localHomeDir } from "../home/home.ts";
import { newestRecorded, recordAndRotate, taken } from "../home/ledger.ts";
import { copyFileAtomic, missingParents, writeFileAtomic } from "../../lib/fs.ts";
import { readManifest, removeCreatedDirs, writeManifest } from "./hooks-manifest.ts";
import {
  appendElement,
  insertProperty,
  readJsonc,
  replaceValue,
  undoInsertions,
  type Insertion,
} from "./json-edit.ts";
import { commandsOf, takeOutHooks } from "./hooks-json.ts";
import { HOOK_ARGS, HOOK_EVENTS } from "./agent-hooks.ts";

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

/** A settings file's value; comments and trailing commas are allowed, anything else unreadable is refused. */
function parseSettings(path: string, text: string): Record<string, unknown> {
  let v: Record<string, unknown>;
  try {
    v = readJsonc(text, path) as Record<string, unknown>;
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    throw new UserError(
      `${path} is not valid JSON; fix it first (MindSave will not overwrite a settings file it cannot read).`,
    );
  }
  const hooks = v.hooks;
  if (hooks === undefined || (hooks && typeof hooks === "object" && !Array.isArray(hooks))) return v;
  throw new UserError(
    `"hooks" in ${path} is not an object; fix it first (MindSave will not overwrite a settings file it cannot read).`,
  );
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
  const m =
    typeof command === "string"
      ? /^(['"])[^'"]*[\\/]\.mindsave[\\/]bin[\\/]mindsave(?:\.exe)?\1 hook ([a-z-]+)$/.exec(command)
      : null;
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
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  const named = (n: number) => join(dir, `${prefix}${stamp}.${String(n).padStart(4, "0")}.json`);
  let n = Number(/\.(\d+)\.json$/.exec(newestRecorded(ledger, ofThisFile) ?? "")?.[1] ?? 0) + 1;
  // A name already there (anything, a link included) is never written over.
  while (taken(named(n))) n++;
  const to = named(n);
  copyFileAtomic(path, to);
  recordAndRotate(ledger, to, { keep: KEEP_SETTINGS_BACKUPS, group: ofThisFile });
  return to;
}

const isGroup = (g: unknown): g is MatcherGroup =>
  !!g && typeof g === "object" && Array.isArray((g as MatcherGroup).hooks);

type HookSpec = (typeof HOOK_EVENTS)[number];

/** What install changes in a settings file: our hooks added, an earlier install's brought up to date. */
interface HookChanges {
  added: { event: string; group: MatcherGroup }[];
  updated: { event: string; at: number; group: MatcherGroup }[];
  /** Events whose list held nothing but that earlier install's group: it made them, uninstall may remove them. */
  earlierKeys: string[];
}

/** Our matcher group for an event. */
function hookGroup(h: HookSpec, binary: string | null): MatcherGroup {
  return {
    ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
    hooks: [
      {
        type: "command",
        command: hookCommand(binary, h.arg),
        timeout: h.timeout,
        ...(h.async ? { async: true } : {}),
      },
    ],
  };
}

/**
 * Where an event's list holds our group: the one with our command, else one holding only a hook an
 * earlier install wrote for this event (ours to bring up to date); -1 for none.
 */
function ourGroupAt(list: unknown[], h: HookSpec, command: string, known: Set<string>): number {
  const mine = (c: HookCommand) => c?.command === command;
  const earlier = (c: HookCommand) =>
    mine(c) ||
    legacyArg(c?.command) === h.arg ||
    (known.has(c?.command) && c.command.endsWith(` hook ${h.arg}`));
  const at = list.findIndex((g) => isGroup(g) && g.hooks.some(mine));
  return at === -1 ? list.findIndex((g) => isGroup(g) && g.hooks.length === 1 && earlier(g.hooks[0])) : at;
}

function hookChanges(
  path: string,
  binary: string | null,
  hooks: Record<string, unknown>,
  known: Set<string>,
): HookChanges {
  const changes: HookChanges = { added: [], updated: [], earlierKeys: [] };
  for (const h of HOOK_EVENTS) {
    const group = hookGroup(h, binary);
    const groups = hooks[h.event];
    if (groups !== undefined && !Array.isArray(groups))
      throw new UserError(`hooks.${h.event} in ${path} is not a list; fix it first.`);
    const list = (groups ?? []) as unknown[];
    const old = ourGroupAt(list, h, group.hooks[0].command, known);
    if (old === -1) changes.added.push({ event: h.event, group });
    else if (
      (list[old] as MatcherGroup).hooks.length === 1 &&
      JSON.stringify(list[old]) !== JSON.stringify(group)
    ) {
      changes.updated.push({ event: h.event, at: old, group });
      if (list.length === 1) changes.earlierKeys.push(h.event);
    }
  }
  return changes;
}

/**
 * The settings text with the changes made: an earlier install's groups brought up to date where
 * they stand; what is added is recorded as insertions (`steps`), which uninstall cuts out again.
 * `created` gains the keys install made.
 */
function applyHookChanges(
  text: string,
  settings: Record<string, unknown>,
  changes: HookChanges,
  created: { file?: boolean; keys: string[] },
  path: string,
): { text: string; steps: Insertion[][] } {
  for (const u of changes.updated) text = replaceValue(text, ["hooks", u.event, u.at], u.group);
  const steps: Insertion[][] = [];
  const step = (r: { text: string; insertions: Insertion[] }) => {
    steps.push(r.insertions);
    text = r.text;
  };
  const hooks = settings.hooks as Record<string, unknown> | undefined;
  if (hooks === undefined) {
    const all = Object.fromEntries(changes.added.map((a) => [a.event, [a.group]]));
    step(insertProperty(text, ["hooks"], all, path));
    created.keys.push("hooks");
    return { text, steps };
  }
  for (const a of changes.added) {
    const fresh = hooks[a.event] === undefined;
    step(
      fresh
        ? insertProperty(text, ["hooks", a.event], [a.group], path)
        : appendElement(text, ["hooks", a.event], a.group, path),
    );
    if (fresh) created.keys.push(a.event);
  }
  return { text, steps };
}

export function installHooks(
  path: string,
  binary: string | null,
  env: NodeJS.ProcessEnv,
  now: Date,
): HooksResult {
  const existed = existsSync(path);
  const before = existed ? readFileSync(path, "utf8") : "";
  const settings = parseSettings(path, before);
  const hooks = (settings.hooks ?? {}) as Record<string, unknown>;
  const m = readManifest(env);
  const changes = hookChanges(path, binary, hooks, new Set(m.installed[path] ?? []));
  const { added, updated, earlierKeys } = changes;
  const result: HooksResult = {
    settings: path,
    added: added.map((a) => a.group.hooks[0].command),
    updated: updated.map((u) => u.group.hooks[0].command),
    removed: [],
    backup: null,
  };
  if (!added.length && !updated.length) return result;

  const created = m.created?.[path] ?? { keys: [] };
  created.keys.push(...earlierKeys);
  if (earlierKeys.length && earlierKeys.length === Object.keys(hooks).length) created.keys.push("hooks");
  if (settings.hooks === undefined && !before.trim()) created.file ||= !existed;
  const { text, steps } = applyHookChanges(before, settings, changes, created, path);
  result.backup = backup(path, env, now);
  const dirs = missingParents(path);
  writeFileAtomic(path, text);
  m.installed[path] = [...new Set([...(m.installed[path] ?? []), ...result.added, ...result.updated])];
  m.created = {
    ...m.created,
    [path]: { ...created, keys: [...new Set(created.keys)], steps: [...(created.steps ?? []), ...steps] },
  };
  m.dirs = [...new Set([...(m.dirs ?? []), ...dirs])];
  writeManifest(env, m);
  return result;
}

/** Our commands in `hooks`, in the file's order. */
function oursIn(hooks: Record<string, unknown>, ours: (c: unknown) => boolean): string[] {
  return Object.values(hooks).flatMap((groups) =>
    (Array.isArray(groups) ? groups : []).flatMap((g) => commandsOf(g, "grouped").filter(ours)),
  );
}

/**
 * The settings text without our hooks. The exact way back: install's insertions cut out, last
 * first, while they are all still there. Otherwise (an earlier install's groups updated in place, a
 * file changed since) ours go by key; without a record (another person's install, an older
 * version), a list MindSave emptied goes.
 */
function withoutOurHooks(
  text: string,
  path: string,
  record: { keys: string[]; steps?: Insertion[][] } | undefined,
  ours: (c: unknown) => boolean,
): string {
  let undone: string | null = text;
  for (const s of [...(record?.steps ?? [])].reverse())
    undone = undone === null ? null : undoInsertions(undone, s);
  if (
    undone !== null &&
    !oursIn((parseSettings(path, undone).hooks ?? {}) as Record<string, unknown>, ours).length
  )
    return undone;
  const made = (k: string) => !record || record.keys.includes(k) || record.keys.includes("hooks");
  return takeOutHooks(undone ?? text, path, {
    ours: (g) => commandsOf(g, "grouped").some(ours),
    grouped: true,
    made,
    madeHooks: !record || record.keys.includes("hooks"),
  });
}

export function uninstallHooks(path: string, env: NodeJS.ProcessEnv, now: Date): HooksResult {
  const m = readManifest(env);
  const known = new Set(m.installed[path] ?? []);
  const portable = new Set(HOOK_ARGS.map((a) => hookCommand(null, a)));
  const ours = (c: unknown) =>
    typeof c === "string" && (known.has(c) || portable.has(c) || legacyArg(c) !== null);
  const result: HooksResult = { settings: path, added: [], updated: [], removed: [], backup: null };
  if (!existsSync(path)) return result;
  const text = readFileSync(path, "utf8");
  result.removed = oursIn((parseSettings(path, text).hooks ?? {}) as Record<string, unknown>, ours);
  if (!result.removed.length) return result;
  const record = m.created?.[path];
  const out = withoutOurHooks(text, path, record, ours);
  result.backup = backup(path, env, now);
  if (record?.file && ["", "{}"].includes(out.replace(/\s/g, ""))) {
    // The file install created holds nothing else: it goes, and its folder when install made that too.
    rmSync(path);
    result.deleted = [path];
  } else writeFileAtomic(path, out);
  delete m.installed[path];
  if (m.created) delete m.created[path];
  writeManifest(env, m);
  const dir = dirname(path);
  removeCreatedDirs(env);
  if (result.deleted && !existsSync(dir)) result.deleted.push(dir);
  return result;
}

/**
 * Whether a settings file holds the hooks MindSave's install recorded there: absent (none of them
 * left), current (every event has one), or outdated (some events lack theirs).
 */
export function claudeHooksState(path: string, env: NodeJS.ProcessEnv): "absent" | "current" | "outdated" {
  const commands = readManifest(env).installed?.[path];
  if (!Array.isArray(commands) || !commands.length || !existsSync(path)) return "absent";
  const text = readFileSync(path, "utf8");
  const present = commands.filter((c) => text.includes(JSON.stringify(c).slice(1, -1)));
  if (!present.length) return "absent";
  const events = new Set(present.map((c) => c.split(" hook ").at(-1)));
  return HOOK_ARGS.every((a) => events.has(a)) ? "current" : "outdated";
}
