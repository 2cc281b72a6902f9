// Across agents (issue 34, scenario 6): a task one agent saved through MindSave's MCP server is
// restored into the next agent's first request, on the same machine and project. The chain visits
// all six agents; a pair runs when both agents are installed and have a driver (test/agents/<agent>.ts,
// exporting a driver named after the agent).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startFakeModel, type FakeModel } from "./fake-model.ts";
import { installMindSave, makeWorld, putOnPath, snapshots, type AgentDriver } from "./harness.ts";
import { installedAgent } from "./install.ts";
import { CONTINUE, expectRan, expectSent, restoreTurn } from "./scenarios.ts";
import { AGENTS, type AgentName } from "./versions.ts";

const CHAIN: [AgentName, AgentName][] = [
  ["codex", "claude"],
  ["claude", "gemini"],
  ["gemini", "copilot"],
  ["copilot", "opencode"],
  ["opencode", "cline"],
  ["cline", "codex"],
];

/** An agent's driver and binary, or why pairs with it skip. */
async function agentFor(agent: AgentName): Promise<{ driver?: AgentDriver; bin?: string; skip?: string }> {
  const installed = installedAgent(agent);
  if (installed.skip) return { skip: `${AGENTS[agent].title}: ${installed.skip}` };
  if (!existsSync(join(import.meta.dir, `${agent}.ts`)))
    return { skip: `${AGENTS[agent].title}: no driver (test/agents/${agent}.ts) yet` };
  const driver = (await import(`./${agent}.ts`))[agent] as AgentDriver;
  return { driver, bin: installed.bin };
}

const agents = new Map<AgentName, Awaited<ReturnType<typeof agentFor>>>();
for (const [from, to] of CHAIN)
  for (const a of [from, to]) if (!agents.has(a)) agents.set(a, await agentFor(a));

let model: FakeModel;
beforeAll(() => {
  model = startFakeModel();
});
afterAll(() => model?.stop());

describe("across agents: saved by one, restored into the next", () => {
  for (const [from, to] of CHAIN) {
    const a = agents.get(from)!;
    const b = agents.get(to)!;
    const skip = a.skip ?? b.skip;
    const title = `${AGENTS[from].title} → ${AGENTS[to].title}${skip ? ` (skipped: ${skip})` : ""}`;
    test.skipIf(!!skip)(title, async () => {
      const [saver, restorer] = [a.driver!, b.driver!];
      const world = await makeWorld(from);
      for (const [driver, agent] of [
        [saver, a],
        [restorer, b],
      ] as const) {
        putOnPath(world, driver.agent, agent.bin!);
        driver.configure(world, model);
        await installMindSave(world, driver);
      }
      const goal = `Move the 配送 shipping quotes to the carrier's new API (saved by ${AGENTS[from].title})`;
      const args = {
        goal,
        state: "quotes come from the old SOAP client",
        next_action: "port getQuote to REST",
      };
      model.script({ calls: [{ tool: saver.mcpTool("save"), args }], final: "Saved." });
      expectRan(await saver.run(world, a.bin!, model, "save where we are to MindSave"));
      expect((await snapshots(world)).map((s) => s.goal)).toContain(goal);

      const turn = restoreTurn(restorer);
      model.script({ calls: turn.calls, final: "Resuming." });
      expectRan(await restorer.run(world, b.bin!, model, CONTINUE));
      expectSent(turn.request(model.conversation()), goal);
    });
  }
});
