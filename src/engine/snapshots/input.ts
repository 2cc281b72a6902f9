// Reading a snapshot from the spec's format: YAML front matter (Layer 1 and Layer 2 fields) and a
// markdown body (Layer 3), or a plain YAML mapping; its fields are then read as any others
// (input-fields.ts, which everything else of the input is, and which this module passes on).
// The YAML is measured before it is parsed, and its aliases before they are expanded.
import {
  isAlias,
  isCollection,
  isMap,
  isPair,
  isScalar,
  Lexer,
  parseDocument,
  visit,
  YAMLParseError,
  type Document,
} from "yaml";
import { UserError } from "../../errors.ts";
import { trimLines } from "../../lib/text.ts";
import { FIELD_MAX, LAYER3_MAX } from "./input-limits.ts";
import { asWritten, planAsWritten } from "./plan.ts";
import { fromFields, KNOWN, type SnapshotInput } from "./input-fields.ts";

// A reader of the text form needs the fields' functions with it (flags over YAML, a status).
export * from "./input-fields.ts";

/** Splits `---\nfront matter\n---\nbody`; a document without front matter is all YAML. */
export function splitFrontMatter(source: string): { yaml: string; body: string; hasFrontMatter: boolean } {
  const src = source.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const m = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n([\s\S]*))?$/.exec(src);
  // The closing line break belongs to the YAML: a block scalar ending the front matter keeps its own.
  if (m) return { yaml: `${m[1]}\n`, body: trimLines(m[2] ?? ""), hasFrontMatter: true };
  return { yaml: src, body: "", hasFrontMatter: false };
}

export function parseSnapshotText(source: string, origin = "the snapshot"): SnapshotInput {
  if (!source.trim()) throw new UserError(`${origin} is empty; a snapshot needs at least a goal.`);
  const { yaml, body, hasFrontMatter } = splitFrontMatter(source);
  checkFrontMatter(yaml, origin);
  // A field given twice is refused, not decided by its last value (which one the writer meant is unknown).
  const doc = parseDocument(yaml, { prettyErrors: true });
  if (doc.errors.length) {
    const e = doc.errors[0];
    // Lines are counted in the whole input: front matter starts after its opening `---` (a
    // document without a closing one is all YAML, that line included).
    const offset = hasFrontMatter ? 1 : 0;
    const line = e instanceof YAMLParseError && e.linePos ? e.linePos[0].line + offset : null;
    const where = line === null ? "" : ` at line ${line}`;
    if (e.code === "DUPLICATE_KEY") {
      const key = yaml
        .slice(e.pos[0])
        .split("\n")[0]
        .replace(/\s*:(\s.*)?$/, "")
        .replace(/^["']|["']$/g, "");
      throw new UserError(
        `${origin} gives ${JSON.stringify(key)} twice${where ? ` (the second${where})` : ""}; give each field once.`,
      );
    }
    const what = e.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
    throw new UserError(`${origin} is not valid YAML${where}: ${what}.`.replace(/\.\.$/, "."));
  }
  if (hasAliases(doc) && expandedSize(doc) > EXPANDED_MAX) {
    throw new UserError(
      `${origin} uses YAML aliases (*name) that would expand it to more than ${EXPANDED_MAX / 1024 / 1024} MB of text; write the values out instead.`,
    );
  }
  textAsWritten(doc);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (e) {
    // Aliases that were never anchored, or so many that they look like a "billion laughs".
    throw new UserError(`${origin} is not valid YAML: ${(e as Error).message}.`.replace(/\.\.$/, "."));
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new UserError(`${origin} must be a YAML mapping of snapshot fields (goal, state, next_action, …).`);
  }
  return fromFields(data as Record<string, unknown>, body);
}

/** Fields of one text, and fields that list texts: what YAML reads there as a number or boolean is text. */
const TEXT_FIELDS = new Set([
  "goal",
  "state",
  "next_action",
  "blocker",
  "topic",
  "snapshot_id",
  "layer3",
  "active_files",
  "constraints",
  "decisions",
  "excluded_paths",
  "tags",
]);

/**
 * The snapshot's text fields as written: `tags: [1.10]` is the tag "1.10", not 1.1, and `goal: 1e3`
 * is "1e3", not "1000". So are failure items and their texts (not repeat_count) and plan steps.
 */
function textAsWritten(doc: Document): void {
  if (!isMap(doc.contents)) return;
  for (const pair of doc.contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : "";
    if (TEXT_FIELDS.has(key)) asWritten(pair.value);
    else if (key === "plan") planAsWritten(pair.value);
    else if (key === "failure_graph" && isMap(pair.value)) {
      for (const entry of pair.value.items) {
        asWritten(entry.key);
        if (isMap(entry.value))
          for (const f of entry.value.items)
            if (!(isScalar(f.key) && f.key.value === "repeat_count")) asWritten(f.value);
      }
    } else if (!KNOWN.has(key)) numbersAsWritten(pair.value);
  }
}

/**
 * A field of the writer's own, kept as it came: a number YAML would write back otherwise (`1.10`,
 * `0x1F`, `1e3`) is the text it was written with; `42`, `true` and `null` stay what they are.
 */
function numbersAsWritten(node: unknown): void {
  if (isScalar(node)) {
    if (
      typeof node.value === "number" &&
      typeof node.source === "string" &&
      node.source !== String(node.value)
    )
      node.value = node.source;
  } else if (isCollection(node)) {
    for (const item of node.items) numbersAsWritten(isPair(item) ? item.value : item);
  }
}

/**
 * The most characters of a snapshot's YAML (its front matter, or the whole of a plain YAML
 * mapping): Layer 3 written there at its cap, twice over for quoting. More could never be saved,
 * and parsing it would cost seconds and a multiple of its size in memory.
 */
const FRONT_MATTER_MAX = 2 * LAYER3_MAX;

/**
 * The most pieces (keys, values, list items, indicators: the YAML lexer's tokens) a snapshot's YAML
 * may have. Parsed, each costs hundreds of bytes of memory; a snapshot's fields are a few thousand
 * at most (Layer 2 fits in 500 tokens).
 */
const FRONT_MATTER_PIECES = 200_000;

/**
 * Refuses YAML too long, or of too many pieces, to be a snapshot's, before it is parsed: its size,
 * then (past FRONT_MATTER_PIECES characters, where there can be that many) its pieces counted by
 * the lexer, which holds none of them.
 */
export function checkFrontMatter(yaml: string, origin: string): void {
  const n = (x: number) => x.toLocaleString("en-US");
  if (yaml.length > FRONT_MATTER_MAX) {
    throw new UserError(
      `${origin} has ${n(yaml.length)} characters of YAML fields; a snapshot's are at most ${n(FRONT_MATTER_MAX)} (a Layer 1 field or Layer 2 item at most ${n(FIELD_MAX)}, Layer 3 at most ${n(LAYER3_MAX)}), so they were not read. Nothing was saved.`,
    );
  }
  if (yaml.length <= FRONT_MATTER_PIECES) return;
  let pieces = 0;
  for (const _ of new Lexer().lex(yaml)) {
    if (++pieces > FRONT_MATTER_PIECES) {
      throw new UserError(
        `${origin} has more than ${n(FRONT_MATTER_PIECES)} pieces of YAML (keys, values, list items); a snapshot's fields are far fewer, so they were not read. Put long lists in Layer 3 (the markdown body). Nothing was saved.`,
      );
    }
  }
}

/** Whether a document uses an alias (`*name`) anywhere: only then can it stand for more text than it holds. */
function hasAliases(doc: Document): boolean {
  let found = false;
  visit(doc, { Alias: () => ((found = true), visit.BREAK) });
  return found;
}

/** Alias uses (counting those inside aliased lists and mappings) a document may make: the yaml package's own default. */
const MAX_ALIASES = 100;
/** The most characters a snapshot's YAML may stand for once its aliases are expanded: more could never be saved. */
const EXPANDED_MAX = 2 * LAYER3_MAX;

/**
 * How many characters of text `doc` stands for with every alias expanded, counted on the parsed
 * nodes (each node once) before anything is built: a "billion laughs" of few aliases to long
 * strings is refused here, where the alias count alone would let it through. Stops counting past EXPANDED_MAX.
 */
function expandedSize(doc: Document): number {
  const known = new Map<object, number>();
  const open = new Set<object>();
  const size = (node: unknown): number => {
    if (!node || typeof node !== "object") return 0;
    if (isAlias(node)) {
      const target = node.resolve(doc);
      return target && !open.has(target) ? size(target) : 0;
    }
    const seen = known.get(node);
    if (seen !== undefined) return seen;
    let n = 1;
    if (isScalar(node)) n += String(node.value ?? "").length;
    else if (isPair(node)) n += size(node.key) + size(node.value);
    else if (isCollection(node)) {
      open.add(node);
      for (const item of node.items) if ((n += size(item)) > EXPANDED_MAX) break;
      open.delete(node);
    }
    known.set(node, n);
    return n;
  };
  return size(doc.contents);
}
