// Component tests of things a person trips over in the TUI, on a real temp store: ages and
// expiries that follow the app's clock while a screen stays open, a save made by another process
// while it is open, Esc then a key typed fast (one read, "\x1bq"), and the facts screen's columns
// lined up whatever the texts' widths.
import { afterEach, describe, expect, test } from "bun:test";
import type { Key } from "ink";
import type { Screen } from "../ui/app.tsx";
import { Session } from "../src/engine/session.ts";
import { resolveProject } from "../src/engine/projects/resolve.ts";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { fromFields } from "../src/engine/snapshots/input.ts";
import { addFact } from "../src/engine/memory/facts.ts";
import { rulesHere } from "../src/engine/memory/rules.ts";
import { width } from "../src/lib/text.ts";
import { escapeThenKey } from "../ui/hooks/useKeys.ts";
import { editField, field } from "../ui/hooks/textEdit.ts";
import { closeAll, KEY, mount, openStore, testClock } from "./tui-harness.tsx";
import { gitRepo, ok, tempDir } from "./helpers.ts";
import { join } from "node:path";

afterEach(closeAll);

const T0 = Date.UTC(2026, 10, 23, 9, 0, 0);
const MIN = 60_000;

/** A project "webapp" with one snapshot per goal, all saved at T0. */
async function store(goals: string[]) {
  const s = await openStore("mindsave-tui-polish-");
  const at = await Session.open({ home: s.session.home.dir, cwd: s.repo, env: s.env, now: () => new Date(T0) }, { write: true });
  for (const goal of goals) await saveSnapshot(at, { input: fromFields({ goal, state: `state of ${goal}`, next_action: `next for ${goal}` }) });
  const projectId = (await resolveProject(at, { create: false }))!.project.id;
  at.close();
  return { ...s, projectId };
}

const picker = (projectId: string): Screen[] => [{ name: "home" }, { name: "picker", projectId, projectName: "webapp" }];
/** The rows of a list that show `text`. */
const rowsWith = (frame: string, text: string) => frame.split("\n").filter((l) => l.includes(text));

describe("a save made by another process while the TUI is open", () => {
  test("shows in the open picker and the projects list at the next tick, without a key; the selection stays on its snapshot", async () => {
    const { session, projectId, repo, env } = await store(["alpha", "beta"]);
    const clock = testClock(T0 + 3 * MIN);
    const h = mount(session, { initial: picker(projectId), now: clock.now, every: clock.every });
    const pointed = (x: string) => x.split("\n").find((l) => l.trimStart().startsWith("›")) ?? "";
    await h.until((x) => rowsWith(x, "_2026-11-23").length === 2 && pointed(x).includes("beta"), "the picker on beta");
    h.press("j");
    await h.until((x) => pointed(x).includes("alpha"), "alpha selected");
    await ok(["save", "--home", session.home.dir, "--goal", "gamma from a terminal", "--state", "s", "--next", "n"], { cwd: repo, env });
    clock.advance(10_000);
    const f = await h.until((x) => x.includes("gamma"), "the new snapshot in the open picker");
    expect(pointed(f)).toContain("alpha");
    h.press("q");
    await h.until((x) => x.includes("Projects (1)") && x.includes("gamma from a terminal"), "the projects list with the newest goal");
    await ok(["save", "--home", session.home.dir, "--goal", "delta from a terminal", "--state", "s", "--next", "n"], { cwd: repo, env });
    clock.advance(10_000);
    await h.until((x) => x.includes("delta from a terminal"), "the list's newest goal, read again");
    // New projects saved elsewhere join the list (the current one first, then by name); the selected one stays selected.
    const project = async (name: string) => {
      await ok(["save", "--home", session.home.dir, "--goal", `${name} saved elsewhere`, "--state", "s", "--next", "n"], { cwd: gitRepo(join(tempDir(), name), { "own.txt": `${name}\n` }), env });
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
    await h.until((x) => x.includes("1 marked") && pointed(x).includes("three_"), "four marked, three selected");
    for (const name of ["four_2026-11-23", "three_2026-11-23"]) await ok(["snapshots", "delete", name, "--home", session.home.dir], { cwd: repo, env });
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
    f = await h.until((x) => rowsWith(x, "_2026-11-23").every((row) => / 1h +in progress/.test(row)), "the ages an hour on");
    expect(f).not.toMatch(/ 3m /);

    h.press(KEY.enter);
    await h.until((x) => x.includes("saved 2026-11-23 09:00 UTC (1h ago)"), "the snapshot, saved an hour ago");
    clock.advance(60 * MIN);
    await h.until((x) => x.includes("saved 2026-11-23 09:00 UTC (2h ago)"), "the snapshot's age two hours on");

    h.press("q", "q");
    await h.until((x) => x.includes("Projects (1)") && / 2h /.test(x), "the projects list");
    clock.advance(60 * MIN);
    await h.until((x) => x.includes("Projects (1)") && / 3h /.test(x), "the newest snapshot's age three hours on");
  });

  test("the facts screen: a fact expires on screen when its time comes, without a key", async () => {
    const { session, projectId } = await store(["facts"]);
    const at = await Session.open({ home: session.home.dir, cwd: session.cwd, env: session.env, now: () => new Date(T0) }, { write: true });
    await addFact(at, "the deploy lock is held", { ttl: "1m" });
    at.close();
    const clock = testClock(T0 + 45_000);
    const h = mount(session, { initial: [...picker(projectId), { name: "facts", projectId, projectName: "webapp" }], now: clock.now, every: clock.every });
    await h.until((x) => x.includes("the deploy lock is held") && x.includes("expires in 15s"), "the fresh fact");
    clock.advance(30_000);
    await h.until((x) => x.includes("EXPIRED 15s ago") && x.includes("1 expired"), "the fact expired");
  });
});

describe("Esc then a key in one read: Esc, then the key", () => {
  test("snapshot view: Esc goes back to the picker, q then to the projects list; Esc Esc does the same", async () => {
    const { session, projectId } = await store(["alpha", "beta"]);
    const h = mount(session, { initial: picker(projectId) });
    await h.until((x) => x.includes("webapp · 2 snapshots"), "the picker");
    h.press(KEY.enter);
    await h.until((x) => x.includes("goal         beta"), "the snapshot");
    h.press("\x1bq");
    await h.until((x) => x.includes("Projects (1)"), "the projects list, two screens back");
    expect(h.exited.called).toBe(false);
    h.press(KEY.enter, KEY.enter);
    await h.until((x) => x.includes("goal         beta"), "the snapshot again");
    h.press("\x1b\x1b");
    await h.until((x) => x.includes("Projects (1)"), "the projects list after Esc Esc");
  });

  test("picker: Esc clears the filter, then j moves in the whole list; typing in the filter, Esc q leaves it and goes back", async () => {
    const { session, projectId } = await store(["alpha", "beta", "gamma"]);
    const h = mount(session, { initial: picker(projectId) });
    await h.until((x) => x.includes("webapp · 3 snapshots"), "the picker");
    h.press("/", "beta", KEY.enter);
    await h.until((x) => x.includes("1 of 3 match") && /› beta_/.test(x), "the filter kept");
    h.press("\x1bj");
    await h.until((x) => x.includes("webapp · 3 snapshots") && /› beta_/.test(x) && x.includes("press / to filter"), "the filter cleared and the second row selected");
    h.press("/", "gam");
    await h.until((x) => x.includes("1 of 3 match") && x.includes("type to filter"), "typing in the filter");
    h.press("\x1bq");
    await h.until((x) => x.includes("Projects (1)"), "the projects list");
  });

  test("a form: Esc cancels it, q then goes back; the help overlay: Esc closes it, q then goes back", async () => {
    const { session, projectId } = await store(["rules"]);
    const h = mount(session, { initial: picker(projectId) });
    await h.until((x) => x.includes("webapp · 1 snapshot"), "the picker");
    h.press("R", "a", "Never push to main");
    await h.until((x) => x.includes("Add a rule") && x.includes("Never push to main"), "the typed rule");
    h.press("\x1bq");
    await h.until((x) => x.includes("webapp · 1 snapshot") && !x.includes("Standing rules"), "the picker, the form cancelled");
    expect((await rulesHere(session)).rules).toEqual([]);
    h.press("?");
    await h.until((x) => x.includes("Keys · snapshots"), "the picker's keys");
    h.press("\x1bq");
    await h.until((x) => x.includes("Projects (1)"), "the projects list");
  });

  test("in a text field, Alt+b/f (Option+←/→ on macOS) move by word and Alt+Backspace deletes one: the field stays open", async () => {
    const { session, projectId } = await store(["alpha"]);
    const h = mount(session, { initial: picker(projectId) });
    await h.until((x) => x.includes("webapp · 1 snapshot"), "the picker");
    h.press("/", "fix the login");
    await h.until((x) => x.includes("fix the login"), "the typed words");
    h.press("\x1bb", "x");
    await h.until((x) => x.includes("fix the xlogin"), "x typed before the last word");
    h.press("\x1bf", "\x1b\x7f", "logout");
    await h.until((x) => x.includes("fix the logout") && x.includes("type to filter"), "the last word deleted and another typed, still typing");
    expect(editField(field("a b c"), "f", { meta: true })).toEqual(field("a b c"));
    expect(editField({ text: "a b c", cursor: 0 }, "f", { meta: true })).toEqual({ text: "a b c", cursor: 1 });
  });

  test("escapeThenKey: any Alt key is Esc then the key, but the word keys while typing", () => {
    const key = (k: Partial<Key>) => ({ meta: true, ...k }) as Key;
    expect(escapeThenKey("q", key({}), false)!.map(([i, k]) => [i, !!k.escape, k.meta])).toEqual([["", true, false], ["q", false, false]]);
    expect(escapeThenKey("Q", key({ shift: true }), true)![1][1].shift).toBe(true);
    expect(escapeThenKey("", key({ escape: true }), false)!.map(([, k]) => k.escape)).toEqual([true, true]);
    expect(escapeThenKey("", key({ return: true }), false)![1][1].return).toBe(true);
    expect(escapeThenKey("b", key({}), true)).toBeNull();
    expect(escapeThenKey("b", key({}), false)).not.toBeNull();
    expect(escapeThenKey("q", key({ meta: false }), false)).toBeNull();
  });
});

describe("facts screen columns", () => {
  /** Where each column starts (display columns) on every fact row and on the heading row. */
  function columnStarts(frame: string) {
    const rows = frame.split("\n").filter((l) => /^[› ] [✓✗] /.test(l));
    const heading = frame.split("\n").find((l) => /^ {4}fact /.test(l))!;
    const at = (line: string, re: RegExp) => {
      const m = re.exec(line);
      expect(m).not.toBeNull();
      return width(line.slice(0, m!.index + 1));
    };
    return {
      rows: rows.length,
      confidence: [at(heading, / (confidence|conf\.) /), ...rows.map((r) => at(r, / (low|medium|high) +(project|global) /))],
      scope: [at(heading, / scope /), ...rows.map((r) => at(r, / (project|global) /))],
      state: [at(heading, / state$/), ...rows.map((r) => at(r, / (expires in|EXPIRED|does not expire)/))],
    };
  }

  for (const columns of [80, 60]) {
    test(`English and Chinese facts of any length: confidence, scope and state start at one display column on every row (${columns} columns)`, async () => {
      const { session, projectId } = await store(["facts"]);
      const at = (t: number) => Session.open({ home: session.home.dir, cwd: session.cwd, env: session.env, now: () => new Date(t) }, { write: true });
      const earlier = await at(T0 - 2 * 60 * MIN);
      await addFact(earlier, "预发布数据库只读", { ttl: "1h" });
      earlier.close();
      const now = await at(T0);
      await addFact(now, "CI is slow", { ttl: "never", confidence: "low", scope: "global" });
      await addFact(now, "预发布数据库只读，迁移完成前不要写入任何数据，包括测试账号和演示数据", { ttl: "3d", confidence: "high" });
      await addFact(now, "the deploy lock is held by Ana while she migrates the orders table to the new schema", { ttl: "2d" });
      await addFact(now, "部署锁 held by Ana", { ttl: "4h", confidence: "high" });
      now.close();
      const clock = testClock(T0);
      const h = mount(session, { initial: [...picker(projectId), { name: "facts", projectId, projectName: "webapp" }], columns, rows: 24, fits: true, now: clock.now, every: clock.every });
      // The counts are never cut: at 60 columns the project's name gives way.
      const f = await h.until((x) => x.includes(" + global · 5 · 1 expired") && x.includes("EXPIRED"), "the facts");
      const starts = columnStarts(f);
      expect(starts.rows).toBe(5);
      for (const col of [starts.confidence, starts.scope, starts.state]) expect(new Set(col).size).toBe(1);
      // The states are whole; the long texts gave way.
      expect(f).toContain("EXPIRED 60 min ago");
      expect(f).toContain("does not expire");
      expect(f).toMatch(/ the deploy lock is h[^…\n]*…  /);
    });
  }
});
