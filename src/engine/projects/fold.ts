// The rows of a project linked into another belong to that one. `projects link` moves them; rows
// that reach a store later (saved on a laptop that had not heard of the link yet) are moved by the
// sync that brings them, in its transaction: a linked project is an alias, never a place rows stay.
import { derivedId } from "../ids.ts";
import { failureId, normaliseItem } from "../failures/graph.ts";
import { newRuleId } from "../memory/rules.ts";
import { factId } from "../memory/facts.ts";
import { retirementId } from "../memory/retire.ts";
import { linkTarget } from "./aliases.ts";
import { moveSignalRow } from "../agents/signal-row.ts";
import { carryOffSwitch } from "./off-switch.ts";
import type { FailureRecord, StoreWriter } from "../../store/store.ts";
import { headTokens } from "../snapshots/stored-tokens.ts";
import { compareHlc } from "../../store/hlc.ts";

export interface Moved {
  snapshots: number;
  failures: number;
  other: number;
}

/**
 * Moves every live row of project `from` into `to`. Rows whose ids derive from their project
 * (failures, rules, facts, retirements, roots) get the id they would have had in `to`, so stating
 * one again there meets it; a row `to` already has is not doubled.
 */
export async function moveProjectRows(w: StoreWriter, from: string, to: string): Promise<Moved> {
  const snapshots = await w.moveSnapshots(from, to);
  const failures = await moveFailures(w, from, to);
  let other = await w.moveToolCalls(from, to);
  for (const r of await w.rootsOfProject(from)) {
    await w.deleteRoot(r.id);
    await w.upsertRoot({
      id: derivedId("r", to, r.host_id, r.path),
      project_id: to,
      host_id: r.host_id,
      path: r.path,
      last_used: r.last_used,
    });
  }
  const rulesThere = (await w.listRules(to)).filter((r) => r.project_id === to);
  for (const r of (await w.listRules(from)).filter((r) => r.project_id === from)) {
    if (!rulesThere.some((t) => normaliseItem(t.text) === normaliseItem(r.text))) {
      const rule = {
        id: newRuleId(rulesThere, "project", to, r.text),
        project_id: to,
        scope: "project" as const,
        text: r.text,
        created_at: r.created_at,
      };
      await w.putRule(rule);
      rulesThere.push({ ...rule, hlc: "", host: w.hostId, deleted: false });
    }
    await w.tombstone("rules", r.id);
    other++;
  }
  const factsThere = await w.listFacts(to);
  for (const f of (await w.listFacts(from)).filter((f) => f.project_id === from)) {
    const id = factId("project", to, f.text);
    const there = factsThere.find((t) => t.id === id);
    // The same fact stated in both: the one confirmed last stands.
    if (!there || there.confirmed_at < f.confirmed_at) {
      await w.putFact({
        ...f,
        id,
        project_id: to,
        created_at: there && there.created_at < f.created_at ? there.created_at : f.created_at,
      });
    }
    await w.tombstone("facts", f.id);
    other++;
  }
  const retiredThere = new Set((await w.listRetirements(to)).map((r) => r.id));
  for (const r of await w.listRetirements(from)) {
    const id = retirementId(to, r.kind, r.text);
    if (!retiredThere.has(id)) await w.putRetirement({ ...r, id, project_id: to });
    await w.tombstone("retirements", r.id);
    other++;
  }
  await moveSignalRow(w, from, to);
  await carryOffSwitch(w, from, to);
  return { snapshots, failures, other };
}

async function moveFailures(w: StoreWriter, from: string, to: string): Promise<number> {
  const failures = await w.listFailures(from, { includeGlobal: false });
  for (const f of failures) {
    const id = failureId("project", to, f.item);
    await w.upsertFailure(joinedFailure(id, to, f, await w.getFailure(id)));
    // Each host's count of the old failure becomes a counter of its own on the new one (keyed by
    // host and old id): moved again (on another store, or revived by a host that had not heard of
    // the link), it is taken as the larger count, never counted twice.
    const counts = Object.entries(await w.failureCounts(f.id)).map(([host, n]) => [
      derivedId("c", host, f.id),
      n,
    ]);
    await w.mergeFailureCounts(id, Object.fromEntries(counts));
    for (const r of f.related) await w.putFailureLink(derivedId("l", id, "related", r), id, "related", r);
    for (const a of f.alternatives)
      await w.putFailureLink(derivedId("l", id, "alternative", a), id, "alternative", a);
    await w.tombstoneFailure(f.id);
  }
  return failures.length;
}

/**
 * The failure `f` as it stands in project `to` under `id`, where `target` may already record it:
 * the record written later says what is true of it now, as a sync's merge of one record decides
 * (the other's word only fills what it leaves blank); seen from the first sighting of either to the
 * last of either.
 */
function joinedFailure(
  id: string,
  to: string,
  f: FailureRecord,
  target: FailureRecord | null,
): Parameters<StoreWriter["upsertFailure"]>[0] {
  const later = target && !target.deleted && compareHlc(target.hlc, f.hlc) > 0 ? target : f;
  const item = target?.item ?? f.item;
  const reason = later.reason || f.reason || target?.reason || "";
  return {
    id,
    project_id: to,
    scope: "project",
    item,
    rejected_by: later.rejected_by,
    reason,
    head_tokens: headTokens({ item, reason }),
    confidence: later.confidence ?? f.confidence ?? target?.confidence ?? null,
    schema_version: f.schema_version,
    first_seen: target && target.first_seen < f.first_seen ? target.first_seen : f.first_seen,
    last_seen: target && target.last_seen > f.last_seen ? target.last_seen : f.last_seen,
  };
}

/**
 * Moves the rows of every linked project that still holds some to where its links lead. A cycle of
 * links (two hosts linked two projects each into the other) is first broken at its smallest id,
 * which every store picks alike.
 */
export async function foldLinkedProjects(w: StoreWriter): Promise<void> {
  const linked = await w.mergedProjects();
  const links = new Map(linked.map((p) => [p.id, p.merged_into!]));
  for (const p of linked) {
    if (linkTarget(p.id, links) !== p.id) continue;
    await w.updateProject(p.id, { merged_into: null });
    links.delete(p.id);
  }
  for (const p of linked) {
    const to = linkTarget(p.id, links);
    if (to === p.id || !(await w.holdsRows(p.id))) continue;
    const target = await w.getProject(to);
    if (!target || target.deleted) continue;
    await moveProjectRows(w, p.id, to);
  }
}
