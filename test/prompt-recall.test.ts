// Recall at the prompt (issue 37, item 2): a prompt naming what the store knows (a failure, a
// fact, a standing rule, an archived snapshot's topic) gets a pointer of at most three lines
// (<= 100 cl100k tokens) saying where to look; `mindsave config prompt-recall off` turns it off.
// Claude Code's prompt hook runs as the CLI, on a real store.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { agentProject, payloads } from "./agent-fixtures.ts";
import { countTokens } from "../src/engine/snapshots/tokens.ts";

const prompt = (cwd: string, text: string, session = "s-1") => ({
  session_id: session,
  transcript_path: join(cwd, "none.jsonl"),
  cwd,
  hook_event_name: "UserPromptSubmit",
  prompt: text,
});

/** The context Claude Code's prompt hook gives the model ("" for none). */
function contextOf(stdout: string): string {
  if (!stdout) return "";
  const out = JSON.parse(stdout);
  expect(out.hookSpecificOutput.hookEventName).toBe("UserPromptSubmit");
  return out.hookSpecificOutput.additionalContext;
}

/** A pointer's shape: at most three lines and 100 tokens, naming where to look. */
function expectPointer(context: string): void {
  expect(context.split("\n").length).toBeLessThanOrEqual(3);
  expect(countTokens(context)).toBeLessThanOrEqual(100);
  expect(context).toContain("MCP `recall` tool");
}

async function ok(t: ReturnType<typeof agentProject>, args: string[]): Promise<void> {
  const r = await t.cli(args);
  if (r.code !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
}

describe("the prompt hook points at what the store knows", () => {
  test("a fact, a standing rule and an archived snapshot's topic, each with where to look; an unrelated prompt gets nothing", async () => {
    const t = agentProject("mindsave-prompt-recall-");
    await ok(t, ["fact", "The staging database listens on port 6543"]);
    await ok(t, ["rules", "add", "Never log customer email addresses"]);
    await ok(t, [
      "save",
      "--goal",
      "Retry failed Stripe webhooks",
      "--topic",
      "stripe-webhook-retries",
      "--state",
      "s",
      "--next",
      "n",
    ]);
    await ok(t, ["save", "--goal", "Dark mode toggle", "--state", "s", "--next", "n"]);
    await ok(t, ["snapshots", "clean", "--keep", "1"]);

    const fact = contextOf(
      (await t.hook(null, "user-prompt-submit", prompt(t.repo, "connect to the staging database"))).stdout,
    );
    expect(fact).toContain('fact "The staging database listens on port 6543"');
    expect(fact).toContain("`mindsave facts`");
    expectPointer(fact);

    const rule = contextOf(
      (await t.hook(null, "user-prompt-submit", prompt(t.repo, "log the customer email on signup"))).stdout,
    );
    expect(rule).toContain('rule "Never log customer email addresses"');
    expect(rule).toContain("`mindsave rules`");
    expectPointer(rule);

    const archived = contextOf(
      (await t.hook(null, "user-prompt-submit", prompt(t.repo, "the stripe webhook retries fail again")))
        .stdout,
    );
    expect(archived).toContain("archived snapshot");
    expect(archived).toContain("stripe_webhook");
    expect(archived).toMatch(/`mindsave recall \S+`/);
    expectPointer(archived);

    const none = await t.hook(null, "user-prompt-submit", prompt(t.repo, "make the header sticky"));
    expect(none.stdout).toBe("");
  }, 60_000);

  test("a failure named again after its repeat warning gets the pointer; Codex's prompt hook too", async () => {
    const t = agentProject("mindsave-prompt-recall-fail-");
    await ok(t, [
      "fail",
      "Redis for session storage",
      "--reason",
      "sessions lost on deploy",
      "--related",
      "redis sessions",
    ]);
    const first = contextOf(
      (await t.hook(null, "user-prompt-submit", prompt(t.repo, "keep sessions in redis"))).stdout,
    );
    expect(first).toContain("MindSave repeat warning");
    expect(first).not.toContain("MindSave has memory");
    const again = contextOf(
      (await t.hook(null, "user-prompt-submit", prompt(t.repo, "so, sessions in redis?"))).stdout,
    );
    expect(again).not.toContain("repeat warning");
    expect(again).toContain('failure "Redis for session storage"');
    expect(again).toContain("`mindsave failures`");
    expectPointer(again);
    const codex = payloads("codex", t.repo).UserPromptSubmit;
    await ok(t, ["fact", "Payments use the Adyen sandbox account"]);
    const c = await t.hook("codex", codex.arg, {
      ...codex.payload,
      prompt: "switch the adyen sandbox account for payments",
    });
    expect(JSON.parse(c.stdout).hookSpecificOutput.additionalContext).toContain(
      'fact "Payments use the Adyen sandbox account"',
    );
  }, 60_000);

  test("mindsave config prompt-recall off: no pointer; on: back; a bad value is refused, the setting unchanged", async () => {
    const t = agentProject("mindsave-prompt-recall-off-");
    await ok(t, ["fact", "The staging database listens on port 6543"]);
    const ask = async () =>
      contextOf(
        (await t.hook(null, "user-prompt-submit", prompt(t.repo, "connect to the staging database"))).stdout,
      );
    expect(await ask()).toContain("staging database");
    expect((await t.cli(["config", "prompt-recall", "off"])).stdout).toContain(
      "prompt-recall is now off: prompts get no pointer to what MindSave knows (repeat warnings stay).",
    );
    expect(await ask()).toBe("");
    const bad = await t.cli(["config", "prompt-recall", "maybe"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect((await t.cli(["config", "prompt-recall"])).stdout).toContain("prompt-recall is off");
    // Alone, config lists every setting with its value.
    const all = (await t.cli(["config"])).stdout.trim().split("\n");
    expect(all.map((l) => l.slice(0, l.indexOf(":")))).toEqual([
      "prompt-recall is off",
      "checkpoints is ask",
    ]);
    await ok(t, ["config", "prompt-recall", "on"]);
    expect(await ask()).toContain("staging database");
  }, 60_000);
});
