// Preloaded by bunfig.toml: hooks here apply across all test files.
import { afterAll } from "bun:test";
import { rmSync } from "node:fs";
import { TEST_ROOT } from "./helpers.ts";

// Sessions a test opens in its own process find projects as the CLI children do (see childEnv):
// never by a marker above the run's temp root.
process.env.MINDSAVE_ROOT_CEILING = TEST_ROOT;

// The TUI's tests render React's production build, the one the binary ships (build.ts defines
// NODE_ENV): the development build checks and traces every render, ~15% of tui.test's CPU. Set
// here, before any test file loads React.
process.env.NODE_ENV = "production";

afterAll(() => {
  if (!process.env.MINDSAVE_KEEP_TEST_DIRS) rmSync(TEST_ROOT, { recursive: true, force: true });
});
