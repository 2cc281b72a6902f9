// What the hook tests share: a tiny component rendered by ink on the TUI tests' terminal, keys
// sent to it, and a wait for what its frame must show next (a condition checked as renders happen, bounded).
import { render } from "ink";
import type { ReactElement } from "react";
import { TestKeyboard, TestScreen } from "../tui-terminal.ts";

export { KEY, testClock } from "../tui-terminal.ts";

export interface Probe {
  frame: () => string;
  press: (...keys: string[]) => void;
  until: (pred: (f: string) => boolean, what: string) => Promise<string>;
  rerender: (node: ReactElement) => void;
  unmount: () => void;
}

const mounted: Probe[] = [];
/** Unmounts every probe a test mounted: each hook test file's afterEach. */
export function unmountAll() {
  while (mounted.length) mounted.pop()!.unmount();
}

/**
 * Renders `node` as ink-testing-library would, but on a terminal with rows (100x24): ink asks the
 * size at every frame, and ink-testing-library's stdout, without rows, sends it to `tput` twice a
 * frame. The probe is unmounted by `unmountAll`.
 */
export function probe(node: ReactElement): Probe {
  const screen = new TestScreen(100, 24, () => {});
  const keyboard = new TestKeyboard();
  const r = render(node, {
    stdout: screen as unknown as NodeJS.WriteStream,
    stdin: keyboard as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const frame = () => screen.lastFrame;
  const p: Probe = {
    frame,
    press: (...keys) => keys.forEach((k) => keyboard.write(k)),
    until: async (pred, what) => {
      for (let i = 0; i < 600; i++) {
        if (pred(frame())) return frame();
        await new Promise((res) => setTimeout(res, 5));
      }
      throw new Error(`the probe never showed ${what}; last frame:\n${frame()}`);
    },
    rerender: r.rerender,
    unmount: r.unmount,
  };
  mounted.push(p);
  return p;
}

/**
 * A key no hook under test uses: a probe counts it as `marks=N`. Keys are handled in order, so once
 * the mark pressed after them shows, every key before it has been handled (even one that changed nothing).
 */
export const MARK = "~";

/** Presses `keys`, then MARK, and returns the first frame showing that mark counted. */
export async function settle(p: Probe, ...keys: string[]): Promise<string> {
  const marks = Number(/marks=(\d+)/.exec(p.frame())?.[1] ?? NaN);
  if (Number.isNaN(marks)) throw new Error(`the probe shows no marks=N:\n${p.frame()}`);
  p.press(...keys, MARK);
  return p.until((f) => f.includes(`marks=${marks + 1}`), `marks=${marks + 1} after ${JSON.stringify(keys)}`);
}
