// Standing rules: what always applies, for every agent on every laptop. A rule is one line, of the
// project or global; all rules that apply in a project share one small budget, so they can be
// restored first in every block and never trimmed.
import { UserError } from "../../errors.ts";
import { derivedId } from "../ids.ts";
import { redact } from "../snapshots/redact.ts";
import { stripControl, FIELD_MAX } from "../snapshots/input-limits.ts";
import { countTokens, loadTokenizer } from "../snapshots/tokens.ts";
import { inline } from "../snapshots/layers.ts";
import { normaliseItem } from "../failures/graph.ts";
import { chooseItem } from "./choose.ts";
import type { Session } from "../session.ts";
import { resolveProject } from "../projects/resolve.ts";
import type { Queries, RuleRecord } from "../../store/store.ts";

/** The most tokens the rules of one project (its own and the global ones) may take in the block. */
export const RULES_BUDGET = 150;
export const RULES_TITLE = "## Standing rules (always apply)";

export type RuleScope = "project" | "global";

/** A rule's id, from its scope, project and text: two hosts (or an import) stating it make one record. */
export function ruleId(scope: RuleScope, projectId: string | null, text: string): string {
  return derivedId("r", scope, projectId ?? "", normaliseItem(text));
}

/**
 * The id a new rule of this text gets among `existing`: the one its words make, unless an edited
 * rule holds it (an edit keeps a rule's id); then one made from that rule's id too, so two hosts
 * adding it still make one record.
 */
export function newRuleId(
  existing: Pick<RuleRecord, "id">[],
  scope: RuleScope,
  projectId: string | null,
  text: string,
): string {
  const id = ruleId(scope, projectId, text);
  const holder = existing.find((r) => r.id === id);
  return holder ? derivedId("r", id, "beside", holder.id) : id;
}

/** The rules' section of the restore block, exactly as it is counted. */
export function rulesSection(rules: Pick<RuleRecord, "text">[]): string {
  return rules.length ? [RULES_TITLE, ...rules.map((r) => `- ${inline(r.text)}`)].join("\n") : "";
}

/**
 * The rules that fit their budget, in order. Each host keeps its own within it, but a sync can bring
 * two hosts' rules together: the block then says how many it leaves out, never drops them silently.
 * The tokenizer must be loaded.
 */
export function rulesWithinBudget(rules: RuleRecord[]): { kept: RuleRecord[]; left: number; text: string } {
  let kept = rules;
  while (kept.length && countTokens(rulesSection(kept)) > RULES_BUDGET) kept = kept.slice(0, -1);
  const left = rules.length - kept.length;
  const note = left
    ? `\n(${left} more rule(s) over the ${RULES_BUDGET}-token budget, after a sync: see \`mindsave rules list\`.)`
    : "";
  return { kept, left, text: rulesSection(kept) + note };
}

/** Where there is no snapshot to restore: the rules that apply, alone (undefined when there are none). */
export async function rulesOnlyBlock(
  session: Session,
  projectId: string | null,
): Promise<string | undefined> {
  const rules = await session.reader.listRules(projectId);
  if (!rules.length) return undefined;
  await loadTokenizer();
  return `# MindSave: standing rules\n\n${rulesWithinBudget(rules).text}\n\n(No snapshot of this project yet: \`mindsave save\` writes one.)`;
}

export async function rulesTokens(rules: Pick<RuleRecord, "text">[]): Promise<number> {
  if (!rules.length) return 0;
  await loadTokenizer();
  return countTokens(rulesSection(rules));
}

export function parseScope(value: string | undefined): RuleScope {
  const s = (value ?? "project").trim().toLowerCase();
  if (s !== "project" && s !== "global")
    throw new UserError(`--scope must be project or global, not ${JSON.stringify(value)}.`);
  return s;
}

function cleanRule(text: string): string {
  const t = redact(stripControl(text)).trim();
  if (!t) throw new UserError('A rule needs its text, e.g. `mindsave rules add "Never push to main"`.');
  if (/[\r\n]/.test(t)) throw new UserError("A rule is one line; write two rules instead.");
  if (t.length > FIELD_MAX)
    throw new UserError(`A rule is at most ${FIELD_MAX} characters; this one is ${t.length}.`);
  return t;
}

/** The rules that apply here (global first, then the project's), numbered from 1 in this order. */
export async function rulesHere(
  session: Session,
): Promise<{ rules: RuleRecord[]; projectId: string | null; tokens: number }> {
  const ctx = await resolveProject(session, { create: false });
  const rules = await session.store.listRules(ctx?.project.id ?? null);
  return { rules, projectId: ctx?.project.id ?? null, tokens: await rulesTokens(rules) };
}

/** The projects a change to global rules must still fit: each with rules of its own (or none at all). */
async function budgetCheck(
  q: Queries,
  rulesOf: (projectId: string | null) => Promise<Pick<RuleRecord, "text">[]>,
  scope: RuleScope,
  projectId: string | null,
  change: string,
): Promise<void> {
  const projects = scope === "global" ? [null, ...(await q.listProjects()).map((p) => p.id)] : [projectId];
  for (const id of projects) {
    const tokens = await rulesTokens(await rulesOf(id));
    if (tokens <= RULES_BUDGET) continue;
    const current = await q.listRules(id);
    const where = id && id !== projectId ? ` in project ${(await q.getProject(id))?.name ?? id}` : "";
    throw new UserError(
      `${change} would make the rules${where} ${tokens} tokens, over their ${RULES_BUDGET}-token budget (now ${await rulesTokens(current)} tokens in ${current.length} rule(s)), so nothing was changed: shorten it, or remove a rule first (\`mindsave rules list\`).`,
    );
  }
}

export async function addRule(
  session: Session,
  text: string,
  scope: RuleScope,
): Promise<{ rule: RuleRecord; rules: RuleRecord[]; tokens: number }> {
  const clean = cleanRule(text);
  const id = await session.write(async (w) => {
    const ctx = scope === "project" ? await resolveProject(session, { create: true, w }) : null;
    const projectId = ctx?.project.id ?? null;
    const existing = await w.listRules(projectId);
    const same = existing.findIndex(
      (r) => r.scope === scope && normaliseItem(r.text) === normaliseItem(clean),
    );
    if (same >= 0) throw new UserError(`That is already rule ${same + 1}: ${existing[same].text}`);
    const rid = newRuleId(existing, scope, projectId, clean);
    const rule = {
      id: rid,
      project_id: projectId,
      scope,
      text: clean,
      created_at: session.now().toISOString(),
    };
    await budgetCheck(
      w,
      async (p) => [...(await w.listRules(p)), ...(p === projectId || scope === "global" ? [rule] : [])],
      scope,
      projectId,
      "This rule",
    );
    await w.putRule(rule);
    return rid;
  });
  const here = await rulesHere(session);
  return { rule: here.rules.find((r) => r.id === id)!, rules: here.rules, tokens: here.tokens };
}

/** The rule `key` names here (its number in `rules list` or a piece of its text), and its number. */
async function ruleByKey(session: Session, key: string): Promise<{ rule: RuleRecord; number: number }> {
  const { rules } = await rulesHere(session);
  const rule = chooseItem(rules, key, {
    what: "rule",
    list: "mindsave rules list",
    text: (r) => r.text,
    empty: 'There are no rules here yet; add one with `mindsave rules add "…"`.',
  });
  return { rule, number: rules.indexOf(rule) + 1 };
}

export async function removeRule(session: Session, n: string): Promise<RuleRecord> {
  const { rule } = await ruleByKey(session, n);
  await session.write((w) => w.tombstone("rules", rule.id));
  return rule;
}

/** The edited rule and its number, which an edit keeps (rules are listed by scope and age). */
export async function editRule(
  session: Session,
  n: string,
  text: string,
): Promise<{ rule: RuleRecord; number: number }> {
  const { rule, number } = await ruleByKey(session, n);
  const clean = cleanRule(text);
  const { rules } = await rulesHere(session);
  const twin = rules.findIndex(
    (r) => r.id !== rule.id && r.scope === rule.scope && normaliseItem(r.text) === normaliseItem(clean),
  );
  if (twin >= 0)
    throw new UserError(
      `That is already rule ${twin + 1}: ${rules[twin].text}; remove one of them instead (\`mindsave rules remove N\`).`,
    );
  const edited = { ...rule, text: clean };
  await session.write(async (w) => {
    await budgetCheck(
      w,
      async (p) => (await w.listRules(p)).map((r) => (r.id === rule.id ? edited : r)),
      rule.scope,
      rule.project_id,
      "This edit",
    );
    await w.putRule(edited);
  });
  return { rule: edited, number };
}

export function rulesListText(rules: RuleRecord[], tokens: number): string {
  if (!rules.length)
    return 'No standing rules here. Add one with `mindsave rules add "TEXT" [--scope global]`.';
  const over =
    tokens > RULES_BUDGET
      ? [
          "",
          `These rules are ${tokens} tokens, over their ${RULES_BUDGET}-token budget (two hosts' rules met in a sync): the restore block leaves out the last ones until you remove or shorten some.`,
        ]
      : [];
  return [
    `Standing rules (${tokens}/${RULES_BUDGET} tokens, restored first in every block):`,
    ...rules.map((r, i) => `${String(i + 1).padStart(3)}. ${inline(r.text)}  [${r.scope}]`),
    ...over,
  ].join("\n");
}
