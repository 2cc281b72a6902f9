// Preloaded first (bunfig.toml), before any test module reads the temp directory: on Linux the
// tests' stores live in memory (/dev/shm, tmpfs) when it has room. SQLite syncs every commit to
// disk (synchronous = FULL); on a virtual disk those syncs were a fifth of the suite's time. The
// files are the same real SQLite files; only the medium differs. MINDSAVE_TEST_TMPDIR overrides.
import { accessSync, constants, statfsSync } from "node:fs";

/** Room the suite's temp files need with several test files running at once (measured peak: see README). */
const NEEDED = 2 * 1024 ** 3;

function memoryTemp(): string | null {
  if (process.platform !== "linux") return null;
  try {
    accessSync("/dev/shm", constants.W_OK);
    const fs = statfsSync("/dev/shm");
    return fs.bavail * fs.bsize >= NEEDED ? "/dev/shm" : null;
  } catch {
    return null;
  }
}

const chosen = process.env.MINDSAVE_TEST_TMPDIR || memoryTemp();
if (chosen) process.env.TMPDIR = chosen;
