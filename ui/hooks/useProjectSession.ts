// The engine's "here" for a screen of a project chosen in the TUI: the session acting on that
// project (as `--in` does), or the session itself when no project is chosen.
import { useMemo } from "react";
import { useUi } from "../context.ts";
import type { Session } from "../../src/engine/session.ts";

export function useProjectSession(projectId: string | null): Session {
  const { session } = useUi();
  return useMemo(() => (projectId ? session.forProject(projectId) : session), [session, projectId]);
}
