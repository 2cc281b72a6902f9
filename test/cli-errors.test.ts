// How the CLI fails: a suggestion for a typo, JSON errors with --json, no stack trace when the
// reader goes away.
import { describe, expect, test } from "bun:test";
import { CLI, laptopWithApp as setup, ok, run } from "./helpers.ts";

describe("output to a reader that goes away", () => {
  test("a reader that closes the pipe early gets no stack trace", async () => {
    const t = setup();
    // Far more output than a pipe holds, so the writer is still writing when `head` goes away.
    const archive = Array.from(
      { length: 6000 },
      (_, i) => `${i}. a long line of the cold archive that nobody will read to the end`,
    ).join("\n");
    await ok(["save", "--home", t.home], {
      ...t.at(t.repo),
      stdin: `---\ngoal: big archive\n---\n${archive}\n`,
    });
    const r = Bun.spawnSync(
      ["sh", "-c", `${CLI.map((a) => `'${a}'`).join(" ")} snapshots show --home '${t.home}' | head -1`],
      { cwd: t.repo, env: { ...process.env, ...t.env } },
    );
    expect(r.stdout.toString()).toBe("---\n");
    expect(r.stderr.toString()).toBe("");
  });
});

describe("errors: a suggestion for a typo, JSON with --json", () => {
  test("a typo in a subcommand gets a suggestion, not an argument error", async () => {
    const t = setup();
    const r = await run(["snapshots", "lst", "--home", t.home], t.at(t.repo));
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      "mindsave: Unknown command `mindsave snapshots lst`; choose list, stats, clean, prune, show, complete, delete. Did you mean list?",
    );
  });

  test("with --json, errors are JSON on stderr", async () => {
    const t = setup();
    const r = await run(["load", "--json", "--home", t.home], t.at(t.repo));
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr)).toMatchObject({ exit_code: 1 });
  });
});

describe("errors with --json: a mistyped command or option", () => {
  test("with --json, a mistyped command or option is a JSON error too", async () => {
    for (const args of [
      ["--json", "lod"],
      ["--json", "save", "--gaol", "x"],
    ]) {
      const r = await run(args);
      expect(r.code).toBe(1);
      const e = JSON.parse(r.stderr);
      expect(e.exit_code).toBe(1);
      expect(e.error).toMatch(/Unknown (command 'lod'|option '--gaol')/);
      expect(e.error).toContain("Did you mean");
    }
  });
});
