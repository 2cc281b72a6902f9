// Start-up benchmark of the compiled binary: `bun bench/startup.ts [--runs N]`.
// Measures wall time of --version, --help, load and save on a small store, and the runtime's own
// start (a compiled hello world) for reference. Figures go to docs/benchmarks.md; no test is timed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildTarget, hostTarget } from "../build.ts";

const { values } = parseArgs({ args: Bun.argv.slice(2), options: { runs: { type: "string", default: "40" } } });
const runs = Number(values.runs);
const dir = mkdtempSync(join(tmpdir(), "mindsave-bench-"));
try {
  const exe = await buildTarget(hostTarget(), join(dir, "dist"));
  const hello = join(dir, "hello.ts");
  writeFileSync(hello, "console.log('hi');\n");
  const helloExe = join(dir, "hello");
  const b = Bun.spawnSync([process.execPath, "build", "--compile", "--minify", hello, "--outfile", helloExe], { stdout: "ignore", stderr: "inherit" });
  if (b.exitCode !== 0) throw new Error("could not compile the hello world reference");
  const home = join(dir, "home");
  const work = join(dir, "work");
  mkdirSync(home);
  mkdirSync(work);
  const env = { ...process.env, HOME: dir, MINDSAVE_HOME: home, NO_COLOR: "1" };
  const sh = (cmd: string[]) => Bun.spawnSync(cmd, { cwd: work, env, stdout: "ignore", stderr: "ignore" });
  for (let i = 0; i < 20; i++) sh([exe, "save", "--goal", `bench task ${i}`, "--state", "state", "--next", "next", "--constraint", "c", "--decision", "d"]);
  sh([exe, "fail", "Tailwind", "--reason", "conflict"]);

  const transcript = join(dir, "transcript.jsonl");
  const lines: string[] = [JSON.stringify({ type: "user", sessionId: "b", cwd: work, message: { role: "user", content: "bench the hooks" } })];
  for (let i = 0; i < 2000; i++) {
    lines.push(JSON.stringify({ type: "assistant", sessionId: "b", timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), message: { role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "tool_use", id: `t${i}`, name: "Edit", input: { file_path: join(work, `f${i % 20}.ts`), old_string: "a", new_string: "b" } }], usage: { input_tokens: 10, cache_read_input_tokens: 90_000, cache_creation_input_tokens: 100, output_tokens: 5 } } }));
  }
  writeFileSync(transcript, lines.join("\n") + "\n");
  const hook = (event: string) => ["sh", "-c", `echo '{"session_id":"b","cwd":"${work}","transcript_path":"${transcript}","tool_name":"Edit","tool_input":{}}' | '${exe}' hook ${event}`];

  const cases: [string, string[]][] = [
    ["runtime start (compiled hello world)", [helloExe]],
    ["mindsave --version", [exe, "--version"]],
    ["mindsave --help", [exe, "--help"]],
    ["mindsave snapshots list", [exe, "snapshots", "list"]],
    ["mindsave load --latest (20 snapshots)", [exe, "load", "--latest"]],
    ["mindsave save (flags)", [exe, "save", "--goal", "bench save", "--state", "s"]],
    ["hook session-start (restore block)", hook("session-start")],
    ["hook post-tool-use (2,000-call transcript)", hook("post-tool-use")],
    ["hook pre-compact (reads the whole transcript)", hook("pre-compact")],
  ];
  const rows: string[] = ["| command | median | p90 |", "|---|---:|---:|"];
  for (const [name, cmd] of cases) {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const r = sh(cmd);
      times.push(performance.now() - t0);
      if (r.exitCode !== 0) throw new Error(`${name} exited ${r.exitCode}`);
    }
    times.sort((a, b) => a - b);
    const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1);
    rows.push(`| ${name} | ${q(0.5)} ms | ${q(0.9)} ms |`);
  }
  console.log(`${runs} runs each, ${hostTarget().name}, bun ${Bun.version}\n`);
  console.log(rows.join("\n"));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
