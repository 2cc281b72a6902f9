// Copies of one store that went on apart (a drive folder copied to a second stick, a home copied to
// a new laptop) share a store id. Sync must tell them apart, or each copy's own changes are never
// read and the other's never sent.
import { describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, gitRepo, laptop, run, tempDir } from "./helpers.ts";
import { inClone, save, syncScene, type Place } from "./engine-setup.ts";

/** Laptops on clones of one repository, each with its own home (or a given one). */
function office() {
  const base = tempDir("mindsave-copies-");
  const origin = gitRepo(join(base, "origin"));
  const mk = (name: string, home = join(base, `${name}-home`)) => {
    mkdirSync(home, { recursive: true });
    const repo = join(base, `${name}-work`, "shop");
    git(base, "clone", "-q", "--template=", origin, repo);
    const env = { ...laptop(name, base).env, MINDSAVE_HOST: `host-${name}` };
    const cli = async (...args: string[]) => {
      const r = await run([...args, "--home", home], { cwd: repo, env });
      if (r.code !== 0) throw new Error(`${name}: ${args.join(" ")}: ${r.stderr}`);
      return r.stdout;
    };
    const place: Place = { home, cwd: repo, env };
    // The saves and the syncs before the one a test checks only set the scene, in this process
    // (engine-setup's syncScene): the syncs between copies are what is tested.
    const saveGoal = (goal: string) => save(place, { goal, state: "s", next: "n" });
    const goals = async () =>
      JSON.parse(await cli("--json", "snapshots", "list"))
        .snapshots.map((s: { goal: string }) => s.goal)
        .sort();
    return { home, place, cli, save: saveGoal, goals };
  };
  const drive = (name: string) => {
    const d = join(base, name, "mindsave");
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, "drive.json"), "{}");
    return d;
  };
  return { base, mk, drive };
}

/** Laptops A, X and Y; A saved and synced with a stick, which was then copied to a second one. */
async function copiedStick() {
  const o = office();
  const [a, x, y] = [o.mk("a"), o.mk("x"), o.mk("y")];
  const d1 = o.drive("stick-1");
  await a.save("A first");
  await syncScene(a.place, d1);
  const d2 = join(o.base, "stick-2", "mindsave");
  cpSync(d1, d2, { recursive: true });
  return { a, x, y, d1, d2 };
}

describe("copies of one store", () => {
  test("a drive copied to a second stick: each copy's changes reach the laptops, and the other's reach it", async () => {
    const { a, x, y, d1, d2 } = await copiedStick();
    await x.save("X on stick 1");
    await syncScene(x.place, d1);
    await syncScene(a.place, d1);
    await y.save("Y on stick 2");
    await syncScene(y.place, d2);
    const out = await a.cli("sync", d2);
    expect(out).toContain("the peer is a copy of a store this one synced with before");
    expect(await a.goals()).toEqual(["A first", "X on stick 1", "Y on stick 2"]);
    // The copy got what came to A through the first stick, and passes it on.
    await y.cli("sync", d2);
    expect(await y.goals()).toEqual(["A first", "X on stick 1", "Y on stick 2"]);
    // Told apart once: the next syncs say nothing of copies, and the first stick catches up too.
    expect(await a.cli("sync", d1)).not.toContain("copy");
    await x.cli("sync", d1);
    expect(await x.goals()).toEqual(["A first", "X on stick 1", "Y on stick 2"]);
  }, 60_000);

  test("a home copied to a new laptop: both laptops' saves meet through the drive", async () => {
    const o = office();
    const p = o.mk("p");
    const d = o.drive("stick");
    await p.save("P before the copy");
    await syncScene(p.place, d);
    const qHome = join(o.base, "q-home");
    cpSync(p.home, qHome, { recursive: true });
    const q = o.mk("q", qHome);
    await p.save("P after the copy");
    await syncScene(p.place, d);
    await q.save("Q after the copy");
    expect(await q.cli("sync", d)).toContain("this store is a copy of one the peer synced with before");
    await p.cli("sync", d);
    const all = ["P after the copy", "P before the copy", "Q after the copy"];
    expect(await p.goals()).toEqual(all);
    expect(await q.goals()).toEqual(all);
  }, 60_000);

  test("a dry run finds the copy and changes neither store's id; a copy that only fell behind is no copy", async () => {
    const { a, x, y, d1, d2 } = await copiedStick();
    // A's own saves after the copy, and a copy that only fell behind: no copy to tell apart.
    await a.save("A second");
    await syncScene(a.place, d1);
    await y.save("Y on stick 2");
    expect(JSON.parse(await y.cli("--json", "sync", d2)).reidentified).toEqual([]);
    // X's work on the first stick, which A then takes in: now the second stick went on apart.
    await x.save("X on stick 1");
    await syncScene(x.place, d1);
    await syncScene(a.place, d1);
    const dry = JSON.parse(await a.cli("--json", "sync", d2, "--dry-run"));
    expect(dry.reidentified).toEqual([expect.objectContaining({ side: "peer" })]);
    expect(dry.pulled.snapshots.added).toBe(1);
    const real = JSON.parse(await a.cli("--json", "sync", d2));
    expect(real.reidentified).toEqual([
      expect.objectContaining({ side: "peer", old_id: dry.reidentified[0].old_id }),
    ]);
    expect(real.reidentified[0].new_id).not.toBe(dry.reidentified[0].new_id);
    expect(await a.goals()).toEqual(["A first", "A second", "X on stick 1", "Y on stick 2"]);
  }, 60_000);
});

describe("load --verify on another laptop", () => {
  test("a file outside the project is a place on the laptop that saved it: not checked here, and said so", async () => {
    const { twoLaptops } = await import("./helpers.ts");
    const w = twoLaptops("mindsave-verify-elsewhere-");
    const outside = join(w.base, "notes.txt");
    writeFileSync(outside, "on both machines' disks, but a place on laptop A\n");
    await save(inClone(w.a), { goal: "g", state: "s", next: "n", activeFile: ["src/auth.ts", outside] });
    for (const pc of [w.a, w.b]) await syncScene(inClone(pc), w.drive);
    const checks = (await w.b.json(["load", "--latest", "--verify"])).verify;
    expect(checks.map((c: { path: string; status: string }) => [c.path, c.status])).toEqual([
      ["src/auth.ts", "ok"],
      [outside, "unknown"],
    ]);
    const text = (await w.b.cli(["load", "--latest", "--verify"])).stdout;
    expect(text).toContain(
      "1 active file(s) unchanged; 1 not checked: outside the project on the laptop that saved it",
    );
    // On the laptop that saved it, it is checked.
    expect(
      (await w.a.json(["load", "--latest", "--verify"])).verify.map((c: { status: string }) => c.status),
    ).toEqual(["ok", "ok"]);
  }, 60_000);
});

describe("a home copied to another machine", () => {
  const own = (() => {
    for (const f of ["/etc/machine-id", "/var/lib/dbus/machine-id"]) {
      try {
        const v = readFileSync(f, "utf8").trim();
        if (/^[0-9a-f]{32}$/.test(v)) return v;
      } catch {
        // not on this system: try the next place
      }
    }
    return null;
  })();
  test.skipIf(process.platform !== "linux" || own === null)(
    "its host.json gives this machine an id of its own, kept beside the other machine's; an older host.json learns this machine's id",
    async () => {
      const { currentHost } = await import("../src/engine/home/host.ts");
      const home = tempDir("mindsave-hostjson-");
      const env = { HOME: home, USERPROFILE: home };
      mkdirSync(join(home, ".mindsave"), { recursive: true });
      const file = join(home, ".mindsave", "host.json");
      writeFileSync(file, JSON.stringify({ id: "h-other-laptop", name: "other", machine: "0".repeat(32) }));
      const here = currentHost(env).id;
      expect(here).not.toBe("h-other-laptop");
      expect(currentHost(env).id).toBe(here);
      const kept = JSON.parse(readFileSync(file, "utf8"));
      expect([kept.id, kept.machine, kept.machines[own!]]).toEqual(["h-other-laptop", "0".repeat(32), here]);
      // Written before machine ids were kept: the id stands, and the file learns whose it is.
      writeFileSync(file, JSON.stringify({ id: "h-older", name: "this" }));
      expect(currentHost(env).id).toBe("h-older");
      expect(JSON.parse(readFileSync(file, "utf8")).machine).toBe(own);
    },
  );
});
