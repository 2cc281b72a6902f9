// The quick commands of one store size and their baselines (the runtime floor, the spec's file
// way, grep, the sqlite3 CLI on the same SQL), measured round-robin by run.ts: each case is a
// process spec run as is, so every figure is a whole process.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { COMMON_WORD, RARE_WORD, type DataSet } from "./gen.ts";
import type { ProcSpec } from "./measure.ts";
import type { Measurement } from "./report.ts";
import type { Work } from "./setup.ts";

export interface Binaries {
  exe: string;
  hello: string;
  specLoad: string;
  libsqlFloor: string;
  sqliteFloor: string;
  /** The sqlite3 CLI, or "" when it is not installed (its baselines are left out). */
  sqlite: string;
}

const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;
const sh = (cmd: string): string[] => ["sh", "-c", cmd];
const q = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** The store's id of the data set's largest project (where the quick commands run), through sqlite3. */
function projectIdOf(sqlite: string, db: string, identity: string): string {
  if (!sqlite) return "";
  const r = Bun.spawnSync(
    [sqlite, "-readonly", db, `SELECT id FROM projects WHERE identity = 'file:${identity}' AND deleted = 0`],
    { stdout: "pipe" },
  );
  return r.stdout.toString().trim().split("\n")[0] ?? "";
}

/** The hook payloads, written in the working copy: session start, an edit, a stop. */
export function hookPayloads(ds: DataSet, work: Work) {
  const p0 = ds.projects[0];
  const payload = (name: string, o: Record<string, unknown>) => {
    const path = join(work.dir, `payload-${name}.json`);
    writeFileSync(
      path,
      JSON.stringify({
        session_id: "bench-session",
        transcript_path: ds.transcript,
        cwd: p0.workspace,
        ...o,
      }),
    );
    return path;
  };
  return {
    "session-start": payload("session-start", { hook_event_name: "SessionStart", source: "startup" }),
    "post-tool-use": payload("post-tool-use", {
      hook_event_name: "PostToolUse",
      tool_name: "Edit",
      tool_input: { file_path: join(p0.workspace, "src/auth/token.ts"), old_string: "a", new_string: "b" },
      tool_response: { success: true },
    }),
    stop: payload("stop", { hook_event_name: "Stop", stop_hook_active: false }),
  };
}

/** Every quick case of this size, floors first; `doctor --full` is not one (it is budgeted apart). */
export function quickCases(b: Binaries, ds: DataSet, work: Work): Measurement[] {
  const p0 = ds.projects[0];
  const exported = join(p0.exported, ".mindsave");
  const projectId = projectIdOf(b.sqlite, work.db, p0.id);
  const sql = (query: string) => (b.sqlite ? [b.sqlite, "-readonly", work.db, query] : []);
  const payloads = hookPayloads(ds, work);
  const at = (cmd: string[], extra: Partial<ProcSpec> = {}): ProcSpec => ({
    cmd,
    cwd: p0.workspace,
    env: work.env,
    ...extra,
  });
  const cases: Measurement[] = [];
  const add = (m: Omit<Measurement, "samples">) => {
    if (m.spec && !m.spec.cmd.length) return; // a baseline whose tool is missing
    cases.push({ ...m, samples: [] });
  };
  add({ id: "hello", label: "runtime floor: compiled hello world", kind: "floor", spec: at([b.hello]) });
  add({
    id: "hello-pipe",
    label: "runtime floor for hooks: sh, cat payload | hello",
    kind: "floor",
    spec: at(sh(`cat ${q(payloads["post-tool-use"])} | ${q(b.hello)}`)),
  });
  // Our stack's own floor: opening the store with Bun's SQLite, one SELECT (and with libSQL's
  // native module, what an encrypted store pays).
  add({
    id: "sqlite",
    label: "store floor: compiled, opens the store read-only with Bun's SQLite, one SELECT",
    kind: "floor",
    floor: "hello",
    spec: at([b.sqliteFloor, work.db]),
  });
  add({
    id: "libsql",
    label: "libSQL floor (encrypted stores): compiled, loads libSQL, opens the store read-only, one SELECT",
    kind: "floor",
    floor: "hello",
    spec: at([b.libsqlFloor, work.db]),
  });
  add({
    id: "version",
    label: "mindsave --version",
    kind: "mindsave",
    floor: "hello",
    spec: at([b.exe, "--version"]),
  });
  add({
    id: "load",
    label: "mindsave load --latest",
    kind: "mindsave",
    floor: "hello",
    spec: at([b.exe, "load", "--latest"]),
  });
  add({
    id: "load.file",
    label: "↳ spec's file load (index.json + 1 file)",
    kind: "file",
    of: "load",
    floor: "hello",
    spec: at([b.specLoad, exported]),
  });
  add({
    id: "load.sqlite",
    label: "↳ sqlite3, same queries",
    kind: "sqlite",
    of: "load",
    floor: "hello",
    spec: at(
      sql(
        `SELECT * FROM snapshots WHERE project_id = ${lit(projectId)} AND deleted = 0 ORDER BY created_at DESC, id DESC LIMIT 1; SELECT * FROM failures WHERE deleted = 0 AND (project_id = ${lit(projectId)} OR scope = 'global') ORDER BY last_seen DESC;`,
      ),
    ),
  });
  add({
    id: "save",
    label: "mindsave save (YAML on stdin, 10 KB Layer 3)",
    kind: "mindsave",
    floor: "hello",
    spec: at([b.exe, "save"], { stdinFile: ds.saveInput }),
  });
  for (const [word, which] of [
    [RARE_WORD, "rare"],
    [COMMON_WORD, "common"],
  ] as const) {
    add({
      id: `recall.${which}`,
      label: `mindsave recall ${word} (${which})`,
      kind: "mindsave",
      floor: "hello",
      spec: at([b.exe, "recall", word]),
    });
    add({
      id: `recall.${which}.grep`,
      label: `↳ grep -r ${word} .mindsave/`,
      kind: "grep",
      of: `recall.${which}`,
      floor: "hello",
      spec: at(["grep", "-r", word, ".mindsave"], { cwd: p0.exported, ok: [0, 1] }),
    });
    add({
      id: `recall.${which}.sqlite`,
      label: "↳ sqlite3, same FTS query",
      kind: "sqlite",
      of: `recall.${which}`,
      floor: "hello",
      spec: at(
        sql(
          `SELECT s.id, s.name, s.created_at, s.goal, substr(f.layer3, max(1, instr(lower(f.layer3), ${lit(word)}) - 80), 240) FROM snapshot_search f JOIN snapshots s ON s.rowid = f.rowid WHERE s.deleted = 0 AND snapshot_search MATCH ${lit(`"${word}"`)} AND s.project_id = ${lit(projectId)} ORDER BY s.created_at DESC, s.id DESC LIMIT 21;`,
        ),
      ),
    });
  }
  // The drive's first use on another laptop: no folder of this host is the project's yet, so the
  // project is found by its history (resolve.ts). Read-only, so every run is a first one.
  add({
    id: "recall.newhost",
    label: `mindsave recall ${RARE_WORD} on another laptop (its first use there)`,
    kind: "mindsave",
    floor: "hello",
    spec: at([b.exe, "recall", RARE_WORD], { env: { ...work.env, MINDSAVE_HOST: "bench-new-laptop" } }),
  });
  // Every project's snapshots searched: the store's newest first (the snapshots_newest index).
  add({
    id: "recall.all",
    label: `mindsave recall ${COMMON_WORD} --all-projects`,
    kind: "mindsave",
    floor: "hello",
    spec: at([b.exe, "recall", COMMON_WORD, "--all-projects"]),
  });
  // Bare recall: the newest cold archive there is (automatic checkpoints have none), and a diff of
  // the two newest snapshots with the failures seen between them: both read the newest rows only.
  add({
    id: "recall.archive",
    label: "mindsave recall (the newest cold archive)",
    kind: "mindsave",
    floor: "hello",
    spec: at([b.exe, "recall"]),
  });
  add({
    id: "diff",
    label: "mindsave diff (the two newest snapshots)",
    kind: "mindsave",
    floor: "hello",
    spec: at([b.exe, "diff"]),
  });
  add({
    id: "list",
    label: "mindsave snapshots list",
    kind: "mindsave",
    floor: "hello",
    spec: at([b.exe, "snapshots", "list"]),
  });
  add({
    id: "list.sqlite",
    label: "↳ sqlite3, one page of the same query",
    kind: "sqlite",
    of: "list",
    floor: "hello",
    spec: at(
      sql(
        `SELECT count(*) FROM snapshots WHERE project_id = ${lit(projectId)} AND deleted = 0; SELECT id, name, kind, status, created_at, goal, blocker FROM snapshots WHERE project_id = ${lit(projectId)} AND deleted = 0 ORDER BY created_at DESC, id DESC LIMIT 50;`,
      ),
    ),
  });
  add({
    id: "stats",
    label: "mindsave snapshots stats",
    kind: "mindsave",
    floor: "hello",
    spec: at([b.exe, "snapshots", "stats"]),
  });
  add({
    id: "stats.sqlite",
    label: "↳ sqlite3, same queries",
    kind: "sqlite",
    of: "stats",
    floor: "hello",
    spec: at(
      sql(
        `SELECT count(*), sum(length(goal) + length(state) + length(next_action) + length(blocker) + length(active_files)), sum(length(constraints) + length(decisions) + length(failure_graph)), sum(length(layer3)), min(created_at), max(created_at) FROM snapshots WHERE project_id = ${lit(projectId)} AND deleted = 0; SELECT status, count(*) FROM snapshots WHERE project_id = ${lit(projectId)} AND deleted = 0 GROUP BY status;`,
      ),
    ),
  });
  add({
    id: "doctor",
    label: "mindsave doctor (quick)",
    kind: "mindsave",
    floor: "hello",
    spec: at([b.exe, "doctor"]),
  });
  for (const event of ["session-start", "post-tool-use", "stop"] as const) {
    add({
      id: `hook.${event}`,
      label: `mindsave hook ${event}${event === "session-start" ? "" : " (5 MB transcript)"}`,
      kind: "mindsave",
      floor: "hello-pipe",
      spec: at(sh(`cat ${q(payloads[event])} | ${q(b.exe)} hook ${event}`)),
    });
  }
  return cases;
}
