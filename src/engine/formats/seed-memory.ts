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
import { contentDigest } from "../ids.ts";
import type { FactRecord, Queries, StoreWriter } from "../../store/store.ts";

export const MEMORY_FILES = ["rules.json", "facts.json", "retired.json"] as const;

export interface MemoryReport {
  rules: number;
  facts: number;
  retired: number;
}

/** The three files' contents for a project (its own and the global rules and facts). */
export async function memoryFiles(
  q: Queries,
  projectId: string,
): Promise<Record<(typeof MEMORY_FILES)[number], unknown[]>> {
  const rules = await q.listRules(projectId);
  const facts = await q.listFacts(projectId);
  const retired = await q.listRetirements(projectId);
  // Each with its record's id, clock and digest: an import elsewhere is then that record (see importMemory).
  const record = (r: { id: string; hlc: string }) => ({
    id: r.id,
    clock: r.hlc,
    digest: contentDigest(r, NOT_DIGESTED),
  });
  return {
    "rules.json": rules.map((r) => ({
      text: r.text,
      scope: r.scope,
      created_at: r.created_at,
      ...record(r),
    })),
    "facts.json": facts.map((f) => ({
      text: f.text,
      scope: f.scope,
      confidence: f.confidence,
      created_at: f.created_at,
      confirmed_at: f.confirmed_at,
      expires_at: f.expires_at,
      ...record(f),
    })),
    "retired.json": retired.map((r) => ({
      kind: r.kind,
      text: r.text,
      reason: r.reason,
      retired_at: r.retired_at,
      retired_by: r.retired_by,
      ...record(r),
    })),
  };
}

const NOT_DIGESTED = ["hlc", "host", "deleted"] as const;

const text = (v: unknown): string | null => {
  if (typeof v !== "string") return null;
  const t = redact(stripControl(v)).trim();
  return t && t.length <= FIELD_MAX && !/[\r\n]/.test(t) ? t : null;
};
const iso = (v: unknown): string | null =>
  Number.isFinite(instant(v)) ? new Date(instant(v)).toISOString() : null;
const scopeOf = (v: unknown): "project" | "global" => (v === "global" ? "global" : "project");

/** Reads the three files (each optional); an entry that cannot be used is named in a warning. */
export function readMemory(
  dir: string,
  warnings: string[],
  exists: (p: string) => boolean,
): Record<(typeof MEMORY_FILES)[number], Record<string, unknown>[]> {
  const out = { "rules.json": [], "facts.json": [], "retired.json": [] } as Record<
    (typeof MEMORY_FILES)[number],
    Record<string, unknown>[]
  >;
  for (const name of MEMORY_FILES) {
    const path = join(dir, name);
    if (!exists(path)) continue;
    const data = readJson(path, name, warnings);
    if (data === undefined) continue;
    if (!Array.isArray(data)) {
      warnings.push(`${name} is not a JSON list; not imported.`);
      continue;
    }
    data.forEach((e, i) =>
      isObj(e) && text(e.text)
        ? out[name].push(e)
        : warnings.push(`${name} entry ${i + 1} has no usable text (one line); not imported.`),
    );
  }
  return out;
}

/** One import of the three files: where they go, and the sentences for what is not taken in. */
interface MemoryImport {
  w: StoreWriter;
  projectId: string;
  now: Date;
  /** The folder was exported from this project: its project records are this project's. */
  sameProject: boolean;
  warnings: string[];
}

type MemoryTable = "rules" | "facts" | "retirements";
const LABEL = { rules: "rule", facts: "fact", retirements: "retirement" } as const;

/**
 * Whether to write the entry, as which row and with which clock (null: not at all). `row(id)` is
 * what would be stored; the exported record's id and clock are kept only when that row is the
 * record itself.
 */
async function rowToWrite<T extends { id: string; text: string }>(
  m: MemoryImport,
  table: MemoryTable,
  e: Record<string, unknown>,
  row: (id: string) => T,
  derived: string,
  global: boolean,
): Promise<{ row: T; clock: string | undefined; live: boolean } | null> {
  const eligible =
    (global || m.sameProject) &&
    typeof e.id === "string" &&
    RECORD_ID.test(e.id) &&
    typeof e.clock === "string" &&
    RECORD_CLOCK.test(e.clock);
  const same = eligible && contentDigest(row(e.id as string), []) === e.digest;
  const t = row(derived).text;
  if (eligible && !same)
    m.warnings.push(
      `${LABEL[table]} ${JSON.stringify(t)} differs from the record it was exported as; imported as a new one.`,
    );
  const id = same ? (e.id as string) : derived;
  const here = await m.w.recordClock(table, id);
  if (same) {
    if (here && compareHlc(here.hlc, e.clock as string) >= 0) {
      if (here.deleted)
        m.warnings.push(
          `${LABEL[table]} ${JSON.stringify(t)} was removed in this store after it was exported; not brought back.`,
        );
      return null;
    }
    return { row: row(id), clock: e.clock as string, live: here !== null };
  }
  if (here?.deleted) {
    m.warnings.push(
      `${LABEL[table]} ${JSON.stringify(t)} was removed in this store; not brought back (add it again if it still holds).`,
    );
    return null;
  }
  return { row: row(id), clock: undefined, live: here !== null };
}

/** rules.json's entries; returns how many were written. */
async function importRules(m: MemoryImport, entries: Record<string, unknown>[]): Promise<number> {
  const { w, projectId, now } = m;
  let written = 0;
  const rules = await w.listRules(projectId);
  for (const e of entries) {
    const t = text(e.text)!;
    const scope = scopeOf(e.scope);
    const pid = scope === "global" ? null : projectId;
    const created_at = iso(e.created_at) ?? now.toISOString();
    const to = await rowToWrite(
      m,
      "rules",
      e,
      (id) => ({ id, project_id: pid, scope, text: t, created_at }),
      ruleId(scope, pid, t),
      scope === "global",
    );
    // Without a record: a rule already here (by id, or the same words after an edit) is kept as it is.
    if (!to || (!to.clock && (to.live || rules.some((r) => r.scope === scope && r.text === t)))) continue;
    await w.putRule(to.row, to.clock);
    written++;
  }
  return written;
}

/** facts.json's entries; returns how many were written. */
async function importFacts(m: MemoryImport, entries: Record<string, unknown>[]): Promise<number> {
  const { w, projectId, now } = m;
  let written = 0;
  const facts = new Map((await w.listFacts(projectId)).map((f) => [f.id, f]));
  for (const e of entries) {
    const t = text(e.text)!;
    const scope = scopeOf(e.scope);
    const pid = scope === "global" ? null : projectId;
    const confidence = e.confidence === "low" || e.confidence === "high" ? e.confidence : "medium";
    const created_at = iso(e.created_at) ?? now.toISOString();
    const fact = (id: string): Omit<FactRecord, "hlc" | "host" | "deleted"> => ({
      id,
      project_id: pid,
      scope,
      text: t,
      confidence,
      created_at,
      confirmed_at: iso(e.confirmed_at) ?? created_at,
      expires_at: e.expires_at === null ? null : iso(e.expires_at),
    });
    const to = await rowToWrite(m, "facts", e, fact, factId(scope, pid, t), scope === "global");
    if (!to) continue;
    const had = facts.get(to.row.id);
    if (!to.clock && had && had.confirmed_at >= to.row.confirmed_at) continue;
    await w.putFact(to.row, to.clock);
    written++;
  }
  return written;
}

/** retired.json's entries; returns how many were written. */
async function importRetirements(m: MemoryImport, entries: Record<string, unknown>[]): Promise<number> {
  const { w, projectId, now } = m;
  let written = 0;
  for (const e of entries) {
    const t = text(e.text)!;
    const kind: "decision" | "constraint" = e.kind === "decision" ? "decision" : "constraint";
    const reason = typeof e.reason === "string" ? redact(stripControl(e.reason)).trim() : "";
    const retired_at = iso(e.retired_at) ?? now.toISOString();
    const retired_by = text(e.retired_by) ?? "import";
    const row = (id: string) => ({
      id,
      project_id: projectId,
      kind,
      text: t,
      reason,
      retired_at,
      retired_by,
    });
    const to = await rowToWrite(m, "retirements", e, row, retirementId(projectId, kind, t), false);
    if (!to || (!to.clock && to.live)) continue;
    await w.putRetirement(to.row, to.clock);
    written++;
  }
  return written;
}

/**
 * Writes what was read into the project. An entry of MindSave's own export carries its record's
 * id and clock: it goes in as a sync would take it (only when newer than what this store has, a
 * removal here included), so an import never brings back what was edited or removed since, and
 * two stores that then sync hold one record. An entry without them (an older export, a hand-written
 * file) gets the id made from its text; one removed in this store is not brought back.
 */
export async function importMemory(
  w: StoreWriter,
  projectId: string,
  data: ReturnType<typeof readMemory>,
  now: Date,
  opts: { sameProject: boolean; warnings: string[] },
): Promise<MemoryReport> {
  const m: MemoryImport = { w, projectId, now, ...opts };
  const rules = await importRules(m, data["rules.json"]);
  const facts = await importFacts(m, data["facts.json"]);
  const retired = await importRetirements(m, data["retired.json"]);
  return { rules, facts, retired };
}
