// The pressure model's factors read only from evidence the current task has given: a new session's
// task is not the last save's (complexity), and a session's first seconds tell no growth rate.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { atPlace, hookAt, inRepo, save, storeFixture, type ProjectPlace } from "./engine-setup.ts";
import { readSignal } from "../src/engine/agents/signal.ts";
import { run } from "./helpers.ts";

/** A project whose last save, by another session, was a six-file task. */
const sixFileTask = storeFixture("mindsave-signal-evidence-", async (t) => {
  const six = ["a", "b", "c", "d", "e", "f"].map((f) => join(t.repo, `src/${f}.ts`));
  await save(inRepo(t), { goal: "Split the billing module", next: "move the invoices", activeFile: six });
});

const startPayload = (cwd: string, sessionId: string, source: string) => ({
  session_id: sessionId,
  cwd,
  hook_event_name: "SessionStart",
  source,
});

describe("complexity before a task's first save", () => {
  test("a session started afresh reads its task as low, not as the last save's six files; a resumed one keeps them", async () => {
    const t = await sixFileTask();
    // Resumed: the same task carries on, six active files, high.
    await hookAt(t, undefined, "session-start", startPayload(t.repo, "s-resumed", "resume"));
    expect((await atPlace(inRepo(t), readSignal)).signal.complexity).toBe("high");
    // A new session: its task has no snapshot of its own yet.
    const start = await run(["hook", "session-start", "--home", t.home], {
      cwd: t.repo,
      env: t.pc.env,
      stdin: JSON.stringify(startPayload(t.repo, "s-new", "startup")),
    });
    expect(start.code).toBe(0);
    expect(start.stdout).toContain("Split the billing module"); // the last state is still offered
    expect((await t.json(["signal"])).complexity).toBe("low");
  });
});

describe("growth before five minutes are watched", () => {
  const postToolUse = (t: ProjectPlace, sessionId: string) =>
    run(["hook", "post-tool-use", "--home", t.home], {
      cwd: t.repo,
      env: t.pc.env,
      stdin: JSON.stringify({
        session_id: sessionId,
        cwd: t.repo,
        hook_event_name: "PostToolUse",
        tool_name: "Read",
        tool_input: { file_path: join(t.repo, "src/a.ts") },
      }),
    });
  const growthNow = async (t: ProjectPlace) => (await atPlace(inRepo(t), readSignal)).signal;

  test("a session's first call reads as normal growth, not slow; one call in a session started six minutes ago is slow", async () => {
    const t = await sixFileTask();
    await hookAt(t, undefined, "session-start", startPayload(t.repo, "s-1", "startup"));
    expect(await postToolUse(t, "s-1")).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await growthNow(t)).toMatchObject({
      growth_rate: "normal",
      thresholds: { warning: 0.6, critical: 0.8 },
    });
    // Another session, started six minutes ago (its clock pinned there), one call since: slow (×1.2).
    const sixMinutesAgo = new Date(Date.now() - 6 * 60_000);
    await hookAt(t, undefined, "session-start", startPayload(t.repo, "s-2", "startup"), sixMinutesAgo);
    expect(await postToolUse(t, "s-2")).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await growthNow(t)).toMatchObject({
      growth_rate: "slow",
      thresholds: { warning: 0.72, critical: 0.96 },
    });
  });
});
