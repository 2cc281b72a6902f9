// Faithful memory: what is restored is what was saved, within its budget, on every host, in every
// time zone. Token counts are recounted here on the printed text, never taken from the output.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/cl100k_base";
import { gitRepo, laptop, ok, okJson, tempDir } from "./helpers.ts";
import { fail, save } from "./engine-setup.ts";

function setup(rootName = "repo") {
  const base = tempDir();
  const home = join(base, "home");
  mkdirSync(home);
  const repo = gitRepo(join(base, rootName));
  const pc = laptop("alpha", base);
  const opts = (cwd = repo, env: Record<string, string> = {}) => ({ cwd, env: { ...pc.env, ...env } });
  // Where set-up records what a test then loads, in this process (the engine's use cases, as the CLI's).
  const here = { home, cwd: repo, env: pc.env };
  return { base, home, repo, opts, here };
}

describe("the restore block", () => {
  test("stays within 800 tokens on a host with a 120-character root and 30 active files, Layer 2 kept", async () => {
    // A root path of exactly 120 characters below the temp dir.
    const probe = setup("r");
    const pad = 120 - probe.base.length - 1;
    const t = setup("x".repeat(Math.max(1, pad - 1)));
    expect(t.repo.length).toBeGreaterThanOrEqual(118);
    const files = Array.from({ length: 30 }, (_, i) => `src/module${i}/handler${i}.ts`);
    for (const f of files) {
      mkdirSync(join(t.repo, f, ".."), { recursive: true });
      writeFileSync(join(t.repo, f), `export const n = ${f.length};\n`);
    }
    const args = [
      "save",
      "--home",
      t.home,
      "--goal",
      "Refactor every handler to the new request context",
      "--state",
      "half of the handlers moved",
      "--next",
      "move module15's handler",
      ...files.flatMap((f) => ["--active-file", f]),
      "--constraint",
      "keep the public API stable",
      "--constraint",
      "no new runtime dependencies",
      "--decision",
      "request context travels as the first argument",
    ];
    const saved = await okJson(args, t.opts());
    const loaded = await ok(["load", "--latest", "--home", t.home], t.opts());
    const block = loaded.stdout.trimEnd();
    expect(countTokens(block)).toBeLessThanOrEqual(800);
    expect(block).toContain("keep the public API stable");
    expect(block).toContain("request context travels as the first argument");
    // Every file Layer 1 kept within its budget is named or counted, the rest moved to Layer 3; the root is said once.
    const moved = Number(
      /"Moved from Layer 1": (\d+) active file\(s\)/.exec(saved.warnings.join("\n"))?.[1] ?? 0,
    );
    const named = files.filter((f) => block.includes(f)).length;
    const more = /\+(\d+) more/.exec(block);
    expect(named + Number(more?.[1] ?? 0)).toBe(30 - moved);
    const archive = (await ok(["recall", "--home", t.home], t.opts())).stdout;
    for (const f of files.slice(30 - moved)) expect(archive).toContain(`- ${f}`);
    expect(block.split(t.repo).length - 1).toBe(1);
    // The size shown at save is the size load prints on this host.
    expect(saved.tokens.restore_block).toBe(countTokens(block));
    // --full lists every file Layer 1 kept with its absolute path.
    const full = (await ok(["load", "--latest", "--full", "--home", t.home], t.opts())).stdout;
    for (const f of files.slice(0, 30 - moved)) expect(full).toContain(f);
  });

  test("when the block is trimmed, decisions go before failures (the spec's density ranking)", async () => {
    const t = setup();
    for (let i = 0; i < 12; i++)
      await fail(
        t.here,
        `approach ${i}`,
        `it broke the build in a way that took an afternoon to find (${i})`,
      );
    const decision = Array.from(
      { length: 18 },
      (_, i) => `decision ${i}: we settled this after a long discussion about trade-offs and wrote it down`,
    );
    await save(t.here, { goal: "ship the release", constraint: ["never force-push main"], decision });
    const j = await okJson(["load", "--latest", "--home", t.home], t.opts());
    expect(countTokens(j.restore_block)).toBeLessThanOrEqual(800);
    expect(j.omitted.decisions).toBeGreaterThan(0);
    expect(j.omitted.failures).toBe(0);
    for (let i = 0; i < 12; i++) expect(j.restore_block).toContain(`approach ${i}:`);
    expect(j.restore_block).toContain("never force-push main");
  }, 60_000);
});

describe("one calendar", () => {
  test("ids, lists and exports agree on the UTC date in UTC+14 and UTC-12", async () => {
    for (const TZ of ["Pacific/Kiritimati", "Etc/GMT+12"]) {
      const t = setup();
      const saved = await okJson(
        ["save", "--home", t.home, "--goal", "Fix login bug"],
        t.opts(t.repo, { TZ }),
      );
      const list = await okJson(["snapshots", "list", "--home", t.home], t.opts(t.repo, { TZ }));
      const created: string = list.snapshots[0].created_at;
      expect(saved.saved).toBe(`fix_login_bug_${created.slice(0, 10)}`);
      const out = join(t.base, "export");
      await ok(["export", "--out", out, "--home", t.home], t.opts(t.repo, { TZ }));
      const index = JSON.parse(await Bun.file(join(out, ".mindsave", "index.json")).text());
      const entries = index.snapshots ?? index;
      expect(JSON.stringify(entries)).toContain(`fix_login_bug_${created.slice(0, 10)}`);
    }
  });
});

describe("a save never makes the restore worse", () => {
  test("a missing, empty or Q&A-only transcript writes no hook snapshot over a good one", async () => {
    const t = setup();
    await save(t.here, {
      goal: "Add JWT refresh",
      next: "fix the expiry test",
      constraint: ["no new dependencies"],
    });
    const qa = join(t.base, "qa.jsonl");
    writeFileSync(
      qa,
      [
        {
          type: "user",
          sessionId: "s-qa",
          cwd: t.repo,
          timestamp: "2026-11-22T10:00:00.000Z",
          message: { role: "user", content: "Quick question: what does HTTP 418 mean?" },
        },
        {
          type: "assistant",
          sessionId: "s-qa",
          cwd: t.repo,
          timestamp: "2026-11-22T10:00:05.000Z",
          message: {
            role: "assistant",
            model: "claude-sonnet-4-5",
            content: [{ type: "text", text: "I'm a teapot." }],
            usage: { input_tokens: 900, output_tokens: 12 },
          },
        },
      ]
        .map((l) => JSON.stringify(l))
        .join("\n") + "\n",
    );
    const empty = join(t.base, "empty.jsonl");
    writeFileSync(empty, "");
    for (const transcript of [join(t.base, "missing.jsonl"), empty, qa]) {
      for (const event of ["pre-compact", "session-end"]) {
        const payload = JSON.stringify({
          session_id: "s-qa",
          transcript_path: transcript,
          cwd: t.repo,
          hook_event_name: event,
        });
        const r = await ok(["hook", event, "--home", t.home], { ...t.opts(), stdin: payload });
        // Claude Code's PreCompact prints the summariser's guide: from the good snapshot.
        if (event === "pre-compact") expect(r.stdout).toContain("Goal: Add JWT refresh\n");
        else expect(r.stdout).toBe("");
      }
    }
    const list = await okJson(["snapshots", "list", "--home", t.home], t.opts());
    expect(list.snapshots.map((s: any) => s.goal)).toEqual(["Add JWT refresh"]);
    const block = (await ok(["load", "--latest", "--home", t.home], t.opts())).stdout;
    expect(block).toContain("next_action: fix the expiry test");
    expect(block).toContain("no new dependencies");
  });
});

describe("an overflow snapshot keeps the Layer 2 it stands on", () => {
  test("a manual save --overflow points at the newest full snapshot, whose Layer 2 load still shows", async () => {
    const t = setup();
    await save(t.here, {
      goal: "ship it",
      constraint: ["never force-push main"],
      decision: ["release on Fridays"],
    });
    const ovf = await okJson(
      [
        "save",
        "--overflow",
        "--home",
        t.home,
        "--goal",
        "ship it",
        "--state",
        "context nearly full",
        "--next",
        "tag the release",
      ],
      t.opts(),
    );
    expect(ovf.kind).toBe("overflow");
    const block = (await ok(["load", "--latest", "--home", t.home], t.opts())).stdout;
    expect(block).toContain("next_action: tag the release");
    expect(block).toContain("never force-push main");
    expect(block).toContain("release on Fridays");
    // --json says the same as the block.
    const j = await okJson(["load", "--latest", "--home", t.home], t.opts());
    expect(j.layer2.constraints).toEqual(["never force-push main"]);
    expect(j.layer2.decisions).toEqual(["release on Fridays"]);
  });
});
