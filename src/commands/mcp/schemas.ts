// The MCP tools' argument and result schemas. The descriptions are what an agent reads to fill
// the arguments in, so they say what each field means in MindSave's words.
import { z } from "zod";
import { SNAPSHOT_STATUSES } from "../../engine/snapshots/input-fields.ts";

export const INSTRUCTIONS = `MindSave is a save game for your working state in this project. Call \`load\` at the start of a session to resume from the newest snapshot (continue from its next action; never retry what its failure graph rejects). Call \`save\` at milestones, before the context fills up (\`overflow: true\` when it is nearly full), and before ending. Record a rejected approach with \`fail\` the moment it is rejected. \`recall\` searches every snapshot or reads the cold archive (Layer 3). Standing rules (\`rules\`) always apply; \`retire\` marks a constraint or decision that is no longer true; \`fact\` records a belief that expires; \`plan\` keeps your task list; \`diff\` shows what changed between snapshots.`;

/** How the save tool asks for a goal: said when none is given, blank included (saveSnapshot's one check). */
export const GOAL_HINT = "the task's objective in one sentence";

const textList = (description: string) => z.array(z.string()).optional().describe(description);

/** Every tool may name the project's folder; without it the client's root (or the server's folder) is used. */
const workspace = z
  .string()
  .optional()
  .describe(
    "The project's folder, an absolute path (default: the client's first root, else the folder the server was started in). Any folder inside the project works.",
  );

// ---- input schemas: the descriptions are what an agent reads to fill them in ----

export const saveInput = {
  goal: z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? `A snapshot needs a goal: ${GOAL_HINT}.`
          : `goal must be text: ${GOAL_HINT}.`,
    })
    .describe("Layer 1 (execution register, always restored): the task's objective, one sentence. Required."),
  state: z
    .string()
    .optional()
    .describe(
      "Layer 1: where the work stands right now, one sentence (e.g. 'endpoint written, 2 tests red').",
    ),
  next_action: z
    .string()
    .optional()
    .describe("Layer 1: the immediate next step, concrete enough to start on without rereading anything."),
  active_files: textList(
    "Layer 1: files being worked on, relative to the project directory or absolute; load's verify checks them for changes.",
  ),
  blocker: z
    .string()
    .optional()
    .describe(
      "Layer 1: what blocks progress, or 'none' (default). A blocker makes the status 'blocked' unless status is given.",
    ),
  constraints: textList(
    "Layer 2 (cognitive cache, restored with Layer 1): the user's preferences and rules to keep obeying, one per item (e.g. 'no new dependencies').",
  ),
  decisions: textList(
    "Layer 2: decisions already taken, so a resumed session does not reopen them (e.g. 'use polling, not websockets').",
  ),
  failed: textList(
    'Layer 2 failure graph, legacy excluded-paths style: rejected approaches as lines like "Don\'t use Tailwind — style conflicts" (item before the dash, reason after). For who rejected it, scope and alternatives use the fail tool.',
  ),
  topic: z
    .string()
    .optional()
    .describe(
      "Topic slug for the snapshot id {topic}_{YYYY-MM-DD} (up to 20 characters; default: derived from the goal).",
    ),
  status: z
    .enum(SNAPSHOT_STATUSES)
    .optional()
    .describe(
      "in_progress, completed or blocked (default: blocked when there is a blocker, else in_progress). Completed snapshots older than 30 days are cleaned up; the others are kept.",
    ),
  layer3: z
    .string()
    .optional()
    .describe(
      "Layer 3 (cold archive, never restored automatically; read back with recall): markdown worth keeping, e.g. completed steps, findings, commands, logs.",
    ),
  plan: z
    .array(
      z.union([
        z.string(),
        z
          .object({
            content: z.string(),
            status: z.enum(["pending", "in_progress", "completed"]),
            activeForm: z.string().optional(),
          })
          .passthrough(),
      ]),
    )
    .optional()
    .describe(
      "Your task list, verbatim with statuses (e.g. your todo list); kept whole, the restore block shows 'plan 3/7 · now · next'. Omit to keep the previous snapshot's plan when the goal is the same.",
    ),
  tags: textList("Tags to list, recall and filter by (e.g. 'release', 'spike')."),
  overflow: z
    .boolean()
    .optional()
    .describe(
      "true when the context window is nearly full: saves a Layer-1-only OVF_ snapshot quickly; Layer 2 and Layer 3 given here are not saved.",
    ),
  workspace,
};

export const loadInput = {
  snapshot: z
    .string()
    .optional()
    .describe(
      "Which snapshot: its snapshot id (e.g. add_jwt_refresh_2026-11-21), a unique prefix of it, or its list number (1 = newest, as in list). Default: the newest.",
    ),
  verify: z
    .boolean()
    .optional()
    .describe(
      "true to also report active files that are missing or changed on this host since the snapshot.",
    ),
  full: z
    .boolean()
    .optional()
    .describe("true to list every active file and keep all of Layer 2, even over the 800-token budget."),
  workspace,
};

export const recallInput = {
  keyword: z
    .string()
    .optional()
    .describe(
      'Words to search for in every snapshot\'s layers (all must match; "quote" a phrase; matched literally, any script). Without it: the cold archive (Layer 3) of one snapshot.',
    ),
  snapshot: z
    .string()
    .optional()
    .describe(
      "Without keyword: whose Layer 3 to show (snapshot id, a unique prefix of it, or list number; default: the newest).",
    ),
  all_projects: z
    .boolean()
    .optional()
    .describe("With keyword: search every project in the store, not only this one."),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("With keyword: at most this many hits, newest first (default 20)."),
  tag: z
    .string()
    .optional()
    .describe(
      "Only snapshots with this tag: the hits, or without keyword the newest tagged snapshot's archive.",
    ),
  workspace,
};

export const listInput = {
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("Show at most this many snapshots, newest first (default: the newest 50)."),
  tag: z.string().optional().describe("Only snapshots with this tag (as given to save's tags)."),
  all: z
    .boolean()
    .optional()
    .describe(
      "true to include the archived snapshots (retention leaves older ones out of the list; they stay whole: load and recall take their ids).",
    ),
  workspace,
};

export const failInput = {
  item: z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? "A failure needs the item that was rejected, e.g. 'Tailwind'."
          : "item must be text, e.g. 'Tailwind'.",
    })
    .describe(
      "What was rejected: an approach, library or idea, short (e.g. 'websocket reconnect'). Recording the same item again adds one to its repeat count.",
    ),
  reason: z
    .string()
    .optional()
    .describe("Why it failed or was rejected, one sentence. Required the first time an item is recorded."),
  rejected_by: z
    .enum(["user", "system"])
    .optional()
    .describe(
      "Who rejected it: 'user' (the person said no) or 'system' (it failed when tried). Default: user, or as recorded before.",
    ),
  scope: z
    .enum(["project", "global"])
    .optional()
    .describe("'project' (default: this project only) or 'global' (shown in every project's restore block)."),
  confidence: z
    .enum(["high", "medium", "low"])
    .optional()
    .describe(
      "How sure the rejection is; default: derived from repeats (3+ high, 2 or recent medium, else low).",
    ),
  related: textList("Related items (e.g. other libraries hit by the same problem)."),
  alternatives: textList("Approaches to try instead of this one; the restore block shows them next to it."),
  workspace,
};

// ---- output schemas: the structured content each tool returns next to its text ----

export const saveOutput = {
  snapshot_id: z.string().describe("the snapshot's id (name) for load and recall"),
  id: z.string().describe("the snapshot's unique record id"),
  project: z.string(),
  status: z.string(),
  kind: z.string().describe("full, or overflow (Layer 1 only)"),
  tokens: z.object({ layer1: z.number(), layer2: z.number() }),
  tags: z.array(z.string()),
  warnings: z.array(z.string()),
  archived: z
    .array(z.string())
    .describe(
      "snapshots retention archived after this save, the oldest 20 at most: out of the default lists, still whole (load by id, recall)",
    ),
  archived_count: z.number().describe("how many snapshots retention archived after this save"),
};

export const loadOutput = {
  snapshot_id: z.string(),
  id: z.string(),
  created_at: z.string(),
  status: z.string(),
  restore_block: z.string(),
  tokens: z.number(),
  archived: z.boolean().describe("retention archived this snapshot: out of the default list, still whole"),
  verify: z
    .array(
      z.object({
        path: z.string(),
        absolute: z.string(),
        status: z.string(),
        modified_at: z.string().optional(),
      }),
    )
    .optional(),
};

export const recallOutput = {
  snapshot_id: z.string().optional(),
  layer3: z.string().optional(),
  query: z.string().optional(),
  hits: z
    .array(
      z.object({
        snapshot_id: z.string(),
        project: z.string().optional(),
        created_at: z.string(),
        status: z.string(),
        goal: z.string(),
        context: z.string(),
      }),
    )
    .optional(),
  more: z.boolean().optional(),
};

export const listOutput = {
  project: z.string(),
  snapshots: z.array(
    z.object({
      n: z
        .number()
        .optional()
        .describe("the list number load takes (1 = newest); none for an archived snapshot"),
      snapshot_id: z.string(),
      id: z.string(),
      created_at: z.string(),
      status: z.string(),
      kind: z.string(),
      goal: z.string(),
      tags: z.array(z.string()),
      archived: z.boolean().describe("retention left it out of the default list; still whole"),
    }),
  ),
  archived_count: z
    .number()
    .describe("how many of the project's snapshots are archived (listed here only with all: true)"),
};

export const failOutput = {
  item: z.string(),
  scope: z.string(),
  rejected_by: z.string(),
  reason: z.string(),
  repeat_count: z.number(),
  confidence: z.string(),
  related: z.array(z.string()),
  alternatives: z.array(z.string()),
};
