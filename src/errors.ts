// Errors that reach the person running a command. A UserError is the user's to fix (exit 1);
// anything else is ours (exit 2). Messages are one clear sentence.

export class UserError extends Error {
  readonly exitCode = 1;
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(shortQuotes(message));
    this.name = "UserError";
  }
}

/** The longest quoted value a message repeats whole. */
const QUOTE_MAX = 200;

/**
 * A message that repeats a long value it was given (a 1 MB snapshot id, a pasted file as a name)
 * keeps its start and says how long it was: one sentence, not the value back.
 */
function shortQuotes(message: string): string {
  if (message.length <= QUOTE_MAX * 2) return message;
  return message.replace(/"(?:[^"\\]|\\.)*"/g, (q) => {
    if (q.length <= QUOTE_MAX) return q;
    let length = q.length - 2;
    try {
      length = [...(JSON.parse(q) as string)].length;
    } catch {
      // (Not JSON's quoting: count what is between the quotes.)
    }
    // Never half an escape or half a surrogate pair.
    const start = q
      .slice(0, QUOTE_MAX / 2)
      .replace(/\\u?[0-9a-fA-F]{0,3}$|\\+$/, "")
      .replace(/[\ud800-\udbff]$/, "");
    return `${start}…" (${length} characters)`;
  });
}

/** What a person who pressed Ctrl-C or Ctrl-D at a prompt reads: their choice, not our failure. */
export const CANCELLED = "Cancelled; nothing was changed.";

export function isUserError(e: unknown): e is UserError {
  return e instanceof UserError;
}
