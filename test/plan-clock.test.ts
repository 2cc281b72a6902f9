// A plan step's time comes from the store's hybrid clock, not the laptop's wall clock alone: a
// laptop whose clock is two hours behind, having synced in the other laptop's progress, still
// times its own later change after it, so a concurrent merge keeps that change. Run in this
// process with the engine (the laptops' clocks are set here), on real store files.
import { describe, expect, test } from "bun:test";
import { childEnv, twoLaptops, type LaptopWithClone } from "./helpers.ts";
import { Session } from "../src/engine/session.ts";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { applyFlags, emptyInput } from "../src/engine/snapshots/input.ts";
import { markStep, planOf, setPlan } from "../src/engine/memory/plan.ts";
import { openPeer, syncWith } from "../src/engine/sync/sync.ts";

const HOUR = 60 * 60 * 1000;

/** Runs `fn` on laptop `l` with its clock `behind` ms behind this machine's. */
async function on<T>(l: LaptopWithClone, behind: number, fn: (s: Session) => Promise<T>): Promise<T> {
  const s = await Session.open(
    { home: l.home, cwd: l.repo, env: childEnv(l.env), now: () => new Date(Date.now() - behind) },
    { write: true },
  );
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

async function sync(l: LaptopWithClone, behind: number, peerDb: string): Promise<void> {
  await on(l, behind, async (s) => {
    const peer = await openPeer(peerDb, childEnv(l.env));
    try {
      await syncWith(s, peer, { localLocation: l.home });
    } finally {
      await peer.store.closeAsync();
    }
  });
}

const steps = async (l: LaptopWithClone, behind: number) =>
  (await on(l, behind, (s) => planOf(s))).plan!.map((p) => `${p.status} ${p.content}`);

describe("plan steps timed by the store's clock", () => {
  test("a step reopened on a laptop whose clock is 2 h behind, after it synced in the step's completion, stands against the other laptop's concurrent progress", async () => {
    const w = twoLaptops("mindsave-plan-clock-");
    const A = 2 * HOUR; // laptop A's clock is two hours behind
    await on(w.b, 0, async (s) => {
      await saveSnapshot(s, {
        input: applyFlags(emptyInput(), { goal: "Ship the release", state: "started", next: "migrate" }),
      });
      await setPlan(s, ["migrate the schema", "write the docs", "tag the release"]);
      await markStep(s, "1", "done");
    });
    await sync(w.b, 0, w.driveDb);
    await sync(w.a, A, w.driveDb);
    expect(await steps(w.a, A)).toEqual([
      "completed migrate the schema",
      "pending write the docs",
      "pending tag the release",
    ]);

    // Between two syncs: A reopens step 1 (its migration was wrong); B finishes step 2.
    await on(w.a, A, (s) => markStep(s, "1", "pending"));
    await on(w.b, 0, (s) => markStep(s, "2", "done"));
    await sync(w.b, 0, w.driveDb);
    await sync(w.a, A, w.driveDb);
    await sync(w.b, 0, w.driveDb);
    const expected = ["pending migrate the schema", "completed write the docs", "pending tag the release"];
    expect(await steps(w.a, A)).toEqual(expected);
    expect(await steps(w.b, 0)).toEqual(expected);
  });
});
