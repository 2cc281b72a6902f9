// Codex CLI (0.169) in exec mode against the fake model (OpenAI Responses). Its own settings name the
// fake model as the provider in ~/.codex/config.toml; MindSave's installers add to the same file (the
// MCP server), to ~/.codex/hooks.json (hooks) and ~/.codex/AGENTS.md (instructions).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAgent, type AgentDriver, type World } from "./harness.ts";
import type { FakeModel } from "./fake-model.ts";

/** ~/.codex/config.toml: the fake model as provider, no sandbox or approvals, the project trusted. */
function codexConfig(world: World, model: FakeModel): string {
  return [
    `model = "fake-model"`,
    `model_provider = "fake"`,
    `approval_policy = "never"`,
    `sandbox_mode = "danger-full-access"`,
    `check_for_update_on_startup = false`,
    ``,
    `[model_providers.fake]`,
    `name = "fake"`,
    `base_url = "${model.url}/v1"`,
    `env_key = "FAKE_API_KEY"`,
    `wire_api = "responses"`,
    `request_max_retries = 0`,
    `stream_max_retries = 0`,
    ``,
    `[projects."${world.project}"]`,
    `trust_level = "trusted"`,
    ``,
  ].join("\n");
}

/** `codex exec` of a prompt in the world's project; `flags` go before the prompt. */
export function codexExec(world: World, bin: string, prompt: string, flags: string[] = []) {
  return runAgent(world, [bin, "exec", ...flags, prompt], { FAKE_API_KEY: "fake" });
}

export const codex: AgentDriver = {
  agent: "codex",
  configure(world: World, model: FakeModel) {
    mkdirSync(join(world.home, ".codex"), { recursive: true });
    writeFileSync(join(world.home, ".codex", "config.toml"), codexConfig(world, model));
  },
  run(world: World, bin: string, _model: FakeModel, prompt: string) {
    // New hooks are skipped until trusted; the flag trusts them for this run (codex.agent.ts proves
    // the persistent trust `hooks install --trust` gives).
    return codexExec(world, bin, prompt, ["--dangerously-bypass-hook-trust"]);
  },
  configFiles: (world: World) => [
    join(world.home, ".codex", "config.toml"),
    join(world.home, ".codex", "hooks.json"),
    join(world.home, ".codex", "AGENTS.md"),
  ],
  // Codex offers an MCP server's tools in a namespace, mcp__<server>; the fake model names them <namespace>__<tool>.
  mcpTool: (tool: string) => new RegExp(`^mcp__mindsave__${tool}$`),
};
