// Reading the original's failure nodes (failure_graph/{project,global}/*.json, ~/.mindsave/global),
// and telling whether the store already knows all a node says.
import { join } from "node:path";
import { normaliseItem } from "../failures/graph.ts";
import { HOST_ID } from "../home/host.ts";
import { redact, redactDeep } from "../snapshots/redact.ts";
import type { FailureRecord } from "../../store/store.ts";
import { isDir, listDirNoFollow } from "../../lib/fs.ts";
import { asStrings, instant, isObj, mtime, readJson, RECORD_CLOCK, unslug, type Obj } from "./seed-layout.ts";
import { normaliseEntry } from "./seed-read-failure-graph.ts";

export interface ParsedNode {
  file: string;
  item: string;
  scope: "project" | "global";
  reason: string;
  rejected_by?: string;
  confidence?: string;
  repeat_count: number;
  related: string[];
  alternatives: string[];
  first_seen: Date;
  last_seen: Date;
  /** Each host's counter, from MindSave's own export (repeat_count is their sum). */
  counts?: Record<string, number>;
  /** Its record's clock in the store that exported it. */
  clock?: string;
}

const NODE_FIELDS = new Set([
  "schema_version",
  "rejected_by",
  "reason",
  "repeat_count",
  "confidence",
  "scope",
  "related",
  "alternatives",
  "first_seen",
  "last_seen",
  "item",
  "name",
  "_mindsave",
]);
/** More hosts than this, or a count above MAX_COUNT, is not a real export's. */
const MAX_HOSTS = 256;
const MAX_COUNT = 1_000_000;

/**
 * The per-host counters `mindsave export` writes beside repeat_count. Kept only when they are
 * well formed and add up to repeat_count; otherwise the node is read as the original's (a floor).
 */
function hostCounts(
  marker: unknown,
  repeatCount: number,
  where: string,
  warnings: string[],
): Record<string, number> | undefined {
  if (marker === undefined) return undefined;
  const counts = isObj(marker) ? marker.counts : undefined;
  const entries = isObj(counts) ? Object.entries(counts) : null;
  const ok =
    entries &&
    entries.length > 0 &&
    entries.length <= MAX_HOSTS &&
    entries.every(
      ([host, n]) =>
        HOST_ID.test(host) && Number.isInteger(n) && (n as number) > 0 && (n as number) <= MAX_COUNT,
    ) &&
    entries.reduce((sum, [, n]) => sum + (n as number), 0) === repeatCount;
  if (ok) return Object.fromEntries(entries as [string, number][]);
  warnings.push(
    `${where}: _mindsave.counts is not a set of per-host counts adding up to repeat_count ${repeatCount}; read repeat_count as the least count.`,
  );
  return undefined;
}

/** The node's fields MindSave has no place for, and values it read otherwise than written, each in a warning. */
function warnNodeFields(
  data: Obj,
  e: ReturnType<typeof normaliseEntry>,
  scope: "project" | "global",
  where: string,
  warnings: string[],
): void {
  const unknown = Object.keys(data).filter((k) => !NODE_FIELDS.has(k));
  if (unknown.length)
    warnings.push(`${where}: MindSave's failure graph has no place for ${unknown.join(", ")}; not imported.`);
  if (e.scope && e.scope !== scope)
    warnings.push(`${where}: says scope ${e.scope} but sits in the ${scope} folder; imported as ${scope}.`);
  if ("original_scope" in e)
    warnings.push(
      `${where}: scope ${JSON.stringify(e.original_scope)} is not project or global; imported as ${scope} (its folder).`,
    );
  if ("original_rejected_by" in e)
    warnings.push(
      `${where}: rejected_by ${JSON.stringify(e.original_rejected_by)} is not user or system; imported as user.`,
    );
  if ("original_confidence" in e)
    warnings.push(
      `${where}: confidence ${JSON.stringify(e.original_confidence)} is not high, medium or low; derived from repeats instead.`,
    );
}

/** first_seen and last_seen; one that is not a time is the file's modification time, and first never after last. */
function nodeTimes(
  data: Obj,
  path: string,
  where: string,
  warnings: string[],
): { first_seen: Date; last_seen: Date } {
  const fallback = mtime(path);
  const time = (field: "first_seen" | "last_seen"): Date => {
    const t = instant(data[field]);
    if (Number.isFinite(t)) return new Date(t);
    if (data[field] !== undefined)
      warnings.push(
        `${where}: ${field} ${JSON.stringify(data[field])} is not a time; used the file's modification time.`,
      );
    return fallback;
  };
  const first_seen = time("first_seen");
  const last_seen = time("last_seen");
  return { first_seen: first_seen > last_seen ? last_seen : first_seen, last_seen };
}

/** The reason as text (a number or the like as its text); "" when there is none. */
function nodeReason(reason: unknown): string {
  if (typeof reason === "string" && reason.trim()) return reason.trim();
  return reason !== undefined && reason !== null && String(reason).trim() ? String(reason).trim() : "";
}

/** The record's clock `mindsave export` writes beside the node, when it is well formed. */
function exportedClock(marker: unknown): string | undefined {
  return isObj(marker) && typeof marker.clock === "string" && RECORD_CLOCK.test(marker.clock)
    ? marker.clock
    : undefined;
}

/** One node file; undefined (named in a warning) when it is not a JSON object. */
function readNode(
  dir: string,
  name: string,
  scope: "project" | "global",
  file: string,
  warnings: string[],
): ParsedNode | undefined {
  const path = join(dir, name);
  // Redacted as read, the file name too: unslugging would break a secret in it past recognition.
  const data = redactDeep(readJson(path, file, warnings));
  if (data === undefined) return undefined;
  if (!isObj(data)) {
    warnings.push(`${file}: not a JSON object; not imported.`);
    return undefined;
  }
  const stem = redact(name.replace(/\.json$/i, ""));
  const named = [data.item, data.name].find((v) => typeof v === "string" && v.trim()) as string | undefined;
  const item = named?.trim() ?? unslug(stem);
  const where = `${file} (${JSON.stringify(item)})`;
  const e = normaliseEntry(item, data, [], file);
  warnNodeFields(data, e, scope, where, warnings);
  const count = Number(e.repeat_count);
  const repeat_count = Number.isFinite(count) && count >= 1 ? Math.floor(count) : 1;
  return {
    file,
    item,
    scope,
    reason: nodeReason(e.reason),
    rejected_by: typeof e.rejected_by === "string" ? e.rejected_by : undefined,
    confidence: typeof e.confidence === "string" ? e.confidence : undefined,
    repeat_count,
    related: asStrings(e.related),
    alternatives: asStrings(e.alternatives),
    ...nodeTimes(data, path, where, warnings),
    counts: hostCounts(data._mindsave, repeat_count, where, warnings),
    clock: exportedClock(data._mindsave),
  };
}

/** The failure nodes of one folder (`label` names it in warnings); anything but a node file is named in a warning. */
export function readNodes(
  dir: string,
  scope: "project" | "global",
  label: string,
  warnings: string[],
): ParsedNode[] {
  const out: ParsedNode[] = [];
  for (const name of listDirNoFollow(dir)) {
    const file = `${label}/${name}`;
    if (!name.toLowerCase().endsWith(".json") || isDir(join(dir, name))) {
      warnings.push(`${file}: not a failure node (.json file); not imported.`);
      continue;
    }
    const node = readNode(dir, name, scope, file, warnings);
    if (node) out.push(node);
  }
  return out;
}

export const failureKey = (scope: string, item: string) => `${scope}\0${normaliseItem(item)}`;

/** Is everything this node says already in the store's record? */
export function nodeSatisfied(f: FailureRecord | undefined, n: ParsedNode): boolean {
  if (!f) return false;
  const has = (list: string[], want: string[]) => want.every((x) => list.includes(x));
  return (
    f.repeat_count >= n.repeat_count &&
    (!n.reason || f.reason === n.reason) &&
    (!n.rejected_by || f.rejected_by === n.rejected_by) &&
    has(f.related, n.related) &&
    has(f.alternatives, n.alternatives) &&
    Date.parse(f.last_seen) >= n.last_seen.getTime()
  );
}
