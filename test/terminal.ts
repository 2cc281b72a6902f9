// A real terminal for tests of what the CLI asks a person: the CLI inside tmux (its own server on
// a socket in the test's temp folder), keys sent with send-keys, the screen read back.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, childEnv, gitRepo, laptop, ok, tempDir } from "./helpers.ts";

/** tmux's path, or "" where it is not installed (the tests that need it are skipped with a reason). */
export const TMUX = spawnSync("sh", ["-c", "command -v tmux"]).stdout?.toString().trim() ?? "";

/** What the terminal shows once the command under test has ended and all it printed is on screen. */
const ENDED = "[command ended]";

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** A home, a git project `webapp` and a laptop; `start` runs the CLI on a terminal, `answer` types keys at a prompt. */
export function terminal(prefix = "mindsave-prompt-") {
  const base = tempDir(prefix);
  const home = join(base, "home");
  mkdirSync(home);
  const repo = gitRepo(join(base, "webapp"));
  const pc = laptop("prompt-laptop", base);
  const socket = join(base, "tmux.sock");
  const tmux = (...args: string[]): string => {
    const r = spawnSync(TMUX!, ["-S", socket, ...args], { encoding: "utf8" });
    if (r.status !== 0 && args[0] !== "kill-server") throw new Error(`tmux ${args.join(" ")}: ${r.stderr}`);
    return r.stdout;
  };
  const screen = () => tmux("capture-pane", "-p", "-t", "main");
  /** Polls the pane until `pred` holds (bounded: about 20 s). */
  const waitFor = async (pred: (s: string) => boolean, what: string): Promise<string> => {
    for (let i = 0; i < 400; i++) {
      const s = screen();
      if (pred(s)) return s;
      await Bun.sleep(50);
    }
    throw new Error(`tmux never showed ${what}; the pane was:\n${screen()}`);
  };
  /**
   * Starts `mindsave --home HOME args` on a terminal `columns` wide; its exit code lands in a file.
   * `env`: over the CLI's environment (undefined removes one); `stderr`: a file its stderr goes to.
   */
  const start = (
    args: string[],
    columns = 200,
    o: { env?: Record<string, string | undefined>; stderr?: string } = {},
  ) => {
    const env = Object.entries(childEnv({ ...pc.env, LANG: "C.UTF-8", TERM: "xterm-256color", ...o.env }))
      .map(([k, v]) => `${k}=${quote(v)}`)
      .join(" ");
    const cmd =
      [...CLI, "--home", home, ...args].map(quote).join(" ") + (o.stderr ? ` 2>${quote(o.stderr)}` : "");
    tmux(
      "new-session",
      "-d",
      "-s",
      "main",
      "-x",
      String(columns),
      "-y",
      "30",
      `cd ${quote(repo)} && env -i ${env} ${cmd}; echo "exit=$?" > ${quote(join(base, "rc"))}; echo ${ENDED}; sleep 60`,
    );
  };
  /** Sends `keys` (tmux key names: "y", "Enter", "C-c") once `prompt` shows, and returns the screen and exit code once the command ended. */
  const answer = async (prompt: string, ...keys: string[]): Promise<{ screen: string; code: number }> => {
    await waitFor((s) => s.includes(prompt), `the prompt ${JSON.stringify(prompt)}`);
    tmux("send-keys", "-t", "main", ...keys);
    return ended();
  };
  /** The screen and exit code once the command ended. */
  const ended = async (): Promise<{ screen: string; code: number }> => {
    const rc = join(base, "rc");
    // The marker, not the rc file: the file is written straight to disk, while the command's last
    // lines may still be on their way through the terminal; the marker comes after them.
    const shown = await waitFor(
      (s) => s.includes(ENDED) && existsSync(rc) && readFileSync(rc, "utf8").includes("\n"),
      "the command's end",
    );
    return { screen: shown, code: Number(readFileSync(rc, "utf8").trim().replace("exit=", "")) };
  };
  const cli = (args: string[], env: Record<string, string> = {}) =>
    ok(["--home", home, ...args], { cwd: repo, env: { ...pc.env, ...env } });
  /** The screen with each line the command wrote on one line (tmux joins the rows it wrapped). */
  const lines = () => tmux("capture-pane", "-p", "-J", "-t", "main").split("\n");
  /** Sends `keys` (tmux key names) to the terminal now. */
  const send = (...keys: string[]) => tmux("send-keys", "-t", "main", ...keys);
  return {
    base,
    home,
    repo,
    pc,
    start,
    answer,
    ended,
    lines,
    cli,
    waitFor,
    send,
    stop: () => tmux("kill-server"),
  };
}
