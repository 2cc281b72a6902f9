// Preloaded by bunfig.toml: hooks here apply across all test files.
import { afterAll } from "bun:test";
import { rmSync } from "node:fs";
import { TEST_ROOT } from "./helpers.ts";

afterAll(() => {
  if (!process.env.MINDSAVE_KEEP_TEST_DIRS) rmSync(TEST_ROOT, { recursive: true, force: true });
});
