// What the TUI's component tests share: a real store in a temp dir with a git project "webapp",
// the app rendered by ink-testing-library around it, keys, and a clock a test moves by hand.
import { expect } from "bun:test";
import { render } from "ink";
import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { App, type Screen } from "../ui/app.tsx";
import { UiContext, type UiContextValue } from "../ui/context.ts";
import { makeTheme } from "../ui/theme.ts";
import { Session } from "../src/engine/session.ts";
import { resolveProject } from "../src/engine/projects/resolve.ts";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { fromFields } from "../src/engine/snapshots/input.ts";
import { width } from "../src/lib/text.ts";
import { gitRepo, tempDir } from "./helpers.ts";
import { TestKeyboard, TestScreen } from "./tui-terminal.ts";

export { KEY, testClock } from "./tui-terminal.ts";

const open: { unmount: () => void; session: Session }[] = [];
/** Unmounts every app mounted and closes its session: each test file's afterEach. */
export function closeAll() {
  while (open.length) {
    const o = open.pop()!;
    o.unmount();
    o.session.close();
  }
}

/** Each set of files' repository, made once (its commit's dates pinned: the same project) and copied. */
const repositories = new Map<string, string>();
function webappRepo(dir: string, files: Record<string, string>): string {
  const key = JSON.stringify(files);
  let made = repositories.get(key);
  if (!made) {
    made = gitRepo(join(tempDir("mindsave-tui-repo-"), "webapp"), files);
    repositories.set(key, made);
  }
  cpSync(made, dir, { recursive: true });
  return dir;
}

/** A temp dir with a git project "webapp" (`files` in it) and a session on a fresh store there. */
export async function openStore(prefix: string, files: Record<string, string> = {}) {
  const base = tempDir(prefix);
  const repo = webappRepo(join(base, "webapp"), { "src/auth.ts": "export const a = 1;\n", ...files });
  const env = {
    ...process.env,
    HOME: join(base, "home"),
    MINDSAVE_HOST: "tui-host",
    MINDSAVE_HOST_NAME: "tui-host",
  };
  mkdirSync(join(base, "store"));
  const session = await Session.open({ home: join(base, "store"), cwd: repo, env }, { write: true });
  return { base, repo, env, session };
}

export interface Harness {
  frame: () => string;
  press: (...keys: string[]) => void;
  until: (pred: (f: string) => boolean, what: string, ms?: number) => Promise<string>;
  exited: { called: boolean; output?: string };
  terminal: string[];
  session: Session;
}

export interface MountOptions {
  initial?: Screen[];
  env?: NodeJS.ProcessEnv;
  columns?: number;
  rows?: number;
  now?: () => Date;
  every?: UiContextValue["every"];
  /** Every frame `until` returns must fit the terminal, wide text included. */
  fits?: boolean;
}

export function mount(session: Session, opts: MountOptions = {}): Harness {
  const exited: Harness["exited"] = { called: false };
  const terminal: string[] = [];
  const columns = opts.columns ?? 100;
  const rows = opts.rows ?? 30;
  // What `until` waits for: each frame drawn, and the app's exit, call these.
  const watchers = new Set<() => void>();
  const changed = () => [...watchers].forEach((w) => w());
  const value: UiContextValue = {
    session,
    theme: makeTheme(opts.env ?? { LANG: "en_US.UTF-8" }),
    now: opts.now ?? (() => new Date()),
    every: opts.every,
    exit: (output) => {
      Object.assign(exited, { called: true, output });
      changed();
    },
    writeTerminal: (d) => terminal.push(d),
  };
  const screen = new TestScreen(columns, rows, changed);
  const keyboard = new TestKeyboard();
  const r = render(
    <UiContext.Provider value={value}>
      <App initial={opts.initial} size={{ columns, rows }} />
    </UiContext.Provider>,
    {
      stdout: screen as unknown as NodeJS.WriteStream,
      stdin: keyboard as unknown as NodeJS.ReadStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    },
  );
  open.push({ unmount: r.unmount, session });
  const frame = () => screen.lastFrame;
  const fitsTerminal = (f: string) => {
    if (!opts.fits) return;
    expect(f.split("\n").length).toBeLessThanOrEqual(rows);
    for (const line of f.split("\n")) expect(width(line)).toBeLessThanOrEqual(columns);
  };
  return {
    frame,
    exited,
    terminal,
    session,
    press: (...keys) => keys.forEach((k) => keyboard.write(k)),
    // Waits for what the screen must show next: a condition, checked at each frame drawn, bounded.
    until: (pred, what, ms = 3000) =>
      new Promise<string>((resolve, reject) => {
        const done = (settle: () => void) => {
          watchers.delete(check);
          clearTimeout(timer);
          settle();
        };
        const check = () => {
          let f: string;
          try {
            f = frame();
            if (!pred(f)) return;
            fitsTerminal(f);
          } catch (e) {
            return done(() => reject(e));
          }
          done(() => resolve(f));
        };
        const timer = setTimeout(
          () => done(() => reject(new Error(`the screen never showed ${what}; last frame:\n${frame()}`))),
          ms,
        );
        watchers.add(check);
        check();
      }),
  };
}

/** When webappStore saves its snapshots: a fixed instant, so the ages on screen are known. */
export const SAVED_AT = Date.UTC(2026, 10, 23, 9, 0, 0);

/** A project "webapp" with one snapshot per goal, all saved at SAVED_AT. */
export async function webappStore(goals: string[]) {
  const s = await openStore("mindsave-tui-webapp-");
  const at = await Session.open(
    { home: s.session.home.dir, cwd: s.repo, env: s.env, now: () => new Date(SAVED_AT) },
    { write: true },
  );
  for (const goal of goals)
    await saveSnapshot(at, {
      input: fromFields({ goal, state: `state of ${goal}`, next_action: `next for ${goal}` }),
    });
  const projectId = (await resolveProject(at, { create: false }))!.project.id;
  at.close();
  return { ...s, projectId };
}

/** The screens to open webappStore's picker on, the projects list behind it. */
export const webappPicker = (projectId: string): Screen[] => [
  { name: "home" },
  { name: "picker", projectId, projectName: "webapp" },
];
