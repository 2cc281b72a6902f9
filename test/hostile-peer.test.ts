// A drive or server anyone can write to: names and folders that come from outside never steer a
// write or a read out of the folder they belong to.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, ok, okJson, run, sql, twoLaptops } from "./helpers.ts";
import { isSafeName, safeName } from "../src/engine/snapshots/slug.ts";
import { inClone, save } from "./engine-setup.ts";

describe("names from outside", () => {
  test("a hostile peer's snapshot names are renamed on merge, the same on every store, and export writes only below its folder", async () => {
    const w = twoLaptops();
    await save(inClone(w.a), { goal: "evil one" });
    await save(inClone(w.a), { goal: "device one" });
    await save(inClone(w.a), { goal: "fine one" });
    const target = join(w.b.pc.home, ".claude", "skills", "evil", "SKILL");
    const hostile = `../../../../../../../../..${target}`;
    // The peer's own store says so (as a hostile drive would): written under the CLI's feet.
    await sql(w.a.db, "UPDATE snapshots SET name = ? WHERE goal = 'evil one'", [hostile]);
    await sql(w.a.db, "UPDATE snapshots SET name = ? WHERE goal = 'device one'", ["CON"]);
    await ok(["sync", w.a.db, "--home", w.b.home], w.b.opts());

    const names = (await okJson(["snapshots", "list", "--home", w.b.home], w.b.opts())).snapshots.map(
      (s: any) => s.name,
    );
    expect(names).toHaveLength(3);
    for (const n of names) expect(isSafeName(n)).toBe(true);
    expect(names.filter((n: string) => /-[0-9a-f]{8}$/.test(n))).toHaveLength(2);
    expect(names.some((n: string) => /^CON_-/.test(n))).toBe(true);
    // A third store merging from B agrees on the renamed names.
    const c = join(w.base, "c-home");
    mkdirSync(c);
    await ok(["sync", w.b.db, "--home", c], w.b.opts());
    expect(
      (await okJson(["snapshots", "list", "--home", c], w.b.opts())).snapshots.map((s: any) => s.name).sort(),
    ).toEqual([...names].sort());

    const out = join(w.base, "export");
    await ok(["export", "--out", out, "--home", w.b.home], w.b.opts());
    expect(existsSync(`${target}.md`)).toBe(false);
    expect(existsSync(join(w.b.pc.home, ".claude"))).toBe(false);
    expect(readdirSync(join(out, ".mindsave", "snapshots")).sort()).toEqual(
      names.map((n: string) => `${n}.md`).sort(),
    );
  }, 60_000);

  test("the name rules: separators, dot-dot, device names, NUL and length are never safe; renames are deterministic", () => {
    for (const bad of [
      "../x",
      "a/b",
      "a\\b",
      "..",
      "a..b",
      "CON",
      "con.md",
      "LPT1",
      "nul.txt",
      "x\u0000y",
      "x".repeat(121),
      "",
      ".hidden",
      "trailing.",
    ]) {
      expect(isSafeName(bad)).toBe(false);
      const renamed = safeName(bad, "0193f2a1-aaaa-7bbb-8ccc-1234567890ab");
      expect(isSafeName(renamed)).toBe(true);
      expect(safeName(bad, "0193f2a1-aaaa-7bbb-8ccc-1234567890ab")).toBe(renamed);
    }
    for (const good of [
      "fix_login_bug_2026-11-22",
      "重构认证_2026-11-22-2",
      "OVF_task_2026-11-22_101500",
      "console_2026-01-01",
    ]) {
      expect(isSafeName(good)).toBe(true);
      expect(safeName(good, "id")).toBe(good);
    }
  });
});

describe("folders from outside", () => {
  test("import never reads through a symbolic link; a .mindsave link is refused", async () => {
    const w = twoLaptops();
    const secret = join(w.base, "secret.txt");
    writeFileSync(secret, "CANARY-not-for-import root:x:0:0\n");
    const ws = join(w.base, "ws");
    mkdirSync(join(ws, ".mindsave", "snapshots"), { recursive: true });
    writeFileSync(
      join(ws, ".mindsave", "snapshots", "real_2026-01-01.md"),
      `---\ngoal: "a real snapshot"\n---\n`,
    );
    symlinkSync(secret, join(ws, ".mindsave", "snapshots", "leak_2026-01-01.md"));
    symlinkSync(secret, join(ws, ".mindsave", "signal.json"));
    const r = await run(["import", ws, "--home", w.a.home], w.a.opts());
    expect(r.stdout + r.stderr).not.toContain("CANARY");
    expect(r.stdout + r.stderr).toContain("symbolic link");
    const goals = (
      await okJson(["snapshots", "list", "--in", "ws", "--home", w.a.home], w.a.opts())
    ).snapshots.map((s: any) => s.goal);
    expect(goals).toEqual(["a real snapshot"]);

    const linked = join(w.base, "linked");
    mkdirSync(linked);
    symlinkSync(join(ws, ".mindsave"), join(linked, ".mindsave"));
    const refused = await run(["import", linked, "--home", w.a.home], w.a.opts());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("symbolic link");
  });

  test("export never writes through a .mindsave link", async () => {
    const w = twoLaptops();
    await save(inClone(w.a), { goal: "something" });
    const elsewhere = join(w.base, "elsewhere");
    mkdirSync(elsewhere);
    const out = join(w.base, "out");
    mkdirSync(out);
    symlinkSync(elsewhere, join(out, ".mindsave"));
    const r = await run(["export", "--out", out, "--home", w.a.home], w.a.opts());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("symbolic link");
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(readFileSync(join(w.base, "laptop-a-home", "mindsave.db")).length).toBeGreaterThan(0);
  });
});

describe("import is all or nothing", () => {
  test("killed in the middle at several points, an import leaves none of its snapshots; a re-run imports all", async () => {
    const { spawn } = await import("node:child_process");
    const w = twoLaptops();
    const ws = join(w.base, "seed");
    mkdirSync(join(ws, ".mindsave", "snapshots"), { recursive: true });
    for (let i = 0; i < 40; i++) {
      const day = String(1 + (i % 28)).padStart(2, "0");
      writeFileSync(
        join(ws, ".mindsave", "snapshots", `task_${i}_202603${day}.md`),
        `---\ncreated_at: "2026-03-${day}T12:${String(i).padStart(2, "0")}:00Z"\ngoal: "Task number ${i}"\n---\n`,
      );
    }
    const count = async () =>
      Number((await sql(w.a.db, "SELECT count(*) AS n FROM snapshots WHERE deleted = 0"))[0]?.n ?? 0);
    await save(inClone(w.a), { goal: "already here" });
    for (const point of ["import-1", "import-17", "import-40"]) {
      const child = spawn(CLI[0], [...CLI.slice(1), "import", ws, "--home", w.a.home], {
        cwd: w.a.repo,
        env: { ...process.env, ...w.a.opts().env, MINDSAVE_STALL: point },
        stdio: ["ignore", "ignore", "pipe"],
      });
      await new Promise<void>((resolve) =>
        child.stderr!.on("data", (d) => String(d).includes("stalled") && resolve()),
      );
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      expect(await count()).toBe(1);
      expect(String((await sql(w.a.db, "PRAGMA integrity_check"))[0].integrity_check)).toBe("ok");
    }
    const done = await okJson(["import", ws, "--home", w.a.home], w.a.opts());
    expect(done.snapshots.imported).toHaveLength(40);
    expect(await count()).toBe(41);
  }, 60_000);
});
