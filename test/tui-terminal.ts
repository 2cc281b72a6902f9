// The terminal of a TUI test, apart from the app (tui-harness.tsx): its screen and keyboard as ink
// reads them, the keys, and a clock moved by hand. The hook tests (ui-hooks/probe.tsx) render on it
// without loading the app's screens and the engine (~100 ms of each such file's CPU).
import { EventEmitter } from "node:events";

export const KEY = {
  up: "\x1b[A",
  down: "\x1b[B",
  enter: "\r",
  esc: "\x1b",
  pgdn: "\x1b[6~",
  pgup: "\x1b[5~",
  tab: "\t",
  shiftTab: "\x1b[Z",
};

/**
 * A pinned clock the app reads (`now`) and runs its timers on (`every`): `advance` moves it and
 * fires the timers that came due, as the real ones would have meanwhile; no test waits for time.
 */
export function testClock(start = Date.now()) {
  let t = start;
  const timers = new Set<{ ms: number; due: number; fn: () => void }>();
  return {
    now: () => new Date(t),
    every: (ms: number, fn: () => void) => {
      const timer = { ms, due: t + ms, fn };
      timers.add(timer);
      return () => void timers.delete(timer);
    },
    advance(ms: number) {
      t += ms;
      for (const timer of [...timers]) {
        if (timer.due > t) continue;
        timer.due += Math.ceil((t - timer.due + 1) / timer.ms) * timer.ms;
        timer.fn();
      }
    },
    /** How many timers run now (screens on top showing time). */
    get running() {
      return timers.size;
    },
  };
}

/**
 * The screen of a test's terminal, as ink-testing-library's, with its rows too: ink asks the size at
 * every frame, and a stdout without rows sent it to `tput`, two processes a frame.
 */
export class TestScreen extends EventEmitter {
  lastFrame = "";
  constructor(
    readonly columns: number,
    readonly rows: number,
    private readonly drawn: () => void,
  ) {
    super();
  }
  write = (frame: string) => {
    this.lastFrame = frame;
    this.drawn();
    return true;
  };
}

/** The keyboard of a test's terminal, as ink-testing-library's: each write is one read of raw input. */
export class TestKeyboard extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write(data: string) {
    this.data = data;
    this.emit("readable");
    this.emit("data", data);
  }
  read() {
    const { data } = this;
    this.data = null;
    return data;
  }
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}
