// The MCP tools and resource: each parses its arguments, calls one engine use case and returns the
// text the CLI would print (rendered by the same engine function) plus structured content.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z as zod, type z, type ZodRawShape } from "zod";
import { isUserError } from "../../errors.ts";
import { printable } from "../../lib/text.ts";
import { saveReport, saveSnapshot } from "../../engine/snapshots/save.ts";
import { applyFlags, emptyInput } from "../../engine/snapshots/input-fields.ts";
import { restoreSnapshot } from "../../engine/snapshots/restore.ts";
import { recallArchive, recallSearch } from "../../engine/snapshots/recall.ts";
import { snapshotList } from "../../engine/snapshots/catalog.ts";
import { LIST_PAGE } from "../../engine/snapshots/select.ts";
import {
  archiveText,
  archivedCountText,
  archivedLoadText,
  numberedList,
  recallHitsText,
  saveSummary,
  verifyText,
} from "../../engine/snapshots/summaries.ts";
import { failureSummary, recordFailure } from "../../engine/failures/record.ts";
import { offHere, offSentence } from "../../engine/projects/off.ts";
import { LAYER1_BUDGET, LAYER2_BUDGET } from "../../engine/snapshots/layers.ts";
import type { Session } from "../../engine/session.ts";
import { parsePlan } from "../../engine/snapshots/plan.ts";
import * as schema from "./schemas.ts";

export const RESTORE_BLOCK_URI = "mindsave://restore-block";
const HOW_TO_SAVE = "the save tool";

/** Runs `fn` in a session of its own (write or read-only), one call at a time, in `workspace` if given. */
export type WithSession = <T>(
  write: boolean,
  fn: (s: Session) => Promise<T>,
  workspace?: string,
) => Promise<T>;

/** The message a client sees for a failure: a UserError as is, anything else as an internal error. */
export function errorMessage(e: unknown): string {
  if (isUserError(e)) return e.message;
  const err = e as Error;
  if (process.env.MINDSAVE_DEBUG) process.stderr.write(`mindsave mcp: ${err?.stack ?? String(e)}\n`);
  return `internal error: ${err?.message ?? String(e)}`;
}

/** A tool result with text for the model and the same facts as structured content. */
export function result(text: string, structured: Record<string, unknown>): CallToolResult {
  // The text goes into the model's context: no escape sequence from a peer's or an import's text.
  return { content: [{ type: "text", text: printable(text) }], structuredContent: structured };
}

export const READ_ONLY = { readOnlyHint: true, openWorldHint: false };
/** fail: adds to the graph, removes nothing; save: adds a snapshot (retention archives older ones, never deletes). */
export const ADDS = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
/** rules/facts/retire may remove. */
export const SAVES = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};

interface ToolMeta<I extends ZodRawShape, O extends ZodRawShape> {
  title: string;
  description: string;
  inputSchema: I;
  outputSchema: O;
  annotations: typeof READ_ONLY | typeof ADDS | typeof SAVES;
}

export type Tool = <I extends ZodRawShape, O extends ZodRawShape>(
  name: string,
  meta: ToolMeta<I, O>,
  fn: (args: z.infer<z.ZodObject<I>>) => Promise<CallToolResult>,
) => void;

/** The sentence a tool's answer ends with while MindSave is off where it acts (`mindsave off`); null when on or unknown. */
async function offLine(withSession: WithSession, workspace: unknown): Promise<string | null> {
  try {
    const where = typeof workspace === "string" ? workspace : undefined;
    return await withSession(false, async (s) => offSentence(await offHere(s)), where);
  } catch {
    return null; // the tool's own answer says what is wrong there
  }
}

/**
 * Registers tools on `server`: strict arguments, and every failure answered as an error result
 * the model can read, never a protocol error. While MindSave is off there, a tool still answers,
 * with a line saying so.
 */
export function toolRegistrar(server: McpServer, withSession: WithSession): Tool {
  return (name, meta, fn) => {
    const handler = async (args: Parameters<typeof fn>[0]): Promise<CallToolResult> => {
      try {
        const r = await fn(args);
        const off = r.isError
          ? null
          : await offLine(withSession, (args as { workspace?: unknown }).workspace);
        return off ? { ...r, content: [...r.content, { type: "text", text: off }] } : r;
      } catch (e) {
        return { content: [{ type: "text", text: errorMessage(e) }], isError: true };
      }
    };
    // Strict: an argument the tool does not know (a typo such as `keywords`) is refused, not ignored.
    const strict = { ...meta, inputSchema: zod.object(meta.inputSchema).strict() };
    // The SDK's callback type is generic over the schema in a way TypeScript cannot follow here.
    server.registerTool(name, strict, handler as Parameters<typeof server.registerTool>[2]);
  };
}

/** The save, load, recall, list and fail tools and the restore-block resource. */
export function registerTools(server: McpServer, withSession: WithSession): void {
  const tool = toolRegistrar(server, withSession);
  registerSave(tool, withSession);
  registerLoad(tool, withSession);
  registerRecall(tool, withSession);
  registerList(tool, withSession);
  registerFail(tool, withSession);
  registerRestoreBlock(server, withSession);
}

/** save: a checkpoint of the working state, answered with the same report as `mindsave save`. */
function registerSave(tool: Tool, withSession: WithSession): void {
  tool(
    "save",
    {
      title: "Save a checkpoint",
      description: `Save a checkpoint of your working state in this project, so a later session (or another agent, on any host) resumes it with load. Layer 1 (goal/state/next_action/active_files/blocker, at most ${LAYER1_BUDGET} tokens) is always restored; Layer 2 (constraints/decisions/failure graph, at most ${LAYER2_BUDGET} tokens, compressed when over) is restored with it; Layer 3 (layer3, the cold archive) only on recall. A save over a budget is still stored: what does not fit moves to Layer 3 and the reply says what moved. Returns the snapshot id and token counts.`,
      inputSchema: schema.saveInput,
      outputSchema: schema.saveOutput,
      annotations: ADDS,
    },
    async (a) => {
      const input = applyFlags(emptyInput(), {
        goal: a.goal,
        state: a.state,
        next: a.next_action,
        activeFile: a.active_files,
        blocker: a.blocker,
        constraint: a.constraints,
        decision: a.decisions,
        failed: a.failed,
        topic: a.topic,
        status: a.status,
        tag: a.tags,
      });
      if (a.layer3 !== undefined) input.layer3 = a.layer3;
      if (a.plan !== undefined) input.plan = parsePlan(a.plan);
      const r = await withSession(
        true,
        (s) => saveSnapshot(s, { input, overflow: a.overflow, goalHint: schema.GOAL_HINT }),
        a.workspace,
      );
      const report = saveReport(r);
      const lines = [...r.warnings.map((w) => `Warning: ${w}`), ...saveSummary(r, "mcp")];
      // The shared report in this tool's output schema: the project by name, the first 20 archived.
      return result(lines.join("\n"), {
        snapshot_id: report.snapshot_id,
        id: report.id,
        project: report.project.name,
        status: report.status,
        kind: report.kind,
        tokens: { layer1: report.tokens.layer1, layer2: report.tokens.layer2 },
        tags: report.tags,
        warnings: report.warnings,
        archived: report.archived.slice(0, 20),
        archived_count: report.archived.length,
      });
    },
  );
}

/** load: the restore block of the newest snapshot or the one given. */
function registerLoad(tool: Tool, withSession: WithSession): void {
  tool(
    "load",
    {
      title: "Restore the working state",
      description:
        "Restore a saved working state: returns the restore block (Layer 1 + Layer 2 + the project's and global failure graph, at most 800 tokens) of the newest snapshot, or of the one given. Continue from its next action and do not retry anything its failure graph rejects.",
      inputSchema: schema.loadInput,
      outputSchema: schema.loadOutput,
      annotations: READ_ONLY,
    },
    (a) =>
      withSession(
        false,
        async (session) => {
          const r = await restoreSnapshot(session, a.snapshot, {
            verify: a.verify,
            full: a.full,
            howToSave: HOW_TO_SAVE,
          });
          const s = r.snapshot;
          const text = [
            ...(r.archived ? [archivedLoadText("mcp")] : []),
            ...(r.verify ? [verifyText(r.verify)] : []),
            r.block.text,
          ].join("\n");
          return result(text, {
            snapshot_id: s.name,
            id: s.id,
            created_at: s.created_at,
            status: s.status,
            restore_block: r.block.text,
            tokens: r.block.tokens,
            archived: r.archived,
            ...(r.verify ? { verify: r.verify } : {}),
          });
        },
        a.workspace,
      ),
  );
}

/** recall: a keyword search over the snapshots, or the cold archive (Layer 3) of one. */
function registerRecall(tool: Tool, withSession: WithSession): void {
  tool(
    "recall",
    {
      title: "Search snapshots or read the cold archive",
      description:
        "With keyword: a full-text search over every snapshot's layers in this project (newest first, one context line per hit). Without: the cold archive (Layer 3) of the newest snapshot or the one given, which load never includes.",
      inputSchema: schema.recallInput,
      outputSchema: schema.recallOutput,
      annotations: READ_ONLY,
    },
    (a) =>
      withSession(
        false,
        async (session) => {
          const keyword = a.keyword?.trim();
          if (keyword) {
            const r = await recallSearch(session, [keyword], {
              allProjects: a.all_projects,
              limit: a.limit,
              tag: a.tag,
            });
            return result(recallHitsText(r, "raise limit for more"), {
              query: keyword,
              more: r.more,
              hits: r.hits.map((h) => ({
                snapshot_id: h.name,
                ...(h.project_name ? { project: h.project_name } : {}),
                created_at: h.created_at,
                status: h.status,
                goal: h.goal,
                context: h.context,
              })),
            });
          }
          const { snapshot, text, newest } = await recallArchive(session, {
            key: a.snapshot,
            tag: a.tag,
            allProjects: a.all_projects,
          });
          return result(archiveText(snapshot, text, newest, a.tag), {
            snapshot_id: snapshot.name,
            layer3: text,
          });
        },
        a.workspace,
      ),
  );
}

/** list: the snapshots of this project, a page at a time (the newest LIST_PAGE unless a limit is given). */
function registerList(tool: Tool, withSession: WithSession): void {
  tool(
    "list",
    {
      title: "List snapshots",
      description:
        "The snapshots of this project, newest first: list number, id, when, status and goal. Older ones archived by retention only with all: true (archived_count says how many). Pass an id or number to load or recall.",
      inputSchema: schema.listInput,
      outputSchema: schema.listOutput,
      annotations: READ_ONLY,
    },
    (a) =>
      withSession(
        false,
        async (session) => {
          // All of a long history would flood the model's context: a page unless a limit is asked for.
          const limit = a.limit ?? LIST_PAGE;
          const { context, snapshots, archived, total, numbers } = await snapshotList(session, {
            limit,
            tag: a.tag,
            all: a.all,
          });
          const structured = {
            project: context.project.name,
            archived_count: archived,
            snapshots: snapshots.map((r, i) => ({
              ...(numbers[i] === undefined ? {} : { n: numbers[i] }),
              snapshot_id: r.name,
              id: r.id,
              created_at: r.created_at,
              status: r.status,
              kind: r.kind,
              goal: r.goal,
              tags: r.tags,
              archived: r.archived,
            })),
          };
          // Without all, the archived ones are only counted: the last line says how to see them.
          const more = !a.all && archived ? [archivedCountText(archived, "mcp", a.tag)] : [];
          if (a.limit === undefined && total > snapshots.length)
            more.push(
              `The newest ${LIST_PAGE} ${a.all ? `are shown (${archived} archived in all)` : `of ${total} are shown`}; pass limit for more.`,
            );
          const lines = snapshots.length
            ? [
                `Snapshots of ${context.project.name}, newest first${a.all ? ", archived ones included" : ""}:`,
                numberedList(snapshots, session.now(), 120, new Map(), false, numbers),
              ]
            : [`No snapshots in project ${context.project.name} yet.`];
          return result([...lines, ...more].join("\n"), structured);
        },
        a.workspace,
      ),
  );
}

/** fail: a rejected approach recorded in the failure graph. */
function registerFail(tool: Tool, withSession: WithSession): void {
  tool(
    "fail",
    {
      title: "Record a rejected approach",
      description:
        "Record a rejected approach in the failure graph (Layer 2), shown in every later restore block so no session retries it. Recording the same item again adds one to its repeat count and merges the new details.",
      inputSchema: schema.failInput,
      outputSchema: schema.failOutput,
      annotations: ADDS,
    },
    (a) =>
      withSession(
        true,
        async (session) => {
          const r = await recordFailure(session, {
            item: a.item,
            reason: a.reason,
            rejected_by: a.rejected_by,
            scope: a.scope,
            confidence: a.confidence,
            related: a.related,
            alternatives: a.alternatives,
            increment: true,
          });
          const f = r.failure;
          return result(failureSummary(r), {
            item: f.item,
            scope: f.scope,
            rejected_by: f.rejected_by,
            reason: f.reason,
            repeat_count: f.repeat_count,
            confidence: r.confidence,
            related: f.related,
            alternatives: f.alternatives,
          });
        },
        a.workspace,
      ),
  );
}

/** The restore block as a resource, for clients that read resources rather than call tools. */
function registerRestoreBlock(server: McpServer, withSession: WithSession): void {
  server.registerResource(
    "restore-block",
    RESTORE_BLOCK_URI,
    {
      title: "MindSave restore block",
      description:
        "The restore block (Layer 1 + Layer 2 + failures) of this project's newest snapshot, as the load tool returns it.",
      mimeType: "text/markdown",
    },
    async (uri) => {
      try {
        const r = await withSession(false, (session) =>
          restoreSnapshot(session, undefined, { howToSave: HOW_TO_SAVE }),
        );
        return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: r.block.text }] };
      } catch (e) {
        // -32002 is MCP's "resource not found": no project or no snapshot here yet.
        throw isUserError(e)
          ? new McpError(-32002, e.message, { uri: uri.href })
          : new McpError(ErrorCode.InternalError, errorMessage(e));
      }
    },
  );
}
