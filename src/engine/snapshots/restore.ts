// Load: pick a snapshot, verify it against this host's files, and build the restore block —
// Layer 1 always, Layer 2 when non-empty, the project's and global failures — within 800 tokens,
// trimmed by priority with a line saying what was left out and how to see it.
import { age, utcMinute } from "../../lib/text.ts";
import { UserError } from "../../errors.ts";
import { sortFailures } from "../failures/graph.ts";
import {
  NeedMoreFailures,
  allFailuresOver,
  checkUnreadLines,
  countedFailureLine,
  withRankedFailures,
  type RankedFailures,
} from "./restore-failures.ts";
import {
  FILE_LIST_CAPS,
  RESTORE_BUDGET,
  inline,
  layer1Text,
  shortFileList,
  symbolicLines,
  writtenConstraints,
  type SymbolicEntryLike,
} from "./layers.ts";
import { isAbsoluteAny, toHostPath } from "../projects/paths.ts";
import { verifyFiles, type FileCheck } from "./verify.ts";
import { extendedSnapshot, sameNameLabels, savedOnOtherHost, selectSnapshot } from "./select.ts";
import { planLine } from "./plan.ts";
import { rulesWithinBudget } from "../memory/rules.ts";
import { factLine, freshFacts } from "../memory/facts.ts";
import { retiredKeys, withoutRetired } from "../memory/retire.ts";
import { countTokens, countTokensWithin, loadTokenizer } from "./tokens.ts";
import { itemLine, knowLineTokens } from "./stored-tokens.ts";
import { conflictPairs, contradictionMark, storedConflicts } from "./contradiction-texts.ts";
import { isArchived } from "./retention.ts";
import type { Session } from "../session.ts";
import { requireProject, type ProjectContext } from "../projects/resolve.ts";
import type {
  FactRecord,
  FailureRecord,
  RetirementRecord,
  RuleRecord,
  SnapshotRecord,
  SnapshotSummary,
  UnfinishedPull,
} from "../../store/store.ts";
import { AGENTS } from "../agents/registry.ts";

/** An agent as a person knows it ("Codex CLI"); an id we do not know as it was stored. */
const agentName = (id: string) => AGENTS.find((a) => a.id === id)?.name ?? inline(id);

const NOT_RECORDED = "(not recorded)";

export interface RestoreBlock {
  text: string;
  tokens: number;
  budget: number;
  omitted: { constraints: number; symbolic: number; decisions: number; failures: number; facts: number };
  failures: FailureRecord[];
}

interface Piece {
  section: "constraints" | "symbolic" | "decisions" | "failures" | "facts";
  /** Null for the first failure not read yet, which stands for all of them (see layer2Pieces). */
  line: string | null;
  /** Lower is dropped first. */
  priority: number;
}

/** A piece's line; one not read yet makes the caller read more failures and build again. */
function lineOf(p: Piece, readCount: number): string {
  if (p.line === null) throw new NeedMoreFailures(readCount * 2);
  return p.line;
}

/** The spec's density of each section trimmed by value (failures very high, decisions high; facts between). */
const DENSITY = { failures: 3, facts: 2.5, decisions: 2 } as const;

/**
 * The value of a section's `rank`-th piece (0: its first), below every constraint's: its density
 * over its place in the section. Failures, facts and decisions interleave, so each goes one piece
 * at a time, the least valuable first: a long failure list no longer takes every decision at once.
 */
function valueAt(section: keyof typeof DENSITY, rank: number): number {
  return (100 * DENSITY[section]) / (rank + 1);
}

/**
 * How hard the block is shortened around its pieces: absolute paths; root folded; the closing line
 * without the goal and next action it repeats; then the file list cut to the caps Layer 1 is
 * counted with.
 */
const FILE_LEVELS = [
  { fold: false, max: FILE_LIST_CAPS[0], shortTail: false },
  { fold: true, max: FILE_LIST_CAPS[0], shortTail: false },
  { fold: true, max: FILE_LIST_CAPS[0], shortTail: true },
  { fold: true, max: FILE_LIST_CAPS[1], shortTail: true },
  { fold: true, max: FILE_LIST_CAPS[2], shortTail: true },
] as const;

/**
 * Builds the restore block for this host and counts the exact text that is returned. Within the
 * budget, in this order: long file lists are folded under their root, the closing line stops
 * repeating the goal and next action (they are above), then Layer 2 is trimmed by value (constraints
 * outlive the rest; failures, facts and decisions go one at a time by their density and rank), then
 * the file list is cut to a few with "+N more", and as many pieces as then fit come back. `full`
 * shows everything, whatever its size.
 */
export async function buildRestoreBlock(
  s: SnapshotRecord,
  ctx: BlockContext & { failures: FailureRecord[] },
): Promise<RestoreBlock> {
  const ranked = sortFailures(ctx.failures, ctx.now);
  knowLineTokens(s);
  return blockWith(s, ctx, { total: ranked.length, read: ranked, unreadWithItems: null });
}

interface BlockContext {
  root: string | null;
  /** The host that saved the snapshot, when another one did (savedOnOtherHost). */
  savedOn: string | null;
  now: Date;
  budget?: number;
  resume?: boolean;
  full?: boolean;
  layer2From?: string;
  /** Standing rules: shown first, never trimmed (their own budget keeps them small). */
  rules?: RuleRecord[];
  /** Facts: only fresh ones are shown, between failures and decisions. */
  facts?: FactRecord[];
  /** A sync into this store that stopped between two pages (unfinishedPullLine), said under the saved line. */
  unfinishedPull?: string | null;
}

/** A file-list level of FILE_LEVELS. */
type Level = (typeof FILE_LEVELS)[number];

/** A block being trimmed: what it is built from, and its Layer 2 pieces, the most valuable first. */
interface Draft {
  s: SnapshotRecord;
  ctx: BlockContext;
  /** The host that saved the snapshot, as shown; null when it is this one. */
  savedOn: string | null;
  rules: string;
  plan: string | null;
  byPriority: Piece[];
  readCount: number;
  /** Every piece of each section, those not read included. */
  totals: RestoreBlock["omitted"];
  budget: number;
}

/**
 * The block with failures of which only the first few may be read: wherever it would need an
 * unread one's line, it throws NeedMoreFailures instead (withRankedFailures reads more and calls it
 * again), so it is the block every failure read in full would give.
 */
async function blockWith(
  s: SnapshotRecord,
  ctx: BlockContext,
  ranked: RankedFailures,
): Promise<RestoreBlock> {
  await loadTokenizer();
  const budget = ctx.full ? Infinity : (ctx.budget ?? RESTORE_BUDGET);
  const { pieces, failureLines } = layer2Pieces(s, ctx, ranked);
  const totals = { constraints: 0, symbolic: 0, decisions: 0, failures: ranked.total, facts: 0 };
  for (const p of pieces) if (p.section !== "failures") totals[p.section]++;
  const d: Draft = {
    s,
    ctx,
    savedOn: ctx.savedOn === null ? null : inline(ctx.savedOn),
    rules: rulesWithinBudget(ctx.rules ?? []).text,
    plan: planLine(s.plan),
    byPriority: [...pieces].sort((a, b) => b.priority - a.priority),
    readCount: ranked.read.length,
    totals,
    budget,
  };
  // With failures unread, the whole block is known to be over the budget (else they are read first).
  const best = fitted(d, allFailuresOver(ranked, failureLines, budget));
  const kept = d.byPriority.slice(0, best.kept).map((p) => lineOf(p, d.readCount));
  await checkUnreadLines(ranked, kept, ctx.now);
  const keptLines = new Set(kept);
  return {
    text: best.text,
    tokens: best.tokens > budget ? countTokens(best.text) : best.tokens,
    budget: ctx.budget ?? RESTORE_BUDGET,
    omitted: omittedBy(d, best.kept),
    failures: ranked.read.filter((_, i) => keptLines.has(failureLines[i])),
  };
}

/**
 * Layer 2's pieces with their priorities, and the lines of the failures read. Of the failures not
 * read, only the first is a piece (its line null): every other one comes after it, so no block can
 * keep one without it, and the block counts them as left out (Draft.totals), not one by one.
 */
function layer2Pieces(
  s: SnapshotRecord,
  ctx: BlockContext,
  ranked: RankedFailures,
): { pieces: Piece[]; failureLines: string[] } {
  const now = ctx.now;
  const pieces: Piece[] = [];
  const constraintPriority = (i: number) => 400 - i / (s.constraints.length + 1);
  s.constraints.forEach((c, i) =>
    pieces.push({ section: "constraints", line: itemLine(c), priority: constraintPriority(i) }),
  );
  // A contradiction is marked right after the later of its two constraints, and goes just before it.
  conflictPairs(storedConflicts(s.compressed)).forEach((pair, k) => {
    const at = Math.max(...pair.map((c) => s.constraints.indexOf(c)));
    pieces.push({
      section: "constraints",
      line: contradictionMark(pair),
      priority: constraintPriority(at < 0 ? s.constraints.length : at + 0.5) - k / 1e6,
    });
  });
  const symbolic = symbolicLines(s.compressed?.symbolic as Record<string, SymbolicEntryLike> | undefined);
  Object.entries(symbolic).forEach(([k, v], i) =>
    pieces.push({ section: "symbolic", line: `- ${inline(k)}: ${inline(v)}`, priority: 390 - i / 100 }),
  );
  const readCount = ranked.read.length;
  const failureLines = ranked.read.map((f) => countedFailureLine(f, now));
  failureLines.forEach((line, i) =>
    pieces.push({ section: "failures", line, priority: valueAt("failures", i) }),
  );
  if (ranked.total > readCount)
    pieces.push({ section: "failures", line: null, priority: valueAt("failures", readCount) });
  freshFacts(ctx.facts ?? [], now).forEach((f, i) =>
    pieces.push({ section: "facts", line: factLine(f, now), priority: valueAt("facts", i) }),
  );
  s.decisions.forEach((d, i) =>
    pieces.push({ section: "decisions", line: itemLine(d), priority: valueAt("decisions", i) }),
  );
  return { pieces, failureLines };
}

/**
 * The block that fits: folding the root loses nothing, so it comes first (always for more than 3
 * files: a root said once costs less than a root on every line); cutting the file list comes last.
 * `over`: the whole block is known to be over the budget.
 */
function fitted(d: Draft, over: boolean): Attempt {
  const all = (level: Level) =>
    over ? { text: "", tokens: Infinity, kept: d.byPriority.length } : attempt(d, level, d.byPriority.length);
  let best = all(FILE_LEVELS[d.s.active_files.length > 3 ? 1 : 0]);
  if (best.tokens > d.budget) best = all(FILE_LEVELS[1]);
  if (best.tokens > d.budget) best = all(FILE_LEVELS[2]);
  // A shorter file list frees room: as many pieces as then fit, not only those that fitted before.
  for (const level of FILE_LEVELS.slice(2)) if (best.tokens > d.budget) best = fitAt(d, level);
  return best;
}

/** A rendered block: its text, its tokens (exact up to the budget), and how many pieces it keeps. */
interface Attempt {
  text: string;
  tokens: number;
  kept: number;
}

/** The block with the `kept` highest-priority pieces, counted on its exact text. */
function attempt(d: Draft, level: Level, kept: number): Attempt {
  const text = render(
    d,
    level,
    d.byPriority.slice(0, kept),
    kept < d.byPriority.length ? omittedLine(omittedBy(d, kept), d.s.name) : null,
  );
  // Exact up to the budget; past it only "too big" matters, so counting stops there.
  return { text, tokens: countTokensWithin(text, d.budget), kept };
}

/**
 * The most pieces that fit at `level`: each line is counted once for an estimate that bounds the
 * search, then a binary search over exact counts of the rendered block (a few renders, not one
 * per dropped line: 800 failures cost what 10 do). A line is counted with its newline, the part
 * the block's text is counted in (tokens.ts), so the renders find its count known.
 */
function fitAt(d: Draft, level: Level): Attempt {
  let estimate = countTokens(render(d, level, [], omittedLine(omittedBy(d, 0), d.s.name)));
  let hi = 0;
  while (
    hi < d.byPriority.length &&
    (estimate += countTokens(`${lineOf(d.byPriority[hi], d.readCount)}\n`)) <= d.budget + 64
  )
    hi++;
  let best = attempt(d, level, 0);
  let lo = 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const a = attempt(d, level, mid);
    if (a.tokens <= d.budget) {
      best = a;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/** What the block leaves out when it keeps the `kept` highest-priority pieces, by section. */
function omittedBy(d: Draft, kept: number): RestoreBlock["omitted"] {
  const o = { ...d.totals };
  for (let i = 0; i < kept; i++) o[d.byPriority[i].section]--;
  return o;
}

function render(d: Draft, level: Level, kept: Piece[], omittedText: string | null): string {
  const body = kept.length ? ["", "## Layer 2 · Cognitive Cache", ...layer2Lines(kept, d.readCount)] : [];
  if (omittedText) body.push("", omittedText);
  return [...layer1Lines(d, level), ...body, "", closingLine(d.s, d.ctx, level.shortTail)].join("\n");
}

const TITLES: Record<Piece["section"], string> = {
  constraints: "constraints:",
  symbolic: "compressed constraints:",
  failures: "failure graph (rejected approaches; do not retry):",
  facts: "facts (believed true until they expire):",
  decisions: "decisions:",
};

/** The kept pieces under their sections' titles, in the block's order of sections. */
function layer2Lines(kept: Piece[], readCount: number): string[] {
  // One pass over the kept lines (a block is rendered a dozen times while it is trimmed).
  const bySection: Record<Piece["section"], string[]> = {
    constraints: [],
    symbolic: [],
    failures: [],
    facts: [],
    decisions: [],
  };
  for (const p of kept) bySection[p.section].push(lineOf(p, readCount));
  const out: string[] = [];
  for (const section of ["constraints", "symbolic", "failures", "facts", "decisions"] as const) {
    const lines = bySection[section];
    if (lines.length) out.push(TITLES[section], ...lines);
  }
  return out;
}

/** The block's head: its title, when and where it was saved, the standing rules, then Layer 1 and the plan. */
function layer1Lines(d: Draft, level: Level): string[] {
  const { s, ctx, savedOn } = d;
  const stored = s.active_files.map((f) => f.path);
  const relative = level.fold && ctx.root !== null && stored.some((f) => !isAbsoluteAny(f));
  // A file outside the project is kept by its absolute path, which names a place on the host that saved it.
  const outside = (f: string) =>
    `${toHostPath(f, ctx.root)}${savedOn ? ` (outside the project: a path on ${savedOn})` : ""}`;
  const files = shortFileList(
    stored.map((f) => (isAbsoluteAny(f) ? outside(f) : relative ? f : toHostPath(f, ctx.root))),
    level.max,
  );
  return [
    `# MindSave restore: ${inline(s.name)}`,
    savedLine(d),
    ...(ctx.unfinishedPull ? [ctx.unfinishedPull] : []),
    ...(d.rules ? ["", d.rules] : []),
    "",
    "## Layer 1 · Execution Register",
    ...(relative ? [`project root on this host: ${ctx.root} (active files are relative to it)`] : []),
    layer1Text({
      goal: s.goal,
      state: s.state || NOT_RECORDED,
      next_action: s.next_action || NOT_RECORDED,
      active_files: files.length ? files : NOT_RECORDED,
      blocker: s.blocker,
    }),
    ...(d.plan ? [d.plan] : []),
  ];
}

/** When, by which agent and on which host the snapshot was saved; its status, and whose Layer 2 an overflow one shows. */
function savedLine({ s, ctx, savedOn }: Draft): string {
  const by = s.saved_agent ? `by ${agentName(s.saved_agent)} ` : "";
  const overflow =
    s.kind !== "overflow"
      ? ""
      : ctx.layer2From
        ? ` · overflow (Layer 1; Layer 2 from ${inline(ctx.layer2From)})`
        : " · overflow (Layer 1 only)";
  return `saved ${utcMinute(s.created_at)} (${age(s.created_at, ctx.now, "long")}) ${by}on ${savedOn ?? "this host"} · status ${s.status}${overflow}`;
}

/** The block's last line: what the agent does next; `short` leaves out the goal and next action it repeats. */
function closingLine(s: SnapshotRecord, ctx: BlockContext, short: boolean): string {
  if (ctx.resume === false)
    return short
      ? "MindSave: this is the project's last saved state; continue it only if the user's request does."
      : `MindSave: this is the project's last saved state (goal: ${inline(s.goal)}). If the user's request continues it, pick up from ${s.next_action ? "the next action above" : "the state above (no next action was recorded)"}; otherwise leave it.`;
  if (s.next_action)
    return short
      ? "MindSave restored. Entering Continuation Mode — executing the next action above."
      : `MindSave restored. Goal: ${inline(s.goal)}. Next: ${inline(s.next_action)}. Entering Continuation Mode — executing next step.`;
  return short
    ? "MindSave restored. No next action was recorded: decide it from the state above."
    : `MindSave restored. Goal: ${inline(s.goal)}. No next action was recorded: decide it from the state above, then continue.`;
}

function omittedLine(o: RestoreBlock["omitted"], name: string): string {
  const parts = [
    o.failures && `${o.failures} failure(s)`,
    o.facts && `${o.facts} fact(s)`,
    o.decisions && `${o.decisions} decision(s)`,
    o.constraints && `${o.constraints} constraint(s)`,
    o.symbolic && `${o.symbolic} compressed constraint group(s)`,
  ].filter(Boolean);
  const where = [
    o.failures && "`mindsave failures`",
    o.facts && "`mindsave facts`",
    (o.decisions || o.constraints || o.symbolic) && `\`mindsave snapshots show ${name}\``,
  ]
    .filter(Boolean)
    .join(" and ");
  return `(Left out to stay within ${RESTORE_BUDGET} tokens: ${parts.join(", ")}. See them with ${where}.)`;
}

export interface LoadResult {
  snapshot: SnapshotRecord;
  context: ProjectContext;
  block: RestoreBlock;
  verify?: FileCheck[];
  /** The Layer 2 restored: the snapshot's own, or for an overflow snapshot the full one's it extends. */
  layer2: Pick<SnapshotRecord, "constraints" | "decisions" | "compressed">;
  /** The standing rules the block opens with, and the facts it may show (unexpired, in its order). */
  rules: RuleRecord[];
  facts: FactRecord[];
  /** The host that saved the snapshot, when another one did: its absolute paths name places there. */
  savedOn: string | null;
  /** Retention archived it: out of the default lists (the faces say so), still whole. */
  archived: boolean;
}

/**
 * What the block says of a sync into this store that stopped between two pages: a newer snapshot
 * saved on that peer may not be here yet, so this one may not be the latest (null when none did).
 */
function unfinishedPullLine(pulls: UnfinishedPull[]): string | null {
  const u = pulls.at(-1);
  if (!u) return null;
  return `warning: a sync with ${inline(u.location)} stopped partway (${utcMinute(u.since)}): what was saved there may be missing here, newer snapshots too; \`mindsave sync\` finishes it.`;
}

export async function loadSnapshot(
  session: Session,
  snapshot: SnapshotRecord,
  context: ProjectContext,
  opts: { verify?: boolean; resume?: boolean; full?: boolean } = {},
): Promise<LoadResult> {
  const rules = await session.store.listRules(snapshot.project_id);
  const facts = await session.store.listFacts(snapshot.project_id);
  const retired = await session.store.listRetirements(snapshot.project_id);
  const savedOn = await savedOnOtherHost(session, snapshot);
  const unfinishedPull = unfinishedPullLine(await session.store.syncReader().unfinishedPulls());
  // An overflow snapshot is Layer 1 over the full snapshot it extends: the block shows that one's Layer 2.
  const base = await extendedSnapshot(session, snapshot);
  const shown = withoutRetiredItems(
    base
      ? { ...snapshot, constraints: base.constraints, decisions: base.decisions, compressed: base.compressed }
      : snapshot,
    retired,
  );
  const now = session.now();
  // The Layer 2 shown is this row's (its counts stored with it), less what was retired.
  knowLineTokens(base ?? snapshot);
  // A name two hosts' snapshots share (after a sync) says which one: "work_… (laptop-a, id 01a2)".
  const twin = base
    ? (
        await sameNameLabels(
          session,
          base.project_id,
          await session.store.findSnapshotsByName(base.project_id, base.name),
        )
      ).get(base.id)
    : undefined;
  const ctx: BlockContext = {
    root: context.root,
    savedOn,
    rules,
    facts,
    unfinishedPull,
    now,
    resume: opts.resume ?? true,
    full: opts.full,
    layer2From: base ? (twin ? `${base.name} (${twin})` : base.name) : undefined,
  };
  const block = await session.store.consistentRead((q) =>
    withRankedFailures(q, snapshot.project_id, now, !!opts.full, (failures) =>
      blockWith(shown, ctx, failures),
    ),
  );
  return {
    snapshot,
    context,
    block,
    verify: opts.verify ? verifyFiles(snapshot, context.root, session.host.id) : undefined,
    layer2: { constraints: shown.constraints, decisions: shown.decisions, compressed: shown.compressed },
    rules,
    facts: freshFacts(facts, now),
    savedOn,
    archived: await isArchived(session, snapshot.id),
  };
}

/**
 * A snapshot as it may be restored: retired constraints and decisions taken out. When a retired
 * constraint was folded into a compressed group, the group is not shown; the constraints as written,
 * minus the retired ones, are (the block's budget trims them like any others).
 */
export function withoutRetiredItems(s: SnapshotRecord, retired: RetirementRecord[]): SnapshotRecord {
  const keys = retiredKeys(retired);
  if (!keys.size) return s;
  const written = writtenConstraints(s);
  const touched =
    s.compressed?.symbolic && withoutRetired(written, "constraint", keys).length < written.length;
  return {
    ...s,
    constraints: withoutRetired(touched ? written : s.constraints, "constraint", keys),
    decisions: withoutRetired(s.decisions, "decision", keys),
    compressed: touched ? null : s.compressed,
  };
}

/** A restore: the snapshot's block, the list to choose from (several, no key, not `latest`), or none saved yet. */
export type Restore =
  | { kind: "restored"; result: LoadResult }
  | { kind: "choose"; choices: SnapshotSummary[] }
  | { kind: "none" };

/**
 * The restore use case, one for every face: `mindsave load`, MCP's load tool and restore-block
 * resource, and the session-start hook. The snapshot `key` names (name, id, prefix or list
 * number), else the newest (newestSnapshot); `latest: false` offers the list when there are several.
 */
export async function restore(
  session: Session,
  context: ProjectContext,
  key: string | undefined,
  opts: { latest?: boolean; verify?: boolean; resume?: boolean; full?: boolean } = {},
): Promise<Restore> {
  const sel = await selectSnapshot(session, context.project.id, key, { latest: opts.latest ?? true });
  if (sel.kind !== "snapshot") return sel;
  return { kind: "restored", result: await loadSnapshot(session, sel.snapshot, context, opts) };
}

/** restore for a face that cannot offer a list (MCP): the snapshot given or the newest, else how to save one. */
export async function restoreSnapshot(
  session: Session,
  key: string | undefined,
  opts: { verify?: boolean; full?: boolean; howToSave: string },
): Promise<LoadResult> {
  const ctx = await requireProject(session);
  const r = await restore(session, ctx, key, opts);
  if (r.kind !== "restored")
    throw new UserError(`No snapshots in project ${ctx.project.name} yet; save one with ${opts.howToSave}.`);
  return r.result;
}
