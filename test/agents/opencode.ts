// opencode (1.x) in `opencode run` against the fake model (Chat Completions through the built-in
// @ai-sdk/openai-compatible provider). The provider is the user's own ~/.config/opencode/opencode.json,
// which `mcp install` then edits; MindSave's plugin goes to ~/.config/opencode/plugins/mindsave.js and
// its instructions to ~/.config/opencode/AGENTS.md.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAgent, type AgentDriver, type World } from "./harness.ts";
import { agentCacheRoot } from "./install.ts";
import { AGENTS } from "./versions.ts";
import type { FakeModel } from "./fake-model.ts";

const configDir = (world: World) => join(world.home, ".config", "opencode");

/**
 * On first use opencode installs its plugin package (@opencode-ai/plugin, its own version) into
 * every config folder with npm: a minute on this machine, and a longer stall with no registry. It
 * is installed once into the agent cache, as opencode would, and copied into each new HOME, as a
 * person's warm config folder would hold it.
 */
const SEED = join(agentCacheRoot(), `opencode-${AGENTS.opencode.version}-config-deps`);

/** The seed folder, installed now when missing; null when npm could not (opencode then installs it itself). */
function configSeed(): string | null {
  if (existsSync(join(SEED, "node_modules", "@opencode-ai", "plugin"))) return SEED;
  mkdirSync(agentCacheRoot(), { recursive: true });
  const tmp = mkdtempSync(`${SEED}.tmp-`);
  const deps = { dependencies: { "@opencode-ai/plugin": AGENTS.opencode.version } };
  writeFileSync(join(tmp, "package.json"), JSON.stringify(deps, null, 2) + "\n");
  const npm = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--prefix", tmp], {
    timeout: 10 * 60_000,
  });
  if (npm.status !== 0) {
    rmSync(tmp, { recursive: true, force: true });
    return null;
  }
  try {
    renameSync(tmp, SEED);
  } catch {
    // Another run put its seed there first: that one is used.
    rmSync(tmp, { recursive: true, force: true });
  }
  return SEED;
}

/**
 * opencode is the slowest of the agents (7-14 s a run on an idle machine): on a shared, loaded one a
 * run took 100 s. Two runs of a scenario still fit the suite's 600 s test timeout.
 */
const OPENCODE_TIMEOUT_MS = 270_000;

/** `opencode run` with `args` (the prompt last) in the world's project, offline. */
function opencodeRun(world: World, bin: string, args: string[]) {
  return runAgent(
    world,
    [bin, "run", ...args],
    {
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      OPENCODE_DISABLE_SHARE: "1",
      // opencode re-resolves its plugin package with npm at every start (a minute here, with the
      // registry reachable); the seeded folder holds it already, so npm stays offline.
      npm_config_offline: "true",
    },
    OPENCODE_TIMEOUT_MS,
  );
}

export const opencode: AgentDriver = {
  agent: "opencode",
  configure(world: World, model: FakeModel) {
    mkdirSync(configDir(world), { recursive: true });
    const seed = configSeed();
    if (seed) cpSync(seed, configDir(world), { recursive: true });
    const config = {
      provider: {
        fake: {
          npm: "@ai-sdk/openai-compatible",
          name: "Fake",
          options: { baseURL: `${model.url}/v1`, apiKey: "fake" },
          models: { "fake-model": { name: "Fake", tool_call: true } },
        },
      },
      model: "fake/fake-model",
      small_model: "fake/fake-model",
      autoupdate: false,
      share: "disabled",
      permission: { bash: "allow", edit: "allow" },
    };
    writeFileSync(join(configDir(world), "opencode.json"), JSON.stringify(config, null, 2) + "\n");
  },
  run: (world: World, bin: string, _model: FakeModel, prompt: string) => opencodeRun(world, bin, [prompt]),
  continueRun: (world: World, bin: string, _model: FakeModel, prompt: string) =>
    opencodeRun(world, bin, ["--continue", prompt]),
  configFiles: (world: World) => [
    join(configDir(world), "plugins", "mindsave.js"),
    join(configDir(world), "opencode.json"),
    join(configDir(world), "AGENTS.md"),
  ],
  mcpTool: (tool: string) => new RegExp(`^mindsave_${tool}$`),
};
