// `mindsave hooks install|uninstall [--agent claude] [--project|--user]`: Claude Code hooks.
import { existsSync } from "node:fs";
import { UserError } from "../errors.ts";
import { installHooks, localBinary, settingsPath, uninstallHooks } from "../engine/agents/hooks.ts";
import { resolveWorkspace } from "../engine/projects/workspace.ts";
import { print, printJson, warn } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

interface HooksFlags {
  agent?: string;
  project?: boolean;
  user?: boolean;
  command?: string;
}

function target(opts: HooksFlags, g: GlobalOptions): string {
  if (opts.agent && opts.agent !== "claude") throw new UserError(`Hooks exist for Claude Code only (--agent claude); for other agents use \`mindsave mcp\` or \`mindsave skill\`.`);
  if (opts.project && opts.user) throw new UserError("Choose one of --project and --user.");
  const root = opts.project ? resolveWorkspace(process.cwd(), { override: g.workspace, create: false })?.root ?? g.workspace ?? process.cwd() : null;
  return settingsPath(opts.project ? "project" : "user", process.env, root);
}

export async function install(opts: HooksFlags, _a: string[], g: GlobalOptions): Promise<number> {
  const path = target(opts, g);
  // The hooks run the copy in ~/.mindsave/bin (else `mindsave` on PATH), so an unplugged drive
  // never breaks a session; a hook that finds neither does nothing.
  if (!opts.command && !existsSync(localBinary(process.env)) && !Bun.which("mindsave")) {
    const advice = `${localBinary(process.env)} is not installed yet and \`mindsave\` is not on PATH; run \`mindsave install\` (the hooks call that local copy, never the drive)`;
    // A project's settings are shared: they are right for teammates who have MindSave even when
    // this machine does not have it yet. Personal settings would just do nothing: refuse those.
    if (!opts.project) throw new UserError(`${advice} first.`);
    warn(`${advice}; until then these hooks do nothing here.`);
  }
  const r = installHooks(path, opts.command ?? null, process.env, new Date());
  if (g.json) printJson(r);
  else if (!r.added.length && !r.updated.length) print(`MindSave's hooks are already in ${r.settings}; nothing changed.`);
  else {
    const events = (cs: string[]) => cs.map((c) => / hook (\S+)$/.exec(c)?.[1] ?? c).join(", ");
    if (r.added.length) print(`Added ${r.added.length} MindSave hook(s) to ${r.settings}${r.backup ? ` (backup: ${r.backup})` : ""}: ${events(r.added)}.`);
    if (r.updated.length) print(`Updated ${r.updated.length} MindSave hook(s) in ${r.settings} from an earlier install${r.backup && !r.added.length ? ` (backup: ${r.backup})` : ""}: ${events(r.updated)}.`);
    if (opts.command) print(`They run ${opts.command}.`);
    else print(`They run ~/.mindsave/bin/mindsave, else \`mindsave\` on PATH, and do nothing where MindSave is not installed${opts.project ? ", so the file can be committed" : ""}.`);
  }
  return 0;
}

export async function uninstall(opts: HooksFlags, _a: string[], g: GlobalOptions): Promise<number> {
  const path = target(opts, g);
  const r = uninstallHooks(path, process.env, new Date());
  if (g.json) printJson(r);
  else if (!r.removed.length) warn(`No hooks added by MindSave were found in ${r.settings}; nothing changed.`);
  else {
    print(`Removed ${r.removed.length} MindSave hook(s) from ${r.settings}${r.backup ? ` (backup: ${r.backup})` : ""}.`);
    if (r.deleted) print(`Install had created ${r.deleted.join(" and ")}; removed, as it was.`);
  }
  return 0;
}
