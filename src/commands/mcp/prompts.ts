// MCP prompts: the spec's /save, /load and /recall as prompts a person can pick in the client,
// each telling the model which tool to call and how.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const ask = (text: string) => ({
  messages: [{ role: "user" as const, content: { type: "text" as const, text } }],
});

export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    "save",
    {
      title: "Save a checkpoint (/save)",
      description: "Save the current working state with MindSave so a later session resumes it.",
      argsSchema: { note: z.string().optional().describe("Anything the snapshot must say (optional).") },
    },
    ({ note }) =>
      ask(
        "Save a MindSave checkpoint now with the `save` tool. Fill Layer 1 from where we are: goal (the task's objective, one sentence), " +
          "state (where it stands, one sentence), next_action (the immediate next step), active_files, blocker ('none' if none). " +
          "Layer 2: constraints the user gave, decisions taken. Record each rejected approach with the `fail` tool. " +
          "Put completed steps and findings in layer3." +
          (note ? `\nAlso record: ${note}` : ""),
      ),
  );

  server.registerPrompt(
    "load",
    {
      title: "Restore the working state (/load)",
      description: "Restore the newest MindSave snapshot of this project and continue from it.",
      argsSchema: {
        snapshot: z.string().optional().describe("A snapshot id or list number (default: the newest)."),
      },
    },
    ({ snapshot }) =>
      ask(
        `Call the MindSave \`load\` tool${snapshot ? ` with snapshot ${JSON.stringify(snapshot)}` : ""} and read the restore block. ` +
          "Continue from its next action; never retry anything its failure graph rejects; keep to its constraints and decisions.",
      ),
  );

  server.registerPrompt(
    "recall",
    {
      title: "Search the memory (/recall)",
      description:
        "Search every MindSave snapshot of this project, or read the newest cold archive (Layer 3).",
      argsSchema: {
        keyword: z.string().optional().describe("What to search for (empty: the newest snapshot's Layer 3)."),
      },
    },
    ({ keyword }) =>
      ask(
        keyword
          ? `Call the MindSave \`recall\` tool with keyword ${JSON.stringify(keyword)} and summarise what the matching snapshots say.`
          : "Call the MindSave `recall` tool without a keyword and summarise the newest snapshot's cold archive (Layer 3).",
      ),
  );
}
