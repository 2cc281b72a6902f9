// useScroll: the top line of a text longer than the screen, moved by keys and kept inside the text.
import { afterEach, describe, expect, test } from "bun:test";
import { Text } from "ink";
import { useKeys } from "../../ui/hooks/useKeys.ts";
import { useRefState } from "../../ui/hooks/useRefState.ts";
import { useScroll } from "../../ui/hooks/useScroll.ts";
import { KEY, MARK, probe, settle, unmountAll } from "./probe.tsx";

afterEach(unmountAll);

/** A text of `lines` lines on a screen of `visible`: shows the top line and the keys it did not use. */
function Reader({ lines, visible }: { lines: number; visible: number }) {
  const scroll = useScroll(lines, visible);
  const [seen, setSeen] = useRefState<{ unused: string[]; marks: number }>({ unused: [], marks: 0 });
  useKeys((input, key) => {
    if (scroll.handle(input, key)) return;
    setSeen((s) => (input === MARK ? { ...s, marks: s.marks + 1 } : { ...s, unused: [...s.unused, input] }));
  });
  return <Text>{`top=${scroll.top} unused=[${seen().unused.join(",")}] marks=${seen().marks}`}</Text>;
}

/** The top line once `keys` have been handled. */
async function topAfter(p: ReturnType<typeof probe>, ...keys: string[]): Promise<number> {
  return Number(/top=(\d+)/.exec(await settle(p, ...keys))![1]);
}

describe("useScroll", () => {
  test("↓/j and ↑/k move a line; ↑ at the top stays at the top", async () => {
    const p = probe(<Reader lines={20} visible={5} />);
    expect(p.frame()).toStartWith("top=0 ");
    expect(await topAfter(p, KEY.down)).toBe(1);
    expect(await topAfter(p, "j")).toBe(2);
    expect(await topAfter(p, "k")).toBe(1);
    expect(await topAfter(p, KEY.up, KEY.up, KEY.up)).toBe(0);
    expect(p.frame()).toContain("unused=[]");
  });

  test("PgDn/Space and PgUp/b move a page less one line (one line stays in sight)", async () => {
    const p = probe(<Reader lines={20} visible={5} />);
    expect(await topAfter(p, KEY.pgdn)).toBe(4);
    expect(await topAfter(p, " ")).toBe(8);
    expect(await topAfter(p, "b")).toBe(4);
    expect(await topAfter(p, KEY.pgup, KEY.pgup)).toBe(0);
  });

  test("G/End go to the last page, never past the text's end; g/Home to the top", async () => {
    const p = probe(<Reader lines={20} visible={5} />);
    expect(await topAfter(p, "G")).toBe(15);
    expect(await topAfter(p, "j", KEY.pgdn, " ")).toBe(15);
    expect(await topAfter(p, "g")).toBe(0);
    expect(await topAfter(p, "\x1b[F")).toBe(15); // End
    expect(await topAfter(p, "\x1b[H")).toBe(0); // Home
  });

  test("keys in one burst each move from where the one before left it", async () => {
    const p = probe(<Reader lines={20} visible={5} />);
    expect(await topAfter(p, "jjj")).toBe(3);
  });

  test("a text that fits does not scroll; a text that shrinks brings the top back inside it", async () => {
    const p = probe(<Reader lines={4} visible={5} />);
    expect(await topAfter(p, "G", "j", KEY.pgdn)).toBe(0);
    p.rerender(<Reader lines={20} visible={5} />);
    expect(await topAfter(p, "G")).toBe(15);
    p.rerender(<Reader lines={8} visible={5} />);
    expect(await topAfter(p)).toBe(3);
    expect(await topAfter(p, "k")).toBe(2);
  });

  test("other keys are left to the screen", async () => {
    const p = probe(<Reader lines={20} visible={5} />);
    expect(await settle(p, "q", "文")).toBe("top=0 unused=[q,文] marks=1");
  });
});
