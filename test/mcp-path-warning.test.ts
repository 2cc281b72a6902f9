// An agent starts MindSave's MCP server as `mindsave` (issue 34): when that is not on the PATH
// `mcp install` runs with, the agent cannot start it, and install says so (exit 0: the entry is
// written all the same, for when it is on the PATH).
import { expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { laptop, run, tempDir } from "./helpers.ts";

test("mcp install warns, on stderr, when `mindsave` is not on the PATH; not when it is", async () => {
  const pc = laptop("mcp-laptop");
  const bin = join(tempDir("mindsave-path-"), "bin");
  mkdirSync(bin, { recursive: true });
  const install = (PATH: string) =>
    run(["mcp", "install", "--agent", "claude", "--user"], { cwd: pc.home, env: { ...pc.env, PATH } });

  const without = await install("/usr/bin:/bin");
  expect(without.code).toBe(0);
  expect(without.stderr).toContain("`mindsave` is not on the PATH, so the agent cannot start this server");
  expect(JSON.parse(readFileSync(join(pc.home, ".claude.json"), "utf8")).mcpServers.mindsave.command).toBe(
    "mindsave",
  );

  writeFileSync(join(bin, "mindsave"), "#!/bin/sh\n");
  chmodSync(join(bin, "mindsave"), 0o755);
  const withIt = await install(`${bin}:/usr/bin:/bin`);
  expect({ code: withIt.code, stderr: withIt.stderr }).toEqual({ code: 0, stderr: "" });
});
