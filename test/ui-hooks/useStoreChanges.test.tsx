// useStoreChanges: a save made by another process while the TUI is open (an agent's hook, a
// terminal) is noticed on the next tick of the app's clock, from SQLite's data_version on the open
// connection; the TUI's own writes are not "changes by someone else". Real store, a real CLI save
// in a subprocess, the clock moved by hand.
import { afterEach, describe, expect, test } from "bun:test";
import { Text } from "ink";
import { fromFields } from "../../src/engine/snapshots/input.ts";
import { saveSnapshot } from "../../src/engine/snapshots/save.ts";
import type { Session } from "../../src/engine/session.ts";
import { UiContext, type UiContextValue } from "../../ui/context.ts";
import { useStoreChanges } from "../../ui/hooks/useStoreChanges.ts";
import { AGES_EVERY_MS } from "../../ui/hooks/useTick.ts";
import { ok } from "../helpers.ts";
import { openStore } from "../tui-harness.tsx";
import { probe, testClock, unmountAll } from "./probe.tsx";

const open: Session[] = [];
afterEach(async () => {
  unmountAll();
  while (open.length) await open.pop()!.close();
});

function Watcher({ session, onChange }: { session: Session; onChange: () => void }) {
  useStoreChanges(session, onChange);
  return <Text>watching</Text>;
}

/**
 * The app's session, seen through a window that counts the hook's questions and answers (the real
 * store answers each; `hold` keeps answers back until `release`). A test waits for an answer, not for time.
 */
function counted(session: Session) {
  const seen = { asked: 0, answered: 0, hold: false };
  const gate: (() => void)[] = [];
  const watched = Object.create(session) as Session;
  Object.defineProperty(watched, "storeVersion", {
    value: async () => {
      seen.asked++;
      if (seen.hold) await new Promise<void>((res) => gate.push(res));
      const v = await session.storeVersion();
      seen.answered++;
      return v;
    },
  });
  const release = () => {
    seen.hold = false;
    for (const g of gate.splice(0)) g();
  };
  return { watched, seen, release };
}

async function watching(opts: { hold?: boolean } = {}) {
  const t = await openStore("mindsave-store-changes-");
  open.push(t.session);
  const clock = testClock(Date.parse("2026-11-23T12:00:00Z"));
  const { watched, seen, release } = counted(t.session);
  seen.hold = !!opts.hold;
  const changes = { n: 0 };
  const value = { session: t.session, now: clock.now, every: clock.every } as UiContextValue;
  const p = probe(
    <UiContext.Provider value={value}>
      <Watcher session={watched} onChange={() => changes.n++} />
    </UiContext.Provider>,
  );
  const answered = (n: number) => p.until(() => seen.answered >= n, `answer ${n} from the store`);
  /** Moves the clock one tick and waits for the store's answer to the question it asks. */
  const tick = async () => {
    const n = seen.answered + 1;
    clock.advance(AGES_EVERY_MS);
    await answered(n);
  };
  const saveFromTerminal = (goal: string) =>
    ok(["save", "--home", t.session.home.dir, "--goal", goal, "--state", "s", "--next", "n"], {
      cwd: t.repo,
      env: t.env,
    });
  return { t, p, clock, seen, release, changes, answered, tick, saveFromTerminal };
}

describe("useStoreChanges", () => {
  test("asks at once, to know where it starts: that first answer is no change", async () => {
    const w = await watching();
    await w.answered(1);
    expect(w.seen.asked).toBe(1);
    expect(w.changes.n).toBe(0);
  });

  test("a save by another process (the CLI) is a change on the next tick, once; no save, no change", async () => {
    const w = await watching();
    await w.answered(1);
    await w.tick();
    expect(w.changes.n).toBe(0);
    await w.saveFromTerminal("保存 from a terminal");
    await w.tick();
    expect(w.changes.n).toBe(1);
    await w.tick();
    expect(w.changes.n).toBe(1);
  });

  test("the TUI's own write on its connection is no change", async () => {
    const w = await watching();
    await w.answered(1);
    await saveSnapshot(w.t.session, {
      input: fromFields({ goal: "saved by the TUI itself", state: "s", next_action: "n" }),
    });
    await w.tick();
    expect(w.changes.n).toBe(0);
  });

  test("asks again only when a tick comes due", async () => {
    const w = await watching();
    await w.answered(1);
    w.clock.advance(AGES_EVERY_MS - 1);
    expect(w.seen.asked).toBe(1);
    w.clock.advance(1);
    expect(w.seen.asked).toBe(2);
  });

  test("never asks again while its question is unanswered (a slow disk): the next tick after the answer does", async () => {
    const w = await watching({ hold: true });
    expect(w.seen.asked).toBe(1);
    w.clock.advance(AGES_EVERY_MS);
    w.clock.advance(AGES_EVERY_MS);
    expect(w.seen.asked).toBe(1);
    w.release();
    await w.answered(1);
    w.clock.advance(AGES_EVERY_MS);
    expect(w.seen.asked).toBe(2);
  });

  test("unmounted, its timer stops", async () => {
    const w = await watching();
    await w.answered(1);
    expect(w.clock.running).toBe(1);
    w.p.unmount();
    expect(w.clock.running).toBe(0);
  });
});
