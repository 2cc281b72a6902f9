// Active files' paths: a Windows network (UNC) path is absolute, stored as //server/share/…, never as a
// file inside the project; a file outside the project is a path on the laptop that saved it.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import nodePath, { join } from "node:path";
import { sql, projectOnLaptop as fixture, twoLaptops } from "./helpers.ts";
import { isAbsoluteAny, toHostPath, toStoredPath } from "../src/engine/projects/paths.ts";

describe("paths: a Windows network (UNC) path stays absolute", () => {
  test("the path functions, on both flavours", () => {
    const p = nodePath.posix;
    const w = nodePath.win32;
    for (const unc of [
      "\\\\fileserver\\share\\notes.md",
      "//fileserver/share/notes.md",
      "\\\\fileserver\\share\\old\\..\\notes.md",
    ]) {
      expect(isAbsoluteAny(unc)).toBe(true);
      // From the root or a folder under it: never a file inside the project.
      expect(toStoredPath(unc, "/repo", "/repo", p)).toBe("//fileserver/share/notes.md");
      expect(toStoredPath(unc, "/repo", "/repo/src", p)).toBe("//fileserver/share/notes.md");
      expect(toStoredPath(unc, "C:\\repo", "C:\\repo", w)).toBe("//fileserver/share/notes.md");
    }
    expect(toStoredPath("C:\\Users\\ada\\notes.md", "/repo", "/repo/src", p)).toBe("C:/Users/ada/notes.md");
    expect(toHostPath("//fileserver/share/notes.md", "/home/ada/repo", p)).toBe(
      "//fileserver/share/notes.md",
    );
    expect(toHostPath("//fileserver/share/notes.md", "C:\\repo", w)).toBe("\\\\fileserver\\share\\notes.md");
    // A project on a share: its files are stored relative to it.
    expect(
      toStoredPath(
        "\\\\fileserver\\share\\shop\\src\\a.ts",
        "\\\\fileserver\\share\\shop",
        "\\\\fileserver\\share\\shop",
        w,
      ),
    ).toBe("src/a.ts");
    // POSIX paths are as before.
    expect(toStoredPath("/etc/hosts", "/repo", "/repo", p)).toBe("/etc/hosts");
    expect(toStoredPath("src\\b.ts", "/repo", "/repo", p)).toBe("src/b.ts");
  });

  test("save --active-file '\\\\server\\share\\…': stored as //server/share/…, restored as that, not under the root", async () => {
    const t = fixture("mindsave-walk-unc-");
    mkdirSync(join(t.repo, "src"), { recursive: true });
    const r = await t.okCli(
      [
        "save",
        "--goal",
        "g",
        "--state",
        "s",
        "--next",
        "n",
        "--active-file",
        "\\\\fileserver\\share\\notes.md",
        "--active-file",
        "//fileserver/share/plan.md",
        "--active-file",
        "C:\\work\\todo.md",
      ],
      { cwd: join(t.repo, "src") },
    );
    expect(r.stderr).toContain("//fileserver/share/notes.md");
    const [row] = await sql(t.db, "SELECT active_files FROM snapshots WHERE deleted = 0");
    expect(JSON.parse(String(row!.active_files)).map((f: { path: string }) => f.path)).toEqual([
      "//fileserver/share/notes.md",
      "//fileserver/share/plan.md",
      "C:/work/todo.md",
    ]);
    const loaded = await t.json(["load", "--latest"]);
    expect(loaded.layer1.active_files).toEqual([
      "//fileserver/share/notes.md",
      "//fileserver/share/plan.md",
      "C:/work/todo.md",
    ]);
    const block = (await t.okCli(["load", "--latest"])).stdout;
    expect(block).toContain("//fileserver/share/notes.md");
    expect(block).not.toContain(join(t.repo, "fileserver"));
  });
});

describe("a file outside the project, restored on another laptop", () => {
  test("its absolute path is marked as a path on the laptop that saved it; on that laptop it is not", async () => {
    const w = twoLaptops("mindsave-six-");
    const sib = join(w.base, "laptop-a-work", "sib");
    mkdirSync(sib, { recursive: true });
    writeFileSync(join(sib, "s.ts"), "x\n");
    expect(
      (
        await w.a.cli([
          "save",
          "--goal",
          "g",
          "--state",
          "s",
          "--next",
          "n",
          "--active-file",
          "../sib/s.ts",
          "--active-file",
          "src/auth.ts",
        ])
      ).code,
    ).toBe(0);
    const onA = (await w.a.cli(["load", "--latest"])).stdout;
    expect(onA).toContain(`  - ${join(sib, "s.ts")}\n`);
    await w.a.json(["sync", w.drive]);
    await w.b.json(["sync", w.drive]);
    const onB = (await w.b.cli(["load", "--latest"])).stdout;
    expect(onB).toContain(`  - ${join(sib, "s.ts")} (outside the project: a path on laptop-a)\n`);
    expect(onB).toContain(`  - ${join(w.b.repo, "src", "auth.ts")}\n`);
    // --json says the same in fields: who saved it, and which active files are paths there.
    const jsonB = await w.b.json(["load", "--latest"]);
    expect(jsonB.saved_on).toBe("laptop-a");
    expect(jsonB.outside_project).toEqual([join(sib, "s.ts")]);
    const jsonA = await w.a.json(["load", "--latest"]);
    expect(jsonA.saved_on).toBeNull();
    expect(jsonA.outside_project).toEqual([join(sib, "s.ts")]);
  });
});
