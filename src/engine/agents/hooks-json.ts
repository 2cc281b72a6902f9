// MindSave's hooks in an agent's JSON hooks file: Codex's hooks.json and Gemini CLI's
// settings.json hold matcher groups (`{matcher?, hooks: [handler]}`, as Claude Code's do);
// Copilot CLI's hooks/mindsave.json and Cursor's hooks.json hold flat entries under
// `{"version": 1, "hooks": {…}}`. Each file is edited in place (json-edit.ts): every other byte is
// kept, and each edit's insertions are recorded in the hooks manifest (hooks.ts), so uninstall gives
// the file back byte for byte while it is unchanged since, and otherwise takes out just our entries.
//
// Codex reads hooks both from hooks.json and from [hooks] tables in config.toml, in every config
// layer. MindSave writes hooks.json: Codex itself writes the trust state of hooks into config.toml
// (`[hooks.state."…"]` after a /hooks review), and a block of ours in a file Codex rewrites could be
// split by its own tables; hooks.json is a file Codex only reads, and the trust hash is the same for
// either format. (Codex warns when one layer has hooks in both.)
import { existsSync, readFileSync, rmSync } from "node:fs";
import { UserError } from "../../errors.ts";
import { missingParents, removeEmptyDirs, writeFileAtomic } from "../../lib/fs.ts";
import {
  agentHookCommand,
  isAgentHookCommand,
  type AgentHookEvent,
  type AgentHooksSpec,
} from "./agent-hooks.ts";
import { readManifest, writeManifest } from "./hooks-manifest.ts";
import {
  appendElement,
  cutOut,
  insertProperty,
  readJsonc,
  undoInsertions,
  valueAt,
  type Insertion,
} from "./json-edit.ts";
import type { AgentId } from "./registry.ts";

/** What install did to one file: recorded so uninstall can undo exactly that. */
export interface JsonHooksRecord {
  agent: AgentId;
  /** Each edit's insertions, in order; undone last first. */
  steps: Insertion[][];
  /** The file did not exist before. */
  created: boolean;
  /** The keys install created: "hooks", or event names under it. */
  keys: string[];
  /** Folders install created for the file. */
  dirs: string[];
  /** `--command`, when given. */
  binary: string | null;
}

export type HooksState = "absent" | "current" | "outdated" | "unreadable";

export interface JsonHooksResult {
  action: "installed" | "updated" | "unchanged" | "removed" | "absent";
  /** The file was created by install, or deleted by uninstall. */
  wholeFile: boolean;
  /** Uninstall gave the file back exactly as it was before install. */
  exact?: boolean;
}

type Element = Record<string, unknown>;

/** The handler of one event, in the agent's documented shape. */
function handler(spec: AgentHooksSpec, e: AgentHookEvent, binary: string | null): Element {
  const t = (key: string) => (e.timeout !== undefined ? { [key]: e.timeout } : {});
  switch (spec.agent) {
    case "copilot":
      return {
        type: "command",
        bash: agentHookCommand("copilot", binary, e.arg),
        powershell: agentHookCommand("copilot", binary, e.arg, "powershell"),
        ...t("timeoutSec"),
      };
    case "cursor":
      return { command: agentHookCommand("cursor", binary, e.arg), ...t("timeout") };
    case "gemini":
      // Gemini CLI runs hooks with PowerShell on Windows, bash elsewhere (hookRunner.ts).
      return {
        type: "command",
        name: `mindsave-${e.arg}`,
        command: agentHookCommand(
          "gemini",
          binary,
          e.arg,
          process.platform === "win32" ? "powershell" : "sh",
        ),
        ...t("timeout"),
      };
    default:
      return { type: "command", command: agentHookCommand(spec.agent, binary, e.arg), ...t("timeout") };
  }
}

/** The element MindSave adds to `hooks.<event>` for each of the agent's events. */
export function jsonEntries(
  spec: AgentHooksSpec,
  binary: string | null,
): { event: string; value: Element }[] {
  return spec.events.map((e) => {
    const h = handler(spec, e, binary);
    return {
      event: e.event,
      value:
        spec.format === "grouped"
          ? { ...(e.matcher !== undefined ? { matcher: e.matcher } : {}), hooks: [h] }
          : h,
    };
  });
}

/** The commands an element runs (a group's handlers, or an entry's own). */
export function commandsOf(el: unknown, format: AgentHooksSpec["format"]): string[] {
  if (!el || typeof el !== "object") return [];
  const list = format === "grouped" ? ((el as { hooks?: unknown }).hooks as unknown[]) : [el];
  if (!Array.isArray(list)) return [];
  return list.flatMap((h) =>
    h && typeof h === "object"
      ? [(h as Element).command ?? (h as Element).bash].filter((c): c is string => typeof c === "string")
      : [],
  );
}

const read = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : null);

/** The file's `hooks` object (undefined when it has none); anything MindSave cannot read is refused. */
function hooksOf(text: string, path: string, events: string[]): Record<string, unknown[]> | undefined {
  const hooks = (readJsonc(text, path) as Element).hooks;
  if (hooks === undefined) return undefined;
  if (!hooks || typeof hooks !== "object" || Array.isArray(hooks))
    throw new UserError(
      `"hooks" in ${path} is not an object; fix it first (MindSave will not change a file it cannot read).`,
    );
  for (const e of events) {
    const list = (hooks as Element)[e];
    if (list !== undefined && !Array.isArray(list))
      throw new UserError(
        `hooks.${e} in ${path} is not a list; fix it first (MindSave will not change a file it cannot read).`,
      );
  }
  return hooks as Record<string, unknown[]>;
}

function recordOf(env: NodeJS.ProcessEnv, path: string, agent: AgentId): JsonHooksRecord | undefined {
  const r = readManifest(env).agents?.[path] as JsonHooksRecord | undefined;
  return r && r.agent === agent && Array.isArray(r.steps) ? r : undefined;
}

function saveRecord(env: NodeJS.ProcessEnv, path: string, record: JsonHooksRecord | null): void {
  const m = readManifest(env);
  const agents = { ...m.agents };
  if (record) agents[path] = record;
  else delete agents[path];
  writeManifest(env, { ...m, agents });
}

/** Which elements of `hooks` are MindSave's: by the shape of their command, or the binary install recorded. */
function oursTest(spec: AgentHooksSpec, rec: JsonHooksRecord | undefined): (el: unknown) => boolean {
  const known = new Set(
    jsonEntries(spec, rec?.binary ?? null).flatMap((e) => commandsOf(e.value, spec.format)),
  );
  return (el) => commandsOf(el, spec.format).some((c) => known.has(c) || isAgentHookCommand(spec.agent, c));
}

function countOurs(hooks: Record<string, unknown[]> | undefined, ours: (el: unknown) => boolean): number {
  return Object.values(hooks ?? {}).reduce(
    (n, list) => n + (Array.isArray(list) ? list.filter(ours).length : 0),
    0,
  );
}

/** Whether the file holds MindSave's hooks for the agent, and whether they are what install writes now. */
export function jsonHooksState(spec: AgentHooksSpec, path: string, env: NodeJS.ProcessEnv): HooksState {
  const text = read(path);
  if (text === null) return "absent";
  const rec = recordOf(env, path, spec.agent);
  try {
    const entries = jsonEntries(spec, rec?.binary ?? null);
    const hooks = text.trim()
      ? hooksOf(
          text,
          path,
          entries.map((e) => e.event),
        )
      : undefined;
    const ours = countOurs(hooks, oursTest(spec, rec));
    if (!ours) return "absent";
    const all = entries.every((e) => (hooks?.[e.event] ?? []).some((el) => Bun.deepEquals(el, e.value)));
    return all && ours === entries.length ? "current" : "outdated";
  } catch {
    return "unreadable";
  }
}

export function installJsonHooks(
  spec: AgentHooksSpec,
  path: string,
  binary: string | null,
  env: NodeJS.ProcessEnv,
): JsonHooksResult {
  const entries = jsonEntries(spec, binary);
  const events = entries.map((e) => e.event);
  let text = read(path);
  if (text?.trim()) hooksOf(text, path, events);
  const state = jsonHooksState(spec, path, env);
  const same = recordOf(env, path, spec.agent)?.binary ?? null;
  if (state === "current" && same === binary) return { action: "unchanged", wholeFile: false };
  let action: JsonHooksResult["action"] = "installed";
  if (state === "current" || state === "outdated") {
    // An earlier install (another version, another --command): taken out first, exactly when possible.
    uninstallJsonHooks(spec, path, env);
    text = read(path);
    action = "updated";
  }
  const steps: Insertion[][] = [];
  const keys: string[] = [];
  let t = text ?? "";
  const step = (r: { text: string; insertions: Insertion[] }) => {
    steps.push(r.insertions);
    t = r.text;
  };
  if (!t.trim() || valueAt(t, ["hooks"]) === undefined) {
    // A new file gets the format's version where the agent asks for one (Copilot, Cursor).
    if (!t.trim() && spec.format === "flat") step(insertProperty(t, ["version"], 1, path));
    step(insertProperty(t, ["hooks"], Object.fromEntries(entries.map((e) => [e.event, [e.value]])), path));
    keys.push("hooks");
  } else {
    for (const e of entries) {
      if (valueAt(t, ["hooks", e.event]) === undefined) {
        step(insertProperty(t, ["hooks", e.event], [e.value], path));
        keys.push(e.event);
      } else step(appendElement(t, ["hooks", e.event], e.value, path));
    }
  }
  const dirs = missingParents(path);
  writeFileAtomic(path, t);
  saveRecord(env, path, { agent: spec.agent, steps, created: text === null, keys, dirs, binary });
  return { action, wholeFile: text === null };
}

/** How a hooks file's MindSave elements are told and which keys its install made (Claude Code's settings too, hooks.ts). */
export interface TakeOut {
  ours: (el: unknown) => boolean;
  /** Matcher groups (`{matcher?, hooks: [handler]}`) rather than flat entries. */
  grouped: boolean;
  /** An event key install made: it goes when left empty. */
  made: (key: string) => boolean;
  /** Install made `hooks` itself: it goes when left empty. */
  madeHooks: boolean;
}

/** `text` without MindSave's elements (and the keys install made that are left empty), each taken out by its key. */
export function takeOutHooks(text: string, path: string, t: TakeOut): string {
  const emptied = new Set<string>();
  for (;;) {
    const hooks = hooksOf(text, path, []) ?? {};
    let at: (string | number)[] | null = null;
    for (const [event, list] of Object.entries(hooks)) {
      if (!Array.isArray(list)) continue;
      const i = list.findIndex(t.ours);
      if (i === -1) continue;
      const group = list[i] as { hooks: unknown[] };
      // A group holding other handlers besides ours keeps them.
      const own = !t.grouped || group.hooks.every((h) => t.ours({ hooks: [h] }));
      at = own
        ? ["hooks", event, i]
        : ["hooks", event, i, "hooks", group.hooks.findIndex((h) => t.ours({ hooks: [h] }))];
      emptied.add(event);
      break;
    }
    if (!at) break;
    text = cutOut(text, at);
  }
  for (const event of emptied) {
    const left = valueAt(text, ["hooks", event]);
    if (Array.isArray(left) && !left.length && t.made(event)) text = cutOut(text, ["hooks", event]);
  }
  const hooks = valueAt(text, ["hooks"]);
  if (hooks && typeof hooks === "object" && !Object.keys(hooks).length && t.madeHooks)
    text = cutOut(text, ["hooks"]);
  return text;
}

/** `text` without MindSave's elements for this agent, by the record of its install (none: every key they leave empty). */
function takeOut(spec: AgentHooksSpec, text: string, path: string, rec: JsonHooksRecord | undefined): string {
  const made = (k: string) => !rec || rec.keys.includes(k) || rec.keys.includes("hooks");
  return takeOutHooks(text, path, {
    ours: oursTest(spec, rec),
    grouped: spec.format === "grouped",
    made,
    madeHooks: !rec || rec.keys.includes("hooks"),
  });
}

export function uninstallJsonHooks(
  spec: AgentHooksSpec,
  path: string,
  env: NodeJS.ProcessEnv,
): JsonHooksResult {
  const text = read(path);
  const rec = recordOf(env, path, spec.agent);
  const none: JsonHooksResult = { action: "absent", wholeFile: false };
  if (text === null) {
    if (rec) saveRecord(env, path, null);
    return none;
  }
  const hooks = text.trim() ? hooksOf(text, path, []) : undefined;
  if (!countOurs(hooks, oursTest(spec, rec))) {
    if (rec) saveRecord(env, path, null);
    return none;
  }
  // The exact way back: each insertion taken out, last first, while they are all still there.
  let undone: string | null = text;
  for (const s of [...(rec?.steps ?? [])].reverse())
    undone = undone === null ? null : undoInsertions(undone, s);
  const exact =
    !!rec &&
    undone !== null &&
    !countOurs(undone.trim() ? hooksOf(undone, path, []) : undefined, oursTest(spec, rec));
  const out = exact ? undone! : takeOut(spec, text, path, rec);
  saveRecord(env, path, null);
  // A file install created goes when nothing else is left in it (but the version install put there).
  const leftover = out.trim()
    ? Object.keys(readJsonc(out, path) as Element).filter((k) => k !== "version")
    : [];
  if (rec?.created && !leftover.length) {
    rmSync(path);
    removeEmptyDirs(rec.dirs);
    return { action: "removed", wholeFile: true, exact };
  }
  writeFileAtomic(path, out);
  return { action: "removed", wholeFile: false, exact };
}
