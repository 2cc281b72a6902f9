// `mindsave mcp`: an MCP server on stdio, so an agent saves and restores its working state through
// tools (save, load, recall, list, fail) and a resource (mindsave://restore-block) instead of a shell.
// stdout is the transport: nothing but protocol may be written there; diagnostics go to stderr.
// Each call opens its own short-lived engine session, so other processes can write between calls.
import { resolve } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { isUserError, UserError } from "../errors.ts";
import { Session, type SessionOptions } from "../engine/session.ts";
import { saveSnapshot } from "../engine/snapshots/save.ts";
import { applyFlags, emptyInput } from "../engine/snapshots/input.ts";
import { loadSnapshot, selectSnapshot } from "../engine/snapshots/restore.ts";
import { layer3Text, search } from "../engine/snapshots/recall.ts";
import { projectSnapshots } from "../engine/snapshots/catalog.ts";
import { effectiveConfidence, observeFailure } from "../engine/failures/graph.ts";
import { listProjects } from "../engine/projects/projects.ts";
import { LAYER1_BUDGET, LAYER2_BUDGET } from "../engine/snapshots/layers.ts";
import { numberedList, verifyText } from "./load.ts";
import { VERSION } from "../version.ts";
import type { GlobalOptions } from "../types.ts";
import { isDir } from "../lib/fs.ts";

export const RESTORE_BLOCK_URI = "mindsave://restore-block";

const INSTRUCTIONS = `MindSave is a save game for your working state in this project. Call \`load\` at the start of a session to resume from the newest snapshot (continue from its next action; never retry what its failure graph rejects). Call \`save\` at milestones, before the context fills up (\`overflow: true\` when it is nearly full), and before ending. Record a rejected approach with \`fail\` the moment it is rejected. \`recall\` searches every snapshot or reads the cold archive (Layer 3).`;

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


type ToolResult = CallToolResult;

/** The message a client sees for a failure: a UserError as is, anything else as an internal error. */
function errorMessage(e: unknown): string {
  if (isUserError(e)) return e.message;
  const err = e as Error;
  if (process.env.MINDSAVE_DEBUG) process.stderr.write(`mindsave mcp: ${err?.stack ?? String(e)}\n`);
  return `internal error: ${err?.message ?? String(e)}`;
}

/** A tool result with text for the model and the same facts as structured content. */
function result(text: string, structured: Record<string, unknown>): ToolResult {
  return { content: [{ type: "text", text }], structuredContent: structured };
}

const textList = (description: string) => z.array(z.string()).optional().describe(description);

// ---- input schemas: the descriptions are what an agent reads to fill them in ----

const saveInput = {
  goal: z.string({ error: "A snapshot needs a goal: the task's objective in one sentence." })
    .describe("Layer 1 (execution register, always restored): the task's objective, one sentence. Required."),
  state: z.string().optional().describe("Layer 1: where the work stands right now, one sentence (e.g. 'endpoint written, 2 tests red')."),
  next_action: z.string().optional().describe("Layer 1: the immediate next step, concrete enough to start on without rereading anything."),
  active_files: textList("Layer 1: files being worked on, relative to the project directory or absolute; load's verify checks them for changes."),
  blocker: z.string().optional().describe("Layer 1: what blocks progress, or 'none' (default). A blocker makes the status 'blocked' unless status is given."),
  constraints: textList("Layer 2 (cognitive cache, restored with Layer 1): the user's preferences and rules to keep obeying, one per item (e.g. 'no new dependencies')."),
  decisions: textList("Layer 2: decisions already taken, so a resumed session does not reopen them (e.g. 'use polling, not websockets')."),
  failed: textList("Layer 2 failure graph, legacy excluded-paths style: rejected approaches as lines like \"Don't use Tailwind — style conflicts\" (item before the dash, reason after). For who rejected it, scope and alternatives use the fail tool."),
  topic: z.string().optional().describe("Topic slug for the snapshot id {topic}_{YYYY-MM-DD} (up to 20 characters; default: derived from the goal)."),
  status: z.enum(["in_progress", "completed", "blocked"]).optional()
    .describe("in_progress, completed or blocked (default: blocked when there is a blocker, else in_progress). Completed snapshots older than 30 days are cleaned up; the others are kept."),
  layer3: z.string().optional().describe("Layer 3 (cold archive, never restored automatically; read back with recall): markdown worth keeping, e.g. completed steps, findings, commands, logs."),
  overflow: z.boolean().optional().describe("true when the context window is nearly full: saves a Layer-1-only OVF_ snapshot quickly; Layer 2 and Layer 3 given here are not saved."),
};

const loadInput = {
  snapshot: z.string().optional().describe("Which snapshot: its snapshot id (e.g. add_jwt_refresh_2026-11-21), a unique prefix of it, or its list number (1 = newest, as in list). Default: the newest."),
  verify: z.boolean().optional().describe("true to also report active files that are missing or changed on this host since the snapshot."),
};

const recallInput = {
  keyword: z.string().optional().describe("Words to search for in every snapshot's layers (all must match; \"quote\" a phrase; matched literally, any script). Without it: the cold archive (Layer 3) of one snapshot."),
  snapshot: z.string().optional().describe("Without keyword: whose Layer 3 to show (snapshot id, a unique prefix of it, or list number; default: the newest)."),
  all_projects: z.boolean().optional().describe("With keyword: search every project in the store, not only this one."),
  limit: z.number().int().min(1).optional().describe("With keyword: at most this many hits, newest first (default 20)."),
};

const listInput = {
  limit: z.number().int().min(1).optional().describe("Show at most this many snapshots, newest first (default: all)."),
};

const failInput = {
  item: z.string({ error: "A failure needs the item that was rejected, e.g. 'Tailwind'." })
    .describe("What was rejected: an approach, library or idea, short (e.g. 'websocket reconnect'). Recording the same item again adds one to its repeat count."),
  reason: z.string().optional().describe("Why it failed or was rejected, one sentence. Required the first time an item is recorded."),
  rejected_by: z.enum(["user", "system"]).optional().describe("Who rejected it: 'user' (the person said no) or 'system' (it failed when tried). Default: user, or as recorded before."),
  scope: z.enum(["project", "global"]).optional().describe("'project' (default: this project only) or 'global' (shown in every project's restore block)."),
  confidence: z.enum(["high", "medium", "low"]).optional().describe("How sure the rejection is; default: derived from repeats (3+ high, 2 or recent medium, else low)."),
  related: textList("Related items (e.g. other libraries hit by the same problem)."),
  alternatives: textList("Approaches to try instead of this one; the restore block shows them next to it."),
};

// ---- output schemas: the structured content each tool returns next to its text ----

const saveOutput = {
  snapshot_id: z.string().describe("the snapshot's id (name) for load and recall"),
  id: z.string().describe("the snapshot's unique record id"),
  project: z.string(),
  status: z.string(),
  kind: z.string().describe("full, or overflow (Layer 1 only)"),
  tokens: z.object({ layer1: z.number(), layer2: z.number() }),
  warnings: z.array(z.string()),
  removed: z.array(z.string()).describe("snapshots removed by the cleanup after this save"),
};

const loadOutput = {
  snapshot_id: z.string(),
  id: z.string(),
  created_at: z.string(),
  status: z.string(),
  restore_block: z.string(),
  tokens: z.number(),
  verify: z.array(z.object({ path: z.string(), absolute: z.string(), status: z.string(), modified_at: z.string().optional() })).optional(),
};

const recallOutput = {
  snapshot_id: z.string().optional(),
  layer3: z.string().optional(),
  query: z.string().optional(),
  hits: z.array(z.object({ snapshot_id: z.string(), project: z.string().optional(), created_at: z.string(), status: z.string(), goal: z.string(), context: z.string() })).optional(),
  more: z.boolean().optional(),
};

const listOutput = {
  project: z.string(),
  snapshots: z.array(z.object({ n: z.number(), snapshot_id: z.string(), id: z.string(), created_at: z.string(), status: z.string(), kind: z.string(), goal: z.string() })),
};

const failOutput = {
  item: z.string(),
  scope: z.string(),
  rejected_by: z.string(),
  reason: z.string(),
  repeat_count: z.number(),
  confidence: z.string(),
  related: z.array(z.string()),
  alternatives: z.array(z.string()),
};

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

  function tool<A>(fn: (args: A) => Promise<ToolResult>) {
    return async (args: A): Promise<ToolResult> => {
      try {
        return await fn(args);
      } catch (e) {
        return { content: [{ type: "text", text: errorMessage(e) }], isError: true };
      }
    };
  }

  server.registerTool("save", {
    title: "Save a checkpoint",
    description: `Save a checkpoint of your working state in this project, so a later session (or another agent, on any host) resumes it with load. Layer 1 (goal/state/next_action/active_files/blocker, at most ${LAYER1_BUDGET} tokens) is always restored; Layer 2 (constraints/decisions/failure graph, at most ${LAYER2_BUDGET} tokens, compressed when over) is restored with it; Layer 3 (layer3, the cold archive) only on recall. Returns the snapshot id and token counts.`,
    inputSchema: saveInput,
    outputSchema: saveOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  }, tool(async (a) => {
    if (!a.goal.trim()) throw new UserError("A snapshot needs a goal: the task's objective in one sentence.");
    const input = applyFlags(emptyInput(), {
      goal: a.goal, state: a.state, next: a.next_action, activeFile: a.active_files, blocker: a.blocker,
      constraint: a.constraints, decision: a.decisions, failed: a.failed, topic: a.topic, status: a.status,
    });
    if (a.layer3 !== undefined) input.layer3 = a.layer3;
    const r = await withSession(true, (s) => saveSnapshot(s, { input, overflow: a.overflow }));
    const snap = r.snapshot;
    const l2 = snap.kind === "overflow" ? "Layer 1 only" : `L2 ${snap.l2_tokens}/${LAYER2_BUDGET}`;
    const lines = [`Saved snapshot ${snap.name} (project ${r.context.project.name}; L1 ${snap.l1_tokens}/${LAYER1_BUDGET} tokens, ${l2}).`];
    for (const w of r.warnings) lines.push(`Warning: ${w}`);
    if (r.removed.length) lines.push(`Cleanup removed ${r.removed.length} old snapshot(s): ${r.removed.join(", ")}.`);
    lines.push(snap.kind === "overflow"
      ? "Overflow snapshot (Layer 1 only): start a new session and restore it with the load tool."
      : "Restore it in a new session with the load tool.");
    return result(lines.join("\n"), {
      snapshot_id: snap.name, id: snap.id, project: r.context.project.name, status: snap.status, kind: snap.kind,
      tokens: { layer1: snap.l1_tokens, layer2: snap.l2_tokens }, warnings: r.warnings, removed: r.removed,
    });
  }));

  server.registerTool("load", {
    title: "Restore the working state",
    description: "Restore a saved working state: returns the restore block (Layer 1 + Layer 2 + the project's and global failure graph, at most 800 tokens) of the newest snapshot, or of the one given. Continue from its next action and do not retry anything its failure graph rejects.",
    inputSchema: loadInput,
    outputSchema: loadOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, tool(async (a) =>
    withSession(false, async (session) => {
      const ctx = await session.requireProject();
      const sel = await selectSnapshot(session, ctx.project.id, a.snapshot, { latest: true });
      if (sel.kind !== "snapshot") throw new UserError(`No snapshots in project ${ctx.project.name} yet; save one with the save tool.`);
      const r = await loadSnapshot(session, sel.snapshot, ctx, { verify: a.verify });
      const s = r.snapshot;
      const text = r.verify ? `${verifyText(r.verify)}\n${r.block.text}` : r.block.text;
      return result(text, {
        snapshot_id: s.name, id: s.id, created_at: s.created_at, status: s.status, restore_block: r.block.text, tokens: r.block.tokens,
        ...(r.verify ? { verify: r.verify } : {}),
      });
    })));

  server.registerTool("recall", {
    title: "Search snapshots or read the cold archive",
    description: "With keyword: a full-text search over every snapshot's layers in this project (newest first, one context line per hit). Without: the cold archive (Layer 3) of the newest snapshot or the one given, which load never includes.",
    inputSchema: recallInput,
    outputSchema: recallOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, tool(async (a) =>
    withSession(false, async (session) => {
      const keyword = a.keyword?.trim();
      if (keyword) {
        const ctx = a.all_projects ? null : await session.requireProject();
        const { hits, more } = await search(session, ctx?.project.id ?? null, [keyword], a.limit ?? 20);
        const names = a.all_projects ? new Map((await listProjects(session)).map((p) => [p.id, p.name])) : null;
        const project = (id: string) => (names ? names.get(id) ?? id : undefined);
        const structured = {
          query: keyword, more,
          hits: hits.map((h) => ({ snapshot_id: h.name, ...(names ? { project: project(h.project_id) } : {}), created_at: h.created_at, status: h.status, goal: h.goal, context: h.context })),
        };
        if (!hits.length) return result(`No snapshot mentions ${JSON.stringify(keyword)}${ctx ? ` in project ${ctx.project.name}` : ""}.`, structured);
        const head = more ? `More than ${hits.length} snapshots match; the newest ${hits.length} (raise limit for more):` : `${hits.length} snapshot(s) match, newest first:`;
        const lines = hits.map((h) => `- ${names ? `${project(h.project_id)} / ` : ""}${h.name} (${h.created_at.slice(0, 16).replace("T", " ")} UTC, ${h.status}): ${h.goal}\n  ${h.context}`);
        return result(`${head}\n${lines.join("\n")}`, structured);
      }
      const ctx = await session.requireProject();
      const sel = await selectSnapshot(session, ctx.project.id, a.snapshot, { latest: true });
      if (sel.kind !== "snapshot") throw new UserError(`No snapshots in project ${ctx.project.name} yet.`);
      const s = sel.snapshot;
      const text = layer3Text(s);
      return result(`## Layer 3: Cold Archive of ${s.name}\n\n${text || "(empty: this snapshot has no cold archive)"}`, { snapshot_id: s.name, layer3: text });
    })));

  server.registerTool("list", {
    title: "List snapshots",
    description: "The snapshots of this project, newest first: list number, id, when, status and goal. Pass an id or number to load or recall.",
    inputSchema: listInput,
    outputSchema: listOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, tool(async (a) =>
    withSession(false, async (session) => {
      const ctx = await session.requireProject();
      const rows = await projectSnapshots(session, ctx.project.id, { limit: a.limit });
      const structured = {
        project: ctx.project.name,
        snapshots: rows.map((r, i) => ({ n: i + 1, snapshot_id: r.name, id: r.id, created_at: r.created_at, status: r.status, kind: r.kind, goal: r.goal })),
      };
      if (!rows.length) return result(`No snapshots in project ${ctx.project.name} yet.`, structured);
      return result(`Snapshots of ${ctx.project.name}, newest first:\n${numberedList(rows, session.now())}`, structured);
    })));

  server.registerTool("fail", {
    title: "Record a rejected approach",
    description: "Record a rejected approach in the failure graph (Layer 2), shown in every later restore block so no session retries it. Recording the same item again adds one to its repeat count and merges the new details.",
    inputSchema: failInput,
    outputSchema: failOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  }, tool(async (a) =>
    withSession(true, async (session) => {
      const now = session.now();
      // As `mindsave fail`: a project seen for the first time becomes one (a global failure needs none).
      const f = await session.write(async (w) => {
        const ctx = a.scope === "global" ? null : await session.project({ create: true, w });
        return observeFailure(w, ctx?.project.id ?? null, {
          item: a.item, reason: a.reason, rejected_by: a.rejected_by, scope: a.scope, confidence: a.confidence,
          related: a.related, alternatives: a.alternatives, increment: true,
        }, now);
      });
      const confidence = effectiveConfidence(f, now);
      return result(`Failure graph: ${f.item} (${f.scope}) rejected by ${f.rejected_by}, seen ${f.repeat_count} time(s), confidence ${confidence}.`, {
        item: f.item, scope: f.scope, rejected_by: f.rejected_by, reason: f.reason, repeat_count: f.repeat_count, confidence,
        related: f.related, alternatives: f.alternatives,
      });
    })));

  server.registerResource("restore-block", RESTORE_BLOCK_URI, {
    title: "MindSave restore block",
    description: "The restore block (Layer 1 + Layer 2 + failures) of this project's newest snapshot, as the load tool returns it.",
    mimeType: "text/markdown",
  }, async (uri) => {
    try {
      return await withSession(false, async (session) => {
        const ctx = await session.requireProject();
        const sel = await selectSnapshot(session, ctx.project.id, undefined, { latest: true });
        if (sel.kind !== "snapshot") throw new UserError(`No snapshots in project ${ctx.project.name} yet; save one with the save tool.`);
        const r = await loadSnapshot(session, sel.snapshot, ctx);
        return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: r.block.text }] };
      });
    } catch (e) {
      // -32002 is MCP's "resource not found": no project or no snapshot here yet.
      throw isUserError(e) ? new McpError(-32002, e.message, { uri: uri.href }) : new McpError(ErrorCode.InternalError, errorMessage(e));
    }
  });

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
  const transport = new StdioServerTransport();
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
