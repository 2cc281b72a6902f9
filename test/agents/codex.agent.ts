// Codex CLI, for real, against the fake model: issue 34's scenarios (scenarios.ts), and its hook
// trust: Codex skips new hooks, silently, until they are trusted.
import { describe, expect, test } from "bun:test";
import { agentScenarios, agentTitle, expectRan, saveTask } from "./scenarios.ts";
import { installMindSave, mindsaveOk, snapshots } from "./harness.ts";
import { codex, codexExec } from "./codex.ts";

const ctx = agentScenarios(codex);

describe(`${agentTitle(ctx)}: hook trust`, () => {
  test.skipIf(!!ctx.skip)("hooks install says how to trust the hooks, and offers --trust", async () => {
    const world = await ctx.world();
    const r = await mindsaveOk(world, ["hooks", "install", "--agent", "codex", "--user"]);
    expect(r.stdout + r.stderr).toContain("--trust");
  });

  test.skipIf(!!ctx.skip)(
    "after hooks install --trust, a plain `codex exec` runs MindSave's hooks: the session leaves a snapshot",
    async () => {
      const world = await ctx.world();
      await installMindSave(world, codex);
      await mindsaveOk(world, ["hooks", "install", "--agent", "codex", "--user", "--trust"]);
      await saveTask(world, "codex trust");
      ctx.model.script({ calls: [{ shell: "echo 'export const pageSize = 500;' > src/page.ts" }] });
      expectRan(await codexExec(world, ctx.bin, "continue where we left off"));
      const after = await snapshots(world);
      // The terminal's save, and the one the session's hooks left (its goal: the work scenario's business).
      expect(after.length).toBe(2);
    },
  );
});
