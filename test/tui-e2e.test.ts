// End to end: the compiled binary's TUI inside a real tmux, driven by send-keys and read with
// capture-pane. Skipped with a printed reason where tmux is not installed (.ci/run installs it).
import { beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gitRepo, hostBinary, laptop, run, tempDir, type Laptop } from "./helpers.ts";

const TMUX = spawnSync("sh", ["-c", "command -v tmux"]).stdout?.toString().trim();
if (!TMUX) console.log("skipped TUI end-to-end tests: tmux is not installed (apt-get install tmux)");

let exe = "";
beforeAll(async () => {
  if (TMUX) exe = await hostBinary();
}, 120_000);

/** One tmux server per test (its own socket, in the test's temp folder: nothing is left in tmux's), so nothing touches a person's tmux. */
function tmux(socket: string, ...args: string[]): string {
  const r = spawnSync(TMUX!, ["-S", socket, ...args], { encoding: "utf8" });
  if (r.status !== 0 && args[0] !== "kill-server") throw new Error(`tmux ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** Polls the pane until it shows what is expected (bounded: about 20 s). */
async function waitFor(socket: string, pred: (screen: string) => boolean, what: string): Promise<string> {
  let screen = "";
  for (let i = 0; i < 400; i++) {
    screen = tmux(socket, "capture-pane", "-p", "-t", "main");
    if (pred(screen)) return screen;
    await Bun.sleep(50);
  }
  throw new Error(`tmux never showed ${what}; the pane was:\n${screen}`);
}

async function waitForFile(path: string, what: string): Promise<void> {
  for (let i = 0; i < 400 && !existsSync(path); i++) await Bun.sleep(50);
  if (!existsSync(path)) throw new Error(`never got ${what}`);
}

/**
 * The project every scene opens: a laptop, its repository and a home where the binary saved three
 * snapshots. Made once; each scene gets a copy of its store in a home of its own (the same laptop,
 * so the same host; the same repository, which no test changes).
 */
let saved: Promise<{ pc: Laptop; repo: string; db: string }> | null = null;
async function threeSnapshots() {
  const base = tempDir("mindsave-tmux-saved-");
  const home = join(base, "home");
  mkdirSync(home);
  const repo = gitRepo(join(base, "webapp"));
  const pc = laptop("tmux-laptop", base);
  for (const goal of ["alpha refactor", "beta migration", "gamma refactor"]) {
    expect(
      (
        await run(["save", "--goal", goal, "--next", `continue ${goal}`, "--home", home], {
          cwd: repo,
          env: pc.env,
          bin: [exe],
        })
      ).code,
    ).toBe(0);
  }
  // The binary closes its store with the WAL folded in: the file alone is the whole store.
  const db = join(home, "mindsave.db");
  expect(existsSync(`${db}-wal`) && statSync(`${db}-wal`).size > 0).toBe(false);
  return { pc, repo, db };
}

async function scene() {
  const { pc, repo, db } = await (saved ??= threeSnapshots());
  const base = tempDir("mindsave-tmux-");
  const home = join(base, "home");
  mkdirSync(home);
  copyFileSync(db, join(home, "mindsave.db"));
  const socket = join(base, "tmux.sock");
  const env = Object.entries({ ...pc.env, LANG: "C.UTF-8", TERM: "xterm-256color", CI: "true" })
    .map(([k, v]) => `${k}='${v}'`)
    .join(" ");
  // 80×24: the smallest terminal the TUI promises to work in.
  const start = (args: string, cwd = repo) =>
    tmux(
      socket,
      "new-session",
      "-d",
      "-s",
      "main",
      "-x",
      "80",
      "-y",
      "24",
      `cd '${cwd}' && env ${env} '${exe}' --home '${home}' ${args} > '${base}/out.txt'; stty -a > '${base}/stty.txt'; touch '${base}/done'; sleep 60`,
    );
  const keys = (...k: string[]) => tmux(socket, "send-keys", "-t", "main", ...k);
  return { base, home, repo, socket, start, keys, env: pc.env, done: join(base, "done") };
}

describe.skipIf(!TMUX)("TUI in tmux (compiled binary)", () => {
  test("inside a project it opens on the picker; filter, open the second match, load: stdout holds that snapshot's restore block", async () => {
    const s = await scene();
    try {
      s.start("ui");
      await waitFor(
        s.socket,
        (x) => x.includes("webapp · 3 snapshots") && x.includes("q projects"),
        "the project's picker, no Enter needed",
      );
      tmux(s.socket, "send-keys", "-t", "main", "/");
      await waitFor(s.socket, (x) => x.includes("Enter keep"), "the filter prompt");
      tmux(s.socket, "send-keys", "-t", "main", "-l", "refactor");
      await waitFor(s.socket, (x) => x.includes("2 of 3 match"), "two matches");
      tmux(s.socket, "send-keys", "-t", "main", "Enter", "j", "Enter");
      const view = await waitFor(
        s.socket,
        (x) => x.includes("Layer 1") && x.includes("goal"),
        "the snapshot view",
      );
      expect(view).toContain("alpha refactor");
      tmux(s.socket, "send-keys", "-t", "main", "l");
      await waitForFile(s.done, "the TUI's exit");
      const out = readFileSync(join(s.base, "out.txt"), "utf8");
      expect(out).toContain("goal: alpha refactor");
      expect(out).toContain("next_action: continue alpha refactor");
      expect(out).not.toContain("gamma refactor");
      // The terminal is back in cooked mode.
      expect(readFileSync(join(s.base, "stty.txt"), "utf8")).toMatch(/(^|\s)icanon(\s|$)/m);
    } finally {
      tmux(s.socket, "kill-server");
    }
  });

  test("Ctrl-C leaves the terminal out of raw mode and prints nothing to stdout", async () => {
    const s = await scene();
    try {
      s.start("");
      await waitFor(s.socket, (x) => x.includes("3 snapshots"), "the picker");
      // A resize re-lays the screen out at the new width.
      tmux(s.socket, "resize-window", "-t", "main", "-x", "60", "-y", "20");
      // Re-laid out: the title line's right end (the host) sits at the new edge.
      const narrow = await waitFor(
        s.socket,
        (x) =>
          x.includes("3 snapshots") &&
          x.split("\n").every((l) => Bun.stringWidth(l.trimEnd()) <= 60) &&
          Bun.stringWidth(x.split("\n")[0].trimEnd()) === 60,
        "the narrower layout",
      );
      expect(narrow.split("\n").filter((l) => l.trim()).length).toBeLessThanOrEqual(20);
      tmux(s.socket, "send-keys", "-t", "main", "C-c");
      await waitForFile(s.done, "the TUI's exit");
      const stty = readFileSync(join(s.base, "stty.txt"), "utf8");
      expect(stty).toMatch(/(^|\s)icanon(\s|$)/m);
      expect(stty).toMatch(/(^|\s)echo(\s|$)/m);
      expect(readFileSync(join(s.base, "out.txt"), "utf8")).toBe("");
    } finally {
      tmux(s.socket, "kill-server");
    }
  });

  test("`mindsave` alone: inside a project on its picker (q: the projects list), outside on the list", async () => {
    const s = await scene();
    try {
      s.start("");
      const picker = await waitFor(s.socket, (x) => x.includes("webapp · 3 snapshots"), "the picker at once");
      expect(picker).toMatch(/› {2}gamma_refactor/);
      expect(picker).not.toContain("Projects (1)");
      s.keys("q");
      await waitFor(s.socket, (x) => x.includes("Projects (1)") && /›●webapp/.test(x), "the projects list");
      s.keys("Enter");
      await waitFor(s.socket, (x) => x.includes("webapp · 3 snapshots"), "the picker again");
      s.keys("q", "q");
      await waitForFile(s.done, "the TUI's exit");
    } finally {
      tmux(s.socket, "kill-server");
    }
    const o = await scene();
    try {
      o.start("", o.base);
      const list = await waitFor(
        o.socket,
        (x) => x.includes("Projects (1)") && x.includes("webapp"),
        "the projects list outside any project",
      );
      expect(list).not.toContain("snapshots ·");
    } finally {
      tmux(o.socket, "kill-server");
    }
  });

  test("R opens the standing rules at 80×24 from the picker; q returns", async () => {
    const s = await scene();
    try {
      s.start("");
      await waitFor(
        s.socket,
        (x) => x.includes("webapp · 3 snapshots") && x.includes("R rules"),
        "the picker with the rules key",
      );
      s.keys("R");
      const rules = await waitFor(
        s.socket,
        (x) => x.includes("Standing rules · webapp + global") && x.includes("0/150 tokens"),
        "the rules screen",
      );
      expect(rules).toContain("a add");
      expect(rules.trimEnd().split("\n").length).toBeLessThanOrEqual(24);
      for (const line of rules.split("\n")) expect(Bun.stringWidth(line.trimEnd())).toBeLessThanOrEqual(80);
      s.keys("q");
      await waitFor(s.socket, (x) => x.includes("webapp · 3 snapshots"), "the picker again");
      s.keys("q", "q");
      await waitForFile(s.done, "the TUI's exit");
    } finally {
      tmux(s.socket, "kill-server");
    }
  });

  test("a long snapshot at 80×24: a more-lines marker, the Layer 3 hint, 3 jumps to Layer 3, PgDn/G scroll", async () => {
    const s = await scene();
    try {
      const steps = Array.from({ length: 40 }, (_, i) => `${i + 1}. archived step ${i + 1}`).join("\n");
      const yaml = `---\ngoal: long snapshot\nstate: halfway\nnext_action: keep going\nconstraints:\n${Array.from({ length: 12 }, (_, i) => `  - constraint number ${i + 1}`).join("\n")}\n---\n### Completed Steps\n${steps}\n`;
      expect(
        (
          await run(["save", "-f", "-", "--home", s.home], {
            cwd: s.repo,
            env: s.env,
            bin: [exe],
            stdin: yaml,
          })
        ).code,
      ).toBe(0);
      s.start("");
      await waitFor(s.socket, (x) => x.includes("4 snapshots") && /› {2}long_snapshot/.test(x), "the picker");
      s.keys("Enter");
      let view = await waitFor(
        s.socket,
        (x) => x.includes("Layer 1") && /↓ \d+ more lines/.test(x),
        "the snapshot with its marker",
      );
      expect(view).toContain("3 → Layer 3 (cold archive, 41 lines)");
      expect(view).not.toContain("archived step 1");
      expect(view.trimEnd().split("\n").length).toBeLessThanOrEqual(24);
      s.keys("3");
      view = await waitFor(
        s.socket,
        (x) => x.includes("Layer 3 · Cold Archive") && x.includes("archived step 1"),
        "Layer 3 on screen at once",
      );
      expect(view).toMatch(/↓ \d+ more lines/);
      s.keys("PageDown");
      view = await waitFor(s.socket, (x) => x.includes("archived step 25"), "a page further");
      s.keys("G");
      view = await waitFor(s.socket, (x) => x.includes("archived step 40") && x.includes("end"), "the end");
      s.keys("g");
      await waitFor(s.socket, (x) => x.includes("saved 20") && x.includes("Layer 1"), "the top");
      s.keys("q", "q", "q");
      await waitForFile(s.done, "the TUI's exit");
      expect(readFileSync(join(s.base, "out.txt"), "utf8")).toBe("");
    } finally {
      tmux(s.socket, "kill-server");
    }
  });
});

describe.skipIf(!TMUX)("a hook run by hand on a terminal (compiled binary, tmux)", () => {
  test("an encrypted store without MINDSAVE_PASSPHRASE: one sentence, never a passphrase prompt (its stdin was the payload)", async () => {
    const s = await scene();
    expect(
      (
        await run(["encrypt", "--home", s.home], {
          cwd: s.repo,
          env: { ...s.env, MINDSAVE_PASSPHRASE: "correct horse battery" },
          bin: [exe],
        })
      ).code,
    ).toBe(0);
    try {
      s.start("hook session-start");
      s.keys(
        JSON.stringify({ session_id: "by-hand", cwd: s.repo, hook_event_name: "SessionStart" }),
        "Enter",
        "C-d",
      );
      await waitForFile(s.done, "the hook's end");
      const screen = tmux(s.socket, "capture-pane", "-p", "-t", "main");
      expect(screen).toContain("This store is encrypted; set MINDSAVE_PASSPHRASE");
      expect(screen).not.toContain("Passphrase for");
      expect(readFileSync(join(s.base, "out.txt"), "utf8")).toBe("");
    } finally {
      tmux(s.socket, "kill-server");
    }
  });
});
