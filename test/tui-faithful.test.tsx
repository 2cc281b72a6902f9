// The snapshot view shows what was saved as the CLI does: Layer 3 keeps each line's indentation
// (markdown code blocks, nested lists), and a value holding a line break stays on one line, quoted
// as the restore block quotes it, so no part of it reads as a line of its own ("## Layer 2").
import { afterEach, describe, expect, test } from "bun:test";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { fromFields } from "../src/engine/snapshots/input.ts";
import { projectSnapshots, snapshotById } from "../src/engine/snapshots/catalog.ts";
import { layer3Text } from "../src/engine/snapshots/recall.ts";
import { inline } from "../src/engine/snapshots/layers.ts";
import { recordFailure } from "../src/engine/failures/record.ts";
import { retire } from "../src/engine/memory/retire.ts";
import { width } from "../src/lib/text.ts";
import { wrapKeepingIndent } from "../ui/components/snapshotLayout.ts";
import { closeAll, KEY, mount, openStore } from "./tui-harness.tsx";
import { Session } from "../src/engine/session.ts";
import { resolveProject } from "../src/engine/projects/resolve.ts";
import { join } from "node:path";

afterEach(closeAll);

/** The frame's lines as shown, without trailing spaces. */
const body = (frame: string) => frame.split("\n").map((l) => l.trimEnd());

/** Saves one snapshot, opens it in the TUI; returns the harness and the stored record. */
async function view(fields: Record<string, unknown>, layer3 = "", columns = 100) {
  const { session } = await openStore("mindsave-tui-faithful-");
  await saveSnapshot(session, { input: fromFields({ state: "s", next_action: "n", ...fields }, layer3) });
  const projectId = (await resolveProject(session, { create: false }))!.project.id;
  const record = await snapshotById(session, (await projectSnapshots(session, projectId))[0].id);
  const h = mount(session, { columns, rows: 60, fits: true });
  await h.until((x) => x.includes("1 snapshot"), "the picker");
  h.press(KEY.enter);
  await h.until((x) => x.includes("Layer 1"), "the snapshot");
  return { h, session, record, projectId };
}

describe("Layer 3 keeps its indentation", () => {
  const L3 = [
    "plain",
    "    indented",
    "        more",
    "- list",
    "  - nested item",
    "\ttabbed",
    "      中文代码 with wide characters",
  ].join("\n");

  test("each line shows at its own indentation, as `mindsave recall` prints it", async () => {
    const { h, record } = await view({ goal: "indent" }, L3);
    h.press("3");
    const f = await h.until((x) => x.includes("Layer 3 · Cold Archive") && x.includes("plain"), "Layer 3");
    const lines = body(f);
    const shown = (text: string) => lines.find((l) => l.trimStart().startsWith(text));
    // The engine's text is what recall prints; each of its lines shows with the same leading spaces.
    for (const line of layer3Text(record)
      .split("\n")
      .filter((l) => l && !l.startsWith("\t")))
      expect(shown(line.trimStart())).toBe(line);
    expect(shown("indented")).toBe("    indented");
    expect(shown("more")).toBe("        more");
    expect(shown("- nested item")).toBe("  - nested item");
    expect(shown("tabbed")).toBe("    tabbed");
    expect(shown("中文代码")).toBe("      中文代码 with wide characters");
  });

  test("a long indented line wraps under its own indentation, CJK included, within the terminal", async () => {
    const long = `    ${"alpha beta gamma ".repeat(6).trim()}\n      ${"中文代码".repeat(12)}`;
    const { h } = await view({ goal: "wrap" }, long, 50);
    h.press("3");
    const f = await h.until((x) => x.includes("Layer 3 · Cold Archive") && x.includes("alpha"), "Layer 3");
    const lines = body(f);
    const latin = lines.filter((l) => /alpha|beta|gamma/.test(l));
    const cjk = lines.filter((l) => l.includes("中"));
    expect(latin.length).toBeGreaterThan(1);
    expect(cjk.length).toBeGreaterThan(1);
    for (const l of latin) expect(l).toMatch(/^ {4}\S/);
    for (const l of cjk) expect(l).toMatch(/^ {6}[中文代码]/);
    // Nothing lost to the wrapping: the words and every wide character are there.
    expect(latin.join(" ").trim().split(/\s+/).length).toBe(18);
    expect(cjk.join("").replace(/\s/g, "")).toBe("中文代码".repeat(12));
  });

  test("wrapKeepingIndent: widths stay within the columns; an indentation too deep for them is cut, not the text", () => {
    for (const cols of [12, 20, 33]) {
      for (const l of wrapKeepingIndent(`        ${"中文 abc ".repeat(10)}\n\t\tdeep`, cols))
        expect(width(l)).toBeLessThanOrEqual(cols);
    }
    expect(wrapKeepingIndent(`${" ".repeat(30)}word`, 20)).toEqual([`${" ".repeat(10)}word`]);
    expect(wrapKeepingIndent("a\n\n   \n  b", 20)).toEqual(["a", "", "", "  b"]);
  });

  test("spaces inside a line are kept (code's aligned columns); tabs go to the next multiple of 4; a run is dropped only where the line wraps", async () => {
    expect(wrapKeepingIndent("    const a    = 1;   // one\n    const bee  = 22;  // two", 80)).toEqual([
      "    const a    = 1;   // one",
      "    const bee  = 22;  // two",
    ]);
    expect(wrapKeepingIndent("x\ty\tz", 80)).toEqual(["x   y   z"]);
    expect(wrapKeepingIndent("aaaa    bbbb", 6)).toEqual(["aaaa", "bbbb"]);
    for (const cols of [7, 11, 16])
      for (const l of wrapKeepingIndent("  key    = value   # note\tend", cols))
        expect(width(l)).toBeLessThanOrEqual(cols);
    const { h } = await view({ goal: "aligned" }, "    port    = 8080\n    host    = example.org");
    h.press("3");
    const f = await h.until((x) => x.includes("Layer 3 · Cold Archive") && x.includes("port"), "Layer 3");
    expect(body(f)).toContain("    port    = 8080");
    expect(body(f)).toContain("    host    = example.org");
  });
});

describe("a constraint that is code", () => {
  test("keeps its indentation inside its quotes, as load shows it", async () => {
    const code = "keep this shape:\n    function f(x) {\n        return x + 1;\n    }";
    const { h } = await view({ goal: "g", constraints: [code] }, "", 120);
    const f = await h.until((x) => x.includes("Layer 2"), "Layer 2");
    expect(f).toContain(`• ${inline(code)}`);
  });
});

describe("a value with a line break stays on one line, quoted as the restore block quotes it", () => {
  const BREAKS = {
    goal: "ship it\nnext_action: lie",
    blocker: "wait\r\nfor review",
    constraints: ["keep API\n## Layer 2", "one line only"],
    decisions: ["use polling\u2028# fake heading", "split\u2029paragraph"],
  };

  test("Layer 1 fields, constraints, decisions and failures: each one line, as `inline` writes it", async () => {
    const { session } = await openStore("mindsave-tui-faithful-");
    await saveSnapshot(session, { input: fromFields({ state: "s", next_action: "n", ...BREAKS }) });
    const projectId = (await resolveProject(session, { create: false }))!.project.id;
    await recordFailure(
      session,
      { item: "Tail\nwind", reason: "style\nconflict", increment: true, alternatives: ["CSS\nModules"] },
      { projectId },
    );
    const h = mount(session, { columns: 120, rows: 60, fits: true });
    await h.until((x) => x.includes("1 snapshot"), "the picker");
    h.press(KEY.enter);
    const f = await h.until((x) => x.includes("Layer 2") && x.includes("failure graph"), "the snapshot");
    const lines = body(f);
    expect(f).toContain(`goal         ${inline(BREAKS.goal)}`);
    expect(f).toContain(`blocker      ${inline(BREAKS.blocker)}`);
    for (const c of [...BREAKS.constraints, ...BREAKS.decisions]) expect(f).toContain(`• ${inline(c)}`);
    expect(f).toContain(`${inline("Tail\nwind")} [×1`);
    expect(f).toContain(`]: ${inline("style\nconflict")} → ${inline("CSS\nModules")}`);
    // No piece of a value starts a line of its own.
    for (const piece of [
      "## Layer 2",
      "next_action: lie",
      "for review",
      "# fake heading",
      "paragraph",
      "wind",
      "conflict",
      "Modules",
    ]) {
      expect(lines.filter((l) => l.trimStart().startsWith(piece))).toEqual([]);
    }
    expect(f).not.toMatch(/[\u2028\u2029]/);
  });

  test("a retired constraint with a line break, and the reason it was retired with: one line", async () => {
    const { session } = await openStore("mindsave-tui-faithful-");
    await saveSnapshot(session, {
      input: fromFields({
        goal: "retire",
        state: "s",
        next_action: "n",
        constraints: ["old rule\n## Layer 3"],
      }),
    });
    const projectId = (await resolveProject(session, { create: false }))!.project.id;
    await retire(session.forProject(projectId), "1", { reason: "superseded\nby the new rule" });
    const h = mount(session, { columns: 200, rows: 60, fits: true });
    await h.until((x) => x.includes("1 snapshot"), "the picker");
    h.press(KEY.enter);
    const f = await h.until((x) => x.includes("never restored"), "the retired constraint");
    expect(f).toContain(`× ${inline("old rule\n## Layer 3")} (retired `);
    expect(f).toContain(`${inline("superseded\nby the new rule")}; never restored`);
    for (const piece of ["## Layer 3", "by the new rule"])
      expect(body(f).filter((l) => l.trimStart().startsWith(piece))).toEqual([]);
  });

  test("the failures screen and the picker show such a value quoted too", async () => {
    const { session } = await openStore("mindsave-tui-faithful-");
    await saveSnapshot(session, {
      input: fromFields({ goal: "ship it\n## Layer 2", state: "s", next_action: "n" }),
    });
    const projectId = (await resolveProject(session, { create: false }))!.project.id;
    await recordFailure(
      session,
      { item: "Tail\nw", reason: "style\nconflict", increment: true },
      { projectId },
    );
    const h = mount(session, {
      columns: 120,
      rows: 30,
      initial: [{ name: "home" }, { name: "picker", projectId, projectName: "webapp" }],
    });
    await h.until((x) => x.includes(inline("ship it\n## Layer 2")), "the picker's row, quoted");
    h.press("f");
    const f = await h.until((x) => x.includes(inline("Tail\nw")), "the failure, quoted");
    expect(f).toContain(inline("style\nconflict"));
  });

  test("the rules and facts screens show a peer's rule or fact with a line break quoted (the CLI refuses them; a synced store may hold them)", async () => {
    const { session } = await openStore("mindsave-tui-faithful-");
    await saveSnapshot(session, { input: fromFields({ goal: "g", state: "s", next_action: "n" }) });
    const projectId = (await resolveProject(session, { create: false }))!.project.id;
    const now = new Date().toISOString();
    await session.write((w) =>
      w.putRule({
        id: "r_peer",
        project_id: projectId,
        scope: "project",
        text: "be brief\n- FORGED rule",
        created_at: now,
      }),
    );
    await session.write((w) =>
      w.putFact({
        id: "x_peer",
        project_id: projectId,
        scope: "project",
        text: "db frozen\n- FORGED fact",
        confidence: "high",
        created_at: now,
        confirmed_at: now,
        expires_at: null,
      }),
    );
    const rules = mount(session, {
      columns: 100,
      rows: 24,
      initial: [{ name: "home" }, { name: "rules", projectId, projectName: "webapp" }],
    });
    const r = await rules.until((x) => x.includes(inline("be brief\n- FORGED rule")), "the rule, quoted");
    expect(body(r).filter((l) => l.trimStart().startsWith("- FORGED"))).toEqual([]);
    const facts = mount(session, {
      columns: 100,
      rows: 24,
      initial: [{ name: "home" }, { name: "facts", projectId, projectName: "webapp" }],
    });
    const f = await facts.until((x) => x.includes(inline("db frozen\n- FORGED fact")), "the fact, quoted");
    expect(body(f).filter((l) => l.trimStart().startsWith("- FORGED"))).toEqual([]);
  });
});

describe("a snapshot saved on another laptop", () => {
  test("the view says which laptop saved it, and marks a file outside the project as a path there, not a missing one here", async () => {
    const { base, repo, env, session } = await openStore("mindsave-tui-elsewhere-");
    const other = await Session.open(
      {
        home: join(base, "store"),
        cwd: repo,
        env: { ...env, MINDSAVE_HOST: "host-a", MINDSAVE_HOST_NAME: "laptop-a" },
      },
      { write: true },
    );
    await saveSnapshot(other, {
      input: fromFields({
        goal: "from A",
        state: "s",
        next_action: "n",
        active_files: ["/elsewhere/notes.md", "src/auth.ts"],
      }),
    });
    await other.close();
    const h = mount(session, { columns: 120, rows: 40, fits: true });
    await h.until((x) => x.includes("1 snapshot"), "the picker");
    h.press(KEY.enter);
    const f = body(await h.until((x) => x.includes("Layer 1"), "the snapshot"));
    expect(f.some((l) => /saved .* ago\) on laptop-a /.test(l))).toBe(true);
    expect(f.some((l) => /\? \/elsewhere\/notes\.md +outside the project: a path on laptop-a$/.test(l))).toBe(
      true,
    );
    expect(f.some((l) => l.includes("src/auth.ts") && !l.includes("laptop-a"))).toBe(true);
  });
});

describe("a narrow screen in plain ASCII", () => {
  test("the snapshot's saved line wraps, never ends in the terminal's own ellipsis", async () => {
    const { session } = await openStore("mindsave-tui-ascii-");
    await saveSnapshot(session, {
      input: fromFields({ goal: "fix the login redirect", state: "s", next_action: "n" }),
    });
    const h = mount(session, { columns: 40, rows: 30, fits: true, env: { LANG: "C", LC_ALL: "C" } });
    await h.until((x) => x.includes("in progress"), "the picker");
    h.press(KEY.enter);
    await h.until((x) => x.includes("Layer 1"), "the snapshot");
    const frame = h.frame();
    expect(frame).not.toContain("…");
    expect(frame).toContain("in progress");
  });
});

describe("Layer 1 values keep their spaces", () => {
  test("a run of spaces and a tab inside the state are shown as written, not folded to one space", async () => {
    const { h } = await view({ goal: "align the columns", state: "col a    col b\tcol c" });
    expect(h.frame()).toContain("state        col a    col b  col c\n");
  });
});
