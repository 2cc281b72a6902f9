// `mindsave ingest TRANSCRIPT`: an agent transcript's tool calls into the project's tool log.
import { existsSync } from "node:fs";
import { UserError } from "../errors.ts";
import { ingestTranscript, readAgentTranscript } from "../engine/agents/ingest.ts";
import { print, printJson } from "./shared.ts";
import { Session } from "../engine/session.ts";
import type { GlobalOptions } from "../types.ts";

export async function run(_o: unknown, args: string[], g: GlobalOptions): Promise<number> {
  const path = args[0];
  if (!existsSync(path)) throw new UserError(`No transcript at ${path}.`);
  // The transcript knows where the agent worked: that is the project, unless --workspace says otherwise.
  const cwd = g.workspace ? undefined : (readAgentTranscript(path).cwd ?? undefined);
  const session = await Session.open(
    {
      home: g.home,
      workspace: g.workspace,
      project: g.project,
      cwd: cwd && existsSync(cwd) ? cwd : undefined,
    },
    { write: true },
  );
  const r = await session.run((s) => ingestTranscript(s, path));
  if (g.json) printJson(r);
  else {
    print(
      `Ingested ${r.added} new tool call(s) of ${r.seen} into project ${r.project}'s tool log (Layer 3; never auto-restored).`,
    );
    if (r.abandoned.length)
      print(
        `Failure graph: ${r.abandoned.join(", ")} (tried in different ways, each failed, then abandoned).`,
      );
  }
  return 0;
}
