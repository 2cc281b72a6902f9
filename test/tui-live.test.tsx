// The TUI while a screen stays open, on a real temp store: a save or delete made by another process
// shows at the next tick, and ages and expiries follow the app's clock, without a key.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Session } from "../src/engine/session.ts";
import { addFact } from "../src/engine/memory/facts.ts";
import {
  closeAll,
  KEY,
  mount,
  SAVED_AT as T0,
  testClock,
  webappPicker as picker,
  webappStore as store,
} from "./tui-harness.tsx";
import { gitRepo, ok, tempDir } from "./helpers.ts";

afterEach(closeAll);

const MIN = 60_000;
/** The rows of a list that show `text`. */
const rowsWith = (frame: string, text: string) => frame.split("\n").filter((l) => l.includes(text));

describe("a save made by another process while the TUI is open", () => {
  test("shows in the open picker and the projects list at the next tick, without a key; the selection stays on its snapshot", async () => {
    const { session, projectId, repo, env } = await store(["alpha", "beta"]);
    const clock = testClock(T0 + 3 * MIN);
    const h = mount(session, { initial: picker(projectId), now: clock.now, every: clock.every });
    const pointed = (x: string) => x.split("\n").find((l) => l.trimStart().startsWith("›")) ?? "";
    await h.until(
      (x) => rowsWith(x, "_2026-11-23").length === 2 && pointed(x).includes("beta"),
      "the picker on beta",
    );
    h.press("j");
    await h.until((x) => pointed(x).includes("alpha"), "alpha selected");
    await ok(
      ["save", "--home", session.home.dir, "--goal", "gamma from a terminal", "--state", "s", "--next", "n"],
      { cwd: repo, env },
    );
    clock.advance(10_000);
    const f = await h.until((x) => x.includes("gamma"), "the new snapshot in the open picker");
    expect(pointed(f)).toContain("alpha");
    h.press("q");
    await h.until(
      (x) => x.includes("Projects (1)") && x.includes("gamma from a terminal"),
      "the projects list with the newest goal",
    );
    await ok(
      ["save", "--home", session.home.dir, "--goal", "delta from a terminal", "--state", "s", "--next", "n"],
      { cwd: repo, env },
    );
    clock.advance(10_000);
    await h.until((x) => x.includes("delta from a terminal"), "the list's newest goal, read again");
    // New projects saved elsewhere join the list (the current one first, then by name); the selected one stays selected.
    const project = async (name: string) => {
      await ok(
        [
          "save",
          "--home",
          session.home.dir,
          "--goal",
          `${name} saved elsewhere`,
          "--state",
          "s",
          "--next",
          "n",
        ],
        { cwd: gitRepo(join(tempDir(), name), { "own.txt": `${name}\n` }), env },
      );
      clock.advance(10_000);
    };
    await project("mmm-second");
    await h.until((x) => x.includes("Projects (2)"), "two projects");
    h.press("j");
    await h.until((x) => pointed(x).includes("mmm-second"), "mmm-second selected");
    await project("aaa-first-by-name");
    const three = await h.until((x) => x.includes("Projects (3)"), "three projects");
    expect(pointed(three)).toContain("mmm-second");
  });

  test("snapshots deleted elsewhere leave the open picker: a mark goes with its snapshot, the selection moves to the next one still there", async () => {
    const { session, projectId, repo, env } = await store(["one", "two", "three", "four"]);
    const clock = testClock(T0 + 3 * MIN);
    const h = mount(session, { initial: picker(projectId), now: clock.now, every: clock.every });
    const pointed = (x: string) => x.split("\n").find((l) => l.trimStart().startsWith("›")) ?? "";
    await h.until((x) => rowsWith(x, "_2026-11-23").length === 4, "the picker");
    h.press(" ", "j");
    await h.until(
      (x) => x.includes("1 marked") && pointed(x).includes("three_"),
      "four marked, three selected",
    );
    for (const name of ["four_2026-11-23", "three_2026-11-23"])
      await ok(["snapshots", "delete", name, "--home", session.home.dir], { cwd: repo, env });
    clock.advance(10_000);
    const f = await h.until((x) => rowsWith(x, "_2026-11-23").length === 2, "two rows left");
    expect(f).not.toContain("marked");
    expect(pointed(f)).toContain("two_");
  });
});

describe("ages follow the app's clock while a screen stays open", () => {
  test("the picker, the snapshot view and the projects list work their ages out again as the clock moves, without a key", async () => {
    const { session, projectId } = await store(["alpha", "beta"]);
    const clock = testClock(T0 + 3 * MIN);
    const h = mount(session, { initial: picker(projectId), now: clock.now, every: clock.every });
    let f = await h.until((x) => rowsWith(x, "_2026-11-23").length === 2, "the picker");
    for (const row of rowsWith(f, "_2026-11-23")) expect(row).toMatch(/_2026-11-23 +3m +in progress/);

    clock.advance(57 * MIN);
    f = await h.until(
      (x) => rowsWith(x, "_2026-11-23").every((row) => / 1h +in progress/.test(row)),
      "the ages an hour on",
    );
    expect(f).not.toMatch(/ 3m /);

    h.press(KEY.enter);
    await h.until(
      (x) => x.includes("saved 2026-11-23 09:00 UTC (1h ago)"),
      "the snapshot, saved an hour ago",
    );
    clock.advance(60 * MIN);
    await h.until(
      (x) => x.includes("saved 2026-11-23 09:00 UTC (2h ago)"),
      "the snapshot's age two hours on",
    );

    h.press("q", "q");
    await h.until((x) => x.includes("Projects (1)") && / 2h /.test(x), "the projects list");
    clock.advance(60 * MIN);
    await h.until(
      (x) => x.includes("Projects (1)") && / 3h /.test(x),
      "the newest snapshot's age three hours on",
    );
  });

  test("the facts screen: a fact expires on screen when its time comes, without a key", async () => {
    const { session, projectId } = await store(["facts"]);
    const at = await Session.open(
      { home: session.home.dir, cwd: session.cwd, env: session.env, now: () => new Date(T0) },
      { write: true },
    );
    await addFact(at, "the deploy lock is held", { ttl: "1m" });
    at.close();
    const clock = testClock(T0 + 45_000);
    const h = mount(session, {
      initial: [...picker(projectId), { name: "facts", projectId, projectName: "webapp" }],
      now: clock.now,
      every: clock.every,
    });
    await h.until(
      (x) => x.includes("the deploy lock is held") && x.includes("expires in 15s"),
      "the fresh fact",
    );
    clock.advance(30_000);
    await h.until((x) => x.includes("EXPIRED 15s ago") && x.includes("1 expired"), "the fact expired");
  });
});
