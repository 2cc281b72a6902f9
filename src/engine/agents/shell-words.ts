// What a shell command line says, as far as a snapshot needs it: the commands it chains and their
// words, whether it only looks around (ls, cat, grep …), whether it is known to change nothing (a
// look around or git reading, without a redirection into a file). Words only: nothing is run.

/** The commands that only look around. */
export const LOOK_AROUND = [
  ...["ls", "cat", "head", "tail", "less", "more", "grep", "egrep", "rg", "ag", "find", "fd", "pwd", "echo"],
  ...["printf", "which"],
  ...["whereis", "type", "stat", "file", "tree", "wc", "du", "df", "sort", "uniq", "cut", "tr", "sed", "awk"],
];
const LOOKING = new Set(LOOK_AROUND);

/** The commands a shell line chains (`&&`, `||`, `|`, `;`, a new line), each as its words without quotes. */
export const commandsOf = (line: string): string[][] =>
  line
    .split(/&&|\|\||[|;()\n]/)
    .map((c) => c.split(/\s+/).map((w) => w.replace(/^["'`]+|["'`,]+$/g, "")))
    .map((ws) => ws.filter(Boolean))
    .filter((ws) => ws.length > 0);

/** A redirection into a file (`> out.txt`, `>> log`), not `2>&1` nor `> /dev/null`. */
const INTO_FILE = /(?:^|[^<>&\d])\d?>>?\s*(?!&|\/dev\/null\b)[^\s&|;]/;

// A look-around command told to change files: `sed -i`, `find -delete` or `find -exec`.
const toldToWrite = (ws: string[]): boolean =>
  (ws[0] === "sed" && ws.some((w) => /^-i/.test(w))) ||
  (ws[0] === "find" && ws.some((w) => w === "-delete" || w.startsWith("-exec")));

// git's subcommands that only read the repository.
const GIT_READS = new Set(["log", "status", "diff", "show", "blame", "rev-parse", "ls-files", "grep"]);

/** Whether one command (its words) is known to change nothing: a look around, or git reading. */
const commandReads = (ws: string[]): boolean =>
  (LOOKING.has(ws[0]) && !toldToWrite(ws)) || (ws[0] === "git" && GIT_READS.has(ws[1]));

/**
 * Whether a command line is known to change nothing, as far as its words tell. An unknown command
 * (a script, make, a deploy) may change anything, so it is not: a session that ran one did work.
 */
export const readsOnly = (line: string): boolean =>
  !INTO_FILE.test(line) && commandsOf(line).every(commandReads);
