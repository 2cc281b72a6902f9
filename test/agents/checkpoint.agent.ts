// Agent-written checkpoints (issue 35, item 1) with the real agents against the fake model: the
// user's "done" after a session that wrote a file blocks the agent's stop once, and the request to
// save a checkpoint through MindSave reaches the model, once (the continued stop is not blocked
// again, so the run ends). The fake model picks its call by the number of tool results, which a
// block does not change: that it then calls `save` is not scripted here.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { agentContext, agentTitle, expectRan } from "./scenarios.ts";
import { installMindSave, type AgentDriver } from "./harness.ts";
import { requestText } from "./fake-model.ts";
import { claude } from "./claude.ts";
import { codex } from "./codex.ts";
import { gemini } from "./gemini.ts";

const REQUEST = "Save a checkpoint now with MindSave";

for (const driver of [claude, codex, gemini] as AgentDriver[]) {
  const ctx = agentContext(driver);
  describe(agentTitle(ctx), () => {
    test.skipIf(!!ctx.skip)(
      "the user's 'done' blocks the stop once with the checkpoint request",
      async () => {
        const world = await ctx.world();
        await installMindSave(world, driver);
        ctx.model.script({
          calls: [
            { write: { path: join(world.project, "src/limit.ts"), content: "export const limit = 5;\n" } },
          ],
          final: "Done.",
        });
        expectRan(await ctx.run(world, "done"));
        const sent = ctx.model.conversation().map(requestText);
        // Asked once: only the one request after the block holds it (Claude Code puts a block's
        // reason in it twice, as the feedback and as the hook's note); a second block would add one.
        expect(sent.filter((t) => t.includes(REQUEST)).length).toBe(1);
        expect(sent.at(-1)).toContain(REQUEST);
      },
    );
  });
}
