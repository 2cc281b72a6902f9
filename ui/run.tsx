// Starts the TUI on the terminal and prints the chosen restore block to stdout after it closes,
// so `mindsave ui > ctx.md` works: the screen goes to whichever of stdout/stderr is a terminal.
import { render } from "ink";
import { WriteStream } from "node:tty";
import { openSync } from "node:fs";
import { App, type Screen } from "./app.tsx";
import { UiContext } from "./context.ts";
import { makeTheme } from "./theme.ts";
import type { Session } from "../src/engine/session.ts";

export interface UiResult {
  output?: string;
}

/** `onFirstInput`: called once, at the terminal's first input (the person's first key). */
export async function runUi(
  session: Session,
  opts: { initial?: Screen[]; onFirstInput?: () => void } = {},
): Promise<UiResult> {
  // Only told, never read here: ink reads the terminal.
  if (opts.onFirstInput) process.stdin.once("readable", opts.onFirstInput);
  const screen: NodeJS.WriteStream = process.stdout.isTTY
    ? process.stdout
    : process.stderr.isTTY
      ? process.stderr
      : (new WriteStream(openSync("/dev/tty", "w")) as NodeJS.WriteStream);
  let output: string | undefined;
  let restore = () => {};
  const done = new Promise<void>((resolve) => {
    const theme = makeTheme();
    const value = {
      session,
      theme,
      now: () => session.now(),
      exit: (text?: string) => {
        output = text;
        instance.unmount();
      },
      writeTerminal: (data: string) => {
        screen.write(data);
      },
    };
    const instance = render(
      <UiContext.Provider value={value}>
        <App initial={opts.initial} />
      </UiContext.Provider>,
      // CI=true would make ink non-interactive; a person (or tmux) at a terminal is interactive.
      {
        stdout: screen,
        stdin: process.stdin,
        exitOnCtrlC: true,
        interactive: true,
        alternateScreen: true,
        patchConsole: true,
        // Frames at most 17 ms apart (ink: 33): the first rows are not held back a frame or two.
        maxFps: 60,
      },
    );
    restore = () => {
      try {
        instance.unmount();
      } catch {
        // already unmounted
      }
      if (process.stdin.isTTY) process.stdin.setRawMode?.(false);
    };
    instance.waitUntilExit().then(
      () => resolve(),
      () => resolve(),
    );
  });
  // Never leave the terminal in raw mode, whatever happens.
  const onCrash = (e: unknown) => {
    restore();
    process.stderr.write(`mindsave: internal error in the TUI: ${(e as Error)?.message ?? e}\n`);
    process.exit(2);
  };
  const onSignal = () => {
    restore();
    process.exit(130);
  };
  process.once("uncaughtException", onCrash);
  process.once("unhandledRejection", onCrash);
  process.once("SIGTERM", onSignal);
  process.once("SIGHUP", onSignal);
  try {
    await done;
  } finally {
    restore();
    process.off("uncaughtException", onCrash);
    process.off("unhandledRejection", onCrash);
    process.off("SIGTERM", onSignal);
    process.off("SIGHUP", onSignal);
  }
  return { output };
}
