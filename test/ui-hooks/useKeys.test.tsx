// useKeys: keys one at a time, in order, to the screen they are for. A burst read as one string is
// split into its keys; Esc and the key after it, read as Alt+key, are Esc then the key; inside the
// app the key router (app.tsx) delivers them, holding them while the screen is not ready.
import { afterEach, describe, expect, test } from "bun:test";
import { Text, type Key } from "ink";
import {
  escapeThenKey,
  KeyRouterContext,
  ScreenIdContext,
  splitKeys,
  useKeys,
  type KeyRouter,
  type KeyTarget,
} from "../../ui/hooks/useKeys.ts";
import { useRefState } from "../../ui/hooks/useRefState.ts";
import { KEY, MARK, probe, settle, unmountAll } from "./probe.tsx";

afterEach(unmountAll);

/** A key as a short word: "a", "⏎", "⇥", "⌫", "esc", "Alt+b", "A(shift)". */
function name(input: string, key: Key): string {
  if (key.return) return "⏎";
  if (key.tab) return "⇥";
  if (key.backspace) return "⌫";
  if (key.escape) return input ? `esc+${input}` : "esc";
  if (key.upArrow) return "↑";
  if (key.leftArrow) return key.meta ? "Alt+←" : "←";
  if (key.meta) return `Alt+${input}`;
  if (key.ctrl) return `Ctrl+${input}`;
  return key.shift ? `${input}(shift)` : input;
}

/** Lists every key its handler got, in order. */
function Recorder({ isActive }: { isActive?: boolean }) {
  const [keys, setKeys] = useRefState<string[]>([]);
  const [marks, setMarks] = useRefState(0);
  useKeys(
    (input, key) => (input === MARK ? setMarks((n) => n + 1) : setKeys((k) => [...k, name(input, key)])),
    { isActive },
  );
  return <Text>{`keys=[${keys().join(" ")}] marks=${marks()}`}</Text>;
}

const NONE = splitKeys("x", {} as Key)[0][1];
const keyOf = (over: Partial<Key>): Key => ({ ...NONE, ...over });

describe("useKeys: a lone component (ink's input directly)", () => {
  test("a burst read as one string reaches the handler as its keys, in order", async () => {
    const p = probe(<Recorder />);
    expect(await settle(p, "q文B\r\t\x7f")).toBe("keys=[q 文 B(shift) ⏎ ⇥ ⌫] marks=1");
  });

  test("an escape sequence stays one key; Ctrl+key is not split", async () => {
    const p = probe(<Recorder />);
    expect(await settle(p, KEY.up, "\x01")).toBe("keys=[↑ Ctrl+a] marks=1");
  });

  test("Esc and a key typed fast (read as Alt+key) are Esc, then the key", async () => {
    const p = probe(<Recorder />);
    expect(await settle(p, "\x1bq")).toBe("keys=[esc q] marks=1");
  });

  test("not active: the handler gets no key", async () => {
    const p = probe(<Recorder isActive={false} />);
    p.press("abc");
    p.rerender(<Recorder isActive />);
    expect(await settle(p, "d")).toBe("keys=[d] marks=1");
  });
});

describe("useKeys: splitKeys and escapeThenKey", () => {
  test("splitKeys leaves a single key, an escape sequence and Ctrl/Alt keys whole", () => {
    expect(splitKeys("a", NONE)).toEqual([["a", NONE]]);
    expect(splitKeys("\x1b[A", NONE)).toEqual([["\x1b[A", NONE]]);
    const ctrl = keyOf({ ctrl: true });
    expect(splitKeys("ab", ctrl)).toEqual([["ab", ctrl]]);
    expect(splitKeys("中\n", NONE).map(([i, k]) => name(i, k))).toEqual(["中", "⏎"]);
  });

  test("escapeThenKey: Alt+key is Esc then the key, but a text field keeps the word keys (Alt+b/f, Alt+←)", () => {
    const altB = keyOf({ meta: true });
    expect(escapeThenKey("b", altB, false)?.map(([i, k]) => name(i, k))).toEqual(["esc", "b"]);
    expect(escapeThenKey("b", altB, true)).toBeNull();
    expect(escapeThenKey("", keyOf({ meta: true, leftArrow: true }), true)).toBeNull();
    expect(escapeThenKey("q", altB, true)?.map(([i, k]) => name(i, k))).toEqual(["esc", "q"]);
    expect(escapeThenKey("q", NONE, false)).toBeNull();
  });
});

/** A router as app.tsx's, reduced to what a screen sees: the target it registered and the flushes asked for. */
function testRouter() {
  const log = { targets: new Map<string, { current: KeyTarget }>(), flushes: 0 };
  const router: KeyRouter = {
    register: (id, target) => {
      log.targets.set(id, target);
      return () => void log.targets.delete(id);
    },
    flush: () => void log.flushes++,
  };
  return { router, log };
}

/** A screen inside the app: keys reach it through the router. */
function Routed({
  ready,
  busy,
  flushNow,
}: {
  ready: boolean;
  busy: { current: boolean };
  flushNow: { current?: () => void };
}) {
  const [keys, setKeys] = useRefState<string[]>([]);
  flushNow.current = useKeys((input) => setKeys((k) => [...k, input]), {
    ready,
    wait: (input) => busy.current && input !== "!",
  });
  return <Text>{`keys=[${keys().join(" ")}]`}</Text>;
}

describe("useKeys: a screen inside the app", () => {
  function routedProbe() {
    const { router, log } = testRouter();
    const busy = { current: false };
    const flushNow: { current?: () => void } = {};
    const tree = (ready: boolean) => (
      <KeyRouterContext.Provider value={router}>
        <ScreenIdContext.Provider value="7">
          <Routed ready={ready} busy={busy} flushNow={flushNow} />
        </ScreenIdContext.Provider>
      </KeyRouterContext.Provider>
    );
    return { p: probe(tree(false)), tree, log, busy, flushNow };
  }

  test("registers under its screen's id; keys come from the router, not from ink's input", async () => {
    const { p, log } = routedProbe();
    const target = log.targets.get("7")!;
    expect(target).toBeDefined();
    p.press("x");
    target.current.handle("y", NONE);
    expect(await p.until((f) => f.includes("keys=[y"), "the routed key")).toBe("keys=[y]");
    p.unmount();
    expect(log.targets.has("7")).toBe(false);
  });

  test("not ready: every key waits; ready: keys wait only while `wait` says so", async () => {
    const { p, tree, log, busy } = routedProbe();
    expect(log.targets.get("7")!.current.wait!("a", NONE)).toBe(true);
    p.rerender(tree(true));
    await p.until(() => log.targets.get("7")!.current.wait!("a", NONE) === false, "the screen ready");
    busy.current = true;
    expect(log.targets.get("7")!.current.wait!("a", NONE)).toBe(true);
    expect(log.targets.get("7")!.current.wait!("!", NONE)).toBe(false);
  });

  test("each render asks the router to hand on held keys, and so does the returned function", async () => {
    const { p, tree, log, flushNow } = routedProbe();
    const before = log.flushes;
    p.rerender(tree(true));
    await p.until(() => log.flushes > before, "a flush after the render");
    const afterRender = log.flushes;
    flushNow.current!();
    expect(log.flushes).toBe(afterRender + 1);
  });
});
