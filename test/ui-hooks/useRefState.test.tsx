// useRefState: state whose latest value is readable at once, so keys in one burst each see what
// the key before them did (a `/` opening the filter, then the letters typed into it).
import { afterEach, describe, expect, test } from "bun:test";
import { Text } from "ink";
import { useKeys } from "../../ui/hooks/useKeys.ts";
import { useRefState } from "../../ui/hooks/useRefState.ts";
import { probe, unmountAll } from "./probe.tsx";

afterEach(unmountAll);

/** `/` opens a filter; letters typed while it is open go into it, any other time they are counted as strays. */
function Filter() {
  const [get, set] = useRefState<{ open: boolean; text: string; strays: number }>({
    open: false,
    text: "",
    strays: 0,
  });
  useKeys((input) => {
    if (input === "/") set((s) => ({ ...s, open: true }));
    else if (get().open) set({ ...get(), text: get().text + input });
    else set((s) => ({ ...s, strays: s.strays + 1 }));
  });
  const s = get();
  return <Text>{`open=${s.open} text=[${s.text}] strays=${s.strays}`}</Text>;
}

describe("useRefState", () => {
  test("starts at its initial value", () => {
    expect(probe(<Filter />).frame()).toBe("open=false text=[] strays=0");
  });

  test("a `/` and the letters after it in one burst: each letter sees the filter the `/` opened", async () => {
    const p = probe(<Filter />);
    p.press("/中文ab");
    expect(await p.until((f) => f.includes("text=[中文ab]"), "the four letters in the filter")).toBe(
      "open=true text=[中文ab] strays=0",
    );
  });

  test("an updater function gets the value the previous set left, not the one last rendered", async () => {
    const p = probe(<Filter />);
    p.press("xyz");
    expect(await p.until((f) => f.includes("strays=3"), "three strays")).toBe("open=false text=[] strays=3");
  });
});
