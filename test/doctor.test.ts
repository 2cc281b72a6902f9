// doctor through the real CLI: what it finds and what it tells the reader to run.
import { describe, expect, test } from "bun:test";
import { statSync, truncateSync } from "node:fs";
import { projectOnLaptop as fixture, saveGoal as save } from "./helpers.ts";

describe("doctor on a damaged store", () => {
  test("says what to run without sending the reader back to doctor", async () => {
    const t = fixture("mindsave-walk2-doctor-");
    for (let i = 0; i < 3; i++) await save(t, `goal number ${i}`);
    truncateSync(t.db, Math.floor(statSync(t.db).size / 2));
    const r = await t.cli(["doctor"]);
    expect(r.code).toBe(1);
    const problem = r.stdout.split("\n").find((l) => l.startsWith("problem:"));
    expect(problem).toContain("damaged");
    expect(problem).toContain("mindsave doctor --repair");
    expect(problem).not.toContain("`mindsave doctor` ");
    const j = JSON.parse((await t.cli(["--json", "doctor"])).stdout);
    expect(j.problem).not.toContain("`mindsave doctor` ");
    // Other commands still point to doctor to see what is wrong.
    expect((await t.cli(["load"])).stderr).toContain("run `mindsave doctor` to see what is wrong");
  });
});
