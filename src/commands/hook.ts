// `mindsave hook <event>`: what a Claude Code hook runs. It reads the hook's JSON on stdin, is
// quiet and quick, and never blocks the agent: any trouble is one line on stderr and exit 0.
import { Session } from "../engine/session.ts";
import type { HookPayload } from "../engine/agents/autosave.ts";
import { HOOK_ARGS } from "../engine/agents/hooks.ts";
import { onCheckpoint, onPostToolUse, onSessionStart } from "../engine/agents/hook-events.ts";
import { onPostToolUseFailure, onUserPromptSubmit } from "../engine/agents/semantic.ts";
import type { GlobalOptions } from "../types.ts";

const EVENTS = HOOK_ARGS;
const BUDGET_MS = 4000;
/** The most bytes of a hook's JSON read from stdin (a PostToolUse payload carries the tool's output). */
export const MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;

/** stdin as text, or null when it is longer than `max` bytes (then it is not read any further). */
async function readPayload(max: number): Promise<string | null> {
  const reader = Bun.stdin.stream().getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      size += r.value.byteLength;
      if (size > max) {
        void reader.cancel().catch(() => {});
        return null;
      }
      parts.push(r.value);
    }
  } catch {
    // an unreadable stdin is an empty payload
  }
  return Buffer.concat(parts).toString("utf8");
}

export async function run(_o: unknown, args: string[], g: GlobalOptions): Promise<number> {
  const event = args[0];
  const note = (msg: string) => process.stderr.write(`mindsave hook ${event ?? ""}: ${msg}\n`);
  // A hook that hangs is worse than none: give up quietly well inside the agent's own timeout.
  const watchdog = setTimeout(() => {
    note(`gave up after ${BUDGET_MS / 1000} s`);
    process.exit(0);
  }, BUDGET_MS);
  watchdog.unref?.();
  let session: Session | null = null;
  try {
    if (!EVENTS.includes(event)) {
      note(`unknown event; use one of ${EVENTS.join(", ")}`);
      return 0;
    }
    const raw = await readPayload(MAX_PAYLOAD_BYTES);
    if (raw === null) {
      note(`stdin is over ${MAX_PAYLOAD_BYTES / 1024 / 1024} MB; nothing done`);
      return 0;
    }
    let payload: HookPayload = {};
    if (raw.trim()) {
      try {
        payload = JSON.parse(raw);
      } catch {
        note("stdin was not JSON; nothing done");
        return 0;
      }
    }
    const cwd = payload.cwd || process.env.CLAUDE_PROJECT_DIR || process.cwd();
    session = await Session.open({ home: g.home, workspace: g.workspace, cwd }, { write: true });
    const outcome =
      event === "session-start" ? await onSessionStart(session, payload)
      : event === "user-prompt-submit" ? await onUserPromptSubmit(session, payload)
      : event === "post-tool-use" ? await onPostToolUse(session, payload)
      : event === "post-tool-use-failure" ? await onPostToolUseFailure(session, payload)
      : await onCheckpoint(session, payload, event as "pre-compact" | "stop" | "session-end");
    if (outcome.output) process.stdout.write(JSON.stringify(outcome.output) + "\n");
    return 0;
  } catch (e) {
    note((e as Error)?.message?.split("\n")[0] ?? String(e));
    return 0;
  } finally {
    await session?.close();
    clearTimeout(watchdog);
  }
}
