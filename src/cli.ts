// The command line: options and help for every command, declared here so `--help` costs nothing;
// each command's work lives in its own module under commands/, loaded only when it runs.
import { Command, CommanderError, Option } from "commander";
import {
  collect,
  dashWordHint,
  groupDefault,
  lazy,
  needsSnapshot,
  parseCount,
  parseRatio,
  snapshotKey,
  tagName,
} from "./cli-parts.ts";
import { addMemoryCommands } from "./cli-memory.ts";
import { commandWord, declareOnly, declares } from "./cli-only.ts";
import { writeErr } from "./lib/out.ts";
import { printable } from "./lib/text.ts";
import { UserError } from "./errors.ts";
import { VERSION } from "./version.ts";

/** Commander's error as one line starting with a capital, like MindSave's own messages. */
function sentence(s: string): string {
  const line = s
    .replace(/^error: /, "")
    .trim()
    .replace(/\s*\n\s*/g, " ")
    .replace(/\.$/, "");
  return line.charAt(0).toUpperCase() + line.slice(1);
}

/** For help texts only (the engine's registry checks the name): the agents `--agent` takes. */
const AGENT_NAMES = "claude, codex, gemini, copilot, cursor, cline, opencode";

/** The groups of commands, in the order `--help` lists them. */
const COMMAND_GROUPS: ((program: Command) => void)[] = [
  addSaveGameCommands,
  addSnapshotsCommands,
  addProjectsCommands,
  addFailureCommands,
  addMemoryCommands,
  addSignalCommand,
  addDriveCommands,
  addHookCommands,
  addAgentCommands,
  addExchangeCommands,
  addMcpCommands,
  addStoreCommands,
];

/** With `json`, commander's own error text is held back: runCli prints the error as JSON. */
export function buildProgram(opts: { json?: boolean; only?: string } = {}): Command {
  const program = rootProgram(opts.json);
  if (opts.only) declareOnly(program, opts.only);
  for (const addGroup of COMMAND_GROUPS) {
    addGroup(program);
    // Declaring only one command: the groups after its own would declare nothing.
    if (opts.only && declares(program, opts.only)) break;
  }
  strictSubcommands(program);
  return program;
}

/**
 * A group (`snapshots`, `rules`…) takes any words, so that its default action can name an unknown
 * command; its commands inherit that from commander, and must not: `snapshots clean 3` would run
 * with the 3 dropped.
 */
function strictSubcommands(program: Command): void {
  for (const group of program.commands) for (const cmd of group.commands) cmd.allowExcessArguments(false);
}

/** The program with its global options, help and one-line usage errors, before any command. */
function rootProgram(json: boolean | undefined): Command {
  return (
    new Command("mindsave")
      .description("A portable save game for AI coding agents: save and restore an agent's working state.")
      .version(VERSION, "-V, --version", "print the version and exit")
      .option(
        "--home <dir>",
        "the MindSave home (directory holding mindsave.db); default: MINDSAVE_HOME, the drive beside the binary, or ~/.mindsave",
      )
      .option(
        "--workspace <dir>",
        "the workspace root to use instead of resolving it from the current directory",
      )
      // Not --project: `hooks install --project` (the flag) means the project's settings file.
      .option(
        "--in <project>",
        "act on this project (id, name, or its folder's name on this host) instead of the current directory's",
      )
      .option("--json", "print JSON for machines instead of text")
      .configureHelp({ sortSubcommands: false, showGlobalOptions: true })
      // Set before the subcommands are added: they inherit these settings when created. A usage
      // error is one line, a sentence as MindSave's own: "mindsave: Unknown command 'lod' (Did you mean load?); run with --help for usage."
      .configureOutput({
        writeErr: (s) => void (json || writeErr(s)),
        outputError: (s, write) => write(`mindsave: ${sentence(s)}; run with --help for usage.\n`),
      })
      .exitOverride()
  );
}

/** The save game itself: the TUI, save, load and recall. */
function addSaveGameCommands(program: Command): void {
  program
    .command("ui")
    .description(
      "The terminal UI: projects, snapshot picker, snapshot view, failure graph (also `mindsave` alone)",
    )
    .action(lazy(() => import("./commands/ui.ts")));

  program
    .command("save")
    .description("Save a snapshot: YAML on stdin or --file (front matter + markdown Layer 3), or flags")
    .option("-f, --file <path>", "read the snapshot from a file ('-' for stdin)")
    .option("--goal <text>", "Layer 1: the task's objective, one sentence")
    .option("--state <text>", "Layer 1: current status, one sentence")
    .option("--next <text>", "Layer 1: the immediate next step")
    .option("--active-file <path>", "Layer 1: a file being worked on (repeatable)", collect)
    .option("--blocker <text>", "Layer 1: what blocks progress, or 'none'")
    .option("--constraint <text>", "Layer 2: a user preference or rule (repeatable)", collect)
    .option("--decision <text>", "Layer 2: a decision taken (repeatable)", collect)
    .option(
      "--failed <text>",
      "Layer 2: a rejected approach, legacy excluded_paths style (repeatable)",
      collect,
    )
    .option("--topic <slug>", "topic for the snapshot id (default: from the goal)")
    .option(
      "--status <status>",
      "in_progress, completed or blocked (default: blocked when there is a blocker, else in_progress)",
    )
    .option("--tag <tag>", "a tag to list, recall and filter by (repeatable)", (v, all: string[]) =>
      collect(tagName(v), all),
    )
    .option("--overflow", "write an L1-only OVF_ snapshot (context overflow)")
    .option("--keep <n>", "snapshots left listed per project (older ones are archived, never deleted)", (v) =>
      parseCount("--keep", v),
    )
    .action(lazy(() => import("./commands/save.ts")));

  program
    .command("load")
    .description("Print the restore block of a snapshot (Layer 1 + Layer 2 + failures, ≤800 tokens)")
    .argument("[snapshot]", "snapshot id, name prefix, or list number (1 = newest)", snapshotKey)
    .option("--latest", "load the newest snapshot without asking")
    .option("--verify", "report active files that are missing or changed since the snapshot")
    .option("--full", "every active file and all of Layer 2, even over the 800-token budget")
    .action(lazy(() => import("./commands/load.ts")));

  dashWordHint(program.command("recall"))
    .description("Without a keyword: a snapshot's Layer 3 (cold archive). With one: search every snapshot")
    .argument("[keyword...]", "words to search for (all must match)")
    .option("--snapshot <id>", "the snapshot whose Layer 3 to show (default: the newest)", snapshotKey)
    .option("--all-projects", "search every project in the store")
    .option("--tools", "the project's tool log instead (the newest --limit calls)")
    .option(
      "--tag <tag>",
      "only snapshots with this tag (without a keyword: the newest tagged one's Layer 3)",
      tagName,
    )
    .option("--limit <n>", "at most this many hits", (v) => parseCount("--limit", v), 20)
    .action(lazy(() => import("./commands/recall.ts")));
}

/** `snapshots` and its commands: list, inspect, archive and prune; `tags`, the tags they carry. */
function addSnapshotsCommands(program: Command): void {
  const snapshots = program
    .command("snapshots")
    .allowExcessArguments(true)
    .description("List, inspect, archive and prune snapshots (alone: list)")
    .option("--limit <n>", "show at most this many (a page; 50 unless given)", (v) =>
      parseCount("--limit", v),
    )
    .option("--page <n>", "the page to show (1, the newest, unless given)", (v) => parseCount("--page", v))
    .option("--tag <tag>", "only snapshots with this tag", tagName)
    .option("--all", "archived snapshots too (retention leaves them out of the list)")
    .action(groupDefault(() => import("./commands/snapshots.ts").then((m) => ({ run: m.list }))));
  snapshots
    .command("list")
    .description("Snapshots of the project, newest first")
    .option("--limit <n>", "show at most this many (a page; 50 unless given)", (v) =>
      parseCount("--limit", v),
    )
    .option("--page <n>", "the page to show (1, the newest, unless given)", (v) => parseCount("--page", v))
    .option("--tag <tag>", "only snapshots with this tag", tagName)
    .option("--all", "archived snapshots too (retention leaves them out of the list)")
    .action(lazy(() => import("./commands/snapshots.ts").then((m) => ({ run: m.list }))));
  snapshots
    .command("stats")
    .description("Count, size and layer distribution")
    .action(lazy(() => import("./commands/snapshots.ts").then((m) => ({ run: m.stats }))));
  snapshots
    .command("clean")
    .description(
      "Apply retention now: archive completed snapshots older than 30 days and all but the newest N (nothing is deleted)",
    )
    .option("--keep <n>", "snapshots to keep listed", (v) => parseCount("--keep", v), 20)
    .option("--dry-run", "show what would be archived")
    .action(lazy(() => import("./commands/snapshots.ts").then((m) => ({ run: m.clean }))));
  snapshots
    .command("prune")
    .description(
      "Delete archived snapshots for good (lists them, then asks; never the newest or what load restores)",
    )
    .option("--older-than <age>", "only those saved more than this long ago, in days or weeks (90d, 12w)")
    .option("--status <status>", "only those of this status (in_progress, completed, blocked)")
    .option("--dry-run", "list what would be deleted, delete nothing")
    .option("--yes", "delete without asking (needed without a terminal)")
    .action(lazy(() => import("./commands/snapshots.ts").then((m) => ({ run: m.prune }))));
  snapshots
    .command("show")
    .description("A whole snapshot in the spec's file format (front matter + Layer 3)")
    .argument("[snapshot]", "snapshot id, name prefix, or list number (default: newest)", snapshotKey)
    .action(lazy(() => import("./commands/snapshots.ts").then((m) => ({ run: m.show }))));
  needsSnapshot(snapshots.command("complete"))
    .description("Mark a snapshot completed")
    .argument("<snapshot>", "snapshot id, name prefix, or list number", snapshotKey)
    .action(lazy(() => import("./commands/snapshots.ts").then((m) => ({ run: m.complete }))));
  needsSnapshot(snapshots.command("delete"))
    .description("Delete a snapshot (on a terminal, says which and asks first)")
    .argument("<snapshot>", "snapshot id, name prefix, or list number", snapshotKey)
    .option("--yes", "delete without asking (without a terminal it never asks)")
    .action(lazy(() => import("./commands/snapshots.ts").then((m) => ({ run: m.remove }))));
  program
    .command("tags")
    .description(
      "The tags of the project's snapshots, each with how many carry it, most used first (ties by name); archived snapshots count only with --all",
    )
    .option("--all-projects", "every project's tags, project by project")
    .option("--all", "count archived snapshots too (as `snapshots list --all` shows them)")
    .action(lazy(() => import("./commands/tags.ts")));
}

/** `projects` and its commands: the store's projects and their roots on this host. */
function addProjectsCommands(program: Command): void {
  const projects = program
    .command("projects")
    .allowExcessArguments(true)
    .description("Projects in the store and their roots on this host (alone: list)")
    .action(groupDefault(() => import("./commands/projects.ts").then((m) => ({ run: m.list }))));
  projects
    .command("list")
    .description("Each project, its root on this host (or 'not on this host'), snapshot count")
    .action(lazy(() => import("./commands/projects.ts").then((m) => ({ run: m.list }))));
  projects
    .command("link")
    .description(
      "Merge another project and this one (same codebase tracked twice); the one made first keeps its name",
    )
    .argument("<other>", "the other project's id or name")
    .action(lazy(() => import("./commands/projects.ts").then((m) => ({ run: m.link }))));
  projects
    .command("split")
    .description("Make this checkout its own project (a fork or copy that shares history)")
    .action(lazy(() => import("./commands/projects.ts").then((m) => ({ run: m.split }))));
  projects
    .command("attach")
    .description(
      "Say which project this checkout is (of those sharing its history); nothing is renamed or merged",
    )
    .argument("<project>", "the project's id or name")
    .action(lazy(() => import("./commands/projects.ts").then((m) => ({ run: m.attach }))));
}

/** The failure graph: `fail` records a rejected approach, `failures` lists and forgets. */
function addFailureCommands(program: Command): void {
  program
    .command("fail")
    .description("Record a rejected approach in the failure graph (again: repeat_count + 1)")
    .argument("<item>", "what was rejected, e.g. Tailwind")
    .option("-r, --reason <text>", "why it failed (required the first time)")
    .addOption(new Option("--by <who>", "who rejected it").choices(["user", "system"]))
    .addOption(
      new Option("--scope <scope>", "project, or global (shown in every project)").choices([
        "project",
        "global",
      ]),
    )
    .addOption(
      new Option("--confidence <level>", "how sure (default: from repeats)").choices([
        "high",
        "medium",
        "low",
      ]),
    )
    .option("--related <item>", "a related item (repeatable)", collect)
    .option("--alt <item>", "an alternative to try instead (repeatable)", collect)
    .action(lazy(() => import("./commands/fail.ts")));

  const failures = program
    .command("failures")
    .allowExcessArguments(true)
    .description(
      "The failure graph: this project's and the global failures (`failures forget ITEM` removes one)",
    )
    .addOption(new Option("--scope <scope>", "only this scope").choices(["project", "global"]))
    .action(groupDefault(() => import("./commands/failures.ts")));
  failures
    .command("forget")
    .description("Remove a failure recorded by mistake")
    .argument("<item>", "the rejected item")
    .addOption(
      new Option("--scope <scope>", "which graph (default: the project's, else the global one)").choices([
        "project",
        "global",
      ]),
    )
    .action(lazy(() => import("./commands/failures.ts").then((m) => ({ run: m.forget }))));
}

/** The project's context pressure. */
function addSignalCommand(program: Command): void {
  program
    .command("signal")
    .description("The project's context pressure (GREEN/YELLOW/RED) and auto-save bookkeeping")
    .option("--ratio <r>", "record the context fill ratio (0–1)", (v) => parseRatio(v))
    .option("--tool-call [n]", "record tool calls (default 1)", (v) => parseCount("--tool-call", v))
    .option("--turn", "record a conversation turn")
    .option("--base-warning <r>", "set base_warning (0.50–0.70)", (v) =>
      parseRatio(v, [0.5, 0.7], "--base-warning"),
    )
    .option("--base-critical <r>", "set base_critical (0.70–0.90)", (v) =>
      parseRatio(v, [0.7, 0.9], "--base-critical"),
    )
    .action(lazy(() => import("./commands/signal.ts")));
}

/** A drive that carries MindSave, and this host's own copy of the binary. */
function addDriveCommands(program: Command): void {
  const drive = program
    .command("drive")
    .allowExcessArguments(true)
    .description("Set up a USB drive that carries MindSave and its store")
    .action(groupDefault(null));
  drive
    .command("init")
    .description("Lay out PATH/mindsave/: a binary per OS, launchers, an empty store, a README.txt")
    .argument("<path>", "the drive's mount point, e.g. /media/usb")
    .option("--from <dir>", "where the built binaries are (default: beside this binary, or dist/)")
    .option(
      "--encrypt",
      "create the drive's store encrypted (passphrase from MINDSAVE_PASSPHRASE, else asked)",
    )
    .action(lazy(() => import("./commands/drive.ts").then((m) => ({ run: m.init }))));

  program
    .command("install")
    .description("Copy this host's binary to ~/.mindsave/bin so agent hooks work without the drive")
    .option("--from <dir>", "where the built binaries are (default: this binary itself)")
    .action(lazy(() => import("./commands/install.ts")));
}

/** Agent hooks: installing them, running one event, and a transcript's tool calls. */
function addHookCommands(program: Command): void {
  const hooks = program
    .command("hooks")
    .allowExcessArguments(true)
    .description(
      "Agent hooks: restore at session start, snapshots before compaction, checkpoints (Claude Code, Codex, Gemini, Copilot, Cursor, Cline, opencode)",
    )
    .action(groupDefault(null));
  for (const [name, what] of [
    [
      "install",
      "Merge MindSave's hooks into an agent's hooks settings (idempotent; the file's formatting kept)",
    ],
    ["uninstall", "Remove exactly the hooks install added"],
  ] as const) {
    const sub = hooks
      .command(name)
      .description(what)
      .option(
        "--agent <agent>",
        `the agent: ${AGENT_NAMES}, or all (every agent found on this host); default claude`,
      )
      .option(
        "--project",
        "the project's file: .claude/settings.json, .codex/hooks.json, .gemini/settings.json, .github/hooks/mindsave.json, .cursor/hooks.json, .clinerules/hooks/, .opencode/plugins/mindsave.js",
      )
      .option(
        "--user",
        "the agent's per-user file (the default): ~/.claude/settings.json, ~/.codex/hooks.json, …",
      )
      .option(
        "--command <path>",
        "an absolute binary path for the hooks (default: ~/.mindsave/bin/mindsave, else mindsave on PATH, else nothing)",
      );
    if (name === "install")
      sub.option(
        "--trust",
        "Codex only: trust MindSave's hooks now through Codex's own mechanism (its app-server's hooks/list; the hashes go to config.toml)",
      );
    sub.action(lazy(() => import("./commands/hooks.ts").then((m) => ({ run: m[name] }))));
  }

  program
    .command("hook")
    .description("Run one hook event with its JSON on stdin (what the installed hooks call; always exits 0)")
    // Optional, so that a missing event is one line on stderr and exit 0 like a wrong one.
    .argument(
      "[event]",
      "session-start, user-prompt-submit, pre-tool-use, post-tool-use, post-tool-use-failure, pre-compact, stop or session-end",
    )
    // Not .choices(): an unknown agent must still exit 0 (a hook never breaks the agent).
    .option(
      "--agent <agent>",
      `whose hook payload this is and whose output shape to print: ${AGENT_NAMES} (default claude)`,
    )
    .addHelpText(
      "after",
      '\nThe payload is the agent\'s own hook JSON on stdin, as its hooks send it (`mindsave hooks install` writes them). README.md says what each agent sends: "Use it with Claude Code" (Try a hook by hand; what each hook does) and "Other agents" (each agent\'s events, with links to its hooks reference).',
    )
    .action(lazy(() => import("./commands/hook.ts")));

  program
    .command("ingest")
    .description(
      "Append an agent transcript's tool calls to the project's tool log (Layer 3, secrets redacted): Claude Code, Codex CLI, Gemini CLI, Copilot CLI or Cursor, told by its first record",
    )
    .argument("<transcript>", "a transcript file (.jsonl, or Gemini CLI's older .json)")
    .action(lazy(() => import("./commands/ingest.ts")));
}

/** What an agent is taught (the skill) and what MindSave has installed in each agent. */
function addAgentCommands(program: Command): void {
  program
    .command("skill")
    .description(
      "Print the SKILL.md that teaches any agent to use mindsave; --install writes it for Claude Code, or with --agent another agent's instructions file",
    )
    .option(
      "--install",
      "write it to ~/.claude/skills/mindsave/SKILL.md, with /save, /load, /recall, /snapshots and /auto-snapshot",
    )
    .option("--uninstall", "remove exactly the skills (or the instructions section) --install wrote")
    .option(
      "--agent <agent>",
      `the agent whose instructions file to write: ${AGENT_NAMES} (default claude: the skill)`,
    )
    .option(
      "--project",
      "the project's instructions file (the default with --agent): AGENTS.md, GEMINI.md, .github/copilot-instructions.md, .clinerules/, .cursor/rules/",
    )
    .option("--user", "the agent's per-user instructions file (~/.codex/AGENTS.md, ~/.gemini/GEMINI.md, …)")
    .action(lazy(() => import("./commands/skill.ts")));

  program
    .command("agents")
    .description(
      "The coding agents on this host and what MindSave has installed in each (MCP server, instructions, hooks), current or not",
    )
    .action(lazy(() => import("./commands/agents.ts")));
}

/** The store's records in and out: the spec's `.mindsave/` layout, and other stores. */
function addExchangeCommands(program: Command): void {
  program
    .command("import")
    .description(
      "Import a workspace's .mindsave/ written by the original MindSave skill or SDK (snapshots, failure graph, tool logs, signal.json)",
    )
    .argument("<dir>", "the workspace root, or its .mindsave folder")
    .option(
      "--into <project>",
      "the project to import into (default: the one an export came from, else DIR's workspace)",
    )
    .option(
      "--restore-deleted",
      "bring back snapshots deleted in this store (by default an import leaves them deleted)",
    )
    .action(lazy(() => import("./commands/import.ts")));

  program
    .command("export")
    .description(
      "Write this project in the original MindSave's .mindsave/ layout (snapshots, index.json, failure graph, tool logs, signal.json)",
    )
    .option("--out <dir>", "where to write .mindsave/ (default: the workspace root)")
    .action(lazy(() => import("./commands/export.ts")));

  program
    .command("sync")
    .description("Merge this store with a drive, a home, a store file or a libSQL server, both ways")
    .argument(
      "[peer]",
      "a path (store file, home, or drive) or libsql://… / http://… (token from MINDSAVE_SYNC_TOKEN); default: the drive's local home, or known peers and mounted drives",
    )
    .option("--dry-run", "show what would change each way, change nothing")
    .option("--add-peer <path>", "remember a peer for plain `mindsave sync`")
    .option("--remove-peer <path|id>", "forget a peer (its store is untouched)")
    .option("--list-peers", "the peers this store knows")
    .action(lazy(() => import("./commands/sync.ts")));
}

/** The MCP server and its entry in an agent's settings. */
function addMcpCommands(program: Command): void {
  const mcp = program
    .command("mcp")
    .allowExcessArguments(true)
    .description(
      "Serve MindSave to an agent over MCP on stdio (tools: save, load, recall, list, fail, rules, fact, facts, retire, plan, diff; resource mindsave://restore-block; prompts: save, load, recall); `mcp install --agent NAME` adds it to an agent",
    )
    .action(groupDefault(() => import("./commands/mcp.ts")));
  for (const [name, what] of [
    [
      "install",
      "Add the `mindsave mcp` server to an agent's MCP settings (idempotent; the file's formatting kept)",
    ],
    ["uninstall", "Remove exactly the entry install added (the file back byte for byte while unchanged)"],
  ] as const) {
    mcp
      .command(name)
      .description(what)
      .requiredOption("--agent <agent>", `the agent: ${AGENT_NAMES}`)
      .option(
        "--project",
        "the project's MCP settings (.mcp.json, .codex/config.toml, .gemini/settings.json, …)",
      )
      .option("--user", "the agent's per-user MCP settings (the default)")
      .action(lazy(() => import("./commands/mcp.ts").then((m) => ({ run: m[name] }))));
  }
}

/** The store itself: its encryption, the secrets it holds, its health, its drive pulled out. */
function addStoreCommands(program: Command): void {
  for (const [name, what] of [
    [
      "encrypt",
      "Encrypt the home's store with a passphrase (MINDSAVE_PASSPHRASE, else asked); the old file is kept as a backup",
    ],
    [
      "decrypt",
      "Turn the home's encrypted store back into a plain one (its passphrase is needed); the old file is kept as a backup",
    ],
  ] as const) {
    program
      .command(name)
      .description(what)
      .action(lazy(() => import("./commands/encrypt.ts").then((m) => ({ run: m[name] }))));
  }

  program
    .command("scan")
    .description(
      "Look for secrets the store already holds (table, record, field, kind; never the secret); exit 1 when any are found",
    )
    .option(
      "--fix",
      "redact them in place, in one transaction, after a backup copy of the store (mindsave.db.bak-<time>, the newest 3 MindSave made kept); exit 0 once done",
    )
    .addHelpText(
      "after",
      "\nExit status: 0 when the store is clean (or --fix cleaned it), 1 when secrets were found.",
    )
    .action(lazy(() => import("./commands/scan.ts")));

  program
    .command("doctor")
    .description(
      "Which home is in use and why, the store's health, this host; what is wrong with a damaged store",
    )
    .option(
      "--full",
      "check every page of the store and the search index's own consistency (by default a quick check: a moment at any size)",
    )
    .option(
      "--repair",
      "recover what can be read of a damaged store into a new one (the damaged file is kept as a backup)",
    )
    .action(lazy(() => import("./commands/doctor.ts")));

  program
    .command("eject")
    .description(
      "Fold the store's journal into mindsave.db and check nothing is left waiting, so the drive can be pulled out",
    )
    .action(lazy(() => import("./commands/eject.ts")));
}

/** Runs the CLI and returns the exit code: 0 ok, 1 user error, 2 internal error. */
export async function runCli(argv: string[]): Promise<number> {
  // With --json the error is JSON too, so a machine reading stderr gets one shape.
  const json = argv.includes("--json");
  // Only the command being run is declared (see cli-only.ts); a word that is none gets them all.
  const only = commandWord(argv);
  let program = buildProgram({ json, only });
  if (only && !declares(program, only)) program = buildProgram({ json });
  try {
    await program.parseAsync(argv, { from: "user" });
    return Number(process.exitCode ?? 0);
  } catch (e) {
    return reportError(e, json);
  }
}

/** Prints why a run failed (as JSON with `json`) and returns its exit code: 1 for the user's mistake, 2 for ours. */
function reportError(e: unknown, json: boolean): number {
  if (e instanceof CommanderError) {
    // --help and --version end here with code 0; parse errors were already printed (not with --json).
    if (e.exitCode !== 0 && json)
      writeErr(JSON.stringify({ error: sentence(e.message), exit_code: 1 }) + "\n");
    return e.exitCode === 0 ? 0 : 1;
  }
  if (e instanceof UserError) {
    // A refusal may quote a peer's text (a goal, a host's name): shown without escape sequences.
    writeErr(
      json
        ? JSON.stringify({ error: e.message, exit_code: 1 }) + "\n"
        : `mindsave: ${printable(e.message)}\n`,
    );
    if (e.hint && !json) writeErr(`${printable(e.hint)}\n`);
    return 1;
  }
  const err = e as Error;
  if (json)
    writeErr(JSON.stringify({ error: `internal error: ${err?.message ?? String(e)}`, exit_code: 2 }) + "\n");
  else writeErr(`mindsave: internal error: ${err?.message ?? String(e)}\n`);
  if (process.env.MINDSAVE_DEBUG) writeErr(`${err?.stack ?? ""}\n`);
  return 2;
}
