// The picker leaves archived snapshots out (retention, issue 32) and `a` shows them, marked as
// archived; `a` again hides them. A real temp store written through the engine.
import { afterEach, describe, expect, test } from "bun:test";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { fromFields } from "../src/engine/snapshots/input.ts";
import { closeAll, mount, openStore } from "./tui-harness.tsx";
import { resolveProject } from "../src/engine/projects/resolve.ts";

afterEach(closeAll);

describe("the picker and archived snapshots", () => {
  test("archived ones are out of the default view; a shows them marked archived, a again hides them", async () => {
    const { session } = await openStore("mindsave-tui-archived-");
    for (const goal of ["oldest 最早 work", "middle work", "newest work"]) {
      await saveSnapshot(session, { input: fromFields({ goal, state: "s", next_action: "n" }), keep: 2 });
    }
    const projectId = (await resolveProject(session, { create: false }))!.project.id;
    const h = mount(session, { initial: [{ name: "picker", projectId, projectName: "webapp" }] });
    let f = await h.until((x) => x.includes("webapp · 2 snapshots"), "the listed two");
    expect(f).toContain("newest work");
    expect(f).not.toContain("oldest 最早 work");
    h.press("a");
    f = await h.until((x) => x.includes("3 snapshots (archived too)"), "the archived one shown");
    expect(f).toMatch(/oldest_\S*\s+\S+\s+archived\s+oldest 最早 work/);
    expect(f).toMatch(/newest_work\S*\s+\S+\s+in progress/);
    h.press("a");
    f = await h.until((x) => x.includes("webapp · 2 snapshots") && !x.includes("archived too"), "hidden again");
    expect(f).not.toContain("oldest 最早 work");
  });
  test("the snapshot screen's header says archived for an archived snapshot, nothing for a listed one", async () => {
    const { session } = await openStore("mindsave-tui-archived-screen-");
    const saved = [];
    for (const goal of ["oldest 最早 work", "middle work", "newest work"]) {
      saved.push((await saveSnapshot(session, { input: fromFields({ goal, state: "s", next_action: "n" }), keep: 2 })).snapshot);
    }
    const old = mount(session, { initial: [{ name: "snapshot", snapshotId: saved[0].id }] });
    const f = await old.until((x) => x.includes("oldest 最早 work"), "the archived snapshot's screen");
    const header = (frame: string) => frame.split("\n").find((l) => l.startsWith("saved "));
    expect(header(f)).toMatch(/in progress \S archived$/);
    const listed = mount(session, { initial: [{ name: "snapshot", snapshotId: saved[2].id }] });
    const g = await listed.until((x) => x.includes("newest work"), "the listed snapshot's screen");
    expect(header(g)).toMatch(/in progress$/);
  });
});
