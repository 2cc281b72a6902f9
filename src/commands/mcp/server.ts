// The MCP server: where it works, and one engine session per call, calls run one at a time and
// are answered before the server closes; and its stdio transport, which answers every line.
import { statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Readable, Writable } from "node:stream";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ClientRequestSchema,
  ErrorCode,
  JSONRPCMessageSchema,
  RootsListChangedNotificationSchema,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import { UserError } from "../../errors.ts";
import { stripControlDeep } from "../../engine/snapshots/input-limits.ts";
import { Session, type SessionOptions } from "../../engine/session.ts";
import { isDir } from "../../lib/fs.ts";
import { VERSION } from "../../version.ts";
import type { GlobalOptions } from "../../types.ts";
import { INSTRUCTIONS } from "./schemas.ts";
import { registerPrompts } from "./prompts.ts";
import { registerTools } from "./tools.ts";
import { registerMemoryTools } from "./memory-tools.ts";

/** The client's first `file://` root that is a folder here, or null (no roots capability, no answer). */
async function firstRoot(server: McpServer): Promise<string | null> {
  if (!server.server.getClientCapabilities()?.roots) return null;
  try {
    const { roots } = await server.server.listRoots(undefined, { timeout: 3000 });
    for (const r of roots) {
      if (!r.uri.startsWith("file://")) continue;
      const dir = fileURLToPath(r.uri);
      if (isDir(dir)) return dir;
    }
  } catch (e) {
    process.stderr.write(
      `mindsave mcp: the client did not list its roots (${(e as Error).message}); using the start folder.\n`,
    );
  }
  return null;
}

/** Where the server works: the globals as for every command; else Claude Code's project dir; else the cwd. */
export function serverSessionOptions(
  g: GlobalOptions,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): SessionOptions {
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
  // How long a tool call waits for another MindSave's write lock (a sync, an import): SQLite's wait
  // blocks the whole server, and with the default 15 s every call queued behind it would wait too.
  // Past it the agent is told the store is busy and to try again.
  const MCP_BUSY_MS = 3000;
  const server = new McpServer({ name: "mindsave", version: VERSION }, { instructions: INSTRUCTIONS });

  let active = 0;
  let idle: (() => void) | null = null;
  // The client's first root is the project (asked once; again when the client says they changed).
  let root: Promise<string | null> | null = null;
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => void (root = null));
  const clientRoot = () => (root ??= firstRoot(server));
  // Calls run one at a time: a client may send several at once, and each opens the store.
  let queue: Promise<unknown> = Promise.resolve();
  async function withSession<T>(
    write: boolean,
    fn: (s: Session) => Promise<T>,
    workspace?: string,
  ): Promise<T> {
    active++;
    const turn = queue.then(async () => {
      if (workspace !== undefined && !isAbsolute(workspace))
        throw new UserError(`workspace must be an absolute path, not ${JSON.stringify(workspace)}.`);
      if (workspace && !statSync(workspace, { throwIfNoEntry: false })?.isDirectory())
        throw new UserError(`The workspace ${workspace} is not a folder.`);
      // An explicit workspace wins; then --workspace; then the client's root; then the start folder.
      // A tool's workspace is where the project is looked for, as from a folder inside it (its
      // subfolder finds the project's root), never a root as given; --workspace is the root.
      const fromRoot = workspace || options.workspace ? null : await clientRoot();
      const session = await Session.open(
        {
          ...options,
          workspace: workspace ? undefined : options.workspace,
          cwd: workspace || (fromRoot ?? options.cwd),
          busyTimeoutMs: MCP_BUSY_MS,
        },
        { write },
      );
      return session.run(fn);
    });
    queue = turn.catch(() => {});
    try {
      return await turn;
    } finally {
      if (--active === 0 && idle) idle();
    }
  }
  const drained = () =>
    active === 0
      ? Promise.resolve()
      : new Promise<void>(
          (r) =>
            (idle = () => {
              idle = null;
              r();
            }),
        );

  registerTools(server, withSession);
  // Who retired something: the client's own name (e.g. "claude-code"), as it introduced itself.
  registerMemoryTools(server, withSession, () => server.server.getClientVersion()?.name);
  registerPrompts(server);

  // A request read just before the client hung up may still be in the SDK's validation: wait
  // until the calls have been quiet for a few turns of the event loop, not just idle once.
  const settled = async () => {
    for (let quiet = 0; quiet < 3;) {
      const before = queue;
      await new Promise((r) => setImmediate(r));
      await drained();
      await before;
      quiet = before === queue && active === 0 ? quiet + 1 : 0;
    }
  };
  return { server, drained, settled };
}

/** The most bytes of one message (one line) the server reads. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** How much of the start and end of a skipped line is kept to find its id. */
const EDGE = 256;
const ID_AT_START = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"[^"]*"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/;
const ID_AT_END = /[{,]\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/;

/** A JSON-RPC id (a string or a number), else null. */
const idOf = (id: unknown): string | number | null =>
  typeof id === "string" || typeof id === "number" ? id : null;

/** The id a skipped line shows at its start or end, as JSON text, if any. */
function sniffId(head: string, tail: string): string | number | null {
  const text = ID_AT_START.exec(head)?.[1] ?? ID_AT_END.exec(tail)?.[1];
  try {
    return text === undefined ? null : idOf(JSON.parse(text));
  } catch {
    return null;
  }
}

/** The SDK's schema of each request a client may send, by method. */
const CLIENT_REQUESTS = new Map<string, (typeof ClientRequestSchema.options)[number]>(
  ClientRequestSchema.options.map((s) => [s.shape.method.value, s]),
);
const TYPE_WORDS: Record<string, string> = {
  record: "an object",
  object: "an object",
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "an array",
};

/** One sentence for the first way a request's params do not fit its method's schema (not zod's issue dump). */
function paramsProblem(request: unknown): string | null {
  const { method } = request as { method: string };
  const checked = CLIENT_REQUESTS.get(method)?.safeParse(request);
  if (!checked || checked.success) return null;
  const issue = checked.error.issues[0];
  const path = issue.path.slice(1).map(String);
  const where = path.join(".") || "params";
  if (issue.code !== "invalid_type") return `Invalid params: ${where} of ${method}: ${issue.message}.`;
  const value = issue.path.reduce<unknown>(
    (v, k) =>
      v && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k as PropertyKey] : undefined,
    request,
  );
  const want = TYPE_WORDS[issue.expected] ?? issue.expected;
  if (value === undefined) return `Invalid params: ${method} needs ${where} (${want}).`;
  const got = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
  return `Invalid params: ${where} of ${method} must be ${want}, not ${got}.`;
}

/**
 * MCP on stdio, one JSON-RPC message a line, as the SDK's StdioServerTransport, except that every
 * line it cannot use gets an answer and the server goes on (the SDK's drops it, so the client
 * waits forever, and closes the server on a message over 10 MB):
 * - a line over MAX_MESSAGE_BYTES is skipped as it streams in (never buffered) and answered
 *   -32600 Invalid Request, with its id when the line's first or last bytes show it, else null;
 * - a line that is not JSON is answered -32700 Parse error, id null;
 * - JSON that is not a JSON-RPC 2.0 message (no "jsonrpc": "2.0", a batch, …) -32600, with its id;
 * - a known request whose params do not fit (`arguments` an array, …) -32602 Invalid params in one
 *   sentence (the SDK answers -32603 with zod's issues).
 * Blank lines are ignored. A message's params lose their control characters (input-limits.ts).
 */
export class LineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private parts: Buffer[] = [];
  private size = 0;
  /** Bytes of the line being skipped so far (0: not skipping), its first and its last bytes. */
  private skipped = 0;
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);

  constructor(
    private input: Readable = process.stdin,
    private output: Writable = process.stdout,
    private max = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on("data", this.onData);
    this.input.on("error", this.onError);
  }

  private onError = (e: Error) => this.onerror?.(e);

  private onData = (chunk: Buffer) => {
    for (let from = 0; ;) {
      const nl = chunk.indexOf(10, from);
      this.take(chunk.subarray(from, nl === -1 ? chunk.length : nl));
      if (nl === -1) return;
      this.endLine();
      from = nl + 1;
    }
  };

  private take(bytes: Buffer): void {
    if (!bytes.length) return;
    if (!this.skipped && this.size + bytes.length <= this.max) {
      this.parts.push(bytes);
      this.size += bytes.length;
      return;
    }
    if (!this.skipped) {
      this.head = Buffer.concat(this.parts).subarray(0, EDGE);
      this.skipped = this.size;
      this.parts = [];
      this.size = 0;
    }
    this.skipped += bytes.length;
    this.tail = Buffer.concat([this.tail, bytes.subarray(-EDGE)]).subarray(-EDGE);
  }

  private endLine(): void {
    const skipped = this.skipped;
    const line = skipped ? "" : Buffer.concat(this.parts).toString("utf8");
    const [head, tail] = [this.head.toString("utf8"), this.tail.toString("utf8")];
    this.parts = [];
    this.size = this.skipped = 0;
    this.head = this.tail = Buffer.alloc(0);
    if (skipped) {
      return this.refuse(
        ErrorCode.InvalidRequest,
        `Invalid Request: a message of ${skipped} bytes; at most ${this.max} bytes are read`,
        sniffId(head, tail),
      );
    }
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return this.refuse(ErrorCode.ParseError, "Parse error: the line is not JSON", null);
    }
    const id = (value as { id?: unknown })?.id;
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      return this.refuse(
        ErrorCode.InvalidRequest,
        'Invalid Request: not a JSON-RPC 2.0 message ("jsonrpc": "2.0", a method or a result)',
        idOf(id),
      );
    }
    const message = parsed.data as JSONRPCMessage & { params?: unknown };
    try {
      if (message.params !== undefined)
        message.params = stripControlDeep(message.params) as typeof message.params;
    } catch (e) {
      return this.refuse(ErrorCode.InvalidRequest, `Invalid Request: ${(e as Error).message}`, idOf(id));
    }
    const problem = "method" in message && "id" in message ? paramsProblem(message) : null;
    if (problem) return this.refuse(ErrorCode.InvalidParams, problem, idOf(id));
    this.onmessage?.(message);
  }

  private refuse(code: number, message: string, id: string | number | null): void {
    this.onerror?.(new Error(message));
    // A JSON-RPC error whose id is null is outside the SDK's message types, though the spec's own.
    void this.send({ jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((done) => {
      if (this.output.write(serializeMessage(message))) done();
      else this.output.once("drain", done);
    });
  }

  async close(): Promise<void> {
    this.input.off("data", this.onData);
    this.input.off("error", this.onError);
    if (this.input.listenerCount("data") === 0) this.input.pause();
    this.parts = [];
    this.onclose?.();
  }
}
