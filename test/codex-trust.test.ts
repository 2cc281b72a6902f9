// `hooks install --agent codex --trust` (issue 34): Codex skips new hooks until they are trusted.
// Asked for, MindSave trusts its own hooks through Codex's mechanism (app-server hooks/list →
// `[hooks.state."<key>"] trusted_hash` in config.toml), and `hooks uninstall` takes that out
// again. Run against the real Codex CLI when the agent suite's cache holds it.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Glob } from "bun";
import { homedir } from "node:os";
import { gitRepo, laptop, run } from "./helpers.ts";
import { listHooks } from "../src/engine/agents/codex-trust.ts";

/** The Codex CLI the agent suite installed (test/agents/install.ts), if any. */
const codex = [
  ...new Glob("*/node_modules/.bin/codex").scanSync({
    cwd: join(homedir(), ".cache", "mindsave-agents"),
    onlyFiles: false,
  }),
]
  .map((p) => join(homedir(), ".cache", "mindsave-agents", p))
  .find((p) => existsSync(p));

describe("Codex hook trust", () => {
  test("--trust is refused for another agent, before anything is written", async () => {
    const pc = laptop("trust-laptop");
    const repo = gitRepo(join(pc.home, "shop"));
    const r = await run(["hooks", "install", "--agent", "claude", "--trust", "--command", "/usr/bin/true"], {
      cwd: repo,
      env: pc.env,
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe("mindsave: --trust is for Codex's hooks only: use it with --agent codex.");
    expect(existsSync(join(pc.home, ".claude", "settings.json"))).toBe(false);
  });

  test.skipIf(!codex)(
    "the real Codex lists MindSave's hooks as trusted after --trust; uninstall gives config.toml back (skipped: no Codex CLI in ~/.cache/mindsave-agents)",
    async () => {
      const pc = laptop("trust-laptop");
      const repo = gitRepo(join(pc.home, "shop"));
      mkdirSync(join(pc.home, ".codex"), { recursive: true });
      const env = { ...pc.env, PATH: `${dirname(codex!)}:${process.env.PATH}` };
      const config = join(pc.home, ".codex", "config.toml");
      const before = await listHooks(codex!, repo, { ...process.env, ...env });
      expect(before).toEqual([]);
      const r = await run(
        ["hooks", "install", "--agent", "codex", "--user", "--command", "/usr/bin/true", "--trust"],
        {
          cwd: repo,
          env,
        },
      );
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
      expect(r.stdout).toContain("Trusted 7 MindSave hook(s)");
      const after = await listHooks(codex!, repo, { ...process.env, ...env });
      expect(after.map((h) => [h.command.replace(/^'\/usr\/bin\/true' /, ""), h.trustStatus]).sort()).toEqual(
        [
          "post-tool-use",
          "pre-compact",
          "pre-tool-use",
          "session-end",
          "session-start",
          "stop",
          "user-prompt-submit",
        ].map((e) => [`hook ${e} --agent codex`, "trusted"]),
      );
      expect(readFileSync(config, "utf8")).toContain("trusted_hash = ");
      const un = await run(["hooks", "uninstall", "--agent", "codex", "--user"], { cwd: repo, env });
      expect(un.code).toBe(0);
      expect(existsSync(config)).toBe(false);
    },
    120_000,
  );
});
