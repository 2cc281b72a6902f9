// The checkpoint an agent saves itself (asked at the user's "done", issue 35) stays the project's
// newest: the hooks that run after it in the same session (the stop it continues to, the session's
// end) write no mechanical snapshot over it, which would replace its state and next action with a
// count of tool calls. Work done after the save is saved as usual. In-process, real store and
// transcript files (the real agents: test/agents/checkpoint.agent.ts).
import { expect, test } from "bun:test";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { atPlace, inRepo, save } from "./engine-setup.ts";
import { projectOnLaptop, type ProjectOnLaptop } from "./helpers.ts";
import { Transcript } from "./claude-fixtures.ts";
import { readHook, runHook } from "../src/engine/agents/kinds/runtime.ts";
import type { HookEvent } from "../src/engine/agents/kinds/kind.ts";
import { resolveProject } from "../src/engine/projects/resolve.ts";
import { newestSnapshot } from "../src/engine/snapshots/select.ts";

const CHECKPOINT = {
  goal: "Rate-limit POST /login per client IP (登录限流)",
  state: "The attempts table and its migration are written; the handler does not use them yet",
  next: "Call the limiter from the login handler before the password check",
  constraints: ["Keep the limiter in Postgres: production has no Redis"],
};

/** A file the session wrote, dated a minute ago (before the checkpoint). */
function written(t: ProjectOnLaptop, rel: string, ago = 60_000): string {
  const path = join(t.repo, rel);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, "export const attemptsPerMinute = 5;\n");
  const at = new Date(Date.now() - ago);
  utimesSync(path, at, at);
  return path;
}

/** Claude Code's hook for `event` at the session's transcript, as `mindsave hook EVENT --agent claude` runs it. */
const fire = (t: ProjectOnLaptop, tr: Transcript, event: HookEvent, raw: Record<string, unknown>) =>
  atPlace(inRepo(t), (s) => {
    const payload = { session_id: tr.sessionId, transcript_path: tr.path, cwd: t.repo, ...raw };
    return runHook(s, readHook("claude", event, payload, s.env)!);
  });

/** The stop the agent continues to after its save (the block is behind it), then the session's end. */
async function stopAndEnd(t: ProjectOnLaptop, tr: Transcript) {
  await fire(t, tr, "stop", {
    hook_event_name: "Stop",
    stop_hook_active: true,
    last_assistant_message: "Done.",
  });
  await fire(t, tr, "session-end", { hook_event_name: "SessionEnd", reason: "other" });
}

const newest = (t: ProjectOnLaptop) =>
  atPlace(inRepo(t), async (s) => {
    const ctx = await resolveProject(s, { create: false });
    return s.store.consistentRead((q) => newestSnapshot(q, ctx!.project.id));
  });

/** A session that wrote a file, was asked for its checkpoint and saved it through MindSave's MCP `save`. */
async function sessionThatSaved(t: ProjectOnLaptop) {
  const tr = new Transcript(t.base, t.repo, "s-done").prompt("done");
  const file = written(t, "src/limit.ts");
  tr.tool("Write", { file_path: file, content: "export const attemptsPerMinute = 5;\n" }, 21_000);
  tr.tool("mcp__mindsave__save", { goal: CHECKPOINT.goal, state: CHECKPOINT.state }, 22_000);
  const saved = await save(inRepo(t), {
    goal: CHECKPOINT.goal,
    state: CHECKPOINT.state,
    next: CHECKPOINT.next,
    activeFile: ["src/limit.ts"],
    constraint: CHECKPOINT.constraints,
  });
  return { tr, saved };
}

test("after the agent saved its checkpoint as its last act, neither the stop nor the session's end writes over it", async () => {
  const t = projectOnLaptop("mindsave-ckstands-");
  const { tr, saved } = await sessionThatSaved(t);
  tr.reply("Done.");
  await stopAndEnd(t, tr);
  const kept = await newest(t);
  expect(kept?.id).toBe(saved.snapshot.id);
  expect([kept?.state, kept?.next_action]).toEqual([CHECKPOINT.state, CHECKPOINT.next]);
});

test("work after the agent's checkpoint is saved as usual", async () => {
  const t = projectOnLaptop("mindsave-ckstands-");
  const { tr, saved } = await sessionThatSaved(t);
  const file = written(t, "src/login.ts", -1_000);
  tr.tool("Edit", { file_path: file, old_string: "a", new_string: "b" }, 23_000);
  tr.reply("Done.");
  await stopAndEnd(t, tr);
  const after = await newest(t);
  expect(after?.id).not.toBe(saved.snapshot.id);
  expect(after?.goal).toBe(CHECKPOINT.goal);
});
