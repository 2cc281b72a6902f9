// The repeat warning as a hook flow: what the agent is about to do (the user's prompt) matched
// against the failure graph (failures/repeat-warnings.ts); a failure is named once per agent
// session, the ids warned of kept in the session's note. It never blocks the agent: a store busy
// with another writer gets the warning without the note (it may come once more).
import { hookFacts, type HookPayload } from "./hook-payload.ts";
import { noteOf, withNote } from "./session-notes.ts";
import { getSignalRow, putSignalRow } from "./signal-row.ts";
import { repeatedFailures, repeatWarning } from "../failures/repeat-warnings.ts";
import { resolveProject } from "../projects/resolve.ts";
import { unlessBusy } from "../unless-busy.ts";
import type { Session } from "../session.ts";

/** How many warned ids a session's note keeps (the oldest are forgotten first). */
const KEEP_WARNED = 50;

/** The warning for `text` in this session, or undefined when it proposes no rejected approach (or only ones warned of). */
export async function repeatWarningFor(
  session: Session,
  p: HookPayload,
  text: string,
): Promise<string | undefined> {
  if (!text.trim()) return undefined;
  const { sessionId } = hookFacts(p);
  const ctx = await resolveProject(session, { create: false });
  const projectId = ctx?.project.id ?? null;
  const row = ctx ? await getSignalRow(session.reader, ctx.project.id) : null;
  const warned = new Set(row ? (noteOf(row, sessionId)?.warned ?? []) : []);
  const found = await repeatedFailures(session.reader, projectId, text, warned);
  if (!found.length) return undefined;
  if (ctx && sessionId) {
    const now = session.now();
    await unlessBusy(true, undefined, () =>
      session.write(async (w) => {
        const s = await getSignalRow(w, ctx.project.id);
        const next = withNote(s, sessionId, now, (n) => ({
          ...n,
          warned: [...(n.warned ?? []), ...found.map((f) => f.id)].slice(-KEEP_WARNED),
        }));
        await putSignalRow(w, ctx.project.id, next);
      }),
    );
  }
  return repeatWarning(found);
}
