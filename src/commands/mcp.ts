// `mindsave mcp`: an MCP server on stdio, so an agent saves and restores its working state through
// tools (save, load, recall, list, fail) and a resource (mindsave://restore-block) instead of a shell.
// stdout is the transport: nothing but protocol may be written there; diagnostics go to stderr.
// Each call opens its own short-lived engine session, so other processes can write between calls.
import { createServer, LineTransport, serverSessionOptions } from "./mcp/server.ts";
import type { GlobalOptions } from "../types.ts";

/**
 * Serves MCP on stdin/stdout until the client hangs up. Resolves (with 0) once the transport has
 * closed and every call in flight has finished.
 */
export async function run(_opts: unknown, _args: string[], g: GlobalOptions): Promise<number> {
  // stdout is the protocol: anything a library prints by mistake goes to stderr instead.
  const toStderr = (...args: unknown[]) => void process.stderr.write(args.map((a) => (typeof a === "string" ? a : Bun.inspect(a))).join(" ") + "\n");
  console.log = console.info = console.debug = toStderr;

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
    process.stderr.write("mindsave mcp: serving MCP on stdin/stdout for an MCP client (e.g. `claude mcp add mindsave -- mindsave mcp`); Ctrl-C quits.\n");
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
