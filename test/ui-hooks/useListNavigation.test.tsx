// useListNavigation: the selected row and the first visible one of a list that renders only the
// rows in sight; keys in one burst each see the move of the key before.
import { afterEach, describe, expect, test } from "bun:test";
import { Text } from "ink";
import { useKeys } from "../../ui/hooks/useKeys.ts";
import { useListNavigation } from "../../ui/hooks/useListNavigation.ts";
import { useRefState } from "../../ui/hooks/useRefState.ts";
import { KEY, MARK, probe, settle, unmountAll } from "./probe.tsx";

afterEach(unmountAll);

interface ListProps {
  count: number;
  visible: number;
  initial?: number;
  letters?: boolean;
  resetKey?: unknown;
}

/** A list of `count` rows, `visible` in sight: shows the selection, the first row in sight, and the keys it left. */
function List({ count, visible, initial, letters, resetKey }: ListProps) {
  const nav = useListNavigation(count, visible, initial, { letters, resetKey });
  const [seen, setSeen] = useRefState<{ unused: string[]; marks: number }>({ unused: [], marks: 0 });
  useKeys((input, key) => {
    if (input === MARK) return setSeen((s) => ({ ...s, marks: s.marks + 1 }));
    if (input === "=") return nav.setSelected(5);
    if (!nav.handle(input, key)) setSeen((s) => ({ ...s, unused: [...s.unused, input] }));
  });
  return (
    <Text>{`sel=${nav.selected} off=${nav.offset} unused=[${seen().unused.join(",")}] marks=${seen().marks}`}</Text>
  );
}

/** "sel=S off=O" once `keys` have been handled. */
async function at(p: ReturnType<typeof probe>, ...keys: string[]): Promise<string> {
  return /sel=\d+ off=\d+/.exec(await settle(p, ...keys))![0];
}

describe("useListNavigation", () => {
  test("↓/j and ↑/k move the selection a row, and the rows in sight follow it", async () => {
    const p = probe(<List count={10} visible={3} />);
    expect(await at(p)).toBe("sel=0 off=0");
    expect(await at(p, KEY.down, "j")).toBe("sel=2 off=0");
    expect(await at(p, "j")).toBe("sel=3 off=1");
    expect(await at(p, "k", KEY.up)).toBe("sel=1 off=1");
    expect(await at(p, "k")).toBe("sel=0 off=0");
    expect(await at(p, "k", KEY.up)).toBe("sel=0 off=0");
  });

  test("PgDn/PgUp move a page less one row; G/End and g/Home go to the ends, never past them", async () => {
    const p = probe(<List count={10} visible={4} />);
    expect(await at(p, KEY.pgdn)).toBe("sel=3 off=0");
    expect(await at(p, KEY.pgdn)).toBe("sel=6 off=3");
    expect(await at(p, KEY.pgup)).toBe("sel=3 off=3");
    expect(await at(p, "G")).toBe("sel=9 off=6");
    expect(await at(p, "j", KEY.pgdn)).toBe("sel=9 off=6");
    expect(await at(p, "g")).toBe("sel=0 off=0");
    expect(await at(p, "\x1b[F")).toBe("sel=9 off=6");
    expect(await at(p, "\x1b[H")).toBe("sel=0 off=0");
  });

  test("keys in one burst each move from where the key before left the selection", async () => {
    const p = probe(<List count={10} visible={3} />);
    expect(await at(p, "jjjj")).toBe("sel=4 off=2");
  });

  test("with letters off, j k g G are the screen's (typed into a filter); arrows still move", async () => {
    const p = probe(<List count={10} visible={3} letters={false} />);
    expect(await settle(p, "j", "k", "G", "g", KEY.down)).toBe("sel=1 off=0 unused=[j,k,G,g] marks=1");
  });

  test("the initial row is selected when the rows arrive, and again when the reset key changes", async () => {
    const p = probe(<List count={0} visible={3} initial={4} resetKey="all" />);
    p.rerender(<List count={10} visible={3} initial={4} resetKey="all" />);
    expect(await at(p)).toBe("sel=4 off=2");
    expect(await at(p, "j")).toBe("sel=5 off=3");
    p.rerender(<List count={10} visible={3} initial={4} resetKey="all" />);
    expect(await at(p)).toBe("sel=5 off=3");
    p.rerender(<List count={10} visible={3} initial={4} resetKey="filtered" />);
    expect(await at(p)).toBe("sel=4 off=2");
  });

  test("a list that shrinks keeps the selection on a row that exists; setSelected is clamped too", async () => {
    const p = probe(<List count={10} visible={3} />);
    expect(await at(p, "G")).toBe("sel=9 off=7");
    p.rerender(<List count={4} visible={3} />);
    expect(await at(p)).toBe("sel=3 off=1");
    expect(await at(p, "=")).toBe("sel=3 off=1");
  });

  test("other keys are left to the screen", async () => {
    const p = probe(<List count={10} visible={3} />);
    expect(await settle(p, "/", "中")).toBe("sel=0 off=0 unused=[/,中] marks=1");
  });
});
