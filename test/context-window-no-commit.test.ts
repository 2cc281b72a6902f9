// Claude Code's 1M-token context window in a repository with no commit yet (issue 34): such a
// folder is no project at SessionStart (no identity), so the model SessionStart names waits in the
// store until the first tool call makes the project; the fill is then measured against 1M, not 200k.
import { beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hostBinary, run } from "./helpers.ts";
import { claudeLaptop, events, payload, Transcript } from "./claude-fixtures.ts";

let exe = "";
beforeAll(async () => {
  exe = await hostBinary();
}, 120_000);

test("a 1M session in a folder without a commit is measured against 1M from its first tool call", async () => {
  const t = claudeLaptop(exe);
  const fresh = join(t.base, "fresh");
  mkdirSync(join(fresh, "src"), { recursive: true });
  expect(spawnSync("git", ["init", "-q", "--template=", fresh]).status).toBe(0);
  writeFileSync(join(fresh, "src", "auth.ts"), "export const auth = 1;\n");
  const cli = (args: string[], stdin?: string) => run(args, { cwd: fresh, env: t.pc.env, bin: [exe], stdin });
  const tr = new Transcript(t.base, fresh, "big");
  const at = { sessionId: "big", path: tr.path, cwd: fresh };

  const start = await cli(
    ["hook", "session-start"],
    JSON.stringify(payload("SessionStart", at, events.sessionStart("startup", "claude-opus-4-6[1m]"))),
  );
  expect({ code: start.code, stderr: start.stderr }).toEqual({ code: 0, stderr: "" });
  tr.prompt("Refactor the whole auth layer");
  const input = { file_path: join(fresh, "src", "auth.ts") };
  const id = tr.tool("Read", input, 180_000);
  const post = await cli(
    ["hook", "post-tool-use"],
    JSON.stringify(payload("PostToolUse", at, events.postToolUse("Read", input, id))),
  );
  expect({ code: post.code, stdout: post.stdout, stderr: post.stderr }).toEqual({
    code: 0,
    stdout: "",
    stderr: "",
  });
  const signal = JSON.parse((await cli(["--json", "signal"])).stdout);
  // 180k of 1M; against 200k it would be 0.9 (RED).
  expect(signal).toMatchObject({ estimated_tokens_ratio: 0.18, pressure_state: "GREEN" });
});
