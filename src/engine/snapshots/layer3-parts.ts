// The parts of Layer 3 the spec appends by itself (File Changes from `git diff --stat`, Recent
// Tool Calls of this agent session from the tool log), added to a save that does not already
// carry them. A snapshot given whole (a file) never gets them: its Layer 3 stays as written.
import { sessionToolCalls } from "../agents/toollog.ts";
import { gitDiffStat } from "../projects/workspace.ts";
import { trimLines } from "../../lib/text.ts";
import type { Session } from "../session.ts";
import { resolveProject } from "../projects/resolve.ts";

export async function withAutoParts(session: Session, layer3: string, root: string | null): Promise<string> {
  const parts: string[] = [];
  if (!/^#+\s*File Changes/im.test(layer3)) {
    const stat = gitDiffStat(root);
    if (stat) parts.push(["### File Changes", "git diff --stat:", stat].join("\n"));
  }
  if (!/^#+\s*Recent Tool Calls/im.test(layer3)) {
    const ctx = await resolveProject(session, { create: false });
    const calls = ctx ? await sessionToolCalls(session, ctx.project.id, 5) : [];
    if (calls.length)
      parts.push(
        [
          "### Recent Tool Calls",
          ...calls.map((c, i) => `${i + 1}. ${c.tool} ${c.target}${c.summary ? ` (${c.summary})` : ""}`),
        ].join("\n"),
      );
  }
  return [trimLines(layer3), ...parts].filter(Boolean).join("\n\n");
}
