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

/** A client connected to a server started now; `client.close()` stops it. */
export async function openMcp(home: string, cwd: string, env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: CLI[0],
    args: [...CLI.slice(1), "mcp", "--home", home],
    cwd,
    // The JIT off, as for every CLI run of a test (helpers.ts childEnv): a test's server answers a
    // few calls, ~25% cheaper interpreted.
    env: { ...env, NO_COLOR: "1", BUN_JSC_useJIT: "0" },
    stderr: "pipe",
  });
  const client = new Client({ name: "mindsave-test", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

/** Runs `fn` with a connected client, then stops the server. */
export async function withMcp<T>(
  home: string,
  cwd: string,
  env: Record<string, string>,
  fn: (client: Client) => Promise<T>,
): Promise<T> {
  const client = await openMcp(home, cwd, env);
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
