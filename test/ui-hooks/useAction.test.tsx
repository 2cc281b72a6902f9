// useAction: an action that writes (add, remove, retire) marks the screen busy while it runs, puts
// its outcome, or the engine's refusal, on the status line, and hands held keys on once it is over.
import { afterEach, describe, expect, test } from "bun:test";
import { Text } from "ink";
import { useState } from "react";
import { useAction, type Action } from "../../ui/hooks/useAction.ts";
import { probe, unmountAll } from "./probe.tsx";

afterEach(unmountAll);

/** A screen's status line, and its action handed to the test. */
function Screen({ action }: { action: { current?: Action } }) {
  const [status, setStatus] = useState<string | undefined>("ready");
  action.current = useAction(setStatus);
  return <Text>{`status=${status ?? "none"}`}</Text>;
}

/** A promise the test settles by hand: the work an action waits on. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

function mountScreen() {
  const action: { current?: Action } = {};
  const p = probe(<Screen action={action} />);
  return { p, action: () => action.current! };
}

describe("useAction", () => {
  test("busy while the work runs, not before nor after; its sentence goes to the status line", async () => {
    const { p, action } = mountScreen();
    const work = deferred<string>();
    expect(action().busy()).toBe(false);
    const done = action().run(() => work.promise);
    expect(action().busy()).toBe(true);
    work.resolve("Added rule 3: 用 pnpm");
    await done;
    expect(action().busy()).toBe(false);
    expect(await p.until((f) => f !== "status=ready", "the outcome")).toBe("status=Added rule 3: 用 pnpm");
  });

  test("work that says nothing leaves the status line as it was", async () => {
    const { p, action } = mountScreen();
    await action().run(async () => {});
    expect(action().busy()).toBe(false);
    expect(p.frame()).toBe("status=ready");
  });

  test("the engine's refusal is its one sentence on the status line, and the screen is not left busy", async () => {
    const { p, action } = mountScreen();
    await action().run(async () => {
      throw new Error("There is no rule 9 (this project has 2).");
    });
    expect(action().busy()).toBe(false);
    expect(await p.until((f) => f !== "status=ready", "the refusal")).toBe(
      "status=There is no rule 9 (this project has 2).",
    );
  });

  test("the keys held meanwhile are handed on once it is over, whether it worked or not, and only then", async () => {
    const { action } = mountScreen();
    let handedOn = 0;
    action().release(() => handedOn++);
    const work = deferred<string>();
    const done = action().run(() => work.promise);
    expect(handedOn).toBe(0);
    work.resolve("done");
    await done;
    expect(handedOn).toBe(1);
    await action().run(async () => {
      throw new Error("refused");
    });
    expect(handedOn).toBe(2);
  });
});
