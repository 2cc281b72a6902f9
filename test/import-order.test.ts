// Import saves a tree's snapshots oldest first. It reads each file's time first (from the one
// `created_at:` line when that decides it, else from the whole head), keeps only that, and reads
// each file whole when it saves it. The quick reading must never disagree with the whole one.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  quickCreatedAt,
  readSnapshotHead,
  type IndexInfo,
} from "../src/engine/formats/seed-read-snapshots.ts";
import { gitRepo, laptop, okJson, tempDir } from "./helpers.ts";

const NO_INDEX: IndexInfo = { byId: new Map(), byFile: new Map(), origRoots: [], entries: [] };
const FILE_TIME = new Date("2020-02-02T02:02:02.000Z");
const snapshot = (front: string) => `---\n${front}\n---\n\n## Notes\nbody text\n`;
/** The time the whole head reads, or undefined when the head is refused. */
function headTime(text: string): number | undefined {
  try {
    return readSnapshotHead(text, "x.md", NO_INDEX, FILE_TIME).createdAt.getTime();
  } catch {
    return undefined;
  }
}

describe("the quick time of a snapshot file", () => {
  test("is read from the lines MindSave's export and the original SDK write", () => {
    expect(
      quickCreatedAt(snapshot("snapshot_id: a_20260510\ncreated_at: 2026-05-10T06:30:00.000Z\ngoal: g")),
    ).toBe(Date.UTC(2026, 4, 10, 6, 30));
    expect(quickCreatedAt(snapshot('goal: g\ncreated_at: "2026-05-10T14:30:00+08:00"'))).toBe(
      Date.UTC(2026, 4, 10, 6, 30),
    );
    expect(quickCreatedAt(snapshot("created_at: '2026-05-10T06:30Z'\ngoal: g"))).toBe(
      Date.UTC(2026, 4, 10, 6, 30),
    );
    expect(quickCreatedAt(`\uFEFF---\r\ncreated_at: 2026-05-10T06:30:00Z\r\ngoal: g\r\n---\r\nbody`)).toBe(
      Date.UTC(2026, 4, 10, 6, 30),
    );
  });

  test("is left to the whole reading when one line does not decide it", () => {
    const unsure = [
      "created_at: 2026-05-10T06:30:00\ngoal: g", // no zone: the host's local time
      "created_at: 2026-05-10\ngoal: g", // a date
      "created_at: 2026-05-10T06:30:00Z # saved on the train\ngoal: g",
      "created_at: !!str 2026-05-10T06:30:00Z\ngoal: g",
      "created_at: 2026-05-10T06:30:00Z\ngoal: g\ncreated_at: 2026-05-11T06:30:00Z", // twice
      'created_at: 2026-05-10T06:30:00Z\n"created_at": 2026-05-11T06:30:00Z\ngoal: g',
      "state: |\n  created_at: 2026-05-11T06:30:00Z\ncreated_at: 2026-05-10T06:30:00Z\ngoal: g",
      "  created_at: 2026-05-10T06:30:00Z\n  goal: g", // not at column 0
      "created: 2026-05-10T06:30:00Z\ngoal: g", // an older name: the head maps it
    ];
    for (const front of unsure) expect([front, quickCreatedAt(snapshot(front))]).toEqual([front, undefined]);
    // Without front matter the whole text is the YAML.
    expect(quickCreatedAt("created_at: 2026-05-10T06:30:00Z\ngoal: g\n")).toBeUndefined();
  });

  test("agrees with the whole reading of the head whenever it answers (generated front matter)", () => {
    const times = [
      "2026-05-10T06:30:00.000Z",
      "2026-05-10T14:30:00+08:00",
      "2026-05-10T14:30:00+0800",
      "2026-05-10T06:30:00.123456Z",
      "2026-05-10T06:30Z",
      "2026-05-10T06:30:00",
      "2026-05-10",
      "20260510",
      "2026-13-40T99:99:99Z",
      "null",
      "[a, b]",
    ];
    const time = fc.constantFrom(...times);
    const quote = fc.constantFrom("", '"', "'");
    const line = fc.oneof(
      { arbitrary: fc.tuple(quote, time).map(([q, t]) => `created_at: ${q}${t}${q}`), weight: 12 },
      { arbitrary: fc.tuple(quote, time).map(([q, t]) => `created_at:   ${q}${t}${q}  `), weight: 4 },
      time.map((t) => `created_at : ${t}`),
      time.map((t) => `"created_at": ${t}`),
      time.map((t) => `? created_at\n: ${t}`),
      time.map((t) => `created_at: ${t} # a comment`),
      time.map((t) => `created: ${t}`),
      time.map((t) => `timestamp: ${t}`),
      time.map((t) => `# created_at: ${t}`),
      time.map((t) => `state: |\n  created_at: ${t}`),
      time.map((t) => `state: "was created_at ${t}"`),
      time.map((t) => `state: "a line\n  created_at: ${t}"`),
      time.map((t) => `_mindsave:\n  created_at: ${t}`),
      { arbitrary: fc.constant("goal: fix the login"), weight: 6 },
      { arbitrary: fc.constant("goal: 修复登录"), weight: 6 },
      { arbitrary: fc.constant("decisions:\n  - keep the API"), weight: 6 },
      fc.constant("created_at:"),
      fc.constant("created_at: &t 2026-05-10T06:30:00Z"),
      fc.constant("other: *t"),
    );
    let answered = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 5 }), (lines) => {
        const text = snapshot(lines.join("\n"));
        const quick = quickCreatedAt(text);
        if (quick === undefined) return;
        answered++;
        const whole = headTime(text);
        // A head the whole reading refuses fails on its own when it is saved; the time does not matter.
        if (whole !== undefined) expect([lines, quick]).toEqual([lines, whole]);
      }),
      { numRuns: 3000, seed: 20261123 },
    );
    expect(answered).toBeGreaterThan(200);
  });
});

describe("import saves oldest first, however the files' times are written", () => {
  test("an emergency snapshot extends the full one saved before it, not a later one; the list is by time", async () => {
    const base = tempDir("mindsave-import-order-");
    const pc = laptop("alpha", base);
    const repo = gitRepo(join(base, "shop"));
    const home = join(base, "store");
    mkdirSync(home);
    const snaps = join(repo, ".mindsave", "snapshots");
    mkdirSync(snaps, { recursive: true });
    const full = (goal: string) =>
      `goal: ${goal}\nstate: s\nnext_action: n\nconstraints:\n  - "${goal} constraint"`;
    // Named so that no order of names is the order of times.
    writeFileSync(
      join(snaps, "a_late_20260103.md"),
      snapshot(`created_at: 2026-01-03T00:00:00Z\n${full("late full")}`),
    );
    writeFileSync(
      join(snaps, "z_early_20260101.md"),
      snapshot(`created_at: 2026-01-01\n${full("early full")}`),
    ); // read whole
    // Layer 1 only, as an emergency save writes it.
    writeFileSync(
      join(snaps, "OVF_middle_20260102.md"),
      "---\ncreated_at: 2026-01-02T00:00:00+00:00\ngoal: emergency\nstate: s\nnext_action: n\n---\n",
    );
    writeFileSync(join(snaps, "m_last_20260104.md"), snapshot(full("last full"))); // its time is in the index
    writeFileSync(
      join(repo, ".mindsave", "index.json"),
      JSON.stringify({
        snapshots: [
          { id: "m_last_20260104", path: "snapshots/m_last_20260104.md", created_at: "2026-01-04T00:00:00Z" },
        ],
      }),
    );
    const opts = { cwd: repo, env: pc.env };

    const r = await okJson(["import", repo, "--home", home], opts);
    expect(r.snapshots.failed).toEqual([]);
    expect(r.snapshots.imported).toEqual([
      "z_early_20260101",
      "OVF_middle_20260102",
      "a_late_20260103",
      "m_last_20260104",
    ]);
    const list = await okJson(["snapshots", "list", "--home", home], opts);
    expect(list.snapshots.map((s: any) => [s.name, s.created_at])).toEqual([
      ["m_last_20260104", "2026-01-04T00:00:00.000Z"],
      ["a_late_20260103", "2026-01-03T00:00:00.000Z"],
      ["OVF_middle_20260102", "2026-01-02T00:00:00.000Z"],
      ["z_early_20260101", "2026-01-01T00:00:00.000Z"],
    ]);
    const early = await okJson(["snapshots", "show", "z_early_20260101", "--home", home], opts);
    const ovf = await okJson(["snapshots", "show", "OVF_middle_20260102", "--home", home], opts);
    expect(ovf.kind).toBe("overflow");
    expect(ovf.auto_trigger.extends).toBe(early.id);
  });
});
