// Ctrl-C or Ctrl-D at any prompt a person answers (load's "Load which?", a passphrase) cancels:
// "Cancelled; nothing was changed.", exit 1, the store as it was — never an internal error.
// Run on a real terminal: the CLI inside tmux, keys sent with send-keys, the screen read back.
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { dumpStore } from "./helpers.ts";
import { TMUX, terminal } from "./terminal.ts";

if (!TMUX) console.log("skipped prompt cancellation tests: tmux is not installed (apt-get install tmux)");

const setup = () => terminal("mindsave-prompt-");

const expectCancelled = (r: { screen: string; code: number }) => {
  expect(r.screen).toContain("mindsave: Cancelled; nothing was changed.");
  expect(r.screen).not.toContain("internal error");
  expect(r.code).toBe(1);
};

describe.skipIf(!TMUX)("a prompt on a terminal cancelled with Ctrl-C or Ctrl-D", () => {
  for (const [name, key] of [
    ["Ctrl-C", "C-c"],
    ["Ctrl-D", "C-d"],
  ]) {
    test(`load's "Load which?" and ${name}: cancelled, exit 1, no restore block`, async () => {
      const s = setup();
      for (const goal of ["alpha refactor", "beta migration"])
        await s.cli(["save", "--goal", goal, "--next", `continue ${goal}`]);
      try {
        s.start(["load"]);
        const r = await s.answer("Load which?", key);
        expectCancelled(r);
        expect(r.screen).not.toContain("next_action:");
      } finally {
        s.stop();
      }
    }, 30_000);

    test(`encrypt's new passphrase and ${name}: cancelled, exit 1, the store exactly as before`, async () => {
      const s = setup();
      await s.cli(["save", "--goal", "stays plain", "--next", "n"]);
      const before = await dumpStore(join(s.home, "mindsave.db"));
      const files = readdirSync(s.home).sort();
      try {
        s.start(["encrypt"]);
        expectCancelled(await s.answer("New passphrase for", key));
      } finally {
        s.stop();
      }
      expect(readdirSync(s.home).sort()).toEqual(files);
      expect(await dumpStore(join(s.home, "mindsave.db"))).toBe(before);
    }, 30_000);
  }

  test("snapshots prune's y/N and Ctrl-C: cancelled, exit 1, nothing deleted", async () => {
    const s = setup();
    // Two snapshots past --keep 1 are archived: what a prune would delete.
    for (const goal of ["one", "two", "three"])
      await s.cli(["save", "--goal", goal, "--next", "n", "--keep", "1"]);
    const before = await dumpStore(join(s.home, "mindsave.db"));
    try {
      s.start(["snapshots", "prune"]);
      expectCancelled(await s.answer("Delete these 2 snapshot(s)? [y/N]", "C-c"));
    } finally {
      s.stop();
    }
    expect(await dumpStore(join(s.home, "mindsave.db"))).toBe(before);
  }, 30_000);

  test("an encrypted store's passphrase and Ctrl-C: cancelled, exit 1", async () => {
    const s = setup();
    await s.cli(["save", "--goal", "secret plan", "--next", "n"]);
    await s.cli(["encrypt"], { MINDSAVE_PASSPHRASE: "correct horse battery" });
    try {
      s.start(["load", "--latest"]);
      expectCancelled(await s.answer("Passphrase for", "C-c"));
    } finally {
      s.stop();
    }
  }, 30_000);
});
