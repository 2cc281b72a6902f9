// Small helpers every command adapter shares: opening a session, printing text or JSON, warnings.
import { Session } from "../engine/session.ts";
import { resolveWorkspace } from "../engine/projects/workspace.ts";
import { CANCELLED, UserError } from "../errors.ts";
import { writeErr, writeOut, writeProgress } from "../lib/out.ts";
import { fit, printable } from "../lib/text.ts";
import { AGENT_IDS, type AgentId, type Place, type Scope } from "../engine/agents/registry.ts";
import type { GlobalOptions } from "../types.ts";

export async function withSession<T>(
  g: GlobalOptions,
  write: boolean,
  fn: (s: Session) => Promise<T>,
): Promise<T> {
  const session = await Session.open({ home: g.home, workspace: g.workspace, project: g.project }, { write });
  try {
    return await session.run(fn);
  } finally {
    for (const n of session.notices) note(n);
  }
}

// What a command prints is text from anywhere (a peer's snapshot, an import, a transcript): it
// reaches the terminal without escape sequences or control characters (printable), and JSON keeps
// every value exactly, with the characters a terminal would act on escaped.

export function print(text: string): void {
  const shown = printable(text);
  writeOut(shown.endsWith("\n") ? shown : shown + "\n");
}

/** C1 controls, DEL and bidi overrides, which JSON.stringify leaves raw (it escapes only C0). */
const RAW_IN_JSON = /[\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

export function printJson(value: unknown): void {
  writeOut(
    JSON.stringify(value, null, 2).replace(
      RAW_IN_JSON,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    ) + "\n",
  );
}

export function warn(message: string): void {
  writeErr(`mindsave: warning: ${printable(message)}\n`);
}

export function note(message: string): void {
  writeErr(`mindsave: ${printable(message)}\n`);
}

/** Reports long work: what it is doing, how many of how many it has done, and the part it is on now. */
export type Progress = (doing: string, done: number, total: number, part?: string) => void;

/** When a progress line is worth showing, and whether its rate says how long is left. */
export interface ProgressOptions {
  /** Work of fewer items ends before anyone waits. */
  min?: number;
  /** False where items take unequal times (a check's parts), so a rate would mislead. */
  estimate?: boolean;
}

/**
 * Long work's progress for a person at a terminal: "DOING done/total, about N s left: PART" on
 * stderr, rewritten in place (once per hundredth or part) and erased when done; with --json or
 * stderr not a terminal, nothing (undefined).
 */
export function terminalProgress(g: GlobalOptions, o: ProgressOptions = {}): Progress | undefined {
  if (g.json || !process.stderr.isTTY) return undefined;
  // Within one row (fit): a line that wrapped would leave its first rows behind when rewritten or
  // erased. fit keeps it printable too: a part is named from the store, a damaged one's too.
  const oneRow = (line: string) => writeProgress(fit(line, (process.stderr.columns || 80) - 1));
  return progressLine(oneRow, Date.now, o);
}

/** Time into a kind of work before its rate means something: the first items say little of it. */
const ESTIMATE_AFTER_MS = 1000;

/** "about N s left" once it means something: a second into the work, and a second or more left. */
function timeLeft(elapsed: number, done: number, total: number): string {
  if (elapsed < ESTIMATE_AFTER_MS || done <= 0) return "";
  const left = (elapsed / done) * (total - done);
  return left >= 1000 ? `, about ${Math.round(left / 1000)} s left` : "";
}

/** The progress line drawn with `write` (the line in place of the last; "" erases it), timed by `now`. */
export function progressLine(write: (line: string) => void, now: () => number, o: ProgressOptions): Progress {
  const { min = 500, estimate = true } = o;
  // Each kind of work (`doing`) has its own start (when, and how many were done by its first
  // report), so the estimate of a second phase is its own.
  const started = new Map<string, { at: number; from: number }>();
  let shown = "";
  return (doing, done, total, part) => {
    if (total < min) return;
    if (!started.has(doing)) started.set(doing, { at: now(), from: done });
    const step = Math.floor((done * 100) / total);
    if (`${doing} ${step} ${part}` === shown && done < total) return;
    shown = `${doing} ${step} ${part}`;
    if (done >= total) return write("");
    const { at, from } = started.get(doing)!;
    const left = estimate ? timeLeft(now() - at, done - from, total - from) : "";
    write(`${doing} ${done}/${total}${left}${part ? `: ${part}` : ""}`);
  };
}

/** Where an agent-settings command acts: this environment, and the current project's root (or the cwd). */
export function projectPlace(g: GlobalOptions): Place {
  const root =
    resolveWorkspace(process.cwd(), { override: g.workspace, create: false })?.root ??
    g.workspace ??
    process.cwd();
  return { env: process.env, root };
}

export interface AgentFlags {
  agent?: string;
  project?: boolean;
  user?: boolean;
}

/** The agent and scope of an `--agent NAME [--project|--user]` command (user by default). */
export function agentScope(opts: AgentFlags, fallback: Scope = "user"): { agent: AgentId; scope: Scope } {
  const agent = opts.agent as AgentId;
  if (!AGENT_IDS.includes(agent))
    throw new UserError(
      `--agent must be one of ${AGENT_IDS.join(", ")}${opts.agent ? `, not ${JSON.stringify(opts.agent)}` : ""}.`,
    );
  if (opts.project && opts.user) throw new UserError("Choose one of --project and --user.");
  return { agent, scope: opts.project ? "project" : opts.user ? "user" : fallback };
}

// Questions asked of a person on a terminal (only when stdin is a TTY). Ctrl-C or Ctrl-D at any of
// them cancels the command (CANCELLED, exit 1): a person's choice, never an internal error.

/**
 * Asks `question` until `parse` accepts the answer (trimmed), saying `again` after each answer it
 * refuses. One reader for every try, so lines typed ahead are not lost between them.
 */
export async function askUntil<T>(
  question: string,
  parse: (answer: string) => T | undefined,
  again: string,
): Promise<T> {
  // Loaded here: most commands never ask.
  const { createInterface } = await import("node:readline");
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    for (;;) {
      const value = parse((await askOnce(rl, question)).trim());
      if (value !== undefined) return value;
      process.stderr.write(`${again}\n`);
    }
  } finally {
    rl.close();
  }
}

/** A y/N question: yes only for y or yes; Enter is no. */
export function confirm(question: string): Promise<boolean> {
  return askUntil(`${question} [y/N] `, (a) => /^y(es)?$/i.test(a), "");
}

/** One answer; Ctrl-C (readline's SIGINT) or Ctrl-D (the input closed) rejects with CANCELLED. */
function askOnce(rl: import("node:readline").Interface, question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const cancel = () => {
      done();
      process.stderr.write("\n");
      reject(new UserError(CANCELLED));
    };
    const done = () => {
      rl.off("SIGINT", cancel);
      rl.off("close", cancel);
    };
    rl.once("SIGINT", cancel);
    rl.once("close", cancel);
    rl.question(question, (answer) => {
      done();
      resolve(answer);
    });
  });
}
