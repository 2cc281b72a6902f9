// `mindsave ingest` reads every agent transcript format MindSave has a reader for, told by the
// file's first record: each fixture's tool calls land in the project's tool log.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentProject, transcriptFixture } from "./agent-fixtures.ts";

// Per fixture: the tools its transcript calls, in order (test/fixtures/agents/README.md names the sources).
const CASES: [string, string, string[]][] = [
  ["Codex CLI rollout", "codex-rollout.jsonl", ["update_plan", "shell", "apply_patch", "shell"]],
  [
    "Gemini CLI chat recording (JSONL)",
    "gemini-session.jsonl",
    ["write_todos", "replace", "run_shell_command", "write_file"],
  ],
  ["Copilot CLI event log", "copilot-events.jsonl", []],
  ["Cursor agent transcript", "cursor-transcript.jsonl", []],
];

describe("ingest reads each agent's transcript", () => {
  for (const [name, fixture, tools] of CASES)
    test(name, async () => {
      const t = agentProject();
      const path = transcriptFixture(fixture, t.base, t.repo);
      const r = await t.json(["ingest", path]);
      expect(r.added).toBeGreaterThan(0);
      expect(r.added).toBe(r.seen);
      const logged = (await t.json(["recall", "--tools", "--limit", "50"])).tool_calls.map(
        (c: { tool: string }) => c.tool,
      );
      expect(logged.length).toBe(r.added);
      if (tools.length) expect([...logged].sort()).toEqual([...tools].sort());
    });

  test("a file no reader knows is refused in one sentence, the store untouched", async () => {
    const t = agentProject();
    const path = join(t.base, "notes.jsonl");
    writeFileSync(path, '{"hello":"world"}\n');
    const r = await t.cli(["ingest", path]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("Codex CLI");
  });

  test("a FIFO is refused at once, never waited on for its first record", async () => {
    const t = agentProject();
    const fifo = join(t.base, "pipe.jsonl");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    const r = await t.cli(["ingest", fifo]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("holds no transcript lines MindSave reads");
  });
});
