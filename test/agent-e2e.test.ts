// One memory across agents and laptops: Codex CLI saves at compaction on laptop A from its rollout
// (test/fixtures/agents/codex-rollout.jsonl), the drive carries it, Claude Code's SessionStart on
// laptop B restores it — the block says Codex saved it on laptop A; and the other way round, a
// Claude Code snapshot from laptop B is what Codex's SessionStart restores on laptop A.
import { describe, expect, test } from "bun:test";
import { Transcript, payload } from "./claude-fixtures.ts";
import { payloads, transcriptFixture } from "./agent-fixtures.ts";
import { twoLaptops } from "./helpers.ts";

describe("a snapshot saved by one agent is restored by another, across laptops", () => {
  test("Codex pre-compact on A → drive → Claude Code session-start on B, and Claude Code on B → drive → Codex on A", async () => {
    const w = twoLaptops("mindsave-agents-e2e-");
    const { a, b } = w;

    // Laptop A: Codex compacts; its PreCompact hook saves from the rollout and prints nothing.
    const rollout = transcriptFixture("codex-rollout.jsonl", w.base, a.repo);
    const pre = await a.cli(["hook", "pre-compact", "--agent", "codex"], {
      stdin: JSON.stringify(payloads("codex", a.repo, rollout).PreCompact.payload),
    });
    expect(pre).toMatchObject({ code: 0, stdout: "", stderr: "" });
    await a.json(["sync", w.drive]);
    await b.json(["sync", w.drive]);

    // Laptop B: Claude Code starts a session in its own clone of the project.
    const start = await b.cli(["hook", "session-start"], {
      stdin: JSON.stringify({
        session_id: "cc-b-1",
        transcript_path: null,
        cwd: b.repo,
        permission_mode: "default",
        hook_event_name: "SessionStart",
        source: "startup",
      }),
    });
    expect(start.code).toBe(0);
    const out = JSON.parse(start.stdout);
    expect(Object.keys(out)).toEqual(["hookSpecificOutput"]);
    const block: string = out.hookSpecificOutput.additionalContext;
    expect(block).toMatch(/^saved .* by Codex CLI on laptop-a · /m);
    expect(block).toContain("goal: 把登录改成用 JWT，并加上过期检查");
    expect(block).toContain("state: In progress: Switch login to JWT (1/3 steps done)");
    expect(block).toContain("next_action: Switch login to JWT");
    // Codex's update_plan travelled whole: its progress line is in Claude Code's block.
    expect(block).toMatch(/\nplan 1\/3 · now: Switch login to JWT · next: /);
    // Active files are stored relative to the project: on B they are B's own paths.
    expect(block).toContain(`${b.repo}/src/jwt.ts`);
    expect(block).not.toContain(a.repo);

    // Laptop B: Claude Code works on, then compacts; its PreCompact hook saves from its transcript.
    const t = new Transcript(w.base, b.repo, "cc-b-1");
    t.prompt("Now add the refresh-token endpoint");
    t.todos(
      [
        { content: "Add POST /auth/refresh", status: "in_progress", activeForm: "Adding POST /auth/refresh" },
        { content: "Rotate the refresh token", status: "pending", activeForm: "Rotating the refresh token" },
      ],
      40_000,
    );
    t.tool(
      "Edit",
      { file_path: `${b.repo}/src/refresh.ts`, old_string: "", new_string: "export {}" },
      41_000,
      { patch: { file: `${b.repo}/src/refresh.ts`, lines: ["+export {}"] } },
    );
    const save = await b.cli(["hook", "pre-compact"], {
      stdin: JSON.stringify(
        payload(
          "PreCompact",
          { sessionId: "cc-b-1", path: t.path, cwd: b.repo },
          { trigger: "manual", custom_instructions: "" },
        ),
      ),
    });
    // Claude Code's PreCompact prints the summariser's guide (checkpoint-moments.test.ts).
    expect(save).toMatchObject({ code: 0, stderr: "" });
    expect(save.stdout).toStartWith("MindSave holds this task's state.");
    await b.json(["sync", w.drive]);
    await a.json(["sync", w.drive]);

    // Laptop A: a new Codex session restores Claude Code's snapshot, in Codex's exact shape.
    const codexStart = await a.cli(["hook", "session-start", "--agent", "codex"], {
      stdin: JSON.stringify({
        ...payloads("codex", a.repo, rollout).SessionStart.payload,
        session_id: "codex-a-2",
      }),
    });
    expect(codexStart.code).toBe(0);
    // Plain text, which Codex gives the model (codex-cli 0.154.0 failed any `additionalContext` JSON).
    const back = codexStart.stdout;
    expect(back).toMatch(/^# MindSave restore: /);
    expect(() => JSON.parse(back)).toThrow();
    expect(back).toMatch(/^saved .* by Claude Code on laptop-b · /m);
    expect(back).toContain("goal: Now add the refresh-token endpoint");
    expect(back).toContain("state: In progress: Adding POST /auth/refresh (0/2 steps done)");
    expect(back).toContain(`${a.repo}/src/refresh.ts`);
  });
});
