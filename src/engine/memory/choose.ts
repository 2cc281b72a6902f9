// Rules, facts and retirable items are chosen the same way: by their number in the list, or by
// their text. A number names a position, which moves when a sync or another agent adds an item;
// a piece of the text names the item itself, and one that fits several is refused, not guessed.
import { UserError } from "../../errors.ts";
import { normaliseItem } from "../failures/graph.ts";

export interface Choice<T> {
  /** What one item is called in messages: "rule", "fact", "constraint or decision". */
  what: string;
  /** The command that lists them, for the messages. */
  list: string;
  text: (item: T) => string;
  /** How an item is named among several candidates (default: its text). */
  label?: (item: T) => string;
  /** The sentence when there is nothing to choose from. */
  empty: string;
}

/** The item `key` names: a number from 1, its exact text, or a piece of text that fits exactly one. */
export function chooseItem<T>(items: T[], key: string, c: Choice<T>): T {
  const k = key.trim();
  if (!items.length) throw new UserError(c.empty);
  // "from 1 to 1" reads as a slip: with one item, its number is 1.
  const numbers =
    items.length === 1 ? `1 (there is only one ${c.what})` : `a number from 1 to ${items.length}`;
  if (/^\d+$/.test(k)) {
    const n = Number(k);
    if (n >= 1 && n <= items.length) return items[n - 1];
    throw new UserError(
      `There is no ${c.what} number ${k}; give ${numbers} or a piece of its text (see \`${c.list}\`).`,
    );
  }
  const norm = normaliseItem(k);
  if (!norm)
    throw new UserError(`Say which ${c.what}: give ${numbers} or a piece of its text (see \`${c.list}\`).`);
  const exact = items.filter((i) => normaliseItem(c.text(i)) === norm);
  if (exact.length === 1) return exact[0];
  const partial = exact.length ? exact : items.filter((i) => normaliseItem(c.text(i)).includes(norm));
  if (partial.length === 1) return partial[0];
  const label = c.label ?? c.text;
  if (partial.length > 1) {
    throw new UserError(
      `${JSON.stringify(k)} matches ${partial.length} items: ${partial.map((i) => `${items.indexOf(i) + 1}. ${label(i)}`).join("; ")}. Give its number or more of its text.`,
    );
  }
  throw new UserError(`No ${c.what} says ${JSON.stringify(k)}; see \`${c.list}\` for the list.`);
}
