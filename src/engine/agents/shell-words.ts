// What a shell command line says, as far as a snapshot needs it: the commands it chains and their
// words, whether it only looks around (ls, cat, grep …), whether it writes files (a redirection
// into a file, touch, cp, sed -i, git commit, npm install …). Words only: nothing is run.

/** The commands that only look around. */
export const LOOK_AROUND = [
  ...["ls", "cat", "head", "tail", "less", "more", "grep", "rg", "find", "pwd", "echo", "printf", "which"],
  ...["whereis", "type", "stat", "file", "tree", "wc", "du", "df", "sort", "uniq", "cut", "tr", "sed", "awk"],
];
const LOOKING = new Set(LOOK_AROUND);

/** The commands a shell line chains (`&&`, `||`, `|`, `;`), each as its words without quotes. */
export const commandsOf = (line: string): string[][] =>
  line
    .split(/&&|\|\||[|;()]/)
    .map((c) => c.split(/\s+/).map((w) => w.replace(/^["'`]+|["'`,]+$/g, "")))
    .map((ws) => ws.filter(Boolean))
    .filter((ws) => ws.length > 0);

/** A command line that only looks (ls, cat, grep …): every command it chains does. */
export const looksOnly = (line: string): boolean => commandsOf(line).every((ws) => LOOKING.has(ws[0]));

const WRITERS = new Set([
  "touch",
  "mkdir",
  "cp",
  "mv",
  "rm",
  "rmdir",
  "tee",
  "ln",
  "chmod",
  "chown",
  "patch",
]);
const WRITERS_MORE = new Set(["truncate", "dd", "install", "unzip", "tar"]);
const GIT_WRITES = new Set([
  ...["commit", "add", "apply", "am", "checkout", "switch", "reset", "merge", "rebase", "cherry-pick"],
  ...["revert", "stash", "restore", "rm", "mv", "pull", "clean", "init", "clone"],
]);
const PACKAGE_MANAGERS = new Set([
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "pip",
  "pip3",
  "cargo",
  "gem",
  "composer",
  "uv",
]);
const PACKAGE_WRITES = new Set([
  "i",
  "install",
  "add",
  "remove",
  "uninstall",
  "rm",
  "update",
  "upgrade",
  "ci",
]);
/** A redirection into a file (`> out.txt`, `>> log`), not `2>&1` nor `> /dev/null`. */
const INTO_FILE = /(?:^|[^<>&\d])\d?>>?\s*(?!&|\/dev\/null\b)[^\s&|;]/;

/** Whether one command (its words) changes files. */
function commandWrites(ws: string[]): boolean {
  const [name, sub] = [ws[0], ws[1]];
  if (WRITERS.has(name) || WRITERS_MORE.has(name)) return true;
  if (name === "sed" && ws.some((w) => /^-i/.test(w))) return true;
  if (name === "git") return GIT_WRITES.has(sub);
  return PACKAGE_MANAGERS.has(name) && PACKAGE_WRITES.has(sub);
}

/** Whether a command line writes files, as far as its words tell. */
export function writesFiles(line: string): boolean {
  return INTO_FILE.test(line) || commandsOf(line).some(commandWrites);
}
