// Approaches a session tried and abandoned (issue 35): a package, tool or library named by two
// different commands that both failed (`npm i redis`, then `yarn add redis`), after which the
// session moved on (another command worked) or ended, without that approach ever working. Read
// from a session's facts, a transcript's or the trail the hooks keep, so the hooks' snapshots and
// `ingest` find the same ones. The same command failing again is not a second way: that is the
// repeated failure session-notes.ts counts.
import { failureId, normaliseItem, observeFailure, observationFromEntry } from "../failures/graph.ts";
import { redactHead } from "../snapshots/redact.ts";
import { commandsOf, LOOK_AROUND, readsOnly } from "./shell-words.ts";
import type { Session } from "../session.ts";
import type { ToolUse, TranscriptFacts } from "./transcript.ts";
import type { FailureGraphEntry, StoreWriter } from "../../store/store.ts";

// The words that say how a command runs, not what it is about: runners, package managers, their
// verbs, and the commands that only look around (a pipe's `tail`, a `cd` before the command).
const HOW = new Set([
  ...LOOK_AROUND,
  ...["sudo", "env", "time", "npm", "npx", "pnpm", "pnpx", "yarn", "bun", "bunx", "deno", "node", "pip"],
  ...["pip3", "pipx", "python", "python3", "py", "uv", "uvx", "poetry", "conda", "mamba", "gem", "bundle"],
  ...["cargo", "go", "rustup", "apt", "apt-get", "brew", "dnf", "yum", "apk", "pacman", "choco", "winget"],
  ...["scoop", "composer", "mvn", "gradle", "dotnet", "make", "cmake", "docker", "podman", "git", "gh"],
  ...["curl", "wget", "sh", "bash", "zsh", "pwsh", "powershell", "cmd", "xargs", "tee", "sleep", "export"],
  ...["source", "cd", "mkdir", "touch", "cp", "mv", "rm", "chmod", "ln", "install", "i", "add", "remove"],
  ...["uninstall", "run", "exec", "dlx", "get", "update", "upgrade", "build", "test", "start", "init"],
  ...["create", "new", "global", "require", "import", "use", "from", "to", "and", "or", "the", "for", "in"],
  ...["of", "with", "true", "false", "null", "dev", "save", "up", "down", "pull", "push", "clone", "config"],
  ...["set", "info", "show", "list", "ps", "compose", "status", "log", "diff", "version"],
]);

/** A word naming a file of the work (a path, a source file), not an approach to it. */
const FILE_WORD =
  /[/\\]|\.(?:[cm]?[jt]sx?|py|json|md|ya?ml|toml|lock|txt|sh|go|rs|rb|java|c|cpp|h|sql|css|html|vue)$/i;
/** A scoped package (`@types/node`): a slash that names no path. */
const SCOPED = /^@[\p{L}\p{N}._-]+\/[\p{L}\p{N}._-]+$/u;

/** A word as an approach is named: lower case, without its version (`redis@4`, `redis>=4`). */
function approachWord(raw: string): string | null {
  const scoped = SCOPED.test(raw.replace(/(?<=.)@[^@/]*$/, ""));
  const w = raw
    .normalize("NFC")
    .toLowerCase()
    .replace(/(?<=.)@[^@/]*$/, "")
    .replace(/[=<>~!^].*$/, "");
  if (w.length < 2 || w.startsWith("-") || /^[\d.]+$/.test(w) || HOW.has(w)) return null;
  if (!scoped && FILE_WORD.test(w)) return null;
  return /^[\p{L}\p{N}@]/u.test(w) ? w : null;
}

/** The significant words of a command: what it is about (packages, tools, libraries), in order, each once. */
export function approachWords(command: string): string[] {
  const words: string[] = [];
  for (const ws of commandsOf(command)) {
    const rest = ws.filter((w) => !/^\w+=/.test(w)); // FOO=1 before a command sets its environment
    if (rest[0] === "cd") continue; // where it ran, not what it ran
    for (const w of rest.map(approachWord)) if (w && !words.includes(w)) words.push(w);
  }
  return words;
}

interface Attempt {
  index: number;
  command: string;
  words: string[];
  use: ToolUse;
}

/** The session's commands in order, with their words (only commands name an approach). */
function attemptsOf(facts: TranscriptFacts): Attempt[] {
  return facts.tool_uses.flatMap((use, index) => {
    const command =
      typeof use.input.command === "string" ? use.input.command.replace(/\s+/g, " ").trim() : "";
    return command ? [{ index, command, words: approachWords(command), use }] : [];
  });
}

/** The failed commands each significant word is in, when at least two different commands are: the candidate approaches. */
function sharedWords(failed: Attempt[]): Map<string, Attempt[]> {
  const byWord = new Map<string, Attempt[]>();
  for (const a of failed) for (const w of a.words) byWord.set(w, [...(byWord.get(w) ?? []), a]);
  for (const [w, as] of byWord) if (new Set(as.map((a) => a.command)).size < 2) byWord.delete(w);
  return byWord;
}

/**
 * The approaches: words failed in the same commands are one approach (`redis ioredis`); one whose
 * failed commands all belong to a wider approach is part of it.
 */
function approaches(failed: Attempt[]): { words: string[]; failures: Attempt[] }[] {
  const groups = new Map<string, { words: string[]; failures: Attempt[] }>();
  for (const [w, as] of sharedWords(failed)) {
    const key = as.map((a) => a.index).join(",");
    const g = groups.get(key);
    if (g) g.words.push(w);
    else groups.set(key, { words: [w], failures: as });
  }
  const all = [...groups.values()];
  return all.filter(
    (g) =>
      !all.some(
        (o) =>
          o !== g && o.failures.length > g.failures.length && g.failures.every((a) => o.failures.includes(a)),
      ),
  );
}

/** The error a failed call gave, as the graph keeps a reason: one line, secrets redacted, bounded. */
const errorLine = (use: ToolUse) => redactHead((use.error ?? "").replace(/\s+/g, " ").trim(), 200);

/**
 * The approaches this session abandoned, as failure-graph entries (rejected by the system): named
 * by ≥2 different failed commands; never working later (a flaky command that then succeeded is no
 * failure); and the session moved on (a later command of another approach worked, not one that only
 * looked) or `ended`.
 */
export function abandonedApproaches(
  facts: TranscriptFacts,
  ended: boolean,
): Record<string, FailureGraphEntry> {
  const attempts = attemptsOf(facts);
  const worked = attempts.filter((a) => !a.use.is_error);
  const out: Record<string, FailureGraphEntry> = {};
  for (const { words, failures } of approaches(attempts.filter((a) => a.use.is_error))) {
    const [first, last] = [failures[0], failures.at(-1)!];
    const names = (a: Attempt) => a.words.some((w) => words.includes(w));
    if (worked.some((a) => a.index > first.index && names(a))) continue;
    const movedOn = worked.some((a) => a.index > last.index && !readsOnly(a.command));
    if (!movedOn && !ended) continue;
    const tried = [...new Set(failures.map((a) => `\`${a.command.slice(0, 80)}\``))].join(", ");
    const error = errorLine(last.use);
    out[words.join(" ")] = {
      rejected_by: "system",
      reason: redactHead(
        `tried ${failures.length} ways, each failed (${tried}), then abandoned${error ? `: ${error}` : ""}`,
        500,
      ),
      repeat_count: failures.length,
      scope: "project",
    };
  }
  return out;
}

/** The abandoned approaches the project's graph does not hold yet (or holds with fewer failures): what a save still has to record. */
export async function freshAbandoned(
  session: Session,
  projectId: string | null,
  found: Record<string, FailureGraphEntry>,
): Promise<Record<string, FailureGraphEntry>> {
  const fresh: Record<string, FailureGraphEntry> = {};
  for (const [item, e] of Object.entries(found)) {
    const known = projectId ? await session.store.getFailure(failureId("project", projectId, item)) : null;
    if (!known || known.deleted || known.repeat_count < Number(e.repeat_count)) fresh[item] = e;
  }
  return fresh;
}

/** Entries of `extra` whose items `graph` does not name already (failure items are told apart without case or spacing). */
export function besides(
  graph: Record<string, FailureGraphEntry>,
  extra: Record<string, FailureGraphEntry>,
): Record<string, FailureGraphEntry> {
  const have = new Set(Object.keys(graph).map(normaliseItem));
  return Object.fromEntries(Object.entries(extra).filter(([item]) => !have.has(normaliseItem(item))));
}

/** Records abandoned approaches straight into the project's graph, inside the caller's transaction (no snapshot to carry them). */
export async function recordAbandoned(
  w: StoreWriter,
  projectId: string,
  entries: Record<string, FailureGraphEntry>,
  now: Date,
): Promise<number> {
  for (const [item, e] of Object.entries(entries))
    await observeFailure(w, projectId, observationFromEntry(item, e), now);
  return Object.keys(entries).length;
}
