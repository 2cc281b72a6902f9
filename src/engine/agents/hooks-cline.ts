// Cline's hooks are executables named after the event in a hooks folder (`.clinerules/hooks/` of
// the workspace, `~/Documents/Cline/Hooks/` for every workspace): extensionless and executable on
// Linux and macOS, `<Event>.ps1` run by PowerShell on Windows (cline/cline
// apps/vscode/src/core/hooks/utils.ts `resolveExistingHookPath`). Each of ours is a small script
// that passes the hook's stdin to `mindsave hook <EVENT> --agent cline`. A script of the user's own
// under the same name is left alone (and said so); uninstall removes only files that carry our
// header, and the folders install created.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../lib/fs.ts";
import { agentHookCommand, agentHooks, type AgentHookEvent } from "./agent-hooks.ts";
import { noteCreatedDirs, removeCreatedDirs } from "./hooks-manifest.ts";
import type { HooksState } from "./hooks-json.ts";

const MARK = "written by `mindsave hooks install --agent cline`";

/** Cline on Linux and macOS runs `<Event>`, on Windows `<Event>.ps1` (and ignores the other). */
export type ClinePlatform = "posix" | "windows";
export const HERE: ClinePlatform = process.platform === "win32" ? "windows" : "posix";

export function clineScriptName(event: string, platform: ClinePlatform = HERE): string {
  return platform === "windows" ? `${event}.ps1` : event;
}

/** The script for one event. */
export function clineScript(
  e: AgentHookEvent,
  binary: string | null,
  platform: ClinePlatform = HERE,
): string {
  const header = `MindSave's Cline ${e.event} hook: ${MARK}; \`mindsave hooks uninstall --agent cline\` removes it.`;
  if (platform === "posix") return `#!/bin/sh\n# ${header}\n${agentHookCommand("cline", binary, e.arg)}\n`;
  // Windows PowerShell pipes text to a program in $OutputEncoding (ASCII by default): UTF-8, so any language survives.
  const exe = binary ? `'${binary.replace(/'/g, "''")}'` : "$null";
  return [
    `# ${header}`,
    "$utf8 = New-Object System.Text.UTF8Encoding $false",
    "$OutputEncoding = $utf8; try { [Console]::InputEncoding = $utf8 } catch {}",
    `$m = ${exe}`,
    "if (-not $m) { $m = Join-Path $HOME '.mindsave\\bin\\mindsave.exe'; if (-not (Test-Path $m)) { $m = (Get-Command mindsave -ErrorAction SilentlyContinue).Source } }",
    "if (-not $m) { exit 0 }",
    `[Console]::In.ReadToEnd() | & $m hook ${e.arg} --agent cline`,
    "exit 0",
    "",
  ].join("\r\n");
}

const read = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : null);

export interface ClineResult {
  action: "installed" | "updated" | "unchanged" | "removed" | "absent";
  /** The scripts written or removed. */
  files: string[];
  /** Scripts of the user's own under an event's name, left alone. */
  skipped: string[];
}

function scripts(dir: string, binary: string | null, platforms: ClinePlatform[]) {
  return agentHooks("cline").events.flatMap((e) =>
    platforms.map((p) => ({
      event: e.event,
      path: join(dir, clineScriptName(e.event, p)),
      text: clineScript(e, binary, p),
      here: p === HERE,
    })),
  );
}

/** The binary an earlier install wrote (`--command`), read back from one of its scripts. */
function installedBinary(dir: string): string | null {
  for (const s of scripts(dir, null, [HERE])) {
    const text = read(s.path);
    const m = text?.includes(MARK)
      ? (/^'((?:[^']|'\\'')*)' hook /m.exec(text) ?? /^\$m = '((?:[^']|'')*)'/m.exec(text))
      : null;
    if (m) return m[1].replace(/'\\''/g, "'").replace(/''/g, "'");
  }
  return null;
}

export function clineHooksState(dir: string): HooksState {
  const expected = scripts(dir, installedBinary(dir), ["posix", "windows"]);
  const all = expected.map((s) => read(s.path));
  if (!all.some((t, i) => expected[i].here && t?.includes(MARK))) return "absent";
  // This platform's script of each event is ours and current, or the user's own (install leaves that
  // alone); the other platform's, written for a shared project folder, is current where it is ours.
  const fine = (t: string | null, i: number) =>
    t === expected[i].text || (t === null ? !expected[i].here : !t.includes(MARK));
  return all.every(fine) ? "current" : "outdated";
}

/**
 * Writes the scripts: for this platform, and for a project's folder (shared through the
 * repository) Windows' and the others' both, unless `binary` names this machine's own binary.
 */
export function installClineHooks(
  dir: string,
  binary: string | null,
  env: NodeJS.ProcessEnv,
  shared: boolean,
): ClineResult {
  const r: ClineResult = { action: "unchanged", files: [], skipped: [] };
  let updated = false;
  // An event with a script of the user's own (for either platform) stays theirs, on every platform.
  const theirs = new Set(
    agentHooks("cline")
      .events.filter((e) =>
        (["posix", "windows"] as const).some((p) => {
          const text = read(join(dir, clineScriptName(e.event, p)));
          return text !== null && !text.includes(MARK);
        }),
      )
      .map((e) => e.event),
  );
  for (const s of scripts(dir, binary, shared && !binary ? ["posix", "windows"] : [HERE])) {
    const text = read(s.path);
    if (theirs.has(s.event)) {
      if (text !== null && !text.includes(MARK)) r.skipped.push(s.path);
      continue;
    }
    if (text === s.text) continue;
    updated ||= text !== null;
    noteCreatedDirs(env, s.path);
    writeFileAtomic(s.path, s.text, { mode: 0o755 });
    r.files.push(s.path);
  }
  if (r.files.length) r.action = updated ? "updated" : "installed";
  return r;
}

export function uninstallClineHooks(dir: string, env: NodeJS.ProcessEnv): ClineResult {
  const r: ClineResult = { action: "absent", files: [], skipped: [] };
  // Every platform's name: a folder shared between machines may hold either.
  for (const e of agentHooks("cline").events) {
    for (const path of [join(dir, e.event), join(dir, `${e.event}.ps1`)]) {
      if (!read(path)?.includes(MARK)) continue;
      rmSync(path);
      r.files.push(path);
    }
  }
  if (r.files.length) r.action = "removed";
  removeCreatedDirs(env);
  return r;
}
