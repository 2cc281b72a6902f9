// Load: pick a snapshot, verify it against this host's files, and build the restore block —
// Layer 1 always, Layer 2 when non-empty, the project's and global failures — within 800 tokens,
// trimmed by priority with a line saying what was left out and how to see it.
import { age } from "../../lib/text.ts";
import { existsSync, readFileSync, statSync } from "node:fs";
import { UserError } from "../../errors.ts";
import { effectiveConfidence, failurePriority } from "../failures/graph.ts";
import { sha256 } from "../ids.ts";
import { RESTORE_BUDGET, symbolicLines, yaml, type SymbolicEntryLike } from "./layers.ts";
import { toHostPath } from "../projects/paths.ts";
import { countTokens, loadTokenizer } from "./tokens.ts";
import type { Session, ProjectContext } from "../session.ts";
import type { FailureRecord, SnapshotRecord, SnapshotSummary } from "../../store/store.ts";

export type Selection =
  | { kind: "snapshot"; snapshot: SnapshotRecord }
  | { kind: "choose"; choices: SnapshotSummary[] }
  | { kind: "none" };

/**
 * Finds a snapshot by its name, id, unique name prefix, or list number (1 = newest). Without a key:
 * the newest when `latest` or when there is only one; else the caller lets the user choose.
 */
export async function selectSnapshot(session: Session, projectId: string, key: string | undefined, opts: { latest?: boolean } = {}): Promise<Selection> {
  const q = session.store;
  if (key !== undefined && key !== "") {
    if (/^\d+$/.test(key)) {
      const n = Number(key);
      const [s] = await q.listSnapshots(projectId, { limit: 1, offset: n - 1 });
      if (n >= 1 && s) return { kind: "snapshot", snapshot: (await q.getSnapshot(s.id))! };
      const total = await q.countSnapshots(projectId);
      throw new UserError(`There is no snapshot number ${key}; this project has ${total} (1 is the newest).`);
    }
    const byName = await q.findSnapshotsByName(projectId, key);
    if (byName.length) return { kind: "snapshot", snapshot: byName[0] };
    const byId = await q.getSnapshot(key);
    if (byId && byId.project_id === projectId) return { kind: "snapshot", snapshot: byId };
    const all = await q.listSnapshots(projectId);
    const prefixed = all.filter((s) => s.name.startsWith(key) || s.id.startsWith(key));
    if (prefixed.length === 1) return { kind: "snapshot", snapshot: (await q.getSnapshot(prefixed[0].id))! };
    if (prefixed.length > 1) {
      throw new UserError(`${JSON.stringify(key)} matches ${prefixed.length} snapshots (${prefixed.slice(0, 5).map((s) => s.name).join(", ")}${prefixed.length > 5 ? ", …" : ""}); give the full name.`);
    }
    throw new UserError(`No snapshot ${JSON.stringify(key)} in this project; see \`mindsave snapshots list\`.`);
  }
  const newest = await q.listSnapshots(projectId, { limit: 2 });
  if (newest.length === 0) return { kind: "none" };
  if (opts.latest || newest.length === 1) return { kind: "snapshot", snapshot: (await q.getSnapshot(newest[0].id))! };
  return { kind: "choose", choices: await q.listSnapshots(projectId) };
}

const NOT_RECORDED = "(not recorded)";

export type FileCheck = { path: string; absolute: string; status: "ok" | "missing" | "modified" | "unknown"; modified_at?: string };

/** --verify: does each active file exist on this host, and has it changed since the snapshot? */
export function verifyFiles(s: SnapshotRecord, root: string | null): FileCheck[] {
  return s.active_files.map((f) => {
    const absolute = toHostPath(f.path, root);
    if (!existsSync(absolute)) return { path: f.path, absolute, status: "missing" };
    let st;
    try {
      st = statSync(absolute);
    } catch {
      return { path: f.path, absolute, status: "missing" };
    }
    const modified_at = new Date(st.mtimeMs).toISOString();
    if (f.sha256 === undefined && f.size === undefined) return { path: f.path, absolute, status: "unknown", modified_at };
    let changed = f.size !== undefined && st.size !== f.size;
    if (!changed && f.sha256 && st.isFile()) {
      try {
        changed = sha256(readFileSync(absolute)) !== f.sha256;
      } catch {
        changed = true;
      }
    } else if (!changed && !f.sha256 && f.mtime !== undefined) {
      changed = Math.round(st.mtimeMs) !== f.mtime;
    }
    return { path: f.path, absolute, status: changed ? "modified" : "ok", modified_at };
  });
}

export interface RestoreBlock {
  text: string;
  tokens: number;
  budget: number;
  omitted: { constraints: number; symbolic: number; decisions: number; failures: number };
  failures: FailureRecord[];
}

interface Piece {
  section: "constraints" | "symbolic" | "decisions" | "failures";
  line: string;
  /** Lower is dropped first. */
  priority: number;
}

function failureLine(f: FailureRecord, now: Date): string {
  const tags = [f.rejected_by, `×${f.repeat_count}`, effectiveConfidence(f, now), f.scope].join(", ");
  let line = `- ${f.item}: ${f.reason || "rejected"} [${tags}]`;
  if (f.alternatives.length) line += ` → instead: ${f.alternatives.join("; ")}`;
  if (f.related.length) line += ` (related: ${f.related.join(", ")})`;
  return line;
}

/**
 * Builds the restore block. Layer 1 is never trimmed (it is ≤300 tokens by construction); the rest
 * is added by priority while the whole stays within the budget.
 */
export async function buildRestoreBlock(
  s: SnapshotRecord,
  ctx: { root: string | null; hostId: string; savedHostName?: string; failures: FailureRecord[]; now: Date; budget?: number; resume?: boolean },
): Promise<RestoreBlock> {
  await loadTokenizer();
  const budget = ctx.budget ?? RESTORE_BUDGET;
  const now = ctx.now;
  const files = s.active_files.map((f) => toHostPath(f.path, ctx.root));
  const head = [
    `# MindSave restore: ${s.name}`,
    `saved ${s.created_at.slice(0, 16).replace("T", " ")} UTC (${age(s.created_at, now, "long")}) on ${s.saved_host === ctx.hostId ? "this host" : ctx.savedHostName ?? s.saved_host} · status ${s.status}${s.kind === "overflow" ? " · overflow (Layer 1 only)" : ""}`,
    "",
    "## Layer 1 · Execution Register",
    yaml({ goal: s.goal, state: s.state || NOT_RECORDED, next_action: s.next_action || NOT_RECORDED, active_files: files.length ? files : NOT_RECORDED, blocker: s.blocker }),
  ];
  const tail = [ctx.resume === false
    ? `MindSave: this is the project's last saved state (goal: ${s.goal}). If the user's request continues it, pick up from the next action above; otherwise leave it.`
    : s.next_action
      ? `MindSave restored. Goal: ${s.goal}. Next: ${s.next_action}. Entering Continuation Mode — executing next step.`
      : `MindSave restored. Goal: ${s.goal}. No next action was recorded: decide it from the state above, then continue.`];

  const pieces: Piece[] = [];
  const n = (xs: unknown[]) => xs.length;
  s.constraints.forEach((c, i) => pieces.push({ section: "constraints", line: `- ${c}`, priority: 400 - i / (n(s.constraints) + 1) }));
  const symbolic = symbolicLines(s.compressed?.symbolic as Record<string, SymbolicEntryLike> | undefined);
  Object.entries(symbolic).forEach(([k, v], i) => pieces.push({ section: "symbolic", line: `- ${k}: ${v}`, priority: 390 - i / 100 }));
  s.decisions.forEach((d, i) => pieces.push({ section: "decisions", line: `- ${d}`, priority: 300 - i / (n(s.decisions) + 1) }));
  const failures = [...ctx.failures].sort((a, b) => failurePriority(a, b, now));
  failures.forEach((f, i) => pieces.push({ section: "failures", line: failureLine(f, now), priority: 200 - i / (failures.length + 1) }));

  const TITLES: Record<Piece["section"], string> = {
    constraints: "constraints:",
    symbolic: "compressed constraints:",
    decisions: "decisions:",
    failures: "failure graph (rejected approaches; do not retry):",
  };
  const render = (kept: Piece[], omittedLine: string | null): string => {
    const body: string[] = [];
    if (kept.length) {
      body.push("", "## Layer 2 · Cognitive Cache");
      for (const section of ["constraints", "symbolic", "decisions", "failures"] as const) {
        const lines = kept.filter((p) => p.section === section).map((p) => p.line);
        if (lines.length) body.push(TITLES[section], ...lines);
      }
    }
    if (omittedLine) body.push("", omittedLine);
    return [...head, ...body, "", ...tail].join("\n");
  };

  const byPriority = [...pieces].sort((a, b) => b.priority - a.priority);
  let kept = byPriority;
  let text = render(kept, null);
  let tokens = countTokens(text);
  const omitted = { constraints: 0, symbolic: 0, decisions: 0, failures: 0 };
  while (tokens > budget && kept.length) {
    const dropped = kept[kept.length - 1];
    kept = kept.slice(0, -1);
    omitted[dropped.section]++;
    text = render(kept, omittedLine(omitted, s.name));
    tokens = countTokens(text);
  }
  return { text, tokens, budget, omitted, failures: failures.filter((f) => kept.some((p) => p.line === failureLine(f, now))) };
}

function omittedLine(o: RestoreBlock["omitted"], name: string): string {
  const parts = [
    o.failures && `${o.failures} failure(s)`, o.decisions && `${o.decisions} decision(s)`,
    o.constraints && `${o.constraints} constraint(s)`, o.symbolic && `${o.symbolic} compressed constraint group(s)`,
  ].filter(Boolean);
  const where = [o.failures && "`mindsave failures`", (o.decisions || o.constraints || o.symbolic) && `\`mindsave snapshots show ${name}\``].filter(Boolean).join(" and ");
  return `(Left out to stay within ${RESTORE_BUDGET} tokens: ${parts.join(", ")}. See them with ${where}.)`;
}

export interface LoadResult {
  snapshot: SnapshotRecord;
  context: ProjectContext;
  block: RestoreBlock;
  verify?: FileCheck[];
}

export async function loadSnapshot(session: Session, snapshot: SnapshotRecord, context: ProjectContext, opts: { verify?: boolean; resume?: boolean } = {}): Promise<LoadResult> {
  const failures = await session.store.listFailures(snapshot.project_id);
  const savedHostName = (await session.store.getHost(snapshot.saved_host))?.name;
  const block = await buildRestoreBlock(snapshot, { root: context.root, hostId: session.host.id, savedHostName, failures, now: session.now(), resume: opts.resume ?? true });
  return { snapshot, context, block, verify: opts.verify ? verifyFiles(snapshot, context.root) : undefined };
}

/** The load use case without a prompt (agents, MCP): the snapshot given, or the newest. */
export async function restoreSnapshot(session: Session, key: string | undefined, opts: { verify?: boolean; howToSave: string }): Promise<LoadResult> {
  const ctx = await session.requireProject();
  const sel = await selectSnapshot(session, ctx.project.id, key, { latest: true });
  if (sel.kind !== "snapshot") throw new UserError(`No snapshots in project ${ctx.project.name} yet; save one with ${opts.howToSave}.`);
  return loadSnapshot(session, sel.snapshot, ctx, opts);
}
