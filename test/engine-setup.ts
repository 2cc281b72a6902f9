// A test's state built in its own process through the engine's use cases, the ones the CLI's `save`,
// `fail` and `rules add` call, instead of a CLI subprocess per record. The CLI stays a subprocess
// wherever the CLI is what a test checks.
//
// A plain store opens through Bun's SQLite here, as in the CLI and in helpers.ts's `sql`; every
// helper closes its session (the WAL folded into mindsave.db) before it returns, so the test may
// then open the file any way, or copy it. Never an encrypted store: that opens through libSQL's
// driver, and src/store/driver.ts refuses one file through two SQLite libraries in one process.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { Session } from "../src/engine/session.ts";
import { saveSnapshot, type SaveResult } from "../src/engine/snapshots/save.ts";
import { applyFlags, emptyInput, parseSnapshotText, type FlagFields } from "../src/engine/snapshots/input.ts";
import { parsePlan } from "../src/engine/snapshots/plan.ts";
import { setPlan } from "../src/engine/memory/plan.ts";
import { recordFailure } from "../src/engine/failures/record.ts";
import type { FailureObservation } from "../src/engine/failures/graph.ts";
import { addRule, parseScope } from "../src/engine/memory/rules.ts";
import type { SyncRun } from "../src/engine/sync/sync-peers.ts";
import { sizeOf, storeFileKind } from "../src/store/driver.ts";
import type { HookEvent } from "../src/engine/agents/kinds/kind.ts";
import { childEnv, projectAt, tempDir, type LaptopWithClone, type ProjectOnLaptop } from "./helpers.ts";

/** Where a CLI run would act: its home (`--home`), its working folder, and its laptop's environment. */
export interface Place {
  home: string;
  cwd: string;
  env?: Record<string, string>;
}

/** A project on a laptop as far as a place needs it: helpers.ts's, or agent-fixtures.ts's `agentProject`. */
export type ProjectPlace = Pick<ProjectOnLaptop, "home" | "repo" | "pc">;

/** A project on a laptop (helpers.ts) as a place: its home, in its repository. */
export const inRepo = (t: ProjectPlace, cwd = t.repo): Place => ({ home: t.home, cwd, env: t.pc.env });

/**
 * A project on a laptop whose home is the laptop's default one (~/.mindsave), made as a first CLI
 * save there makes it (owner only): a save in this process takes its home as given, never makes it.
 */
export function inDefaultHome(t: ProjectPlace): Place {
  mkdirSync(t.home, { recursive: true, mode: 0o700 });
  return inRepo(t);
}

/** A laptop of `twoLaptops` (helpers.ts) as a place: its home, in its clone, as its host. */
export const inClone = (l: LaptopWithClone): Place => ({ home: l.home, cwd: l.repo, env: l.env });

/** Runs `fn` on a writing session at `place`, with the environment a CLI child gets there; closed after. */
export async function atPlace<T>(place: Place, fn: (s: Session) => Promise<T>): Promise<T> {
  if (place.env?.MINDSAVE_PASSPHRASE || storeFileKind(join(place.home, "mindsave.db")) === "other")
    throw new Error(`${place.home}: an encrypted store is set up through the CLI, not in the test's process`);
  const session = await Session.open(
    { home: place.home, cwd: place.cwd, env: childEnv(place.env) },
    { write: true },
  );
  return session.run(fn);
}

/**
 * One hook event as `mindsave hook EVENT [--agent NAME]` runs it in `t`'s repository, in this
 * process: the agent's payload read, the flows run on the real store, its stdout. `at`: the
 * session's clock pinned there (e.g. a session that started minutes ago).
 */
export async function hookAt(
  t: ProjectPlace,
  agent: string | undefined,
  event: HookEvent,
  raw: Record<string, unknown>,
  at?: Date,
): Promise<string> {
  // The hooks' and sync's modules load when first used: most files that import this never run
  // either, and loading them cost each ~25 ms of CPU.
  const { readHook, runHook } = await import("../src/engine/agents/kinds/runtime.ts");
  const env = childEnv(t.pc.env);
  const call = readHook(agent, event, raw, env)!;
  const session = await Session.open(
    { home: t.home, cwd: t.repo, env, busyTimeoutMs: 1000, ...(at ? { now: () => at } : {}) },
    { write: event !== "session-start" },
  );
  return session.run((s) => runHook(s, call));
}

export interface SaveFlags extends FlagFields {
  keep?: number;
  overflow?: boolean;
}

/** `mindsave save` with these flags at `place`: the same input and the same engine call. */
export function save(place: Place, flags: SaveFlags): Promise<SaveResult> {
  const { keep, overflow, ...fields } = flags;
  const input = applyFlags(emptyInput(), fields);
  return atPlace(place, (s) => saveSnapshot(s, { input, keep, overflow, whole: false }));
}

/** `mindsave save` of the YAML `text` on stdin at `place`, with `flags` over it. */
export function saveText(place: Place, text: string, flags: FlagFields = {}): Promise<SaveResult> {
  const input = applyFlags(parseSnapshotText(text, "The snapshot on stdin"), flags);
  return atPlace(place, (s) => saveSnapshot(s, { input, whole: false }));
}

/** helpers.ts's `saveGoal` in this process: a snapshot of `goal` with state and next action placeholders. */
export const saveGoal = (t: ProjectOnLaptop, goal: string, more: SaveFlags = {}) =>
  save(inRepo(t), { goal, state: "s", next: "n", ...more });

/** What `mindsave fail`'s flags give besides the item and its reason (`--scope`, `--alt`, …). */
export type FailFlags = Pick<
  FailureObservation,
  "rejected_by" | "scope" | "confidence" | "related" | "alternatives"
>;

/** `mindsave fail ITEM [--reason R] …` at `place`: one observation of a rejected approach. */
export async function fail(place: Place, item: string, reason?: string, more: FailFlags = {}): Promise<void> {
  await atPlace(place, (s) => recordFailure(s, { item, reason, ...more, increment: true }));
}

/** `mindsave plan set --item …` at `place`: the plan of the newest snapshot. */
export async function setPlanAt(place: Place, items: string[]): Promise<void> {
  await atPlace(place, (s) => setPlan(s, parsePlan(items, "--item")));
}

/** `mindsave rules add TEXT [--scope S]` at `place`. */
export async function addRuleAt(place: Place, text: string, scope?: string): Promise<void> {
  await atPlace(place, (s) => addRule(s, text, parseScope(scope)));
}

/** `mindsave sync PEER` at `place`: a plain drive, home or store file (a server's client is libSQL's). */
export async function syncAt(place: Place, peer: string): Promise<SyncRun> {
  const { syncPeers } = await import("../src/engine/sync/sync-peers.ts");
  return atPlace(place, (s) => syncPeers(s, peer));
}

/** `syncAt` for a sync that only sets the scene (no case reads its report): a peer out of reach fails. */
export async function syncScene(place: Place, peer: string): Promise<void> {
  const run = await syncAt(place, peer);
  if (run.failed.length) throw new Error(`${place.home}: sync ${peer}: ${run.failed[0]!.error}`);
}

/**
 * A store built once by `build` (on first use) for a project on a laptop, and a copy of it for
 * each test that asks: another home with the same mindsave.db, on the same laptop (one host id) and
 * in the same repository, so the project and its roots are the ones the store knows; its own
 * `base` folder for anything else. The repository is shared: a test that changes its files builds
 * its own state.
 */
export function storeFixture(prefix: string, build: (t: ProjectOnLaptop) => Promise<void>) {
  let built: Promise<ProjectOnLaptop> | null = null;
  const template = async () => {
    const t = projectAt(tempDir(prefix));
    await build(t);
    // Every helper here closes its session, folding the WAL: the file alone is the whole store.
    if (sizeOf(t.db + "-wal") > 0) throw new Error(`the fixture ${t.db} still has changes in its WAL`);
    return t;
  };
  return async (): Promise<ProjectOnLaptop> => {
    const from = await (built ??= template());
    const base = tempDir(`${prefix}copy-`);
    const home = join(base, "home");
    mkdirSync(home);
    copyFileSync(from.db, join(home, "mindsave.db"));
    return projectAt(base, { pc: from.pc, repo: from.repo, home });
  };
}
