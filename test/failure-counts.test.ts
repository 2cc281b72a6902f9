// A failure's repeat_count after sync: each store counts its own repeats, so a drive and a home on
// one laptop (one host id) add up, as two laptops do, and no sync counts anything twice.
import { describe, expect, test } from "bun:test";
import { ok, okJson, twoLaptops, type LaptopWithClone } from "./helpers.ts";
import { fail } from "./engine-setup.ts";

/**
 * Records the failure `times` times in the store at `home`, from laptop `l` (its host id): in this
 * process, through the engine's record (as `mindsave fail`'s); sync is what is tested.
 */
async function failTimes(l: LaptopWithClone, home: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++)
    await fail({ home, cwd: l.repo, env: l.env }, "websocket reconnect", "the proxy drops it");
}

async function repeats(l: LaptopWithClone, home: string): Promise<number> {
  const graph = (await okJson(["failures", "--home", home], l.opts())).failure_graph;
  return graph.project["websocket reconnect"].repeat_count;
}

describe("failure counts across stores", () => {
  test("a drive and a home on one laptop (one host id): 2 repeats on one and 3 on the other are 5 after sync, on both, and stay 5", async () => {
    const w = twoLaptops("mindsave-counts-");
    await failTimes(w.a, w.drive, 2);
    await failTimes(w.a, w.a.home, 3);
    await ok(["sync", w.drive, "--home", w.a.home], w.a.opts());
    expect(await repeats(w.a, w.a.home)).toBe(5);
    expect(await repeats(w.a, w.drive)).toBe(5);
    // A second sync, either way round, counts nothing twice.
    await ok(["sync", w.drive, "--home", w.a.home], w.a.opts());
    await ok(["sync", w.a.db, "--home", w.drive], w.a.opts());
    expect(await repeats(w.a, w.a.home)).toBe(5);
    expect(await repeats(w.a, w.drive)).toBe(5);
    // One more repeat on the drive counts once more everywhere.
    await failTimes(w.a, w.drive, 1);
    await ok(["sync", w.drive, "--home", w.a.home], w.a.opts());
    expect(await repeats(w.a, w.a.home)).toBe(6);
  }, 60_000);

  test("two laptops still add up through the drive: 2 on laptop A and 3 on laptop B are 5, the drive's own 1 makes 6", async () => {
    const w = twoLaptops("mindsave-counts-");
    await failTimes(w.a, w.a.home, 2);
    await failTimes(w.b, w.b.home, 3);
    await failTimes(w.b, w.drive, 1);
    await ok(["sync", w.drive, "--home", w.a.home], w.a.opts());
    await ok(["sync", w.drive, "--home", w.b.home], w.b.opts());
    await ok(["sync", w.drive, "--home", w.a.home], w.a.opts());
    expect(await repeats(w.a, w.a.home)).toBe(6);
    expect(await repeats(w.b, w.b.home)).toBe(6);
    expect(await repeats(w.a, w.drive)).toBe(6);
  }, 60_000);
});
