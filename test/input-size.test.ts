// Sizes checked before reading: a document larger than any snapshot can be is refused from its size
// (a file, an import folder) or after the cap's worth of a stream (stdin), in one sentence, exit 1,
// the store exactly as before. And a field already stored longer than MindSave accepts (a peer's,
// an older version's) is cut for display, so the session-start hook's reply stays small.
import { describe, expect, test } from "bun:test";
import { closeSync, mkdirSync, openSync, rmSync, writeSync, ftruncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CLI,
  SHIPPED_JIT,
  childEnv,
  dumpStore,
  projectOnLaptop,
  run,
  sessionStartReplies,
  sql,
} from "./helpers.ts";
import { inRepo, save, saveGoal } from "./engine-setup.ts";

/** 300 MB: the oversized field. */
const HUGE = 300_000_000;
/** The size as the refusal says it (MiB, one decimal), computed here, not read from the output. */
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** A snapshot file whose goal runs for `size` bytes: a sparse file, so the disk holds almost none of it. */
function hugeSnapshot(path: string, size = HUGE): string {
  const fd = openSync(path, "w");
  try {
    writeSync(fd, "---\nstate: s\nnext_action: n\ngoal: ");
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
  return path;
}

/** The CLI with stdin read from a file (the whole file is offered; the CLI reads what it wants). */
async function runWithStdinFile(args: string[], stdinFile: string, cwd: string, env: Record<string, string>) {
  const proc = Bun.spawn([...CLI, ...args], {
    cwd,
    env: childEnv(env, args),
    stdin: Bun.file(stdinFile),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/**
 * The CLI on `t`'s home, in its project, with the JIT as shipped: for a run through megabytes
 * (helpers.ts SHIPPED_JIT).
 */
const shippedCli =
  (t: ReturnType<typeof projectOnLaptop>) =>
  (args: string[], o: { stdin?: string } = {}) =>
    run([...args, "--home", t.home], { cwd: t.repo, env: { ...t.pc.env, ...SHIPPED_JIT }, stdin: o.stdin });

/** One sentence on stderr: a single line, from MindSave. */
function oneSentence(stderr: string): string {
  const lines = stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith("mindsave: ");
  return lines[0];
}

/**
 * A project with one snapshot and a 300 MB snapshot file at `relPath` (under the project's base
 * folder): `refuse` runs the refusals, then the store must be exactly as before; the file is removed.
 */
async function refusedWithHugeFile(
  relPath: string,
  refuse: (t: ReturnType<typeof projectOnLaptop>, file: string) => Promise<void>,
): Promise<void> {
  const t = projectOnLaptop("mindsave-size-");
  await save(inRepo(t), { goal: "before", state: "s" });
  const before = await dumpStore(t.db);
  mkdirSync(join(t.base, relPath, ".."), { recursive: true });
  const file = hugeSnapshot(join(t.base, relPath));
  try {
    await refuse(t, file);
    expect(await dumpStore(t.db)).toBe(before);
  } finally {
    rmSync(file, { force: true });
  }
}

const CAP = mib(16 * 1024 * 1024);

describe("a 300 MB field is refused before it is read", () => {
  test("save --file: refused from the file's size, exit 1, the store unchanged", async () => {
    await refusedWithHugeFile("huge.md", async (t, file) => {
      const r = await t.cli(["save", "--file", file]);
      expect(r.code).toBe(1);
      const said = oneSentence(r.stderr);
      expect(said).toContain(`huge.md is ${mib(HUGE)}; a snapshot is at most ${CAP}`);
      expect(said).toContain("so it was not read. Nothing was saved.");
    });
  }, 60_000);

  test("save from stdin: read no further than the cap, refused, exit 1, the store unchanged", async () => {
    await refusedWithHugeFile("huge.md", async (t, file) => {
      for (const args of [["save"], ["save", "--file", "-"]]) {
        const r = await runWithStdinFile([...args, "--home", t.home], file, t.repo, t.pc.env);
        expect(r.code).toBe(1);
        expect(oneSentence(r.stderr)).toContain(
          `The snapshot on stdin is over ${CAP}, the most a snapshot may be`,
        );
      }
    });
  }, 60_000);

  test("import: the oversized file is named and refused from its size; alone, nothing is imported (exit 1, the store unchanged)", async () => {
    const ws = "old-workspace";
    await refusedWithHugeFile(`${ws}/.mindsave/snapshots/huge_2026-01-01.md`, async (t) => {
      const r = await t.cli(["import", join(t.base, ws)]);
      expect(r.code).toBe(1);
      const said = oneSentence(r.stderr);
      expect(said).toContain(`snapshots/huge_2026-01-01.md is ${mib(HUGE)}; a snapshot is at most ${CAP}`);
      expect(said).toContain("Nothing was imported");
    });
  }, 60_000);

  test("import beside a good snapshot: the good one lands, the oversized one is named as not read", async () => {
    const t = projectOnLaptop("mindsave-size-");
    const snaps = join(t.base, "old-workspace", ".mindsave", "snapshots");
    mkdirSync(snaps, { recursive: true });
    const file = hugeSnapshot(join(snaps, "huge_2026-01-01.md"));
    try {
      writeFileSync(
        join(snaps, "fine_2026-01-02.md"),
        "---\ngoal: a fine snapshot\ncreated_at: 2026-01-02T10:00:00Z\n---\n",
      );
      const mixed = await t.json(["import", join(t.base, "old-workspace")]);
      expect(mixed.snapshots.imported).toEqual(["fine_2026-01-02"]);
      expect(mixed.snapshots.failed).toEqual([
        {
          file: "snapshots/huge_2026-01-01.md",
          reason: expect.stringContaining(`is ${mib(HUGE)}; a snapshot is at most ${CAP}`),
        },
      ]);
    } finally {
      rmSync(file, { force: true });
    }
  }, 60_000);

  test("import: an oversized index.json and tool log are named in a warning and left out unread; the snapshot still lands", async () => {
    const t = projectOnLaptop("mindsave-size-");
    const seed = join(t.base, "old-workspace", ".mindsave");
    mkdirSync(join(seed, "snapshots"), { recursive: true });
    mkdirSync(join(seed, "tool_logs"));
    const index = hugeSnapshot(join(seed, "index.json"));
    const log = hugeSnapshot(join(seed, "tool_logs", "2026-01-02.jsonl"));
    try {
      writeFileSync(
        join(seed, "snapshots", "fine_2026-01-02.md"),
        "---\ngoal: a fine snapshot\ncreated_at: 2026-01-02T10:00:00Z\n---\n",
      );
      const r = await t.json(["import", join(t.base, "old-workspace")]);
      expect(r.snapshots.imported).toEqual(["fine_2026-01-02"]);
      expect(r.warnings).toContain(
        `index.json: cannot be read (it is ${mib(HUGE)}, over the ${mib(1024 * 1024)} read of one file); not imported.`,
      );
      expect(r.warnings).toContain(
        `tool_logs/2026-01-02.jsonl: cannot be read (it is ${mib(HUGE)}, over the ${mib(8 * 1024 * 1024)} read of one file); not imported.`,
      );
    } finally {
      rmSync(index, { force: true });
      rmSync(log, { force: true });
    }
  }, 60_000);

  test("a field inside the cap but longer than any snapshot's YAML is refused before it is parsed, named as such", async () => {
    const t = projectOnLaptop("mindsave-size-");
    const file = join(t.base, "long.md");
    // 9 MB of goal: under the 16 MiB a document may be, over the 8 Mi characters of YAML a snapshot may have.
    const fields = `goal: ${"a".repeat(9_000_000)}\n`;
    writeFileSync(file, `---\n${fields}---\n`);
    const r = await shippedCli(t)(["save", "--file", file]);
    expect(r.code).toBe(1);
    expect(oneSentence(r.stderr)).toContain(
      `has ${fields.length.toLocaleString("en-US")} characters of YAML fields; a snapshot's are at most 8,388,608`,
    );
  }, 60_000);
});

describe("YAML of more pieces than a snapshot's fields can be", () => {
  test("60,000 constraints (0.5 MB) are refused from the lexer's count, before the YAML is parsed (400,000 took 8.7 s and 670 MB to parse)", async () => {
    const t = projectOnLaptop("mindsave-size-");
    await save(inRepo(t), { goal: "before", state: "s" });
    const before = await dumpStore(t.db);
    const file = join(t.base, "many.md");
    writeFileSync(
      file,
      `---\ngoal: g\nconstraints:\n${Array.from({ length: 60_000 }, (_, i) => `  - c${i}\n`).join("")}---\n`,
    );
    const r = await shippedCli(t)(["save", "--file", file]);
    expect(r.code).toBe(1);
    expect(oneSentence(r.stderr)).toContain(
      "many.md has more than 200,000 pieces of YAML (keys, values, list items)",
    );
    expect(await dumpStore(t.db)).toBe(before);
  }, 60_000);
});

describe("a field stored longer than MindSave accepts", () => {
  test("a peer's 10 MB goal is cut for display: the session-start hook's reply stays small (Claude Code and Codex)", async () => {
    const t = projectOnLaptop("mindsave-size-");
    await saveGoal(t, "small");
    const goal = "long goal ".repeat(1024 * 1024);
    // Written into the store's file as a peer's row arrives (the save path would refuse it).
    await sql(t.db, "UPDATE snapshots SET goal = ?", [goal]);
    const replies = await sessionStartReplies(shippedCli(t), t.repo);
    for (const out of [replies.claudeContext, replies.codex]) {
      expect(out).toContain("# MindSave restore: ");
      expect(out).toContain(`… (cut for display: ${goal.length.toLocaleString("en-US")} characters stored)`);
      // The goal line shows at most a field's worth (8,192 characters), whatever the store holds.
      expect(out).toContain(`goal: ${goal.slice(0, 8192)}…`);
      expect(out.length).toBeLessThan(64 * 1024);
    }
    expect(replies.claudeStdout.length).toBeLessThan(64 * 1024);
  }, 120_000);
});
