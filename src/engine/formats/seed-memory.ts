// Rules, facts and retirements in the `.mindsave/` layout: one JSON file each (`rules.json`,
// `facts.json`, `retired.json`), which the original skill ignores. Exported with their times and
// authors, so an import elsewhere restores them as they were; an import is idempotent (ids are
// derived from scope, project and text, as when they are made here).
import { join } from "node:path";
import { ruleId } from "../memory/rules.ts";
import { factId } from "../memory/facts.ts";
import { retirementId } from "../memory/retire.ts";
import { redact } from "../snapshots/redact.ts";
import { stripControl, FIELD_MAX } from "../snapshots/input-limits.ts";
import { instant, isObj, readJson } from "./seed-layout.ts";
import type { FactRecord, Queries, RetirementRecord, RuleRecord, StoreWriter } from "../../store/store.ts";

export const MEMORY_FILES = ["rules.json", "facts.json", "retired.json"] as const;

export interface MemoryReport {
  rules: number;
  facts: number;
  retired: number;
}

/** The three files' contents for a project (its own and the global rules and facts). */
export async function memoryFiles(q: Queries, projectId: string): Promise<Record<(typeof MEMORY_FILES)[number], unknown[]>> {
  const rules = await q.listRules(projectId);
  const facts = await q.listFacts(projectId);
  const retired = await q.listRetirements(projectId);
  return {
    "rules.json": rules.map((r) => ({ text: r.text, scope: r.scope, created_at: r.created_at })),
    "facts.json": facts.map((f) => ({ text: f.text, scope: f.scope, confidence: f.confidence, created_at: f.created_at, confirmed_at: f.confirmed_at, expires_at: f.expires_at })),
    "retired.json": retired.map((r) => ({ kind: r.kind, text: r.text, reason: r.reason, retired_at: r.retired_at, retired_by: r.retired_by })),
  };
}

const text = (v: unknown): string | null => {
  if (typeof v !== "string") return null;
  const t = redact(stripControl(v)).trim();
  return t && t.length <= FIELD_MAX && !/[\r\n]/.test(t) ? t : null;
};
const iso = (v: unknown): string | null => (Number.isFinite(instant(v)) ? new Date(instant(v)).toISOString() : null);
const scopeOf = (v: unknown): "project" | "global" => (v === "global" ? "global" : "project");

/** Reads the three files (each optional); an entry that cannot be used is named in a warning. */
export function readMemory(dir: string, warnings: string[], exists: (p: string) => boolean): Record<(typeof MEMORY_FILES)[number], Record<string, unknown>[]> {
  const out = { "rules.json": [], "facts.json": [], "retired.json": [] } as Record<(typeof MEMORY_FILES)[number], Record<string, unknown>[]>;
  for (const name of MEMORY_FILES) {
    const path = join(dir, name);
    if (!exists(path)) continue;
    const data = readJson(path, name, warnings);
    if (data === undefined) continue;
    if (!Array.isArray(data)) {
      warnings.push(`${name} is not a JSON list; not imported.`);
      continue;
    }
    data.forEach((e, i) => (isObj(e) && text(e.text) ? out[name].push(e) : warnings.push(`${name} entry ${i + 1} has no usable text (one line); not imported.`)));
  }
  return out;
}

/** Writes what was read into the project; what the store already has (same id) is kept when it is newer. */
export async function importMemory(w: StoreWriter, projectId: string, data: ReturnType<typeof readMemory>, now: Date): Promise<MemoryReport> {
  const report: MemoryReport = { rules: 0, facts: 0, retired: 0 };
  const rules = new Map((await w.listRules(projectId)).map((r) => [r.id, r]));
  for (const e of data["rules.json"]) {
    const t = text(e.text)!;
    const scope = scopeOf(e.scope);
    const pid = scope === "global" ? null : projectId;
    const rule: Omit<RuleRecord, "hlc" | "host" | "deleted"> = { id: ruleId(scope, pid, t), project_id: pid, scope, text: t, created_at: iso(e.created_at) ?? now.toISOString() };
    if (rules.has(rule.id)) continue;
    await w.putRule(rule);
    report.rules++;
  }
  const facts = new Map((await w.listFacts(projectId)).map((f) => [f.id, f]));
  for (const e of data["facts.json"]) {
    const t = text(e.text)!;
    const scope = scopeOf(e.scope);
    const pid = scope === "global" ? null : projectId;
    const c = e.confidence === "low" || e.confidence === "high" ? e.confidence : "medium";
    const created = iso(e.created_at) ?? now.toISOString();
    const fact: Omit<FactRecord, "hlc" | "host" | "deleted"> = {
      id: factId(scope, pid, t), project_id: pid, scope, text: t, confidence: c,
      created_at: created, confirmed_at: iso(e.confirmed_at) ?? created, expires_at: e.expires_at === null ? null : iso(e.expires_at),
    };
    const had = facts.get(fact.id);
    if (had && had.confirmed_at >= fact.confirmed_at) continue;
    await w.putFact(fact);
    report.facts++;
  }
  const retired = new Map((await w.listRetirements(projectId)).map((r) => [r.id, r]));
  for (const e of data["retired.json"]) {
    const t = text(e.text)!;
    const kind = e.kind === "decision" ? "decision" : "constraint";
    const r: Omit<RetirementRecord, "hlc" | "host" | "deleted"> = {
      id: retirementId(projectId, kind, t), project_id: projectId, kind, text: t,
      reason: typeof e.reason === "string" ? redact(stripControl(e.reason)).trim() : "",
      retired_at: iso(e.retired_at) ?? now.toISOString(), retired_by: text(e.retired_by) ?? "import",
    };
    if (retired.has(r.id)) continue;
    await w.putRetirement(r);
    report.retired++;
  }
  return report;
}
