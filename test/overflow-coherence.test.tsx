// An overflow (OVF_) snapshot restores Layer 1 of its own over the Layer 2 of the full snapshot it
// extends. Everything that shows or compares a snapshot must agree with what `load` restores: the
// TUI's delete question, the TUI's snapshot view, and `mindsave diff` (CLI, and `d` in the TUI).
import { afterEach, describe, expect, test } from "bun:test";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { fromFields } from "../src/engine/snapshots/input.ts";
import { projectSnapshots, restoreById } from "../src/engine/snapshots/catalog.ts";
import { deleteSnapshot } from "../src/engine/snapshots/manage.ts";
import { retireCandidates } from "../src/engine/memory/retire.ts";
import type { Session } from "../src/engine/session.ts";
import { closeAll, KEY, mount, openStore } from "./tui-harness.tsx";
import { ok, okJson } from "./helpers.ts";

afterEach(closeAll);

const full = async (session: Session, goal: string, constraints: string[], decisions: string[] = []) =>
  (
    await saveSnapshot(session, {
      input: fromFields({ goal, state: "s", next_action: "n", constraints, decisions }),
    })
  ).snapshot;
const overflow = async (session: Session, goal: string) =>
  (
    await saveSnapshot(session, {
      input: fromFields({ goal, state: "almost", next_action: "tests" }),
      overflow: true,
    })
  ).snapshot;

/** A wrapped status line read as one sentence. */
const flat = (f: string) => f.replace(/\s+/g, " ");
const view = (snapshotId: string) => [{ name: "home" as const }, { name: "snapshot" as const, snapshotId }];
const names = async (session: Session, projectId: string) =>
  (await projectSnapshots(session, projectId)).map((s) => s.name);

describe("TUI delete of the full snapshot an overflow one builds on", () => {
  test("x asks with where the overflow snapshot takes its Layer 2 afterwards (an older full one, else Layer 1 only; none builds on it: the plain question); y deletes and load agrees", async () => {
    const { session } = await openStore("mindsave-ovf-delete-");
    const older = await full(session, "older plan", ["no Redis"]);
    const base = await full(session, "Ship v2", ["no new deps"], ["use zod"]);
    const ovf = await overflow(session, "Ship v2");
    const later = await full(session, "later plan", ["no Mongo"]);
    const projectId = ovf.project_id;
    expect((await restoreById(session, ovf.id)).block.text).toContain(
      `overflow (Layer 1; Layer 2 from ${base.name})`,
    );

    // Saved after the overflow one, so none builds on it: the plain question.
    const h0 = mount(session, { initial: view(later.id), columns: 120, rows: 30 });
    await h0.until((x) => x.includes("Layer 1") && x.includes("x delete"), "the later snapshot's view");
    h0.press("x");
    const plain = flat(await h0.until((x) => x.includes("y to delete"), "the plain question"));
    expect(plain).toContain(`Delete ${later.name}? y to delete, any other key to keep it.`);
    expect(plain).not.toContain("takes its Layer 2");
    h0.press("n");

    const h = mount(session, { initial: view(base.id), columns: 120, rows: 30 });
    await h.until((x) => x.includes("Layer 1") && x.includes("x delete"), "the full snapshot's view");
    h.press("x");
    let f = flat(await h.until((x) => x.includes("y to delete"), "the delete question"));
    expect(f).toContain(
      `Delete ${base.name}? ${ovf.name} takes its Layer 2 from this one; afterwards it takes it from ${older.name}. y to delete, any other key to keep it.`,
    );
    h.press("n");
    await h.until((x) => x.includes("Delete cancelled."), "kept");
    expect(await names(session, projectId)).toEqual([later.name, ovf.name, base.name, older.name]);
    h.press("x");
    await h.until((x) => x.includes("y to delete"), "the question again");
    h.press("y");
    await h.until((x) => !x.includes("x delete"), "the view left after the delete");
    expect(await names(session, projectId)).toEqual([later.name, ovf.name, older.name]);
    const after = (await restoreById(session, ovf.id)).block.text;
    expect(after).toContain(`overflow (Layer 1; Layer 2 from ${older.name})`);
    expect(after).toContain("- no Redis");

    // The last full one: nothing is left to take Layer 2 from.
    const h2 = mount(session, { initial: view(older.id), columns: 120, rows: 30 });
    await h2.until((x) => x.includes("Layer 1") && x.includes("x delete"), "the older snapshot's view");
    h2.press("x");
    f = flat(await h2.until((x) => x.includes("y to delete"), "the delete question"));
    expect(f).toContain(
      `${ovf.name} takes its Layer 2 from this one; no older full snapshot would be left, so afterwards it restores Layer 1 only.`,
    );
    h2.press("y");
    await h2.until((x) => !x.includes("x delete"), "deleted");
    expect((await restoreById(session, ovf.id)).block.text).toContain("overflow (Layer 1 only)");
  });
});

describe("TUI view of an overflow snapshot", () => {
  test("shows the Layer 2 load restores and where it comes from; Tab selects a borrowed constraint, r retires it; l restores the same; none left: Layer 1 only", async () => {
    const { session } = await openStore("mindsave-ovf-view-");
    const base = await full(session, "Ship v2", ["no new deps"], ["use zod"]);
    const ovf = await overflow(session, "Ship v2");
    const h = mount(session, { initial: view(ovf.id), columns: 120, rows: 40 });
    let f = await h.until(
      (x) => x.includes("Layer 2") && x.includes("next action"),
      "the overflow snapshot's view",
    );
    expect(f).toContain(`overflow (Layer 1; Layer 2 from ${base.name})`);
    expect(f).not.toContain("Layer 1 only");
    expect(flat(f)).toContain(
      `from ${base.name}, the full snapshot this overflow one extends: load restores it with this one`,
    );
    expect(f).toMatch(/constraints\n\s*• no new deps/);
    expect(f).toMatch(/decisions\n\s*• use zod/);
    expect(f).not.toContain("(empty)");

    h.press(KEY.tab);
    await h.until((x) => /›[^\n]*no new deps/.test(x), "the borrowed constraint selected");
    h.press("r");
    f = await h.until(
      (x) => x.includes("Retired the constraint (never restored; r undoes): no new deps"),
      "the retirement",
    );
    expect(f).toMatch(/× no new deps +\(retired/);
    expect((await retireCandidates(session)).retired.map((r) => [r.kind, r.text])).toEqual([
      ["constraint", "no new deps"],
    ]);

    h.press(KEY.esc, "l");
    await h.until(() => h.exited.called, "the restore block printed");
    expect(h.exited.output).toContain(`Layer 2 from ${base.name}`);
    expect(h.exited.output).toContain("- use zod");
    expect(h.exited.output).not.toContain("no new deps");

    // No full snapshot left to extend: Layer 1 only, and an empty Layer 2.
    await deleteSnapshot(session, base.name);
    const h2 = mount(session, { initial: view(ovf.id), columns: 120, rows: 40 });
    f = await h2.until(
      (x) => x.includes("Layer 2") && x.includes("next action"),
      "the overflow snapshot's view again",
    );
    expect(f).toContain("overflow (Layer 1 only)");
    expect(f).toContain("(empty)");
    expect(f).not.toContain("use zod");
  });
});

describe("diff compares the Layer 2 each snapshot restores", () => {
  /** A project "webapp" with a store of its own; `cli`/`json` run the real CLI there. */
  async function fixture() {
    const { session, repo, env } = await openStore("mindsave-ovf-diff-");
    const at = (args: string[]) => [...args, "--home", session.home.dir];
    return {
      session,
      cli: async (args: string[]) => (await ok(at(args), { cwd: repo, env })).stdout,
      json: (args: string[]) => okJson(at(args), { cwd: repo, env }),
    };
  }

  test("full → overflow: nothing removed from Layer 2, and the overflow side says whose Layer 2 it restores; real changes still show", async () => {
    const t = await fixture();
    // Saved in this process: `mindsave diff` is what this tries.
    const base = (await full(t.session, "Ship v2", ["no new deps"], ["use zod"])).name;
    const ovf = (await overflow(t.session, "Ship v2")).name;

    const text = await t.cli(["diff"]);
    expect(text.split("\n")[0]).toMatch(
      new RegExp(`^${base} \\(.*\\) → ${ovf} \\(.*, Layer 2 from ${base}\\)$`),
    );
    expect(text).toContain('state: "s" → "almost"');
    expect(text).not.toContain("constraint: no new deps");
    expect(text).not.toContain("decision: use zod");
    const d = await t.json(["diff", base, ovf]);
    expect(d.to.layer2_from).toBe(base);
    expect(d.from.layer2_from).toBeUndefined();
    expect([d.constraints.removed, d.decisions.removed, d.constraints.added, d.decisions.added]).toEqual([
      [],
      [],
      [],
      [],
    ]);

    // A later full snapshot that really changes Layer 2: the change shows, from the borrowed one.
    const next = (await full(t.session, "Ship v3", ["no deps at all"], ["use zod"])).name;
    const later = await t.cli(["diff", ovf, next]);
    expect(later).toContain(`Layer 2 (${ovf}: from ${base})`);
    expect(later).toContain("+ constraint: no deps at all");
    expect(later).toContain("- constraint: no new deps");
    expect(later).not.toContain("decision: use zod");
    t.session.close();
  });

  test("d in the TUI's picker on an overflow snapshot: no Layer 2 removed", async () => {
    const { session } = await openStore("mindsave-ovf-diff-tui-");
    const base = await full(session, "Ship v2", ["no new deps"], ["use zod"]);
    const ovf = await overflow(session, "Ship v2");
    const h = mount(session, {
      initial: [{ name: "home" }, { name: "picker", projectId: ovf.project_id, projectName: "webapp" }],
      columns: 120,
      rows: 30,
    });
    await h.until((x) => x.includes("webapp · 2 snapshots"), "the picker");
    h.press("d");
    const f = await h.until(
      (x) => x.includes("webapp · what changed") && !x.includes("Comparing…"),
      "the diff",
    );
    expect(flat(f)).toContain(`Layer 2 from ${base.name})`);
    expect(f).toContain('state: "s" → "almost"');
    expect(f).not.toContain("no new deps");
    expect(f).not.toContain("use zod");
  });
});
