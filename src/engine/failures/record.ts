// The failure use cases every adapter shares (CLI, MCP, TUI): record a rejected approach, forget
// one, list a project's graph, and the one-line summary the CLI and the MCP server both print.
import {
  effectiveConfidence,
  forgetFailure,
  observeFailure,
  type Confidence,
  type FailureObservation,
} from "./graph.ts";
import type { Session } from "../session.ts";
import { resolveProject } from "../projects/resolve.ts";
import type { FailureRecord } from "../../store/store.ts";
import { inline } from "../snapshots/layers.ts";

export type { FailureRecord, FailureObservation, Confidence };
export { effectiveConfidence };

export interface RecordedFailure {
  failure: FailureRecord;
  /** The stored confidence, or the one derived from repeats and recency. */
  confidence: Confidence;
  /** The reason the failure had before this observation gave another. */
  replacedReason?: string;
}

/**
 * Records (or repeats) a failure in one transaction. Without `projectId` the current directory's
 * project is used, created when seen for the first time (a global failure needs none).
 */
export async function recordFailure(
  session: Session,
  o: FailureObservation,
  opts: { projectId?: string | null } = {},
): Promise<RecordedFailure> {
  const now = session.now();
  const before: { reason?: string } = {};
  const failure = await session.write(async (w) => {
    let projectId: string | null = null;
    if (o.scope !== "global")
      projectId =
        opts.projectId !== undefined
          ? opts.projectId
          : (await resolveProject(session, { create: true, w })).project.id;
    return observeFailure(w, projectId, o, now, before);
  });
  const replaced = before.reason && before.reason !== failure.reason ? { replacedReason: before.reason } : {};
  return { failure, confidence: effectiveConfidence(failure, now), ...replaced };
}

export function failureSummary({ failure: f, confidence, replacedReason }: RecordedFailure): string {
  const replaced = replacedReason
    ? ` Its reason was "${inline(replacedReason)}"; it is now "${inline(f.reason)}".`
    : "";
  return `Failure graph: ${inline(f.item)} (${f.scope}) rejected by ${f.rejected_by}, seen ${f.repeat_count} time(s), confidence ${confidence}.${replaced}`;
}

/** Removes a failure of the current project's or the global graph (a tombstone, so it syncs). */
export async function removeFailure(session: Session, item: string, scope?: string): Promise<FailureRecord> {
  const ctx = await resolveProject(session, { create: false });
  return session.write((w) => forgetFailure(w, ctx?.project.id ?? null, item, scope));
}

/** The project's and the global failures (or only the global ones without a project). */
export function failuresFor(session: Session, projectId: string | null): Promise<FailureRecord[]> {
  return session.store.listFailures(projectId);
}
