// A repair that loses the projects' own rows (their page unreadable) while their snapshots, roots
// and failures survive makes each of those projects again: every list goes through projects, so
// without it the saved snapshots would be in the store and shown nowhere. Doctor names each one
// and says how it finds its folder. And a look at a damaged store leaves nothing beside it: no
// -wal, no -shm, no git-roots.json. All through the real CLI, on real store files.
import { beforeAll, describe, expect, test } from "bun:test";
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { destroyTable, gitRepo, laptop, ok, okJson, run, sql, tempDir, type RunOptions } from "./helpers.ts";
import { fail, save, syncAt } from "./engine-setup.ts";
import { sizeOf } from "../src/store/driver.ts";

let golden: {
  db: string;
  base: string;
  shop: string;
  api: string;
  env: Record<string, string>;
  ids: Record<string, string>;
  identities: Record<string, string>;
};

beforeAll(async () => {
  const base = tempDir("mindsave-lost-projects-");
  const pc = laptop("repairer", base);
  const shop = gitRepo(join(base, "shop"));
  const api = gitRepo(join(base, "api"), { "main.go": "package main\n" });
  const home = join(base, "golden");
  mkdirSync(home);
  const inShop = { home, cwd: shop, env: pc.env };
  for (let i = 1; i <= 3; i++) await save(inShop, { goal: `shop goal ${i}` });
  await fail(inShop, "Tailwind", "conflicts with the design system");
  for (let i = 1; i <= 2; i++) await save({ home, cwd: api, env: pc.env }, { goal: `api goal ${i}` });
  const db = join(home, "mindsave.db");
  // Each save closed its session, folding the WAL: everything is in mindsave.db alone, to be copied.
  expect(sizeOf(`${db}-wal`)).toBe(0);
  const projects = (await sql(db, "SELECT id, name, identity FROM projects")) as {
    id: string;
    name: string;
    identity: string;
  }[];
  golden = {
    db,
    base,
    shop,
    api,
    env: pc.env,
    ids: Object.fromEntries(projects.map((p) => [p.name, p.id])),
    identities: Object.fromEntries(projects.map((p) => [p.name, p.identity])),
  };
  expect(Object.keys(golden.ids).sort()).toEqual(["api", "shop"]);
}, 120_000);

/** A fresh home holding only a copy of the golden store file. */
function homeWithCopy(): { home: string; db: string } {
  const home = tempDir("mindsave-home-");
  copyFileSync(golden.db, join(home, "mindsave.db"));
  return { home, db: join(home, "mindsave.db") };
}

const opts = (cwd: string): RunOptions => ({ cwd, env: golden.env });

describe("a repair that lost the projects' rows", () => {
  test("makes each project again: its snapshots and failures are listed, its folder finds it, doctor names it and how to attach it", async () => {
    const { home, db } = homeWithCopy();
    await destroyTable(db, "projects");
    const damaged = await run(["projects", "--home", home], opts(golden.shop));
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toContain("damaged");
    // The api checkout is moved away while the repair runs: that project cannot be matched to a folder here.
    const apiHidden = `${golden.api}-hidden`;
    renameSync(golden.api, apiHidden);
    try {
      const repair = await run(["doctor", "--repair", "--home", home], opts(golden.shop));
      expect(repair.code).toBe(0);

      // Every list shows them again, with all their snapshots.
      const listed = (await okJson(["projects", "--home", home], opts(golden.shop))).projects as {
        id: string;
        name: string;
        snapshots: number;
      }[];
      expect(listed.map((p) => [p.id, p.name, p.snapshots]).sort()).toEqual(
        [
          [golden.ids.api, "api", 2],
          [golden.ids.shop, "shop", 3],
        ].sort(),
      );
      const inShop = (await okJson(["snapshots", "list", "--home", home], opts(golden.shop))).snapshots as {
        goal: string;
      }[];
      expect(inShop.map((s) => s.goal).sort()).toEqual(["shop goal 1", "shop goal 2", "shop goal 3"]);
      const inApi = (
        await okJson(["snapshots", "list", "--in", golden.ids.api, "--home", home], opts(golden.shop))
      ).snapshots as { goal: string }[];
      expect(inApi.map((s) => s.goal).sort()).toEqual(["api goal 1", "api goal 2"]);
      expect((await ok(["failures", "--home", home], opts(golden.shop))).stdout).toContain("Tailwind");

      // Doctor named each, and how it finds its folder.
      expect(repair.stdout).toContain("2 project(s) had lost their own record");
      expect(repair.stdout).toContain(
        `  shop (${golden.ids.shop}): its folder ${golden.shop} finds it again.`,
      );
      expect(repair.stdout).toContain(
        `  api (${golden.ids.api}): see it with \`mindsave snapshots list --in ${golden.ids.api}\``,
      );
      expect(repair.stdout).toContain(
        `run \`mindsave projects link ${golden.ids.api}\` in that folder (it was last at ${golden.api})`,
      );
      expect((await okJson(["doctor", "--repair", "--home", home], opts(golden.shop))).repaired).toBe(false); // healthy since

      // The shop folder is that project again: a new save goes to it, not to a new "shop~2".
      await save({ home, cwd: golden.shop, env: golden.env }, { goal: "after the repair" });
      const after = (await okJson(["projects", "--home", home], opts(golden.shop))).projects as {
        id: string;
        name: string;
        snapshots: number;
      }[];
      expect(after.map((p) => [p.id, p.snapshots]).sort()).toEqual(
        [
          [golden.ids.api, 2],
          [golden.ids.shop, 4],
        ].sort(),
      );

      // What doctor said to do for api works: linked into a folder's project, its snapshots are there.
      const api2 = gitRepo(join(tempDir("mindsave-api2-"), "api2"), { "main.go": "package main // again\n" });
      await ok(["projects", "link", golden.ids.api, "--home", home], opts(api2));
      const linked = (await okJson(["snapshots", "list", "--home", home], opts(api2))).snapshots as {
        goal: string;
      }[];
      expect(linked.map((s) => s.goal).sort()).toEqual(["api goal 1", "api goal 2"]);
    } finally {
      renameSync(apiHidden, golden.api);
    }
  });

  test("a sync with a home that still holds the lost rows gives back the projects' own identity, and does not change that home's", async () => {
    const { home, db } = homeWithCopy();
    const peer = homeWithCopy();
    await destroyTable(db, "projects");
    const apiHidden = `${golden.api}-hidden`;
    renameSync(golden.api, apiHidden);
    try {
      const r = await okJson(["doctor", "--repair", "--home", home], opts(golden.shop));
      expect(r.recreated.map((p: { id: string }) => p.id).sort()).toEqual(
        [golden.ids.api, golden.ids.shop].sort(),
      );
    } finally {
      renameSync(apiHidden, golden.api);
    }
    const before = (await okJson(["projects", "--home", home], opts(golden.base))).projects as {
      id: string;
      identity: string;
    }[];
    expect(before.find((p) => p.id === golden.ids.api)!.identity).not.toBe(golden.identities.api); // no folder told it here
    await syncAt({ home, cwd: golden.base, env: golden.env }, peer.home);
    for (const h of [home, peer.home]) {
      const projects = (await okJson(["projects", "--home", h], opts(golden.base))).projects as {
        id: string;
        name: string;
        identity: string;
      }[];
      expect(projects.map((p) => [p.id, p.name, p.identity]).sort()).toEqual(
        [
          [golden.ids.api, "api", golden.identities.api],
          [golden.ids.shop, "shop", golden.identities.shop],
        ].sort(),
      );
    }
  });
});

describe("a repair that lost the roots' rows", () => {
  test("says so and how a folder finds its project; the folder does, by its history", async () => {
    const { home, db } = homeWithCopy();
    await destroyTable(db, "roots");
    const repair = await ok(["doctor", "--repair", "--home", home], opts(golden.shop));
    expect(repair.stdout).toContain("Some projects' folders were lost");
    expect(repair.stdout).toContain("`mindsave projects attach PROJECT`");
    expect(repair.stdout).not.toContain("had lost their own record"); // the projects were saved
    const inShop = (await okJson(["snapshots", "list", "--home", home], opts(golden.shop))).snapshots as {
      goal: string;
    }[];
    expect(inShop.map((s) => s.goal).sort()).toEqual(["shop goal 1", "shop goal 2", "shop goal 3"]);
    const shop = (
      (await okJson(["projects", "--home", home], opts(golden.shop))).projects as {
        id: string;
        root: string | null;
      }[]
    ).find((p) => p.id === golden.ids.shop);
    expect(shop?.root).toBe(golden.shop); // recorded again
  });
});

describe("a look at a damaged store leaves nothing beside it", () => {
  const damages: [string, (db: string) => Promise<void> | void][] = [
    // Found when the store is opened (its first pages are read).
    ["cut to half its size", (db) => truncateSync(db, Math.floor(statSync(db).size / 2))],
    // Found only when a command reads the projects, after the workspace (and git) was looked at.
    ["the projects' page overwritten", (db) => destroyTable(db, "projects")],
  ];
  for (const [what, damage] of damages) {
    test(`${what}: read commands and doctor fail or report it, and the home holds the store file alone, as it was`, async () => {
      const { home, db } = homeWithCopy();
      await damage(db);
      const bytes = readFileSync(db);
      for (const args of [
        ["snapshots", "list"],
        ["load"],
        ["projects"],
        ["recall", "goal"],
        ["doctor"],
        ["doctor", "--json"],
      ]) {
        const r = await run([...args, "--home", home], opts(golden.shop));
        expect(r.code).toBe(1);
        expect(readdirSync(home)).toEqual(["mindsave.db"]);
      }
      expect(readFileSync(db).equals(bytes)).toBe(true);
    });
  }

  test("an encrypted store damaged past its schema: doctor reports it and leaves nothing beside it", async () => {
    const { home, db } = homeWithCopy();
    const env = { ...golden.env, MINDSAVE_PASSPHRASE: "a long enough passphrase" };
    await ok(["encrypt", "--home", home], { cwd: golden.shop, env });
    for (const f of readdirSync(home))
      if (f.includes(".bak-") || f === "mindsave.db.backups.json") rmSync(join(home, f));
    const bytes = readFileSync(db);
    // Past the schema's pages and before the file's last pages, which hold the indexes an open makes
    // or checks: the store opens (for writing, on libSQL's driver) and its integrity check fails.
    bytes.fill(0xab, Math.floor(bytes.length * 0.5), Math.floor(bytes.length * 0.6));
    writeFileSync(db, bytes);
    const before = readdirSync(home).sort();
    expect(before).toEqual(["mindsave.db", "mindsave.db.key.json"]);
    for (const args of [["doctor"], ["doctor", "--json"]]) {
      const r = await run([...args, "--home", home], { cwd: golden.shop, env });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain("damaged (its integrity check fails)");
      expect(readdirSync(home).sort()).toEqual(before);
    }
  });

  test("a healthy store still remembers git's answer beside it, and leaves no WAL files", async () => {
    const { home } = homeWithCopy();
    await ok(["snapshots", "list", "--home", home], opts(golden.shop));
    expect(readdirSync(home).sort()).toEqual(["git-roots.json", "mindsave.db"]);
  });
});
