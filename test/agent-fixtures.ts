// The agents' payloads and transcripts of test/fixtures/agents/ (sources named in its README.md),
// filled in for a test's project, and a laptop with a project to run their hooks in.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitRepo, laptop, run, tempDir, type RunResult } from "./helpers.ts";

export const FIXTURES = join(import.meta.dir, "fixtures", "agents");

/** A fixture's text with `{{CWD}}` and `{{TRANSCRIPT}}` filled in (JSON-escaped). */
export function fill(text: string, vars: { cwd: string; transcript?: string }): string {
  const esc = (s: string) => JSON.stringify(s).slice(1, -1);
  return text.replaceAll("{{CWD}}", esc(vars.cwd)).replaceAll("{{TRANSCRIPT}}", esc(vars.transcript ?? ""));
}

/** A transcript fixture written into `dir` for the project at `cwd`; its path. */
export function transcriptFixture(name: string, dir: string, cwd: string): string {
  const path = join(dir, `${crypto.randomUUID()}-${name}`);
  writeFileSync(path, fill(readFileSync(join(FIXTURES, name), "utf8"), { cwd }));
  return path;
}

type Payloads = Record<string, Record<string, { arg: string; payload: Record<string, unknown> }>>;

/** Every fixture payload of `agent`, by its own event name, for the project at `cwd`. */
export function payloads(
  agent: string,
  cwd: string,
  transcript?: string,
): Record<string, { arg: string; payload: Record<string, unknown> }> {
  const all = JSON.parse(
    fill(readFileSync(join(FIXTURES, "payloads.json"), "utf8"), { cwd, transcript }),
  ) as Payloads;
  return all[agent];
}

/** A project (a git repo) on a laptop, and the CLI and hooks as that laptop runs them there. */
export function agentProject(prefix = "mindsave-agents-") {
  const base = tempDir(prefix);
  const repo = gitRepo(join(base, "shop"), {
    "src/auth.ts": "export const auth = 1;\n",
    "README.md": "# shop\n",
  });
  const pc = laptop("agent-laptop", base);
  const home = join(pc.home, ".mindsave");
  const cli = (args: string[], stdin?: string) => run(args, { cwd: repo, env: pc.env, stdin });
  const hook = (
    agent: string | null,
    arg: string,
    payload: Record<string, unknown> | string,
  ): Promise<RunResult> =>
    cli(
      ["hook", arg, ...(agent ? ["--agent", agent] : [])],
      typeof payload === "string" ? payload : JSON.stringify(payload),
    );
  const json = async (args: string[]) => {
    const r = await cli(["--json", ...args]);
    if (r.code !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  return { base, repo, pc, home, db: join(home, "mindsave.db"), cli, hook, json };
}
