// Measuring whole processes: wall time, CPU (user + sys) and peak memory (max RSS) of the child
// and everything it waited for. Each command runs under bench/ru.c (compiled at start), which
// forks it from a 1 MB process and reads its rusage with wait4(): exact CPU, and a max RSS that is
// the command's own. Bun.spawn's resourceUsage() has the same exact CPU but not a usable RSS:
// Linux starts an exec'd child's max RSS at the RSS of the address space it replaced, which for a
// child spawned by Bun is the benchmark's own (~85 MB for a hello world); it is the fallback when
// no C compiler is there, with a note. stdout is read to the end through a pipe, never sent to
// /dev/null: GNU grep stops at its first match when its output is /dev/null, which would flatter
// the grep baseline.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";

let helper: string | null = null;
let helperDir = "/tmp";
let seq = 0;

/** Measure through the rusage helper `path` (null: Bun's resourceUsage), writing its reports in `dir`. */
export function useRusageHelper(path: string | null, dir: string): void {
  helper = path;
  helperDir = dir;
}

export function rusageHelper(): string | null {
  return helper;
}

/** The helper's report: "wall_ms user_ms sys_ms maxrss_kb". */
export function readReport(path: string): Sample | null {
  if (!existsSync(path)) return null;
  const f = readFileSync(path, "utf8").trim().split(/\s+/).map(Number);
  rmSync(path, { force: true });
  if (f.length !== 4 || f.some((v) => !Number.isFinite(v))) return null;
  return { wall: f[0], user: f[1], sys: f[2], cpu: f[1] + f[2], rss: f[3] / 1024 };
}

/** `cmd` wrapped in the helper, and where its report will be. */
function wrapped(cmd: string[]): { cmd: string[]; report: string | null } {
  if (!helper) return { cmd, report: null };
  const report = join(helperDir, `ru-${process.pid}-${++seq}.txt`);
  return { cmd: [helper, report, ...cmd], report };
}

export interface Sample {
  wall: number;
  cpu: number;
  user: number;
  sys: number;
  /** MB */
  rss: number;
}

export interface Stats {
  n: number;
  median: number;
  p10: number;
  p90: number;
  min: number;
  max: number;
}

export interface ProcSpec {
  cmd: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  /** A file whose content is the child's stdin. */
  stdinFile?: string;
  /** Exit codes taken as success (default [0]). */
  ok?: number[];
}

export interface ProcResult extends Sample {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runProc(spec: ProcSpec): Promise<ProcResult> {
  const w = wrapped(spec.cmd);
  const t0 = performance.now();
  const p = Bun.spawn(w.cmd, {
    cwd: spec.cwd,
    env: spec.env,
    stdin: spec.stdinFile ? Bun.file(spec.stdinFile) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
  const code = await p.exited;
  const wall = performance.now() - t0;
  if (!(spec.ok ?? [0]).includes(code)) {
    throw new Error(`${spec.cmd.join(" ")} exited ${code}\n${err.slice(0, 2000)}${out.slice(0, 500)}`);
  }
  const sample = (w.report && readReport(w.report)) || bunSample(p, wall);
  return { ...sample, code, stdout: out, stderr: err };
}

/** The fallback: Bun's own figures (exact CPU; RSS at least the benchmark's, see above). */
function bunSample(
  p: { resourceUsage(): ReturnType<Bun.Subprocess["resourceUsage"]> },
  wall: number,
): Sample {
  const ru = p.resourceUsage();
  const user = ru ? Number(ru.cpuTime.user) / 1000 : NaN;
  const sys = ru ? Number(ru.cpuTime.system) / 1000 : NaN;
  return { wall, user, sys, cpu: user + sys, rss: ru ? ru.maxRSS / 1024 / 1024 : NaN };
}

/** Linear-interpolated percentile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = (sorted.length - 1) * p;
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (i - lo);
}

export function stats(xs: number[]): Stats {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return {
    n: s.length,
    median: percentile(s, 0.5),
    p10: percentile(s, 0.1),
    p90: percentile(s, 0.9),
    min: s[0] ?? NaN,
    max: s[s.length - 1] ?? NaN,
  };
}

/** A tmux server of our own (its own socket file, removed by kill), so nothing touches a person's tmux. */
export class Tmux {
  private readonly path: string;

  constructor(
    readonly socket: string,
    readonly bin = "tmux",
  ) {
    this.path = join(tmpdir(), `${socket}.sock`);
  }

  static available(): boolean {
    return spawnSync("sh", ["-c", "command -v tmux"]).status === 0;
  }

  cmd(...args: string[]): string {
    const r = spawnSync(this.bin, ["-S", this.path, ...args], { encoding: "utf8" });
    if (r.status !== 0 && args[0] !== "kill-server") throw new Error(`tmux ${args.join(" ")}: ${r.stderr}`);
    return r.stdout;
  }

  capture(): string {
    return this.cmd("capture-pane", "-p", "-t", "main");
  }

  kill(): void {
    this.cmd("kill-server");
    rmSync(this.path, { force: true });
  }
}

export interface TuiTiming {
  /** ms from starting the TUI to the home screen's first project row (NaN when it opens on the picker). */
  home: number;
  /** ms from starting the TUI to the picker's first snapshot row (Enter sent as soon as home shows). */
  picker: number;
  sample: Sample;
}

interface TmuxRun {
  exe: string;
  args?: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  socket: string;
  /** Where /usr/bin/time writes the process's wall, user, sys and max RSS when it exits. */
  timeFile: string;
}

/** Starts `exe` in a new 80×24 tmux session, wrapped in /usr/bin/time; `poll` waits for a screen. */
function startInTmux(o: TmuxRun) {
  const t = new Tmux(o.socket);
  const envs = Object.entries({ ...o.env, NO_COLOR: undefined, LANG: "C.UTF-8", TERM: "xterm-256color" })
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}='${String(v).replace(/'/g, "'\\''")}'`)
    .join(" ");
  const done = `${o.timeFile}.done`;
  const args = (o.args ?? []).map((a) => `'${a}'`).join(" ");
  const measure = helper
    ? `'${helper}' '${o.timeFile}'`
    : `/usr/bin/time -f '%e %U %S %M' -o '${o.timeFile}'`;
  const shell = `cd '${o.cwd}' && env ${envs} ${measure} '${o.exe}' ${args}; touch '${done}'; sleep 30`;
  const started = performance.now();
  t.cmd("new-session", "-d", "-s", "main", "-x", "80", "-y", "24", shell);
  const poll = async (pred: (s: string) => boolean, what: string): Promise<number> => {
    const deadline = performance.now() + 30_000;
    while (performance.now() < deadline) {
      if (pred(t.capture())) return performance.now() - started;
      await Bun.sleep(2);
    }
    throw new Error(`${o.exe} never showed ${what} in tmux; the pane was:\n${t.capture()}`);
  };
  /** The process's own figures, once it has exited (bounded wait). */
  const finish = async (): Promise<Sample> => {
    const deadline = performance.now() + 10_000;
    while (!existsSync(done) && performance.now() < deadline) await Bun.sleep(5);
    if (helper) return readReport(o.timeFile) ?? { wall: NaN, user: NaN, sys: NaN, cpu: NaN, rss: NaN };
    const line = existsSync(o.timeFile) ? readFileSync(o.timeFile, "utf8").trim().split("\n").pop()! : "";
    const [e, u, s, m] = /^[\d.]+ [\d.]+ [\d.]+ \d+$/.test(line)
      ? line.split(" ").map(Number)
      : [NaN, NaN, NaN, NaN];
    return { wall: e * 1000, user: u * 1000, sys: s * 1000, cpu: (u + s) * 1000, rss: m / 1024 };
  };
  return { t, poll, finish };
}

/** The runtime floor through the same path: a program's first output on a tmux screen. */
export async function tmuxFirstPaint(o: TmuxRun & { expect: string }): Promise<Sample> {
  const { t, poll, finish } = startInTmux(o);
  try {
    const wall = await poll((s) => s.includes(o.expect), JSON.stringify(o.expect));
    return { ...(await finish()), wall };
  } finally {
    t.kill();
  }
}

/**
 * The TUI's first paint through tmux at 80×24: poll capture-pane until the home screen's first
 * row, press Enter (the current directory's project is preselected), poll until the picker's
 * first row, then quit with q q. CPU and max RSS are the TUI process's, from /usr/bin/time.
 */
export async function tuiFirstPaint(
  o: Omit<TmuxRun, "args"> & { home: string; project: string },
): Promise<TuiTiming> {
  const { t, poll, finish } = startInTmux({ ...o, args: ["--home", o.home, "ui"] });
  // A picker row: the pointer, the mark's column, then a snapshot name ({topic}_{date}, or cut in
  // its middle to make room for the goal: "{start}…{date}").
  const pickerRow = (s: string) => !s.includes("Projects (") && /[›>][ \d] \S+[_…]\d{4}-\d{2}-\d{2}/.test(s);
  const homeRow = (s: string) =>
    s.includes("Projects (") && s.split("\n").some((l) => /[›>]/.test(l) && l.includes(o.project));
  try {
    // The TUI opens on the home screen, or (from inside a project) straight on its picker.
    let home = await poll((s) => homeRow(s) || pickerRow(s), "the home screen's or the picker's first row");
    let picker = home;
    if (homeRow(t.capture())) {
      t.cmd("send-keys", "-t", "main", "Enter");
      picker = await poll(pickerRow, "the picker's first row");
    } else {
      home = NaN;
    }
    for (let i = 0; i < 3; i++) {
      t.cmd("send-keys", "-t", "main", "q");
      await Bun.sleep(100);
    }
    return { home, picker, sample: await finish() };
  } finally {
    t.kill();
  }
}

/**
 * The MCP server's `load` round trip: spawn `mindsave mcp`, send initialize, initialized and a
 * tools/call of load over stdio, and time until the call's answer arrives. CPU and RSS are the
 * whole server process's (its stdin is closed after the answer, so it exits).
 */
export async function mcpLoad(opts: {
  exe: string;
  home: string;
  cwd: string;
  env: Record<string, string | undefined>;
}): Promise<Sample & { answer: number }> {
  const w = wrapped([opts.exe, "mcp", "--home", opts.home, "--workspace", opts.cwd]);
  const t0 = performance.now();
  const p = Bun.spawn(w.cmd, { cwd: opts.cwd, env: opts.env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const send = (o: unknown) => {
    p.stdin.write(JSON.stringify(o) + "\n");
    p.stdin.flush();
  };
  send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "mindsave-bench", version: "1" },
    },
  });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "load", arguments: { workspace: opts.cwd } },
  });
  const reader = p.stdout.getReader();
  const dec = new TextDecoder();
  let buf = "";
  let answer = NaN;
  const deadline = setTimeout(() => p.kill(), 30_000);
  try {
    while (!Number.isFinite(answer)) {
      const r = await reader.read();
      if (r.done) break;
      buf += dec.decode(r.value, { stream: true });
      const lines = buf.split("\n");
      buf = lines.pop()!;
      for (const line of lines) {
        if (!line.trim()) continue;
        const msg = JSON.parse(line) as { id?: number; error?: unknown; result?: { isError?: boolean } };
        if (msg.id !== 2) continue;
        answer = performance.now() - t0;
        if (msg.error || msg.result?.isError) throw new Error(`MCP load failed: ${line.slice(0, 500)}`);
      }
    }
  } finally {
    clearTimeout(deadline);
    p.stdin.end();
  }
  void reader.cancel().catch(() => {});
  await p.exited;
  const wall = performance.now() - t0;
  if (!Number.isFinite(answer))
    throw new Error(`the MCP server gave no answer to load: ${await new Response(p.stderr).text()}`);
  const sample = (w.report && readReport(w.report)) || bunSample(p, wall);
  return { ...sample, answer };
}
