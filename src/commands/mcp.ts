// `mindsave mcp`: an MCP server on stdio, so an agent saves and restores its working state through
// tools (save, load, recall, list, fail, rules, fact, facts, retire, plan, diff) and a resource (mindsave://restore-block) instead of a shell.
// stdout is the transport: nothing but protocol may be written there; diagnostics go to stderr.
// Each call opens its own short-lived engine session, so other processes can write between calls.
// `mindsave mcp install|uninstall --agent NAME [--project|--user]` adds or removes this server in
// an agent's MCP settings.
import { installMcp, uninstallMcp, type McpResult } from "../engine/agents/mcp-config.ts";
import { agentScope, print, printJson, projectPlace, type AgentFlags } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

function say(r: McpResult, g: GlobalOptions): void {
  if (g.json) return printJson(r);
  const what = {
    installed: `Added the MindSave MCP server (\`mindsave mcp\`) to ${r.path}${r.wholeFile ? " (a new file)" : ""}. Restart the agent to load it.`,
    updated: `Updated the MindSave MCP server in ${r.path}.`,
    unchanged: `The MindSave MCP server is already in ${r.path}; nothing changed.`,
    removed: r.wholeFile
      ? `Removed ${r.path}, which held only the MindSave MCP server.`
      : `Removed the MindSave MCP server from ${r.path}${r.exact === false ? " (the file changed since the install, so only the entry was taken out)" : ""}.`,
    absent: `No MindSave MCP server in ${r.path}; nothing changed.`,
  }[r.action];
  print(what);
  if (r.warning) process.stderr.write(`mindsave: ${r.warning}\n`);
}

export async function install(opts: AgentFlags, _a: string[], g: GlobalOptions): Promise<number> {
  const { agent, scope } = agentScope(opts);
  say(installMcp(agent, scope, projectPlace(g)), g);
  return 0;
}

export async function uninstall(opts: AgentFlags, _a: string[], g: GlobalOptions): Promise<number> {
  const { agent, scope } = agentScope(opts);
  say(uninstallMcp(agent, scope, projectPlace(g)), g);
  return 0;
}

/**
 * Serves MCP on stdin/stdout until the client hangs up. Resolves (with 0) once the transport has
 * closed and every call in flight has finished.
 */
export async function run(_opts: unknown, _args: string[], g: GlobalOptions): Promise<number> {
  // stdout is the protocol: anything a library prints by mistake goes to stderr instead.
  const toStderr = (...args: unknown[]) =>
    void process.stderr.write(args.map((a) => (typeof a === "string" ? a : Bun.inspect(a))).join(" ") + "\n");
  console.log = console.info = console.debug = toStderr;

  // Loaded here, not at the top: the SDK and the tools' schemas are a load `mcp install` never needs.
  const { createServer, LineTransport, serverSessionOptions } = await import("./mcp/server.ts");
  const options = serverSessionOptions(g);
  const { server, drained, settled } = createServer(options);
  // Not the SDK's StdioServerTransport: ours answers oversized, non-JSON and non-JSON-RPC lines.
  const transport = new LineTransport();
  const closed = new Promise<void>((resolveClosed) => {
    server.server.onclose = () => resolveClosed();
  });
  server.server.onerror = (e) => void process.stderr.write(`mindsave mcp: ${e.message}\n`);
  await server.connect(transport);
  if (process.stdin.isTTY) {
    process.stderr.write(
      "mindsave mcp: serving MCP on stdin/stdout for an MCP client (e.g. `claude mcp add mindsave -- mindsave mcp`); Ctrl-C quits.\n",
    );
  }
  // The SDK's stdio transport does not notice the client hanging up; end of stdin is the signal.
  // Calls already received still finish and are answered before the server closes.
  const hangUp = async () => {
    await settled();
    await server.close().catch(() => {});
  };
  process.stdin.once("end", hangUp);
  process.stdin.once("close", hangUp);
  await closed;
  await drained();
  return 0;
}
