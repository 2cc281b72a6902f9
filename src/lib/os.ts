// node:os and node:child_process cost a command CPU to load in a process
// without the JIT (every short command), and most commands need none of them: node:os is loaded
// here on first use only (process.platform and process.arch need no module), and children are
// started with Bun.spawnSync.
import { readFileSync } from "node:fs";

type Os = typeof import("node:os");
let os: Os | undefined;
// getBuiltinModule loads it synchronously, at the first call (an import() would make every caller async).
const lazy = (): Os => (os ??= process.getBuiltinModule("node:os"));

export const homedir = (): string => lazy().homedir();
export const tmpdir = (): string => lazy().tmpdir();

/** This machine's name (uname's nodename, as os.hostname() gives it); on Linux read from /proc. */
export function hostname(): string {
  if (process.platform === "linux") {
    try {
      const name = readFileSync("/proc/sys/kernel/hostname", "utf8").trim();
      if (name) return name;
    } catch {
      // no /proc: ask the runtime
    }
  }
  return lazy().hostname();
}
