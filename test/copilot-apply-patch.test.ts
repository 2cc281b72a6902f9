// Copilot CLI's apply_patch (issue 34): its arguments arrive as one raw patch string, not an
// object. The files the patch touches are the session's edits (the snapshot's active files, the
// file changes with their lines) and the tool log names the call an edit of its first file, whether
// the facts come from Copilot's event log or, without it, from the hooks' own trail.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "./helpers.ts";
import { agentProject } from "./agent-fixtures.ts";

const PATCH = [
  "*** Begin Patch",
  "*** Update File: src/export.ts",
  "@@",
  "-const rows = await all();",
  "+const rows = cursor();",
  "*** Add File: src/导出/cursor.ts",
  "+export const cursor = () => [];",
  "*** End Patch",
].join("\n");

type Project = ReturnType<typeof agentProject>;

async function newest(t: Project) {
  const [row] = await sql(
    t.db,
    "SELECT active_files, layer3 FROM snapshots WHERE deleted = 0 ORDER BY created_at DESC LIMIT 1",
  );
  return {
    files: (JSON.parse(String(row.active_files)) as { path: string }[]).map((f) => f.path).sort(),
    layer3: String(row.layer3),
  };
}

const loggedCalls = async (t: Project) =>
  (await sql(t.db, "SELECT action, tool, target FROM tool_calls ORDER BY timestamp")).map((r) => [
    r.action,
    r.tool,
    r.target,
  ]);

const ok = (r: { code: number; stderr: string }) =>
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });

test("from Copilot's event log: the patched files are the active files, with their lines", async () => {
  const t = agentProject();
  const log = join(t.base, "events.jsonl");
  const line = (type: string, data: Record<string, unknown>, at: string) =>
    JSON.stringify({ type, data, id: `${type}-${at}`, timestamp: at, parentId: null });
  writeFileSync(
    log,
    [
      line(
        "session.start",
        { sessionId: "cp-1", startTime: "2026-11-28T09:00:00.000Z", context: { cwd: t.repo } },
        "2026-11-28T09:00:00.000Z",
      ),
      line("user.message", { content: "Stream the CSV export" }, "2026-11-28T09:00:01.000Z"),
      line(
        "tool.execution_start",
        { toolCallId: "call_1", toolName: "apply_patch", arguments: PATCH },
        "2026-11-28T09:00:02.000Z",
      ),
      line("tool.execution_complete", { toolCallId: "call_1", success: true }, "2026-11-28T09:00:03.000Z"),
    ].join("\n") + "\n",
  );
  ok(
    await t.hook("copilot", "stop", {
      sessionId: "cp-1",
      timestamp: 1795000000000,
      cwd: t.repo,
      transcriptPath: log,
    }),
  );
  const snap = await newest(t);
  expect(snap.files).toEqual(["src/export.ts", "src/导出/cursor.ts"]);
  expect(snap.layer3).toContain("src/export.ts | +1 -1");
  expect(snap.layer3).toContain("src/导出/cursor.ts | +1 -0");
  expect(await loggedCalls(t)).toEqual([["edit", "apply_patch", "src/export.ts"]]);
});

test("from the hooks' trail (no event log): postToolUse's raw patch string gives the files", async () => {
  const t = agentProject();
  mkdirSync(join(t.repo, "src"), { recursive: true });
  const base = { sessionId: "cp-2", cwd: t.repo };
  ok(
    await t.hook("copilot", "user-prompt-submit", {
      ...base,
      timestamp: 1795000000000,
      prompt: "Stream the CSV export",
    }),
  );
  ok(
    await t.hook("copilot", "post-tool-use", {
      ...base,
      timestamp: 1795000001000,
      toolName: "apply_patch",
      toolArgs: PATCH,
      toolResult: { resultType: "success", textResultForLlm: "Patch applied" },
    }),
  );
  ok(await t.hook("copilot", "session-end", { ...base, timestamp: 1795000002000, reason: "user_exit" }));
  expect((await newest(t)).files).toEqual(["src/export.ts", "src/导出/cursor.ts"]);
  const [call] = await loggedCalls(t);
  expect(call.slice(0, 2)).toEqual(["edit", "apply_patch"]);
  expect(String(call[2])).toContain("src/export.ts");
});
