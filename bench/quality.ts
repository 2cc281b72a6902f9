// `bun run bench:quality` (= `bun bench/quality.ts`): the mechanical snapshot — what the Stop hook
// saves when the agent writes no checkpoint — scored against the sessions of bench/quality/sessions,
// each an agent's own transcript with its answer (bench/quality/README.md: the corpus, the scoring).
// In-process: each transcript through the reader of its agent and autoSnapshotInput, the function
// the hooks call, with the restored snapshot (saved into a temporary store) as the project's newest
// where a session carries one on; constraints then through the save's hygiene. Only the transcript is read (as SessionEnd and
// PreCompact see a session; Stop's payload adds the final reply, which the transcripts hold too).
//
//   bun bench/quality.ts [--results DIR] [--quiet]
//
// Prints each session's misses and the figures for the tuning sessions (01–20), the held-out ones
// (21–40), the fresh ones written after the first tuning (41–50), the unseen ones of the second
// round (51–60), the final ones never tuned on (61–70) and all; writes bench/results/quality-<date>-<commit>.json and quality-latest.json;
// exits 1 when any figure of the whole corpus is below its goal.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { autoSnapshotInput } from "../src/engine/agents/auto-snapshot.ts";
import { readAgentTranscript } from "../src/engine/agents/ingest.ts";
import { Session } from "../src/engine/session.ts";
import { constraintHygiene } from "../src/engine/snapshots/constraint-hygiene.ts";
import { emptyInput } from "../src/engine/snapshots/input.ts";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import type { SnapshotRecord } from "../src/store/store.ts";
import { figuresOf, scoreSession, type Answer, type Figures, type SessionScore } from "./quality-score.ts";

const ROOT = resolve(import.meta.dir, "..");
export const SESSIONS = join(ROOT, "bench", "quality", "sessions");
/** The corpus's parts by session number: tuned on, held out, written after the tuning (bench/quality/README.md). */
const PARTS = [
  { name: "tuning", label: "tuning (01-20)", last: 20 },
  { name: "held_out", label: "held out (21-40)", last: 40 },
  { name: "fresh", label: "fresh (41-50)", last: 50 },
  { name: "unseen", label: "unseen (51-60)", last: 60 },
  { name: "final", label: "final (61-70)", last: 70 },
  { name: "round6", label: "round 6 (71-80)", last: 80 },
  { name: "last", label: "last (81-90)", last: 90 },
  { name: "structure", label: "structure (91-100)", last: 100 },
  { name: "rules", label: "rules (101-110)", last: 110 },
  { name: "round9", label: "round 9 (111-120)", last: Infinity },
];
const GOALS = { recall: 0.8, precision: 0.9, goal: 0.8, next_action: 0.8 };
const TRANSCRIPTS = ["transcript.jsonl", "rollout.jsonl", "chat.jsonl"];

interface Restored {
  goal: string;
  state: string;
  next_action: string;
  constraints: string[];
  active_files?: string[];
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, "utf8")) as T;

/**
 * The snapshot a session carries on, as the project's store gives it: saved through the engine's save
 * into a store of its own (a temporary home and project), before the session began.
 */
async function restoredSnapshot(r: Restored): Promise<SnapshotRecord> {
  const place = mkdtempSync(join(tmpdir(), "mindsave-quality-"));
  const cwd = join(place, "project");
  mkdirSync(cwd);
  mkdirSync(join(place, "home"));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("MINDSAVE_")));
  const input = { ...emptyInput(), goal: r.goal, state: r.state, next_action: r.next_action };
  Object.assign(input, { constraints: r.constraints, active_files: r.active_files ?? [] });
  try {
    const session = await Session.open({ home: join(place, "home"), cwd, env }, { write: true });
    return (await session.run((s) => saveSnapshot(s, { input }))).snapshot;
  } finally {
    rmSync(place, { recursive: true, force: true });
  }
}

/** The mechanical snapshot of one session folder: goal, next action and constraints as the save keeps them. */
export async function mechanicalSnapshot(dir: string): Promise<Answer> {
  const file = TRANSCRIPTS.map((f) => join(dir, f)).find(existsSync);
  if (!file) throw new Error(`${dir} holds no transcript (${TRANSCRIPTS.join(", ")})`);
  const facts = readAgentTranscript(file);
  const restoredPath = join(dir, "restored.json");
  const newest = existsSync(restoredPath) ? await restoredSnapshot(readJson<Restored>(restoredPath)) : null;
  const input = autoSnapshotInput(facts, {
    sessionId: null,
    newest,
    full: newest,
    root: null,
    reason: "stop",
    toolCalls: facts.tool_uses.length,
    note: null,
  });
  return {
    goal: input.goal,
    next_action: input.next_action,
    constraints: constraintHygiene(input.constraints).constraints,
  };
}

/** Scores every session of `dir` (or those named), in the folders' order. */
export async function scoreCorpus(dir = SESSIONS, only?: string[]): Promise<SessionScore[]> {
  const scores: SessionScore[] = [];
  for (const id of readdirSync(dir).sort())
    if (!only || only.includes(id)) {
      const expected = readJson<Answer>(join(dir, id, "expected.json"));
      scores.push(scoreSession(id, await mechanicalSnapshot(join(dir, id)), expected));
    }
  return scores;
}

/** One session's misses, a line each; nothing for a session scored right in every field. */
function misses(s: SessionScore): string[] {
  const out: string[] = [];
  if (!s.goal.right) out.push(`  goal (F1 ${s.goal.f1}): ${s.goal.got}`);
  if (!s.next_action.right) out.push(`  next action (F1 ${s.next_action.f1}): ${s.next_action.got}`);
  for (const c of s.constraints.missed) out.push(`  constraint missed: ${c}`);
  for (const c of s.constraints.wrong) out.push(`  not a constraint: ${c}`);
  return out.length ? [s.id, ...out] : [];
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const line = (name: string, f: Figures) =>
  `${name.padEnd(16)} ${String(f.sessions).padStart(3)}  recall ${f.recall.toFixed(3)}  precision ${f.precision.toFixed(3)}  goal ${pct(f.goal)}  next action ${pct(f.next_action)}`;

/** The part a session belongs to, by its number. */
const partOf = (s: SessionScore) => PARTS.find((p) => Number.parseInt(s.id, 10) <= p.last)!.name;

function commit(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short=12", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Bun.argv.slice(2),
    options: { results: { type: "string" }, quiet: { type: "boolean", default: false } },
  });
  const scores = await scoreCorpus();
  if (!values.quiet) for (const s of scores) for (const l of misses(s)) console.log(l);
  const figures: Record<string, Figures> = {};
  for (const p of PARTS) figures[p.name] = figuresOf(scores.filter((s) => partOf(s) === p.name));
  figures.all = figuresOf(scores);
  console.log("");
  for (const p of PARTS) console.log(line(p.label, figures[p.name]));
  console.log(line("all", figures.all));
  const below = (Object.keys(GOALS) as (keyof typeof GOALS)[]).filter((k) => figures.all[k] < GOALS[k]);
  const dir = resolve(values.results ?? join(ROOT, "bench", "results"));
  mkdirSync(dir, { recursive: true });
  const at = new Date().toISOString();
  const results = JSON.stringify({ at, commit: commit(), goals: GOALS, figures, sessions: scores }, null, 2);
  writeFileSync(join(dir, `quality-${at.slice(0, 10)}-${commit()}.json`), results + "\n");
  writeFileSync(join(dir, "quality-latest.json"), results + "\n");
  if (below.length) {
    console.log(`below the goals: ${below.join(", ")} (${JSON.stringify(GOALS)})`);
    process.exitCode = 1;
  } else console.log("every goal met");
}

if (import.meta.main) await main();
