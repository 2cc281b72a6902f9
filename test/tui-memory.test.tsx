// Component tests of the TUI's memory screens (issue 16) with ink-testing-library, on a real temp
// store written through the engine: standing rules, the plan and retiring in the snapshot view,
// facts that expire, the diff of two snapshots, and the picker's tag filter. All at 80×24.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Screen } from "../ui/app.tsx";
import { Session } from "../src/engine/session.ts";
import { resolveProject } from "../src/engine/projects/resolve.ts";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { fromFields } from "../src/engine/snapshots/input.ts";
import { projectSnapshots, restoreById } from "../src/engine/snapshots/catalog.ts";
import { addRule, rulesHere } from "../src/engine/memory/rules.ts";
import { addFact, factsHere, isFresh } from "../src/engine/memory/facts.ts";
import { retire, retireCandidates } from "../src/engine/memory/retire.ts";
import { closeAll, KEY, mount as mountApp, openStore } from "./tui-harness.tsx";
import { tagList } from "../ui/components/pickerRows.ts";
import { UTC_MINUTE, width } from "../src/lib/text.ts";
import { diffInProject, diffText } from "../src/engine/snapshots/diff.ts";
import { diffLines } from "../ui/components/DiffScreen.tsx";
import { makeTheme } from "../ui/theme.ts";

afterEach(closeAll);

/** A project "webapp" with one snapshot per goal (each with a constraint and a decision). */
async function store(goals: string[], extra: Record<string, unknown> = {}) {
  const { base, repo, env, session } = await openStore("mindsave-tui-memory-");
  for (const goal of goals) {
    await saveSnapshot(session, {
      input: fromFields({
        goal,
        state: `state of ${goal}`,
        next_action: `next for ${goal}`,
        constraints: ["no tailwind"],
        decisions: ["use polling"],
        ...extra,
      }),
    });
  }
  const projectId = (await resolveProject(session, { create: false }))?.project.id ?? "";
  return { base, repo, env, session, projectId };
}

/** The app at 80×24: every frame a test waits for must fit it, Chinese text included. */
const mount = (session: Session, initial?: Screen[], now?: () => Date) =>
  mountApp(session, { initial, now, columns: 80, rows: 24, fits: true });

const picker = (projectId: string): Screen[] => [
  { name: "home" },
  { name: "picker", projectId, projectName: "webapp" },
];

describe("rules screen", () => {
  test("R opens it from the picker and home; a adds (project or global), e edits, x removes after y; over the budget is refused, nothing changed", async () => {
    const { session, projectId } = await store(["rules here"]);
    const h = mount(session, picker(projectId));
    let f = await h.until((x) => x.includes("webapp · 1 snapshot"), "the picker");
    expect(f).toContain("R rules");
    h.press("R");
    // The list read, not only the screen's frame: "Loading…" shows the same title first.
    await h.until(
      (x) =>
        x.includes("Standing rules · webapp + global · 0") &&
        x.includes("0/150 tokens") &&
        x.includes("Press a to add one"),
      "the empty rules screen",
    );

    h.press("a", "总是用中文写提交信息");
    await h.until((x) => x.includes("Add a rule") && x.includes("总是用中文写提交信息"), "the typed rule");
    h.press(KEY.enter);
    f = await h.until((x) => x.includes("Added project rule: 总是用中文写提交信息"), "the added rule");
    expect(f).toMatch(/› 1\. +project +总是用中文写提交信息/);
    // Tab to the scope, Space: global.
    h.press("a", "Never push to main", KEY.tab, " ");
    await h.until((x) => x.includes("( ) project  (•) global"), "global chosen");
    h.press(KEY.enter);
    f = await h.until((x) => x.includes("Added global rule: Never push to main"), "the global rule");
    const here = await rulesHere(session);
    expect(here.rules.map((r) => [r.scope, r.text])).toEqual([
      ["global", "Never push to main"],
      ["project", "总是用中文写提交信息"],
    ]);
    expect(f).toContain(`${here.tokens}/150 tokens`);

    // A rule that would take the rules over their budget: one line saying so, nothing changed.
    h.press("a", Array.from({ length: 120 }, (_, i) => `word${i}`).join(" "), KEY.enter);
    f = await h.until((x) => x.includes("over their 150-token budget"), "the refusal");
    expect(f).toContain("Add a rule"); // the form stays, to shorten the rule
    expect((await rulesHere(session)).rules.length).toBe(2);
    h.press(KEY.esc);
    await h.until((x) => x.includes("Cancelled."), "the form closed");

    // Edit the selected rule (the first: the global one).
    h.press("g", "e");
    await h.until((x) => x.includes("Edit rule 1"), "the edit form");
    h.press("\x7f".repeat(4), "develop", KEY.enter);
    await h.until((x) => x.includes("Edited rule 1: Never push to develop"), "the edit");
    expect((await rulesHere(session)).rules[0].text).toBe("Never push to develop");

    h.press("j", "x");
    await h.until((x) => x.includes("Remove rule 2: 总是用中文写提交信息? y to remove"), "the question");
    h.press("n");
    await h.until((x) => x.includes("Kept it."), "kept");
    expect((await rulesHere(session)).rules.length).toBe(2);
    h.press("x", "y");
    await h.until((x) => x.includes("Removed rule 2: 总是用中文写提交信息"), "removed");
    expect((await rulesHere(session)).rules.map((r) => r.text)).toEqual(["Never push to develop"]);
    h.press("?");
    await h.until(
      (x) => x.includes("Keys · standing rules") && x.includes("remove the selected rule"),
      "the rules' keys",
    );
    h.press(KEY.esc);
    await h.until((x) => x.includes("Standing rules ·"), "the rules again");
    h.press("q", "q");
    f = await h.until((x) => x.includes("Projects (1)"), "home");
    expect(f).toContain("R rules");
    h.press("R");
    await h.until(
      (x) => x.includes("Standing rules · webapp + global · 1") && x.includes("Never push to develop"),
      "the rules from home",
    );
  });
});

describe("snapshot view: the plan, tags, and retiring", () => {
  test("shows plan 1/3 with a bar and marks, the tags; Tab selects a constraint, r retires it (and brings it back), for the snapshot's own project", async () => {
    const { session, base, env } = await store([]);
    await saveSnapshot(session, {
      input: fromFields({
        goal: "ship the plan",
        constraints: ["no tailwind", "不要修改数据库结构"],
        decisions: ["use polling"],
        plan: ["[x] write the schema", "[>] 实现令牌刷新", "ship it"],
        tags: ["release", "夜间"],
      }),
    });
    const projectId = (await resolveProject(session, { create: false }))!.project.id;
    const [snap] = await projectSnapshots(session, projectId);
    // Opened from outside the project: retiring still acts on the snapshot's project.
    const outside = join(base, "elsewhere");
    mkdirSync(outside);
    const away = await Session.open({ home: session.home.dir, cwd: outside, env }, { write: true });
    const h = mount(away, [{ name: "home" }, { name: "snapshot", snapshotId: snap.id }]);
    let f = await h.until(
      (x) => x.includes("Layer 1") && x.includes("plan 1/3"),
      "the snapshot with its plan",
    );
    expect(f).toMatch(/plan 1\/3 █+░+/);
    expect(f).toContain("✓ write the schema");
    expect(f).toContain("▶ 实现令牌刷新");
    expect(f).toContain("○ ship it");
    expect(f).toContain("tags #release #夜间");
    expect(f).toContain("Tab select");

    h.press(KEY.tab);
    f = await h.until(
      (x) => /›[^\n]*no tailwind/.test(x),
      "the first constraint selected (scrolled into view)",
    );
    expect(f).toContain("r retire");
    h.press(KEY.tab, KEY.tab, KEY.shiftTab);
    await h.until((x) => /›[^\n]*不要修改数据库结构/.test(x), "the second constraint selected");
    h.press("r");
    f = await h.until(
      (x) => x.includes("Retired the constraint (never restored; r undoes): 不要修改数据库结构"),
      "the retirement",
    );
    expect(f).toMatch(/× 不要修改数据库结构 +\(retired \d{4}-\d\d-\d\d by host tui-host; never restored\)/);
    expect(f).toContain("r bring back");
    const after = await retireCandidates(session);
    expect(after.retired.map((r) => [r.kind, r.text])).toEqual([["constraint", "不要修改数据库结构"]]);
    expect((await restoreById(session, snap.id)).block.text).not.toContain("不要修改数据库结构");
    h.press("r");
    await h.until(
      (x) => x.includes("Brought back the constraint (carried forward again): 不要修改数据库结构"),
      "brought back",
    );
    expect((await retireCandidates(session)).retired).toEqual([]);
    h.press(KEY.esc);
    await h.until((x) => !x.includes("r retire") && x.includes("l load"), "nothing selected");
    h.press("?");
    await h.until(
      (x) => x.includes("Keys · snapshot") && x.includes("retire the selected one"),
      "the snapshot's keys",
    );
  });
});

describe("facts screen", () => {
  test("lists fresh and expired facts; r renews an expired one after y; x drops one after y", async () => {
    const { session, projectId } = await store(["facts here"]);
    // Stated two hours ago for one hour: expired now.
    const earlier = await Session.open(
      {
        home: session.home.dir,
        cwd: session.cwd,
        env: session.env,
        now: () => new Date(Date.now() - 2 * 3_600_000),
      },
      { write: true },
    );
    await addFact(earlier, "预发布数据库只读", { ttl: "1h" });
    await earlier.close();
    await addFact(session, "CI is slow on Mondays", { ttl: "3d", confidence: "high" });
    const h = mount(session, picker(projectId));
    await h.until((x) => x.includes("webapp · 1 snapshot"), "the picker");
    h.press("F");
    let f = await h.until((x) => x.includes("Facts · webapp + global · 2 · 1 expired"), "the facts");
    expect(f).toMatch(/› ✓ CI is slow on Mondays +high +project +expires in/);
    expect(f).toMatch(/✗ 预发布数据库只读 +medium +project +EXPIRED 60 min ago/);
    h.press("j", "r");
    await h.until((x) => x.includes('Renew "预发布数据库只读" as true now? y to renew'), "the question");
    h.press("y");
    f = await h.until((x) => x.includes("Renewed: 预发布数据库只读 (expires in"), "renewed");
    expect(f).not.toContain("EXPIRED");
    expect(f).toContain("Facts · webapp + global · 2");
    expect((await factsHere(session)).every((x) => isFresh(x, new Date()))).toBe(true);
    h.press("x");
    await h.until((x) => x.includes("y to drop"), "the drop question");
    h.press("q");
    await h.until((x) => x.includes("Kept it as it was."), "kept");
    expect((await factsHere(session)).length).toBe(2);
    h.press("x", "y");
    await h.until((x) => x.includes("Dropped: 预发布数据库只读"), "dropped");
    expect((await factsHere(session)).map((x) => x.text)).toEqual(["CI is slow on Mondays"]);
    h.press("?");
    await h.until((x) => x.includes("Keys · facts"), "the facts' keys");
  });
});

describe("diff from the picker", () => {
  test("the header never breaks inside a date-time, at any width (new-user tryout: '(2026-11-29 01:19' / 'UTC)')", async () => {
    const { session } = await store(["add the login flow tests", "first step of the checkout page"]);
    const text = diffText(await diffInProject(session, undefined, undefined, { olderFirst: true }));
    const times = text[0].match(UTC_MINUTE) ?? [];
    expect(times).toHaveLength(2);
    expect(text[1]).toBe(""); // the header, then a blank line
    // From 30 columns, where "(2026-11-29 01:19 UTC)" fits in a line.
    for (let cols = 30; cols <= 140; cols++) {
      const lines = diffLines(text, cols, makeTheme({ LANG: "en_US.UTF-8" })).map((l) => l.text);
      const header = lines.slice(0, lines.indexOf(""));
      // Each time whole on one line.
      expect(header.flatMap((l) => l.match(UTC_MINUTE) ?? [])).toEqual(times);
    }
  });

  test("d without marks: the selected against the one before; Space marks two and d compares them; long diffs scroll", async () => {
    const { session, projectId } = await store(["first step", "second step"]);
    await saveSnapshot(session, {
      input: fromFields({
        goal: "third step",
        constraints: Array.from({ length: 30 }, (_, i) => `约束 number ${i + 1}`),
        decisions: ["use polling"],
      }),
    });
    const h = mount(session, picker(projectId));
    await h.until((x) => x.includes("webapp · 3 snapshots") && /› {2}third_step/.test(x), "the picker");
    h.press("j", "d");
    // (The title shows while the diff is still computed: "Comparing…". Wait for the diff itself.)
    let f = await h.until(
      (x) => x.includes("webapp · what changed") && !x.includes("Comparing…"),
      "the diff of the second and the first",
    );
    expect(f).toMatch(/first_step\S* \(.*\) → second_step/);
    expect(f).toContain('goal: "first step" → "second step"');
    h.press("q", "k", "d");
    f = await h.until(
      (x) => /second_step\S* \(.*\) → third_step/.test(x),
      "the newest against the one before",
    );
    expect(f).toContain("+ constraint: 约束 number 1");
    expect(f).toMatch(/↓ \d+ more lines/);
    h.press("G");
    await h.until((x) => x.includes("end") && x.includes("约束 number 30"), "the end of the diff");
    h.press("q", " ", "G", " ");
    await h.until((x) => x.includes("2 marked"), "two marked");
    h.press(KEY.down); // the selection moves; the marks decide
    h.press("d");
    f = await h.until((x) => /first_step\S* \(.*\) → third_step/.test(x), "the diff of the two marked");
    expect(f).toContain('goal: "first step" → "third step"');
    h.press("q", "g", " ");
    await h.until((x) => x.includes("1 marked"), "third_step unmarked, first_step still marked");
    h.press("d");
    await h.until(
      (x) => /first_step\S* \(.*\) → third_step/.test(x),
      "the marked one against the selected one",
    );
    h.press("q", "G", " ");
    await h.until((x) => !x.includes("marked"), "none marked");
    h.press("d");
    await h.until(
      (x) => x.includes("first_step") && x.includes("is the oldest snapshot: nothing before it"),
      "the oldest has nothing before it",
    );
  });
});

/** The picker on three snapshots, newest first: 夜间构建 (#夜间 #release), release candidate (#release), untagged work. */
async function releasePicker() {
  const { session, projectId } = await store(["untagged work"]);
  await saveSnapshot(session, { input: fromFields({ goal: "release candidate", tags: ["release"] }) });
  await saveSnapshot(session, { input: fromFields({ goal: "夜间构建", tags: ["夜间", "release"] }) });
  return mount(session, picker(projectId));
}

describe("tag filter in the picker", () => {
  test("t filters by a tag as typed, shown in the title; Enter keeps it; Esc clears it", async () => {
    const h = await releasePicker();
    let f = await h.until((x) => x.includes("webapp · 3 snapshots"), "the picker");
    expect(f).toContain("t tag");
    h.press("t");
    await h.until((x) => x.includes("type a tag") && x.includes("tags here: #"), "the tag field");
    h.press("夜");
    await h.until(
      (x) => x.includes("tags here: #夜间") && !x.includes("#release  "),
      "the tags that start so",
    );
    h.press("间");
    f = await h.until((x) => x.includes("1 of 3 snapshots · #夜间"), "one snapshot tagged 夜间");
    expect(f).toContain("夜间构建");
    expect(f).not.toContain("release candidate");
    h.press(KEY.esc);
    await h.until(
      (x) => x.includes("webapp · 3 snapshots") && x.includes("untagged work"),
      "cleared while typing",
    );
    h.press("t", "#Release", KEY.enter);
    f = await h.until(
      (x) => x.includes("2 of 3 snapshots · #Release") && !x.includes("type a tag"),
      "the tag kept (case folded)",
    );
    expect(f).not.toContain("untagged work");
    expect(f).toContain("t changes the tag, Esc clears it");
    h.press(KEY.enter);
    await h.until((x) => x.includes("Layer 1") && x.includes("夜间构建"), "the first tagged snapshot opened");
    h.press("q");
    await h.until((x) => x.includes("2 of 3 snapshots · #Release"), "back on the filtered list");
    h.press(KEY.esc);
    await h.until(
      (x) => x.includes("webapp · 3 snapshots") && x.includes("untagged work"),
      "the tag cleared",
    );
  });
});

describe("marks and the filter", () => {
  test("the title says how many marked snapshots the tag or search hides: '2 marked, 1 hidden', whole at 80 columns", async () => {
    const h = await releasePicker();
    await h.until((x) => x.includes("webapp · 3 snapshots"), "the picker");
    // Newest first: the tagged 夜间构建 on top, the untagged one last.
    h.press(" ", "G", " ");
    await h.until((x) => x.includes("3 snapshots · 2 marked") && !x.includes("hidden"), "two marked");
    h.press("t", "release", KEY.enter);
    await h.until((x) => x.includes("2 of 3 snapshots · #release"), "the tag kept");
    const f = await h.until((x) => x.includes("#release · 2 marked, 1 hidden"), "the untagged mark hidden");
    expect(f).not.toContain("untagged work");
    h.press(KEY.esc);
    await h.until((x) => x.includes("3 snapshots · 2 marked") && !x.includes("hidden"), "all shown again");
    h.press("/", "candidate", KEY.enter);
    await h.until((x) => x.includes("· 2 marked, 2 hidden "), "a search that shows neither");
  });
});

describe("80 columns: prompts, status lines and picker rows keep what matters", () => {
  test("a long rule or fact is shortened so the y-hint shows; a long refusal wraps and keeps its advice", async () => {
    const { session, projectId } = await store(["long texts"]);
    const long = "所有回答都用简体中文，先列出计划然后逐步执行，每一步都说明理由并给出可以运行的测试命令";
    await addRule(session, long, "project");
    await addFact(
      session,
      `the staging database is read-only until the migration of ${"every table ".repeat(6)}is done`,
      { ttl: "3d" },
    );
    const h = mount(session, picker(projectId));
    await h.until((x) => x.includes("webapp · 1 snapshot"), "the picker");
    h.press("R");
    await h.until((x) => x.includes("Standing rules · webapp + global · 1"), "the rules");
    h.press("x");
    let f = await h.until((x) => x.includes("Remove rule 1: 所有回答"), "the question");
    expect(f).toMatch(/Remove rule 1: 所有回答\S*…\? y to remove, any other key to keep it\./);
    h.press("n");
    await h.until((x) => x.includes("Kept it."), "kept");
    // Over the budget: the engine's one sentence, ~200 characters, shows whole over up to three lines.
    h.press("a", Array.from({ length: 100 }, (_, i) => `word${i}`).join(" "), KEY.enter);
    f = await h.until((x) => x.includes("over their 150-token budget"), "the refusal");
    const said = f
      .split("\n")
      .map((l) => l.trim())
      .join(" ");
    expect(said).toMatch(
      /This rule would make the rules \d+ tokens, over their 150-token budget \(now 52 tokens in 1 rule\(s\)\), so nothing was changed: shorten it, or remove a rule first \(`mindsave rules list`\)\./,
    );
    h.press(KEY.esc); // alone: Esc followed at once by a key reads as Alt+key
    await h.until((x) => x.includes("Cancelled."), "the form closed");
    h.press("q", "F");
    await h.until((x) => x.includes("Facts · webapp + global · 1"), "the facts");
    h.press("r");
    f = await h.until((x) => x.includes('Renew "the staging'), "the renew question");
    expect(f).toMatch(/Renew "the staging[^"]*…" as true now\? y to renew, any other key keeps it\./);
  });

  test("picker rows show the goal whole and each name's date and -2/-3 suffix, the name cut in its middle", async () => {
    const { session, projectId } = await store([
      "add rate limiting to the api gateway",
      "add rate limiting to the api gateway",
      "add rate limiting to the api gateway",
    ]);
    const names = (await projectSnapshots(session, projectId)).map((s) => s.name);
    expect(names[0]).toMatch(/^add_rate_limiting_to_\d{4}-\d\d-\d\d-3$/);
    const h = mount(session, picker(projectId));
    const f = await h.until((x) => x.includes("webapp · 3 snapshots"), "the picker");
    // 80 columns: 21 for the pointer, age and status, 36 for the goal; the name has the other 23.
    for (const name of names)
      expect(f).toMatch(
        new RegExp(
          `add_rate_\\S*…${name.slice(name.lastIndexOf("_") + 1)} +\\d+s +in progress add rate limiting to the api gateway\n`,
        ),
      );
  });

  test("tag filter: Tab completes to the first tag suggested; Enter takes the only tag that starts so", async () => {
    const { session, projectId } = await store(["untagged"]);
    await saveSnapshot(session, { input: fromFields({ goal: "faster queries", tags: ["perf"] }) });
    await saveSnapshot(session, {
      input: fromFields({ goal: "cut a release", tags: ["release", "regression"] }),
    });
    const h = mount(session, picker(projectId));
    await h.until((x) => x.includes("webapp · 3 snapshots"), "the picker");
    h.press("t", "pe");
    let f = await h.until((x) => x.includes("tags here: #perf  (Enter keeps #perf)"), "the only suggestion");
    expect(f).toContain("Tab complete");
    // The list, empty for #pe itself, says what Enter keeps rather than only that nothing matches.
    expect(f).toContain("No snapshot is tagged #pe itself; Enter keeps #perf.");
    h.press(KEY.enter);
    f = await h.until(
      (x) => x.includes("1 of 3 snapshots · #perf") && !x.includes("type a tag"),
      "#perf kept, not #pe",
    );
    expect(f).toContain("faster queries");
    h.press(KEY.esc);
    await h.until((x) => x.includes("webapp · 3 snapshots"), "the tag cleared");
    h.press("t", "re");
    // The project's tags most used first, then by name (both once here).
    await h.until(
      (x) => x.includes("tags here: #regression #release  (Tab: #regression)"),
      "two suggestions",
    );
    h.press(KEY.tab);
    await h.until(
      (x) => x.includes("1 of 3 snapshots · #regression") && x.includes("cut a release"),
      "completed to #release while typing",
    );
  });

  test("the tag row shows the tags whole when they fit, else the long ones cut so the others show: at 80 and 60 columns, a Chinese tag too", async () => {
    const { session, projectId } = await store(["untagged"]);
    // Most used first: #release-candidate (3), #性能优化测试 (2), #x (1).
    for (const tags of [
      ["release-candidate", "性能优化测试", "x"],
      ["release-candidate", "性能优化测试"],
      ["release-candidate"],
    ])
      await saveSnapshot(session, { input: fromFields({ goal: tags.join(" "), tags }) });
    const tagRow = (f: string) => f.split("\n").find((l) => l.startsWith("# "));
    const wide = mount(session, picker(projectId));
    await wide.until((x) => x.includes("webapp · 4 snapshots"), "the picker at 80 columns");
    wide.press("t");
    const all = await wide.until((x) => x.includes("tags here:"), "every tag at 80 columns");
    expect(tagRow(all)).toBe("# █a tag, e.g. release  tags here: #release-candidate #性能优化测试 #x");
    const narrow = mountApp(session, { initial: picker(projectId), columns: 60, rows: 24, fits: true });
    await narrow.until((x) => x.includes("webapp · 4 snapshots"), "the picker at 60 columns");
    narrow.press("t");
    // The placeholder keeps its line; the tags get the rest: the long ones cut to one width, so all three show.
    const some = await narrow.until((x) => x.includes("tags here:"), "the tags at 60 columns");
    expect(tagRow(some)).toBe("# █a tag, e.g. release  tags here: #release-c… #性能优化… #x");
    expect(some).not.toContain("\n release");
    narrow.press("性");
    const chinese = await narrow.until((x) => x.includes("Enter keeps"), "the Chinese tag suggested");
    expect(tagRow(chinese)).toBe("# 性█  tags here: #性能优化测试  (Enter keeps #性能优化测试)");
    narrow.press("\x7f", "re");
    // Enter's tag whole, the list's shortened to what is left.
    const only = await narrow.until((x) => x.includes("Enter keeps #release"), "the only completion");
    expect(tagRow(only)).toBe("# re█  tags here: #releas…  (Enter keeps #release-candidate)");
    // However little room is left, a tag shows a character of its own or gives way to "…", never "#…".
    for (let cols = 0; cols <= 14; cols++) {
      const list = tagList(["性能优化测试", "x"], cols, "…");
      expect(width(list)).toBeLessThanOrEqual(cols);
      expect(list).not.toContain("#…");
    }
  });

  test("one long tag does not hide the others: it is cut with an ellipsis, past what fits '+N more'; the first always shows", async () => {
    const long = "a-very-long-tag-name-that-goes-on-and-on-forever";
    const { session, projectId } = await store(["untagged"]);
    // Most used first: the long one (3), #perf (2), then #ui and #性能优化 (1 each).
    for (const tags of [
      [long, "perf", "性能优化"],
      [long, "perf"],
      [long, "ui"],
    ])
      await saveSnapshot(session, { input: fromFields({ goal: tags.join(" "), tags }) });
    const tagRow = (f: string) => f.split("\n").find((l) => l.startsWith("# "));
    for (const [columns, row] of [
      [80, "# █a tag, e.g. release  tags here: #a-very-long-tag-name-th… #perf #ui #性能优化"],
      [60, "# █a tag, e.g. release  tags here: #a-very-lo… #perf +2 more"],
    ] as const) {
      const h = mountApp(session, { initial: picker(projectId), columns, rows: 24, fits: true });
      await h.until((x) => x.includes("webapp · 4 snapshots"), `the picker at ${columns} columns`);
      h.press("t");
      expect(tagRow(await h.until((x) => x.includes("tags here:"), `the tags at ${columns} columns`))).toBe(
        row,
      );
    }
    // Many tags: the long one cut, the others whole as far as they go, then how many more.
    const many = [long, ...Array.from({ length: 12 }, (_, i) => `tag-number-${i}`)];
    expect(tagList(many, 80, "…")).toBe(
      "#a-very-long-tag-name-that-go… #tag-number-0 #tag-number-1 #tag-number-2 +9 more",
    );
    for (let cols = 0; cols <= 90; cols++) {
      const list = tagList(many, cols, "…");
      expect(width(list)).toBeLessThanOrEqual(cols);
      if (cols >= 3) expect(list).toStartWith("#a"); // the first, what Tab takes
      const shown = list.split(" ").filter((t) => t.startsWith("#")).length;
      // Tags left out are counted, once there is room for the count.
      const left = / \+(\d+) more$/.exec(list)?.[1];
      if (left !== undefined) expect(Number(left)).toBe(many.length - shown);
      if (cols >= 20) expect(left).toBeDefined();
    }
  });

  test("a marked row shows its number, then a space, then the name: at 80 and 60 columns, a Chinese name too", async () => {
    const { session, projectId } = await store(["add login form", "修复登录页面的错误并补上测试"]);
    for (const columns of [80, 60]) {
      const h = mountApp(session, { initial: picker(projectId), columns, rows: 24, fits: true });
      await h.until((x) => x.includes("webapp · 2 snapshots"), `the picker at ${columns} columns`);
      h.press(" ", "j", " ");
      const f = await h.until((x) => x.includes("2 marked"), `both marked at ${columns} columns`);
      const rows = f.split("\n").filter((l) => /\d{4}-\d\d-\d\d/.test(l));
      // Newest first: the Chinese one marked 1, the other marked 2 and selected.
      expect(rows[0]).toMatch(/^ 1 修复登/);
      expect(rows[1]).toMatch(/^›2 add_log/);
      h.press(" ");
      const one = await h.until((x) => x.includes("1 marked"), `one unmarked at ${columns} columns`);
      expect(one.split("\n").find((l) => l.includes("add_log"))).toMatch(/^› {2}add_log/);
    }
  });

  test("a third Space says that at most two snapshots can be marked", async () => {
    const { session, projectId } = await store(["one", "two", "three"]);
    const h = mount(session, picker(projectId));
    await h.until((x) => x.includes("webapp · 3 snapshots"), "the picker");
    h.press(" ", "j", " ", "j", " ");
    const f = await h.until((x) => x.includes("At most two snapshots can be marked"), "the refusal");
    expect(f).toContain("2 marked");
  });
});

describe("screens never go stale", () => {
  test("the facts screen works freshness out again: a fact that expired while it was shown says so", async () => {
    const { session, projectId } = await store(["facts"]);
    const t0 = Date.now();
    const then = await Session.open(
      { home: session.home.dir, cwd: session.cwd, env: session.env, now: () => new Date(t0) },
      { write: true },
    );
    await addFact(then, "the deploy lock is held", { ttl: "1m" });
    await then.close();
    let clock = t0 + 45_000;
    const h = mount(session, picker(projectId), () => new Date(clock));
    await h.until((x) => x.includes("webapp · 1 snapshot"), "the picker");
    h.press("F");
    await h.until(
      (x) => x.includes("the deploy lock is held") && x.includes("expires in 15s"),
      "the fresh fact",
    );
    clock = t0 + 75_000;
    h.press("z"); // any key, even one that does nothing
    const f = await h.until((x) => x.includes("EXPIRED 15s ago"), "the fact expired");
    expect(f).toContain("Facts · webapp + global · 1 · 1 expired");
  });

  test("back on the projects list, a save made elsewhere meanwhile shows in the count", async () => {
    const { session } = await store(["one", "two"]);
    const h = mount(session, [{ name: "home" }]);
    await h.until((x) => x.includes("Projects (1)") && x.includes("2 snaps"), "the projects list");
    h.press(KEY.enter);
    await h.until((x) => x.includes("webapp · 2 snapshots"), "the picker");
    await saveSnapshot(session, { input: fromFields({ goal: "saved from a terminal meanwhile" }) });
    h.press("q");
    const f = await h.until((x) => x.includes("Projects (1)") && x.includes("3 snaps"), "the new count");
    expect(f).toContain("saved from a terminal meanwhile");
  });
});

describe("snapshot view: a retired item's reason", () => {
  test("shows when, on which host and why it was retired", async () => {
    const { session, projectId } = await store(["retire with a reason"]);
    await retire(session, "1", { reason: "we use 503 now" });
    const [snap] = await projectSnapshots(session, projectId);
    const h = mount(session, [{ name: "home" }, { name: "snapshot", snapshotId: snap.id }]);
    const f = await h.until((x) => x.includes("Layer 2"), "the snapshot");
    expect(f.replace(/\s+/g, " ")).toMatch(
      /× no tailwind \(retired \d{4}-\d\d-\d\d by host tui-host — "we use 503 now"; never restored\)/,
    );
  });
});
