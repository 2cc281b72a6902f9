// Ctrl-C or Ctrl-D at any prompt a person answers (load's "Load which?", a passphrase) cancels:
// "Cancelled; nothing was changed.", exit 1, the store as it was — never an internal error.
// Run on a real terminal: the CLI inside tmux, keys sent with send-keys, the screen read back.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, childEnv, dumpStore, gitRepo, laptop, ok, tempDir } from "./helpers.ts";

const TMUX = spawnSync("sh", ["-c", "command -v tmux"]).stdout?.toString().trim();
if (!TMUX) console.log("skipped prompt cancellation tests: tmux is not installed (apt-get install tmux)");

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

function setup() {
  const base = tempDir("mindsave-prompt-");
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
  /** Starts `mindsave --home HOME args` on a 200-column terminal; its exit code lands in a file. */
  const start = (args: string[]) => {
    const env = Object.entries(childEnv({ ...pc.env, LANG: "C.UTF-8", TERM: "xterm-256color" })).map(([k, v]) => `${k}=${quote(v)}`).join(" ");
    const cmd = [...CLI, "--home", home, ...args].map(quote).join(" ");
    tmux("new-session", "-d", "-s", "main", "-x", "200", "-y", "30", `cd ${quote(repo)} && env -i ${env} ${cmd}; echo "exit=$?" > ${quote(join(base, "rc"))}; sleep 60`);
  };
  /** Sends `key` once `prompt` shows, and returns the screen and exit code once the command ended. */
  const answer = async (prompt: string, key: string): Promise<{ screen: string; code: number }> => {
    await waitFor((s) => s.includes(prompt), `the prompt ${JSON.stringify(prompt)}`);
    tmux("send-keys", "-t", "main", key);
    const rc = join(base, "rc");
    const shown = await waitFor(() => existsSync(rc) && readFileSync(rc, "utf8").includes("\n"), "the command's end");
    return { screen: shown, code: Number(readFileSync(rc, "utf8").trim().replace("exit=", "")) };
  };
  const cli = (args: string[], env: Record<string, string> = {}) => ok(["--home", home, ...args], { cwd: repo, env: { ...pc.env, ...env } });
  return { base, home, start, answer, cli, stop: () => tmux("kill-server") };
}

const expectCancelled = (r: { screen: string; code: number }) => {
  expect(r.screen).toContain("mindsave: Cancelled; nothing was changed.");
  expect(r.screen).not.toContain("internal error");
  expect(r.code).toBe(1);
};

describe.skipIf(!TMUX)("a prompt on a terminal cancelled with Ctrl-C or Ctrl-D", () => {
  for (const [name, key] of [["Ctrl-C", "C-c"], ["Ctrl-D", "C-d"]]) {
    test(`load's "Load which?" and ${name}: cancelled, exit 1, no restore block`, async () => {
      const s = setup();
      for (const goal of ["alpha refactor", "beta migration"]) await s.cli(["save", "--goal", goal, "--next", `continue ${goal}`]);
      try {
        s.start(["load"]);
        const r = await s.answer("Load which?", key);
        expectCancelled(r);
        expect(r.screen).not.toContain("next_action:");
      } finally {
        s.stop();
      }
    }, 30_000);

    test(`encrypt's new passphrase and ${name}: cancelled, exit 1, the store exactly as before`, async () => {
      const s = setup();
      await s.cli(["save", "--goal", "stays plain", "--next", "n"]);
      const before = await dumpStore(join(s.home, "mindsave.db"));
      const files = readdirSync(s.home).sort();
      try {
        s.start(["encrypt"]);
        expectCancelled(await s.answer("New passphrase for", key));
      } finally {
        s.stop();
      }
      expect(readdirSync(s.home).sort()).toEqual(files);
      expect(await dumpStore(join(s.home, "mindsave.db"))).toBe(before);
    }, 30_000);
  }

  test("snapshots prune's y/N and Ctrl-C: cancelled, exit 1, nothing deleted", async () => {
    const s = setup();
    // Two snapshots past --keep 1 are archived: what a prune would delete.
    for (const goal of ["one", "two", "three"]) await s.cli(["save", "--goal", goal, "--next", "n", "--keep", "1"]);
    const before = await dumpStore(join(s.home, "mindsave.db"));
    try {
      s.start(["snapshots", "prune"]);
      expectCancelled(await s.answer("Delete these 2 snapshot(s)? [y/N]", "C-c"));
    } finally {
      s.stop();
    }
    expect(await dumpStore(join(s.home, "mindsave.db"))).toBe(before);
  }, 30_000);

  test("an encrypted store's passphrase and Ctrl-C: cancelled, exit 1", async () => {
    const s = setup();
    await s.cli(["save", "--goal", "secret plan", "--next", "n"]);
    await s.cli(["encrypt"], { MINDSAVE_PASSPHRASE: "correct horse battery" });
    try {
      s.start(["load", "--latest"]);
      expectCancelled(await s.answer("Passphrase for", "C-c"));
    } finally {
      s.stop();
    }
  }, 30_000);
});
