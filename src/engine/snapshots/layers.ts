// The text of each layer as an agent reads it. Budgets are measured on exactly this text, so what
// is counted is what is restored.
import type { FailureGraphEntry, SnapshotRecord } from "../../store/store.ts";
import { clipped, printable } from "../../lib/text.ts";
import { FIELD_MAX } from "./input-limits.ts";

// yaml is loaded on first use (`require`, synchronous): load and recall import this module but
// rarely write YAML, and every command would pay for loading the library. A plain `require`, as
// `bun build` bundles only that form: createRequire's and import.meta.require's are looked up on
// disk at run time, where the compiled binary has no node_modules. plan.ts loads it from here.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy and bundled, as said above
export const YAML = () => require("yaml") as typeof import("yaml");

export const LAYER1_BUDGET = 300;
export const LAYER2_BUDGET = 500;
export const RESTORE_BUDGET = 800;
/** Snapshots of a project left listed by retention after a save (older ones are archived, never deleted). */
export const DEFAULT_KEEP = 20;

export interface Layer1 {
  goal: string;
  state: string;
  next_action: string;
  active_files: string[];
  blocker: string;
}

export interface Layer2 {
  constraints: string[];
  decisions: string[];
  failure_graph: Record<string, FailureGraphEntry>;
  symbolic?: Record<string, SymbolicEntryLike>;
}

/** The compressor's symbolic entry, as far as rendering needs it. */
export interface SymbolicEntryLike {
  strategy?: string;
  preferred?: string[];
  rejected?: string[];
  reason?: string;
}

/** One line per compressed group: "use css variables; not Tailwind, utility-first (style conflicts)". */
export function symbolicSummary(e: SymbolicEntryLike): string {
  const parts: string[] = [];
  if (e.preferred?.length) parts.push(`use ${e.preferred.join(", ")}`);
  if (e.rejected?.length) parts.push(`not ${e.rejected.join(", ")}`);
  let line = parts.join("; ") || e.strategy || "";
  if (e.reason) line += ` (${e.reason})`;
  return line;
}

export function symbolicLines(
  symbolic: Record<string, SymbolicEntryLike> | undefined | null,
): Record<string, string> {
  return Object.fromEntries(Object.entries(symbolic ?? {}).map(([k, v]) => [k, symbolicSummary(v)]));
}

const YAML_OPTS = { lineWidth: 0, defaultStringType: "PLAIN", defaultKeyType: "PLAIN" } as const;

export function yaml(value: unknown): string {
  // Only the final line break: trimEnd would also eat a last value's trailing "\u3000" or kept newlines.
  return YAML().stringify(value, YAML_OPTS).replace(/\n$/, "");
}

/**
 * Plain scalars that YAML 1.2 (MindSave, the `yaml` library) reads as text but YAML 1.1 (the
 * original's Python SDK, PyYAML) reads as something else: a boolean or a number (`yes`, `off`,
 * `1:20`, `1_000`, `0b1`, `+0x1F`, `+017`), a date or a time (`2024-01-01`, `2024-1-1 10:00:00`),
 * or a key that is no text at all (`<<` merges, `=` is a "value" key: the whole file fails to load).
 */
const YAML11_NOT_TEXT = new RegExp(
  "^(?:" +
    [
      "y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|<<|=",
      "[-+]?0b[01_]+|[-+]?0x[0-9a-fA-F_]+|[-+]?0[0-7_]+",
      "[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\\.[0-9_]*)?|[-+]?[0-9][0-9_]*_[0-9_]*(?:\\.[0-9_]*)?",
      "[0-9]{4}-[0-9]{2}-[0-9]{2}",
      "[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \\t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]*)?(?:[ \\t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?",
    ].join("|") +
    ")$",
);

/** `yaml`, with such strings quoted: a file both versions of YAML read as written (the spec's files). */
export function yamlFile(value: unknown): string {
  const Y = YAML();
  const doc = new Y.Document(value);
  Y.visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === "string" && YAML11_NOT_TEXT.test(node.value)) node.type = "QUOTE_DOUBLE";
    },
  });
  return doc.toString(YAML_OPTS).replace(/\n$/, "");
}

/** What a reader may take for the end of a line: LF, CR alone, VT, FF, the separators \x1c–\x1e, NEL, LS, PS. */
// eslint-disable-next-line no-control-regex -- the separators \x1c–\x1e are line breaks to some readers
const LINE_BREAK = /[\n\v\f\r\x1c-\x1e\x85\u2028\u2029]/;

/**
 * The most characters of one stored value a block or a list shows: what a field may hold today. A
 * longer one came from a peer or an older version; it is cut, with a marker, so that no stored
 * value can make a restore block (or a hook's reply) unbounded.
 */
const SHOWN_MAX = FIELD_MAX;

/**
 * A value inside one line of the restore block: as written, or, when it holds a line break, quoted
 * (JSON, every break escaped), so no part of it can start a line of its own that an agent would
 * read as MindSave's (a "## Layer 2" heading, a constraint nobody gave). Cut past SHOWN_MAX, and
 * without escape sequences or control characters (a peer's text must not drive the terminal).
 */
export function inline(v: string): string {
  const c = clipped(v, SHOWN_MAX);
  return printable(
    LINE_BREAK.test(c)
      ? JSON.stringify(c).replace(
          /[\x85\u2028\u2029]/g,
          (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
        )
      : c,
  );
}

/** How many active files Layer 1 may list before the rest become "+N more": all, then 8, then 3. */
export const FILE_LIST_CAPS = [Infinity, 8, 3] as const;

/** The first `max` files, then one line counting the rest (the whole list is kept in the store). */
export function shortFileList(files: string[], max: number): string[] {
  return files.length > max
    ? [...files.slice(0, max), `… +${files.length - max} more (\`mindsave load --full\` lists them all)`]
    : files;
}

/**
 * Layer 1 as the restore block shows it: `key: value` lines and the file list, the values as
 * written (no YAML quoting that would make one value look unlike another); a value over several
 * lines is shown quoted, so the block stays one line a field.
 */
export function layer1Text(l1: {
  goal: string;
  state: string;
  next_action: string;
  active_files: string[] | string;
  blocker: string;
}): string {
  const files =
    typeof l1.active_files === "string"
      ? [`active_files: ${inline(l1.active_files)}`]
      : l1.active_files.length
        ? ["active_files:", ...l1.active_files.map((f) => `  - ${inline(f)}`)]
        : ["active_files: []"];
  return [
    `goal: ${textValue(l1.goal)}`,
    `state: ${textValue(l1.state)}`,
    `next_action: ${textValue(l1.next_action)}`,
    ...files,
    `blocker: ${textValue(l1.blocker)}`,
  ].join("\n");
}

/** Words a `key: value` line reads as no text (`blocker: null` beside "status blocked"): quoted when one is the whole value. */
const NOT_TEXT_WORD =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF)$/;

/**
 * A value on its line of the block (a Layer 1 field, a constraint): as written, quoted when it
 * would read as no text, holds a line break, or starts with a quote itself (so a value shown
 * quoted is always JSON: `"no"` typed with its quotes is not `no`, nor `"a\nb"` a line break).
 */
export const textValue = (v: string) =>
  NOT_TEXT_WORD.test(v) || v.startsWith('"') ? printable(JSON.stringify(clipped(v, SHOWN_MAX))) : inline(v);

/** Only non-empty parts: an empty Layer 2 costs nothing. */
export function layer2Parts(l2: Layer2): Record<string, unknown> {
  const parts: Record<string, unknown> = {};
  if (l2.constraints.length) parts.constraints = l2.constraints;
  if (l2.symbolic && Object.keys(l2.symbolic).length)
    parts.compressed_constraints = symbolicLines(l2.symbolic);
  if (l2.decisions.length) parts.decisions = l2.decisions;
  if (Object.keys(l2.failure_graph).length) parts.failure_graph = l2.failure_graph;
  return parts;
}

export function layer2Text(l2: Layer2): string {
  const parts = layer2Parts(l2);
  return Object.keys(parts).length ? yaml(parts) : "";
}

/** The constraints as written, before compression folded some into symbolic groups. */
export function writtenConstraints(s: Pick<SnapshotRecord, "constraints" | "compressed">): string[] {
  const original = s.compressed?.original_constraints;
  return Array.isArray(original) && original.every((c) => typeof c === "string")
    ? [...original]
    : [...s.constraints];
}
