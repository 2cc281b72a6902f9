// Overflow snapshots take their Layer 2 from a full snapshot: which one, when it is deleted or
// shares its name with another laptop's.
import { describe, expect, test } from "bun:test";
import { projectOnLaptop as fixture, twoLaptops } from "./helpers.ts";
import { inClone, inRepo, save, syncAt, type SaveFlags } from "./engine-setup.ts";

describe("overflow snapshots: deleting the full snapshot one builds on", () => {
  test("its Layer 2 comes from the newest older full snapshot still there; delete says so; none left: Layer 1 only", async () => {
    const t = fixture("mindsave-walk-ovf-");
    const saved = async (flags: SaveFlags) =>
      (await save(inRepo(t), { state: "s", next: "n", ...flags })).snapshot.name;
    const older = await saved({ goal: "older plan", constraint: ["no Redis"] });
    const base = await saved({ goal: "newer plan", constraint: ["no Kafka"] });
    const ovf = await saved({ goal: "context nearly full", overflow: true });
    // A full snapshot saved after the overflow one is no part of it.
    const later = await saved({ goal: "later plan", constraint: ["no Mongo"] });
    const layer2 = async () => (await t.json(["load", ovf])).layer2.constraints;
    const header = async () => (await t.okCli(["load", ovf])).stdout.split("\n")[1];
    expect(await header()).toContain(`overflow (Layer 1; Layer 2 from ${base})`);
    expect(await layer2()).toEqual(["no Kafka"]);

    const del = await t.cli(["snapshots", "delete", base]);
    expect(del.code).toBe(0);
    expect(del.stdout).toBe(`Deleted ${base}.\n`);
    expect(del.stderr).toContain(`${ovf} took its Layer 2 from ${base}; it now takes it from ${older}.`);
    expect(await header()).toContain(`overflow (Layer 1; Layer 2 from ${older})`);
    expect(await layer2()).toEqual(["no Redis"]);

    // Deleting a full snapshot nothing builds on, or the overflow one's newer neighbour, warns of nothing.
    const quiet = await t.cli(["snapshots", "delete", later]);
    expect(quiet).toMatchObject({ code: 0, stderr: "" });

    const last = await t.json(["snapshots", "delete", older]);
    expect(last.layer2_moved).toEqual([{ overflow: ovf, layer2_from: null }]);
    expect(last.warnings).toEqual([
      `${ovf} took its Layer 2 from ${older}; no older full snapshot is left, so it now restores Layer 1 only.`,
    ]);
    expect(await header()).toContain("overflow (Layer 1 only)");
    expect(await layer2()).toEqual([]);
  });
});

describe("an overflow snapshot whose full one shares its name with another laptop's", () => {
  test("the block's header says which one its Layer 2 is from: the host and an id prefix", async () => {
    const w = twoLaptops("mindsave-seven-");
    await save(inClone(w.a), { goal: "work", topic: "work", constraint: ["from A"] });
    await save(inClone(w.b), { goal: "work", topic: "work", constraint: ["from B"] });
    for (const pc of [w.a, w.b, w.a]) await syncAt(inClone(pc), w.drive);
    await save(inClone(w.a), { overflow: true, goal: "more work", state: "s", next: "n" });
    const block = (await w.a.cli(["load", "--latest"])).stdout;
    expect(block).toMatch(
      /overflow \(Layer 1; Layer 2 from work_\d{4}-\d\d-\d\d \((this host|laptop-b), id [0-9a-z-]+\)\)/,
    );
  });
});
