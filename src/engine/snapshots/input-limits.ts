// What any text must be before it enters a snapshot: without control characters, and of a size
// whose tokens can be counted. Applied where text enters the engine: `input.ts` (YAML, flags, MCP
// fields, import), the transcript reader (hooks, ingest) and the MCP transport (every message).
//
// Control characters (C0 except tab, newline and carriage return; DEL; C1) are removed, not
// refused: a NUL cuts a field short in terminals and C libraries, escape codes would reach whoever
// loads the snapshot, and none of them carries meaning a later session needs. A Layer 1 field or a
// Layer 2 item over FIELD_MAX characters, or a Layer 3 over LAYER3_MAX, is refused with a
// UserError naming it, before anything counts its tokens (the budgets refuse far less anyway). A
// size is that of the text as stored: a private span (`private-spans.ts`) does not count, and a
// refusal never quotes one.
import { UserError } from "../../errors.ts";
import { byteSize } from "../../lib/text.ts";
import { withoutPrivate } from "./private-spans.ts";

/** The most characters of a Layer 1 field (goal, state, …, one active file) or a Layer 2 item. */
export const FIELD_MAX = 8 * 1024;
/** The most characters of Layer 3 (the markdown body, `layer3` and the fields kept aside). */
export const LAYER3_MAX = 4 * 1024 * 1024;

/**
 * The most bytes of one snapshot's document (a file given to `save`, stdin, one file of an import):
 * Layer 3 at its cap in the widest UTF-8 (3 bytes a character) and room for its fields. A larger
 * document could never be saved, so it is refused from its size, before it is read whole.
 */
export const DOCUMENT_MAX = 3 * LAYER3_MAX + 4 * 1024 * 1024;

/**
 * The most bytes of one JSON file of the original's layout (index.json of at most 20 entries, a
 * failure node, signal.json, rules/facts/retired.json). Parsed and imported, JSON of tiny objects
 * costs tens of times its size in memory, so a
 * larger one is left out, named in a warning.
 */
export const JSON_FILE_MAX = 1024 * 1024;

/**
 * The refusal of a document over DOCUMENT_MAX; `whole`: its size is known, else only that it is
 * more. `alone`: the sentence is the whole answer (it says nothing was saved).
 */
export function documentTooLarge(origin: string, size: number, whole: boolean, alone = true): UserError {
  const most = `its Layer 3 at most ${n(LAYER3_MAX)} characters`;
  const what = whole
    ? `${origin} is ${byteSize(size)}; a snapshot is at most ${byteSize(DOCUMENT_MAX)} (${most}), so it was not read.`
    : `${origin} is over ${byteSize(DOCUMENT_MAX)}, the most a snapshot may be (${most}); it was read no further.`;
  return new UserError(alone ? `${what} Nothing was saved.` : what);
}

// The C0 and C1 control characters but tab, newline and carriage return: what input may not carry in.
// eslint-disable-next-line no-control-regex -- these control characters are what the pattern is for
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** How many control characters were taken out (see stripControlDeep's `tally`). */
export interface ControlTally {
  dropped: number;
}

/** `text` without control characters other than tab, newline and carriage return; `tally` counts them. */
export function stripControl(text: string, tally?: ControlTally): string {
  const out = text.replace(CONTROL, "");
  if (tally) tally.dropped += text.length - out.length;
  return out;
}

/** The warning a save gives when it took control characters out: nothing is changed silently. */
export function controlWarning(tally: ControlTally): string[] {
  const n = tally.dropped;
  return n
    ? [
        `Took out ${n} control character${n === 1 ? "" : "s"} (NUL, ESC and the like, which a terminal or an agent would act on); the rest is saved as written.`,
      ]
    : [];
}

/** The deepest nesting of lists and mappings a snapshot's input may have. */
export const MAX_DEPTH = 64;

/** Every string in a value (mapping keys too) without control characters; other values as they are. `tally` counts them. */
export function stripControlDeep<T>(value: T, tally?: ControlTally, depth = 0): T {
  if (typeof value === "string") return stripControl(value, tally) as T;
  if (!value || typeof value !== "object" || value instanceof Date) return value;
  if (depth >= MAX_DEPTH)
    throw new UserError(
      `The input is nested more than ${MAX_DEPTH} levels deep; a snapshot's fields are text, lists and mappings of text.`,
    );
  if (Array.isArray(value)) return value.map((v) => stripControlDeep(v, tally, depth + 1)) as T;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [stripControl(k, tally), stripControlDeep(v, tally, depth + 1)]),
  ) as T;
}

/** The fields of a snapshot's input that are measured. */
export interface SizedInput {
  goal: string;
  state: string;
  next_action: string;
  blocker: string;
  topic?: string;
  active_files: string[];
  constraints: string[];
  decisions: string[];
  excluded_paths: string[];
  failure_graph: Record<string, object>;
  layer3: string;
  extra: Record<string, unknown>;
}

const n = (x: number) => x.toLocaleString("en-US");

function tooLong(field: string, length: number, max: number, rule: string): void {
  if (length <= max) return;
  const advice = rule.startsWith("Layer 3")
    ? "Keep the archive to what a later session needs."
    : "Shorten it, or move the details to Layer 3 (the markdown body).";
  throw new UserError(
    `${field} is ${n(length)} characters; ${rule} at most ${n(max)} (${n(max / 1024)} KB). ${advice} Nothing was saved.`,
  );
}

/** A text's length as stored: without its private spans. */
const size = (text: string) => withoutPrivate(text).length;

/** Refuses a field too long to be a snapshot's, naming it; cheap (no token is counted). */
export function checkSizes<T extends SizedInput>(input: T): T {
  const l1 = "Layer 1 fields are",
    l2 = "Layer 2 items are";
  for (const f of ["goal", "state", "next_action", "blocker", "topic"] as const)
    tooLong(f, size(input[f] ?? ""), FIELD_MAX, l1);
  input.active_files.forEach((f, i) => tooLong(`active_files[${i}]`, size(f), FIELD_MAX, l1));
  for (const f of ["constraints", "decisions", "excluded_paths"] as const)
    input[f].forEach((item, i) => tooLong(`${f}[${i}]`, size(item), FIELD_MAX, l2));
  for (const [item, entry] of Object.entries(input.failure_graph)) {
    tooLong("a failure_graph item", size(item), FIELD_MAX, l2);
    const shown = JSON.stringify(withoutPrivate(item).slice(0, 40));
    for (const [k, v] of Object.entries(entry ?? {})) {
      if (typeof v === "string") tooLong(`failure_graph[${shown}].${k}`, size(v), FIELD_MAX, l2);
    }
  }
  // Fields the spec does not define are kept with Layer 3, so they count towards its size.
  const extra = Object.keys(input.extra).length ? size(JSON.stringify(input.extra)) : 0;
  tooLong(
    "Layer 3 (the markdown body, layer3 and fields kept aside)",
    size(input.layer3) + extra,
    LAYER3_MAX,
    "Layer 3 is",
  );
  return input;
}
