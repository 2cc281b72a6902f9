// useProjectSession: the engine's "here" for a screen of a project chosen in the TUI, the session
// acting on that project (as `--in` does), or the app's own session when none is chosen. Kept the
// same object across renders, so loads keyed on it do not run again.
import { afterEach, describe, expect, test } from "bun:test";
import { Text } from "ink";
import { join } from "node:path";
import { listProjects } from "../../src/engine/projects/projects.ts";
import { currentProject } from "../../src/engine/snapshots/catalog.ts";
import type { Session } from "../../src/engine/session.ts";
import { UiContext, type UiContextValue } from "../../ui/context.ts";
import { useProjectSession } from "../../ui/hooks/useProjectSession.ts";
import { gitRepo, ok, tempDir } from "../helpers.ts";
import { openStore } from "../tui-harness.tsx";
import { probe, unmountAll } from "./probe.tsx";

const open: Session[] = [];
afterEach(async () => {
  unmountAll();
  while (open.length) await open.pop()!.close();
});

/** Hands the session the hook returns to the test. */
function Screen({ projectId, here }: { projectId: string | null; here: { current?: Session } }) {
  here.current = useProjectSession(projectId);
  return <Text>{projectId ?? "none"}</Text>;
}

/** The app's session, standing in "webapp", on a store that also holds "接口服务" (saved from its folder by the CLI). */
async function twoProjects() {
  const t = await openStore("mindsave-project-session-");
  open.push(t.session);
  await ok(["save", "--home", t.session.home.dir, "--goal", "webapp goal", "--state", "s", "--next", "n"], {
    cwd: t.repo,
    env: t.env,
  });
  const other = gitRepo(join(tempDir(), "接口服务"), { "api.ts": "export const api = 1;\n" });
  await ok(["save", "--home", t.session.home.dir, "--goal", "api goal", "--state", "s", "--next", "n"], {
    cwd: other,
    env: t.env,
  });
  const projects = await listProjects(t.session);
  const id = (name: string) => projects.find((p) => p.name === name)!.id;
  const here: { current?: Session } = {};
  const value = { session: t.session } as UiContextValue;
  const tree = (projectId: string | null) => (
    <UiContext.Provider value={value}>
      <Screen projectId={projectId} here={here} />
    </UiContext.Provider>
  );
  return { session: t.session, webapp: id("webapp"), api: id("接口服务"), here, tree };
}

describe("useProjectSession", () => {
  test("no project chosen: the app's own session, acting where the TUI was started", async () => {
    const t = await twoProjects();
    probe(t.tree(null));
    expect(t.here.current).toBe(t.session);
    expect((await currentProject(t.here.current!))?.name).toBe("webapp");
  });

  test("a project chosen: a session acting on that project, wherever the TUI was started", async () => {
    const t = await twoProjects();
    probe(t.tree(t.api));
    expect(t.here.current).not.toBe(t.session);
    expect(await currentProject(t.here.current!)).toEqual({
      id: t.api,
      name: "接口服务",
      hasSnapshots: true,
    });
  });

  test("the same object on every render for one project; a new one when the project changes", async () => {
    const t = await twoProjects();
    const p = probe(t.tree(t.api));
    const first = t.here.current;
    p.rerender(t.tree(t.api));
    expect(t.here.current).toBe(first!);
    p.rerender(t.tree(t.webapp));
    expect(t.here.current).not.toBe(first!);
    expect((await currentProject(t.here.current!))?.id).toBe(t.webapp);
  });
});
