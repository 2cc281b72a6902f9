// The agent CLIs the real-agent suite runs, pinned: the one place their versions are written.
// Changing one changes the install cache's key (install.ts), so the next run installs afresh.

/** The agents, by the names `mindsave hooks install --agent` takes. */
export type AgentName = "claude" | "codex" | "gemini" | "opencode" | "cline" | "copilot";

export interface AgentPackage {
  /** The product's name for it, for skip lines and test titles. */
  title: string;
  /** The npm package and its pinned version. */
  pkg: string;
  version: string;
  /** The executable the package puts in node_modules/.bin. */
  bin: string;
}

export const AGENTS: Record<AgentName, AgentPackage> = {
  claude: { title: "Claude Code", pkg: "@anthropic-ai/claude-code", version: "2.1.328", bin: "claude" },
  codex: { title: "Codex CLI", pkg: "@openai/codex", version: "0.169.0", bin: "codex" },
  gemini: { title: "Gemini CLI", pkg: "@google/gemini-cli", version: "0.61.0", bin: "gemini" },
  opencode: { title: "opencode", pkg: "opencode-ai", version: "1.18.33", bin: "opencode" },
  cline: { title: "Cline CLI", pkg: "cline", version: "3.0.65", bin: "cline" },
  copilot: { title: "Copilot CLI", pkg: "@github/copilot", version: "1.0.102", bin: "copilot" },
};

export const AGENT_NAMES = Object.keys(AGENTS) as AgentName[];
