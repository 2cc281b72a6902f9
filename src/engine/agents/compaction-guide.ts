// The summariser's guide before a compaction (issue 35, item 4). Where an agent lets a hook shape the
// summary (Claude Code: PreCompact's stdout becomes the compaction prompt's "Additional
// Instructions"), the summary is told what to keep: the goal, the constraints and the failures
// MindSave holds, their text, within GUIDE_BUDGET tokens (the rest stays in the store and comes
// back with the restore after the compaction). Where no event follows a compaction (Gemini CLI),
// the restore block comes with the next event that reaches the model instead.
import { restore } from "../snapshots/restore.ts";
import { resolveProject } from "../projects/resolve.ts";
import { countTokens } from "../snapshots/tokens.ts";
import { inline } from "../snapshots/layers.ts";
import type { Session } from "../session.ts";
import { unlessBusy } from "../unless-busy.ts";
import { contextWindow, sessionKey, type HookPayload } from "./hook-payload.ts";
import { getSignalRow, putSignalRow } from "./signal-row.ts";
import { noteOf, withNote } from "./session-notes.ts";
import { sessionNote } from "./auto-snapshot.ts";
import { restoreContext } from "./hook-events.ts";
import type { TranscriptSource } from "./kinds/kind.ts";

/** Gemini CLI compresses at this share of the window (DEFAULT_COMPRESSION_TOKEN_THRESHOLD). */
const COMPRESSION_THRESHOLD = 0.5;

/** The guide's most cl100k tokens. */
export const GUIDE_BUDGET = 150;

const HEAD =
  "MindSave holds this task's state. Keep in your summary, word for word, the goal, every constraint " +
  "(the user's rules) and every failed approach below:";

/** The lines that fit after `text` within the budget, in order; a line that does not fit ends the list. */
function within(text: string, lines: string[]): string {
  let out = text;
  for (const line of lines) {
    const next = `${out}\n${line}`;
    if (countTokens(next) > GUIDE_BUDGET) break;
    out = next;
  }
  return out;
}

/**
 * The guide from the project's newest snapshot (the one the pre-compaction save just wrote, or the
 * agent's own), with the failures its restore block ranks first; undefined without a snapshot.
 */
export async function compactionGuide(session: Session): Promise<string | undefined> {
  const ctx = await resolveProject(session, { create: false });
  const r = ctx ? await restore(session, ctx, undefined, { resume: true }) : null;
  if (r?.kind !== "restored") return undefined;
  const { snapshot, layer2, block } = r.result;
  let goal = inline(snapshot.goal);
  // A goal too long for the guide is cut (the restore after the compaction brings it whole).
  while (goal.length > 20 && countTokens(`${HEAD}\nGoal: ${goal}`) > GUIDE_BUDGET / 2)
    goal = `${goal.slice(0, Math.floor(goal.length / 2))}…`;
  const constraints = layer2.constraints.map((c) => `Constraint: ${inline(c)}`);
  const failures = block.failures.map(
    (f) => `Failed, do not retry: ${inline(f.item)}${f.reason ? ` (${inline(f.reason)})` : ""}`,
  );
  // In turns, so a long list of either leaves room for the other's first.
  const lines = Array.from({ length: Math.max(constraints.length, failures.length) }, (_, i) =>
    [constraints[i], failures[i]].filter((l): l is string => l !== undefined),
  ).flat();
  return within(`${HEAD}\nGoal: ${goal}`, lines);
}

/**
 * An agent with no event after its compaction (Gemini CLI: no SessionStart follows a compression):
 * the compression is noted, for the restore block to come with the next event whose reply reaches
 * the model. Called only for one that compresses (runHook asks compressesNow first).
 */
export async function noteCompaction(session: Session, p: HookPayload): Promise<void> {
  const sessionId = sessionKey(p.session_id);
  if (!sessionId) return;
  const now = session.now();
  await unlessBusy(true, undefined, () =>
    session.write(async (w) => {
      const ctx = await resolveProject(session, { create: true, w });
      const row = await getSignalRow(w, ctx.project.id);
      await putSignalRow(
        w,
        ctx.project.id,
        withNote(row, sessionId, now, (n) => ({ ...n, restore_due: true })),
      );
    }),
  );
}

/**
 * Whether this pre-compaction event compresses (Gemini CLI's PreCompress fires before every
 * compression check, also when nothing is compressed): "manual" (/compress) always; "auto" only at
 * a fill of at least half the window (Gemini CLI's DEFAULT_COMPRESSION_TOKEN_THRESHOLD, 0.61.0).
 */
export function compressesNow(session: Session, p: HookPayload, src: TranscriptSource): boolean {
  if (p.trigger === "manual") return true;
  const usage = src.usage(p);
  const window = usage?.window ?? contextWindow(usage?.model, session.env, usage?.context ?? 0);
  return !!usage && usage.context >= window * COMPRESSION_THRESHOLD;
}

/** The restore block after a compaction noted by noteCompaction, once; undefined when none is due. */
export async function restoreAfterCompaction(session: Session, p: HookPayload): Promise<string | undefined> {
  const sessionId = sessionKey(p.session_id);
  if (!sessionId || !(await sessionNote(session, sessionId))?.restore_due) return undefined;
  const now = session.now();
  const taken = await unlessBusy(true, false, () =>
    session.write(async (w) => {
      const ctx = await resolveProject(session, { create: true, w });
      const row = await getSignalRow(w, ctx.project.id);
      if (!noteOf(row, sessionId)?.restore_due) return false;
      await putSignalRow(
        w,
        ctx.project.id,
        withNote(row, sessionId, now, (n) => ({ ...n, restore_due: false })),
      );
      return true;
    }),
  );
  return taken ? restoreContext(session, "compact") : undefined;
}
