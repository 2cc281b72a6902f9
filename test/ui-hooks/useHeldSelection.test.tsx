// useHeldSelection: a list read again while it is open (another process saved or deleted a row)
// keeps its selection on the row it was on; that row gone, on the next one still there, else the
// one above; rows of another filter start where the list decides.
import { afterEach, describe, expect, test } from "bun:test";
import { Text } from "ink";
import { useHeldSelection } from "../../ui/hooks/useHeldSelection.ts";
import { useKeys } from "../../ui/hooks/useKeys.ts";
import { useListNavigation } from "../../ui/hooks/useListNavigation.ts";
import { useRefState } from "../../ui/hooks/useRefState.ts";
import { MARK, probe, settle, unmountAll } from "./probe.tsx";

afterEach(unmountAll);

interface Row {
  id: string;
}

/** Snapshots listed under a filter: shows the selected one's id. */
function Picker({ rows, filter }: { rows: Row[]; filter: string }) {
  const nav = useListNavigation(rows.length, 3, 0, { resetKey: filter });
  useHeldSelection(rows, nav, filter, (r) => r.id);
  const [marks, setMarks] = useRefState(0);
  useKeys((input, key) => (input === MARK ? setMarks((n) => n + 1) : nav.handle(input, key)));
  return <Text>{`sel=${rows[nav.selected]?.id ?? "-"} marks=${marks()}`}</Text>;
}

const rows = (...ids: string[]): Row[] => ids.map((id) => ({ id }));

/** The selected id once the probe has settled. */
async function selected(p: ReturnType<typeof probe>, ...keys: string[]): Promise<string> {
  return /sel=(\S+)/.exec(await settle(p, ...keys))![1];
}

describe("useHeldSelection", () => {
  test("a row saved above the selected one: the selection stays on the row it was on", async () => {
    const p = probe(<Picker rows={rows("c", "b", "a")} filter="all" />);
    expect(await selected(p, "j")).toBe("b");
    p.rerender(<Picker rows={rows("新", "c", "b", "a")} filter="all" />);
    expect(await selected(p)).toBe("b");
    // The next key acts from the row the person sees selected.
    expect(await selected(p, "j")).toBe("a");
  });

  test("the selected row deleted elsewhere (and one saved meanwhile): the next one still there is selected", async () => {
    const p = probe(<Picker rows={rows("d", "c", "b", "a")} filter="all" />);
    expect(await selected(p, "j")).toBe("c");
    p.rerender(<Picker rows={rows("e", "d", "b", "a")} filter="all" />);
    expect(await selected(p)).toBe("b");
  });

  test("the selected row and the ones after it gone: the one above is selected", async () => {
    const p = probe(<Picker rows={rows("d", "c", "b", "a")} filter="all" />);
    expect(await selected(p, "j", "j")).toBe("b");
    p.rerender(<Picker rows={rows("c", "x", "y", "z")} filter="all" />);
    expect(await selected(p)).toBe("c");
  });

  test("rows of another filter are not held: the list starts at its top", async () => {
    const p = probe(<Picker rows={rows("c", "b", "a")} filter="all" />);
    expect(await selected(p, "j", "j")).toBe("a");
    p.rerender(<Picker rows={rows("b", "a")} filter="a-b" />);
    expect(await selected(p)).toBe("b");
  });
});
