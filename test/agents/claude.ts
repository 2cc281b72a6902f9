// Claude Code (2.1.x) in print mode against the fake model (Anthropic Messages). Everything MindSave
// adds goes through its own installers into the per-user files: hooks in ~/.claude/settings.json,
// the MCP server in ~/.claude.json, the skills in ~/.claude/skills/.
import { join } from "node:path";
import { runAgent, type AgentDriver, type World } from "./harness.ts";
import type { FakeModel } from "./fake-model.ts";

export const claude: AgentDriver = {
  agent: "claude",
  // Claude Code needs no file of its own to reach a model: the environment names it (run below).
  configure: () => {},
  run(world: World, bin: string, model: FakeModel, prompt: string) {
    return runAgent(
      world,
      // As root, --dangerously-skip-permissions is refused: the tools are allowed by name instead.
      [
        bin,
        "-p",
        prompt,
        "--allowedTools",
        "Bash Write Edit mcp__mindsave",
        "--output-format",
        "stream-json",
        "--verbose",
      ],
      {
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: "sk-ant-fake",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
        // Otherwise MCP tools hide behind ToolSearch and the model never sees mindsave's.
        ENABLE_TOOL_SEARCH: "false",
      },
    );
  },
  configFiles: (world: World) => [
    join(world.home, ".claude", "settings.json"),
    join(world.home, ".claude.json"),
    ...["mindsave", "save", "load", "recall", "snapshots", "auto-snapshot"].map((s) =>
      join(world.home, ".claude", "skills", s, "SKILL.md"),
    ),
  ],
  mcpTool: (tool: string) => new RegExp(`^mcp__mindsave__${tool}$`),
};
