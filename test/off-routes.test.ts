// A project's "off" (`mindsave off`) is never lost by another route: `projects link` (either way,
// and a switch that reaches a store by sync after the link), `projects split`, and `export` then
// `import` on another laptop, and `doctor --repair`. The linked, split, imported or repaired project
// stays off; an import never turns one on.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { claudeSessionHooks } from "./claude-hooks.ts";
import {
  childEnv,
  destroyTable,
  dumpStore,
  gitRepo,
  run,
  twoLaptops,
  type LaptopWithClone,
} from "./helpers.ts";
import { atPlace, fail, inClone, save, syncScene, type Place } from "./engine-setup.ts";
import { offHere, switchMindSave } from "../src/engine/projects/off.ts";
import { attachProject, linkProjects } from "../src/engine/projects/projects.ts";
import { exportSeed } from "../src/engine/formats/seed-export.ts";
import { importSeed } from "../src/engine/formats/seed-import.ts";
import { locateSeed } from "../src/engine/formats/seed-layout.ts";
import { Session } from "../src/engine/session.ts";
import { resolveProject } from "../src/engine/projects/resolve.ts";
import { repairHome } from "../src/engine/home/repair.ts";
import { closeAll, mount } from "./tui-harness.tsx";

afterEach(closeAll);

const GOAL = "把登录改成 JWT: move login to JWT";
const BLOG = "写博客 write the blog";

const switchAt = (place: Place, off: boolean) => atPlace(place, (s) => switchMindSave(s, { off }));
const isOffAt = async (place: Place) => (await atPlace(place, offHere)).project !== null;

/** Claude Code's session-start hook on laptop `pc` in `cwd`: the restore block, or nothing when off. */
const sessionStart = (pc: LaptopWithClone, cwd = pc.repo) =>
  run(["hook", "session-start", "--home", pc.home], {
    cwd,
    env: pc.env,
    stdin: JSON.stringify(claudeSessionHooks(cwd, { prompt: "go on", file: "src/auth.ts" })[0][1]),
  });

/** Laptop A's shop (made first) and a blog of another history beside it, each with a snapshot. */
async function shopAndBlog(prefix: string) {
  const w = twoLaptops(prefix);
  const blog = gitRepo(join(w.base, "laptop-a-work", "blog"), { "post.md": "# 博客 blog\n" });
  await save(inClone(w.a), { goal: GOAL });
  const atBlog: Place = { ...inClone(w.a), cwd: blog };
  await save(atBlog, { goal: BLOG });
  return { ...w, blog, atBlog };
}

describe("projects link", () => {
  test("a project that is off, linked into one that is on: the linked project is off (said by link), hooks in both folders are quiet, `on` turns it on", async () => {
    const { a, blog, atBlog } = await shopAndBlog("mindsave-off-link-");
    await switchAt(atBlog, true);
    const linked = await a.cli(["projects", "link", "blog"]);
    expect(linked).toMatchObject({ code: 0, stderr: "" });
    expect(linked.stdout).toContain("Linked blog into shop");
    expect(linked.stdout).toContain("MindSave is off in shop: blog was switched off");
    const before = await dumpStore(a.db);
    for (const cwd of [a.repo, blog])
      expect(await sessionStart(a, cwd)).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await dumpStore(a.db)).toBe(before);
    // One switch for the linked project: `on` in either folder turns it on for both.
    await switchAt(atBlog, false);
    const restored = (await sessionStart(a, a.repo)).stdout;
    expect(restored).toContain(BLOG);
    expect(await isOffAt(inClone(a))).toBe(false);
  });

  test("a switch that reaches a store by sync after the link there is carried to the linked project, on both laptops", async () => {
    const w = await shopAndBlog("mindsave-off-link-sync-");
    for (const pc of [w.a, w.b]) await syncScene(inClone(pc), w.drive);
    // Laptop B links blog into shop; laptop A, not told yet, switches blog off.
    await atPlace(inClone(w.b), (s) => linkProjects(s, "blog"));
    await switchAt(w.atBlog, true);
    for (const pc of [w.a, w.b, w.a]) await syncScene(inClone(pc), w.drive);
    expect(await isOffAt(inClone(w.a))).toBe(true);
    expect(await isOffAt(inClone(w.b))).toBe(true);
    const before = await dumpStore(w.b.db);
    expect(await sessionStart(w.b)).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await dumpStore(w.b.db)).toBe(before);
  });
});

describe("projects split", () => {
  test("a checkout split off a project that is off is a project that is off, and split says so", async () => {
    const w = twoLaptops("mindsave-off-split-");
    const copy = join(w.base, "laptop-a-work", "shop-copy");
    gitRepo(copy);
    await save(inClone(w.a), { goal: GOAL });
    const atCopy: Place = { ...inClone(w.a), cwd: copy };
    await atPlace(atCopy, (s) => attachProject(s, "shop"));
    await switchAt(inClone(w.a), true);
    const split = await run(["projects", "split", "--home", w.a.home], { cwd: copy, env: w.a.env });
    expect(split).toMatchObject({ code: 0, stderr: "" });
    expect(split.stdout).toContain("MindSave is off in shop-copy, as it was in shop");
    expect(await isOffAt(atCopy)).toBe(true);
    expect(await isOffAt(inClone(w.a))).toBe(true);
  });
});

describe("a project found again under a new identity", () => {
  test("a folder whose project is off, its git history replaced: hooks stay quiet and make no project; a save there makes one that is off", async () => {
    const { a, blog, atBlog } = await shopAndBlog("mindsave-off-new-history-");
    await switchAt(atBlog, true);
    const was = (await atPlace(atBlog, (s) => resolveProject(s, { create: false })))!.project.id;
    rmSync(join(blog, ".git"), { recursive: true });
    gitRepo(blog, { "post.md": "# 另一个历史 another history\n" });
    const before = await dumpStore(a.db);
    expect(await sessionStart(a, blog)).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await dumpStore(a.db)).toBe(before);
    const saved = await save(atBlog, { goal: "a person's own save" });
    expect(saved.context.project.id).not.toBe(was);
    expect(await isOffAt(atBlog)).toBe(true);
    await switchAt(atBlog, false);
    expect(await isOffAt(atBlog)).toBe(false);
  });
});

describe("projects attach", () => {
  test("a checkout whose project is off, attached to a project that is on, is told that hooks keep memory there now", async () => {
    const w = twoLaptops("mindsave-off-attach-");
    const copy = join(w.base, "laptop-a-work", "shop-copy");
    gitRepo(copy);
    const atCopy: Place = { ...inClone(w.a), cwd: copy };
    await save(inClone(w.a), { goal: GOAL });
    await save(atCopy, { goal: BLOG });
    await switchAt(atCopy, true);
    const attached = await run(["projects", "attach", "shop", "--home", w.a.home], {
      cwd: copy,
      env: w.a.env,
    });
    expect(attached).toMatchObject({ code: 0, stderr: "" });
    expect(attached.stdout).toContain("MindSave was off in shop-copy and is on in shop");
  });
});

describe("export and import", () => {
  test("an export of a project that is off carries it (off.json): imported on another laptop, that project is off; an import never turns one on", async () => {
    const w = twoLaptops("mindsave-off-export-");
    await save(inClone(w.a), { goal: GOAL });
    await switchAt(inClone(w.a), true);
    const out = join(w.base, "export");
    const exported = await atPlace(inClone(w.a), (s) => exportSeed(s, { out }));
    expect(exported.off).toBe(true);
    expect(JSON.parse(readFileSync(join(out, ".mindsave", "off.json"), "utf8")).off).toBe(true);
    const imported = await w.b.cli(["import", out]);
    expect(imported).toMatchObject({ code: 0, stderr: "" });
    expect(imported.stdout).toContain("MindSave was off in the exported project, so it is off in shop now");
    const before = await dumpStore(w.b.db);
    expect(await sessionStart(w.b)).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await dumpStore(w.b.db)).toBe(before);
    // On again on laptop A, exported again over the same folder: off.json says on, and an import of it
    // into laptop B's project (still off) leaves it off.
    await switchAt(inClone(w.a), false);
    await atPlace(inClone(w.a), (s) => exportSeed(s, { out }));
    expect(JSON.parse(readFileSync(join(out, ".mindsave", "off.json"), "utf8"))).toEqual({ off: false });
    const again = await atPlace(inClone(w.b), (s) => importSeed(s, locateSeed(out)));
    expect(again.off).toBe(false);
    expect(await isOffAt(inClone(w.b))).toBe(true);
  });
});

describe("the projects list", () => {
  test("`projects` and the TUI's home say which project is off", async () => {
    const { a, atBlog } = await shopAndBlog("mindsave-off-list-");
    await switchAt(atBlog, true);
    const lines = (await a.cli(["projects"])).stdout.split("\n");
    expect(lines.find((l) => /^\s*blog /.test(l))).toContain("(MindSave off)");
    expect(lines.find((l) => /^\*\s*shop /.test(l))).not.toContain("MindSave off");
    const session = await Session.open(
      { home: a.home, cwd: a.repo, env: { ...process.env, ...a.env } },
      { write: true },
    );
    const h = mount(session, { initial: [{ name: "home" }] });
    const frame = (await h.until((x) => x.includes("blog") && x.includes("shop"), "both projects")).split(
      "\n",
    );
    const blogRow = frame.findIndex((l) => / blog /.test(l));
    expect(frame[blogRow + 1]).toContain("MindSave off · ");
    expect(frame.filter((l) => l.includes("MindSave off"))).toHaveLength(1);
  });
});

describe("doctor --repair", () => {
  test("a store salvaged after its projects' page was lost keeps the project off (the project made again under its id)", async () => {
    const w = twoLaptops("mindsave-off-repair-");
    await save(inClone(w.a), { goal: GOAL });
    await switchAt(inClone(w.a), true);
    await destroyTable(w.a.db, "projects");
    const repair = await w.a.cli(["doctor", "--repair"]);
    expect(repair.code).toBe(0);
    expect(await isOffAt(inClone(w.a))).toBe(true);
  });

  test("projects whose rows and roots were lost, made again away from their folders: the folders stay off, and the repair names them", async () => {
    const { a, base } = twoLaptops("mindsave-off-lost-");
    const work = join(base, "work");
    const files = { "notes.md": "# 笔记 notes\n" };
    // notes-2 is a second checkout of notes' history (a project of its own id); diary has its own.
    const [notes, notes2, diary] = ["notes", "notes-2", "diary"].map((name) =>
      gitRepo(join(work, name), name === "diary" ? { "diary.md": "# 日记\n" } : files),
    );
    const at = (cwd: string): Place => ({ ...inClone(a), cwd });
    await save(at(notes), { goal: GOAL });
    await save(at(notes2), { goal: "a second copy of the notes" });
    // diary saved no snapshot: only its failure names it after the repair.
    await fail(at(diary), "a nightly cron job", "runs twice after a reboot");
    for (const off of [notes2, diary]) await switchAt(at(off), true);
    const idOf = (cwd: string) =>
      atPlace(at(cwd), async (s) => (await resolveProject(s, { create: false }))!.project.id);
    const ids = [await idOf(notes2), await idOf(diary)];
    await destroyTable(a.db, "projects");
    await destroyTable(a.db, "roots");
    // The folders are away while the repair runs (a drive not plugged in): it cannot tell whose they are.
    renameSync(work, `${work}-away`);
    let repair;
    try {
      repair = await a.cli(["doctor", "--repair"]);
    } finally {
      renameSync(`${work}-away`, work);
    }
    expect(repair.code).toBe(0);
    // It names the projects that are off, and how a folder nothing ties to them stays off.
    const named = repair.stdout.split("\n").filter((l) => l.includes("It is switched off"));
    expect(named.map((l) => l.match(/\((p_[^)]+)\)/)?.[1]).sort()).toEqual(ids.sort());
    expect(named[0]).toEndWith(
      "It is switched off: linking it keeps that folder off (or run `mindsave off` there).",
    );
    // notes-2 is tied to its project by the snapshot saved there on this host, diary by its history.
    const repaired = await dumpStore(a.db);
    for (const cwd of [notes2, diary]) {
      const payload = { session_id: "s-1", cwd, hook_event_name: "SessionStart", source: "startup" };
      const start = await run(["hook", "session-start", "--home", a.home], {
        cwd,
        env: a.env,
        stdin: JSON.stringify(payload),
      });
      expect(start).toEqual({ code: 0, stdout: "", stderr: "" });
    }
    expect(await dumpStore(a.db)).toBe(repaired); // no project made, nothing noted
    // A person's save there makes a new project (the repaired ones lost their folders' identity): off.
    for (const cwd of [notes2, diary]) {
      await save(at(cwd), { goal: BLOG });
      expect(await isOffAt(at(cwd))).toBe(true);
    }
    // The project that was on stays on, and `mindsave on` turns a new one on, as anywhere.
    expect(await isOffAt(at(notes))).toBe(false);
    await switchAt(at(diary), false);
    expect(await isOffAt(at(diary))).toBe(false);
  });

  test("two checkouts of one history, the second switched off, their roots lost: the second stays off, the first stays on", async () => {
    const { a, base } = twoLaptops("mindsave-off-kin-");
    const at = (cwd: string): Place => ({ ...inClone(a), cwd });
    // Each pair: the same files and dates, one root commit. notes-2 is named apart from notes; the
    // second diary has the first one's folder name (its project is "diary~2").
    const notesFiles = { "notes.md": "# 笔记 notes\n" };
    const [notes, notes2] = ["notes", "notes-2"].map((name) => gitRepo(join(base, "work", name), notesFiles));
    const diaryFiles = { "diary.md": "# 日记 diary\n" };
    const [diary, diary2] = ["work", "old"].map((dir) => gitRepo(join(base, dir, "diary"), diaryFiles));
    // notes saved no snapshot (only a failure), the first diary did.
    await fail(at(notes), "a nightly cron job", "runs twice after a reboot");
    await save(at(diary), { goal: BLOG });
    // `off` in the second makes it a project of its own (the first folder is the first's checkout), switched off.
    for (const second of [notes2, diary2]) await switchAt(at(second), true);
    const idOf = async (cwd: string) =>
      (await atPlace(at(cwd), (s) => resolveProject(s, { create: false })))?.project.id;
    const ids = await Promise.all([notes, notes2, diary, diary2].map(idOf));
    expect(new Set(ids).size).toBe(4);
    expect(await isOffAt(at(notes))).toBe(false);
    await destroyTable(a.db, "roots");
    const repair = await repairHome({ home: a.home, env: childEnv(a.env) });
    expect(repair.repaired).toBe(true);
    // The second checkouts' hooks come first: no root, no snapshot ties them to either project.
    const repaired = await dumpStore(a.db);
    for (const second of [notes2, diary2])
      expect(await sessionStart(a, second)).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await dumpStore(a.db)).toBe(repaired);
    // The first diary is told by the snapshot it saved in its folder, notes by its folder's name.
    const restored = await sessionStart(a, diary);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(BLOG);
    expect(await Promise.all([notes, notes2, diary, diary2].map(idOf))).toEqual(ids);
    for (const second of [notes2, diary2]) expect(await isOffAt(at(second))).toBe(true);
    for (const first of [notes, diary]) expect(await isOffAt(at(first))).toBe(false);
  });
});
