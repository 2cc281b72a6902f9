// MINDSAVE_ROOT_CEILING: the walk up to a workspace root ends at that folder, so a project marker
// or a repository above a test's (or a sandbox's) own folder never decides its project.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitRepo, laptop, okJson, tempDir } from "./helpers.ts";

function setup() {
  const base = tempDir("mindsave-ceiling-");
  const pc = laptop("ceiling", base);
  const home = join(base, "home");
  mkdirSync(home);
  /** The project root a first save in `cwd` is made at, under `ceiling`. */
  const rootOf = async (cwd: string, ceiling: string) => {
    mkdirSync(cwd, { recursive: true });
    const saved = await okJson(["save", "--goal", "notes", "--state", "s", "--next", "n", "--home", home], {
      cwd,
      env: { ...pc.env, MINDSAVE_ROOT_CEILING: ceiling },
    });
    return saved.project.root as string;
  };
  return { base, rootOf };
}

describe("the root ceiling", () => {
  test("an AGENTS.md above the ceiling is not the project's marker; the ceiling's own marker is, and outside it nothing changes", async () => {
    const t = setup();
    const outer = join(t.base, "outer");
    mkdirSync(outer);
    writeFileSync(join(outer, "AGENTS.md"), "# an agent's notes far above\n");
    const ceiling = join(outer, "sandbox");
    // Below the ceiling, a plain folder outside the home directory is its own root.
    const notes = join(ceiling, "notes");
    expect(await t.rootOf(notes, ceiling)).toBe(notes);
    // The ceiling itself is still looked at: a marker there makes it the root.
    const marked = join(outer, "marked");
    mkdirSync(marked);
    writeFileSync(join(marked, "package.json"), "{}\n");
    expect(await t.rootOf(join(marked, "src"), marked)).toBe(marked);
    // A folder outside the ceiling walks up as ever, to the marker above.
    expect(await t.rootOf(join(outer, "elsewhere"), ceiling)).toBe(outer);
  });

  test("a repository above the ceiling is not the project's: a folder below it is a plain folder", async () => {
    const t = setup();
    const repo = gitRepo(join(t.base, "repo"));
    const ceiling = join(repo, "sandbox");
    const draft = join(ceiling, "draft");
    expect(await t.rootOf(draft, ceiling)).toBe(draft);
  });
});
