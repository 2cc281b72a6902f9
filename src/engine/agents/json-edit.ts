// Adding one property to a JSON/JSONC settings file someone else owns, touching nothing else:
// `jsonc-parser` finds where (comments, trailing commas and odd layouts included); the text we add
// follows the file's own indentation and line endings. The insertions are returned, so that the
// caller can record them and take exactly them out again while the file is unchanged. When it has
// changed since, `cutOut` removes an entry by its key (with its parent, `removeProperty`).
import * as jsonc from "jsonc-parser";
import type { Node, ParseError } from "jsonc-parser";
import { UserError } from "../../errors.ts";

/** One insertion, at an offset of the text after all insertions (so undoing is cutting slices). */
export interface Insertion {
  at: number;
  text: string;
}

interface Style {
  unit: string;
  eol: string;
}

function styleOf(text: string): Style {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const m = /\n([ \t]+)\S/.exec(text);
  const unit = !m ? "  " : m[1].startsWith("\t") ? "\t" : " ".repeat(Math.min(m[1].length, 8));
  return { unit, eol };
}

/** Parses JSONC (comments and trailing commas allowed); a file we cannot read is never rewritten. */
export function readJsonc(text: string, path: string): unknown {
  if (!text.trim()) return {};
  const errors: ParseError[] = [];
  const value = jsonc.parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length || !value || typeof value !== "object" || Array.isArray(value)) {
    throw new UserError(
      `${path} is not a JSON object MindSave can read; fix it first (MindSave will not rewrite a file it cannot read).`,
    );
  }
  return value;
}

/** The value at `keys`, or undefined. */
export function valueAt(text: string, keys: (string | number)[]): unknown {
  const root = jsonc.parseTree(text, [], { allowTrailingComma: true });
  const node = root && jsonc.findNodeAtLocation(root, keys);
  return node
    ? jsonc.parse(text.slice(node.offset, node.offset + node.length), [], { allowTrailingComma: true })
    : undefined;
}

const lineStart = (text: string, at: number) => text.lastIndexOf("\n", at - 1) + 1;
const indentAt = (text: string, at: number) => /^[ \t]*/.exec(text.slice(lineStart(text, at)))![0];

function render(value: unknown, indent: string, s: Style): string {
  return JSON.stringify(value, null, s.unit)
    .split("\n")
    .join(s.eol + indent);
}

/** Applies insertions given at offsets of the original text; returns the new text and the insertions at offsets of it. */
function apply(
  text: string,
  edits: { offset: number; text: string }[],
): { text: string; insertions: Insertion[] } {
  const sorted = [...edits].sort((a, b) => a.offset - b.offset);
  let out = "";
  let from = 0;
  const insertions: Insertion[] = [];
  for (const e of sorted) {
    out += text.slice(from, e.offset);
    insertions.push({ at: out.length, text: e.text });
    out += e.text;
    from = e.offset;
  }
  return { text: out + text.slice(from), insertions };
}

/**
 * `text` with `value` at `keys` (the objects on the way created as needed). The property must not
 * exist yet; `replaceValue` updates one that does.
 */
export function insertProperty(
  text: string,
  keys: string[],
  value: unknown,
  path: string,
): { text: string; insertions: Insertion[] } {
  readJsonc(text, path);
  const s = styleOf(text);
  if (!text.trim()) {
    let v: unknown = value;
    for (const k of [...keys].reverse()) v = { [k]: v };
    return apply(text, [{ offset: 0, text: render(v, "", s) + s.eol }]);
  }
  const root = jsonc.parseTree(text, [], { allowTrailingComma: true })!;
  let container: Node = root;
  let depth = 0;
  while (depth < keys.length - 1) {
    const next = jsonc.findNodeAtLocation(container, [keys[depth]]);
    if (!next) break;
    if (next.type !== "object")
      throw new UserError(
        `${path}: "${keys.slice(0, depth + 1).join(".")}" is not an object; MindSave will not change it.`,
      );
    container = next;
    depth++;
  }
  let v: unknown = value;
  for (const k of keys.slice(depth + 1).reverse()) v = { [k]: v };
  const name = keys[depth];
  const props = container.children ?? [];
  if (!props.length) {
    // `{}` or `{ }` or `{\n}`: the property goes on its own line after the brace.
    const outer = indentAt(text, container.offset);
    const inner = outer + s.unit;
    const close = container.offset + container.length - 1;
    const between = text.slice(container.offset + 1, close);
    const tail = /^\s*$/.test(between) && between.includes("\n") ? "" : s.eol + outer;
    const edit = {
      offset: container.offset + 1,
      text: `${s.eol}${inner}${JSON.stringify(name)}: ${render(v, inner, s)}${tail}`,
    };
    return apply(text, [edit]);
  }
  const last = props[props.length - 1];
  const end = last.offset + last.length;
  const inner = indentAt(text, last.offset);
  const lineEnd = (() => {
    const n = text.indexOf("\n", end);
    return n === -1 ? text.length : text[n - 1] === "\r" ? n - 1 : n;
  })();
  const rest = text.slice(end, lineEnd);
  const comma = /^\s*,/.exec(rest);
  const onItsOwnLine =
    /^\s*,?\s*(\/\/.*)?$/.test(rest) && lineStart(text, last.offset) !== lineStart(text, container.offset);
  const prop = `${JSON.stringify(name)}: ${render(v, inner, s)}`;
  if (onItsOwnLine) {
    // After the last property's line (a comment at its end stays with it), keeping a trailing comma style.
    // The comma first: at the same offset (no comment after the value) it must come before the new line.
    const line = { offset: lineEnd, text: `${s.eol}${inner}${prop}${comma ? "," : ""}` };
    return apply(text, comma ? [line] : [{ offset: end, text: "," }, line]);
  }
  const compact = `${JSON.stringify(name)}: ${JSON.stringify(v)}`;
  return apply(text, [
    comma ? { offset: end + comma[0].length, text: ` ${compact},` } : { offset: end, text: `, ${compact}` },
  ]);
}

/** Cuts the insertions out at the offsets given; null when one of them is not there. */
function cut(text: string, insertions: Insertion[]): string | null {
  let out = text;
  for (const i of [...insertions].sort((a, b) => b.at - a.at)) {
    if (out.slice(i.at, i.at + i.text.length) !== i.text) return null;
    out = out.slice(0, i.at) + out.slice(i.at + i.text.length);
  }
  return out;
}

/**
 * Undoes insertions when the text is what they produced — also after edits elsewhere in the file
 * (another install's entry taken out, a setting changed) moved them: an insertion whose text occurs
 * once is found where it is now, and a short one (a comma) moves with its nearest such neighbour.
 * Null when they cannot all be found that way: the caller then removes its entries by key.
 */
export function undoInsertions(text: string, insertions: Insertion[]): string | null {
  const exact = cut(text, insertions);
  if (exact !== null || !insertions.length) return exact;
  const sorted = [...insertions].sort((a, b) => a.at - b.at);
  const shifts = sorted.map((i) => {
    const at = text.indexOf(i.text);
    return i.text.length >= 8 && at !== -1 && at === text.lastIndexOf(i.text) ? at - i.at : null;
  });
  const moved: Insertion[] = [];
  for (let k = 0; k < sorted.length; k++) {
    const near = [
      k,
      ...sorted
        .map((_, j) => j)
        .filter((j) => j !== k)
        .sort((a, b) => Math.abs(a - k) - Math.abs(b - k) || b - a),
    ].find((j) => shifts[j] !== null);
    if (near === undefined) return null;
    moved.push({ at: sorted[k].at + shifts[near]!, text: sorted[k].text });
  }
  // Edits may not fall between our pieces: offsets must still be in order and not overlap.
  for (let k = 1; k < moved.length; k++)
    if (moved[k].at < moved[k - 1].at + moved[k - 1].text.length) return null;
  return cut(text, moved);
}

/**
 * `text` with the value at `keys` (which must exist) replaced by `value`, laid out as its place
 * is: on one line inside a container written on one line, else indented like the value it replaces.
 */
export function replaceValue(text: string, keys: (string | number)[], value: unknown): string {
  const node = jsonc.findNodeAtLocation(jsonc.parseTree(text, [], { allowTrailingComma: true })!, keys)!;
  const container = node.parent?.type === "property" ? node.parent.parent! : node.parent!;
  const oneLine = !/[\r\n]/.test(text.slice(container.offset, container.offset + container.length));
  const laid = oneLine ? JSON.stringify(value) : render(value, indentAt(text, node.offset), styleOf(text));
  return text.slice(0, node.offset) + laid + text.slice(node.offset + node.length);
}

/**
 * `text` without the property or element at `keys`, cut out with what separates it from its
 * neighbour and nothing else touched: the inverse of adding it. (jsonc-parser's `modify` lays out
 * what it touches again, and in a file written on one line it can leave brackets unmatched.)
 */
export function cutOut(text: string, keys: (string | number)[]): string {
  const node = jsonc.findNodeAtLocation(jsonc.parseTree(text, [], { allowTrailingComma: true })!, keys)!;
  const item = node.parent?.type === "property" ? node.parent : node;
  const container = item.parent!;
  const siblings = container.children!;
  const i = siblings.indexOf(item);
  const end = item.offset + item.length;
  if (i > 0) {
    const prev = siblings[i - 1];
    return text.slice(0, prev.offset + prev.length) + text.slice(end);
  }
  if (siblings.length > 1) return text.slice(0, item.offset) + text.slice(siblings[1].offset);
  return text.slice(0, container.offset + 1) + text.slice(container.offset + container.length - 1);
}

/** `text` without the property at `keys`; with `dropEmptyParent`, its parent too when nothing else is left in it. */
export function removeProperty(text: string, keys: (string | number)[], dropEmptyParent: boolean): string {
  let out = cutOut(text, keys);
  const parent = keys.slice(0, -1);
  const left = parent.length ? valueAt(out, parent) : undefined;
  if (dropEmptyParent && left && typeof left === "object" && !Object.keys(left).length)
    out = cutOut(out, parent);
  return out;
}

/**
 * `text` with `value` appended to the array at `keys` (which must exist), laid out like the
 * array's other elements; the insertions undo it exactly (`undoInsertions`).
 */
export function appendElement(
  text: string,
  keys: (string | number)[],
  value: unknown,
  path: string,
): { text: string; insertions: Insertion[] } {
  const s = styleOf(text);
  const root = jsonc.parseTree(text, [], { allowTrailingComma: true });
  const array = root && jsonc.findNodeAtLocation(root, keys);
  if (!array || array.type !== "array")
    throw new UserError(`${path}: "${keys.join(".")}" is not a list; MindSave will not change it.`);
  const items = array.children ?? [];
  if (!items.length) {
    const outer = indentAt(text, array.offset);
    const inner = outer + s.unit;
    const between = text.slice(array.offset + 1, array.offset + array.length - 1);
    const tail = /^\s*$/.test(between) && between.includes("\n") ? "" : s.eol + outer;
    return apply(text, [
      { offset: array.offset + 1, text: `${s.eol}${inner}${render(value, inner, s)}${tail}` },
    ]);
  }
  const last = items[items.length - 1];
  const end = last.offset + last.length;
  const inner = indentAt(text, last.offset);
  const n = text.indexOf("\n", end);
  const lineEnd = n === -1 ? text.length : text[n - 1] === "\r" ? n - 1 : n;
  const rest = text.slice(end, lineEnd);
  const comma = /^\s*,/.exec(rest);
  // An element on a line of its own gets a line of its own; an array on one line stays on one line.
  if (/^\s*,?\s*(\/\/.*)?$/.test(rest) && lineStart(text, last.offset) !== lineStart(text, array.offset)) {
    const line = { offset: lineEnd, text: `${s.eol}${inner}${render(value, inner, s)}${comma ? "," : ""}` };
    return apply(text, comma ? [line] : [{ offset: end, text: "," }, line]);
  }
  const compact = JSON.stringify(value);
  return apply(text, [
    comma ? { offset: end + comma[0].length, text: ` ${compact},` } : { offset: end, text: `, ${compact}` },
  ]);
}
