// A failure graph as any version of the original wrote it, in a snapshot's front matter or a
// failure node: who/scope/confidence synonyms mapped, lists as lists, the unknown kept aside.
import { parseDocument } from "yaml";
import type { FailureGraphEntry } from "../../store/store.ts";
import { writtenCount } from "../failures/graph.ts";
import { asStrings, isObj, type Obj } from "./seed-layout.ts";

const WHO: Record<string, "user" | "system"> = {
  user: "user",
  human: "user",
  developer: "user",
  me: "user",
  owner: "user",
  system: "system",
  ai: "system",
  agent: "system",
  assistant: "system",
  model: "system",
  test: "system",
  tests: "system",
  ci: "system",
  bot: "system",
  tool: "system",
  build: "system",
  compiler: "system",
  linter: "system",
};
const SCOPES: Record<string, "project" | "global"> = {
  project: "project",
  local: "project",
  global: "global",
  shared: "global",
  "cross-platform": "global",
};
const CONFIDENCE = new Set(["high", "medium", "low"]);

/**
 * One failure-graph entry in the engine's terms: who/scope/confidence synonyms mapped, lists as
 * lists; a value that cannot be mapped is kept in the entry as `original_<field>`, with a warning.
 */
export function normaliseEntry(
  item: string,
  raw: unknown,
  warnings: string[],
  where: string,
): FailureGraphEntry {
  const e: FailureGraphEntry = isObj(raw)
    ? { ...raw }
    : raw === null || raw === undefined
      ? {}
      : { reason: String(raw) };
  const fix = (field: "rejected_by" | "scope" | "confidence", map: (s: string) => string | undefined) => {
    const v = e[field];
    if (v === undefined || v === null || v === "") {
      delete e[field];
      return;
    }
    const mapped = map(String(v).trim().toLowerCase());
    if (mapped) e[field] = mapped;
    else {
      delete e[field];
      e[`original_${field}`] = v;
      warnings.push(
        `${where}: failure ${JSON.stringify(item)} has ${field} ${JSON.stringify(v)}, which MindSave does not know; kept as original_${field}.`,
      );
    }
  };
  fix("rejected_by", (s) => WHO[s]);
  fix("scope", (s) => SCOPES[s]);
  fix("confidence", (s) => (CONFIDENCE.has(s) ? s : undefined));
  for (const list of ["related", "alternatives"] as const)
    if (e[list] !== undefined) e[list] = asStrings(e[list]);
  if (e.repeat_count !== undefined && e.repeat_count !== null && typeof e.repeat_count !== "number") {
    const n = writtenCount(e.repeat_count);
    if (!Number.isNaN(n)) e.repeat_count = n;
    else {
      // Not a count: kept aside like any value MindSave does not know, so the file still imports.
      e.original_repeat_count = e.repeat_count;
      delete e.repeat_count;
      warnings.push(
        `${where}: failure ${JSON.stringify(item)} has repeat_count ${JSON.stringify(e.original_repeat_count)}, which is not a number; kept as original_repeat_count.`,
      );
    }
  }
  return e;
}

/** failure_graph as a mapping, whatever the version wrote: JSON text (the v3.5 SDK), a list, or a mapping. */
export function normaliseGraph(
  v: unknown,
  data: Obj,
  kept: Obj,
  warnings: string[],
  where: string,
): Record<string, FailureGraphEntry> | undefined {
  if (v === undefined || v === null || v === "") return undefined;
  let value: unknown = v;
  if (typeof v === "string") {
    try {
      value = JSON.parse(v);
    } catch {
      const doc = parseDocument(v);
      if (doc.errors.length || !isObj(doc.toJS())) {
        kept.failure_graph_text = v;
        warnings.push(
          `${where}: failure_graph is neither JSON nor YAML; kept as text in failure_graph_text.`,
        );
        return undefined;
      }
      value = doc.toJS();
    }
  }
  if (Array.isArray(value)) return graphFromList(value, data, kept, warnings, where);
  if (!isObj(value)) {
    kept.failure_graph_text = v;
    warnings.push(
      `${where}: failure_graph is not a mapping of item → {reason, …}; kept in failure_graph_text.`,
    );
    return undefined;
  }
  const out: Record<string, FailureGraphEntry> = {};
  for (const [item, entry] of Object.entries(value))
    if (item.trim()) out[item.trim()] = normaliseEntry(item.trim(), entry, warnings, where);
  return out;
}

/**
 * failure_graph written as a list: entries naming their item (item or name) are the graph; plain
 * lines are the legacy flat list (excluded paths); anything else is kept aside.
 */
function graphFromList(
  list: unknown[],
  data: Obj,
  kept: Obj,
  warnings: string[],
  where: string,
): Record<string, FailureGraphEntry> {
  const out: Record<string, FailureGraphEntry> = {};
  const rest: unknown[] = [];
  for (const x of list) {
    const name = isObj(x) ? (x.item ?? x.name) : undefined;
    if (typeof name === "string" && name.trim()) {
      const { item: _i, name: _n, ...entry } = x as Obj;
      out[name.trim()] = normaliseEntry(name.trim(), entry, warnings, where);
    } else {
      rest.push(x);
    }
  }
  const lines = rest.filter((x): x is string => typeof x === "string");
  if (lines.length) data.excluded_paths = [...asStrings(data.excluded_paths), ...lines];
  const odd = rest.filter((x) => typeof x !== "string");
  if (odd.length) {
    kept.failure_graph_unrecognised = odd;
    warnings.push(
      `${where}: ${odd.length} failure_graph entr${odd.length === 1 ? "y has" : "ies have"} no item name; kept in failure_graph_unrecognised.`,
    );
  }
  return out;
}
