// Component tests of every TUI screen and key with ink-testing-library, on a real temp store
// written through the engine (no mocked data layer).
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTheme } from "../ui/theme.ts";
import { Session } from "../src/engine/session.ts";
import { resolveProject } from "../src/engine/projects/resolve.ts";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { fromFields } from "../src/engine/snapshots/input.ts";
import { projectSnapshots } from "../src/engine/snapshots/catalog.ts";
import { recordFailure, failuresFor, removeFailure } from "../src/engine/failures/record.ts";
import { newId } from "../src/engine/ids.ts";
import { addPeer } from "../src/engine/sync/sync.ts";
import { listProjects } from "../src/engine/projects/projects.ts";
import {
  fit,
  fitMiddle,
  fitStart,
  graphemes,
  pad,
  printable,
  truncate,
  width,
  wrap,
} from "../src/lib/text.ts";
import { rulesHere } from "../src/engine/memory/rules.ts";
import { nameCell, PICKER_KEYS } from "../ui/components/PickerScreen.tsx";
import { fieldWindow } from "../ui/components/TextField.tsx";
import { editField, field } from "../ui/hooks/textEdit.ts";
import { gitRepo, sql, tempDir } from "./helpers.ts";
import { closeAll, KEY, mount, openStore } from "./tui-harness.tsx";

afterEach(closeAll);

const DAY = 24 * 60 * 60 * 1000;

async function store(goals: string[], extra: { files?: Record<string, string> } = {}) {
  const { base, repo, env, session } = await openStore("mindsave-tui-", extra.files);
  for (const goal of goals) {
    await saveSnapshot(session, {
      input: fromFields(
        {
          goal,
          state: `state of ${goal}`,
          next_action: `next for ${goal}`,
          active_files: ["src/auth.ts", "src/gone.ts"],
          constraints: ["no tailwind"],
          decisions: ["use polling"],
        },
        `### Completed Steps\n1. archive of ${goal}`,
      ),
    });
  }
  return { base, repo, env, session };
}

/** Lone surrogates and U+FFFD: what a string cut in the middle of a character leaves behind. */
const BROKEN = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\uFFFD/;

/**
 * `count` more snapshots in the session's project, a second apart from 2026-01-01, named
 * bulk_00000…, copies of its snapshot with the goal `goal` ({i}: the row's number); returns the
 * project's id. Copied by one statement on the store file, the store's triggers indexing and
 * listing each copy as for a save: a write per row cost this file ~3 s of CPU for its 15,000
 * rows, and the TUI reads the rows, not how they came.
 */
async function bulk(session: Session, count: number, goal = "bulk goal {i}") {
  const ctx = (await resolveProject(session, { create: false }))!;
  const seed = (await projectSnapshots(session, ctx.project.id))[0];
  const db = session.home.dbPath;
  const columns = (await sql(db, "SELECT name FROM pragma_table_info('snapshots')")).map((r) =>
    String(r.name),
  );
  const copied: Record<string, string> = {
    // The seed's UUID with the row's number as its last 12 digits: unique, and still an id's shape.
    id: "substr(s.id, 1, 24) || printf('%012x', n.i)",
    name: "printf('bulk_%05d', n.i)",
    created_at: "strftime('%Y-%m-%dT%H:%M:%fZ', 1767225600 + n.i, 'unixepoch')",
    goal: "replace(?2, '{i}', n.i)",
  };
  await sql(
    db,
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?3 - 1)
     INSERT INTO snapshots(${columns.join(", ")})
     SELECT ${columns.map((c) => copied[c] ?? `s.${c}`).join(", ")} FROM n, snapshots s WHERE s.id = ?1`,
    [seed.id, goal, count],
  );
  return ctx.project.id;
}

describe("where the TUI opens", () => {
  test("inside a project: on its snapshot picker, with q and Esc going to the projects list", async () => {
    const { session } = await store(["first goal", "second goal"]);
    const h = mount(session);
    await h.until(
      (x) => x.includes("webapp · 2 snapshots") && /› {2}second_goal/.test(x),
      "the project's picker, without pressing Enter",
    );
    expect(h.frame()).toContain("q projects");
    h.press("q");
    await h.until(
      (x) => x.includes("Projects (1)") && /›●webapp/.test(x),
      "the projects list, this project selected",
    );
    h.press(KEY.enter);
    await h.until((x) => x.includes("webapp · 2 snapshots"), "the picker again");
    h.press(KEY.esc);
    await h.until((x) => x.includes("Projects (1)"), "the projects list after Esc");
  });

  test("outside any project (and in a folder never saved from): on the projects list", async () => {
    const { session, base, env } = await store(["a goal"]);
    const outside = join(base, "elsewhere");
    mkdirSync(outside);
    const s2 = await Session.open({ home: session.home.dir, cwd: outside, env }, { write: false });
    const h = mount(s2);
    await h.until((x) => x.includes("Projects (1)") && x.includes("webapp"), "the projects list");
    const fresh = gitRepo(join(base, "never-saved"));
    const s3 = await Session.open({ home: session.home.dir, cwd: fresh, env }, { write: false });
    const h3 = mount(s3);
    await h3.until((x) => x.includes("Projects (1)"), "the projects list");
  });

  test("keys typed in one burst follow the screen they lead to (q then j then Enter opens the next snapshot)", async () => {
    const { session } = await store(["alpha", "beta", "gamma"]);
    const h = mount(session);
    await h.until((x) => x.includes("3 snapshots"), "the picker");
    h.press(`${KEY.enter}`);
    await h.until((x) => x.includes("goal         gamma"), "the newest snapshot");
    h.press(`qj${KEY.enter}`);
    await h.until((x) => x.includes("goal         beta"), "the second snapshot, opened from the picker");
    expect(h.exited.called).toBe(false);
    h.press(`qqj${KEY.enter}`); // snapshot → picker → projects list; j stays on the only project; Enter opens it again
    await h.until((x) => x.includes("3 snapshots"), "the picker again");
  });
});

describe("home screen", () => {
  test("shows home, host, projects with root, count, age and newest goal; preselects the current project", async () => {
    const { session, base } = await store(["first goal", "newest goal"]);
    // A second project, saved from another folder, with no root on this host.
    const other = gitRepo(join(base, "other"));
    const s2 = await Session.open(
      {
        home: session.home.dir,
        cwd: other,
        env: { ...process.env, HOME: join(base, "home2"), MINDSAVE_HOST: "laptop-b" },
      },
      { write: true },
    );
    await saveSnapshot(s2, { input: fromFields({ goal: "work on the other laptop" }) });
    s2.close();
    const h = mount(session, { initial: [{ name: "home" }] });
    const f = await h.until((x) => x.includes("webapp") && x.includes("other"), "both projects");
    // The home in full, or its start cut ("…") when the header is too narrow for a long temp path.
    const shown = f.match(/ home (.+?) · host tui-host/)?.[1] ?? "";
    expect(shown.endsWith("store")).toBe(true);
    expect(
      shown === session.home.dir || (shown.startsWith("…") && session.home.dir.endsWith(shown.slice(1))),
    ).toBe(true);
    expect(f).toContain("2 snaps");
    expect(f).toContain("newest goal");
    expect(f).toContain("not on this host");
    expect(f).toMatch(/›●webapp/); // selected and current
    h.press("j");
    await h.until((x) => /›.other/.test(x), "the selection on the second project");
    h.press("k");
    await h.until((x) => /›●webapp/.test(x), "the selection back on the first");
    h.press("q");
    await h.until(() => h.exited.called, "quit");
    expect(h.exited.output).toBeUndefined();
  });

  test("Enter opens the picker; a project with one snapshot opens it directly; f opens the failure graph; ? shows keys", async () => {
    const { session } = await store(["one", "two"]);
    const h = mount(session, { initial: [{ name: "home" }] });
    await h.until((x) => x.includes("webapp"), "the project");
    h.press("?");
    await h.until((x) => x.includes("Keys · projects"), "the key help");
    h.press("?");
    await h.until((x) => x.includes("Projects (1)"), "home again");
    h.press(KEY.enter);
    await h.until((x) => x.includes("2 snapshots"), "the picker");
    h.press("q");
    await h.until((x) => x.includes("Projects (1)"), "home again");
    h.press("f");
    await h.until((x) => x.includes("Failure graph"), "the failure graph");

    const single = await store(["only snapshot"]);
    const h2 = mount(single.session, { initial: [{ name: "home" }] });
    await h2.until((x) => x.includes("webapp"), "the project");
    h2.press(KEY.enter);
    await h2.until(
      (x) => x.includes("Layer 1") && x.includes("only snapshot"),
      "the snapshot opened directly",
    );
  });
});

describe("snapshot picker", () => {
  test("newest first; ↑/↓ j/k g/G move; / filters as you type with full-text search; Esc clears; Enter opens", async () => {
    const { session } = await store(["alpha refactor", "beta migration", "gamma refactor", "delta docs"]);
    const projectId = (await resolveProject(session, { create: false }))!.project.id;
    const h = mount(session, {
      initial: [{ name: "home" }, { name: "picker", projectId, projectName: "webapp" }],
    });
    let f = await h.until((x) => x.includes("4 snapshots"), "the list");
    const order = ["delta docs", "gamma refactor", "beta migration", "alpha refactor"].map((g) =>
      f.indexOf(g),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(f).toMatch(/› {2}delta_docs/);
    h.press(KEY.down, "j");
    await h.until((x) => /› {2}beta_migration/.test(x), "the third row selected");
    h.press(KEY.up);
    await h.until((x) => /› {2}gamma_refactor/.test(x), "the second row selected");
    h.press("G");
    await h.until((x) => /› {2}alpha_refactor/.test(x), "the last row");
    h.press("g");
    await h.until((x) => /› {2}delta_docs/.test(x), "the first row");
    h.press("/");
    await h.until((x) => x.includes("Enter keep"), "the filter prompt");
    h.press("refactor");
    f = await h.until((x) => x.includes("2 of 4 match"), "two matches");
    expect(f).not.toContain("beta migration");
    h.press(KEY.down, KEY.enter);
    await h.until((x) => !x.includes("Enter keep"), "the filter kept");
    h.press(KEY.enter);
    await h.until((x) => x.includes("Layer 1") && x.includes("alpha refactor"), "the second match opened");
    h.press("q");
    await h.until((x) => x.includes("2 of 4 match"), "back on the filtered list");
    h.press(KEY.esc);
    await h.until((x) => x.includes("4 snapshots") && x.includes("press / to filter"), "the filter cleared");
    h.press("f");
    await h.until((x) => x.includes("Failure graph"), "the failure graph");
    h.press("q");
    await h.until((x) => x.includes("4 snapshots"), "the picker again");
    h.press("?");
    await h.until((x) => x.includes("Keys · snapshots") && x.includes("filter"), "the picker's keys");
    h.press(KEY.esc);
    await h.until((x) => x.includes("4 snapshots"), "the picker again");
    h.press("q");
    await h.until((x) => x.includes("Projects (1)"), "home");
  });

  test("two snapshots of one name (two hosts, one day, met by a sync) are told apart by their id prefix", async () => {
    const s = await store(["Fix login bug", "Write the changelog"]);
    const ctx = (await resolveProject(s.session, { create: false }))!;
    const seed = (await projectSnapshots(s.session, ctx.project.id)).find((x) => x.goal === "Fix login bug")!;
    const twin = newId();
    await s.session.write(async (w) => {
      const full = (await w.getSnapshot(seed.id))!;
      await w.insertSnapshot({
        ...full,
        id: twin,
        goal: "Fix login bug on the other laptop",
        saved_host: "laptop-b",
        created_at: new Date(Date.parse(full.created_at) - 60_000).toISOString(),
      });
    });
    const h = mount(s.session, { columns: 120 });
    const f = await h.until((x) => x.includes("other laptop"), "both snapshots");
    const row = (goal: RegExp) => f.split("\n").find((l) => goal.test(l)) ?? "";
    expect(row(/other laptop/)).toContain(`id ${twin.slice(0, 8)}`);
    expect(row(/Fix login bug(?! on the other)/)).toContain(`id ${seed.id.slice(0, 8)}`);
    // A name no other row shares shows no id.
    expect(row(/Write the changelog/)).not.toContain("id ");
    // At 50 columns, where the goal column has no room for the id, the name keeps its id's end.
    const narrow = mount(s.session, { columns: 50 });
    const n = await narrow.until(
      (x) => x.split("\n").filter((l) => l.includes("in progress")).length === 3,
      "the three rows",
    );
    const ends = n
      .split("\n")
      .filter((l) => l.includes("in progress"))
      .map((l) => /~([0-9a-f]{4})/.exec(l)?.[1] ?? null);
    expect(ends.filter((e) => e !== null).sort()).toEqual([seed.id.slice(-4), twin.slice(-4)].sort());
  });

  test("5,000 snapshots: only the visible rows are rendered and the end is one key away", async () => {
    const { session } = await store(["seed"]);
    const projectId = await bulk(session, 5000);
    const h = mount(session, {
      initial: [{ name: "picker", projectId, projectName: "webapp" }],
      rows: 24,
      columns: 80,
    });
    const f = await h.until((x) => x.includes("5001 snapshots"), "the big list");
    expect(f.split("\n").filter((l) => l.includes("bulk_")).length).toBeLessThanOrEqual(20);
    expect(f.split("\n").length).toBeLessThanOrEqual(24);
    h.press("G");
    await h.until((x) => /› {2}bulk_00000/.test(x) && x.includes("5001/5001"), "the oldest row");
    h.press("g");
    await h.until((x) => /› {2}seed_/.test(x) && x.includes("1/5001"), "the newest row");
    h.press(KEY.pgdn);
    const page = await h.until((x) => !x.includes("1/5001") && /\d+\/5001/.test(x), "one page down");
    const at = Number(/(\d+)\/5001/.exec(page)![1]);
    expect(at).toBeGreaterThan(10);
    h.press(KEY.pgup);
    await h.until((x) => x.includes("1/5001"), "one page up");
  });
});

describe("snapshot view", () => {
  async function openView(goals = ["first", "target task"], rows = 30) {
    const t = await store(goals);
    writeFileSync(join(t.repo, "src", "auth.ts"), "changed after the save\n");
    await recordFailure(
      t.session,
      { item: "Tailwind", reason: "style conflict", increment: true, alternatives: ["CSS Modules"] },
      { projectId: (await resolveProject(t.session, { create: false }))!.project.id },
    );
    const list = await projectSnapshots(
      t.session,
      (await resolveProject(t.session, { create: false }))!.project.id,
    );
    const h = mount(t.session, {
      initial: [{ name: "home" }, { name: "snapshot", snapshotId: list[0].id }],
      rows,
    });
    await h.until((x) => x.includes("Layer 1"), "the snapshot");
    return { ...t, h, id: list[0].id, projectId: list[0].project_id };
  }

  test("lays out Layer 1 with ✓/✗ per file, Layer 2 with failures; Layer 3 only behind 3", async () => {
    const { h, repo } = await openView();
    const f = h.frame();
    const flat = f.replace(/\s+/g, " ");
    expect(f).toContain("goal         target task");
    expect(f).toContain("next action  next for target task");
    expect(flat).toContain(`~ ${join(repo, "src", "auth.ts")} changed since the snapshot`);
    expect(flat).toContain(`✗ ${join(repo, "src", "gone.ts")} missing on this host`);
    expect(f).toContain("• no tailwind");
    expect(f).toContain("• use polling");
    expect(f).toContain("Tailwind [×1 medium project]: style conflict → CSS Modules");
    expect(f).not.toContain("archive of target task");
    h.press("3");
    await h.until((x) => x.includes("archive of target task"), "Layer 3");
    h.press("3");
    await h.until((x) => !x.includes("archive of target task"), "Layer 3 hidden again");
  });

  test("l loads: the app exits with the restore block of this snapshot", async () => {
    const { h } = await openView();
    h.press("l");
    await h.until(() => h.exited.called, "exit");
    expect(h.exited.output).toContain("goal: target task");
    expect(h.exited.output).toContain("MindSave restored. Goal: target task.");
  });

  test("c copies the restore block with OSC 52", async () => {
    const { h } = await openView();
    h.press("c");
    await h.until((x) => x.includes("Copied the restore block"), "the copy message");
    const seq = h.terminal.find((d) => d.startsWith("\x1b]52;c;"))!;
    const text = Buffer.from(seq.slice(7, -1), "base64").toString("utf8");
    expect(text).toContain("goal: target task");
  });

  test("d marks completed; x then y deletes; x then anything else keeps; v verifies again; j/k scroll; q goes back", async () => {
    const { h, session, repo, id, projectId } = await openView(["keep me", "target task"], 14);
    h.press("d");
    await h.until((x) => x.includes("Marked") && x.includes("completed"), "the completed message");
    expect((await projectSnapshots(session, projectId)).find((s) => s.id === id)!.status).toBe("completed");
    writeFileSync(join(repo, "src", "gone.ts"), "now it exists\n");
    h.press("v");
    await h.until((x) => x.includes("Verified"), "the verify message");
    h.press("G");
    await h.until((x) => x.includes("press 3 to show it"), "the end of the snapshot");
    h.press("g");
    await h.until(
      (x) => x.includes("saved 20") && !x.replace(/\s+/g, " ").includes("missing on this host"),
      "the top, with the file now found",
    );
    h.press("j");
    await h.until((x) => !x.includes("saved 20"), "scrolled down one line");
    h.press("k");
    await h.until((x) => x.includes("saved 20"), "scrolled back");
    h.press("x");
    await h.until((x) => x.includes("y to delete"), "the confirmation");
    h.press("n");
    await h.until((x) => x.includes("Delete cancelled"), "the cancel message");
    expect((await projectSnapshots(session, projectId)).map((s) => s.id)).toContain(id);
    h.press("x", "y");
    await h.until((x) => x.includes("Projects (1)"), "back home after the delete");
    expect((await projectSnapshots(session, projectId)).map((s) => s.id)).not.toContain(id);
  });

  test("f opens the failure graph and q returns", async () => {
    const { h } = await openView();
    h.press("f");
    await h.until((x) => x.includes("Failure graph"), "the failure graph");
    h.press("q");
    await h.until((x) => x.includes("Layer 1"), "the snapshot again");
    h.press("?");
    await h.until((x) => x.includes("Keys · snapshot") && x.includes("OSC 52"), "the snapshot's keys");
  });
});

describe("snapshot view scrolling and Layer 3", () => {
  async function longSnapshot(rows = 24) {
    const t = await store([]);
    const steps = Array.from({ length: 40 }, (_, i) => `${i + 1}. archived step ${i + 1}`).join("\n");
    await saveSnapshot(t.session, {
      input: fromFields(
        {
          goal: "long snapshot",
          state: "s",
          next_action: "n",
          active_files: ["src/auth.ts"],
          constraints: Array.from({ length: 12 }, (_, i) => `constraint number ${i + 1}`),
          decisions: ["use polling"],
        },
        `### Completed Steps\n${steps}`,
      ),
    });
    const h = mount(t.session, { rows, columns: 80 });
    await h.until((x) => x.includes("1 snapshot"), "the picker");
    h.press(KEY.enter);
    await h.until((x) => x.includes("Layer 1"), "the snapshot");
    return { ...t, h };
  }

  test("a long snapshot says how much is below and that 3 shows Layer 3; 3 jumps there; ↑/↓ j/k PgUp/PgDn g/G scroll", async () => {
    const { h } = await longSnapshot();
    let f = h.frame();
    expect(f.split("\n").length).toBeLessThanOrEqual(24);
    expect(f).toMatch(/↓ \d+ more lines/);
    expect(f).toContain("3 → Layer 3 (cold archive, 41 lines)");
    expect(f).toContain("3 layer 3");
    expect(f).not.toContain("archived step 1");
    const below = Number(/↓ (\d+) more lines/.exec(f)![1]);
    h.press("j");
    await h.until((x) => x.includes(`↓ ${below - 1} more lines`) && x.includes("↑ 1 above"), "one line down");
    h.press(KEY.down);
    await h.until((x) => x.includes(`↓ ${below - 2} more lines`), "another line down");
    h.press("k", KEY.up);
    await h.until((x) => x.includes(`↓ ${below} more lines`) && !x.includes("above"), "back at the top");
    h.press(KEY.pgdn);
    f = await h.until((x) => x.includes("above"), "a page down");
    expect(Number(/↑ (\d+) above/.exec(f)![1])).toBe(Math.min(below, 20 - 1)); // a page: the visible lines but one
    h.press(KEY.pgup);
    await h.until((x) => !x.includes("above"), "a page up");
    h.press("3");
    f = await h.until(
      (x) => x.includes("Layer 3 · Cold Archive") && x.includes("archived step 1"),
      "Layer 3 at once, without scrolling",
    );
    expect(f.split("\n")[1]).toContain("Layer 3 · Cold Archive"); // at the top of the view
    expect(f).not.toContain("3 → Layer 3");
    h.press("G");
    f = await h.until((x) => x.includes("archived step 40") && x.includes("end"), "the end");
    expect(f).not.toMatch(/more lines/);
    h.press("3");
    await h.until(
      (x) => !x.includes("archived step") && x.includes("press 3 to show it"),
      "Layer 3 hidden again",
    );
    h.press("g");
    await h.until(
      (x) => x.includes("saved 20") && x.includes("3 → Layer 3"),
      "the top, with the Layer 3 hint still there",
    );
  });

  test("a short snapshot without Layer 3 says so and offers no 3 key; one with Layer 3 always shows the hint", async () => {
    const t = await store([]);
    await saveSnapshot(t.session, { input: fromFields({ goal: "no archive here", state: "s" }) });
    const h = mount(t.session, { rows: 24, columns: 80 });
    await h.until((x) => x.includes("1 snapshot"), "the picker");
    h.press(KEY.enter);
    let f = await h.until(
      (x) => x.includes("no archive here") && x.includes("Layer 3 (cold archive): empty."),
      "the snapshot",
    );
    expect(f).not.toContain("3 layer 3");
    expect(f).not.toMatch(/more lines/);
    h.press("3");
    await h.until((x) => x.includes("This snapshot has no Layer 3"), "the explanation");
    const withArchive = await store(["short with archive"]);
    const h2 = mount(withArchive.session, { rows: 24, columns: 80 });
    await h2.until((x) => x.includes("1 snapshot"), "the picker");
    h2.press(KEY.enter);
    f = await h2.until((x) => x.includes("Layer 1"), "the snapshot");
    expect(f).toContain("Layer 3 (cold archive, 2 lines) is never auto-restored: press 3 to show it.");
    expect(f).toContain("3 layer 3");
    // Said once: the bottom marker does not repeat the line that is on screen.
    expect(f).not.toContain("3 → Layer 3 (cold archive");
  });
});

describe("failure graph screen", () => {
  test("lists global and project failures; s sorts by repeat count or last seen; a adds; e edits; Esc cancels", async () => {
    const { session } = await store(["g"]);
    const projectId = (await resolveProject(session, { create: false }))!.project.id;
    await recordFailure(session, { item: "Redux", reason: "too heavy", increment: true }, { projectId });
    for (let i = 0; i < 3; i++)
      await recordFailure(
        session,
        { item: "Tailwind", reason: "style conflict", increment: true },
        { projectId },
      );
    // Seen a minute later, so "last seen" orders it first whatever the machine's speed.
    const later = await Session.open(
      {
        home: session.home.dir,
        cwd: session.cwd,
        env: session.env,
        now: () => new Date(Date.now() + 60_000),
      },
      { write: true },
    );
    await recordFailure(
      later,
      { item: "localStorage tokens", reason: "XSS", scope: "global", increment: true },
      { projectId: null },
    );
    await later.close();
    const h = mount(session, { initial: [{ name: "failures", projectId }] });
    let f = await h.until((x) => x.includes("Tailwind") && x.includes("localStorage tokens"), "the failures");
    expect(f).toContain("by repeat count");
    expect(f.indexOf("Tailwind")).toBeLessThan(f.indexOf("Redux"));
    expect(f).toMatch(/localStorage tokens\s+global/);
    h.press("s");
    f = await h.until((x) => x.includes("by last seen"), "the other sort");
    expect(f.indexOf("localStorage tokens")).toBeLessThan(f.indexOf("Tailwind"));

    h.press("a");
    await h.until((x) => x.includes("Add a failure"), "the add form");
    h.press("GraphQL");
    await h.until((x) => x.includes("GraphQL"), "the typed item");
    h.press(KEY.tab);
    h.press("team knows REST");
    await h.until((x) => x.includes("team knows REST"), "the typed reason");
    h.press(KEY.enter);
    await h.until((x) => x.includes("Recorded GraphQL"), "the saved failure");
    expect((await failuresFor(session, projectId)).find((x) => x.item === "GraphQL")).toMatchObject({
      reason: "team knows REST",
      scope: "project",
      repeat_count: 1,
    });

    h.press("g", "e");
    await h.until((x) => x.includes("Edit "), "the edit form");
    h.press(KEY.tab);
    h.press("Svelte stores");
    await h.until((x) => x.includes("Svelte stores"), "the typed alternative");
    h.press(KEY.enter);
    await h.until((x) => x.includes("Updated"), "the update");
    const edited = (await failuresFor(session, projectId)).find((x) =>
      x.alternatives.includes("Svelte stores"),
    );
    expect(edited).toBeDefined();

    h.press("a");
    await h.until((x) => x.includes("Add a failure"), "the add form");
    h.press(KEY.esc);
    await h.until((x) => x.includes("Cancelled"), "the form closed");
    h.press("?");
    await h.until((x) => x.includes("Keys · failure graph"), "the keys");
  });
});

describe("failure graph: sorting keeps the item, editing shows alternatives, scope is a toggle", () => {
  async function graph() {
    const { session, base, env } = await store(["g"]);
    const projectId = (await resolveProject(session, { create: false }))!.project.id;
    for (let i = 0; i < 3; i++)
      await recordFailure(
        session,
        {
          item: "Tailwind",
          reason: "style conflict",
          increment: true,
          alternatives: i ? [] : ["CSS Modules"],
        },
        { projectId },
      );
    const later = await Session.open(
      {
        home: session.home.dir,
        cwd: session.cwd,
        env: session.env,
        now: () => new Date(Date.now() + 60_000),
      },
      { write: true },
    );
    await recordFailure(
      later,
      { item: "Redux", reason: "too heavy", increment: true, alternatives: ["Zustand", "signals"] },
      { projectId },
    );
    await later.close();
    return { session, base, env, projectId };
  }

  test("s keeps the selected failure selected", async () => {
    const { session, projectId } = await graph();
    const h = mount(session, { initial: [{ name: "failures", projectId, projectName: "webapp" }] });
    let f = await h.until((x) => x.includes("Tailwind") && x.includes("Redux"), "the failures");
    expect(f).toContain("webapp + global");
    expect(f.indexOf("Tailwind")).toBeLessThan(f.indexOf("Redux"));
    h.press("j");
    await h.until((x) => /› Redux/.test(x), "Redux selected");
    h.press("s");
    f = await h.until((x) => x.includes("by last seen"), "sorted by last seen");
    expect(f.indexOf("Redux")).toBeLessThan(f.indexOf("Tailwind"));
    expect(f).toMatch(/› Redux/);
    h.press("s");
    f = await h.until((x) => x.includes("by repeat count"), "sorted by repeat count again");
    expect(f).toMatch(/› Redux/);
  });

  test("e (or Enter) shows the alternatives recorded already and adds one", async () => {
    const { session, projectId } = await graph();
    const h = mount(session, { initial: [{ name: "failures", projectId }] });
    await h.until((x) => /› Tailwind/.test(x), "the failures");
    h.press(KEY.enter);
    let f = await h.until((x) => x.includes("Edit Tailwind"), "the edit form");
    expect(f).toMatch(/alternatives:\s+CSS Modules/);
    expect(f).toContain("scope:           project");
    h.press(KEY.esc);
    await h.until((x) => x.includes("Cancelled"), "the form closed");
    h.press("j", "e");
    f = await h.until((x) => x.includes("Edit Redux"), "the edit form of Redux");
    expect(f).toMatch(/alternatives:\s+Zustand; signals/);
    h.press(KEY.tab, "MobX", KEY.enter);
    await h.until((x) => x.includes("Updated Redux"), "the update");
    expect(
      (await failuresFor(session, projectId)).find((x) => x.item === "Redux")!.alternatives.sort(),
    ).toEqual(["MobX", "Zustand", "signals"]);
    h.press("e");
    f = await h.until((x) => x.includes("Edit Redux"), "the edit form again");
    expect(f).toContain("MobX");
  });

  test("scope is a toggle: Space or ←/→ switch project/global, letters do nothing; without a project only global", async () => {
    const { session, projectId } = await graph();
    const h = mount(session, { initial: [{ name: "failures", projectId }] });
    await h.until((x) => x.includes("Tailwind"), "the failures");
    h.press("a", "GraphQL", KEY.tab, "team knows REST", KEY.tab);
    await h.until(
      (x) => x.includes("(•) project  ( ) global") && x.includes("Space/←/→ project or global"),
      "the scope toggle",
    );
    h.press("team");
    const f = await h.until((x) => x.includes("team knows REST"), "letters ignored");
    expect(f).toContain("(•) project  ( ) global");
    h.press(" ");
    await h.until((x) => x.includes("( ) project  (•) global"), "global");
    h.press("\x1b[C");
    await h.until((x) => x.includes("(•) project  ( ) global"), "project again");
    h.press("\x1b[D");
    await h.until((x) => x.includes("( ) project  (•) global"), "global again");
    h.press(KEY.enter);
    await h.until((x) => x.includes("Recorded GraphQL (global"), "the saved failure");
    expect((await failuresFor(session, null)).find((x) => x.item === "GraphQL")).toMatchObject({
      scope: "global",
      reason: "team knows REST",
    });

    const h2 = mount(session, { initial: [{ name: "failures", projectId: null }] });
    await h2.until((x) => x.includes("GraphQL"), "the global graph");
    h2.press("a", "Mongo", KEY.tab, "no joins", KEY.tab);
    await h2.until((x) => x.includes("( ) project (no project here)  (•) global"), "only global offered");
    h2.press(" ");
    await h2.until((x) => x.includes("only be global"), "the explanation");
    h2.press(KEY.enter);
    await h2.until((x) => x.includes("Recorded Mongo (global"), "the saved global failure");
  });
});

describe("sync screen", () => {
  test("no peers: no sync keys offered, and how to add one (a drive, mindsave sync PATH, --add-peer)", async () => {
    const { session } = await store(["alone"]);
    const h = mount(session, { initial: [{ name: "home" }, { name: "sync" }], columns: 80, rows: 24 });
    const f = await h.until(
      (x) => x.includes("Sync · 0 peers") && x.includes("No peers yet"),
      "the empty sync screen",
    );
    expect(f).toContain("mindsave sync PATH");
    expect(f).toContain("mindsave sync --add-peer PATH");
    expect(f).toContain("Plug in a MindSave drive");
    expect(f).not.toContain("Enter sync");
    expect(f).not.toContain("d dry run");
    expect(f).toContain("r look again");
    h.press("d", KEY.enter, "s");
    h.press("?");
    await h.until((x) => x.includes("Keys · sync"), "the keys (so the keys before were handled)");
    expect(h.frame()).not.toContain("Dry run");
  });

  test("from a drive, this laptop's home is offered as the peer", async () => {
    const { session, base } = await store(["on the drive"]);
    writeFileSync(join(session.home.dir, "drive.json"), "{}\n");
    const h = mount(session, { initial: [{ name: "home" }, { name: "sync" }], columns: 80, rows: 24 });
    const f = await h.until((x) => x.includes("Sync · 1 peer"), "the laptop's home as a peer");
    expect(f).toContain("this laptop's home");
    expect(f).toContain("Enter sync");
    expect(f).toContain(".mindsave/mindsave.db");
    expect(base).toBeTruthy();
  });

  test("lists peers with last sync; d shows what a sync would change; Enter syncs; q goes back", async () => {
    const a = await store(["on laptop A"]);
    const b = await store(["on laptop B"]);
    const peerDb = b.session.home.dbPath;
    b.session.close();
    await addPeer(a.session, peerDb);
    const h = mount(a.session, { initial: [{ name: "home" }, { name: "sync" }] });
    let f = await h.until((x) => x.includes("Sync · 1 peer") && x.includes(peerDb.slice(-20)), "the peer");
    expect(f).toContain("last sync never");
    h.press("d");
    f = await h.until((x) => x.includes("A sync would change:"), "the dry run");
    expect(f).toMatch(/into this store:\s+1 snapshot added/);
    expect(f).toContain("Dry run: nothing was changed.");
    h.press(KEY.enter);
    f = await h.until((x) => x.includes("Changed:"), "the sync");
    expect(f).toMatch(/into the peer:\s+1 snapshot added/);
    const other = await Session.open({ home: b.session.home.dir, cwd: b.repo, env: b.env }, { write: false });
    const goals: string[] = [];
    for (const p of await listProjects(other))
      goals.push(...(await projectSnapshots(other, p.id)).map((s) => s.goal));
    expect(goals.sort()).toEqual(["on laptop A", "on laptop B"]);
    await other.close();
    f = await h.until((x) => !x.includes("last sync never"), "the peer's last sync");
    // Its zone, as every time shown.
    expect(f).toMatch(/last sync \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    h.press("?");
    await h.until((x) => x.includes("Keys · sync") && x.includes("dry run"), "the sync keys");
    h.press(KEY.esc); // alone: Esc followed at once by a key reads as Alt+key in any terminal
    await h.until((x) => !x.includes("Keys · sync"), "the keys closed");
    h.press("q");
    await h.until((x) => x.includes("Projects (1)"), "home");
    h.press("s");
    await h.until((x) => x.includes("Sync · 1 peer"), "the sync screen from home");
  });
});

describe("10,001 snapshots, long names and multibyte text", () => {
  test("the filter says 500+ when the search stops at 500; counts are never cut; names are cut by whole characters", async () => {
    const base = tempDir("mindsave-tui-wide-");
    const name = "🔥🔥🚀💾".repeat(8);
    const repo = gitRepo(join(base, name));
    mkdirSync(join(base, "store"));
    const env = {
      ...process.env,
      HOME: join(base, "home"),
      MINDSAVE_HOST: "tui-host",
      MINDSAVE_HOST_NAME: "tui-host",
    };
    const session = await Session.open({ home: join(base, "store"), cwd: repo, env }, { write: true });
    await saveSnapshot(session, {
      input: fromFields({
        goal: "seed 👨‍👩‍👧‍👦 family e\u0301te\u0301 重构认证模块并修复令牌刷新问题以及所有相关的集成测试用例和文档说明",
      }),
    });
    await bulk(
      session,
      10000,
      "bulk goal {i} 👨‍👩‍👧‍👦 重构认证模块并修复令牌刷新问题以及所有相关的集成测试用例和文档说明",
    );
    const h = mount(session, { columns: 80, rows: 24 });
    await h.until((x) => x.includes("10001 snapshots"), "the picker", 20_000);
    h.press("/", "bulk");
    let f = await h.until((x) => x.includes("500+ of 10001 match"), "the capped count said as a cap", 20_000);
    expect(f).toContain("1/500+ (the first 500 matches");
    h.press(KEY.esc); // alone: Esc followed at once by a key reads as Alt+key
    await h.until((x) => x.includes("10001 snapshots"), "the filter cleared");
    h.press("/", "goal 9999");
    f = await h.until((x) => x.includes("1 of 10001 match"), "an exact count", 20_000);
    expect(f).not.toContain("+ of");
    h.press(KEY.esc, KEY.esc, "q");
    f = await h.until(
      (x) => x.includes("Projects (1)") && x.includes("10001 snaps"),
      "the projects list",
      20_000,
    );
    for (const line of f.split("\n")) {
      expect(width(line)).toBeLessThanOrEqual(80);
      expect(line).not.toMatch(BROKEN);
    }
    expect(f).toContain(`${"🔥🔥🚀💾".repeat(2)}🔥🔥🚀…`); // 24 columns: 11 emoji and the ellipsis, never half of one
    expect(h.frame()).toMatch(/👨‍👩‍👧‍👦/);
  });
});

describe("text helpers cut by grapheme cluster and display width", () => {
  const family = "👨‍👩‍👧‍👦";
  const flag = "🇫🇷";
  const accented = "e\u0301"; // e + combining acute
  test("width counts clusters: emoji and CJK two columns, combining marks none", () => {
    expect(width("abc")).toBe(3);
    expect(width(family)).toBe(2);
    expect(width(flag)).toBe(2);
    expect(width("❤️")).toBe(2);
    expect(width("重构")).toBe(4);
    expect(width(accented)).toBe(1);
    expect(width("a\x1b[31mb")).toBe(2); // the whole escape sequence is dropped, as fit and wrap drop it
    expect(width("x\uD83D")).toBe(1); // half a surrogate pair prints nothing here
  });
  test("fit and pad never split a cluster and never exceed the width", () => {
    for (const text of [
      family.repeat(5),
      flag.repeat(5),
      accented.repeat(9),
      "重构认证模块并修复",
      "🔥🔥🚀💾".repeat(4),
      `a${family}b${flag}c重${accented}`,
    ]) {
      for (let cols = 0; cols <= 12; cols++) {
        const cut = fit(text, cols);
        expect(width(cut)).toBeLessThanOrEqual(cols);
        expect(cut).not.toMatch(BROKEN);
        const body = cut.endsWith("…") ? cut.slice(0, -1) : cut;
        expect(text.startsWith(body)).toBe(true);
        expect(graphemes(text).slice(0, graphemes(body).length).join("")).toBe(body);
        if (cols > 0) expect(width(pad(text, cols))).toBe(cols);
      }
    }
    expect(fit(family.repeat(3), 5)).toBe(`${family}${family}…`);
    expect(fit("重构认证", 4)).toBe("重…"); // the second wide character would straddle the edge
    expect(fit(accented.repeat(4), 3)).toBe(`${accented}${accented}…`);
    expect(fit("abcdef", 2, "...")).toBe("ab"); // no room for the ellipsis: as much text as fits
    expect(truncate("  🔥🔥🔥  ", 5)).toBe("🔥🔥…");
    expect(fit("x\uD83D\uDD25\uD83D", 10)).toBe("x🔥"); // a cut-off half is dropped, not shown as �
  });
  test("fitStart keeps the end; wrap breaks between clusters; editField deletes a whole cluster", () => {
    expect(fitStart("/media/usb/mindsave", 10)).toBe("…/mindsave");
    expect(fitStart(`${family}${family}${family}`, 5)).toBe(`…${family}${family}`);
    expect(wrap(family.repeat(5), 4)).toEqual([family.repeat(2), family.repeat(2), family]);
    expect(wrap(`${flag}${flag}${flag}`, 5)).toEqual([`${flag}${flag}`, flag]);
    expect(wrap("重构认证模块", 5)).toEqual(["重构", "认证", "模块"]);
    expect(wrap(accented.repeat(6), 4)).toEqual([accented.repeat(4), accented.repeat(2)]);
    for (const l of wrap(`${family} word ${flag}重构 ${accented}`.repeat(5), 7))
      expect(width(l)).toBeLessThanOrEqual(7);
    expect(editField(field(`ok${family}`), "", { backspace: true })?.text).toBe("ok");
    expect(editField(field(`caf${accented}`), "", { backspace: true })?.text).toBe("caf");
    expect(editField(field("a"), "b\x1b", {})?.text).toBe("ab");
    expect(printable("a\x07b\u009bc")).toBe("abc");
  });
});

describe("terminal degrades", () => {
  test("NO_COLOR or a non-UTF-8 terminal gets plain ASCII", async () => {
    const { session } = await store(["ascii goal"]);
    const h = mount(session, { env: { NO_COLOR: "1", LANG: "C" }, initial: [{ name: "home" }] });
    const f = await h.until((x) => x.includes("webapp"), "the project");
    expect(f).toContain(">*webapp");
    expect(f).not.toMatch(/[›●·…✓✗]/);
    expect(makeTheme({ LANG: "C" }).ascii).toBe(true);
    expect(makeTheme({ LANG: "en_US.UTF-8" }).ascii).toBe(false);
    // Not UTF-8: no colour either, not only ASCII glyphs.
    expect(makeTheme({ LANG: "C", TERM: "xterm-256color" }).color).toBe(false);
    expect(makeTheme({ LANG: "C", TERM: "xterm-256color" }).c("accent")).toBeUndefined();
    expect(makeTheme({ LANG: "en_US.UTF-8", TERM: "xterm-256color" }).color).toBe(true);
  });

  test("works at 80×24 with wide Chinese text cut to the width", async () => {
    const { session } = await store(["重构认证模块并修复令牌刷新问题以及所有相关的集成测试用例和文档说明"]);
    const h = mount(session, { columns: 80, rows: 24, initial: [{ name: "home" }] });
    const f = await h.until((x) => x.includes("webapp"), "the project");
    for (const line of f.split("\n")) expect(Bun.stringWidth(line)).toBeLessThanOrEqual(80);
    expect(f.split("\n").length).toBeLessThanOrEqual(24);
  });
});

describe("text fields: a cursor that moves, edits at the cursor, whole characters at a time", () => {
  const K = {
    left: "\x1b[D",
    right: "\x1b[C",
    home: "\x1b[H",
    end: "\x1b[F",
    del: "\x1b[3~",
    bs: "\x7f",
    ctrlA: "\x01",
    ctrlE: "\x05",
  };
  test("←/→ Home/End Ctrl-A/Ctrl-E move; typing, Backspace and Delete act at the cursor (emoji and CJK whole)", async () => {
    const { session } = await store(["fields"]);
    const projectId = (await resolveProject(session, { create: false }))!.project.id;
    const h = mount(session, {
      initial: [{ name: "home" }, { name: "rules", projectId, projectName: "webapp" }],
      columns: 80,
      rows: 24,
    });
    await h.until((x) => x.includes("Standing rules"), "the rules screen");
    h.press("a", "ac", K.left, "b");
    await h.until((x) => /rule: {2}abc +│/.test(x), "b typed between a and c (the cursor on c)");
    h.press(K.home, "x", K.end, "!");
    await h.until((x) => x.includes("rule:  xabc!█"), "x at the start, ! at the end");
    h.press(K.ctrlA, K.del, K.ctrlE, K.left, K.bs);
    await h.until((x) => /rule: {2}ab! +│/.test(x), "Delete took x, Backspace took c");
    h.press(K.end, "重构👨‍👩‍👧‍👦", K.left, K.bs, K.right, "🇫🇷", K.left, K.left, K.del, K.end);
    await h.until((x) => x.includes("rule:  ab!重🇫🇷█"), "the family emoji and 构 each removed whole");
    h.press(KEY.enter);
    await h.until((x) => x.includes("Added project rule: ab!重🇫🇷"), "the rule saved");
    expect((await rulesHere(session)).rules.map((r) => r.text)).toEqual(["ab!重🇫🇷"]);
  });

  test("a field longer than its width shows the part around the cursor", () => {
    const text = "0123456789abcdefghij";
    expect(fieldWindow(field(text), 10, "…")).toEqual({ before: "…cdefghij", under: "", after: "" });
    expect(fieldWindow({ text, cursor: 0 }, 10, "…")).toEqual({ before: "", under: "0", after: "12345678…" });
    expect(fieldWindow({ text, cursor: 12 }, 10, "…")).toEqual({
      before: "…56789ab",
      under: "c",
      after: "…",
    });
    const wide = "重构认证模块";
    const w = fieldWindow({ text: wide, cursor: 3 }, 7, "…");
    expect(width(w.before + w.under + w.after)).toBeLessThanOrEqual(7);
    expect(w.under).toBe("证");
    expect(editField({ text: "a👨‍👩‍👧‍👦b", cursor: 1 }, "", { rightArrow: true })).toEqual({
      text: "a👨‍👩‍👧‍👦b",
      cursor: 1 + "👨‍👩‍👧‍👦".length,
    });
    expect(editField({ text: "caf", cursor: 3 }, "\u0301", {})).toEqual({ text: "caf\u0301", cursor: 4 });
    expect(editField(field("x"), "", { upArrow: true } as never)).toBeNull();
  });
});

describe("picker names on a narrow terminal", () => {
  test("a name that cannot fit is cut in its middle: its date and -N suffix stay", async () => {
    expect(fitMiddle("add_rate_limiting_to_2026-11-23-3", 22, "…", 12)).toBe("add_rate_…2026-11-23-3");
    expect(fitMiddle("重构认证模块_2026-11-23-2", 16, "…", 12)).toBe("重…2026-11-23-2"); // a wide character that would straddle is left out
    expect(nameCell("add_rate_limiting_to_2026-11-23-3", 22, "…")).toBe("add_rate_…2026-11-23-3");
    const { session } = await store([
      "add rate limiting to the api gateway",
      "add rate limiting to the api gateway",
      "add rate limiting to the api gateway",
    ]);
    const names = (
      await projectSnapshots(session, (await resolveProject(session, { create: false }))!.project.id)
    ).map((s) => s.name);
    const h = mount(session, { columns: 50, rows: 24 });
    const f = await h.until((x) => x.includes("3 snapshots"), "the picker at 50 columns");
    for (const name of names)
      expect(f).toMatch(new RegExp(`add_\\S*…${name.slice(name.lastIndexOf("_") + 1)} `));
    for (const l of f.split("\n")) expect(width(l)).toBeLessThanOrEqual(50);
  });

  test("at 40 columns the name column is 8 wide: it keeps its end, the day and the -N suffix", async () => {
    expect(nameCell("ｆｕｌｌ_width_2026-11-27-2", 8, "…")).toBe("ｆ…27-2 ");
    const { session } = await store(["ｆｕｌｌ width goal", "ｆｕｌｌ width goal"]);
    const names = (
      await projectSnapshots(session, (await resolveProject(session, { create: false }))!.project.id)
    ).map((s) => s.name);
    const h = mount(session, { columns: 40, rows: 24 });
    const f = await h.until(
      (x) => x.split("in progress").length === 3,
      "the picker's two rows at 40 columns",
    );
    for (const name of names) expect(f).toContain(`…${name.slice(-4)} `);
    // The way to the keys and the way back show however narrow: the hints before them give way.
    expect(f.trimEnd().split("\n").at(-1)).toMatch(/ · \? keys · q projects$/);
    for (const l of f.split("\n")) expect(width(l)).toBeLessThanOrEqual(40);
  });

  test("at 80 columns a long name gives way to the goal first, down to 18 columns that keep its date", async () => {
    const goal = "重构认证模块并修复令牌刷新问题以及会话过期处理的边界情况";
    const { session } = await store([goal]);
    const name = (
      await projectSnapshots(session, (await resolveProject(session, { create: false }))!.project.id)
    )[0].name;
    const h = mount(session, { columns: 80, rows: 24 });
    const f = await h.until((x) => x.includes("1 snapshot"), "the picker at 80 columns");
    const row = f.split("\n").find((l) => l.includes("in progress"))!;
    // 80 columns: 21 for the pointer, age and status, 18 for the name; the other 41 for the goal (20 wide characters and "…").
    expect(row).toContain(`${goal.slice(0, 20)}…`);
    expect(row).toContain(`…${name.slice(name.lastIndexOf("_") + 1)} `);
    expect(width(row)).toBeLessThanOrEqual(80);
  });

  test("at 100 columns the names give way to whole goals: the round that tells two apart shows", async () => {
    const goals = [
      "修复登录页面的会话超时问题并补充测试，第 296 轮",
      "修复登录页面的会话超时问题并补充测试，第 297 轮",
    ];
    const { session } = await store(goals);
    const h = mount(session, { columns: 100, rows: 24 });
    const f = await h.until((x) => x.includes("2 snapshots"), "the picker at 100 columns");
    const rows = f.split("\n").filter((l) => l.includes("in progress"));
    for (const goal of goals) expect(rows.some((row) => row.trimEnd().endsWith(goal))).toBe(true);
    // The names (51 and 53 columns) are cut in their middle; each keeps its date and suffix.
    expect(rows.map((row) => /…(\S+) /.exec(row)?.[1])).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\d-2$/),
      expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
    ]);
    for (const row of rows) expect(width(row)).toBeLessThanOrEqual(100);
  });

  test("at 120 columns one long goal does not cut every name: the names stay whole, that goal is cut", async () => {
    const long =
      "Speed up CI by caching the pnpm store, the node_modules folder, the Playwright browsers and the Docker layers of every job, round 0";
    const goals = [long, ...[1, 2, 3, 4, 5].map((i) => `Speed up CI by caching the pnpm store, round ${i}`)];
    const { session } = await store(goals);
    const names = (
      await projectSnapshots(session, (await resolveProject(session, { create: false }))!.project.id)
    ).map((r) => r.name);
    const h = mount(session, { columns: 120, rows: 24 });
    const f = await h.until((x) => x.includes("6 snapshots"), "the picker at 120 columns");
    const rows = f.split("\n").filter((l) => l.includes("in progress"));
    // The names (27 columns) were cut to 18 ("speed…2026-11-29-4") for the one goal of 131.
    for (const name of names) expect(rows.some((row) => row.includes(` ${name} `))).toBe(true);
    for (const goal of goals.slice(1)) expect(rows.some((row) => row.trimEnd().endsWith(goal))).toBe(true);
    expect(rows.some((row) => row.includes(`${long.slice(0, 40)}`) && row.trimEnd().endsWith("…"))).toBe(
      true,
    );
    for (const row of rows) expect(width(row)).toBeLessThanOrEqual(120);
  });

  test("the snapshot view's title cuts a long name in its middle too: its date stays", async () => {
    const goal = "重构认证模块并修复令牌刷新问题以及会话过期处理的边界情况";
    const { session } = await store([goal]);
    const name = (
      await projectSnapshots(session, (await resolveProject(session, { create: false }))!.project.id)
    )[0].name;
    const date = name.slice(name.lastIndexOf("_") + 1);
    const h = mount(session, { columns: 80, rows: 24 });
    await h.until((x) => x.includes("1 snapshot"), "the picker");
    h.press(KEY.enter);
    const f = await h.until((x) => x.includes("Layer 1"), "the snapshot view");
    const title = f.split("\n")[0];
    expect(title).toContain(`…${date}`);
    expect(width(title)).toBeLessThanOrEqual(80);
  });
});

describe("the picker's tag filter", () => {
  test("the tag filtered by shows first among a row's tags, so a row cut short still shows it", async () => {
    const { session } = await store([]);
    const goal = "Speed up CI by caching the pnpm store, round 295";
    await saveSnapshot(session, { input: fromFields({ goal, tags: ["speedup", "release-2026", "支付"] }) });
    await saveSnapshot(session, { input: fromFields({ goal: "other work", tags: ["perf"] }) });
    const h = mount(session, { columns: 100, rows: 24 });
    await h.until((x) => x.includes("2 snapshots"), "the picker");
    h.press("t", "#支付", KEY.enter);
    const f = await h.until((x) => x.includes("1 of 2 snapshots · #支付"), "the #支付 filter");
    // 100 columns: the goal (48) whole; of its three tags only the first and a start of the next fit.
    const row = f.split("\n").find((l) => l.includes("in progress"))!;
    expect(row).toContain(`${goal} #支付 #spee…`);
    expect(width(row)).toBeLessThanOrEqual(100);
  });
});

describe("failure graph: an edit is not a new sighting", () => {
  /** Tailwind seen two days ago, Redux one day ago, once each: by repeat count (ties: last seen) Redux, then Tailwind. */
  async function graph() {
    const { session, base, env } = await openStore("mindsave-wt3-");
    await saveSnapshot(session, { input: fromFields({ goal: "g" }) });
    const projectId = (await resolveProject(session, { create: false }))!.project.id;
    const at = async (ms: number, item: string, reason: string) => {
      const s = await Session.open(
        { home: session.home.dir, cwd: session.cwd, env, now: () => new Date(Date.now() - ms) },
        { write: true },
      );
      await recordFailure(s, { item, reason, increment: true }, { projectId });
      s.close();
    };
    await at(2 * DAY, "Tailwind", "style conflict");
    await at(DAY, "Redux", "too heavy");
    const tailwind = async () => (await failuresFor(session, projectId)).find((f) => f.item === "Tailwind");
    return { session, base, env, projectId, tailwind };
  }

  test("e, a new reason, Enter: last seen and the count stay, the entry keeps its place, the selection stays on it", async () => {
    const { session, projectId, tailwind } = await graph();
    const before = (await tailwind())!;
    const h = mount(session, { initial: [{ name: "failures", projectId }] });
    await h.until((x) => /› Redux/.test(x) && x.includes("Tailwind"), "the failures, Redux first");
    h.press("j");
    await h.until((x) => /› Tailwind/.test(x), "Tailwind selected");
    h.press("e");
    await h.until((x) => x.includes("Edit Tailwind"), "the edit form");
    h.press(" breaks the grid", KEY.enter);
    const f = await h.until((x) => x.includes("Updated Tailwind"), "the update");
    expect(f.indexOf("Redux")).toBeLessThan(f.indexOf("Tailwind"));
    expect(f).toMatch(/› Tailwind/);
    const after = (await tailwind())!;
    expect(after.reason).toBe("style conflict breaks the grid");
    expect({
      last_seen: after.last_seen,
      first_seen: after.first_seen,
      repeat_count: after.repeat_count,
    }).toEqual({ last_seen: before.last_seen, first_seen: before.first_seen, repeat_count: 1 });
  });

  test("the selection follows the edited failure when the reloaded list puts it elsewhere", async () => {
    const { session, env, projectId } = await graph();
    const h = mount(session, { initial: [{ name: "failures", projectId }] });
    await h.until((x) => /› Redux/.test(x), "the failures");
    h.press("j", "e");
    await h.until((x) => x.includes("Edit Tailwind"), "the edit form");
    // Meanwhile another terminal records a failure that sorts first: Tailwind moves from row 2 to row 3.
    const other = await Session.open({ home: session.home.dir, cwd: session.cwd, env }, { write: true });
    await recordFailure(
      other,
      { item: "GraphQL", reason: "team knows REST", increment: true },
      { projectId },
    );
    other.close();
    h.press(KEY.tab, "CSS Modules", KEY.enter);
    const f = await h.until(
      (x) => x.includes("Updated Tailwind") && /› Tailwind/.test(x),
      "the update, Tailwind still selected",
    );
    expect(f.indexOf("GraphQL")).toBeLessThan(f.indexOf("Redux"));
    expect(f.indexOf("Redux")).toBeLessThan(f.indexOf("Tailwind"));
  });

  test("an edit of a failure forgotten meanwhile is refused, not recorded anew", async () => {
    const { session, env, projectId, tailwind } = await graph();
    const h = mount(session, { initial: [{ name: "failures", projectId }] });
    await h.until((x) => /› Redux/.test(x), "the failures");
    h.press("j", "e");
    await h.until((x) => x.includes("Edit Tailwind"), "the edit form");
    const other = await Session.open({ home: session.home.dir, cwd: session.cwd, env }, { write: true });
    await removeFailure(other, "Tailwind");
    other.close();
    h.press(" again", KEY.enter);
    await h.until((x) => x.includes('No failure "Tailwind"'), "the refusal");
    expect(await tailwind()).toBeUndefined();
  });
});

describe("TUI in a small terminal", () => {
  test("? at 60x20: whole lines, a marker, and ↓/j scroll to every key and its whole description", async () => {
    const { session } = await openStore("mindsave-wt3-");
    await saveSnapshot(session, { input: fromFields({ goal: "first" }) });
    await saveSnapshot(session, { input: fromFields({ goal: "second" }) });
    const h = mount(session, { columns: 60, rows: 20, fits: true });
    await h.until((x) => x.includes("2 snapshots"), "the picker");
    h.press("?");
    const inner = (f: string) =>
      f
        .split("\n")
        .filter((l) => l.startsWith("│"))
        .map((l) => l.replace(/^│ /, "").replace(/ *│$/, ""));
    const isMarker = (l: string) => /^(↓ \d+ more|↑ \d+ above)/.test(l);
    const body = (f: string) => {
      const lines = inner(f);
      return lines.slice(1, lines.findIndex(isMarker));
    };
    let f = await h.until(
      (x) => x.includes("Keys · snapshots") && x.includes("more (↓/PgDn)"),
      "the keys, clipped with a marker",
    );
    const seen = [...body(f)];
    const rows = seen.length;
    for (let i = 0; f.includes("more (↓/PgDn)"); i++) {
      expect(inner(f)[0]).toBe("Keys · snapshots");
      expect(f).toContain("Esc closes this.");
      expect(f).toContain("╰");
      h.press("j");
      f = await h.until((x) => x.includes(`↑ ${i + 1} above`), `the keys scrolled by ${i + 1}`);
      const now = body(f);
      expect(now.length).toBe(rows);
      seen.push(now.at(-1)!);
    }
    // The lines seen, top to bottom, are the screen's keys and their descriptions, each whole.
    const keys: [string, string][] = [];
    for (const l of seen) {
      if (!l.startsWith(" ")) keys.push(l.split(/\s{2,}/, 2).map((x) => x.trim()) as [string, string]);
      else keys[keys.length - 1]![1] += ` ${l.trim()}`;
    }
    expect(keys).toEqual(PICKER_KEYS.map(([k, what]) => [k, what.replace(/\s+/g, " ")]));
    h.press("?");
    await h.until((x) => !x.includes("Keys · snapshots") && x.includes("2 snapshots"), "the overlay closed");
  });

  test("the projects list at 80x24 with 11 projects says how many more are below, and above", async () => {
    const { session, base, env } = await openStore("mindsave-wt3-");
    await saveSnapshot(session, { input: fromFields({ goal: "webapp goal" }) });
    for (let i = 1; i <= 10; i++) {
      const s = await Session.open(
        { home: session.home.dir, cwd: gitRepo(join(base, `proj${i}`)), env },
        { write: true },
      );
      await saveSnapshot(s, { input: fromFields({ goal: `goal ${i}` }) });
      s.close();
    }
    const outside = join(base, "elsewhere");
    mkdirSync(outside);
    const here = await Session.open({ home: session.home.dir, cwd: outside, env }, { write: false });
    // 23 rows for the screen: title, hints, a free line; two lines a project: 9 of the 11 show.
    const h = mount(here, { initial: [{ name: "home" }], columns: 80, rows: 24, fits: true });
    let f = await h.until((x) => x.includes("Projects (11)"), "the projects");
    expect(f).toContain("↓ 2 more (↓/PgDn)");
    expect(f).not.toContain("above");
    h.press("G");
    f = await h.until((x) => x.includes("↑ 2 above"), "the end of the list");
    expect(f).not.toContain("more (");
  });
});

describe("TUI: the picker after d, the delete question's name, the failure graph's title", () => {
  afterEach(closeAll);

  async function store(goals: string[], topic?: string) {
    const s = await openStore("mindsave-newcomer-tui-");
    for (const goal of goals)
      await saveSnapshot(s.session, {
        input: fromFields({
          goal,
          state: `state of ${goal}`,
          next_action: "go on",
          ...(topic ? { topic } : {}),
        }),
      });
    const projectId = (await resolveProject(s.session, { create: false }))!.project.id;
    return { ...s, projectId };
  }

  /** A project with these goals, its picker, and the second newest opened from it (j, Enter). */
  async function secondOpened(goals: string[]) {
    const { session, projectId } = await store(goals);
    const h = mount(session, {
      initial: [{ name: "home" }, { name: "picker", projectId, projectName: "webapp" }],
    });
    await h.until((x) => x.includes(`webapp · ${goals.length} snapshots`), "the picker");
    h.press("j", KEY.enter);
    await h.until((x) => x.includes(`goal         ${goals.at(-2)}`), "the second newest snapshot");
    return { session, projectId, h };
  }

  test("d in the snapshot view, then back: the picker shows the new status, its selection kept", async () => {
    const { session, projectId, h } = await secondOpened(["alpha task", "beta task"]);
    h.press("d");
    await h.until((x) => x.includes("Marked") && x.includes("completed"), "marked completed");
    expect((await projectSnapshots(session, projectId)).find((s) => s.goal === "alpha task")!.status).toBe(
      "completed",
    );
    h.press("q");
    const f = await h.until(
      (x) => x.includes("webapp · 2 snapshots") && /alpha task/.test(x) && / completed /.test(x),
      "the picker with the new status",
    );
    const row = f.split("\n").find((l) => l.includes("alpha task"))!;
    expect(row).toMatch(/^› .* completed /);
    expect(f.split("\n").find((l) => l.includes("beta task"))).toMatch(/in progress/);
  });

  test("x then y in the snapshot view, then back on the picker: it says which was deleted, its pointer on the next row", async () => {
    const { session, projectId, h } = await secondOpened([
      "alpha task",
      "beta task",
      "gamma task",
      "delta task",
    ]);
    const doomed = (await projectSnapshots(session, projectId)).find((s) => s.goal === "gamma task")!;
    h.press("x");
    await h.until((x) => x.includes("y to delete"), "the question");
    h.press("y");
    const f = await h.until((x) => x.includes("webapp · 3 snapshots"), "the picker without it");
    expect(f).toContain(`Deleted ${doomed.name}.`);
    // The pointer stays second: on beta, the row after the deleted one (it went to the top before).
    const rows = f.split("\n").filter((l) => l.includes(" task"));
    expect(rows.map((l) => l.startsWith("›"))).toEqual([false, true, false]);
    expect(rows[1]).toContain("beta task");
    expect((await projectSnapshots(session, projectId)).map((s) => s.id)).not.toContain(doomed.id);
  });

  test("the delete question cuts a long snapshot name in its middle: its date and -2 stay", async () => {
    const { session, projectId } = await store(["one", "two"], "refactor-the-authentication-layer");
    const [newest] = await projectSnapshots(session, projectId);
    expect(newest.name).toMatch(/-2$/);
    const h = mount(session, {
      initial: [{ name: "home" }, { name: "snapshot", snapshotId: newest.id }],
      columns: 60,
      fits: true,
    });
    await h.until((x) => x.includes("goal         two"), "the snapshot");
    h.press("x");
    const f = await h.until((x) => x.includes("y to delete"), "the question");
    const asked = /Delete (.+)\? y to delete, any other key to keep it\./.exec(f)?.[1];
    expect(asked).toBeDefined();
    expect(asked).toContain("…");
    expect(asked!.startsWith(newest.name.slice(0, 3))).toBe(true);
    expect(asked!.endsWith(newest.name.slice(-4))).toBe(true);
  });

  test("the failure graph's title fits 80 columns with a long project name: the count and the sort show", async () => {
    const { session, projectId } = await store(["one"]);
    const h = mount(session, {
      initial: [
        { name: "home" },
        { name: "failures", projectId, projectName: "customer-billing-service-backend" },
      ],
      columns: 80,
      fits: true,
    });
    const f = await h.until((x) => x.includes("Failure graph"), "the failure graph");
    const title = f.split("\n")[0];
    expect(title).toContain("+ global · 0 · by repeat count");
    expect(title).toContain("Failure graph · custo");
  });
});
