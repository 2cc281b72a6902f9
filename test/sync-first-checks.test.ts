// A sync that cannot happen is refused before either store is opened: no store is started on
// this home for a peer that is not there or is no store, and a dry run starts none on either side.
// Flags that ask for two things at once, an empty peer or an unknown scheme are refused alike.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dumpStore, projectOnLaptop, run } from "./helpers.ts";

describe("sync: checked before any store is opened", () => {
  test("on a home without a store: a peer folder without one, a file that is no store, a dry run: one sentence each, nothing created", async () => {
    const t = projectOnLaptop("mindsave-sync-first-");
    const nothing = join(t.base, "empty-drive");
    mkdirSync(nothing);
    const junk = join(t.base, "notes.db");
    writeFileSync(junk, "these are my notes, not a database\n");
    const cases: [string[], string][] = [
      [["sync", nothing], "holds no MindSave store"],
      [["sync", junk], "is not a MindSave store"],
      [["sync", join(nothing, "mindsave.db"), "--dry-run"], "This home has no store yet"],
    ];
    for (const [args, said] of cases) {
      const r = await t.cli(args);
      expect([args.join(" "), r.code]).toEqual([args.join(" "), 1]);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(said);
      expect(readdirSync(t.home)).toEqual([]);
      expect(readdirSync(nothing)).toEqual([]);
      expect(readFileSync(junk, "utf8")).toBe("these are my notes, not a database\n");
    }
  });

  test("a dry run to a store file that does not exist yet starts none there, and this store stays as it was", async () => {
    const t = projectOnLaptop("mindsave-sync-first-");
    await t.okCli(["save", "--goal", "something to send"]);
    const before = await dumpStore(t.db);
    const peer = join(t.base, "usb", "mindsave.db");
    mkdirSync(join(t.base, "usb"));
    const r = await run(["sync", peer, "--dry-run", "--home", t.home], { cwd: t.repo, env: t.pc.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`There is no store at ${peer} yet, and a dry run starts none`);
    expect(existsSync(peer)).toBe(false);
    expect(await dumpStore(t.db)).toBe(before);
    // Without --dry-run the store is started there, as before.
    expect((await t.cli(["sync", peer])).code).toBe(0);
    expect(existsSync(peer)).toBe(true);
  });
});

describe("sync takes one thing at a time", () => {
  test("--dry-run or a peer beside a peer-list flag, two peer-list flags, an empty peer, a scheme it cannot reach: one sentence each, nothing changed", async () => {
    const t = projectOnLaptop("mindsave-six-");
    await t.okCli(["save", "--goal", "here"]);
    const peer = join(t.base, "peer");
    mkdirSync(peer);
    const before = await dumpStore(t.db);
    const cases: [string[], string][] = [
      [
        ["sync", "--add-peer", peer, "--dry-run"],
        "--add-peer changes or shows the list of peers and syncs nothing; give it without --dry-run.",
      ],
      [
        ["sync", "--add-peer", peer, "--remove-peer", peer],
        "Give one of --add-peer and --remove-peer at a time.",
      ],
      [
        ["sync", peer, "--list-peers"],
        `--list-peers changes or shows the list of peers and syncs nothing; give it without the peer ${JSON.stringify(peer)}.`,
      ],
      [["sync", ""], "The peer is empty"],
      [["sync", "ftp://example.com/store"], "ftp://example.com/store is no place MindSave syncs with"],
    ];
    for (const [args, said] of cases) {
      const r = await t.cli(args);
      expect([args.join(" "), r.code]).toEqual([args.join(" "), 1]);
      expect(r.stderr).toContain(said);
    }
    expect(await dumpStore(t.db)).toBe(before);
    expect(readdirSync(peer)).toEqual([]);
  });
});
