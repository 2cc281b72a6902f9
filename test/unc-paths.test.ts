// A Windows network (UNC) path is absolute: stored as //server/share/…, never as a file inside the project.
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import nodePath, { join } from "node:path";
import { sql, projectOnLaptop as fixture } from "./helpers.ts";
import { isAbsoluteAny, toHostPath, toStoredPath } from "../src/engine/projects/paths.ts";

describe("paths: a Windows network (UNC) path stays absolute", () => {
  test("the path functions, on both flavours", () => {
    const p = nodePath.posix;
    const w = nodePath.win32;
    for (const unc of ["\\\\fileserver\\share\\notes.md", "//fileserver/share/notes.md", "\\\\fileserver\\share\\old\\..\\notes.md"]) {
      expect(isAbsoluteAny(unc)).toBe(true);
      // From the root or a folder under it: never a file inside the project.
      expect(toStoredPath(unc, "/repo", "/repo", p)).toBe("//fileserver/share/notes.md");
      expect(toStoredPath(unc, "/repo", "/repo/src", p)).toBe("//fileserver/share/notes.md");
      expect(toStoredPath(unc, "C:\\repo", "C:\\repo", w)).toBe("//fileserver/share/notes.md");
    }
    expect(toStoredPath("C:\\Users\\ada\\notes.md", "/repo", "/repo/src", p)).toBe("C:/Users/ada/notes.md");
    expect(toHostPath("//fileserver/share/notes.md", "/home/ada/repo", p)).toBe("//fileserver/share/notes.md");
    expect(toHostPath("//fileserver/share/notes.md", "C:\\repo", w)).toBe("\\\\fileserver\\share\\notes.md");
    // A project on a share: its files are stored relative to it.
    expect(toStoredPath("\\\\fileserver\\share\\shop\\src\\a.ts", "\\\\fileserver\\share\\shop", "\\\\fileserver\\share\\shop", w)).toBe("src/a.ts");
    // POSIX paths are as before.
    expect(toStoredPath("/etc/hosts", "/repo", "/repo", p)).toBe("/etc/hosts");
    expect(toStoredPath("src\\b.ts", "/repo", "/repo", p)).toBe("src/b.ts");
  });

  test("save --active-file '\\\\server\\share\\…': stored as //server/share/…, restored as that, not under the root", async () => {
    const t = fixture("mindsave-walk-unc-");
    mkdirSync(join(t.repo, "src"), { recursive: true });
    const r = await t.okCli(["save", "--goal", "g", "--state", "s", "--next", "n", "--active-file", "\\\\fileserver\\share\\notes.md", "--active-file", "//fileserver/share/plan.md", "--active-file", "C:\\work\\todo.md"], { cwd: join(t.repo, "src") });
    expect(r.stderr).toContain("//fileserver/share/notes.md");
    const [row] = await sql(t.db, "SELECT active_files FROM snapshots WHERE deleted = 0");
    expect(JSON.parse(String(row!.active_files)).map((f: { path: string }) => f.path)).toEqual(["//fileserver/share/notes.md", "//fileserver/share/plan.md", "C:/work/todo.md"]);
    const loaded = await t.json(["load", "--latest"]);
    expect(loaded.layer1.active_files).toEqual(["//fileserver/share/notes.md", "//fileserver/share/plan.md", "C:/work/todo.md"]);
    const block = (await t.okCli(["load", "--latest"])).stdout;
    expect(block).toContain("//fileserver/share/notes.md");
    expect(block).not.toContain(join(t.repo, "fileserver"));
  });
});
