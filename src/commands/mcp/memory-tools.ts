// The MCP tools of memory over weeks: rules, fact/facts, retire, plan, diff. Each calls one engine
// use case and returns the text the CLI prints plus the same facts as structured content.
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { UserError } from "../../errors.ts";
import {
  addRule,
  editRule,
  parseScope,
  removeRule,
  rulesHere,
  rulesListText,
  RULES_BUDGET,
} from "../../engine/memory/rules.ts";
import {
  addFact,
  dropFact,
  factExpiry,
  factsHere,
  factsListText,
  isFresh,
  renewFact,
} from "../../engine/memory/facts.ts";
import { retire, retireCandidates, retireListText, unretire } from "../../engine/memory/retire.ts";
import { markStep, planOf, setPlan } from "../../engine/memory/plan.ts";
import { parsePlan, planLine, planText } from "../../engine/snapshots/plan.ts";
import { diffInProject, diffText } from "../../engine/snapshots/diff.ts";
import { ADDS, READ_ONLY, SAVES, result, toolRegistrar, type Tool, type WithSession } from "./tools.ts";

const workspace = z
  .string()
  .optional()
  .describe(
    "The project's folder, an absolute path (default: the client's first root, else the server's folder).",
  );
const number = (what: string) =>
  z
    .union([z.number().int().min(1), z.string()])
    .optional()
    .describe(what);
const planItem = z.union([
  z.string(),
  z
    .object({
      content: z.string(),
      status: z.enum(["pending", "in_progress", "completed"]),
      activeForm: z.string().optional(),
    })
    .passthrough(),
]);
const listOf = z.array(z.record(z.string(), z.unknown()));

/** The tools of memory over weeks; `client` names the client that retires an item. */
export function registerMemoryTools(
  server: McpServer,
  withSession: WithSession,
  client: () => string | undefined,
): void {
  const tool = toolRegistrar(server, withSession);
  registerRules(tool, withSession);
  registerFact(tool, withSession);
  registerFacts(tool, withSession);
  registerRetire(tool, withSession, client);
  registerPlan(tool, withSession);
  registerDiff(tool, withSession);
}

/** rules: the standing rules listed, added, edited or removed. */
function registerRules(tool: Tool, withSession: WithSession): void {
  tool(
    "rules",
    {
      title: "Standing rules",
      description: `Standing rules always apply in this project (and global ones in every project), for every agent on every host; they are restored first and never trimmed (all of them within ${RULES_BUDGET} tokens). action: list (default), add (text, scope), edit (number, text), remove (number).`,
      inputSchema: {
        action: z
          .enum(["list", "add", "edit", "remove"])
          .optional()
          .describe("What to do (default list: the rules that apply here, numbered)."),
        text: z.string().optional().describe("add/edit: the rule, one line, e.g. 'Never push to main'."),
        number: number(
          "edit/remove: the rule's number in the list, or a piece of its text (which stays right if the list changed since you read it).",
        ),
        scope: z.enum(["project", "global"]).optional().describe("add: project (default) or global."),
        workspace,
      },
      outputSchema: { rules: listOf, tokens: z.number(), budget: z.number() },
      annotations: SAVES,
    },
    (a) =>
      withSession(
        a.action !== undefined && a.action !== "list",
        async (session) => {
          const n = a.number === undefined ? "" : String(a.number);
          if ((a.action === "add" || a.action === "edit") && !a.text?.trim())
            throw new UserError(`rules ${a.action} needs text.`);
          if ((a.action === "edit" || a.action === "remove") && !n)
            throw new UserError(`rules ${a.action} needs the rule's number or a piece of its text.`);
          if (a.action === "add") await addRule(session, a.text!, parseScope(a.scope));
          else if (a.action === "edit") await editRule(session, n, a.text!);
          else if (a.action === "remove") await removeRule(session, n);
          const { rules, tokens } = await rulesHere(session);
          return result(rulesListText(rules, tokens), {
            rules: rules.map((r, i) => ({ number: i + 1, text: r.text, scope: r.scope })),
            tokens,
            budget: RULES_BUDGET,
          });
        },
        a.workspace,
      ),
  );
}

/** fact: a belief about the world recorded (or renewed) with a time to live. */
function registerFact(tool: Tool, withSession: WithSession): void {
  tool(
    "fact",
    {
      title: "Record a fact that expires",
      description:
        "Record a belief about the world with a time to live, e.g. 'staging DB is read-only until Friday' (ttl 3d). Fresh facts are restored with the state; expired ones never are. Stating the same fact again renews it, keeping its confidence and time to live unless new ones are given.",
      inputSchema: {
        text: z.string().describe("The fact, one line, e.g. 'staging DB is read-only until Friday'."),
        ttl: z.string().optional().describe("How long it holds: 30m, 12h, 3d, 2w or never (default 7d)."),
        confidence: z
          .enum(["low", "medium", "high"])
          .optional()
          .describe("How sure you are of it: low, medium (default) or high."),
        scope: z
          .enum(["project", "global"])
          .optional()
          .describe("project (default: this project only) or global (every project)."),
        workspace,
      },
      outputSchema: {
        text: z.string(),
        confidence: z.string(),
        expires_at: z.string().nullable(),
        renewed: z.boolean(),
      },
      annotations: ADDS,
    },
    (a) =>
      withSession(
        true,
        async (session) => {
          const { fact, renewed } = await addFact(session, a.text, {
            ttl: a.ttl,
            confidence: a.confidence,
            scope: a.scope,
          });
          return result(
            `${renewed ? "Renewed" : "Recorded"} fact (${fact.confidence}, ${factExpiry(fact)}): ${fact.text}`,
            { text: fact.text, confidence: fact.confidence, expires_at: fact.expires_at, renewed },
          );
        },
        a.workspace,
      ),
  );
}

/** facts: the facts here listed, renewed or dropped. */
function registerFacts(tool: Tool, withSession: WithSession): void {
  tool(
    "facts",
    {
      title: "List, renew or drop facts",
      description:
        "The facts here, fresh and expired, numbered. action: list (default; stale: true for the expired only), renew (number, optional ttl), drop (number).",
      inputSchema: {
        action: z
          .enum(["list", "renew", "drop"])
          .optional()
          .describe("What to do (default list: every fact, numbered)."),
        number: number(
          "renew/drop: the fact's number in the list, or a piece of its text (which stays right if the list changed since you read it).",
        ),
        ttl: z.string().optional().describe("renew: a new time to live (30m, 12h, 3d, 2w or never)."),
        stale: z.boolean().optional().describe("list: true for only the expired facts, to renew or drop."),
        workspace,
      },
      outputSchema: { facts: listOf },
      annotations: SAVES,
    },
    (a) =>
      withSession(
        a.action === "renew" || a.action === "drop",
        async (session) => {
          const n = a.number === undefined ? "" : String(a.number);
          if ((a.action === "renew" || a.action === "drop") && !n)
            throw new UserError(`facts ${a.action} needs the fact's number or a piece of its text.`);
          if (a.action === "renew") await renewFact(session, n, a.ttl);
          else if (a.action === "drop") await dropFact(session, n);
          const now = session.now();
          const facts = await factsHere(session);
          return result(factsListText(facts, now, { stale: a.stale }), {
            facts: facts
              .map((f, i) => ({
                number: i + 1,
                text: f.text,
                confidence: f.confidence,
                scope: f.scope,
                fresh: isFresh(f, now),
                expires_at: f.expires_at,
              }))
              .filter((f) => !a.stale || !f.fresh),
          });
        },
        a.workspace,
      ),
  );
}

/** retire: a constraint or decision marked no longer true (or brought back), by this client. */
function registerRetire(tool: Tool, withSession: WithSession, client: () => string | undefined): void {
  tool(
    "retire",
    {
      title: "Retire a constraint or decision",
      description:
        "Mark a constraint or decision as no longer true: later snapshots (automatic ones too) do not carry it, no restore block shows it, recall still finds it with who retired it. Without item: the numbered list of what can be retired, and what is retired. undo: true brings a retired item back.",
      inputSchema: {
        item: z
          .string()
          .optional()
          .describe("Its number in the list, or its text (a unique part is enough)."),
        reason: z
          .string()
          .optional()
          .describe("Why it is no longer true, one sentence (kept with the retirement)."),
        undo: z
          .boolean()
          .optional()
          .describe("true to bring a retired item back (item: its number in the retired list, or its text)."),
        workspace,
      },
      outputSchema: { candidates: listOf, retired: listOf },
      annotations: SAVES,
    },
    (a) =>
      withSession(
        !!a.item?.trim(),
        async (session) => {
          const key = a.item?.trim();
          let done = "";
          if (key && a.undo) done = `Brought back the ${(await unretire(session, key)).kind}.`;
          else if (key) {
            const r = await retire(session, key, { reason: a.reason, by: client() });
            done = `Retired the ${r.kind}: ${r.text}.`;
          }
          const { candidates, retired } = await retireCandidates(session);
          return result([done, retireListText(candidates, retired)].filter(Boolean).join("\n\n"), {
            candidates: candidates.map((c, i) => ({ number: i + 1, kind: c.kind, text: c.text })),
            retired: retired.map((r, i) => ({
              number: i + 1,
              kind: r.kind,
              text: r.text,
              reason: r.reason,
              retired_at: r.retired_at,
              retired_by: r.retired_by,
            })),
          });
        },
        a.workspace,
      ),
  );
}

/** plan: the task list of the newest snapshot read, set, or moved a step. */
function registerPlan(tool: Tool, withSession: WithSession): void {
  tool(
    "plan",
    {
      title: "Your plan, kept whole",
      description:
        "The task list kept with the newest snapshot, verbatim with statuses. Without arguments: the plan. set: replace it (your todo list). step + status: move one step (of the plan given in set, if any).",
      inputSchema: {
        set: z
          .array(planItem)
          .optional()
          .describe(
            'The whole plan: steps as {content, status} or text ("[x] done", "[>] in progress", plain = pending).',
          ),
        step: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe("A step's number in the plan (1 = first), with status."),
        status: z
          .enum(["pending", "in_progress", "completed"])
          .optional()
          .describe("The step's new status, with step."),
        workspace,
      },
      outputSchema: { snapshot_id: z.string(), plan: listOf.nullable(), progress: z.string().nullable() },
      annotations: SAVES,
    },
    (a) =>
      withSession(
        a.set !== undefined || a.step !== undefined,
        async (session) => {
          if ((a.step === undefined) !== (a.status === undefined))
            throw new UserError("Give step and status together.");
          let set: unknown[] | undefined = a.set;
          if (set !== undefined && a.step !== undefined) {
            // set with step + status: the step's status applies to the plan being set, in the same write.
            const steps = parsePlan(set, "set");
            if (a.step > steps.length)
              throw new UserError(`There is no step ${a.step} in the plan given; it has ${steps.length}.`);
            set = steps.map((p, i) => (i === a.step! - 1 ? { ...p, status: a.status! } : p));
          }
          const r =
            set !== undefined
              ? await setPlan(session, set)
              : a.step !== undefined
                ? await markStep(session, String(a.step), a.status!)
                : await planOf(session);
          const plan = r.plan?.length ? r.plan : null;
          return result(
            plan ? `${planLine(plan)}\n\n${planText(plan)}` : `Snapshot ${r.snapshot.name} has no plan.`,
            { snapshot_id: r.snapshot.name, plan, progress: planLine(plan) },
          );
        },
        a.workspace,
      ),
  );
}

/** diff: what changed between two snapshots, per layer. */
function registerDiff(tool: Tool, withSession: WithSession): void {
  tool(
    "diff",
    {
      title: "What changed between two snapshots",
      description:
        "Per layer, what was added, changed, retired or completed between two snapshots of this project (default: the two newest), and which failures were added or repeated. How to review what was done overnight.",
      inputSchema: {
        a: z
          .string()
          .optional()
          .describe(
            "The snapshot to compare from (id, prefix or list number, 1 = newest): usually the older one.",
          ),
        b: z.string().optional().describe("The one to compare to (default: the newest)."),
        workspace,
      },
      outputSchema: { from: z.string(), to: z.string(), lines: z.array(z.string()) },
      annotations: READ_ONLY,
    },
    (a) =>
      withSession(
        false,
        async (session) => {
          const d = await diffInProject(session, a.a, a.b);
          const lines = diffText(d);
          return result(lines.join("\n"), { from: d.from.name, to: d.to.name, lines });
        },
        a.workspace,
      ),
  );
}
