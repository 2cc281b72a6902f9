// How the CLI fails: a suggestion for a typo, JSON errors with --json, no stack trace when the
// reader goes away.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { save } from "./engine-setup.ts";
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

  test("a stray word after a group's command is refused, not dropped; the store stays as it was", async () => {
    const t = setup();
    const place = { home: t.home, cwd: t.repo, env: t.env };
    for (const goal of ["first", "second", "third"]) await save(place, { goal });
    const before = readFileSync(join(t.home, "mindsave.db"));
    // `snapshots clean 3` once ran as a plain `clean` (keep 20), the 3 silently dropped.
    for (const [args, word] of [
      [["snapshots", "clean", "3"], "clean"],
      [["snapshots", "prune", "30d", "--yes"], "prune"],
      [["snapshots", "list", "foo"], "list"],
      [["rules", "list", "foo"], "list"],
      [["projects", "list", "foo"], "list"],
    ] as const) {
      const r = await run([...args, "--home", t.home], t.at(t.repo));
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 1, stdout: "" });
      expect(r.stderr).toStartWith(`mindsave: Too many arguments for '${word}'.`);
    }
    expect(readFileSync(join(t.home, "mindsave.db")).equals(before)).toBe(true);
  });

  test("an empty or blank snapshot key or tag, or no key where one is needed, is refused in one sentence; the store stays as it was", async () => {
    const t = setup();
    const place = { home: t.home, cwd: t.repo, env: t.env };
    for (const goal of ["first", "second"]) await save(place, { goal, tag: ["auth"] });
    const before = readFileSync(join(t.home, "mindsave.db"));
    const key =
      "mindsave: An empty snapshot key names no snapshot: give its name, id prefix or list number (see `mindsave snapshots list`).";
    const tag = "mindsave: --tag needs a tag, not an empty one (`mindsave tags` lists those in use).";
    // `load ""` showed the list (exit 0), `recall --tag ""` said no snapshot is tagged "", and a
    // missing key was commander's "missing required argument 'snapshot'".
    for (const [args, said] of [
      [["load", ""], key],
      [["snapshots", "delete", " "], key],
      [["diff", "", "1"], key],
      [
        ["snapshots", "delete"],
        "mindsave: `mindsave snapshots delete` needs a snapshot: its name, id prefix or list number (see `mindsave snapshots list`); run with --help for usage.",
      ],
      [["recall", "--tag", ""], tag],
      [["save", "--goal", "third", "--tag", " "], tag],
    ] as const) {
      const r = await run([...args, "--home", t.home], t.at(t.repo));
      expect({ args, code: r.code, stdout: r.stdout, stderr: r.stderr.trim() }).toEqual({
        args,
        code: 1,
        stdout: "",
        stderr: said,
      });
    }
    expect(readFileSync(join(t.home, "mindsave.db")).equals(before)).toBe(true);
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

describe("a flag that cannot apply is said, not dropped", () => {
  test("load --verify with several snapshots and no terminal lists them and says --verify needs one", async () => {
    const t = setup();
    const place = { home: t.home, cwd: t.repo, env: t.env };
    for (const goal of ["first", "second"]) await save(place, { goal });
    const r = await run(["load", "--verify", "--home", t.home], t.at(t.repo));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("2 snapshots. Load one with `mindsave load N`");
    expect(r.stderr).toBe(
      "mindsave: --verify applies to the snapshot loaded: `mindsave load N --verify` or `mindsave load --latest --verify`.\n",
    );
  });
});
