// retirement (the snapshot view's `r`): retires a constraint or decision of the newest snapshot,
// or brings a retired one back, through the engine's retire/unretire on a real store. The item is
// found by its text in the engine's own numbered lists, so the number given is always its own.
import { afterEach, describe, expect, test } from "bun:test";
import { retireCandidates } from "../../src/engine/memory/retire.ts";
import { fromFields } from "../../src/engine/snapshots/input.ts";
import { saveSnapshot } from "../../src/engine/snapshots/save.ts";
import type { Session } from "../../src/engine/session.ts";
import { toggleRetired } from "../../ui/hooks/retirement.ts";
import { openStore } from "../tui-harness.tsx";

const open: Session[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

/** A store whose project "webapp" has one snapshot with two constraints and two decisions. */
async function webapp() {
  const { session } = await openStore("mindsave-retirement-");
  open.push(session);
  await saveSnapshot(session, {
    input: fromFields({
      goal: "ship login",
      state: "s",
      next_action: "n",
      constraints: ["Use pnpm, not npm", "不要修改公开 API"],
      decisions: ["Keep JWT in cookies", "Drop Redis"],
    }),
  });
  return session;
}

/** What the engine lists now: "kind: text" for each candidate, and each retired item. */
async function lists(session: Session) {
  const { candidates, retired } = await retireCandidates(session);
  return {
    candidates: candidates.map((c) => `${c.kind}: ${c.text}`),
    retired: retired.map((r) => `${r.kind}: ${r.text}`),
  };
}

describe("toggleRetired", () => {
  test("retires the item named, not another (here the second constraint, in Chinese), and says so", async () => {
    const session = await webapp();
    const said = await toggleRetired(session, { kind: "constraint", text: "不要修改公开 API" });
    expect(said).toBe("Retired the constraint (never restored; r undoes): 不要修改公开 API");
    expect(await lists(session)).toEqual({
      candidates: ["constraint: Use pnpm, not npm", "decision: Keep JWT in cookies", "decision: Drop Redis"],
      retired: ["constraint: 不要修改公开 API"],
    });
  });

  test("a retired item is brought back by the same key (the one named, of two retired), and says so", async () => {
    const session = await webapp();
    await toggleRetired(session, { kind: "decision", text: "Drop Redis" });
    await toggleRetired(session, { kind: "decision", text: "Keep JWT in cookies" });
    const said = await toggleRetired(session, { kind: "decision", text: "Drop Redis" });
    expect(said).toBe("Brought back the decision (carried forward again): Drop Redis");
    expect((await lists(session)).retired).toEqual(["decision: Keep JWT in cookies"]);
    expect((await lists(session)).candidates).toContain("decision: Drop Redis");
  });

  test("the text is matched as the engine normalises it (case, spaces)", async () => {
    const session = await webapp();
    await toggleRetired(session, { kind: "constraint", text: "  use PNPM,   not npm " });
    expect((await lists(session)).retired).toEqual(["constraint: Use pnpm, not npm"]);
  });

  test("an item the newest snapshot does not restore (or of the other kind) is refused in one sentence, nothing retired", async () => {
    const session = await webapp();
    expect(await toggleRetired(session, { kind: "decision", text: "Use pnpm, not npm" })).toBe(
      "Only what the newest snapshot restores can be retired, and this decision is not in it any more.",
    );
    expect(await toggleRetired(session, { kind: "constraint", text: "Never deploy on Friday" })).toBe(
      "Only what the newest snapshot restores can be retired, and this constraint is not in it any more.",
    );
    expect((await lists(session)).retired).toEqual([]);
  });

  test("a newer snapshot without the item: it can no longer be retired from an older snapshot's view", async () => {
    const session = await webapp();
    await saveSnapshot(session, {
      input: fromFields({
        goal: "ship login",
        state: "s2",
        next_action: "n2",
        constraints: ["Use pnpm, not npm"],
        decisions: [],
      }),
    });
    expect(await toggleRetired(session, { kind: "decision", text: "Drop Redis" })).toBe(
      "Only what the newest snapshot restores can be retired, and this decision is not in it any more.",
    );
  });
});
