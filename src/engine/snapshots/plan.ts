// The agent's plan (Claude Code's TodoWrite list, Codex's update_plan, or `mindsave plan set`),
// kept verbatim with its statuses: the restore block shows one progress line, `mindsave plan` and
// the TUI show it whole.
import { UserError } from "../../errors.ts";
import { graphemeBoundary, printable } from "../../lib/text.ts";
import { stripControlDeep } from "./input-limits.ts";
// yaml on first use (layers.ts): the restore block shows a plan without parsing any YAML.
import { YAML } from "./layers.ts";
import { MAX_AHEAD_MS, PLAN_STATUS_AT, type PlanItem, type PlanStatus } from "../../store/store.ts";

/** The most steps a plan keeps (TodoWrite lists are short; this bounds a hostile one). */
export const PLAN_MAX_ITEMS = 200;
/** The most characters of one step. */
export const PLAN_ITEM_MAX = 2000;

const STATUS: Record<string, PlanStatus> = {
  pending: "pending",
  todo: "pending",
  open: "pending",
  not_started: "pending",
  " ": "pending",
  "": "pending",
  in_progress: "in_progress",
  "in-progress": "in_progress",
  "in progress": "in_progress",
  doing: "in_progress",
  now: "in_progress",
  active: "in_progress",
  ">": "in_progress",
  completed: "completed",
  complete: "completed",
  done: "completed",
  x: "completed",
};

export function planStatus(value: unknown, where: string): PlanStatus {
  const s =
    STATUS[
      String(value ?? "")
        .trim()
        .toLowerCase()
    ];
  if (!s)
    throw new UserError(
      `${where}: status must be pending, in_progress or completed, not ${JSON.stringify(String(value))}.`,
    );
  return s;
}

/**
 * A plan from YAML/JSON: a list of steps, each a mapping (`content`/`status`/`activeForm`, or
 * `step`/`text` for the text; other keys kept verbatim) or a line of text ("[x] done", "[>] now",
 * "[ ] later", or plain = pending). `todos:` or `plan:` around the list is accepted.
 */
export function parsePlan(raw: unknown, where = "plan"): PlanItem[] {
  let value = stripControlDeep(raw);
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    value = o.plan ?? o.todos ?? o.items;
  }
  if (!Array.isArray(value))
    throw new UserError(`${where} must be a list of steps (text, or mappings with content and status).`);
  if (value.length > PLAN_MAX_ITEMS)
    throw new UserError(`${where} has ${value.length} steps; at most ${PLAN_MAX_ITEMS} are kept.`);
  return value.map((item, i) => {
    const at = `${where} step ${i + 1}`;
    if (typeof item === "string" || typeof item === "number") {
      const m = /^\s*\[([ xX>])\]\s*(.*)$/.exec(String(item));
      return step(
        { content: m ? m[2] : String(item), status: m ? planStatus(m[1].toLowerCase(), at) : "pending" },
        at,
      );
    }
    if (!item || typeof item !== "object" || Array.isArray(item))
      throw new UserError(`${at} must be text or a mapping with content and status.`);
    const o = item as Record<string, unknown>;
    const content = o.content ?? o.step ?? o.text ?? o.title;
    if (typeof content !== "string") throw new UserError(`${at} needs its text in \`content\`.`);
    const out: PlanItem = { ...o, content, status: planStatus(o.status ?? "pending", at) };
    // MindSave's own key in a stored step (store/rows.ts): never taken from what an agent gives.
    delete out[PLAN_STATUS_AT];
    for (const k of ["step", "text", "title"]) if (k in out && out[k] === content) delete out[k];
    return step(out, at);
  });
}

const FORMATS =
  'a checklist ("- [x] done", "- [>] now", "- [ ] next", or what `mindsave plan` prints) or a YAML list of steps';
/** One list line of a checklist: `- [x] a` (markdown), ` 2. [>] b` (`mindsave plan`), `- c` (pending). */
const LIST_LINE = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[([ xX>]?)\](?:\s+|$))?(.*)$/;
/** The progress line `mindsave plan` prints above its steps, skipped so its output reads back. */
const PROGRESS_LINE = /^plan \d+\/\d+ · .*\(snapshot [^)]*\)\s*$/;

/** The steps of a markdown checklist or of `mindsave plan`'s output; null when the text is not one. */
function checklist(text: string): string[] | null {
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  if (lines.length && PROGRESS_LINE.test(lines[0])) lines.shift();
  const items = lines.map((l) => LIST_LINE.exec(l));
  // At least one box: a plain `- a` list is YAML already, and `- content: a` must stay YAML.
  if (!items.length || items.some((m) => !m) || !items.some((m) => m![1] !== undefined)) return null;
  return items.map((m) => (m![1] === undefined ? m![2] : `[${m![1] || " "}] ${m![2]}`));
}

/** A plan from text (a file or stdin): a checklist, MindSave's own `plan` output, or YAML/JSON. */
export function parsePlanText(text: string, origin: string): PlanItem[] {
  text = text.replace(/^\uFEFF/, "");
  if (!text.trim()) throw new UserError(`${origin} is empty; give the plan as ${FORMATS}.`);
  const steps = checklist(text);
  if (steps) return parsePlan(steps, origin);
  let data: unknown;
  try {
    const doc = YAML().parseDocument(text);
    if (doc.errors.length) throw doc.errors[0];
    planAsWritten(doc.contents);
    data = doc.toJS({ maxAliasCount: 0 });
  } catch (e) {
    const why = (e as Error).message.split("\n")[0].replace(/:$/, "");
    throw new UserError(`${origin} is not a plan: give ${FORMATS} (YAML: ${why}).`);
  }
  if (typeof data !== "object" || data === null)
    throw new UserError(`${origin} is not a plan: give ${FORMATS}.`);
  return parsePlan(data, origin);
}

/**
 * A YAML node read as the text it was written with where YAML would make it a number or a boolean
 * (`1.10` is 1.1, `1e3` is 1000, `True` is true): in a field that holds text, those are text.
 */
export function asWritten(node: unknown): void {
  const Y = YAML();
  if (
    Y.isScalar(node) &&
    (typeof node.value === "number" || typeof node.value === "boolean") &&
    typeof node.source === "string"
  )
    node.value = node.source;
  else if (Y.isSeq(node)) {
    // A list item written `~` or `null` is that text, not an item that vanishes (an empty `-` still does).
    for (const item of node.items) {
      if (Y.isScalar(item) && item.value === null && typeof item.source === "string" && item.source)
        item.value = item.source;
      else asWritten(item);
    }
  }
}

/** A plan's steps (a list, or `plan:`/`todos:`/`items:` around it) as written: their text, never a number. */
export function planAsWritten(node: unknown): void {
  const Y = YAML();
  if (Y.isMap(node)) {
    for (const pair of node.items) {
      const key = Y.isScalar(pair.key) ? pair.key.value : null;
      if (key === "plan" || key === "todos" || key === "items") planAsWritten(pair.value);
    }
  } else if (Y.isSeq(node)) {
    for (const item of node.items) {
      if (!Y.isMap(item)) asWritten(item);
      else
        for (const pair of item.items)
          if (Y.isScalar(pair.key) && ["content", "step", "text", "title"].includes(String(pair.key.value)))
            asWritten(pair.value);
    }
  }
}

function step(item: PlanItem, at: string): PlanItem {
  const content = item.content.trim();
  if (!content) throw new UserError(`${at} is empty.`);
  if (content.length > PLAN_ITEM_MAX)
    throw new UserError(`${at} is ${content.length} characters; at most ${PLAN_ITEM_MAX}.`);
  return { ...item, content };
}

export function planProgress(plan: PlanItem[]): {
  done: number;
  total: number;
  now: PlanItem | null;
  next: PlanItem | null;
} {
  const done = plan.filter((p) => p.status === "completed").length;
  const now = plan.find((p) => p.status === "in_progress") ?? null;
  const after = now ? plan.slice(plan.indexOf(now) + 1) : plan;
  const next =
    after.find((p) => p.status === "pending") ??
    (now ? (plan.find((p) => p.status === "pending") ?? null) : null);
  return { done, total: plan.length, now, next };
}

/** "plan 3/7 · now: … · next: …" — the restore block's one plan line. */
export function planLine(plan: PlanItem[] | null): string | null {
  if (!plan?.length) return null;
  const p = planProgress(plan);
  const parts = [`plan ${p.done}/${p.total}`];
  if (p.now) parts.push(`now: ${oneLine(p.now.content)}`);
  if (p.next) parts.push(`next: ${oneLine(p.next.content)}`);
  if (!p.now && !p.next) parts.push(p.done === p.total ? "all steps done" : "nothing in progress");
  return parts.join(" · ");
}

const MARK: Record<PlanStatus, string> = { completed: "[x]", in_progress: "[>]", pending: "[ ]" };

/** The whole plan, one step a line, as `mindsave plan` prints it. */
export function planText(plan: PlanItem[]): string {
  return plan.map((p, i) => `${String(i + 1).padStart(2)}. ${MARK[p.status]} ${p.content}`).join("\n");
}

const oneLine = (s: string) => {
  const flat = printable(s.replace(/\s+/g, " ")).trim();
  return flat.length > 120 ? `${flat.slice(0, graphemeBoundary(flat, 119, "down"))}…` : flat;
};

const STEP_RANK: Record<PlanStatus, number> = { pending: 0, in_progress: 1, completed: 2 };

/**
 * Each step of `plan` paired with the same step of `other` (its index there, or null): the same
 * text, the first of that text with the first, the second with the second. A step added, removed
 * or moved on one side leaves the others paired.
 */
function pairedSteps(plan: readonly PlanItem[], other: readonly PlanItem[]): (number | null)[] {
  const places = new Map<string, number[]>();
  other.forEach((step, i) => places.set(step.content, [...(places.get(step.content) ?? []), i]));
  const seen = new Map<string, number>();
  return plan.map((step) => {
    const nth = seen.get(step.content) ?? 0;
    seen.set(step.content, nth + 1);
    return places.get(step.content)?.[nth] ?? null;
  });
}

/**
 * When MindSave saw each step of `next` change its status: now, or, for a step that stands as it
 * stood in `before` (the same step, with the same status, wherever it is now), the time it had there
 * (null: not known). Kept with the plan (SnapshotRecord.plan_times), so a sync that meets two edits
 * of one plan can tell which side changed a step last.
 */
export function planTimes(
  next: PlanItem[],
  before: PlanItem[] | null | undefined,
  beforeTimes: (string | null)[] | null | undefined,
  now: Date,
): (string | null)[] {
  const at = now.toISOString();
  const pairs = before ? pairedSteps(next, before) : [];
  return next.map((step, i) => {
    const j = pairs[i] ?? null;
    return j !== null && before![j].status === step.status ? (beforeTimes?.[j] ?? null) : at;
  });
}

/** A stored step's time of its last status change; NaN when it has none, or one that is not a time or lies over a day ahead (a clock that ran ahead, as sync's clocks are held). */
function statusTime(step: PlanItem, nowMs: number): number {
  const at = step[PLAN_STATUS_AT];
  const t = typeof at === "string" ? Date.parse(at) : NaN;
  return t <= nowMs + MAX_AHEAD_MS ? t : NaN;
}

/**
 * One plan edited on two laptops between two syncs (the steps as stored, each with its time): each
 * step both edits hold (pairedSteps) takes the later of its two changes, a reopen included; a
 * change with a time wins over one without; where neither has one (or both the same), the furthest
 * status either gave it, so no progress is lost. Which steps there are, and their order, are the
 * kept edit's (the later one: a step it added or removed stays so). Null when no step is in both,
 * or a step is none.
 */
export function mergeConcurrentPlans(
  kept: PlanItem[],
  other: PlanItem[],
  nowMs = Date.now(),
): PlanItem[] | null {
  // (A peer's plan is read as stored: a step that is not one is no plan to merge.)
  const steps = (p: PlanItem[]) =>
    p.every((s) => !!s && typeof s === "object" && typeof s.content === "string");
  if (!steps(kept) || !steps(other)) return null;
  const pairs = pairedSteps(kept, other);
  if (pairs.every((j) => j === null)) return null;
  return kept.map((step, i) => {
    const j = pairs[i];
    const theirs = j === null ? step : other[j];
    if (theirs.status === step.status) return step;
    const [mine, their] = [statusTime(step, nowMs), statusTime(theirs, nowMs)];
    const [knowMine, knowTheirs] = [Number.isFinite(mine), Number.isFinite(their)];
    const theirsWin =
      knowMine && knowTheirs && mine !== their
        ? their > mine
        : knowMine !== knowTheirs
          ? knowTheirs
          : STEP_RANK[theirs.status] > STEP_RANK[step.status];
    return theirsWin
      ? {
          ...step,
          status: theirs.status,
          ...(knowTheirs ? { [PLAN_STATUS_AT]: theirs[PLAN_STATUS_AT] } : {}),
        }
      : step;
  });
}
