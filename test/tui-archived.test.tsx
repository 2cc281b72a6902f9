// The picker leaves archived snapshots out (retention, issue 32) and `a` shows them, marked as
// archived; `a` again hides them. A real temp store written through the engine.
import { afterEach, describe, expect, test } from "bun:test";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { fromFields } from "../src/engine/snapshots/input.ts";
import { closeAll, KEY, mount, openStore } from "./tui-harness.tsx";
import { width } from "../src/lib/text.ts";
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
    f = await h.until(
      (x) => x.includes("webapp · 2 snapshots") && !x.includes("archived too"),
      "hidden again",
    );
    expect(f).not.toContain("oldest 最早 work");
  });

  test("the snapshot screen's header says archived for an archived snapshot, nothing for a listed one", async () => {
    const { session } = await openStore("mindsave-tui-archived-screen-");
    const saved = [];
    for (const goal of ["oldest 最早 work", "middle work", "newest work"]) {
      saved.push(
        (await saveSnapshot(session, { input: fromFields({ goal, state: "s", next_action: "n" }), keep: 2 }))
          .snapshot,
      );
    }
    const old = mount(session, { initial: [{ name: "snapshot", snapshotId: saved[0].id }] });
    const f = await old.until((x) => x.includes("oldest 最早 work"), "the archived snapshot's screen");
    const header = (frame: string) => frame.split("\n").find((l) => l.startsWith("saved "));
    expect(header(f)).toMatch(/in progress \S archived$/);
    const listed = mount(session, { initial: [{ name: "snapshot", snapshotId: saved[2].id }] });
    const g = await listed.until((x) => x.includes("newest work"), "the listed snapshot's screen");
    expect(header(g)).toMatch(/in progress$/);
  });
  // Five saves, two kept listed: "zeppelin" is in two archived snapshots and one listed one.
  async function zeppelins() {
    const { session } = await openStore("mindsave-tui-archived-filter-");
    const saves: [string, string][] = [
      ["zeppelin 飞艇 first", "air"],
      ["zeppelin second", "air"],
      ["plain third", "air"],
      ["zeppelin fourth", "air"],
      ["newest plain", "sea"],
    ];
    for (const [goal, tag] of saves) {
      await saveSnapshot(session, {
        input: fromFields({ goal, state: "s", next_action: "n", tags: [tag] }),
        keep: 2,
      });
    }
    const projectId = (await resolveProject(session, { create: false }))!.project.id;
    return mount(session, { initial: [{ name: "picker", projectId, projectName: "webapp" }], columns: 80 });
  }

  test("with archived hidden, the count says how many are archived and that a shows them, within 80 columns", async () => {
    const h = await zeppelins();
    const f = await h.until((x) => x.includes("2 snapshots"), "the listed two");
    const title = f.split("\n")[0];
    expect(title).toContain("webapp · 2 snapshots · 3 archived (a shows them)");
    expect(width(title)).toBeLessThanOrEqual(80);
    h.press("a");
    const shown = await h.until((x) => x.includes("5 snapshots (archived too)"), "the archived shown");
    expect(shown).not.toContain("(a shows them)");
  });

  test("a filter with archived hidden finds only the listed ones and counts them; with a it finds the archived ones, marked", async () => {
    const h = await zeppelins();
    await h.until((x) => x.includes("2 snapshots"), "the listed two");
    h.press("/", "zeppelin", KEY.enter);
    let f = await h.until((x) => x.includes("1 of 2 match"), "one listed match");
    expect(f).toMatch(/zeppelin_fourth\S*\s+\S+\s+in progress\s+zeppelin fourth/);
    expect(f).not.toContain("zeppelin second");
    expect(f).not.toContain("飞艇");
    h.press("a");
    f = await h.until((x) => x.includes("3 of 5 match (archived too)"), "the archived matches too");
    expect(f).toMatch(/zeppelin_second\S*\s+\S+\s+archived\s+zeppelin second/);
    expect(f).toMatch(/zeppelin_飞艇\S*\s+\S+\s+archived\s+zeppelin 飞艇 first/);
    expect(f).toMatch(/zeppelin_fourth\S*\s+\S+\s+in progress/);
  });

  test("the tag filter with words follows the same rule: archived ones only with a, marked archived", async () => {
    const h = await zeppelins();
    await h.until((x) => x.includes("2 snapshots"), "the listed two");
    h.press("t", "air", KEY.enter);
    let f = await h.until((x) => x.includes("1 of 2 snapshots · #air"), "the one listed #air");
    expect(f).not.toContain("zeppelin second");
    h.press("/", "zeppelin", KEY.enter);
    f = await h.until((x) => x.includes("1 of 2 match · #air"), "the one listed #air zeppelin");
    expect(f).toContain("zeppelin fourth");
    expect(f).not.toContain("zeppelin second");
    h.press("a");
    f = await h.until((x) => x.includes("3 of 5 match (archived too) · #air"), "the archived #air zeppelins");
    expect(f).toMatch(/zeppelin_second\S*\s+\S+\s+archived\s+zeppelin second/);
    expect(f).not.toContain("plain third");
  });
});
