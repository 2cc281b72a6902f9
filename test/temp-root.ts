// Preloaded first (bunfig.toml), before any test module reads the temp directory: on Linux the
// tests' stores live in memory (/dev/shm, tmpfs) when it has room. SQLite syncs every commit to
// disk (synchronous = FULL); on a virtual disk those syncs were a fifth of the suite's time. The
// files are the same real SQLite files; only the medium differs. MINDSAVE_TEST_TMPDIR overrides.
import { accessSync, constants, readFileSync, statfsSync } from "node:fs";
import { freemem, tmpdir } from "node:os";
import { join } from "node:path";

/** Room the suite's temp files take at their peak with several test files running (~1.2 GB measured), with a margin. */
const NEEDED = 2 * 1024 ** 3;

/** A memory limit on this process's control group (a container's), or null. */
function cgroupLimit(): number | null {
  try {
    const raw = readFileSync("/sys/fs/cgroup/memory.max", "utf8").trim();
    return /^\d+$/.test(raw) ? Number(raw) : null;
  } catch {
    return null;
  }
}

function memoryTemp(): string | null {
  if (process.platform !== "linux") return null;
  try {
    accessSync("/dev/shm", constants.W_OK);
    // Not where nothing may run (noexec, as Docker and hardened hosts mount it): the compiled
    // binary, which the CLI children inherit TMPDIR into, unpacks its libSQL addon there.
    const mount = readFileSync("/proc/self/mounts", "utf8")
      .split("\n")
      .map((l) => l.split(" "))
      .findLast((m) => m[1] === "/dev/shm");
    if (!mount || mount[3].split(",").includes("noexec")) return null;
    // tmpfs takes memory: the room it may grow to, and memory actually free (a container's limit too).
    const fs = statfsSync("/dev/shm");
    const limit = cgroupLimit();
    const room =
      fs.bavail * fs.bsize >= NEEDED && freemem() >= 2 * NEEDED && (limit === null || limit >= 4 * NEEDED);
    return room ? "/dev/shm" : null;
  } catch {
    return null;
  }
}

const chosen = process.env.MINDSAVE_TEST_TMPDIR || memoryTemp();
if (chosen) process.env.TMPDIR = chosen;

// One cache folder for every CLI child of this run (the tokenizer's vocabulary copy, ranks-file.ts),
// removed with the run's temp root; never the developer's own.
process.env.XDG_CACHE_HOME = join(tmpdir(), `mindsave-tests-${process.pid}`, "cache");
