// Retiring what is no longer true: a constraint or decision marked retired is never carried forward
// by a later snapshot (automatic ones included) and never restored, on every host after sync; it
// stays searchable, with who retired it and when. Undoing a retirement is a tombstone on it.
import { UserError } from "../../errors.ts";
import { utcMinute } from "../../lib/text.ts";
import { derivedId } from "../ids.ts";
import { normaliseItem } from "../failures/graph.ts";
import { redact } from "../snapshots/redact.ts";
import { stripControl } from "../snapshots/input-limits.ts";
import { chooseItem } from "./choose.ts";
import { extendedSnapshot } from "../snapshots/select.ts";
import { writtenConstraints } from "../snapshots/layers.ts";
import type { Session } from "../session.ts";
import { resolveProject } from "../projects/resolve.ts";
import type { RetirementRecord } from "../../store/store.ts";
import { inline } from "../snapshots/layers.ts";

export type RetireKind = RetirementRecord["kind"];

export interface RetireCandidate {
  kind: RetireKind;
  text: string;
}

export function retirementId(projectId: string, kind: RetireKind, text: string): string {
  return derivedId("x", projectId, kind, normaliseItem(text));
}

/** "constraint:<normalised text>" for each retired item, to filter lists with. */
export function retiredKeys(retired: Pick<RetirementRecord, "kind" | "text">[]): Set<string> {
  return new Set(retired.map((r) => `${r.kind}:${normaliseItem(r.text)}`));
}

export function withoutRetired(items: string[], kind: RetireKind, keys: Set<string>): string[] {
  return keys.size ? items.filter((t) => !keys.has(`${kind}:${normaliseItem(t)}`)) : items;
}

/**
 * Sorts a save's constraints and decisions against the project's retirements, leaving in `input`
 * what the snapshot keeps. What was retired stays out, whoever saves: a hook copies the newest
 * snapshot's constraints, and an agent may copy an old restore block. But an explicit save (a
 * person's or an agent's, not a hook's) that states a retired item again means it holds again: it
 * is kept and un-retired (`restated`, for the save's write to tombstone), with a note.
 */
export async function sortRetired(
  session: Session,
  projectId: string | null,
  input: { constraints: string[]; decisions: string[] },
  opts: { restate: boolean; quiet: boolean; warnings: string[] },
): Promise<{ retired: Set<string>; restated: RetirementRecord[] }> {
  const all = projectId ? await session.reader.listRetirements(projectId) : [];
  const stated = new Set([
    ...input.constraints.map((t) => `constraint:${normaliseItem(t)}`),
    ...input.decisions.map((t) => `decision:${normaliseItem(t)}`),
  ]);
  const restated = opts.restate ? all.filter((r) => stated.has(`${r.kind}:${normaliseItem(r.text)}`)) : [];
  for (const r of restated) opts.warnings.push(restatedNote(r));
  const retired = retiredKeys(all.filter((r) => !restated.includes(r)));
  const constraints = withoutRetired(input.constraints, "constraint", retired);
  const decisions = withoutRetired(input.decisions, "decision", retired);
  const dropped = input.constraints.length - constraints.length + input.decisions.length - decisions.length;
  if (dropped && !opts.quiet)
    opts.warnings.push(
      `Left out ${dropped} retired constraint(s)/decision(s) (\`mindsave retire\` lists them; \`--undo\` brings one back).`,
    );
  input.constraints = constraints;
  input.decisions = decisions;
  return { retired, restated };
}

function restatedNote(r: RetirementRecord): string {
  const kind = r.kind === "constraint" ? "Constraint" : "Decision";
  const why = r.reason ? `: ${inline(r.reason)}` : "";
  return `${kind} "${inline(r.text)}" had been retired (by ${inline(r.retired_by)}, ${utcMinute(r.retired_at)}${why}); this save states it again, so it is restored again (\`mindsave retire\` retires it once more).`;
}

/** What can be retired: the constraints and decisions the newest snapshot restores, numbered from 1. */
export async function retireCandidates(
  session: Session,
): Promise<{ candidates: RetireCandidate[]; retired: RetirementRecord[]; projectId: string | null }> {
  const ctx = await resolveProject(session, { create: false });
  if (!ctx) return { candidates: [], retired: [], projectId: null };
  const retired = await session.store.listRetirements(ctx.project.id);
  const keys = retiredKeys(retired);
  const [newest] = await session.store.listSnapshots(ctx.project.id, { limit: 1 });
  const snap = newest ? await session.store.getSnapshot(newest.id) : null;
  const source = snap ? ((await extendedSnapshot(session, snap)) ?? snap) : null;
  const candidates: RetireCandidate[] = source
    ? [
        ...withoutRetired(writtenConstraints(source), "constraint", keys).map((text) => ({
          kind: "constraint" as const,
          text,
        })),
        ...withoutRetired(source.decisions, "decision", keys).map((text) => ({
          kind: "decision" as const,
          text,
        })),
      ]
    : [];
  return { candidates, retired, projectId: ctx.project.id };
}

/** A candidate or a retired item by number or text (memory/choose.ts). */
function pick<T extends { kind: RetireKind; text: string }>(
  items: T[],
  key: string,
  what: string,
  list: string,
): T {
  return chooseItem(items, key, {
    what,
    list,
    text: (c) => c.text,
    label: (c) => `[${c.kind}] ${c.text}`,
    empty: `There is nothing to choose here (see \`${list}\`).`,
  });
}

export async function retire(
  session: Session,
  key: string,
  opts: { reason?: string; by?: string } = {},
): Promise<RetirementRecord> {
  const { candidates, projectId } = await retireCandidates(session);
  if (!projectId || !candidates.length)
    throw new UserError(
      "There is no constraint or decision to retire here: the newest snapshot restores none.",
    );
  const item = pick(candidates, key, "constraint or decision", "mindsave retire");
  const now = session.now().toISOString();
  const record = {
    id: retirementId(projectId, item.kind, item.text),
    project_id: projectId,
    kind: item.kind,
    text: item.text,
    reason: redact(stripControl(opts.reason ?? "")).trim(),
    retired_at: now,
    retired_by: session.host.name + (opts.by ? ` (${opts.by})` : ""),
  };
  await session.write((w) => w.putRetirement(record));
  return { ...record, hlc: "", host: session.host.id, deleted: false };
}

export async function unretire(session: Session, key: string): Promise<RetirementRecord> {
  const { retired } = await retireCandidates(session);
  if (!retired.length) throw new UserError("Nothing is retired in this project.");
  const item = pick(retired, key, "retired item", "mindsave retire");
  await session.write((w) => w.tombstone("retirements", item.id));
  return item;
}

export function retireListText(candidates: RetireCandidate[], retired: RetirementRecord[]): string {
  const lines: string[] = [];
  if (candidates.length) {
    lines.push(
      "What the newest snapshot restores (retire one with `mindsave retire N`):",
      ...candidates.map((c, i) => `${String(i + 1).padStart(3)}. [${c.kind}] ${inline(c.text)}`),
    );
  } else lines.push("The newest snapshot restores no constraint or decision.");
  if (retired.length) {
    lines.push(
      "",
      "Retired (never carried forward nor restored; `mindsave retire --undo N` brings one back):",
      ...retired.map(
        (r, i) =>
          `${String(i + 1).padStart(3)}. [${r.kind}] ${inline(r.text)} — retired ${utcMinute(r.retired_at)} by ${inline(r.retired_by)}${r.reason ? `: ${inline(r.reason)}` : ""}`,
      ),
    );
  }
  return lines.join("\n");
}
