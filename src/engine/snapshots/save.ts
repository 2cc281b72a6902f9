// Save: validate, budget (compressing Layer 2 when it is over), write in one transaction, archive past the retention rules.
import { readFileSync, statSync } from "node:fs";
import { UserError } from "../../errors.ts";
import {
  checkImportedLayer1,
  fitLayer1,
  fitLayer2,
  layer1Tokens,
  movedSections,
  movedWarnings,
  nothingMoved,
  type Moved,
} from "./budgets.ts";
import { constraintHygiene, type HygieneResult } from "./constraint-hygiene.ts";
import { conflictPairs, contradictionWarning } from "./contradiction-texts.ts";
import { observeFailure, observationFromEntry } from "../failures/graph.ts";
import { contentDigest, newId, sha256 } from "../ids.ts";
import { DEFAULT_KEEP, LAYER2_BUDGET, inline, type Layer1, type Layer2 } from "./layers.ts";
import { isAbsoluteAny, toHostPath, toStoredPath } from "../projects/paths.ts";
import { recordSave } from "../agents/signal.ts";
import { changeSignalRow } from "../agents/signal-row.ts";
import { isSafeName, nextFreeName, safeName, topicSlug, utcDate, utcDateTime } from "./slug.ts";
import { noBlocker, type SnapshotInput } from "./input-fields.ts";
import { withLegacyFailures } from "./legacy-failures.ts";
import { leftBehind } from "./left-behind.ts";
import { redact, redactDeep, redactionWarning } from "./redact.ts";
import { checkSizes, controlWarning, stripControlDeep } from "./input-limits.ts";
import { loadTokenizer } from "./tokens.ts";
import { loadSnapshot } from "./restore.ts";
import { newestSnapshot } from "./select.ts";
import { stallIfAsked } from "../stall.ts";
import { applyRetention } from "./retention.ts";
import { withAutoParts } from "./layer3-parts.ts";
import { normalizeTags } from "./tags.ts";
import { dedupe, distinctPaths } from "./distinct.ts";
import { planTimes } from "./plan.ts";
import { sortRetired } from "../memory/retire.ts";
import type { Session } from "../session.ts";
import { currentWorkspace, resolveProject, type ProjectContext } from "../projects/resolve.ts";
import type {
  RetirementRecord,
  SnapshotRecord,
  SnapshotStatus,
  StoredFile,
  StoreWriter,
} from "../../store/store.ts";
import { MAX_AHEAD_MS } from "../../store/store.ts";
import { lineTokens } from "./stored-tokens.ts";

// The budget checks moved to budgets.ts; a hook's auto-snapshot imports checkLayer1 from here too.

/** How the warning about active files missing here begins; import folds these by it. */
export const ABSENT_FILES = "Active file(s) not found on this host";

export { checkLayer1 } from "./budgets.ts";

export const SNAPSHOT_VERSION = "3.5";
const HASH_LIMIT = 8 * 1024 * 1024;

export interface SaveOptions {
  input: SnapshotInput;
  /** An L1-only OVF_ snapshot (the spec's /auto-snapshot). */
  overflow?: boolean;
  /** Snapshots left listed per project by retention after this save (the rest are archived, never deleted). */
  keep?: number;
  /** Set by hooks: this save is an auto-save (cooldown bookkeeping). */
  auto?: boolean;
  /** The snapshot was given whole (`save --file`): its Layer 3 stays as written, without automatic parts. */
  whole?: boolean;
  /** For import: keep the original time and id (the id gets -N if taken). */
  createdAt?: Date;
  name?: string;
  /** How this face asks for a goal, said when none is given (default: the CLI's flag and YAML field). */
  goalHint?: string;
  /** For import: do not run retention after this save (the import runs it once, at its end). */
  noRetention?: boolean;
  /**
   * For import: the active files are in the stored form already (relative to the project root,
   * or absolute), and this is the project's root on this host (null: none here). Neither the
   * current directory nor the folder imported from decides what they mean.
   */
  storedRoot?: string | null;
  /**
   * For import of MindSave's own export: the record's id and clock, kept, and its name as it is
   * (two hosts' snapshots may share a name, as after a sync).
   */
  record?: ExportedRecord;
}

/** A snapshot record as `mindsave export` describes it beside the spec's fields. */
export interface ExportedRecord {
  id: string;
  clock: string;
  /** The host it was saved on, and its active files' fingerprints there (what --verify compares with). */
  savedHost: string;
  files: StoredFile[];
  /** `snapshotDigest` of the record: an import that would store anything else stores a new record. */
  digest: string;
}

/** Fields a snapshot's digest leaves out: its clock and writer, and the saving host's root (never exported). */
const NOT_DIGESTED = ["hlc", "host", "deleted", "saved_root"] as const;

/** What a snapshot record holds, as a hash (see ExportedRecord). */
export function snapshotDigest(s: Omit<SnapshotRecord, "hlc" | "host" | "deleted">): string {
  // No plan times digest as before MindSave kept them: an older export still imports as its record.
  return contentDigest(s.plan_times ? s : { ...s, plan_times: undefined }, NOT_DIGESTED);
}

export interface SaveResult {
  snapshot: SnapshotRecord;
  context: ProjectContext;
  warnings: string[];
  /** Snapshots retention archived after this save (still whole: `snapshots list --all`). */
  archived: string[];
  compressed: boolean;
  /** The restore block of this snapshot on this host, counted exactly as `load` renders it. */
  restore: { tokens: number; budget: number; omitted: number };
}

/**
 * A save as every face reports it (the CLI's --json, MCP's structured content): one shape, built
 * here. The CLI also says `saved` (its name for snapshot_id before this shape); MCP names the project
 * and lists at most 20 archived snapshots, as its output schema always has.
 */
export interface SaveReport {
  snapshot_id: string;
  id: string;
  project: { id: string; name: string; root: string | null };
  status: SnapshotStatus;
  kind: SnapshotRecord["kind"];
  tags: string[];
  tokens: { layer1: number; layer2: number; restore_block: number };
  compressed: boolean;
  archived: string[];
  warnings: string[];
}

export function saveReport(r: SaveResult): SaveReport {
  const s = r.snapshot;
  return {
    snapshot_id: s.name,
    id: s.id,
    project: { id: r.context.project.id, name: r.context.project.name, root: r.context.root },
    status: s.status,
    kind: s.kind,
    tags: s.tags,
    tokens: { layer1: s.l1_tokens, layer2: s.l2_tokens, restore_block: r.restore.tokens },
    compressed: r.compressed,
    archived: r.archived,
    warnings: r.warnings,
  };
}

/** Size, mtime and hash of a file at save time, so `load --verify` can tell what changed. */
export function fileFingerprint(stored: string, root: string | null): StoredFile {
  const out: StoredFile = { path: stored };
  // A relative path with no root here names no file on this host (not one under the current directory).
  if (!root && !isAbsoluteAny(stored)) return out;
  const abs = toHostPath(stored, root);
  try {
    const st = statSync(abs);
    if (!st.isFile()) return out;
    out.size = st.size;
    out.mtime = Math.round(st.mtimeMs);
    if (st.size <= HASH_LIMIT) out.sha256 = sha256(readFileSync(abs));
  } catch {
    // missing at save time: recorded by path only
  }
  return out;
}

function statusFor(input: SnapshotInput): SnapshotStatus {
  if (input.status) return input.status;
  return noBlocker(input.blocker) ? "in_progress" : "blocked";
}

export async function saveSnapshot(session: Session, opts: SaveOptions): Promise<SaveResult> {
  const { input, warnings, keep } = checkedInput(opts);
  const tags = normalizeTags(input.tags);
  const { known, restated } = await retirementsMet(session, opts, input, warnings);
  await loadTokenizer();
  const root = saveRoot(session, opts, known);
  // A save is never refused for its size: what does not fit moves to Layer 3 (an import keeps its file as it was).
  const moved = nothingMoved();
  const l1 = layer1Of(input, opts, root, session.cwd, moved);
  const layers = await memoryLayers(session, opts, input, root, moved, warnings);
  const exported = exportedRecord(opts, l1.active_files);
  const files = exported ? exported.files : localFingerprints(l1.active_files, root);
  warnings.push(...absentWarning(files, root));
  const prepared: Prepared = {
    opts,
    input,
    warnings,
    keep,
    tags,
    restated,
    root,
    l1,
    l1Tokens: layer1Tokens(l1),
    layers,
    exported,
    now: opts.createdAt ?? session.now(),
    topic: (opts.overflow ? "OVF_" : "") + topicSlug(input.topic || input.goal),
    status: statusFor(input),
  };
  const saved = await session.write((w) => writeSnapshot(session, w, prepared, files));
  return withRestoreSize(session, opts, saved);
}

/** Everything a save has worked out before its transaction. */
interface Prepared {
  opts: SaveOptions;
  input: SnapshotInput;
  warnings: string[];
  keep: number;
  tags: string[];
  restated: RetirementRecord[];
  root: string | null;
  l1: Layer1;
  l1Tokens: number;
  layers: MemoryLayers;
  exported: ExportedRecord | undefined;
  now: Date;
  topic: string;
  status: SnapshotStatus;
}

/** A save's input as it may be stored, and the retention rule it asks for; refused without a goal. */
function checkedInput(opts: SaveOptions): { input: SnapshotInput; warnings: string[]; keep: number } {
  // Every path in (flags, YAML, import, MCP, hooks) meets the same limits: no control characters,
  // no field too long to count, and secrets never reach the store.
  const tally = { dropped: 0 };
  const bounded = checkSizes(stripControlDeep({ ...opts.input, warnings: [] as string[] }, tally));
  const input: SnapshotInput = { ...redactDeep(bounded), warnings: opts.input.warnings };
  const warnings = [...input.warnings, ...controlWarning(tally), ...redactionWarning(bounded, input)];
  if (!input.goal)
    throw new UserError(`A snapshot needs a goal: ${opts.goalHint ?? 'give --goal "…" or a `goal:` field'}.`);
  const keep = opts.keep ?? DEFAULT_KEEP;
  if (!Number.isInteger(keep) || keep < 1)
    throw new UserError("--keep must be a whole number of at least 1.");
  return { input, warnings, keep };
}

/** The project's retirements this save meets: items it restates, and items a manual save leaves behind, said. */
async function retirementsMet(
  session: Session,
  opts: SaveOptions,
  input: SnapshotInput,
  warnings: string[],
): Promise<{ known: ProjectContext | null; restated: RetirementRecord[] }> {
  // An import (named) keeps the file as it was: it was saved before any retirement here.
  const known = opts.name === undefined ? await resolveProject(session, { create: false }) : null;
  const { retired, restated } = await sortRetired(session, known?.project.id ?? null, input, {
    restate: !opts.auto && !opts.overflow,
    quiet: !!opts.auto,
    warnings,
  });
  if (known && !opts.auto && !opts.overflow)
    warnings.push(
      ...(await leftBehind(
        session,
        known.project.id,
        { goal: input.goal, constraints: input.constraints, decisions: input.decisions },
        retired,
      )),
    );
  return { known, restated };
}

/** The root active files are stored relative to: the project's on this host, or none (paths as typed). */
function saveRoot(session: Session, opts: SaveOptions, known: ProjectContext | null): string | null {
  if (opts.storedRoot !== undefined) return opts.storedRoot;
  // With --in, the named project's root on this host (none here: paths as typed).
  if (session.projectKey) return known?.root ?? null;
  return currentWorkspace(session, true)?.root ?? null;
}

/** Layer 1 as stored: active files relative to the root, within its budget (what does not fit goes to `moved`). */
function layer1Of(
  input: SnapshotInput,
  opts: SaveOptions,
  root: string | null,
  cwd: string,
  moved: Moved,
): Layer1 {
  const stored = opts.storedRoot !== undefined;
  const active = distinctPaths(
    input.active_files.map((f) => (root && !stored ? toStoredPath(f, root, cwd) : f.replace(/\\/g, "/"))),
  );
  const written = {
    goal: input.goal,
    state: input.state,
    next_action: input.next_action,
    active_files: active,
    blocker: input.blocker || "none",
  };
  if (!stored) return fitLayer1(written, moved);
  checkImportedLayer1(written);
  return written;
}

/** Layers 2 and 3 as stored, and the failures the project's graph observes. */
interface MemoryLayers {
  layer2: Layer2;
  l2Tokens: number;
  compressed: Record<string, unknown> | null;
  wasCompressed: boolean;
  layer3: string;
  /** Failures moved out of Layer 2 are still recorded in the project's failure graph. */
  observed: Layer2["failure_graph"];
}

async function memoryLayers(
  session: Session,
  opts: SaveOptions,
  input: SnapshotInput,
  root: string | null,
  moved: Moved,
  warnings: string[],
): Promise<MemoryLayers> {
  const { layer2, hygiene } = writtenLayer2(input, warnings);
  // A manual save (not an import, not a hook's own snapshot, not one given whole) gets the spec's automatic parts.
  const layer3 =
    opts.overflow || opts.name !== undefined || opts.auto || opts.whole
      ? input.layer3
      : await withAutoParts(session, input.layer3, root);
  const layers = opts.overflow
    ? overflowLayers(layer2, layer3, warnings)
    : fittedLayers(layer2, hygiene, input, layer3, moved, warnings);
  // What did not fit its layer is kept in Layer 3 (an overflow snapshot's too), and the reply says what moved.
  layers.layer3 = [layers.layer3, movedSections(moved, layer2.failure_graph)].filter(Boolean).join("\n\n");
  warnings.push(...movedWarnings(moved));
  return layers;
}

/** Layer 2 as written: legacy failures converted, constraints through hygiene, decisions without repeats. */
function writtenLayer2(input: SnapshotInput, warnings: string[]): { layer2: Layer2; hygiene: HygieneResult } {
  // Legacy flat excluded_paths become failure-graph entries.
  const graph = withLegacyFailures(input.failure_graph, dedupe(input.excluded_paths), (m) =>
    warnings.push(m),
  );
  // Constraint hygiene on every save: near duplicates folded, contradictions flagged (both kept).
  const hygiene = constraintHygiene(input.constraints);
  for (const f of hygiene.folded)
    warnings.push(`Constraint "${inline(f.dropped)}" was left out: it repeats "${inline(f.kept)}".`);
  const layer2: Layer2 = {
    constraints: hygiene.constraints,
    decisions: dedupe(input.decisions, (x, first) =>
      warnings.push(`Decision "${inline(x)}" was left out: it repeats "${inline(first)}".`),
    ),
    failure_graph: graph,
  };
  return { layer2, hygiene };
}

/** An overflow snapshot keeps Layer 1 only; what it leaves out is said. */
function overflowLayers(layer2: Layer2, layer3: string, warnings: string[]): MemoryLayers {
  const dropped = [
    layer2.constraints.length && "constraints",
    layer2.decisions.length && "decisions",
    Object.keys(layer2.failure_graph).length && "failures",
    layer3 && "Layer 3",
  ].filter(Boolean);
  if (dropped.length)
    warnings.push(`An overflow snapshot keeps Layer 1 only; not saved here: ${dropped.join(", ")}.`);
  return {
    layer2: { constraints: [], decisions: [], failure_graph: {} },
    l2Tokens: 0,
    compressed: null,
    wasCompressed: false,
    layer3: "",
    observed: {},
  };
}

/** Layer 2 within its budget, compressed when over; its contradictions kept for the restore block to mark. */
function fittedLayers(
  layer2: Layer2,
  hygiene: HygieneResult,
  input: SnapshotInput,
  layer3: string,
  moved: Moved,
  warnings: string[],
): MemoryLayers {
  for (const pair of conflictPairs(hygiene.conflicts)) warnings.push(contradictionWarning(pair));
  const fitted = fitLayer2(layer2, dedupe(input.constraints), moved);
  const wasCompressed = fitted.compressed !== null;
  if (wasCompressed) {
    warnings.push(
      `Layer 2 was over ${LAYER2_BUDGET} tokens and was compressed to ${fitted.tokens} by folding related constraints; the constraints as written are kept in Layer 3 (\`mindsave recall\`).`,
    );
  }
  // Contradictions are stored with the snapshot, so the restore block can mark them.
  const conflicts = hygiene.conflicts.length ? { conflicts: hygiene.conflicts } : null;
  return {
    layer2: fitted.layer2,
    l2Tokens: fitted.tokens,
    compressed: fitted.compressed || conflicts ? { ...fitted.compressed, ...conflicts } : null,
    wasCompressed,
    layer3,
    observed: layer2.failure_graph,
  };
}

/** A record of MindSave's own export keeps the fingerprints taken where it was saved, if its files are these. */
function exportedRecord(opts: SaveOptions, kept: string[]): ExportedRecord | undefined {
  const r = opts.record;
  return r && r.files.length === kept.length && r.files.every((f, i) => f.path === kept[i]) ? r : undefined;
}

function localFingerprints(kept: string[], root: string | null): StoredFile[] {
  return kept.map((p) => fileFingerprint(p, root));
}

/** Active files missing on this host, said: they are saved by path only. */
function absentWarning(files: StoredFile[], root: string | null): string[] {
  const absent = files.filter((f) => f.size === undefined).map((f) => f.path);
  if (!absent.length) return [];
  return [
    `${ABSENT_FILES} (saved by path only${root ? `, from the project root ${root}` : ""}): ${absent.map(inline).join(", ")}.`,
  ];
}

/** The save's one transaction: the record, then the project's books (retirements, failures, signal, retention). */
async function writeSnapshot(
  session: Session,
  w: StoreWriter,
  p: Prepared,
  files: StoredFile[],
): Promise<Omit<SaveResult, "restore">> {
  const context = await resolveProject(session, { create: true, w });
  let record = await buildRecord(session, w, p, context, p.exported, files);
  // Only the very record keeps its id and clock: a file edited since the export (or stored
  // differently here) becomes a new record, never a second version under the same clock.
  if (p.opts.record && (!p.exported || snapshotDigest(record) !== p.exported.digest)) {
    p.warnings.push(
      "It differs from the record it was exported as (edited since, or made by another version); imported as a new snapshot.",
    );
    if (p.exported) {
      files = localFingerprints(p.l1.active_files, p.root);
      record = await buildRecord(session, w, p, context, undefined, files);
    }
  }
  const clock = record.id === p.opts.record?.id ? p.opts.record.clock : undefined;
  await stallIfAsked("save-before-insert");
  await w.insertSnapshot(record, clock);
  await stallIfAsked("save-after-insert");
  const archived = await keepBooks(session, w, p, context.project.id, record.id, files.length);
  if (context.note) p.warnings.push(context.note);
  const snapshot = (await w.getSnapshot(record.id))!;
  return { snapshot, context, warnings: p.warnings, archived, compressed: p.layers.wasCompressed };
}

/** The snapshot record; `from`, the exported record it is, keeps its id, host and name. */
async function buildRecord(
  session: Session,
  w: StoreWriter,
  p: Prepared,
  context: ProjectContext,
  from: ExportedRecord | undefined,
  files: StoredFile[],
): Promise<Omit<SnapshotRecord, "hlc" | "host" | "deleted">> {
  const { opts, input, l1, layers, now } = p;
  const projectId = context.project.id;
  const recordId = from?.id ?? newId();
  return {
    id: recordId,
    project_id: projectId,
    name: await recordName(w, p, projectId, recordId, from),
    topic: p.topic,
    kind: opts.overflow ? "overflow" : "full",
    status: p.status,
    created_at: (from || opts.createdAt ? now : await afterNewest(w, projectId, now)).toISOString(),
    version: SNAPSHOT_VERSION,
    goal: l1.goal,
    state: l1.state,
    next_action: l1.next_action,
    blocker: l1.blocker,
    active_files: files,
    constraints: layers.layer2.constraints,
    decisions: layers.layer2.decisions,
    failure_graph: layers.layer2.failure_graph,
    compressed: layers.compressed,
    layer3: layers.layer3,
    auto_trigger: opts.overflow
      ? await overflowTrigger(w, projectId, input.auto_trigger)
      : (input.auto_trigger ?? null),
    extra: Object.keys(input.extra).length ? input.extra : null,
    l1_tokens: p.l1Tokens,
    l2_tokens: layers.l2Tokens,
    saved_host: from?.savedHost ?? session.host.id,
    saved_root: from && from.savedHost !== session.host.id ? null : context.root,
    ...(await recordPlan(w, p, projectId)),
    tags: p.tags,
    saved_agent: input.agent && /^[\w.-]{1,32}$/.test(input.agent) ? input.agent : null,
    line_tokens: lineTokens(layers.layer2),
  };
}

/** The name asked for (made safe; numbered when taken, unless it is the exported record's), or one from topic and date. */
async function recordName(
  w: StoreWriter,
  p: Prepared,
  projectId: string,
  recordId: string,
  from: ExportedRecord | undefined,
): Promise<string> {
  const wanted = p.opts.name === undefined ? undefined : redact(p.opts.name);
  const given = wanted === undefined ? undefined : safeName(wanted, recordId);
  if (given !== undefined && given !== wanted && !from)
    p.warnings.push(
      `The snapshot name ${JSON.stringify(wanted)} is not safe as a file name on every system; stored as ${given}.`,
    );
  if (!given)
    return chooseName(w, projectId, p.topic, p.now, !!p.opts.overflow, p.input.snapshot_id, p.warnings);
  // The exported record keeps its name as it is: two hosts' snapshots may share one, as after a sync.
  if (from) return given;
  return nextFreeName(given, await w.namesWithPrefix(projectId, given));
}

/** The record's plan and its steps' times. */
async function recordPlan(
  w: StoreWriter,
  p: Prepared,
  projectId: string,
): Promise<Pick<SnapshotRecord, "plan" | "plan_times">> {
  const { input, opts } = p;
  const imported = opts.name !== undefined;
  // An import (named) keeps what the file had; a save without a plan may carry the newest one's.
  if (input.plan === undefined)
    return imported ? { plan: null, plan_times: null } : carriedPlan(w, projectId, p.l1.goal);
  if (!input.plan) return { plan: input.plan, plan_times: null };
  // An import keeps the times its file had.
  if (imported) return { plan: input.plan, plan_times: input.plan_times ?? null };
  // A plan given keeps the times of the steps it did not change since the newest snapshot's.
  const now = opts.createdAt ?? (await w.clockNow());
  return { plan: input.plan, plan_times: await timesAfterNewest(w, projectId, input.plan, now) };
}

/** After the record: retirements it restates ended, its failures observed, the signal told, retention applied. */
async function keepBooks(
  session: Session,
  w: StoreWriter,
  p: Prepared,
  projectId: string,
  recordId: string,
  activeFiles: number,
): Promise<string[]> {
  const { opts, input, layers, now } = p;
  for (const r of p.restated) await w.tombstone("retirements", r.id);
  const observed = Object.entries(layers.observed);
  for (const [i, [item, entry]] of observed.entries()) {
    await observeFailure(w, projectId, observationFromEntry(item, entry), now);
    await stallIfAsked(`save-failure-${i + 1}`);
  }
  const reason = String(input.auto_trigger?.reason ?? (opts.overflow ? "overflow" : "manual"));
  await changeSignalRow(w, projectId, (signal) =>
    recordSave(signal, now, {
      auto: !!opts.auto,
      reason,
      activeFiles,
      decisions: layers.layer2.decisions.length,
      constraints: layers.layer2.constraints.length,
    }),
  );
  await stallIfAsked("save-after-signal");
  const archived = opts.noRetention
    ? []
    : await applyRetention(w, projectId, { keep: p.keep, now: session.now(), spare: recordId });
  await stallIfAsked("save-after-retention");
  return archived;
}

/** The restore block's size on this host, counted as `load` will render it. */
async function withRestoreSize(
  session: Session,
  opts: SaveOptions,
  saved: Omit<SaveResult, "restore">,
): Promise<SaveResult> {
  // Only a person's save shows the block's size: an import (named) or a hook's save never does, so
  // neither pays for rendering it.
  if (opts.name !== undefined || opts.auto)
    return { ...saved, restore: { tokens: 0, budget: 0, omitted: 0 } };
  // The budget the user sees is the one `load` will meet on this host: the exact rendered block.
  const { block } = await loadSnapshot(session, saved.snapshot, saved.context);
  const omitted = Object.values(block.omitted).reduce((a, b) => a + b, 0);
  if (omitted)
    saved.warnings.push(
      `The restore block on this host leaves out ${omitted} item(s) to stay within ${block.budget} tokens (\`mindsave load --full\` shows them).`,
    );
  return { ...saved, restore: { tokens: block.tokens, budget: block.budget, omitted } };
}

/** How far back a save looks for the plan of its goal: a detour of up to this many snapshots. */
const PLAN_LOOKBACK = 100;

/**
 * A save without a plan keeps the plan of the newest snapshot about the same goal (a manual save
 * mid-task), even past snapshots of other goals saved between (a detour); a plan for another goal
 * would be restored as if it were this one's, so never that.
 */
async function carriedPlan(
  w: StoreWriter,
  projectId: string,
  goal: string,
): Promise<Pick<SnapshotRecord, "plan" | "plan_times">> {
  const s = await w.newestSnapshotOfGoal(projectId, goal, PLAN_LOOKBACK);
  return s ? { plan: s.plan, plan_times: s.plan_times ?? null } : { plan: null, plan_times: null };
}

/** A plan given with a save: the times of its steps, the newest snapshot's where a step stands as it stood there. */
async function timesAfterNewest(
  w: StoreWriter,
  projectId: string,
  plan: NonNullable<SnapshotRecord["plan"]>,
  now: Date,
): Promise<(string | null)[]> {
  const s = await newestSnapshot(w, projectId);
  return planTimes(plan, s?.plan, s?.plan_times, now);
}

async function chooseName(
  w: StoreWriter,
  projectId: string,
  topic: string,
  now: Date,
  overflow: boolean,
  wanted: string | undefined,
  warnings: string[],
): Promise<string> {
  if (wanted && !isSafeName(wanted))
    warnings.push(
      `snapshot_id ${JSON.stringify(wanted)} is not safe as a file name on every system; a new id was given.`,
    );
  if (wanted && isSafeName(wanted)) {
    if ((await w.namesWithPrefix(projectId, wanted)).includes(wanted)) {
      warnings.push(`snapshot_id ${wanted} is already taken in this project; a new id was given.`);
    } else {
      return wanted;
    }
  }
  const base = `${topic}_${overflow ? utcDateTime(now) : utcDate(now)}`;
  return nextFreeName(base, await w.namesWithPrefix(projectId, base));
}

/** An overflow snapshot is Layer 1 over the newest full one: it points there, so its Layer 2 is restored. */
async function overflowTrigger(
  w: StoreWriter,
  projectId: string,
  given: SnapshotInput["auto_trigger"],
): Promise<Record<string, unknown>> {
  if (given?.extends) return given;
  const full = await w.newestFullSnapshot(projectId);
  return { ...(given ?? { reason: "overflow" }), ...(full ? { extends: full.id } : {}) };
}

/** A new snapshot's time: now, or 1 ms after the newest one saved by a clock ahead (up to a day): the last saved is what `load --latest` restores. */
async function afterNewest(w: StoreWriter, projectId: string, now: Date): Promise<Date> {
  const newest = await w.newestCreatedAt(projectId);
  const after = newest ? Date.parse(newest) + 1 : 0;
  return after > now.getTime() && after - now.getTime() <= MAX_AHEAD_MS ? new Date(after) : now;
}
