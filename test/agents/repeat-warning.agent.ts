// A repeat warning reaches the model (issue 37): Claude Code and Codex, for real against the fake
// model, with MindSave installed by its own installers; the failure graph holds a rejected approach
// and the prompt proposes it again, or the model's own shell command does. The prompt hook's
// warning must be in a request the model gets; the pre-tool hook's in the request after the call.
import { describe, expect, test } from "bun:test";
import { agentContext, agentTitle, expectRan } from "./scenarios.ts";
import { installMindSave, mindsaveOk, type AgentDriver } from "./harness.ts";
import { requestText } from "./fake-model.ts";
import { claude } from "./claude.ts";
import { codex } from "./codex.ts";
import { copilot } from "./copilot.ts";
import { cline } from "./cline.ts";
import { opencode } from "./opencode.ts";

const REJECTED = "Redis for session storage";
const REASON = "sessions were lost on every deploy";

// At the prompt: Copilot CLI from 1.0.65, opencode through its plugin's system prompt.
for (const driver of [claude, codex, copilot, opencode] as AgentDriver[]) {
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

// Before a tool runs: the agents whose pre-tool hook can put context in front of the model.
for (const driver of [claude, codex, copilot, cline] as AgentDriver[]) {
  const ctx = agentContext(driver);
  describe(agentTitle(ctx), () => {
    test.skipIf(!!ctx.skip)(
      "a repeat warning reaches the model's next request when a shell command it runs names a rejected approach",
      async () => {
        const world = await ctx.world();
        await installMindSave(world, driver);
        await mindsaveOk(world, ["fail", REJECTED, "--reason", REASON, "--related", "redis sessions"]);
        // The prompt proposes nothing rejected; the model's own command does (the pre-tool hook's turn).
        ctx.model.script({
          calls: [{ shell: "redis-cli SET sess:42 x; echo redis sessions ready" }],
          final: "Done.",
        });
        expectRan(await ctx.run(world, "Make logins survive a restart"));
        const sent = ctx.model.conversation().map(requestText);
        expect(sent[0]).not.toContain("MindSave repeat warning");
        const warned = sent.slice(1).find((t) => t.includes("MindSave repeat warning"));
        expect(warned).toBeDefined();
        expect(warned).toContain(REJECTED);
        expect(warned).toContain(REASON);
      },
    );
  });
}
