// Gemini CLI (0.61) in prompt mode against the fake model (Gemini streamGenerateContent over SSE). Its
// own settings (~/.gemini/settings.json) choose API-key auth and turn off updates and telemetry;
// MindSave's installers add its hooks and MCP server to the same file, its instructions to
// ~/.gemini/GEMINI.md.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAgent, type AgentDriver, type World } from "./harness.ts";
import type { FakeModel } from "./fake-model.ts";

const SETTINGS = {
  security: { auth: { selectedType: "gemini-api-key" } },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
};

export const gemini: AgentDriver = {
  agent: "gemini",
  configure(world: World) {
    mkdirSync(join(world.home, ".gemini"), { recursive: true });
    writeFileSync(join(world.home, ".gemini", "settings.json"), JSON.stringify(SETTINGS, null, 2) + "\n");
  },
  run(world: World, bin: string, model: FakeModel, prompt: string) {
    return runAgent(world, [bin, "-p", prompt, "--yolo"], {
      GEMINI_API_KEY: "fake",
      GOOGLE_GEMINI_BASE_URL: model.url,
      // An untrusted folder downgrades --yolo and the run exits 55.
      GEMINI_CLI_TRUST_WORKSPACE: "true",
    });
  },
  configFiles: (world: World) => [
    join(world.home, ".gemini", "settings.json"),
    join(world.home, ".gemini", "GEMINI.md"),
  ],
  mcpTool: (tool: string) => new RegExp(`^mcp_mindsave_${tool}$`),
};
