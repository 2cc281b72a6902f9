// The project's signal row: one typed shape, read and written only through its repository
// (src/engine/agents/signal-row.ts), and every writer keeps what the others put in it.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { gitRepo, laptop, ok, REPO, sql, tempDir } from "./helpers.ts";

function sources(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((e) => {
      const p = join(dir, e);
      return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(e) ? [p] : [];
    });
}

const rel = (p: string) => relative(REPO, p).split("\\").join("/");
const OUTSIDE_STORE = [...sources(join(REPO, "src")), ...sources(join(REPO, "ui"))].filter(
  (f) => !rel(f).startsWith("src/store/"),
);

describe("the signal row's repository", () => {
  test("only signal-row.ts calls the store's signal queries", () => {
    const calls = OUTSIDE_STORE.filter((f) =>
      /\.(getSignal|putSignal|tombstoneSignal)\(/.test(readFileSync(f, "utf8")),
    ).map(rel);
    expect(calls).toEqual(["src/engine/agents/signal-row.ts"]);
  });

  test("no engine or command module casts the row through unknown", () => {
    const casts = OUTSIDE_STORE.filter(
      (f) =>
        /^src\/(engine|commands\/(signal|hook))/.test(rel(f)) &&
        /as unknown as/.test(readFileSync(f, "utf8")),
    ).map(rel);
    expect(casts).toEqual([]);
  });
});

describe("the signal row through the CLI", () => {
  test("a session's note (\"don't save\") stays in the row through a save and a recorded turn", async () => {
    const base = tempDir();
    const home = join(base, "home");
    mkdirSync(home);
    const repo = gitRepo(join(base, "repo"));
    const at = { cwd: repo, env: laptop("p", base).env };
    const row = async () =>
      JSON.parse(
        String((await sql(join(home, "mindsave.db"), "SELECT data FROM signals WHERE deleted = 0"))[0].data),
      );
    const prompt = JSON.stringify({
      session_id: "s-1",
      cwd: repo,
      hook_event_name: "UserPromptSubmit",
      prompt: "不需要保存",
    });
    await ok(["hook", "user-prompt-submit", "--home", home], { ...at, stdin: prompt });
    expect((await row()).sessions["s-1"].no_save).toBe(true);

    await ok(["save", "--goal", "Keep the row whole", "--home", home], at);
    const saved = await row();
    expect(saved.last_save).toEqual(expect.any(String));
    expect(saved.sessions["s-1"].no_save).toBe(true);

    await ok(["signal", "--turn", "--home", home], at);
    const turned = await row();
    expect(turned.turn).toBe(saved.turn + 1);
    expect(turned.sessions["s-1"].no_save).toBe(true);
  });
});
