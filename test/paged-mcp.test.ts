// Every list paged (issue 36), the MCP face: the list tool without `all` reads a page through the
// same query as `snapshots list`, and the labels of snapshots sharing a name (two hosts, then a
// sync) find their id prefixes in the store, not by reading every snapshot of the project. A real
// store of 131 listed snapshots (English and Chinese goals), the real MCP server through the SDK client.
import { beforeAll, describe, expect, test } from "bun:test";
import { projectOnLaptop } from "./helpers.ts";
import { atPlace, inRepo, saveGoal } from "./engine-setup.ts";
import { callTool, withMcp } from "./mcp-client.ts";
import { newId } from "../src/engine/ids.ts";
import { sameNameLabels } from "../src/engine/snapshots/select.ts";
import type { Session } from "../src/engine/session.ts";

const t = projectOnLaptop("mindsave-paged-mcp-");
const COPIES = 130;
const ids: string[] = [];
const twins: { id: string; name: string; saved_host: string }[] = [];
let projectId = "";

beforeAll(async () => {
  const first = (await saveGoal(t, "the real save 真实")).snapshot;
  projectId = first.project_id;
  ids.push(first.id);
  await atPlace(inRepo(t), (s) =>
    s.write(async (w) => {
      for (let i = 0; i < COPIES; i++) {
        const at = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
        // The last two share a name, as two hosts' saves of one day do after a sync.
        const name = i >= COPIES - 2 ? "twin_2025-01-01" : `paged_${String(i).padStart(3, "0")}`;
        const row = {
          ...first,
          id: newId(),
          name,
          created_at: at,
          goal: i % 2 ? `修复登录 ${i}` : `fix ${i}`,
        };
        await w.insertSnapshot(row);
        ids.push(row.id);
        if (name.startsWith("twin")) twins.push(row);
      }
    }),
  );
});

/** The rows the store's client hands back while `fn` runs in a session (every statement counted). */
async function rowsFetched<T>(fn: (s: Session) => Promise<T>): Promise<{ value: T; rows: number }> {
  return atPlace(inRepo(t), async (s) => {
    const db = (s.store as unknown as { db: { execute: (stmt: unknown) => Promise<{ rows: unknown[] }> } })
      .db;
    const execute = db.execute.bind(db);
    let rows = 0;
    db.execute = async (stmt) => {
      const r = await execute(stmt);
      rows += r.rows.length;
      return r;
    };
    try {
      return { value: await fn(s), rows };
    } finally {
      db.execute = execute;
    }
  });
}

describe("the MCP list tool, a page at a time", () => {
  test("without all: the newest 50 of 131 and a line saying how to see more; a limit shows more", async () => {
    const r = await withMcp(t.home, t.repo, t.pc.env, (c) => callTool(c, "list", {}));
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.snapshots).toHaveLength(50);
    expect(r.structuredContent.snapshots[0].id).toBe(ids[0]);
    expect(r.structuredContent.snapshots[1].snapshot_id).toBe("twin_2025-01-01");
    expect(r.structuredContent.snapshots.map((s: { n: number }) => s.n)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    expect(r.content[0].text).toContain(`The newest 50 of ${COPIES + 1} are shown; pass limit for more.`);
    const wide = await withMcp(t.home, t.repo, t.pc.env, (c) => callTool(c, "list", { limit: 200 }));
    expect(wide.structuredContent.snapshots).toHaveLength(COPIES + 1);
    expect(wide.structuredContent.snapshots.at(-1).snapshot_id).toBe("paged_000");
    expect(wide.content[0].text).not.toContain("pass limit for more");
  }, 60_000);
});

describe("snapshots sharing a name", () => {
  test("each is labelled with its host and the shortest id prefix no other snapshot shares, read from the store without the whole list", async () => {
    // The expected prefixes, worked out here from every id written.
    const unique = (id: string) => {
      for (let n = 8; n < id.length; n++)
        if (ids.filter((o) => o.startsWith(id.slice(0, n))).length === 1) return id.slice(0, n);
      return id;
    };
    const { value, rows } = await rowsFetched((s) => sameNameLabels(s, projectId, twins));
    expect([...value.entries()]).toEqual(twins.map((r) => [r.id, `this host, id ${unique(r.id)}`]));
    // A count a row for each prefix tried (ids made in one second share their first characters), not the project's 131.
    expect(rows).toBeLessThan(ids.length / 2);
  });
});
