// The MCP server: where it works, and one engine session per call, calls run one at a time and
// are answered before the server closes.
import { resolve } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Session, type SessionOptions } from "../../engine/session.ts";
import { isDir } from "../../lib/fs.ts";
import { VERSION } from "../../version.ts";
import type { GlobalOptions } from "../../types.ts";
import { INSTRUCTIONS } from "./schemas.ts";
import { registerTools } from "./tools.ts";

/** Where the server works: the globals as for every command; else Claude Code's project dir; else the cwd. */
export function serverSessionOptions(g: GlobalOptions, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): SessionOptions {
  let start = cwd;
  const claudeDir = env.CLAUDE_PROJECT_DIR;
  if (!g.workspace && claudeDir) {
    // Used as the directory the workspace is resolved from (like a command run there), not as a
    // forced root: a subfolder of a git checkout must still be that checkout's project.
    const dir = resolve(cwd, claudeDir);
    if (isDir(dir)) start = dir;
    else process.stderr.write(`mindsave mcp: CLAUDE_PROJECT_DIR ${dir} is not a directory; using ${cwd}.\n`);
  }
  return { home: g.home, workspace: g.workspace, project: g.project, cwd: start, env };
}

export interface MindSaveServer {
  server: McpServer;
  /** Resolves when no call is running (so a client that hangs up right after a save still gets it stored). */
  drained: () => Promise<void>;
  settled: () => Promise<void>;
}

/** The MCP server with MindSave's tools and resource; every call opens (and closes) its own session. */
export function createServer(options: SessionOptions): MindSaveServer {
  const server = new McpServer({ name: "mindsave", version: VERSION }, { instructions: INSTRUCTIONS });

  let active = 0;
  let idle: (() => void) | null = null;
  // Calls run one at a time: a client may send several at once, and each opens the store.
  let queue: Promise<unknown> = Promise.resolve();
  async function withSession<T>(write: boolean, fn: (s: Session) => Promise<T>): Promise<T> {
    active++;
    const turn = queue.then(async () => {
      const session = await Session.open(options, { write });
      try {
        return await fn(session);
      } finally {
        await session.close();
      }
    });
    queue = turn.catch(() => {});
    try {
      return await turn;
    } finally {
      if (--active === 0 && idle) idle();
    }
  }
  const drained = () => (active === 0 ? Promise.resolve() : new Promise<void>((r) => (idle = () => { idle = null; r(); })));

  registerTools(server, withSession);

  // A request read just before the client hung up may still be in the SDK's validation: wait
  // until the calls have been quiet for a few turns of the event loop, not just idle once.
  const settled = async () => {
    for (let quiet = 0; quiet < 3; ) {
      const before = queue;
      await new Promise((r) => setImmediate(r));
      await drained();
      await before;
      quiet = before === queue && active === 0 ? quiet + 1 : 0;
    }
  };
  return { server, drained, settled };
}
