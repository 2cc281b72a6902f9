// A read command (load, projects, recall, snapshots, a dry run) never makes a store: not in a
// folder without one, nor of an empty store file.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectOnLaptop, run, tempDir } from "./helpers.ts";

describe("a read command never makes a store", () => {
  test("--home naming a folder without mindsave.db: one sentence, exit 1, the folder as it was", async () => {
    const p = projectOnLaptop("mindsave-walk5-home-");
    const folder = join(tempDir(), "my-home");
    mkdirSync(folder);
    for (const args of [["snapshots", "list"], ["load"], ["recall", "x"], ["failures"]]) {
      const r = await run([...args, "--home", folder], { cwd: p.repo, env: p.pc.env });
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        `mindsave: There is no MindSave store in ${folder} (set by --home ${folder}: the folder that holds mindsave.db); nothing was created. \`mindsave save\` there starts one.`,
      );
      expect(readdirSync(folder)).toEqual([]);
    }
    // A save there starts one.
    await run(["save", "--goal", "g", "--state", "s", "--next", "n", "--home", folder], {
      cwd: p.repo,
      env: p.pc.env,
    });
    expect(existsSync(join(folder, "mindsave.db"))).toBe(true);
  }, 30_000);

  test("--home naming the folder above a home (--home ~, meant as ~/.mindsave): refused by every command, a save and a sync too, with the folder meant", async () => {
    const p = projectOnLaptop("mindsave-home-above-");
    // The laptop's own home with its default store, made by a save there (no --home).
    await run(["save", "--goal", "g", "--state", "s", "--next", "n"], { cwd: p.repo, env: p.pc.env });
    const meant = join(p.pc.home, ".mindsave");
    expect(existsSync(join(meant, "mindsave.db"))).toBe(true);
    const before = readdirSync(p.pc.home).sort();
    const peer = join(tempDir(), "peer");
    mkdirSync(peer);
    for (const args of [
      ["save", "--goal", "g2", "--state", "s", "--next", "n"],
      ["sync", join(peer, "mindsave.db")],
      ["load"],
      ["snapshots", "list"],
    ]) {
      const r = await run([...args, "--home", p.pc.home], { cwd: p.repo, env: p.pc.env });
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        `mindsave: There is no MindSave store in ${p.pc.home} (set by --home ${p.pc.home}: the folder that holds mindsave.db), but ${meant} holds one: name that folder (--home ${meant}); nothing was created.`,
      );
      expect(readdirSync(p.pc.home).sort()).toEqual(before);
      expect(readdirSync(peer)).toEqual([]);
    }
  }, 30_000);

  test("load in a folder too broad to be a project says so, not 'save a snapshot first'", async () => {
    const p = projectOnLaptop("mindsave-walk5-broad-");
    await p.okCli(["save", "--goal", "g", "--state", "s", "--next", "n"]);
    const r = await p.cli(["load"], { cwd: "/" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "mindsave: / holds too many unrelated folders to be a project; run MindSave inside a project folder",
    );
    expect(r.stderr).not.toContain("save a snapshot first");
  }, 30_000);
});

describe("an empty store file is never made a store by a read", () => {
  test("load, projects and recall on a 0-byte mindsave.db: one sentence, exit 1, still 0 bytes; a dry run to a 0-byte peer starts none", async () => {
    const t = projectOnLaptop("mindsave-six-");
    writeFileSync(t.db, "");
    for (const args of [["load", "--latest"], ["projects"], ["recall", "login"]]) {
      const r = await t.cli(args);
      expect([args[0], r.code]).toEqual([args[0], 1]);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain("is an empty file (0 bytes)");
      expect(statSync(t.db).size).toBe(0);
    }
    await t.okCli(["save", "--goal", "a save starts the store"]);
    const peer = join(t.base, "peer.db");
    writeFileSync(peer, "");
    const dry = await t.cli(["sync", peer, "--dry-run"]);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toContain("a dry run starts none");
    expect(statSync(peer).size).toBe(0);
  });
});
