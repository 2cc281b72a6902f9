// A folder written by `mindsave export --out DIR` is no workspace: importing it puts the snapshots
// back into the project they came from (or the current directory's project on another laptop),
// with the active files relative to that project's root — never to the export folder — and never
// writes into the folder it reads.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  dumpStore,
  git,
  gitRepo,
  laptop,
  ok,
  okJson,
  projectOnLaptop,
  run,
  sql,
  tempDir,
  twoLaptops,
} from "./helpers.ts";
import { replicatedRows } from "./stores.ts";
import { addRuleAt, atPlace, fail, inClone, inRepo, save, syncAt, type Place } from "./engine-setup.ts";
import { exportSeed } from "../src/engine/formats/seed-export.ts";
import { addFact } from "../src/engine/memory/facts.ts";
import { editRule, removeRule } from "../src/engine/memory/rules.ts";
import { deleteSnapshot, setSnapshotStatus } from "../src/engine/snapshots/manage.ts";
import { removeFailure } from "../src/engine/failures/record.ts";
import { linkProjects } from "../src/engine/projects/projects.ts";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { parseSnapshotText } from "../src/engine/snapshots/input.ts";

// The state an import reads is recorded in this process, through the engine's use cases (the ones
// `save`, `fail`, `export` … call); the import, load, sync and what the tests read are the CLI's.

/** `mindsave export --out DIR` at `place`. */
const exportTo = (place: Place, out: string) => atPlace(place, (s) => exportSeed(s, { out }));

/** Every file under `dir`, relative, sorted. */
const filesUnder = (dir: string): string[] => (readdirSync(dir, { recursive: true }) as string[]).sort();

function setup() {
  const base = tempDir("mindsave-trip-");
  const pc = laptop("alpha", base);
  const repo = gitRepo(join(base, "my proj 项目"), {
    "src/auth.ts": "export const auth = 1;\n",
    "README.md": "# demo\n",
  });
  const home = join(base, "home-a");
  mkdirSync(home);
  const out = join(base, "usb export");
  return { base, pc, repo, home, out };
}

describe("import of an `export --out` folder", () => {
  test("into a store that has its project, from outside the project: back into that project, active files relative to its root; a snapshot deleted since is not brought back", async () => {
    const { base, pc, repo, home, out } = setup();
    const at = { cwd: repo, env: pc.env };
    const here = { home, ...at };
    const saved = await save(here, { goal: "fix auth", state: "s", next: "n", activeFile: ["src/auth.ts"] });
    const name = saved.snapshot.name;
    await exportTo(here, out);
    const exported = filesUnder(out);

    // A second store on this laptop that knows the project but not the snapshot.
    const home2 = join(base, "home-2");
    mkdirSync(home2);
    await save({ home: home2, ...at }, { goal: "another goal", state: "s", next: "n" });
    const r = await okJson(["import", out, "--home", home2], { cwd: base, env: pc.env });
    expect(r.snapshots.imported).toEqual([name]);
    expect(r.root).toBe(repo);
    expect(r.warnings.join("\n")).not.toContain("not found");
    const show = await okJson(["snapshots", "show", name, "--home", home2], at);
    expect(show.active_files.map((f: any) => f.path)).toEqual(["src/auth.ts"]);
    const load = await ok(["load", name, "--verify", "--home", home2], at);
    expect(load.stdout).toContain(join(repo, "src", "auth.ts"));
    expect(load.stdout).not.toContain(out);
    // Nothing was written into the folder read.
    expect(filesUnder(out)).toEqual(exported);

    // Deleted in the store it came from: the older export does not undo the deletion.
    await atPlace(here, (s) => deleteSnapshot(s, name));
    const again = await ok(["import", out, "--home", home], { cwd: base, env: pc.env });
    expect(again.stdout).toContain(
      "0 imported, 0 skipped (already in the store), 1 deleted here earlier (not brought back; --restore-deleted brings them back)",
    );
    expect(again.stderr).toContain(`this snapshot (${name}) was deleted in this store; not brought back.`);
    expect((await run(["load", name, "--home", home], at)).code).toBe(1);
  });

  test("on a second laptop with a fresh store: into the project of the clone it is run from; refused from a plain folder", async () => {
    const { base, pc, repo, home, out } = setup();
    const here = { home, cwd: repo, env: pc.env };
    await save(here, { goal: "fix auth", state: "s", next: "n", activeFile: ["src/auth.ts"] });
    await exportTo(here, out);
    const exported = filesUnder(out);

    const pc2 = laptop("beta", base);
    const home2 = join(base, "home-b");
    mkdirSync(home2);
    const plain = join(base, "plain");
    mkdirSync(plain);
    const refused = await run(["import", out, "--home", home2], { cwd: plain, env: pc2.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      `mindsave: ${join(out, ".mindsave")} was exported from project my proj 项目, which this store does not have yet; run the import from that project's folder on this host, or give --into PROJECT.`,
    );
    expect(existsSync(join(plain, ".mindsave"))).toBe(false);

    const clone = join(base, "clone");
    git(base, "clone", "-q", repo, clone);
    const r = await okJson(["import", out, "--home", home2], { cwd: clone, env: pc2.env });
    expect(r.root).toBe(clone);
    expect(r.snapshots.imported.length).toBe(1);
    const show = await okJson(["snapshots", "show", r.snapshots.imported[0], "--home", home2], {
      cwd: clone,
      env: pc2.env,
    });
    expect(show.active_files.map((f: any) => f.path)).toEqual(["src/auth.ts"]);
    expect((await ok(["load", "--latest", "--home", home2], { cwd: clone, env: pc2.env })).stdout).toContain(
      join(clone, "src", "auth.ts"),
    );
    expect(filesUnder(out)).toEqual(exported);
  });
});

describe("an export is the store's own records: an import elsewhere and a sync hold each once", () => {
  test("export on A, import on B, then sync: one snapshot, repeats counted once, A's later edits kept, nothing removed comes back", async () => {
    const { a, b, base } = twoLaptops("mindsave-trip-sync-");
    const out = join(base, "usb export");
    // Import and sync are the CLI's.
    const saved = {
      saved: (
        await save(inClone(a), { goal: "fix auth", state: "s", next: "n", activeFile: ["src/auth.ts"] })
      ).snapshot.name,
    };
    for (let i = 0; i < 2; i++) await fail(inClone(a), "websocket reconnect", "proxy drops it");
    await addRuleAt(inClone(a), "Never push to main");
    await addRuleAt(inClone(a), "Answer in English");
    await atPlace(inClone(a), (s) => addFact(s, "staging is read-only", { ttl: "never" }));
    await exportTo(inClone(a), out);

    // After the export, on A: one more repeat, an edited rule, a removed rule, the snapshot completed.
    await fail(inClone(a), "websocket reconnect", "still drops it");
    await atPlace(inClone(a), async (s) => {
      await editRule(s, "Never push", "Never push to main; open a pull request");
      await removeRule(s, "Answer in English");
      await setSnapshotStatus(s, saved.saved, "completed");
    });

    // B imports the older export (later, by the wall clock), then both sync.
    const imported = await b.json(["import", out]);
    expect(imported.snapshots.imported).toEqual([saved.saved]);
    await b.json(["sync", a.home]);

    for (const side of [a, b]) {
      const list = await side.json(["snapshots", "list"]);
      expect(list.snapshots.map((s: any) => [s.name, s.status])).toEqual([[saved.saved, "completed"]]);
      const graph = (await side.json(["failures"])).failure_graph.project;
      expect(
        Object.entries(graph).map(([item, f]: [string, any]) => [item, f.repeat_count, f.reason]),
      ).toEqual([["websocket reconnect", 3, "still drops it"]]);
      const rules = await side.json(["rules"]);
      expect(rules.rules.map((r: any) => r.text)).toEqual(["Never push to main; open a pull request"]);
      expect((await side.json(["facts"])).facts.map((f: any) => f.text)).toEqual(["staging is read-only"]);
    }
    // The two stores hold the same records.
    const rowsA = await replicatedRows(a.db);
    const rowsB = await replicatedRows(b.db);
    for (const table of ["snapshots", "failures", "failure_counts", "rules", "facts"]) {
      // A per-host counter merges by its count (the larger wins), its clock is each store's own.
      const pick = (m: Map<string, Record<string, unknown>>) =>
        [...m]
          .filter(([k]) => k.startsWith(`${table}:`))
          .map(([k, row]) => [k, table === "failure_counts" ? { ...row, hlc: undefined } : row]);
      expect(pick(rowsB)).toEqual(pick(rowsA));
    }
  });

  test("export from home A, import into home B on the same laptop, then sync: the project keeps when it was made, and the sync reports nothing (bookkeeping is no change)", async () => {
    const { base, pc, repo, home, out } = setup();
    const homeB = join(base, "home-b");
    mkdirSync(homeB);
    await save({ home, cwd: repo, env: pc.env }, { goal: "fix auth", activeFile: ["src/auth.ts"] });
    await exportTo({ home, cwd: repo, env: pc.env }, out);
    const at = { cwd: repo, env: pc.env };
    await okJson(["import", out, "--home", homeB], at);
    const project = async (h: string) => (await sql(join(h, "mindsave.db"), "SELECT * FROM projects"))[0];
    // The import made the project the export came from: the same record, made when A made it.
    expect(await project(homeB)).toEqual(await project(home));
    // B's folder row is its own use of the folder (a later time): bookkeeping, not a change.
    const synced = await ok(["sync", homeB, "--home", home], at);
    expect(synced.stdout).toMatch(/into this store: nothing\n\s+into the peer: +nothing\n/);
    const [rowsA, rowsB] = [
      await replicatedRows(join(home, "mindsave.db")),
      await replicatedRows(join(homeB, "mindsave.db")),
    ];
    const pick = (m: Map<string, Record<string, unknown>>) =>
      [...m].filter(([k]) => /^(projects|roots):/.test(k));
    expect(pick(rowsB)).toEqual(pick(rowsA));
  });

  test("a re-import into the store it came from adds nothing, same-name snapshots of two hosts included; a removed rule and a forgotten failure stay removed", async () => {
    const { a, b, base } = twoLaptops("mindsave-trip-again-");
    const out = join(base, "export");
    const input = (goal: string) =>
      `---\nsnapshot_id: same_name_2026-05-10\ncreated_at: 2026-05-10T10:00:00Z\ngoal: ${goal}\nstate: s\nnext_action: n\n---\n`;
    // `save --file -`: the snapshot given whole.
    const saveWhole = (place: Place, text: string) =>
      atPlace(place, (s) => saveSnapshot(s, { input: parseSnapshotText(text), whole: true }));
    await saveWhole(inClone(a), input("on host a"));
    await saveWhole(inClone(b), input("on host b").replace("10:00:00Z", "11:00:00Z"));
    await addRuleAt(inClone(a), "Keep commits small");
    await fail(inClone(a), "moment.js", "too big");
    await syncAt(inClone(a), b.home);
    const before = (await a.json(["snapshots", "list"])).snapshots.map((s: any) => s.id).sort();
    expect(before.length).toBe(2);
    await exportTo(inClone(a), out);
    expect(readdirSync(join(out, ".mindsave", "snapshots")).length).toBe(2);
    await atPlace(inClone(a), async (s) => {
      await removeRule(s, "Keep commits small");
      await removeFailure(s, "moment.js");
    });

    const again = await okJson(["import", out, "--home", a.home], a.opts());
    expect(again.snapshots.imported).toEqual([]);
    expect(again.snapshots.skipped.length).toBe(2);
    expect(again.warnings.join("\n")).toContain(
      `rule "Keep commits small" was removed in this store after it was exported; not brought back.`,
    );
    expect((await a.json(["snapshots", "list"])).snapshots.map((s: any) => s.id).sort()).toEqual(before);
    expect((await a.json(["rules"])).rules).toEqual([]);
    expect(again.warnings.join("\n")).toContain(
      `failure "moment.js" was forgotten in this store after it was exported; not brought back.`,
    );
    expect((await a.json(["failures"])).failure_graph.project).toEqual({});
  });

  test("counts that do not add up, a record id another snapshot has, or a rule edited in the export are not trusted: read as the original's, with a warning", async () => {
    const { a, base } = twoLaptops("mindsave-trip-bad-");
    const out = join(base, "export");
    const first = {
      saved: (await save(inClone(a), { goal: "first goal", state: "s", next: "n" })).snapshot.name,
    };
    await fail(inClone(a), "moment.js", "too big");
    await addRuleAt(inClone(a), "Keep commits small");
    await exportTo(inClone(a), out);
    const ms = join(out, ".mindsave");
    // A rule edited by hand in the export: its id and clock no longer describe it.
    const rulesFile = join(ms, "rules.json");
    writeFileSync(
      rulesFile,
      readFileSync(rulesFile, "utf8").replace("Keep commits small", "Keep commits tiny"),
    );
    const nodeFile = join(
      ms,
      "failure_graph",
      "project",
      readdirSync(join(ms, "failure_graph", "project"))[0],
    );
    const node = JSON.parse(readFileSync(nodeFile, "utf8"));
    node._mindsave.counts = { "host-x": 40 }; // repeat_count says 1
    writeFileSync(nodeFile, JSON.stringify(node));
    // A second snapshot file that claims the first one's record id, with another time.
    const snapFile = join(ms, "snapshots", `${first.saved}.md`);
    writeFileSync(
      join(ms, "snapshots", "other_2026-05-10.md"),
      readFileSync(snapFile, "utf8")
        .replace(/^snapshot_id: .*$/m, "snapshot_id: other_2026-05-10")
        .replace(/^created_at: .*$/m, "created_at: 2026-05-10T10:00:00Z"),
    );

    const r = await okJson(["import", out, "--home", a.home], a.opts());
    expect(r.warnings.join("\n")).toContain(
      "_mindsave.counts is not a set of per-host counts adding up to repeat_count 1; read repeat_count as the least count.",
    );
    expect(r.warnings.join("\n")).toContain(
      `snapshots/other_2026-05-10.md: its record id is another snapshot's in this store (${first.saved}); imported as a new record.`,
    );
    expect(r.warnings.join("\n")).toContain(
      `rule "Keep commits tiny" differs from the record it was exported as; imported as a new one.`,
    );
    expect((await a.json(["rules"])).rules.map((x: any) => x.text).sort()).toEqual([
      "Keep commits small",
      "Keep commits tiny",
    ]);
    expect(r.snapshots.imported).toEqual(["other_2026-05-10"]);
    expect(
      Object.values((await a.json(["failures"])).failure_graph.project).map((f: any) => f.repeat_count),
    ).toEqual([1]);
    const ids = (await a.json(["snapshots", "list"])).snapshots.map((s: any) => s.id);
    expect(new Set(ids).size).toBe(2);
  });
});

describe("two laptops' snapshots of one name, exported, imported elsewhere and synced", () => {
  test("each is there once on every store: the one exported under a told-apart file name is still its record", async () => {
    const w = twoLaptops();
    for (const pc of [w.a, w.b])
      await save(inClone(pc), { goal: "Fix login bug", state: pc.name, next: "n" });
    await syncAt(inClone(w.a), w.b.home);
    const out = join(w.base, "export");
    await exportTo(inClone(w.a), out);
    expect(readdirSync(join(out, ".mindsave", "snapshots"))).toHaveLength(2);
    const c = join(w.base, "c-home");
    mkdirSync(c);
    const env = { ...laptop("laptop-c", w.base).env, MINDSAVE_HOST: "host-c" };
    const imported = await run(["import", out, "--home", c], { cwd: w.a.repo, env });
    expect(imported.stderr).not.toContain("differs from the record");
    expect((await run(["sync", w.a.home, "--home", c], { cwd: w.a.repo, env })).code).toBe(0);
    const ids = async (home: string) =>
      (await okJson(["snapshots", "list", "--home", home], { cwd: w.a.repo, env })).snapshots
        .map((s: { id: string }) => s.id)
        .sort();
    expect(await ids(w.a.home)).toHaveLength(2);
    expect(await ids(c)).toEqual(await ids(w.a.home));
  }, 60_000);
});

describe("an imported record is the record that was exported, or a new one", () => {
  test("on another laptop it still says where it was saved and verifies against the files as they were then; a file edited since the export becomes a new snapshot", async () => {
    const { a, b, base } = twoLaptops("mindsave-trip-same-");
    const out = join(base, "export");
    writeFileSync(join(a.repo, "src", "auth.ts"), "export const auth = 2;\n");
    const saved = await save(inClone(a), {
      goal: "rotate tokens",
      state: "s",
      next: "n",
      activeFile: ["src/auth.ts"],
    });
    await exportTo(inClone(a), out);

    // B's clone still has the file as committed (auth = 1): it changed since the save on A.
    const block =
      (await b.cli(["import", out])).code === 0 ? (await b.cli(["load", "--latest", "--verify"])).stdout : "";
    // Named as the export names it: B never met A, yet the block says which laptop saved it.
    expect(block).toContain("on laptop-a");
    expect(block).not.toContain("on this host");
    expect(block).toMatch(/changed since the save[^\n]*src\/auth\.ts|src\/auth\.ts[^\n]*changed/);

    // The same file edited by hand before a second import elsewhere: not the record any more.
    const file = join(out, ".mindsave", "snapshots", `${saved.snapshot.name}.md`);
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace("goal: rotate tokens", "goal: rotate tokens (edited)"),
    );
    const c = twoLaptops("mindsave-trip-edited-").b;
    const r = await okJson(["import", out, "--home", c.home], c.opts());
    expect(r.warnings.join("\n")).toContain(
      "It differs from the record it was exported as (edited since, or made by another version); imported as a new snapshot.",
    );
    const [mine] = (await c.json(["snapshots", "list"])).snapshots;
    const [theirs] = (await a.json(["snapshots", "list"])).snapshots;
    expect(mine.id).not.toBe(theirs.id);
    expect(mine.goal).toBe("rotate tokens (edited)");
  });
});

describe("an older export never undoes what changed here since", () => {
  test("failure edits made after the export stand; forgotten and seen again, it keeps its new state", async () => {
    const { pc, repo, home, out } = setup();
    const here = { home, cwd: repo, env: pc.env };
    const cli = (args: string[]) => okJson([...args, "--home", home], here);
    const redis = async () => (await cli(["failures"])).failure_graph.project.redis;
    await save(here, { goal: "cache", state: "s", next: "n" });
    await fail(here, "redis", "old reason", { alternatives: ["memcached"] });
    await exportTo(here, out);
    await fail(here, "redis", "new reason", { rejected_by: "system" });
    await cli(["import", out]);
    expect(await redis()).toMatchObject({ reason: "new reason", rejected_by: "system", repeat_count: 2 });
    await atPlace(here, (s) => removeFailure(s, "redis"));
    await fail(here, "redis", "seen again");
    await cli(["import", out]);
    expect(await redis()).toMatchObject({ reason: "seen again", repeat_count: 1, alternatives: [] });
  });

  test("after a link: an export of the linked project brings back no snapshot deleted and no failure forgotten since", async () => {
    const { base, pc, repo: app, home, out } = setup();
    const lib = gitRepo(join(base, "lib"), { "lib.ts": "export const lib = 1;\n" });
    const at = (cwd: string) => (args: string[]) => okJson([...args, "--home", home], { cwd, env: pc.env });
    const [inApp, inLib] = [at(app), at(lib)];
    const [appHere, libHere] = [app, lib].map((cwd) => ({ home, cwd, env: pc.env }));
    const one = (await save(libHere, { goal: "one", state: "s", next: "n" })).snapshot.name;
    await save(libHere, { goal: "two", state: "s", next: "n" });
    await fail(libHere, "Y", "y", { alternatives: ["yalt"] });
    await exportTo(libHere, out);
    await save(appHere, { goal: "app", state: "s", next: "n" });
    await atPlace(appHere, async (s) => {
      await linkProjects(s, "lib");
      await removeFailure(s, "Y");
      await deleteSnapshot(s, one);
    });
    const r = await inLib(["import", out]);
    expect(r.snapshots.imported).toEqual([]);
    expect(r.snapshots.deleted).toEqual([one]);
    expect(r.warnings.join("\n")).toContain(
      `failure "Y" was forgotten in this store after it was exported; not brought back.`,
    );
    expect((await inApp(["snapshots", "list"])).snapshots.map((s: any) => s.goal).sort()).toEqual([
      "app",
      "two",
    ]);
    expect((await inApp(["failures"])).failure_graph.project).toEqual({});
  });
});

describe("an import that takes in nothing", () => {
  test("every snapshot unreadable: exit 1 naming the first, and the store as it was (no empty project left)", async () => {
    const t = projectOnLaptop("mindsave-six-");
    await save(inRepo(t), { goal: "already here" });
    const before = await dumpStore(t.db);
    const src = gitRepo(join(t.base, "other"));
    mkdirSync(join(src, ".mindsave", "snapshots"), { recursive: true });
    writeFileSync(join(src, ".mindsave", "snapshots", "x_2026-01-01.md"), "---\ngoal: [unclosed\n---\n");
    const r = await t.cli(["import", src]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `Nothing was imported from ${join(src, ".mindsave")}: its one snapshot could not be read (snapshots/x_2026-01-01.md is not valid YAML`,
    );
    expect(await dumpStore(t.db)).toBe(before);
    // A plain folder's workspace gets no project.json from an import that took nothing in.
    const plain = join(t.base, "plain");
    mkdirSync(join(plain, ".mindsave", "snapshots"), { recursive: true });
    writeFileSync(join(plain, ".mindsave", "snapshots", "y_2026-01-01.md"), "---\ngoal: [unclosed\n---\n");
    expect((await t.cli(["import", plain])).code).toBe(1);
    expect(readdirSync(join(plain, ".mindsave"))).toEqual(["snapshots"]);
    expect(await dumpStore(t.db)).toBe(before);
  });
});

describe("import of many snapshots naming files not on this host", () => {
  test("says it once: how many snapshots, the first files and how many more; --json keeps each", async () => {
    const t = projectOnLaptop("mindsave-seven-");
    for (let i = 0; i < 5; i++)
      await save(inRepo(t), {
        goal: `step ${i}`,
        topic: `step-${i}`,
        activeFile: [`src/gone-${i}.ts`, "src/shared.ts"],
      });
    const out = join(t.base, "out");
    await exportTo(inRepo(t), out);
    const other = projectOnLaptop("mindsave-seven-");
    const r = await other.okCli(["import", out]);
    const lines = r.stderr.split("\n").filter((l) => l.includes("not found on this host"));
    expect(lines).toHaveLength(1);
    // Six distinct files in all (five own ones and one they share): three named, three more.
    expect(lines[0]).toMatch(
      /^mindsave: warning: 5 imported snapshots name active files not found on this host \(src\/\S+\.ts, src\/\S+\.ts, src\/\S+\.ts and 3 more\): they were saved by path only/,
    );
    const again = projectOnLaptop("mindsave-seven-");
    const j = JSON.parse((await again.okCli(["import", out, "--json"])).stdout) as { warnings: string[] };
    expect(j.warnings.filter((w) => w.includes("Active file(s) not found on this host"))).toHaveLength(5);
  });
});

describe("an export imported into a home that never met the laptop that saved it", () => {
  test("the restore block names that laptop, not its id", async () => {
    const t = projectOnLaptop("mindsave-seven-");
    await save(inRepo(t), { goal: "g", state: "s", next: "n" });
    const out = join(t.base, "out");
    await exportTo(inRepo(t), out);
    const other = projectOnLaptop("mindsave-seven-");
    await other.okCli(["import", out]);
    const block = (await other.okCli(["load", "--latest"])).stdout;
    expect(block).toMatch(/\nsaved .* on walker · status in_progress/);
    expect(block).not.toMatch(/ on h-/);
  });
});
