// `mindsave hook <event> [--agent NAME]`: what an agent's hook runs (Claude Code's without
// --agent). It reads the hook's JSON on stdin, is quiet and quick, and never blocks the agent: any
// trouble is one line on stderr and exit 0.
import { Session } from "../engine/session.ts";
import { neverPrompt } from "../engine/home/passphrase.ts";
import { HOOK_ARGS } from "../engine/agents/agent-hooks.ts";
import { agentKindNames } from "../engine/agents/kinds/index.ts";
import { readHook, runHook } from "../engine/agents/kinds/runtime.ts";
import type { HookEvent } from "../engine/agents/kinds/kind.ts";
import type { GlobalOptions } from "../types.ts";
import { writeErr, writeOut } from "../lib/out.ts";
import { readStreamCapped, TooLarge } from "../lib/bounded-read.ts";

const EVENTS = HOOK_ARGS;
const BUDGET_MS = 4000;
/**
 * How long a hook waits for another MindSave's write lock (a sync or an import can hold it for a
 * minute). SQLite waits inside a synchronous call, where the watchdog's timer cannot fire: a hook
 * would wait the default 15 s on every tool call. Past this, its write is left out (session-start
 * still restores).
 */
export const HOOK_BUSY_MS = 1000;
/** The most bytes of a hook's JSON read from stdin (a PostToolUse payload carries the tool's output). */
export const MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;

/** stdin as text, or null when it is longer than `max` bytes (then it is not read any further). */
async function readPayload(max: number): Promise<string | null> {
  try {
    return await readStreamCapped(Bun.stdin.stream(), max);
  } catch (e) {
    // An unreadable stdin is an empty payload.
    return e instanceof TooLarge ? null : "";
  }
}

/** Why nothing ran, after what was wrong: a hook's exit is 0 whatever happens. */
const EXITS_0 = "nothing done (exit 0: a hook never fails the agent)";

/** What is wrong with the command line's event or agent, or null. */
function wrongCall(event: string | undefined, agent: string | undefined): string | null {
  if (!event || !EVENTS.includes(event))
    return `${event ? "unknown event" : "no event given"}; use one of ${EVENTS.join(", ")}; ${EXITS_0}`;
  if (agent !== undefined && !agentKindNames().includes(agent))
    return `unknown agent; use one of ${agentKindNames().join(", ")}; ${EXITS_0}`;
  return null;
}

export async function run(o: { agent?: string }, args: string[], g: GlobalOptions): Promise<number> {
  const event = args[0];
  const note = (msg: string) =>
    writeErr(`mindsave hook${event ? ` ${event}` : ""}${o.agent ? ` --agent ${o.agent}` : ""}: ${msg}\n`);
  // A hook that hangs is worse than none: give up quietly well inside the agent's own timeout.
  const watchdog = setTimeout(() => {
    note(`gave up after ${BUDGET_MS / 1000} s`);
    process.exit(0);
  }, BUDGET_MS);
  watchdog.unref?.();
  // Its stdin was the payload: a passphrase prompt would read nothing (and a hook never asks).
  neverPrompt();
  try {
    const wrong = wrongCall(event, o.agent);
    if (wrong) {
      note(wrong);
      return 0;
    }
    // A person typed it: say what it waits for (a payload typed or pasted by hand is read as an agent's).
    if (process.stdin.isTTY)
      note(
        "reads the agent's JSON payload on stdin and is meant to be run by the agent's hooks (`mindsave hook --help` says where the payloads are described); type or paste one and end it with Ctrl-D, or leave with Ctrl-C",
      );
    const raw = await readPayload(MAX_PAYLOAD_BYTES);
    if (raw === null) {
      note(`stdin is over ${MAX_PAYLOAD_BYTES / 1024 / 1024} MB; nothing done`);
      return 0;
    }
    let payload: Record<string, unknown> = {};
    if (raw.trim()) {
      try {
        payload = JSON.parse(raw);
      } catch {
        note("stdin was not JSON; nothing done");
        return 0;
      }
      if (!payload || typeof payload !== "object" || Array.isArray(payload)) {
        note("stdin was not a JSON object; nothing done");
        return 0;
      }
    }
    const call = readHook(o.agent, event as HookEvent, payload, process.env);
    if (!call) return 0; // checked above
    const cwd =
      (typeof call.payload.cwd === "string" && call.payload.cwd) ||
      process.env.CLAUDE_PROJECT_DIR ||
      process.cwd();
    // Session start restores from a store it cannot write to as well (a write-protected drive).
    const session = await Session.open(
      { home: g.home, workspace: g.workspace, cwd, busyTimeoutMs: HOOK_BUSY_MS },
      { write: event !== "session-start" },
    );
    const out = await session.run((s) => runHook(s, call));
    if (out) writeOut(out);
    return 0;
  } catch (e) {
    note((e as Error)?.message?.split("\n")[0] ?? String(e));
    return 0;
  } finally {
    clearTimeout(watchdog);
  }
}
