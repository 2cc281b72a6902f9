// useConfirm: a question on the status line ("Remove rule 2? y to remove, any other key to keep
// it") and the next key as its answer, read through a ref so a `y` in the same burst answers it.
import { afterEach, describe, expect, test } from "bun:test";
import { Text } from "ink";
import { useConfirm } from "../../ui/hooks/useConfirm.ts";
import { useKeys } from "../../ui/hooks/useKeys.ts";
import { useRefState } from "../../ui/hooks/useRefState.ts";
import { MARK, probe, settle, unmountAll } from "./probe.tsx";

afterEach(unmountAll);

/** `d` asks to remove a rule; the answer's outcome and every key not taken as an answer are listed. */
function Rules() {
  const confirm = useConfirm();
  const [log, setLog] = useRefState<string[]>([]);
  const [marks, setMarks] = useRefState(0);
  const note = (s: string) => setLog((l) => [...l, s]);
  useKeys((input) => {
    if (input === MARK) return setMarks((n) => n + 1);
    if (confirm.answer(input, () => note("kept"))) return;
    if (input === "d")
      confirm.ask("Remove rule 2? y to remove, any other key to keep it", () => note("removed"));
    else note(`key ${input}`);
  });
  return <Text>{`question=${confirm.question ?? "none"} log=[${log().join(", ")}] marks=${marks()}`}</Text>;
}

describe("useConfirm", () => {
  test("asking shows the question; `y` runs the action and closes it", async () => {
    const p = probe(<Rules />);
    expect(await settle(p, "d")).toBe(
      "question=Remove rule 2? y to remove, any other key to keep it log=[] marks=1",
    );
    expect(await settle(p, "y")).toBe("question=none log=[removed] marks=2");
  });

  test("`Y` answers yes too", async () => {
    const p = probe(<Rules />);
    expect(await settle(p, "d", "Y")).toBe("question=none log=[removed] marks=1");
  });

  test("any other key keeps it: `no` runs, and that key is the answer, nothing else", async () => {
    const p = probe(<Rules />);
    expect(await settle(p, "d", "n")).toBe("question=none log=[kept] marks=1");
    expect(await settle(p, "是")).toBe("question=none log=[kept, key 是] marks=2");
  });

  test("with no question open, keys are not answers (a `y` removes nothing)", async () => {
    const p = probe(<Rules />);
    expect(await settle(p, "y")).toBe("question=none log=[key y] marks=1");
  });

  test("a `d` and a `y` in one burst: the `y` answers the question the `d` asked", async () => {
    const p = probe(<Rules />);
    expect(await settle(p, "dy")).toBe("question=none log=[removed] marks=1");
  });
});
