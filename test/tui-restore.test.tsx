// The TUI's load (l on a snapshot) is the restore use case `mindsave load` runs
// (engine/snapshots/restore.ts: restore): the same block for the same snapshot.
import { afterEach, describe, expect, test } from "bun:test";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { fromFields } from "../src/engine/snapshots/input.ts";
import { okJson } from "./helpers.ts";
import { closeAll, mount, openStore } from "./tui-harness.tsx";

afterEach(closeAll);

/** The block's age ("12s ago") moves between the two processes: the rest must be the same. */
const pinAge = (block: string) => block.replace(/^(saved [^(]* UTC )\([^)]*\)/m, "$1(AGE)");

describe("TUI load: the CLI's restore", () => {
  test("l on an older snapshot exits with the block `mindsave load NAME` prints for it", async () => {
    const t = await openStore("mindsave-tui-restore-");
    const older = await saveSnapshot(t.session, {
      input: fromFields({
        goal: "整理 the older task",
        next_action: "older step",
        constraints: ["keep the API"],
      }),
    });
    await saveSnapshot(t.session, { input: fromFields({ goal: "the newest task" }) });
    const h = mount(t.session, {
      initial: [{ name: "home" }, { name: "snapshot", snapshotId: older.snapshot.id }],
    });
    await h.until((x) => x.includes("Layer 1"), "the snapshot");
    h.press("l");
    await h.until(() => h.exited.called, "exit");
    const cli = await okJson(["load", older.snapshot.name, "--json", "--home", t.session.home.dir], {
      cwd: t.repo,
      env: t.env as Record<string, string>,
    });
    expect(cli.restore_block).toContain("goal: 整理 the older task");
    expect(cli.restore_block).toContain("- keep the API");
    expect(pinAge(cli.restore_block)).toContain("UTC (AGE)");
    expect(pinAge(h.exited.output!)).toBe(pinAge(cli.restore_block));
  });
});
