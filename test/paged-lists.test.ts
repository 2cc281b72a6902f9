// Every list paged (issue 36): `snapshots list` and load's numbered list read a page at a time (a
// count, then a page in the list's order, the id breaking ties of equal times), with the tag and
// status filters in SQL. A real store of 131 snapshots, a mixed English and Chinese history with
// equal timestamps and archived ones; the real CLI for what is shown.
import { beforeAll, describe, expect, test } from "bun:test";
import { projectOnLaptop } from "./helpers.ts";
import { atPlace, inRepo, saveGoal } from "./engine-setup.ts";
import { newId } from "../src/engine/ids.ts";
import type { SnapshotRecord, SnapshotSummary } from "../src/store/store.ts";

const t = projectOnLaptop("mindsave-paged-");
const COPIES = 130;
const ARCHIVED = 25;

interface Seeded {
  id: string;
  name: string;
  created_at: string;
  tags: string[];
  status: SnapshotRecord["status"];
  archived: boolean;
}
const seeded: Seeded[] = [];

/** The list's order, decided here from what was written: newest first, the larger id first on a tie. */
const inListOrder = (rows: Seeded[]) =>
  [...rows].sort((a, b) =>
    a.created_at !== b.created_at ? (a.created_at < b.created_at ? 1 : -1) : a.id < b.id ? 1 : -1,
  );
const names = (rows: { name: string }[]) => rows.map((r) => r.name);

beforeAll(async () => {
  const first = (await saveGoal(t, "the real save 真实")).snapshot;
  seeded.push({ ...first, archived: false });
  await atPlace(inRepo(t), (s) =>
    s.write(async (w) => {
      for (let i = 0; i < COPIES; i++) {
        // Three snapshots share each minute: only the id orders them.
        const at = new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 3) * 60_000).toISOString();
        const row: Seeded = {
          id: newId(),
          name: `paged_${String(i).padStart(3, "0")}`,
          created_at: at,
          tags: i % 2 ? ["测试"] : ["Alpha"],
          status: (["in_progress", "completed", "blocked"] as const)[i % 3],
          archived: i < ARCHIVED,
        };
        const goal = i % 2 ? `修复登录 ${i}` : `fix the login ${i}`;
        await w.insertSnapshot({ ...first, ...row, goal });
        seeded.push(row);
      }
      await w.archiveSnapshots(seeded.filter((r) => r.archived).map((r) => r.id));
    }),
  );
});

/**
 * Every page of `snapshots list --json` with these flags, in turn, and the totals each said: until
 * the rows reach the total (a page past the end is its own case below) or a page fails.
 */
async function allPages(flags: string[], limit: number) {
  const rows: SnapshotSummary[] = [];
  const totals = new Set<number>();
  const more = () => totals.size === 0 || rows.length < Math.max(...totals);
  for (let page = 1; page < 100 && more(); page++) {
    const r = await t.cli([
      "snapshots",
      "list",
      ...flags,
      "--limit",
      String(limit),
      "--page",
      String(page),
      "--json",
    ]);
    if (r.code !== 0) break;
    const out = JSON.parse(r.stdout);
    totals.add(out.total);
    rows.push(...out.snapshots);
  }
  return { rows, totals: [...totals] };
}

describe("snapshots list, a page at a time", () => {
  test("the listed ones: pages join to the whole list, no gap or repeat where times are equal", async () => {
    const want = inListOrder(seeded.filter((r) => !r.archived));
    const { rows, totals } = await allPages([], 17);
    expect(names(rows)).toEqual(names(want));
    expect(totals).toEqual([want.length]);
  });

  test("with --all, the archived ones too, in the same order", async () => {
    const { rows, totals } = await allPages(["--all"], 40);
    expect(names(rows)).toEqual(names(inListOrder(seeded)));
    expect(totals).toEqual([seeded.length]);
  });

  test("--tag filters in SQL, case folded, a Chinese tag too; the total counts the filtered list", async () => {
    for (const [tag, has] of [
      ["测试", "测试"],
      ["alpha", "Alpha"],
    ]) {
      const want = inListOrder(seeded.filter((r) => r.tags.includes(has)));
      const { rows, totals } = await allPages(["--all", "--tag", tag], 9);
      expect(names(rows)).toEqual(names(want));
      expect(totals).toEqual([want.length]);
    }
  });

  test("the default page: the newest 50, and a line saying how many and how to see the next", async () => {
    const want = inListOrder(seeded.filter((r) => !r.archived));
    const first = await t.okCli(["snapshots", "list"]);
    expect(first.stdout).toContain(` 50. ${want[49].name} `);
    expect(first.stdout).not.toContain(want[50].name);
    expect(first.stdout).toContain(
      `1–50 of ${want.length} shown; \`mindsave snapshots list --page 2\` shows the next 50.`,
    );
    // Page 2 numbers on from 51, as `load 51` takes it.
    const second = await t.okCli(["snapshots", "list", "--page", "2"]);
    expect(second.stdout).toContain(` 51. ${want[50].name} `);
    expect(second.stdout).not.toContain(` ${want[49].name} `);
  });

  test("with --all, a later page keeps the list numbers of the listed ones; archived have none", async () => {
    const all = inListOrder(seeded);
    const r = await t.okCli(["snapshots", "list", "--all", "--limit", "10", "--page", "11"]);
    const listedBefore = all.slice(0, 100).filter((x) => !x.archived).length;
    const firstOnPage = all[100];
    expect(firstOnPage.archived).toBe(false);
    expect(r.stdout).toContain(`${String(listedBefore + 1).padStart(3)}. ${firstOnPage.name} `);
    const archivedOnPage = all.slice(100, 110).find((x) => x.archived)!;
    expect(r.stdout).toMatch(new RegExp(`^ {5}${archivedOnPage.name} \\(archived\\)`, "m"));
  });

  test("a page past the end: one sentence on stderr, exit 1", async () => {
    const r = await t.cli(["snapshots", "list", "--page", "9"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim()).toBe(
      `mindsave: There is no page 9: the list holds ${COPIES + 1 - ARCHIVED} snapshot(s), 3 page(s) of 50.`,
    );
  });
});

describe("keyset pages of the store (what a screen reads next)", () => {
  test("each page starts after the last row of the one before: the whole list, no gap or repeat", async () => {
    for (const listed of [true, false]) {
      const want = inListOrder(seeded.filter((r) => !listed || !r.archived));
      const rows = await atPlace(inRepo(t), async (s) => {
        const projectId = (await s.store.getSnapshot(seeded[0].id))!.project_id;
        const out: SnapshotSummary[] = [];
        // At most as many pages as the rows need, and one more to see the end.
        for (let i = 0; i <= Math.ceil(want.length / 7); i++) {
          const page = await s.store.listSnapshots(projectId, { listed, limit: 7, after: out.at(-1) });
          if (!page.length) break;
          out.push(...page);
        }
        return out;
      });
      expect(names(rows)).toEqual(names(want));
    }
  });
});

describe("load's numbered list", () => {
  test("piped: its first page, how many in all, and a number past the page still loads", async () => {
    const want = inListOrder(seeded.filter((r) => !r.archived));
    const r = await t.okCli(["load"]);
    expect(r.stdout).toContain(want[49].name);
    expect(r.stdout).not.toContain(want[50].name);
    expect(r.stdout).toContain(
      `${want.length} snapshots (the newest 50 above; \`mindsave snapshots list --page 2\` shows the next ones).`,
    );
    const json = await t.json(["load"]);
    expect(json.total).toBe(want.length);
    expect(json.choose).toHaveLength(50);
    const loaded = await t.json(["load", "80"]);
    expect(loaded.snapshot_id).toBe(want[79].name);
  });
});
