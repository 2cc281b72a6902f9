// Cline CLI (3.x) against the fake model (Chat Completions), in act mode with its own session
// store (CLINE_SESSION_BACKEND_MODE=local: no hub daemon left behind). MindSave's installers write
// its hook scripts into ~/Documents/Cline/Hooks/, its MCP server into
// ~/.cline/data/settings/cline_mcp_settings.json and its rules into ~/Documents/Cline/Rules/.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAgent, type AgentDriver, type World } from "./harness.ts";
import type { FakeModel } from "./fake-model.ts";

/** The events MindSave's Cline hooks answer (agent-hooks.ts): one script each. */
const HOOKS = [
  "TaskStart",
  "TaskResume",
  "UserPromptSubmit",
  "PostToolUse",
  "PreCompact",
  "TaskComplete",
  "TaskCancel",
];

export const cline: AgentDriver = {
  agent: "cline",
  configure(world: World, model: FakeModel) {
    const settings = join(world.home, ".cline", "data", "settings");
    mkdirSync(settings, { recursive: true });
    // Without `updatedAt` Cline ignores the file and falls back to its cloud provider.
    const provider = {
      provider: "openai-compatible",
      apiKey: "fake",
      model: "fake-model",
      baseUrl: `${model.url}/v1`,
    };
    writeFileSync(
      join(settings, "providers.json"),
      JSON.stringify({
        version: 1,
        lastUsedProvider: "openai-compatible",
        modes: {},
        providers: {
          "openai-compatible": {
            settings: provider,
            updatedAt: "2026-01-01T00:00:00.000Z",
            tokenSource: "manual",
          },
        },
      }),
    );
  },
  run(world: World, bin: string, _model: FakeModel, prompt: string) {
    // 4-6 s a run on an idle machine; on a loaded one a run passed 120 s once. Two runs of a
    // scenario still fit the suite's 600 s test timeout.
    return runAgent(
      world,
      [bin, "--json", prompt],
      { CLINE_SESSION_BACKEND_MODE: "local", CLINE_NO_AUTO_UPDATE: "1" },
      240_000,
    );
  },
  configFiles: (world: World) => [
    ...HOOKS.map((event) => join(world.home, "Documents", "Cline", "Hooks", event)),
    join(world.home, ".cline", "data", "settings", "cline_mcp_settings.json"),
    join(world.home, "Documents", "Cline", "Rules", "mindsave.md"),
  ],
  mcpTool: (tool: string) => new RegExp(`^mindsave__${tool}$`),
  restoreWithFirstToolResult:
    "Cline's CLI (3.0.65) runs TaskStart without waiting for it, and nothing else runs before its first request",
};
