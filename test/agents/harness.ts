// The world an agent runs in for one test: a fresh HOME, a fresh git project (pinned dates), the
// compiled MindSave binary on PATH as `mindsave` with its home inside that HOME, and the helpers
// that run MindSave and the agent there as subprocesses.
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { childEnv, gitRepo, hostBinary, run, tempDir, type RunResult } from "../helpers.ts";
import type { FakeModel } from "./fake-model.ts";
import { AGENTS, type AgentName } from "./versions.ts";

export interface World {
  /** The temp folder holding everything below. */
  root: string;
  /** The agent's HOME: its config, transcripts and MindSave's home (~/.mindsave) live here. */
  home: string;
  /** A git project with one commit: the agent's working folder. */
  project: string;
  /** The folder put first on PATH, holding `mindsave`. */
  bin: string;
  /** MindSave's home (MINDSAVE_HOME). */
  mindsaveHome: string;
  /** The environment every process of this world gets (agent, MindSave, hooks). */
  env: Record<string, string>;
}

let binary: Promise<string> | undefined;
/**
 * The compiled host binary (built by the runner; built here when a file is run alone), or the one
 * MINDSAVE_AGENT_BIN names (a release to check, or a build of another checkout).
 */
export const mindsaveBinary = () =>
  (binary ??= process.env.MINDSAVE_AGENT_BIN
    ? Promise.resolve(process.env.MINDSAVE_AGENT_BIN)
    : hostBinary());

/** A fresh world for one agent run; `files` seed the project's first commit. */
export async function makeWorld(agent: AgentName, files?: Record<string, string>): Promise<World> {
  const root = tempDir(`mindsave-agent-${agent}-`);
  const home = join(root, "home");
  const project = join(root, "project");
  const bin = join(root, "bin");
  const mindsaveHome = join(home, ".mindsave");
  for (const dir of [home, bin, mindsaveHome]) mkdirSync(dir, { recursive: true });
  gitRepo(project, files);
  symlinkSync(await mindsaveBinary(), join(bin, "mindsave"));
  const env = childEnv({
    HOME: home,
    USERPROFILE: home,
    PATH: `${bin}:${process.env.PATH}`,
    MINDSAVE_HOME: mindsaveHome,
    MINDSAVE_HOST_NAME: `${agent}-host`,
    // The project's commit dates are pinned by gitRepo; the agents' clocks print in one zone.
    TZ: "UTC",
    // The agents keep their own config and data under HOME, never the developer's XDG folders.
    XDG_CONFIG_HOME: undefined,
    XDG_DATA_HOME: undefined,
    XDG_STATE_HOME: undefined,
  });
  return { root, home, project, bin, mindsaveHome, env };
}

/** Puts an agent's executable on the world's PATH, as installing it would (MindSave looks for it: codex --trust). */
export function putOnPath(world: World, agent: AgentName, bin: string): void {
  const link = join(world.bin, AGENTS[agent].bin);
  if (!existsSync(link)) symlinkSync(bin, link);
}

/** Runs MindSave (the compiled binary) in the world, in the project unless told otherwise. */
export async function mindsave(world: World, args: string[], cwd = world.project): Promise<RunResult> {
  return run(args, { bin: [await mindsaveBinary()], cwd, env: world.env, stdin: "" });
}

/** Runs MindSave and fails the test with its stderr when it exits non-zero. */
export async function mindsaveOk(world: World, args: string[], cwd = world.project): Promise<RunResult> {
  const r = await mindsave(world, args, cwd);
  if (r.code !== 0) throw new Error(`mindsave ${args.join(" ")} exited ${r.code}: ${r.stderr}${r.stdout}`);
  return r;
}

export interface AgentRun extends RunResult {
  /** Wall time of the run, for the report (never asserted on). */
  ms: number;
  timedOut: boolean;
}

/** How long one agent run may take before it is killed: runs take 1–14 s; the machine is shared. */
export const AGENT_TIMEOUT_MS = 120_000;

/** How long what an agent started may run on after it exits (its last hooks) before it is killed. */
const LINGER_MS = 30_000;

/** Waits until no process of the group is left, or `limitMs` has passed. */
async function groupGone(pgid: number, limitMs: number): Promise<void> {
  const until = performance.now() + limitMs;
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    if (performance.now() > until) return;
    await Bun.sleep(50);
  }
}

/** Runs an agent CLI in the world's project with extra environment; kills it after the timeout. */
export async function runAgent(
  world: World,
  argv: string[],
  extraEnv: Record<string, string> = {},
  timeoutMs = AGENT_TIMEOUT_MS,
): Promise<AgentRun> {
  const started = performance.now();
  const proc = Bun.spawn(argv, {
    cwd: world.project,
    // PWD too: opencode takes its folder from PWD, and the test runner's own is the checkout.
    env: { ...world.env, PWD: world.project, ...extraEnv },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    // Its own process group: the agents' npm wrappers start the real binary as a child, which
    // starts MCP servers and daemons; the whole group goes when the run ends or times out.
    detached: true,
  });
  const killGroup = () => {
    try {
      process.kill(-proc.pid, "SIGKILL");
    } catch {
      // The group is already gone.
    }
  };
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, timeoutMs);
  const output = Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const code = await proc.exited;
  clearTimeout(timer);
  // A hook the agent did not wait for is still the session's work: the test reads the store after
  // it ends. Whatever is still running after that (a daemon) would outlive the test.
  await groupGone(proc.pid, LINGER_MS);
  killGroup();
  const [stdout, stderr] = await output;
  return { code, stdout, stderr, ms: Math.round(performance.now() - started), timedOut };
}

/** The bytes of each file (null when absent): compared before install and after uninstall. */
export function fileBytes(paths: string[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const p of paths) out[p] = existsSync(p) ? readFileSync(p, "latin1") : null;
  return out;
}

/** The project's snapshots, newest first, as `mindsave --json snapshots` lists them. */
export async function snapshots(world: World): Promise<any[]> {
  const r = await mindsaveOk(world, ["--json", "snapshots"]);
  const parsed = JSON.parse(r.stdout);
  return Array.isArray(parsed) ? parsed : (parsed.snapshots ?? []);
}

/** What the scenarios need to know of one agent: its module (test/agents/<agent>.ts) exports one. */
export interface AgentDriver {
  agent: AgentName;
  /** Writes the agent's own settings for the world (the fake model as its provider, trust): no MindSave part. */
  configure(world: World, model: FakeModel): void;
  /** Runs one prompt to its end, non-interactively, in the world's project. */
  run(world: World, bin: string, model: FakeModel, prompt: string): Promise<AgentRun>;
  /** Runs one more prompt in the agent's newest session (opencode: `run --continue`), where a scenario needs a second turn. */
  continueRun?(world: World, bin: string, model: FakeModel, prompt: string): Promise<AgentRun>;
  /** Every file MindSave's installers write for this agent (hooks, MCP server, instructions). */
  configFiles(world: World): string[];
  /** MindSave's MCP tool `tool` as the agent names it to the model. */
  mcpTool(tool: string): RegExp;
  /** MindSave's install commands, when the agent needs more than `--agent <agent> --user` (Codex: --trust). */
  installCommands?: string[][];
  /**
   * Why the restore block reaches this agent's model with its first tool result, not in its first
   * request (Cline's CLI runs TaskStart without waiting for it); unset where the first request has it.
   */
  restoreWithFirstToolResult?: string;
}

/** MindSave's own installers for an agent: hooks, MCP server, instructions, per user. */
export function installCommands(driver: AgentDriver): string[][] {
  const a = driver.agent;
  return (
    driver.installCommands ?? [
      ["hooks", "install", "--agent", a, "--user"],
      ["mcp", "install", "--agent", a, "--user"],
      ["skill", "--install", "--agent", a, "--user"],
    ]
  );
}

/** Their inverses. */
export function uninstallCommands(driver: AgentDriver): string[][] {
  const a = driver.agent;
  return [
    ["hooks", "uninstall", "--agent", a, "--user"],
    ["mcp", "uninstall", "--agent", a, "--user"],
    ["skill", "--uninstall", "--agent", a, "--user"],
  ];
}

/** Installs MindSave into the world's agent with its own commands. */
export async function installMindSave(world: World, driver: AgentDriver): Promise<void> {
  for (const args of installCommands(driver)) await mindsaveOk(world, args);
}
