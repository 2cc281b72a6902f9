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
  // The hooks run the copy in ~/.mindsave/bin, so an unplugged drive never breaks a session.
  const binary = opts.command ?? localBinary(process.env);
  if (!opts.command && !existsSync(binary)) {
    throw new UserError(`${binary} is not installed yet; run \`mindsave install\` first (the hooks call that local copy, never the drive).`);
  }
  const r = installHooks(path, binary, process.env, new Date());
  if (g.json) printJson(r);
  else if (!r.added.length && !r.updated.length) print(`MindSave's hooks are already in ${r.settings}; nothing changed.`);
  else {
    if (r.added.length) print(`Added ${r.added.length} MindSave hook(s) to ${r.settings}${r.backup ? ` (backup: ${r.backup})` : ""}:`);
    for (const c of r.added) print(`  ${c}`);
    if (r.updated.length) print(`Updated ${r.updated.length} MindSave hook(s) in ${r.settings} from an earlier install${r.backup && !r.added.length ? ` (backup: ${r.backup})` : ""}:`);
    for (const c of r.updated) print(`  ${c}`);
  }
  return 0;
}

export async function uninstall(opts: HooksFlags, _a: string[], g: GlobalOptions): Promise<number> {
  const path = target(opts, g);
  const r = uninstallHooks(path, process.env, new Date());
  if (g.json) printJson(r);
  else if (!r.removed.length) warn(`No hooks added by MindSave were found in ${r.settings}; nothing changed.`);
  else print(`Removed ${r.removed.length} MindSave hook(s) from ${r.settings}${r.backup ? ` (backup: ${r.backup})` : ""}.`);
  return 0;
}
