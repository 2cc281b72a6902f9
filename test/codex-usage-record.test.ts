// Codex 0.169's rollout at the moment its PostToolUse hook runs (as copied from a real run against
// the fake model, test/agents/checkpoint.agent.ts): the turn's token_count event is not written
// yet, only the token_usage_record line of the response that made the call, and task_started's
// window. The fill is read from them, so pressure (YELLOW) is seen during the turn.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { lastRolloutUsage } from "../src/engine/agents/kinds/codex.ts";
import { tempDir } from "./helpers.ts";

const line = (timestamp: string, type: string, payload: object) =>
  JSON.stringify({ timestamp, type, payload }) + "\n";

const usage = (input: number) => ({
  input_tokens: input,
  cached_input_tokens: 60_000,
  cache_write_input_tokens: 0,
  output_tokens: 5,
  reasoning_output_tokens: 0,
  total_tokens: input + 5,
});

/** A first turn up to its first tool call: task_started (window), turn_context (model), the call's usage record. */
function rolloutAtPostToolUse(): string {
  const path = join(tempDir(), "rollout-2026-11-28T12-16-23-0001.jsonl");
  writeFileSync(
    path,
    line("2026-11-28T12:16:24.280Z", "event_msg", {
      type: "task_started",
      turn_id: "t1",
      model_context_window: 258_400,
    }) +
      line("2026-11-28T12:16:25.153Z", "turn_context", {
        turn_id: "t1",
        cwd: "/home/dev/shop",
        model: "gpt-5.5",
      }) +
      line("2026-11-28T12:16:26.176Z", "response_item", {
        type: "function_call",
        name: "exec_command",
        arguments: '{"cmd":"echo hi"}',
        call_id: "call_1",
      }) +
      line("2026-11-28T12:16:26.212Z", "token_usage_record", {
        thread_id: "s1",
        turn_id: "t1",
        response_id: "resp_1",
        usage: usage(190_000),
        turn_token_usage: usage(190_000),
        thread_token_usage: usage(190_000),
      }),
  );
  return path;
}

test("before the turn's token_count is written, the fill is the newest token_usage_record's over task_started's window", () => {
  expect(lastRolloutUsage(rolloutAtPostToolUse())).toEqual({
    input_tokens: 130_000,
    cache_read_input_tokens: 60_000,
    cache_creation_input_tokens: 0,
    model: "gpt-5.5",
    context: 190_005,
    window: 258_400,
  });
});
