// The plan use cases: read the newest snapshot's plan, replace it, or move one step. The plan lives
// in the snapshot (verbatim, synced with it); a change is an edit of the newest snapshot, and the
// next save carries it forward.
import { UserError } from "../../errors.ts";
import { selectSnapshot } from "../snapshots/select.ts";
import { parsePlan, planStatus, planTimes } from "../snapshots/plan.ts";
import { redactDeep } from "../snapshots/redact.ts";
import type { Session } from "../session.ts";
import { requireProject } from "../projects/resolve.ts";
import type { PlanItem, SnapshotRecord } from "../../store/store.ts";

export async function planOf(
  session: Session,
  key?: string,
): Promise<{ snapshot: SnapshotRecord; plan: PlanItem[] | null }> {
  const ctx = await requireProject(session);
  const sel = await selectSnapshot(session, ctx.project.id, key, { latest: true });
  if (sel.kind !== "snapshot")
    throw new UserError(
      `No snapshots in project ${ctx.project.name} yet: a plan is kept with a snapshot, so save one first (\`mindsave save\`).`,
    );
  return { snapshot: sel.snapshot, plan: sel.snapshot.plan };
}

/** Replaces the newest snapshot's plan with `raw` (YAML/JSON already parsed, or text lines). */
export async function setPlan(
  session: Session,
  raw: unknown,
): Promise<{ snapshot: SnapshotRecord; plan: PlanItem[] }> {
  const plan = redactDeep(parsePlan(raw));
  const { snapshot } = await planOf(session);
  await session.write(async (w) =>
    w.setSnapshotPlan(
      snapshot.id,
      plan.length ? plan : null,
      planTimes(plan, snapshot.plan, snapshot.plan_times, await w.clockNow()),
    ),
  );
  return { snapshot, plan };
}

/** Marks step N (1-based) completed, in progress or pending; starting one leaves the others as they are. */
export async function markStep(
  session: Session,
  n: string,
  status: string,
  key?: string,
): Promise<{ snapshot: SnapshotRecord; plan: PlanItem[]; step: PlanItem }> {
  const { snapshot, plan } = await planOf(session, key);
  if (!plan?.length)
    throw new UserError(`Snapshot ${snapshot.name} has no plan; set one with \`mindsave plan set\`.`);
  const i = Number(n);
  if (!/^\d+$/.test(n.trim()) || i < 1 || i > plan.length)
    throw new UserError(
      `There is no step ${JSON.stringify(n)}; give ${plan.length === 1 ? "1, the plan's only step" : `1 to ${plan.length}`} (\`mindsave plan\`).`,
    );
  const next = plan.map((p, k) => (k === i - 1 ? { ...p, status: planStatus(status, `step ${n}`) } : p));
  await session.write(async (w) =>
    w.setSnapshotPlan(snapshot.id, next, planTimes(next, plan, snapshot.plan_times, await w.clockNow())),
  );
  return { snapshot, plan: next, step: next[i - 1] };
}
