// GitHub Copilot CLI (1.0.x) in prompt mode against the fake model (Chat Completions), offline: with
// COPILOT_OFFLINE and a provider of its own (BYOK) it needs no GitHub login. Everything MindSave adds
// goes through its own installers into the per-user files under ~/.copilot: hooks/mindsave.json,
// mcp-config.json and copilot-instructions.md.
import { join } from "node:path";
import { runAgent, type AgentDriver, type World } from "./harness.ts";
import type { FakeModel } from "./fake-model.ts";

export const copilot: AgentDriver = {
  agent: "copilot",
  // Copilot needs no file of its own to reach a model: the environment names it (run below).
  configure: () => {},
  run(world: World, bin: string, model: FakeModel, prompt: string) {
    return runAgent(world, [bin, "-p", prompt, "--allow-all-tools"], {
      COPILOT_OFFLINE: "true",
      COPILOT_PROVIDER_BASE_URL: `${model.url}/v1`,
      COPILOT_PROVIDER_API_KEY: "fake",
      COPILOT_MODEL: "fake-model",
      COPILOT_AUTO_UPDATE: "false",
    });
  },
  configFiles: (world: World) => [
    join(world.home, ".copilot", "hooks", "mindsave.json"),
    join(world.home, ".copilot", "mcp-config.json"),
    join(world.home, ".copilot", "copilot-instructions.md"),
  ],
  mcpTool: (tool: string) => new RegExp(`^mindsave-${tool}$`),
};
