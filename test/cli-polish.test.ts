// Everyday CLI behaviour new users tripped over: JSON errors for typos, readable sync summaries, a
// missing drive named, headers and lists that fit, recall's default, a manual save's Layer 3.
import { describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitRepo, laptop, ok, okJson, run, tempDir, twoLaptops } from "./helpers.ts";

function setup() {
  const base = tempDir();
  const home = join(base, "home");
  mkdirSync(home);
  const repo = gitRepo(join(base, "repo"));
  const pc = laptop("ada", base);
  return { base, home, repo, pc, at: (cwd = repo) => ({ cwd, env: pc.env }) };
}

describe("CLI polish", () => {
  test("with --json, a mistyped command or option is a JSON error too", async () => {
    for (const args of [["--json", "lod"], ["--json", "save", "--gaol", "x"]]) {
      const r = await run(args);
      expect(r.code).toBe(1);
      const e = JSON.parse(r.stderr);
      expect(e.exit_code).toBe(1);
      expect(e.error).toMatch(/Unknown (command 'lod'|option '--gaol')/);
      expect(e.error).toContain("Did you mean");
    }
  });

  test("an invalid MINDSAVE_HOST is the user's input: exit 1, one sentence", async () => {
    const t = setup();
    const r = await run(["load", "--home", t.home], { ...t.at(), env: { ...t.pc.env, MINDSAVE_HOST: "not a host id!" } });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("MINDSAVE_HOST must be");
  });

  test("sync summaries count things, not rows; a missing drive is named", async () => {
    const w = twoLaptops();
    for (const item of ["Tailwind", "Redux", "GraphQL", "websocket reconnect"]) {
      await w.a.json(["fail", item, "--reason", `${item} did not fit`, "--alt", "something else", "--related", "another thing"]);
    }
    // (A dry run starts no store: the drive gets its store from laptop B's first sync.)
    await w.b.json(["sync", w.drive]);
    const dry = await w.a.cli(["sync", w.drive, "--dry-run"]);
    expect(dry.stdout).toContain("failures +4 added");
    expect(dry.stdout).not.toContain("read ");
    const real = await w.a.cli(["sync", w.drive]);
    expect(real.stdout).toContain("into the peer:   failures +4 added; projects +1 added");
    expect(real.stdout).toContain("failures +4 added");
    expect(real.stdout).not.toMatch(/hosts|signals/);
    // One more repeat of one failure is one failure updated.
    await w.a.json(["fail", "Redux"]);
    expect((await w.a.cli(["sync", w.drive])).stdout).toContain("into the peer:   failures ~1 updated");
    // The drive is unplugged: plain `sync` names it.
    await w.a.cli(["sync", "--add-peer", w.drive]);
    renameSync(w.drive, `${w.drive}-away`);
    const gone = await w.a.cli(["sync"]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("not reachable");
    expect(gone.stderr).toContain(w.drive);
  }, 60_000);

  test("outside a project `failures` says it shows the global graph; the numbered list fits its width", async () => {
    const t = setup();
    await ok(["fail", "localStorage tokens", "--reason", "XSS", "--scope", "global", "--home", t.home], t.at());
    const out = await ok(["failures", "--home", t.home], t.at(t.base));
    expect(out.stdout).toContain("Global failure graph (1):");
    expect(out.stdout).not.toContain("and global");
    for (let i = 0; i < 3; i++) await ok(["save", "--goal", `a long goal number ${i} `.repeat(8), "--home", t.home], t.at());
    const list = await ok(["load", "--home", t.home], t.at());
    const lines = list.stdout.split("\n").filter((l) => /^\d\. /.test(l));
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(Bun.stringWidth(l)).toBeLessThanOrEqual(120);
  });

  test("restore values are shown as written, quoted only when they span lines", async () => {
    const t = setup();
    await ok(["save", "--goal", "auth: switch to JWT refresh", "--state", "plain state", "--next", "step: one", "--home", t.home], t.at());
    const block = (await ok(["load", "--latest", "--home", t.home], t.at())).stdout;
    expect(block).toContain("goal: auth: switch to JWT refresh\n");
    expect(block).toContain("next_action: step: one\n");
    expect(block).toContain("state: plain state\n");
  });

  test("recall without a keyword shows the newest Layer 3 there is; a manual save gets the spec's automatic parts", async () => {
    const t = setup();
    writeFileSync(join(t.repo, "src", "auth.ts"), "export const auth = 2;\n");
    await ok(["save", "--home", t.home], { ...t.at(), stdin: "---\ngoal: with an archive\n---\n### Completed Steps\n1. wrote the parser\n" });
    const first = await okJson(["recall", "--home", t.home], t.at());
    expect(first.layer3).toContain("### File Changes");
    expect(first.layer3).toContain("src/auth.ts");
    // A checkpoint without any Layer 3 (no changes, nothing logged) does not hide the archive.
    await ok(["save", "--overflow", "--goal", "checkpoint", "--home", t.home], t.at());
    const recalled = await ok(["recall", "--home", t.home], t.at());
    expect(recalled.stdout).toContain("wrote the parser");
  });
});

describe("recall context", () => {
  test("never cuts an emoji or a combining accent in half", async () => {
    const t = setup();
    const body = `${"😀".repeat(40)} needle ${"👨‍👩‍👧".repeat(30)} e\u0301`.repeat(2);
    await ok(["save", "--home", t.home], { ...t.at(), stdin: `---\ngoal: emoji archive\n---\n${body}\n` });
    const j = await okJson(["recall", "needle", "--home", t.home], t.at());
    const context: string = j.hits[0].context;
    expect(context).toContain("«needle»");
    // No lone surrogate and no replacement character anywhere in the line.
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(context)).toBe(false);
    expect(context).not.toContain("\uFFFD");
    expect(context.startsWith("…😀")).toBe(true);
  });
});
