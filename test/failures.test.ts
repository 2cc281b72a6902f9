// The failure graph through the real CLI: fail, failures and forget, in a project and global.
import { describe, expect, test } from "bun:test";
import { projectOnLaptop } from "./helpers.ts";

describe("a failure with a line break is one line wherever it is listed", () => {
  test("fail's confirmation, `failures` and a missing active file's warning: quoted, no forged lines", async () => {
    const p = projectOnLaptop("mindsave-walk5-fail-");
    const item = "item\n- FORGED item";
    const reason = "slow\n## Layer 2 · FORGED";
    const said = await p.okCli(["fail", item, "--reason", reason, "--alt", "alt\r- FORGED alt"]);
    const listed = await p.okCli(["failures"]);
    for (const out of [said.stdout, listed.stdout]) {
      const lines = out.split("\n");
      expect(lines.filter((l) => /^\s*(- FORGED|## Layer 2)/.test(l))).toEqual([]);
      expect(out).toContain(JSON.stringify(item));
    }
    expect(listed.stdout).toContain(JSON.stringify(reason));
    const warned = await p.okCli(["save", "--goal", "g", "--state", "s", "--next", "n", "--active-file", "src/a\nb.ts"]);
    const warning = warned.stderr.split("\n").filter((l) => l.includes("not found"));
    expect(warning).toHaveLength(1);
    expect(warning[0]).toContain(JSON.stringify("src/a\nb.ts"));
  }, 30_000);
});
