// A hook's automatic snapshot never becomes latest knowing less than the newest one: a session that
// only says "continue" and looks around (a read-only call) leaves the hand-written goal, state, next
// action and files as the restore block; a session that does new work still saves it. Through the
// compiled binary, with real Claude Code transcripts and hook payloads.
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { hostBinary, sql } from "./helpers.ts";
import { claudeLaptop, events, payload, Transcript } from "./claude-fixtures.ts";
import { inDefaultHome, save } from "./engine-setup.ts";

let exe = "";
beforeAll(async () => {
  exe = await hostBinary();
}, 120_000);

const GOAL = "Migrate orders table to the new schema";
const STATE = "backfill at id 1200000";
const NEXT = "resume backfill from id 1200000 with batch size 5000";

type Laptop = ReturnType<typeof claudeLaptop>;

/** The person's own save, in this process as `mindsave save` runs it: the hooks are what is tested. */
const handSave = (t: Laptop, goal: string, state: string, next: string, activeFile: string[] = []) =>
  save(inDefaultHome(t), { goal, state, next, activeFile });

/** A project with the person's own snapshot of the migration. */
async function migration(): Promise<Laptop> {
  const t = claudeLaptop(exe);
  writeFileSync(join(t.repo, "a.ts"), "export const backfill = 1200000;\n");
  await handSave(t, GOAL, STATE, NEXT, ["a.ts"]);
  return t;
}

const snapshots = async (t: Laptop) =>
  (
    await sql(
      t.db,
      "SELECT name, goal, state, next_action, active_files, auto_trigger FROM snapshots WHERE deleted = 0 ORDER BY created_at",
    )
  ).map((r) => ({
    ...r,
    files: (JSON.parse(String(r.active_files)) as { path: string }[]).map((f) => f.path),
    auto: r.auto_trigger ? JSON.parse(String(r.auto_trigger)) : null,
  })) as {
    name: string;
    goal: string;
    state: string;
    next_action: string;
    files: string[];
    auto: Record<string, unknown> | null;
  }[];

const toolCalls = async (t: Laptop) => Number((await sql(t.db, "SELECT count(*) AS n FROM tool_calls"))[0].n);

/** The hook for `event` on this transcript: exit 0. */
async function fire(
  t: Laptop,
  tr: Transcript,
  event: "session-end" | "stop" | "pre-compact",
  reply = "Here is what is in the folder.",
) {
  const at = { sessionId: tr.sessionId, path: tr.path, cwd: t.repo };
  const body =
    event === "session-end"
      ? payload("SessionEnd", at, events.sessionEnd())
      : event === "stop"
        ? payload("Stop", at, events.stop(reply))
        : payload("PreCompact", at, events.preCompact("auto"));
  const r = await t.hook(event, body);
  expect(r).toMatchObject({ code: 0, stderr: "" });
  return r;
}

/** What the next session is given at its start. */
async function restored(t: Laptop, sessionId = "s9"): Promise<string> {
  const r = await t.hook(
    "session-start",
    payload("SessionStart", { sessionId, path: null, cwd: t.repo }, events.sessionStart("startup")),
  );
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).hookSpecificOutput.additionalContext;
}

/** The restore block holds the hand-written Layer 1, word for word. */
function expectMigration(block: string, repo: string): void {
  expect(block).toContain(`goal: ${GOAL}`);
  expect(block).toContain(`state: ${STATE}`);
  expect(block).toContain(`next_action: ${NEXT}`);
  expect(block).toContain(`- ${join(repo, "a.ts")}`);
  expect(block).not.toContain("(not recorded)");
}

describe("a hook snapshot that knows less never becomes latest", () => {
  for (const event of ["session-end", "stop", "pre-compact"] as const) {
    test(`${event}: a new session that says only "continue" and runs one Bash ls keeps the hand-written restore block`, async () => {
      const t = await migration();
      // The new session begins after the save.
      const tr = new Transcript(t.base, t.repo, "s2", { startedAt: Date.now() });
      tr.prompt("continue");
      tr.tool("Bash", { command: "ls", description: "List files" }, 30_000, {
        toolUseResult: { stdout: "a.ts\nsrc", stderr: "", interrupted: false, isImage: false },
      });
      await fire(t, tr, event);
      // The hook did read the transcript (its call is in the tool log) …
      expect(await toolCalls(t)).toBe(1);
      // … and wrote nothing poorer: the person's snapshot is still the latest, whole.
      const all = await snapshots(t);
      expect(all).toHaveLength(1);
      expect(all[0]).toMatchObject({
        goal: GOAL,
        state: STATE,
        next_action: NEXT,
        files: ["a.ts"],
        auto: null,
      });
      expectMigration(await restored(t), t.repo);
    });
  }

  test("same session: one read-only call after the hand-written save replaces neither its state nor its files (stop, pre-compact, session-end)", async () => {
    const t = claudeLaptop(exe);
    writeFileSync(join(t.repo, "a.ts"), "export const backfill = 1200000;\n");
    // The session began before the save (the transcript's first line is ten minutes old).
    const tr = new Transcript(t.base, t.repo, "s1");
    tr.prompt(GOAL);
    tr.reply("Starting with the backfill.");
    await handSave(t, GOAL, STATE, NEXT, ["a.ts"]);
    tr.tool("Read", { file_path: join(t.repo, "a.ts") }, 40_000);
    for (const event of ["stop", "pre-compact", "session-end"] as const)
      await fire(t, tr, event, "The backfill constant is 1200000.");
    expect(await toolCalls(t)).toBe(1);
    const all = await snapshots(t);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ goal: GOAL, state: STATE, next_action: NEXT, files: ["a.ts"] });
    expectMigration(await restored(t), t.repo);
  });

  test("continuation words in English and Chinese name no task: the goal and next action are the newest's", async () => {
    const t = await migration();
    for (const [i, word] of [
      "go on",
      "继续",
      "ok",
      "Please continue where you left off.",
      "resume",
      "好的，继续",
      "ok let's keep going",
      "接着做吧",
    ].entries()) {
      const tr = new Transcript(t.base, t.repo, `w${i}`, { startedAt: Date.now() });
      tr.prompt(word);
      tr.tool("Grep", { pattern: "backfill", path: t.repo }, 30_000);
      await fire(t, tr, "session-end");
    }
    expect(await toolCalls(t)).toBe(8);
    const all = await snapshots(t);
    expect(all.map((s) => s.goal)).toEqual([GOAL]);
    expectMigration(await restored(t), t.repo);
  });
});

describe("a session that did new work still saves it as latest", () => {
  test('"continue", then edits to a new file: a new latest snapshot with that file, the goal and next action carried on; a later look-only session leaves it latest', async () => {
    const t = await migration();
    const tr = new Transcript(t.base, t.repo, "s2", { startedAt: Date.now() });
    tr.prompt("continue");
    const file = join(t.repo, "migrations", "002_orders_backfill.sql");
    tr.tool("Write", { file_path: file, content: "UPDATE orders SET v2 = 1 WHERE id > 1200000;" }, 40_000, {
      patch: { file, lines: ["+UPDATE orders SET v2 = 1 WHERE id > 1200000;"] },
    });
    await fire(t, tr, "session-end");
    let all = await snapshots(t);
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({
      goal: GOAL,
      next_action: NEXT,
      files: ["migrations/002_orders_backfill.sql"],
    });
    expect(all[1].auto).toMatchObject({ reason: "session-end", session_id: "s2" });
    expect(all[1].state).toBe(`Last action: Write ${file} (1 tool call this session)`);
    const block = await restored(t);
    expect(block).toContain(`goal: ${GOAL}`);
    expect(block).toContain("migrations/002_orders_backfill.sql");
    // The next session only says "继续" and reads: the one that wrote the file stays latest.
    const look = new Transcript(t.base, t.repo, "s3", { startedAt: Date.now() });
    look.prompt("继续");
    look.tool("Read", { file_path: file }, 20_000);
    await fire(t, look, "session-end");
    all = await snapshots(t);
    expect(all).toHaveLength(2);
    expect(all[1].auto).toMatchObject({ session_id: "s2" });
  });

  test("a new user request with edits to a new file: a new latest snapshot whose goal is that request", async () => {
    const t = await migration();
    const request = "Add an index on orders.created_at";
    const tr = new Transcript(t.base, t.repo, "s2", { startedAt: Date.now() });
    tr.prompt(request);
    const file = join(t.repo, "migrations", "003_orders_created_at_index.sql");
    tr.tool(
      "Write",
      { file_path: file, content: "CREATE INDEX orders_created_at ON orders(created_at);" },
      40_000,
      { patch: { file, lines: ["+CREATE INDEX orders_created_at ON orders(created_at);"] } },
    );
    await fire(t, tr, "stop", "Added the index migration.");
    const all = await snapshots(t);
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({
      goal: request,
      // Nothing says what comes next: none rather than a guess, and the block says to decide.
      next_action: "",
      files: ["migrations/003_orders_created_at_index.sql"],
    });
    expect(all[1].state).toBe("Last reply: Added the index migration. (after 1 tool call)");
    const block = await restored(t);
    expect(block).toContain(`goal: ${request}`);
    expect(block).toContain("next_action: (not recorded)");
    expect(block).toContain("pick up from the state above (no next action was recorded)");
    expect(block).toContain("migrations/003_orders_created_at_index.sql");
    expect(block).not.toContain(GOAL);
  });
});

describe("the end of a session right after its own snapshot", () => {
  test("with no tool call since the Stop's snapshot, session-end writes none (the one with the reply stays); with a new call it saves", async () => {
    for (const more of [false, true]) {
      const t = await migration();
      const tr = new Transcript(t.base, t.repo, "s2", { startedAt: Date.now() });
      tr.prompt("continue");
      const file = join(t.repo, "migrations", "002_orders_backfill.sql");
      tr.tool("Write", { file_path: file, content: "UPDATE orders SET v2 = 1;" }, 40_000, {
        patch: { file, lines: ["+UPDATE orders SET v2 = 1;"] },
      });
      tr.reply("Wrote the backfill migration.");
      await fire(t, tr, "stop", "Wrote the backfill migration.");
      expect(await snapshots(t)).toHaveLength(2);
      const other = join(t.repo, "migrations", "003_orders_index.sql");
      if (more)
        tr.tool("Write", { file_path: other, content: "CREATE INDEX i ON orders(id);" }, 45_000, {
          patch: { file: other, lines: ["+CREATE INDEX i ON orders(id);"] },
        });
      await fire(t, tr, "session-end");
      const all = await snapshots(t);
      expect({ more, n: all.length }).toEqual({ more, n: more ? 3 : 2 });
      if (!more) expect(all[1].state).toBe("Last reply: Wrote the backfill migration. (after 1 tool call)");
    }
  });
});

describe("two sessions on one project", () => {
  test("another session's hand-written save is not this session's: its stop snapshot keeps its own task whole", async () => {
    const t = claudeLaptop(exe);
    writeFileSync(join(t.repo, "login.ts"), "export const redirect = 1;\n");
    const a = new Transcript(t.base, t.repo, "sa");
    a.prompt("Fix the login redirect bug");
    a.tool("Edit", { file_path: join(t.repo, "login.ts"), old_string: "1", new_string: "2" }, 40_000);
    // Session B, in another terminal on the same checkout, saves its own task by hand.
    await handSave(t, "Write the billing API docs", "outline done", "document webhooks");
    await fire(t, a, "stop", "Fixed the redirect.");
    const all = await snapshots(t);
    expect(all.map((s) => s.goal)).toEqual(["Write the billing API docs", "Fix the login redirect bug"]);
    expect(all[1]).toMatchObject({ files: ["login.ts"] });
    expect(all[1].next_action).not.toBe("document webhooks");
  });

  test("a save this session's agent ran itself is carried on, whatever its words", async () => {
    const t = claudeLaptop(exe);
    writeFileSync(join(t.repo, "login.ts"), "export const redirect = 1;\n");
    const a = new Transcript(t.base, t.repo, "sa");
    a.prompt("Look into the flaky login test");
    const goal = "Stabilise the login test by pinning the clock";
    a.tool(
      "Bash",
      {
        command: `mindsave save --goal "${goal}" --next "pin the clock in setup"`,
        description: "Save progress",
      },
      40_000,
    );
    await handSave(t, goal, "cause found", "pin the clock in setup");
    a.tool("Edit", { file_path: join(t.repo, "login.ts"), old_string: "1", new_string: "2" }, 41_000);
    await fire(t, a, "stop", "Pinned the clock.");
    const all = await snapshots(t);
    expect(all.map((s) => s.goal)).toEqual([goal, goal]);
    // The session edited and said "Pinned the clock.": the saved step is done, not carried again.
    expect(all[1]).toMatchObject({ next_action: "", files: ["login.ts"] });
  });
});
