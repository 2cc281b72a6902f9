// The real `mindsave mcp` on a home, started in a project's folder and driven by the SDK's client:
// what tests that compare the MCP face with the CLI use.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI } from "./helpers.ts";

export type ToolResult = {
  content: { type: string; text?: string }[];
  structuredContent?: any;
  isError?: boolean;
};

/** Runs `fn` with a connected client, then stops the server. */
export async function withMcp<T>(
  home: string,
  cwd: string,
  env: Record<string, string>,
  fn: (client: Client) => Promise<T>,
): Promise<T> {
  const transport = new StdioClientTransport({
    command: CLI[0],
    args: [...CLI.slice(1), "mcp", "--home", home],
    cwd,
    env: { ...env, NO_COLOR: "1" },
    stderr: "pipe",
  });
  const client = new Client({ name: "mindsave-test", version: "0.0.0" });
  await client.connect(transport);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as unknown as ToolResult;
}
