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
import { instant, isObj, readJson, RECORD_CLOCK, RECORD_ID } from "./seed-layout.ts";
import { compareHlc } from "../../store/hlc.ts";
import type { FactRecord, Queries, StoreWriter } from "../../store/store.ts";

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
    "rules.json": rules.map((r) => ({ text: r.text, scope: r.scope, created_at: r.created_at, id: r.id, clock: r.hlc })),
    "facts.json": facts.map((f) => ({ text: f.text, scope: f.scope, confidence: f.confidence, created_at: f.created_at, confirmed_at: f.confirmed_at, expires_at: f.expires_at, id: f.id, clock: f.hlc })),
    "retired.json": retired.map((r) => ({ kind: r.kind, text: r.text, reason: r.reason, retired_at: r.retired_at, retired_by: r.retired_by, id: r.id, clock: r.hlc })),
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


/**
 * Writes what was read into the project. An entry of MindSave's own export carries its record's
 * id and clock: it goes in as a sync would take it (only when newer than what this store has, a
 * removal here included), so an import never brings back what was edited or removed since, and
 * two stores that then sync hold one record. An entry without them (an older export, a hand-written
 * file) gets the id made from its text; one removed in this store is not brought back.
 */
export async function importMemory(w: StoreWriter, projectId: string, data: ReturnType<typeof readMemory>, now: Date, opts: { sameProject: boolean; warnings: string[] }): Promise<MemoryReport> {
  const report: MemoryReport = { rules: 0, facts: 0, retired: 0 };
  const label = { rules: "rule", facts: "fact", retirements: "retirement" } as const;
  /** Whether to write the entry, and with which id and clock. */
  const decide = async (table: "rules" | "facts" | "retirements", e: Record<string, unknown>, derived: string, global: boolean, t: string) => {
    const carried = (global || opts.sameProject) && typeof e.id === "string" && RECORD_ID.test(e.id) && typeof e.clock === "string" && RECORD_CLOCK.test(e.clock);
    const id = carried ? (e.id as string) : derived;
    const here = await w.recordClock(table, id);
    if (carried) {
      if (here && compareHlc(here.hlc, e.clock as string) >= 0) {
        if (here.deleted) opts.warnings.push(`${label[table]} ${JSON.stringify(t)} was removed in this store after it was exported; not brought back.`);
        return null;
      }
      return { id, clock: e.clock as string };
    }
    if (here?.deleted) {
      opts.warnings.push(`${label[table]} ${JSON.stringify(t)} was removed in this store; not brought back (add it again if it still holds).`);
      return null;
    }
    return { id, clock: undefined, live: here !== null };
  };

  const rules = await w.listRules(projectId);
  for (const e of data["rules.json"]) {
    const t = text(e.text)!;
    const scope = scopeOf(e.scope);
    const pid = scope === "global" ? null : projectId;
    const to = await decide("rules", e, ruleId(scope, pid, t), scope === "global", t);
    // Without a record: a rule already here (by id, or the same words after an edit) is kept as it is.
    if (!to || (!to.clock && (to.live || rules.some((r) => r.scope === scope && r.text === t)))) continue;
    await w.putRule({ id: to.id, project_id: pid, scope, text: t, created_at: iso(e.created_at) ?? now.toISOString() }, to.clock);
    report.rules++;
  }
  const facts = new Map((await w.listFacts(projectId)).map((f) => [f.id, f]));
  for (const e of data["facts.json"]) {
    const t = text(e.text)!;
    const scope = scopeOf(e.scope);
    const pid = scope === "global" ? null : projectId;
    const c = e.confidence === "low" || e.confidence === "high" ? e.confidence : "medium";
    const created = iso(e.created_at) ?? now.toISOString();
    const to = await decide("facts", e, factId(scope, pid, t), scope === "global", t);
    if (!to) continue;
    const fact: Omit<FactRecord, "hlc" | "host" | "deleted"> = {
      id: to.id, project_id: pid, scope, text: t, confidence: c,
      created_at: created, confirmed_at: iso(e.confirmed_at) ?? created, expires_at: e.expires_at === null ? null : iso(e.expires_at),
    };
    const had = facts.get(fact.id);
    if (!to.clock && had && had.confirmed_at >= fact.confirmed_at) continue;
    await w.putFact(fact, to.clock);
    report.facts++;
  }
  for (const e of data["retired.json"]) {
    const t = text(e.text)!;
    const kind = e.kind === "decision" ? "decision" : "constraint";
    const to = await decide("retirements", e, retirementId(projectId, kind, t), false, t);
    if (!to || (!to.clock && to.live)) continue;
    await w.putRetirement({
      id: to.id, project_id: projectId, kind, text: t,
      reason: typeof e.reason === "string" ? redact(stripControl(e.reason)).trim() : "",
      retired_at: iso(e.retired_at) ?? now.toISOString(), retired_by: text(e.retired_by) ?? "import",
    }, to.clock);
    report.retired++;
  }
  return report;
}
