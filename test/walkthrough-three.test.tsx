// Fixes from a third new-user walkthrough: Codex's session start in plain text, opencode's
// prompt-less snapshots, an edit in the failure graph that is no new sighting, the `?` overlay in a
// short terminal, the "more below" marker of the projects list, and scan's word on old backups.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Session } from "../src/engine/session.ts";
import { resolveProject } from "../src/engine/projects/resolve.ts";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { fromFields } from "../src/engine/snapshots/input.ts";
import { failuresFor, recordFailure, removeFailure } from "../src/engine/failures/record.ts";
import { PICKER_KEYS } from "../ui/components/PickerScreen.tsx";
import { agentProject, payloads } from "./agent-fixtures.ts";
import { gitRepo, sql } from "./helpers.ts";
import { closeAll, KEY, mount, openStore } from "./tui-harness.tsx";

afterEach(closeAll);

const DAY = 24 * 60 * 60 * 1000;
const ageless = (text: string) => text.replace(/\([^()]* ago\)/g, "(…)");

describe("Codex: session start in plain text", () => {
  test("session-start --agent codex prints the restore block as plain text (no additionalContext JSON, which codex-cli 0.154.0 fails)", async () => {
    const t = agentProject();
    expect((await t.cli(["save", "--goal", "Ship the JWT login", "--next", "add the expiry check"])).code).toBe(0);
    const claude = await t.hook(null, "session-start", { session_id: "probe", cwd: t.repo, hook_event_name: "SessionStart", source: "startup" });
    const block: string = JSON.parse(claude.stdout).hookSpecificOutput.additionalContext;
    const r = await t.hook("codex", "session-start", payloads("codex", t.repo).SessionStart.payload);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(r.stdout).not.toContain("additionalContext");
    // Codex fails text that starts like JSON; plain text is handed to the model as it is.
    expect(r.stdout).not.toMatch(/^\s*[[{]/);
    expect(ageless(r.stdout)).toBe(ageless(block).replace(/\n*$/, "\n"));
    expect(r.stdout).toContain("goal: Ship the JWT login");
  });
});

describe("opencode: snapshots without the user's prompt", () => {
  test("no snapshot yet: the goal is marked unknown (not an instruction), named unknown_goal_<date>; with one, the newest's goal carries on", async () => {
    const t = agentProject();
    const p = payloads("opencode", t.repo);
    for (const name of ["session.start", "tool.execute.after", "session.compacting"]) expect((await t.hook("opencode", p[name].arg, p[name].payload)).code).toBe(0);
    const [first] = await sql(t.db, "SELECT name, goal, saved_agent FROM snapshots WHERE deleted = 0");
    expect(first).toMatchObject({ goal: "(unknown: no prompt of this session reached MindSave)", saved_agent: "opencode" });
    expect(String(first!.name)).toMatch(/^unknown_goal_\d{4}-\d\d-\d\d$/);
    expect(String(first!.goal)).not.toContain("Continue the current task");

    // A project with a snapshot: a prompt-less opencode session carries its goal on, as Claude Code's "continue" does.
    const u = agentProject();
    expect((await u.cli(["save", "--goal", "Cache the product list", "--next", "raise the TTL"])).code).toBe(0);
    const q = payloads("opencode", u.repo);
    for (const name of ["session.start", "tool.execute.after", "session.compacting"]) expect((await u.hook("opencode", q[name].arg, q[name].payload)).code).toBe(0);
    const rows = await sql(u.db, "SELECT goal, saved_agent FROM snapshots WHERE deleted = 0 ORDER BY created_at");
    expect(rows.map((r) => [r.goal, r.saved_agent])).toEqual([["Cache the product list", null], ["Cache the product list", "opencode"]]);
  });
});

describe("opencode: the person's message is the session's goal", () => {
  test("chat.message's prompt reaches the hook: the compaction's snapshot has it as its goal", async () => {
    const t = agentProject();
    const p = payloads("opencode", t.repo);
    const prompt = "Add an index on orders.created_at";
    const message = { hook_event_name: "chat.message", session_id: p["session.start"].payload.session_id, cwd: t.repo, worktree: t.repo, prompt };
    expect((await t.hook("opencode", "session-start", p["session.start"].payload)).code).toBe(0);
    expect(await t.hook("opencode", "user-prompt-submit", message)).toMatchObject({ code: 0, stdout: "" });
    for (const name of ["tool.execute.after", "session.compacting"]) expect((await t.hook("opencode", p[name].arg, p[name].payload)).code).toBe(0);
    const rows = await sql(t.db, "SELECT goal, saved_agent FROM snapshots WHERE deleted = 0");
    expect(rows.map((r) => [r.goal, r.saved_agent])).toEqual([[prompt, "opencode"]]);
  });
});

describe("failure graph: an edit is not a new sighting", () => {
  /** Tailwind seen two days ago, Redux one day ago, once each: by repeat count (ties: last seen) Redux, then Tailwind. */
  async function graph() {
    const { session, base, env } = await openStore("mindsave-wt3-");
    await saveSnapshot(session, { input: fromFields({ goal: "g" }) });
    const projectId = (await resolveProject(session, { create: false }))!.project.id;
    const at = async (ms: number, item: string, reason: string) => {
      const s = await Session.open({ home: session.home.dir, cwd: session.cwd, env, now: () => new Date(Date.now() - ms) }, { write: true });
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
    expect({ last_seen: after.last_seen, first_seen: after.first_seen, repeat_count: after.repeat_count }).toEqual({ last_seen: before.last_seen, first_seen: before.first_seen, repeat_count: 1 });
  });

  test("the selection follows the edited failure when the reloaded list puts it elsewhere", async () => {
    const { session, env, projectId } = await graph();
    const h = mount(session, { initial: [{ name: "failures", projectId }] });
    await h.until((x) => /› Redux/.test(x), "the failures");
    h.press("j", "e");
    await h.until((x) => x.includes("Edit Tailwind"), "the edit form");
    // Meanwhile another terminal records a failure that sorts first: Tailwind moves from row 2 to row 3.
    const other = await Session.open({ home: session.home.dir, cwd: session.cwd, env }, { write: true });
    await recordFailure(other, { item: "GraphQL", reason: "team knows REST", increment: true }, { projectId });
    other.close();
    h.press(KEY.tab, "CSS Modules", KEY.enter);
    const f = await h.until((x) => x.includes("Updated Tailwind") && /› Tailwind/.test(x), "the update, Tailwind still selected");
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
    const inner = (f: string) => f.split("\n").filter((l) => l.startsWith("│")).map((l) => l.replace(/^│ /, "").replace(/ *│$/, ""));
    const isMarker = (l: string) => /^(↓ \d+ more|↑ \d+ above)/.test(l);
    const body = (f: string) => {
      const lines = inner(f);
      return lines.slice(1, lines.findIndex(isMarker));
    };
    let f = await h.until((x) => x.includes("Keys · snapshots") && x.includes("more (↓/PgDn)"), "the keys, clipped with a marker");
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
      const s = await Session.open({ home: session.home.dir, cwd: gitRepo(join(base, `proj${i}`)), env }, { write: true });
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

describe("scan: backups made before a fix", () => {
  test("'No secrets found' after --fix says the backups may still hold them and how to remove them; doctor says so too", async () => {
    const t = agentProject();
    expect((await t.cli(["save", "--goal", "Ship the billing page"])).code).toBe(0);
    const token = `ghp_${Array.from({ length: 36 }, (_, i) => "aZ3kQ9xLmP2vR7tWb5NcY8dHf4GjS6uE1oKq"[(i * 7) % 36]).join("")}`;
    await sql(t.db, "UPDATE snapshots SET goal = goal || ' ' || ?", [token]);
    expect((await t.cli(["scan"])).code).toBe(1);
    expect((await t.cli(["scan", "--fix"])).code).toBe(0);
    const backups = readdirSync(t.home).filter((f) => /^mindsave\.db\.bak-/.test(f));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(t.home, backups[0]!)).includes(token)).toBe(true); // the backup does hold it

    const clean = await t.cli(["scan"]);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain("No secrets found");
    expect(clean.stdout).toContain(`1 backup(s) made before an earlier \`scan --fix\` or other rewrite (mindsave.db.bak-* in ${t.home}) may still hold what it removed: delete them`);
    expect(clean.stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse((await t.cli(["scan", "--json"])).stdout).backups).toEqual([join(t.home, backups[0]!)]);
    expect((await t.cli(["doctor"])).stdout).toMatch(/backups: .*mindsave\.db\.bak-.* \(older copies of the store; after a `scan --fix` they still hold what it redacted\)/);

    rmSync(join(t.home, backups[0]!));
    expect(existsSync(join(t.home, backups[0]!))).toBe(false);
    const none = await t.cli(["scan"]);
    expect(none.stdout).toContain("No secrets found");
    expect(none.stdout).not.toContain("backup");
  });
});
