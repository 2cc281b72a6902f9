// useTick: a screen showing ages ("54s") draws itself again every `ms` of the app's clock while it
// is active, and at once when asked (on a key). Driven by a pinned clock moved by hand: no test waits.
import { afterEach, describe, expect, test } from "bun:test";
import { Text } from "ink";
import { useContext, useRef } from "react";
import { UiContext, type UiContextValue } from "../../ui/context.ts";
import { useTick } from "../../ui/hooks/useTick.ts";
import { probe, testClock, unmountAll } from "./probe.tsx";

afterEach(unmountAll);

const START = Date.parse("2026-11-23T12:00:00Z");

/** Shows how long ago START was, by the app's clock; `now` is called by the test (a key would). */
function Age({ ms, active, now }: { ms: number; active: boolean; now: { current?: () => void } }) {
  const ui = useContext(UiContext)!;
  now.current = useTick(ms, active);
  const draws = useRef(0);
  draws.current++;
  return <Text>{`age=${Math.round((ui.now().getTime() - START) / 1000)}s draws=${draws.current}`}</Text>;
}

function mountAge(active: boolean) {
  const clock = testClock(START);
  const value = { now: clock.now, every: clock.every } as UiContextValue;
  const now: { current?: () => void } = {};
  const tree = (a: boolean) => (
    <UiContext.Provider value={value}>
      <Age ms={10_000} active={a} now={now} />
    </UiContext.Provider>
  );
  return { p: probe(tree(active)), tree, clock, now };
}

describe("useTick", () => {
  test("active: the screen draws again once each time `ms` of the clock has passed, not before", async () => {
    const { p, clock } = mountAge(true);
    expect(p.frame()).toBe("age=0s draws=1");
    expect(clock.running).toBe(1);
    clock.advance(9_000);
    clock.advance(1_000);
    expect(await p.until((f) => f.startsWith("age=10s"), "the age after 10s")).toBe("age=10s draws=2");
    clock.advance(25_000);
    expect(await p.until((f) => f.startsWith("age=35s"), "the age after 35s")).toBe("age=35s draws=3");
  });

  test("the function it returns draws the screen now (a key), between ticks", async () => {
    const { p, clock, now } = mountAge(true);
    clock.advance(9_000);
    now.current!();
    expect(await p.until((f) => f.startsWith("age=9s"), "the age drawn on request")).toBe("age=9s draws=2");
  });

  test("inactive (a screen below the top): no timer runs; made active, it starts one", async () => {
    const { p, tree, clock } = mountAge(false);
    expect(clock.running).toBe(0);
    p.rerender(tree(true));
    await p.until(() => clock.running === 1, "the timer started");
    clock.advance(10_000);
    expect(await p.until((f) => f.startsWith("age=10s"), "the age after 10s")).toStartWith("age=10s");
    p.rerender(tree(false));
    await p.until(() => clock.running === 0, "the timer stopped");
  });

  test("unmounted, its timer stops", async () => {
    const { p, clock } = mountAge(true);
    expect(clock.running).toBe(1);
    p.unmount();
    expect(clock.running).toBe(0);
  });
});
