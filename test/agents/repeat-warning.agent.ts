// A repeat warning reaches the model (issue 37): Claude Code and Codex, for real against the fake
// model, with MindSave installed by its own installers; the failure graph holds a rejected approach
// and the prompt proposes it again. The prompt hook's warning must be in a request the model gets.
import { describe, expect, test } from "bun:test";
import { agentContext, agentTitle, expectRan } from "./scenarios.ts";
import { installMindSave, mindsaveOk, type AgentDriver } from "./harness.ts";
import { requestText } from "./fake-model.ts";
import { claude } from "./claude.ts";
import { codex } from "./codex.ts";

const REJECTED = "Redis for session storage";
const REASON = "sessions were lost on every deploy";

for (const driver of [claude, codex] as AgentDriver[]) {
  const ctx = agentContext(driver);
  describe(agentTitle(ctx), () => {
    test.skipIf(!!ctx.skip)(
      "a repeat warning reaches the model when the prompt proposes a rejected approach",
      async () => {
        const world = await ctx.world();
        await installMindSave(world, driver);
        await mindsaveOk(world, [
          "fail",
          REJECTED,
          "--reason",
          REASON,
          "--by",
          "user",
          "--related",
          "redis sessions",
          "--alt",
          "Postgres sessions table",
        ]);
        ctx.model.script({ calls: [], final: "Understood." });
        expectRan(await ctx.run(world, "Move the user sessions to Redis so logins survive restarts"));
        const sent = ctx.model.conversation().map(requestText);
        const warned = sent.find((t) => t.includes("MindSave repeat warning"));
        expect(warned).toBeDefined();
        expect(warned).toContain(REJECTED);
        expect(warned).toContain(REASON);
        expect(warned).toContain("Postgres sessions table");
      },
    );
  });
}
