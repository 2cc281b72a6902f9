// The mechanical snapshot's next action by its order of evidence (next-step.ts), in-process: the
// plan's step, the agent's own next step (a list, an offer, a suggestion, a hand-over, what is
// left), the user's request put off for later, the request left unfinished mid-turn, the command
// that failed last, the task carried on; none rather than a guess.
import { expect, test } from "bun:test";
import {
  agentsNextStep,
  deferredRequest,
  nextStepOf,
  unfinishedRequest,
  type NextEvidence,
} from "../src/engine/agents/next-step.ts";

const NONE: NextEvidence = {
  planStep: null,
  lastReply: "",
  laterPrompt: null,
  failed: null,
  carried: null,
  changedFiles: false,
};

test("the agent's last message: a list under a forward heading gives its first item; a list of what was done gives none", () => {
  expect(
    agentsNextStep("Thumbnails work.\n\nNext steps:\n1. Backfill the old photos\n2. Drop the resize route"),
  ).toBe("Backfill the old photos");
  expect(agentsNextStep("Audit is in.\n\n**Left to do:**\n- a retention job\n- an admin page")).toBe(
    "A retention job",
  );
  expect(agentsNextStep("改好了。\n后续：\n1、把旧的 cron 删掉\n2、更新文档")).toBe("把旧的 cron 删掉");
  expect(agentsNextStep("Changes:\n- added the route\n- fixed the test")).toBeNull();
});

test("the agent offering, suggesting or handing over its next step, in English and Chinese", () => {
  const said: [string, string][] = [
    ["Cursor pagination is in. I'd suggest updating the OpenAPI spec next.", "Updating the OpenAPI spec"],
    [
      "The check passes. Want me to add the same check to the staging workflow?",
      "Add the same check to the staging workflow",
    ],
    ["Done. Should I also bump the version in package.json?", "Bump the version in package.json"],
    ["The plan is clean. It's ready for you to run terraform apply.", "Run terraform apply"],
    ["The flag is gone. The last thing is deleting it in LaunchDarkly.", "Deleting it in LaunchDarkly"],
    ["Groups map to roles now. Moving on to the SSO button.", "The SSO button"],
    ["Tests pass. I'll wire the webhook next.", "Wire the webhook"],
    ["要不要我顺便把 README 里的配置说明也更新一下？", "把 README 里的配置说明也更新一下"],
    ["money.ts 里还有一个分支没覆盖到，要不要一起补上？", "money.ts 里还有一个分支没覆盖到，补上"],
    ["scripts 里还有两个脚本没动，需要你确认要不要一起改。", "scripts 里还有两个脚本没动，确认要不要一起改"],
    ["查重加好了。剩一个并发回调的测试还没写。", "并发回调的测试"],
  ];
  for (const [reply, step] of said) expect([reply, agentsNextStep(reply)]).toEqual([reply, step]);
  // Reports of what was done, or what is wrong, offer no step.
  for (const reply of [
    "I moved the handler into its own file.",
    "You can see the diff above.",
    "The test still fails: the total is NaN.",
    "还剩两个测试没过。",
    "你觉得这样可以吗？",
  ])
    expect([reply, agentsNextStep(reply)]).toEqual([reply, null]);
});

test("a request the user puts off for later is the next step; a rule or a request for now is not", () => {
  expect(deferredRequest("好，这个先这样。下次把导出 Excel 也按当前筛选的状态来导。")).toBe(
    "把导出 Excel 也按当前筛选的状态来导",
  );
  expect(deferredRequest("Looks good. Tomorrow let's add the same filter to the export.")).toBe(
    "Add the same filter to the export",
  );
  expect(deferredRequest("We'll do the docs later.")).toBe("Do the docs");
  expect(deferredRequest("Next time, never use the staging key.")).toBeNull();
  expect(deferredRequest("Also add the same filter to the export.")).toBeNull();
});

test("the user's request left unfinished: its asking sentences without the rules; a prompt of rules asks for nothing", () => {
  expect(unfinishedRequest("Also rename it in the Dockerfile. Don't touch the CI secrets.")).toBe(
    "Rename it in the Dockerfile",
  );
  expect(unfinishedRequest("keep the old names as a fallback for one release")).toBeNull();
});

test("the order of evidence: plan, the agent's words, the user's later words, a failed last command, the task carried on; else none", () => {
  const reply = "Tests pass. I'd suggest updating the spec next.";
  const later = "Tomorrow let's add the export filter.";
  const failed = { command: "npm test", error: "FAIL test/report.test.ts\nExpected 0" };
  const all: NextEvidence = {
    planStep: "Show an import preview",
    lastReply: reply,
    laterPrompt: later,
    failed,
    carried: "Old step",
    changedFiles: false,
  };
  expect(nextStepOf(all)).toBe("Show an import preview");
  expect(nextStepOf({ ...all, planStep: null })).toBe("Updating the spec");
  expect(nextStepOf({ ...all, planStep: null, lastReply: "Filter added." })).toBe("Add the export filter");
  // Mid-turn (no reply closed it): the request the agent was at, then the failed command.
  const midTurn = { ...NONE, failed, carried: "Old step" };
  expect(nextStepOf({ ...midTurn, laterPrompt: "Now rename it in the Dockerfile too." })).toBe(
    "Rename it in the Dockerfile too",
  );
  expect(nextStepOf(midTurn)).toBe("Make `npm test` pass (it failed: FAIL test/report.test.ts)");
  // A failed command the agent spoke about after is its words' to judge, not a guess of ours.
  expect(nextStepOf({ ...midTurn, lastReply: "The test fails on NaN." })).toBe("Old step");
  expect(nextStepOf({ ...NONE, lastReply: "Added the index migration." })).toBe("");
});

test("the carried task's next action holds until the session changes files and closes its turn saying nothing of what comes next", () => {
  const carried = { ...NONE, carried: "Write the endpoint that verifies the code" };
  const closed = "Verification is done: codes expire after 5 minutes.";
  // Only looked around: the step still stands.
  expect(nextStepOf({ ...carried, lastReply: closed })).toBe("Write the endpoint that verifies the code");
  // Changed files, the turn still open: the agent was at it.
  expect(nextStepOf({ ...carried, changedFiles: true })).toBe("Write the endpoint that verifies the code");
  // Changed files and reported: likely done, so none rather than a step to redo.
  expect(nextStepOf({ ...carried, changedFiles: true, lastReply: closed })).toBe("");
  // What the agent says comes next still wins.
  expect(
    nextStepOf({ ...carried, changedFiles: true, lastReply: `${closed} Next, I'll add the resend button.` }),
  ).toBe("Add the resend button");
});
