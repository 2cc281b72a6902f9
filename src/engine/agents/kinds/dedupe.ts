// Copilot CLI and Cursor run Claude Code's hooks as well as their own: with both installed, one
// event of one session arrives twice, once through each configuration. The first to arrive claims
// the event in the session's note; the other configuration's copy, within a minute of a claim,
// does nothing (no second snapshot, no second restore block). One configuration's own repeats
// (every turn's stop, every tool call) always run.
import { noteOf, withNote } from "../session-notes.ts";
import { getSignalRow, putSignalRow } from "../signal-row.ts";
import type { Session } from "../../session.ts";
import { currentWorkspace, resolveProject } from "../../projects/resolve.ts";

export const DEDUPE_WINDOW_MS = 60_000;

/** True when this copy of `event` should run; false when the other configuration just handled it. */
export async function claimEvent(
  session: Session,
  sessionId: string | null | undefined,
  event: string,
  via: string,
): Promise<boolean> {
  if (!sessionId) return true;
  // Nowhere to remember it (no project, no workspace with an identity): nothing would be written either.
  if (!currentWorkspace(session, false) && !(await resolveProject(session, { create: false }))) return true;
  const now = session.now();
  return session.write(async (w) => {
    const ctx = await resolveProject(session, { create: true, w });
    const s = await getSignalRow(w, ctx.project.id);
    const last = noteOf(s, sessionId)?.fired?.[event];
    if (last && last.via !== via && now.getTime() - Date.parse(last.at) < DEDUPE_WINDOW_MS) return false;
    const marked = withNote(s, sessionId, now, (n) => ({
      ...n,
      fired: { ...(n.fired ?? {}), [event]: { at: now.toISOString(), via } },
    }));
    await putSignalRow(w, ctx.project.id, marked);
    return true;
  });
}
