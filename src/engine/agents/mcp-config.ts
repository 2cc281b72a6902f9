// `mindsave mcp install|uninstall --agent NAME`: the `mindsave` MCP server entry in an agent's
// MCP settings, in the shape its docs give. JSON/JSONC files are edited in place (json-edit.ts);
// the insertions are recorded in the local home so uninstall gives the file back byte for byte
// while it is unchanged, and removes just the entry otherwise. Codex's TOML gets a block between
// marker comments (lib/blocks.ts), which removal takes out exactly.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import { block, findBlock, putBlock, takeBlock, type Markers } from "../../lib/blocks.ts";
import { missingParents, removeEmptyDirs, writeFileAtomic } from "../../lib/fs.ts";
import { ensureLocalHome, localHomeDir } from "../home/home.ts";
import {
  insertProperty,
  readJsonc,
  removeProperty,
  replaceValue,
  undoInsertions,
  valueAt,
  type Insertion,
} from "./json-edit.ts";
import { agentSpec, type AgentId, type McpSpec, type Place, type Scope } from "./registry.ts";
import { localBinary } from "./hooks.ts";

/** The server's name in every agent's settings. */
export const SERVER_NAME = "mindsave";
/** The command agents run: the binary on PATH, so one entry works on every machine (see the README). */
export const SERVER_COMMAND = "mindsave";

const tomlMarkers = (agent: AgentId): Markers => ({
  begin: `# BEGIN mindsave: written by \`mindsave mcp install --agent ${agent}\`; \`mindsave mcp uninstall --agent ${agent}\` removes it`,
  end: "# END mindsave",
});

interface InstallRecord {
  insertions: Insertion[];
  /** The file did not exist before the install. */
  created: boolean;
  /** The servers object did not exist before the install. */
  parentCreated: boolean;
  /** Folders the install created for the file (removed again when empty). */
  dirs?: string[];
}

interface Manifest {
  mcp: { [path: string]: InstallRecord };
}

const manifestPath = (env: NodeJS.ProcessEnv) => join(localHomeDir(env), "mcp-installed.json");

function readManifest(env: NodeJS.ProcessEnv): Manifest {
  try {
    const m = JSON.parse(readFileSync(manifestPath(env), "utf8")) as Manifest;
    return m && typeof m.mcp === "object" ? m : { mcp: {} };
  } catch {
    return { mcp: {} };
  }
}

function saveManifest(env: NodeJS.ProcessEnv, m: Manifest): void {
  ensureLocalHome(env);
  writeFileAtomic(manifestPath(env), JSON.stringify(m, null, 2) + "\n");
}

export function mcpFile(agent: AgentId, scope: Scope, place: Place): string {
  const spec = agentSpec(agent);
  const file = spec.mcp.file(scope, place);
  if (file) return file;
  if (scope === "project" && !place.root)
    throw new UserError("--project needs a workspace: run it inside the project (or give --workspace).");
  throw new UserError(
    `${spec.name} has no ${scope} MCP settings; use --${scope === "user" ? "project" : "user"}.`,
  );
}

const read = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : null);

function tomlEntry(command: string): string {
  return `[mcp_servers.${SERVER_NAME}]\ncommand = ${JSON.stringify(command)}\nargs = ["mcp"]\n`;
}

function parseToml(text: string, path: string): Record<string, unknown> {
  try {
    return Bun.TOML.parse(text) as Record<string, unknown>;
  } catch (e) {
    throw new UserError(`${path} is not TOML MindSave can read (${(e as Error).message}); fix it first.`);
  }
}

const tomlServer = (value: Record<string, unknown>) =>
  (value.mcp_servers as Record<string, unknown> | undefined)?.[SERVER_NAME];

export type EntryState = "absent" | "current" | "outdated" | "unreadable";

/** The keys of the servers object in a JSON or JSONC config file's `text` (see McpSpec.keys). */
function serverKeys(spec: McpSpec, text: string): string[] {
  return spec.keys((path) => valueAt(text, path));
}

/** Whether the file holds our server entry, and whether it is the one install writes now. */
export function mcpState(agent: AgentId, path: string): EntryState {
  const spec = agentSpec(agent).mcp;
  const text = read(path);
  if (text === null) return "absent";
  try {
    const found =
      spec.format === "toml"
        ? tomlServer(parseToml(text, path))
        : (readJsonc(text, path), valueAt(text, [...serverKeys(spec, text), SERVER_NAME]));
    if (found === undefined) return "absent";
    const keys = serverKeys(spec, text);
    return Bun.deepEquals(found, spec.entry(SERVER_COMMAND, keys)) ? "current" : "outdated";
  } catch {
    return "unreadable";
  }
}

export interface McpResult {
  agent: AgentId;
  path: string;
  action: "installed" | "updated" | "unchanged" | "removed" | "absent";
  /** The file was created by the install, or deleted by the uninstall. */
  wholeFile: boolean;
  /** Uninstall gave the file back exactly as it was before the install. */
  exact?: boolean;
  /** Install: why the agent may not be able to start the server (`mindsave` is not on the PATH). */
  warning?: string;
}

/** The agent starts the server as `mindsave`: a warning when that is not on the PATH MindSave was run with. */
function pathWarning(place: Place): string | undefined {
  if (Bun.which(SERVER_COMMAND, { PATH: place.env.PATH ?? "" })) return undefined;
  return `\`${SERVER_COMMAND}\` is not on the PATH, so the agent cannot start this server: put MindSave's folder on the PATH the agent starts with (\`mindsave install\` copies the binary to ${localBinary(place.env)}).`;
}

export function installMcp(agent: AgentId, scope: Scope, place: Place): McpResult {
  const r = writeMcpEntry(agent, scope, place);
  const warning = pathWarning(place);
  return warning ? { ...r, warning } : r;
}

/** Writes the server entry into the agent's MCP settings (as it is already: unchanged). */
function writeMcpEntry(agent: AgentId, scope: Scope, place: Place): McpResult {
  const spec = agentSpec(agent).mcp;
  const path = mcpFile(agent, scope, place);
  const text = read(path);
  const state = text === null ? "absent" : mcpState(agent, path);
  if (state === "current") return { agent, path, action: "unchanged", wholeFile: false };
  if (state === "unreadable") (spec.format === "toml" ? parseToml : readJsonc)(text!, path);
  if (spec.format === "toml") return installToml(agent, path, text, place);
  const keys = [...serverKeys(spec, text ?? ""), SERVER_NAME];
  const entry = spec.entry(SERVER_COMMAND, keys.slice(0, -1));
  if (state === "outdated") {
    writeFileAtomic(path, replaceValue(text!, keys, entry));
    return { agent, path, action: "updated", wholeFile: false };
  }
  const parentCreated = text === null || valueAt(text, keys.slice(0, -1)) === undefined;
  const r = insertProperty(text ?? "", keys, entry, path);
  const dirs = missingParents(path);
  writeFileAtomic(path, r.text);
  const m = readManifest(place.env);
  m.mcp[path] = { insertions: r.insertions, created: text === null, parentCreated, dirs };
  saveManifest(place.env, m);
  return { agent, path, action: "installed", wholeFile: text === null };
}

function installToml(agent: AgentId, path: string, text: string | null, place: Place): McpResult {
  const markers = tomlMarkers(agent);
  const had = text !== null && findBlock(text, markers) !== null;
  if (text !== null && !had && tomlServer(parseToml(text, path)) !== undefined) {
    throw new UserError(
      `${path} already has an [mcp_servers.${SERVER_NAME}] that MindSave did not write; it is left alone.`,
    );
  }
  const next = putBlock(text, markers, block(markers, tomlEntry(SERVER_COMMAND)));
  // The result must still be TOML with our server in it (an inline `mcp_servers = {…}` cannot be extended).
  let ok: boolean;
  try {
    ok = Bun.deepEquals(
      tomlServer(Bun.TOML.parse(next) as Record<string, unknown>),
      agentSpec(agent).mcp.entry(SERVER_COMMAND, []),
    );
  } catch {
    ok = false;
  }
  if (!ok)
    throw new UserError(
      `${path}: MindSave cannot add [mcp_servers.${SERVER_NAME}] to this file without breaking it (is mcp_servers an inline table?); add it by hand: \`codex mcp add ${SERVER_NAME} -- ${SERVER_COMMAND} mcp\`.`,
    );
  const dirs = missingParents(path);
  writeFileAtomic(path, next);
  if (dirs.length) {
    const m = readManifest(place.env);
    m.mcp[path] = { insertions: [], created: true, parentCreated: true, dirs };
    saveManifest(place.env, m);
  }
  return { agent, path, action: had ? "updated" : "installed", wholeFile: text === null };
}

export function uninstallMcp(agent: AgentId, scope: Scope, place: Place): McpResult {
  const spec = agentSpec(agent).mcp;
  const path = mcpFile(agent, scope, place);
  const text = read(path);
  const none: McpResult = { agent, path, action: "absent", wholeFile: false };
  if (text === null) return none;
  if (spec.format === "toml") {
    const rest = takeBlock(text, tomlMarkers(agent));
    if (rest === undefined) return none;
    const m = readManifest(place.env);
    const dirs = m.mcp[path]?.dirs ?? [];
    delete m.mcp[path];
    saveManifest(place.env, m);
    if (rest === null) {
      rmSync(path);
      removeEmptyDirs(dirs);
    } else writeFileAtomic(path, rest);
    return { agent, path, action: "removed", wholeFile: rest === null, exact: true };
  }
  const keys = [...serverKeys(spec, text), SERVER_NAME];
  if (valueAt(text, keys) === undefined) return none;
  const m = readManifest(place.env);
  const rec = m.mcp[path];
  delete m.mcp[path];
  saveManifest(place.env, m);
  const undone = rec ? undoInsertions(text, rec.insertions) : null;
  if (undone !== null && valueAt(undone, keys) === undefined) {
    if (rec!.created && !undone.trim()) {
      rmSync(path);
      removeEmptyDirs(rec!.dirs ?? []);
    } else writeFileAtomic(path, undone);
    return { agent, path, action: "removed", wholeFile: rec!.created && !undone.trim(), exact: true };
  }
  // Changed since the install (or installed elsewhere): take out the entry, and the servers object if we made it and it is empty.
  writeFileAtomic(path, removeProperty(text, keys, rec?.parentCreated ?? false));
  return { agent, path, action: "removed", wholeFile: false, exact: false };
}
