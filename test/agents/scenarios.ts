// The scenarios every agent goes through (issue 34), declared once: a scenario file calls
// agentScenarios(<its driver>). An agent that could not be installed skips them all, and says why
// in one line.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { COOLDOWN_MS } from "../../src/engine/agents/signal.ts";
import {
  requestText,
  startFakeModel,
  type FakeModel,
  type ModelRequest,
  type ScriptedCall,
} from "./fake-model.ts";
import {
  fileBytes,
  installMindSave,
  makeWorld,
  mindsaveOk,
  putOnPath,
  snapshots,
  uninstallCommands,
  type AgentDriver,
  type AgentRun,
  type World,
} from "./harness.ts";
import { installedAgent } from "./install.ts";
import { AGENTS } from "./versions.ts";

/** The prompt a person types to pick up a saved task. */
export const CONTINUE = "continue where we left off";

/** A task saved from the terminal: distinctive words (and another script) the model must be sent. */
export const savedTask = (tag: string) => ({
  goal: `Stream the 账单 ledger export as CSV, one row per invoice (${tag})`,
  state: "The exporter reads every invoice into memory first",
  next: "Replace the array in src/export.ts with a cursor",
});

/** Saves a task from the terminal, as a person would before starting the agent. */
export async function saveTask(world: World, tag: string) {
  const task = savedTask(tag);
  await mindsaveOk(world, ["save", "--goal", task.goal, "--state", task.state, "--next", task.next]);
  return task;
}

/** The newest snapshot's restore data (`mindsave --json load <id>`). */
export async function loadSnapshot(world: World, id: string): Promise<any> {
  return JSON.parse((await mindsaveOk(world, ["--json", "load", id])).stdout);
}

/**
 * How a session shows it got the restore: the script that starts it (a look around first, for an
 * agent whose restore comes with its first tool result) and the request that must hold the block.
 */
export function restoreTurn(driver: AgentDriver): {
  calls: ScriptedCall[];
  title: string;
  request: (conversation: ModelRequest[]) => ModelRequest | undefined;
} {
  if (!driver.restoreWithFirstToolResult)
    return { calls: [], title: "the model's first request", request: (c) => c[0] };
  return {
    calls: [{ shell: "git status --short" }],
    title: "the model with the first tool result",
    request: (c) => c[1],
  };
}

/** Fails with what the agent printed when it did not end cleanly. */
export function expectRan(run: AgentRun): void {
  const said = `exit ${run.code}${run.timedOut ? " (killed: timeout)" : ""}\n${run.stderr.slice(-2000)}\n${run.stdout.slice(-2000)}`;
  expect({ ok: run.code === 0 && !run.timedOut, said }).toEqual({ ok: true, said });
}

/**
 * Expects the model to have been sent `text` in `request`. On failure it shows what MindSave did
 * send (the restore block's goal line, if any), not the agent's whole 100 kB request.
 */
export function expectSent(request: ModelRequest | undefined, text: string): void {
  const sent = request ? requestText(request) : "";
  if (sent.includes(text)) return;
  // The block's heading (its instructions, sent too, only mention it).
  const at = sent.indexOf("# MindSave restore:");
  const goal = at < 0 ? -1 : sent.indexOf("goal:", at);
  const excerpt = !request
    ? "no request reached the model"
    : at < 0
      ? "no MindSave restore block in the request"
      : sent.slice(goal < 0 ? at : goal, (goal < 0 ? at : goal) + 300);
  expect(excerpt).toContain(text);
}

/** The agent, the fake model and the skip reason a scenario file shares. */
export interface AgentContext {
  driver: AgentDriver;
  bin: string;
  model: FakeModel;
  skip: string | undefined;
  /** A fresh world with the agent configured for the fake model. */
  world(): Promise<World>;
  run(world: World, prompt: string): Promise<AgentRun>;
}

/**
 * The agent's install and fake model for a scenario file: installed (or a skip with its reason,
 * printed once), the model started before the file's tests and stopped after.
 */
export function agentContext(driver: AgentDriver): AgentContext {
  const installed = installedAgent(driver.agent);
  const { title, version } = AGENTS[driver.agent];
  if (installed.skip) console.log(`SKIP ${title} ${version}: ${installed.skip}`);
  const ctx: AgentContext = {
    driver,
    bin: installed.bin ?? "",
    model: undefined as unknown as FakeModel,
    skip: installed.skip,
    async world() {
      const world = await makeWorld(driver.agent);
      putOnPath(world, driver.agent, ctx.bin);
      driver.configure(world, ctx.model);
      return world;
    },
    run: (world, prompt) => driver.run(world, ctx.bin, ctx.model, prompt),
  };
  beforeAll(() => {
    if (!installed.skip) ctx.model = startFakeModel();
  });
  afterAll(() => ctx.model?.stop());
  return ctx;
}

/** The title of an agent's describe block: its name and pinned version, and why it skips. */
export function agentTitle(ctx: AgentContext): string {
  const { title, version } = AGENTS[ctx.driver.agent];
  return `${title} ${version}${ctx.skip ? ` (skipped: ${ctx.skip})` : ""}`;
}

/** Issue 34's scenarios 1–5 for one agent; the context is returned for the file's own tests. */
export function agentScenarios(driver: AgentDriver, ctx = agentContext(driver)): AgentContext {
  const file = (world: World, rel: string) => join(world.project, rel);

  describe(agentTitle(ctx), () => {
    test.skipIf(!!ctx.skip)(
      "MindSave's own installers put its hooks, MCP server and instructions in the agent's files",
      async () => {
        const world = await ctx.world();
        const before = fileBytes(driver.configFiles(world));
        await installMindSave(world, driver);
        const after = fileBytes(driver.configFiles(world));
        expect(Object.keys(after).filter((p) => after[p] !== before[p]).length).toBeGreaterThan(0);
        const inventory = JSON.parse((await mindsaveOk(world, ["--json", "agents"])).stdout);
        const mine = inventory.agents.find((a: any) => a.id === driver.agent);
        const states = (kind: string) =>
          mine[kind].filter((f: any) => f.scope === "user").map((f: any) => f.state);
        expect({ hooks: states("hooks"), mcp: states("mcp"), instructions: states("instructions") }).toEqual({
          hooks: ["current"],
          mcp: ["current"],
          instructions: ["current"],
        });
      },
    );

    const turn = restoreTurn(driver);
    test.skipIf(!!ctx.skip)(`a snapshot saved from the terminal reaches ${turn.title}`, async () => {
      const world = await ctx.world();
      await installMindSave(world, driver);
      const task = await saveTask(world, `${driver.agent} restore`);
      ctx.model.script({ calls: turn.calls, final: "Resuming the export." });
      expectRan(await ctx.run(world, CONTINUE));
      expectSent(turn.request(ctx.model.conversation()), task.goal);
    });

    test.skipIf(!!ctx.skip)(
      "a session that edits files leaves a snapshot of its work under the restored task's goal, inside the cooldown too",
      async () => {
        const world = await ctx.world();
        await installMindSave(world, driver);
        const task = await saveTask(world, `${driver.agent} work`);
        const [manual] = await snapshots(world);

        // Session 1 continues the restored task and writes a file.
        ctx.model.script({
          calls: [{ write: { path: file(world, "src/cursor.ts"), content: "export const cursor = 1;\n" } }],
        });
        expectRan(await ctx.run(world, CONTINUE));
        const afterFirst = await snapshots(world);
        expect(afterFirst[0].id).not.toBe(manual.id);
        const first = await loadSnapshot(world, afterFirst[0].id);
        expect(first.layer1.goal).toBe(task.goal);
        expect((await mindsaveOk(world, ["recall", "--snapshot", first.id])).stdout).toContain(
          "src/cursor.ts",
        );
        // An agent with a file-writing tool used it: the file is active (load gives paths on this host).
        if (ctx.model.conversation()[0].called === "write")
          expect(first.layer1.active_files).toContain(file(world, "src/cursor.ts"));

        // Session 2 starts inside the auto-save cooldown that session 1's save began, and edits
        // through the shell: a call the tool-use hook logs before the session's end.
        const signal = JSON.parse((await mindsaveOk(world, ["--json", "signal"])).stdout);
        expect(signal.last_auto_save_time).not.toBeNull();
        expect(Date.now() - Date.parse(signal.last_auto_save_time)).toBeLessThan(COOLDOWN_MS);
        ctx.model.script({ calls: [{ shell: "echo 'export const pageSize = 500;' >> src/cursor.ts" }] });
        expectRan(await ctx.run(world, CONTINUE));
        const afterSecond = await snapshots(world);
        expect(afterSecond[0].id).not.toBe(afterFirst[0].id);
        expect(afterSecond[0].goal).toBe(task.goal);
        const layer3 = await mindsaveOk(world, ["recall", "--snapshot", afterSecond[0].id]);
        expect(layer3.stdout).toContain("pageSize = 500");
      },
    );

    test.skipIf(!!ctx.skip)(
      "the MCP server starts from the agent's config: load's result reaches the model, save lands in the store",
      async () => {
        const world = await ctx.world();
        await installMindSave(world, driver);
        const task = await saveTask(world, `${driver.agent} mcp`);

        ctx.model.script({ calls: [{ tool: driver.mcpTool("load"), args: {} }] });
        expectRan(await ctx.run(world, "load my MindSave snapshot"));
        const offered = ctx.model.conversation()[0]?.tools ?? [];
        expect(offered.some((t) => driver.mcpTool("load").test(t))).toBe(true);
        const afterTool = ctx.model.conversation().at(-1)!;
        expect(afterTool.reply).toBe("text");
        expectSent(afterTool, task.next);

        const goal = `Cache the 汇率 exchange rates for an hour (${driver.agent} via MCP)`;
        ctx.model.script({
          calls: [
            {
              tool: driver.mcpTool("save"),
              args: { goal, state: "planned", next_action: "write the cache" },
            },
          ],
        });
        expectRan(await ctx.run(world, "save where we are to MindSave"));
        expect((await snapshots(world)).map((s) => s.goal)).toContain(goal);
      },
    );

    test.skipIf(!!ctx.skip)(
      "after uninstall the agent's files are byte for byte as before, and the agent still runs",
      async () => {
        const world = await ctx.world();
        const before = fileBytes(driver.configFiles(world));
        await installMindSave(world, driver);
        for (const args of uninstallCommands(driver)) await mindsaveOk(world, args);
        expect(fileBytes(driver.configFiles(world))).toEqual(before);

        ctx.model.script({ calls: [{ shell: "echo hi > hi.txt" }], final: "all done" });
        expectRan(await ctx.run(world, "create hi.txt"));
        const offered = ctx.model.conversation()[0]?.tools ?? [];
        expect(offered.filter((t) => /mindsave/i.test(t))).toEqual([]);
        expect(ctx.model.conversation().at(-1)!.reply).toBe("text");
      },
    );
  });
  return ctx;
}
