// The TUI's sync screen syncs through the one sync use case the CLI uses (engine/sync/sync-peers.ts):
// the same pre-sync check, and each peer closed with its WAL folded into its file.
import { afterEach, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { fromFields } from "../src/engine/snapshots/input.ts";
import { addPeer } from "../src/engine/sync/sync.ts";
import { sql, storeClient } from "./helpers.ts";
import { closeAll, KEY, mount, openStore } from "./tui-harness.tsx";
import { detailLines } from "../ui/components/SyncScreen.tsx";
import { width } from "../src/lib/text.ts";

afterEach(closeAll);

async function laptop(goal: string) {
  const t = await openStore("mindsave-tui-sync-");
  await saveSnapshot(t.session, { input: fromFields({ goal }) });
  return t;
}

/** Laptop A's store, with laptop B's (closed) as its known peer. */
async function laptopAndPeer() {
  const a = await laptop("on laptop A");
  const b = await laptop("on laptop B");
  const peerDb = b.session.home.dbPath;
  await b.session.close();
  await addPeer(a.session, peerDb);
  return { a, b, peerDb };
}

/** Bytes left in a store's write-ahead log (0 when there is none). */
const walBytes = (db: string) => (existsSync(`${db}-wal`) ? statSync(`${db}-wal`).size : 0);

describe("TUI sync: the CLI's use case", () => {
  test("a sync leaves the peer's log folded into its file: the file alone holds what was sent", async () => {
    const { a, b, peerDb } = await laptopAndPeer();
    // Another program has the peer open (idle): closing the sync's connection alone folds nothing.
    const other = await storeClient(peerDb);
    await other.execute("SELECT count(*) FROM snapshots");
    const h = mount(a.session, { initial: [{ name: "home" }, { name: "sync" }] });
    await h.until((x) => x.includes("Sync · 1 peer"), "the peer");
    h.press(KEY.enter);
    await h.until((x) => x.includes("Changed:") && x.includes(`Synced with`), "the sync");
    expect(walBytes(peerDb)).toBe(0);
    // A copy of the file alone (a drive's mindsave.db copied away) holds both laptops' snapshots.
    const copy = join(b.base, "copy.db");
    copyFileSync(peerDb, copy);
    other.close();
    expect((await sql(copy, "SELECT goal FROM snapshots ORDER BY goal")).map((r) => r.goal)).toEqual([
      "on laptop A",
      "on laptop B",
    ]);
  });

  test("a dry run with a peer whose store is gone is refused in one sentence and starts no store there", async () => {
    const { a, peerDb } = await laptopAndPeer();
    for (const f of [peerDb, `${peerDb}-wal`, `${peerDb}-shm`]) rmSync(f, { force: true });
    const h = mount(a.session, { initial: [{ name: "home" }, { name: "sync" }], columns: 200 });
    await h.until((x) => x.includes("Sync · 1 peer") && x.includes("not here now"), "the peer, not here now");
    h.press("d");
    const f = await h.until((x) => x.includes("a dry run starts none"), "the refusal");
    expect(f).toContain(`There is no store at ${peerDb} yet`);
    expect(f).not.toContain("A sync would change:");
    expect(existsSync(peerDb)).toBe(false);
  });
});

describe("TUI sync: the changes", () => {
  test("a long line of changes wraps after a kind, so no count is parted from its noun", () => {
    const line =
      "  into the peer:   5 snapshots added; 2 failures added; 2 projects added; 2 project folders added";
    expect(detailLines(line, 74)).toEqual([
      "into the peer: 5 snapshots added; 2 failures added; 2 projects added;",
      "2 project folders added",
    ]);
    // A part wider than the screen alone wraps by words (Chinese anywhere), within it.
    const long = `refused: ${"修复登录页面".repeat(8)}; 1 more`;
    const lines = detailLines(long, 30);
    for (const l of lines) expect(width(l)).toBeLessThanOrEqual(30);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.join("").replaceAll(" ", "")).toBe(long.replaceAll(" ", ""));
  });
});
