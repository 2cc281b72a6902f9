// Each tool call once: hooks, `ingest` and two transcripts holding the same tool-use ids (a resumed
// session's second file, under another session id) record each call once, a store an earlier
// version wrote is not duplicated, and sync merges the copies. A save adds "Recent Tool Calls" only
// from this agent session's calls (not another session's, not another laptop's), and never to a
// snapshot given whole (`save --file`: Layer 3 stays as written).
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectOnLaptop, sql, twoLaptops } from "./helpers.ts";

interface Call {
  id: string;
  at: string;
  command: string;
}

/** Calls with pinned times (2026-11-20, 10:00 UTC plus `minute` and the index in seconds). */
const calls = (prefix: string, n: number, minute = 0): Call[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `toolu_${prefix}${i}`,
    at: `2026-11-20T10:${String(minute).padStart(2, "0")}:${String(i + 1).padStart(2, "0")}.000Z`,
    command: `echo ${prefix} ${i}`,
  }));

/** A Claude Code transcript of `sessionId` in `cwd` holding `list` as Bash calls. */
function transcript(dir: string, cwd: string, sessionId: string, list: Call[]): string {
  const base = { cwd, sessionId, isSidechain: false, userType: "external", version: "2.1.220" };
  const lines = [
    {
      ...base,
      type: "user",
      timestamp: "2026-11-20T09:59:00.000Z",
      message: { role: "user", content: "tidy the parser" },
    },
    ...list.map((c) => ({
      ...base,
      type: "assistant",
      timestamp: c.at,
      message: {
        role: "assistant",
        model: "claude-opus-4-5",
        content: [{ type: "tool_use", id: c.id, name: "Bash", input: { command: c.command } }],
      },
    })),
  ];
  const path = join(dir, `${sessionId}-${crypto.randomUUID()}.jsonl`);
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return path;
}

/** The tool log holds each of `list` once, and nothing else. */
async function loggedOnce(json: (args: string[]) => Promise<any>, list: Call[]): Promise<void> {
  const logged = ((await json(["recall", "--tools"])).tool_calls as { target: string }[]).map(
    (c) => c.target,
  );
  expect(logged.sort()).toEqual(list.map((c) => c.command).sort());
}

describe("each tool call once", () => {
  test("ingest, a hook and a resumed session's second transcript (same tool-use ids, another session) record each call once", async () => {
    const p = projectOnLaptop("mindsave-toollog-");
    const first = calls("a", 3);
    const resumed = [...first, ...calls("b", 1, 1)];
    expect((await p.json(["ingest", transcript(p.base, p.repo, "sess-first", first)])).added).toBe(3);
    const second = transcript(p.base, p.repo, "sess-resumed", resumed);
    const payload = JSON.stringify({
      session_id: "sess-resumed",
      transcript_path: second,
      cwd: p.repo,
      hook_event_name: "SessionEnd",
      reason: "exit",
    });
    const hooked = await p.cli(["hook", "session-end"], { stdin: payload });
    expect(hooked.code).toBe(0);
    expect((await p.json(["ingest", second])).added).toBe(0);
    await loggedOnce(p.json, resumed);
  }, 60_000);

  test("a call an earlier version logged (its row named by session) is not logged again", async () => {
    const p = projectOnLaptop("mindsave-toollog-");
    const list = calls("c", 2);
    const path = transcript(p.base, p.repo, "sess-one", list);
    await p.json(["ingest", path]);
    // The store as an earlier version left it: each row's id from the project, the session and the tool-use id.
    for (const c of list) {
      const [row] = await sql(p.db, "SELECT project_id FROM tool_calls WHERE target = ?", [c.command]);
      const h = new Bun.CryptoHasher("sha256");
      for (const part of [String(row.project_id), "sess-one", c.id]) h.update(part).update("\0");
      await sql(p.db, "UPDATE tool_calls SET id = ? WHERE target = ?", [
        `t_${h.digest("hex").slice(0, 24)}`,
        c.command,
      ]);
    }
    expect((await p.json(["ingest", path])).added).toBe(0);
    await loggedOnce(p.json, list);
  }, 60_000);

  test("two laptops that logged the same calls under two sessions hold each once after sync", async () => {
    const w = twoLaptops("mindsave-toollog-sync-");
    const first = calls("d", 3);
    const resumed = [...first, ...calls("e", 1, 1)];
    await w.a.json(["ingest", transcript(w.base, w.a.repo, "sess-first", first)]);
    await w.b.json(["ingest", transcript(w.base, w.b.repo, "sess-resumed", resumed)]);
    for (const l of [w.a, w.b, w.a]) await l.json(["sync", w.drive]);
    for (const l of [w.a, w.b]) await loggedOnce(l.json, resumed);
  }, 120_000);
});

describe("Recent Tool Calls on save", () => {
  test("only this agent session's calls: not an earlier session's, not another laptop's newer ones", async () => {
    const w = twoLaptops("mindsave-toollog-recent-");
    const earlier = calls("old", 2, 0);
    const mine = calls("mine", 2, 5);
    const theirs = calls("theirs", 2, 30);
    await w.a.json(["ingest", transcript(w.base, w.a.repo, "sess-earlier", earlier)]);
    await w.a.json(["ingest", transcript(w.base, w.a.repo, "sess-now", mine)]);
    await w.b.json(["ingest", transcript(w.base, w.b.repo, "sess-b", theirs)]);
    for (const l of [w.b, w.a]) await l.json(["sync", w.drive]);
    await w.a.json(["save", "--goal", "Tidy the parser", "--state", "half done"]);
    const layer3: string = (await w.a.json(["recall"])).layer3;
    const section = layer3.slice(layer3.indexOf("### Recent Tool Calls"));
    expect(section.split("\n").slice(1, 3)).toEqual(mine.map((c, i) => `${i + 1}. Bash ${c.command}`));
    for (const c of [...earlier, ...theirs]) expect(layer3).not.toContain(c.command);
  }, 120_000);

  test("a snapshot given whole (save --file) keeps its Layer 3 as written", async () => {
    const p = projectOnLaptop("mindsave-toollog-");
    await p.json(["ingest", transcript(p.base, p.repo, "sess-now", calls("f", 2))]);
    writeFileSync(join(p.repo, "README.md"), "# demo, changed\n"); // a change git diff --stat would list
    const body = "### Completed Steps\n1. 写了解析器 (wrote the parser)";
    const file = join(p.base, "snapshot.md");
    writeFileSync(file, `---\ngoal: Tidy the parser\nstate: half done\n---\n${body}\n`);
    await p.json(["save", "--file", file]);
    expect((await p.json(["recall"])).layer3).toBe(body);
    // Given by flags, the same save gets the session's calls.
    await p.json(["save", "--goal", "Tidy the parser", "--state", "half done"]);
    expect((await p.json(["recall"])).layer3).toContain(
      "### Recent Tool Calls\n1. Bash echo f 0\n2. Bash echo f 1",
    );
  }, 60_000);
});
