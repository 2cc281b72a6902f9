// useAsync: data loaded from an engine function; `reload()` loads it again and resolves once the
// new data is in; a load overtaken by a newer one (its inputs changed) never shows.
import { afterEach, describe, expect, test } from "bun:test";
import { Text } from "ink";
import { useAsync, type AsyncState } from "../../ui/hooks/useAsync.ts";
import { probe, unmountAll } from "./probe.tsx";

afterEach(unmountAll);

interface Load {
  project: string;
  resolve: (rows: string) => void;
  reject: (e: Error) => void;
}

/** Each load waits for the test to settle it (`loads`); the screen shows what the hook holds. */
function Rows({
  project,
  loads,
  state,
}: {
  project: string;
  loads: Load[];
  state: { current?: AsyncState<string> };
}) {
  const s = useAsync(
    () => new Promise<string>((resolve, reject) => loads.push({ project, resolve, reject })),
    [project],
  );
  state.current = s;
  return <Text>{`loading=${s.loading} data=${s.data ?? "-"} error=${s.error?.message ?? "-"}`}</Text>;
}

function mountRows(project: string) {
  const loads: Load[] = [];
  const state: { current?: AsyncState<string> } = {};
  const p = probe(<Rows project={project} loads={loads} state={state} />);
  return { p, loads, state, tree: (pr: string) => <Rows project={pr} loads={loads} state={state} /> };
}

describe("useAsync", () => {
  test("loading until the data is in, then the data", async () => {
    const { p, loads } = mountRows("webapp");
    expect(p.frame()).toBe("loading=true data=- error=-");
    expect(loads.map((l) => l.project)).toEqual(["webapp"]);
    loads[0].resolve("3 snapshots · 中文");
    expect(await p.until((f) => f.startsWith("loading=false"), "the data")).toBe(
      "loading=false data=3 snapshots · 中文 error=-",
    );
  });

  test("a failed load shows its error, not loading", async () => {
    const { p, loads } = mountRows("webapp");
    loads[0].reject(new Error("The store is locked."));
    expect(await p.until((f) => f.startsWith("loading=false"), "the error")).toBe(
      "loading=false data=- error=The store is locked.",
    );
  });

  test("reload() loads again, keeps the old data in sight meanwhile, and resolves only once the new data is in", async () => {
    const { p, loads, state } = mountRows("webapp");
    loads[0].resolve("one");
    await p.until((f) => f.includes("data=one"), "the first data");
    let resolved = false;
    const reloaded = state.current!.reload().then(() => (resolved = true));
    await p.until(() => loads.length === 2, "the second load");
    expect(await p.until((f) => f.startsWith("loading=true"), "loading again")).toBe(
      "loading=true data=one error=-",
    );
    expect(resolved).toBe(false);
    loads[1].resolve("two");
    await reloaded;
    expect(await p.until((f) => f.startsWith("loading=false"), "the new data")).toBe(
      "loading=false data=two error=-",
    );
  });

  test("new inputs load again; loads overtaken by a newer one answer no reload waiting, and the newest data shows", async () => {
    const { p, loads, state, tree } = mountRows("webapp");
    p.rerender(tree("api"));
    await p.until(() => loads.length === 2, "the load for the new project");
    let resolved = false;
    const reloaded = state.current!.reload().then(() => (resolved = true));
    await p.until(() => loads.length === 3, "the reload");
    loads[0].resolve("webapp rows");
    loads[1].resolve("api rows, first load");
    // Neither overtaken load answers the reload's waiter: the promise jobs their settling queued all run first.
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(resolved).toBe(false);
    loads[2].resolve("api rows");
    await reloaded;
    expect(await p.until((f) => f.startsWith("loading=false"), "the newest data")).toBe(
      "loading=false data=api rows error=-",
    );
  });
});
