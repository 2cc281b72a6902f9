// Installs the pinned agent CLIs (versions.ts) once, with npm, into a cache outside the checkout:
// ${XDG_CACHE_HOME:-$HOME/.cache}/mindsave-agents/<key>, the key taken from the versions, so a
// later run on this machine reuses it and a new pin installs afresh. Two runs at once never share
// a half-written folder: each installs into its own temp folder, then renames it into place.
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { AGENT_NAMES, AGENTS, type AgentName } from "./versions.ts";

/** An agent ready to run (its executable), or why its scenarios skip. */
export type Installed = { bin: string; skip?: undefined } | { bin?: undefined; skip: string };

/** What one install gave, per agent: written as status.json in the install folder. */
export type InstallStatus = Record<AgentName, Installed>;

/** Set by the runner (run.ts) for the test files: the status it resolved, as JSON. */
export const STATUS_ENV = "MINDSAVE_AGENT_STATUS";

/**
 * The cache root. The runner passes it in MINDSAVE_AGENT_CACHE because the test preload points
 * XDG_CACHE_HOME at the run's temp folder.
 */
export function agentCacheRoot(env = process.env): string {
  if (env.MINDSAVE_AGENT_CACHE) return env.MINDSAVE_AGENT_CACHE;
  return join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache"), "mindsave-agents");
}

/** The cache key: a hash of every pinned package and version, and the platform they run on. */
export function installKey(): string {
  const pins = AGENT_NAMES.map((a) => `${AGENTS[a].pkg}@${AGENTS[a].version}`).join("\n");
  const hash = createHash("sha256").update(`${process.platform}-${process.arch}\n${pins}`).digest("hex");
  return hash.slice(0, 12);
}

/** One `npm install` of the given agents into `dir`; null when it worked, else npm's reason. */
function npmInstall(dir: string, agents: AgentName[]): string | null {
  const specs = agents.map((a) => `${AGENTS[a].pkg}@${AGENTS[a].version}`);
  const npm = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--prefix", dir, ...specs], {
    encoding: "utf8",
    timeout: 15 * 60_000,
  });
  if (npm.error) return `npm could not run: ${npm.error.message}`;
  if (npm.status === 0) return null;
  return `npm install failed${npmReason(`${npm.stderr}`) || ` (exit ${npm.status})`}`;
}

/** npm's error code and first message line, e.g. " (ECONNREFUSED): FetchError: request to … failed". */
function npmReason(stderr: string): string {
  const lines = stderr.split("\n").map((l) => l.replace(/^npm (error|ERR!) ?/, ""));
  const code = lines.find((l) => l.startsWith("code "))?.slice(5);
  const message = lines.find((l) => /^[A-Za-z]/.test(l) && !/^(code|syscall|errno|A complete log) /.test(l));
  return `${code ? ` (${code})` : ""}${message ? `: ${message.trim()}` : ""}`;
}

/** Whether an installed agent runs here at all (`--version`, offline): a platform it lacks fails now. */
function versionProblem(bin: string, agent: AgentName, scratchHome: string): string | null {
  if (!existsSync(bin)) return `${bin} is missing after npm install`;
  const r = spawnSync(bin, ["--version"], {
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, HOME: scratchHome, XDG_CONFIG_HOME: join(scratchHome, ".config") },
  });
  if (r.status === 0) return null;
  const why = (r.error?.message ?? `${r.stderr}`.trim().split("\n").pop()) || `exit ${r.status}`;
  return `${AGENTS[agent].title} ${AGENTS[agent].version} does not run here (${why})`;
}

/**
 * Installs every agent into `dir`: one npm install for all, and only when that fails, one per
 * agent, so an agent the registry or this platform refuses skips alone.
 */
function installInto(dir: string): InstallStatus {
  const together = npmInstall(dir, AGENT_NAMES);
  const scratchHome = mkdtempSync(join(dir, "version-home-"));
  const status = {} as InstallStatus;
  for (const agent of AGENT_NAMES) {
    const failed = together && npmInstall(dir, [agent]);
    const bin = join(dir, "node_modules", ".bin", AGENTS[agent].bin);
    const problem = failed || versionProblem(bin, agent, scratchHome);
    status[agent] = problem ? { skip: problem } : { bin };
  }
  rmSync(scratchHome, { recursive: true, force: true });
  return status;
}

/** Leftover temp folders of runs that died mid-install (their pid is gone). */
function removeAbandoned(root: string, key: string): void {
  for (const name of readdirSync(root)) {
    const m = name.match(/^(.+)\.tmp-(\d+)-/);
    if (!m || m[1] !== key) continue;
    try {
      process.kill(Number(m[2]), 0);
    } catch {
      rmSync(join(root, name), { recursive: true, force: true });
    }
  }
}

/**
 * The pinned agents, installed once per machine: the cached install when complete, else a new
 * one. A partial install (some agent refused) is used for this run only and retried next time.
 */
export function ensureAgents(log: (line: string) => void = () => {}): InstallStatus {
  const root = agentCacheRoot();
  const key = installKey();
  const done = join(root, key);
  if (existsSync(join(done, "status.json")))
    return JSON.parse(readFileSync(join(done, "status.json"), "utf8"));
  mkdirSync(root, { recursive: true });
  removeAbandoned(root, key);
  const tmp = mkdtempSync(join(root, `${key}.tmp-${process.pid}-`));
  log(`Installing the pinned agent CLIs into ${done} (once; about 80 s and 1.8 GB)…`);
  const status = installInto(tmp);
  const skipped = Object.values(status).filter((s) => s.skip).length;
  // Nothing installed: nothing of this run to keep. Some installed: this run uses them, the next retries.
  if (skipped === AGENT_NAMES.length) rmSync(tmp, { recursive: true, force: true });
  if (skipped) return status;
  const rehomed = rehome(status, tmp, done);
  writeFileSync(join(tmp, "status.json"), JSON.stringify(rehomed, null, 2));
  try {
    renameSync(tmp, done);
  } catch {
    // Another run finished the same install first: use its folder, drop ours.
    rmSync(tmp, { recursive: true, force: true });
    return JSON.parse(readFileSync(join(done, "status.json"), "utf8"));
  }
  return rehomed;
}

/** The same status with its paths moved from the temp folder to the final one. */
function rehome(status: InstallStatus, from: string, to: string): InstallStatus {
  const out = {} as InstallStatus;
  for (const agent of AGENT_NAMES) {
    const s = status[agent];
    out[agent] = s.bin ? { bin: to + s.bin.slice(from.length) } : s;
  }
  return out;
}

/** One agent for a scenario file: from the status the runner resolved, else installed now. */
export function installedAgent(agent: AgentName): Installed {
  const passed = process.env[STATUS_ENV];
  const status: InstallStatus = passed ? JSON.parse(passed) : ensureAgents();
  return status[agent];
}
