// SKILL.md files: the main `mindsave` skill teaches any agent (Claude Code, Codex CLI, Cursor,
// Trae) to use the mindsave binary; for Claude Code one skill per command makes the spec's /save,
// /load, /recall, /snapshots and /auto-snapshot typeable (a skill folder `~/.claude/skills/NAME/`
// is the slash command `/NAME`). Install writes them all; uninstall removes exactly the ones it
// wrote (they carry a marker line), never a skill of the same name someone else wrote.
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { localBinary } from "./hooks.ts";
import { noteCreatedDirs, removeCreatedDirs } from "./hooks-manifest.ts";
import { writeFileAtomic } from "../../lib/fs.ts";

/** The line that marks a SKILL.md as written by `mindsave skill --install`. */
export const SKILL_MARKER =
  "<!-- written by `mindsave skill --install`; `mindsave skill --uninstall` removes it -->";

interface Section {
  /** The slash command's skill name (a folder under ~/.claude/skills), or null for a section of the main skill only. */
  command: string | null;
  description: string;
  hint?: string;
  /** The heading: of the Claude Code skill (slash commands), and of other agents' instructions. */
  heading: [string, string];
  /** `load` is how the user restores: /load in Claude Code, the CLI elsewhere. */
  body: (m: string, load: string) => string;
}

const SECTIONS: Section[] = [
  {
    command: "save",
    description:
      "MindSave /save: save the task's state (goal, state, next action, files, blocker; constraints, decisions, failures) as a snapshot.",
    hint: "[what to note]",
    heading: ["/save", "Save"],
    body: (
      m,
      load,
    ) => `Write the snapshot as YAML front matter plus a markdown body and pipe it in (stdin is read only when no field flag is given):

\`\`\`sh
${m} save <<'SNAPSHOT'
---
goal: "one sentence: the task's objective"
state: "one sentence: where it stands"
next_action: "one sentence: the immediate next step"
active_files: ["src/auth.ts"]
blocker: "none"
constraints: ["no Tailwind (style conflict)"]
decisions: ["use polling, not websockets"]
plan:                          # your task list, verbatim
  - {content: "write the endpoint", status: completed}
  - {content: "add the tests", status: in_progress}
failure_graph:
  websocket reconnect:
    rejected_by: system        # user | system
    reason: "proxy drops idle sockets"
    confidence: high           # high | medium | low
    scope: project             # project | global (shown in every project)
    alternatives: ["long polling"]
---
### Completed Steps
1. …
### File Changes
(git diff --stat)
### Recent Tool Calls
1. …
SNAPSHOT
\`\`\`

Or with flags: \`${m} save --goal "…" --state "…" --next "…" --active-file src/a.ts --constraint "…" --decision "…"\`.
Reply: "💾 MindSave checkpoint saved. Start a new conversation with ${load} to continue."`,
  },
  {
    command: "load",
    description:
      "MindSave /load: restore a saved snapshot (Layer 1 + Layer 2 + failures) and continue the task.",
    hint: "[N | name] [--verify]",
    heading: ["/load", "Load"],
    body: (
      m,
    ) => `\`${m} load --latest\` prints the restore block (Layer 1 + Layer 2 + failures, ≤800 tokens). With several snapshots, \`${m} load\` lists them newest first: show the list, then load the chosen one with \`${m} load N\`. Add \`--verify\` to compare the active files with the workspace, and tell the user about differences before going on.
Then reply: "MindSave restored. Goal: {goal}. Next: {next_action}. Entering Continuation Mode — executing next step." and do the next step.`,
  },
  {
    command: "recall",
    description:
      "MindSave /recall: show the newest snapshot's Layer 3 (completed steps, file changes, tool calls) or search every snapshot.",
    hint: "[keyword]",
    heading: ["/recall", "Recall"],
    body: (m) =>
      `\`${m} recall\` shows the newest snapshot's Layer 3; \`${m} recall "JWT"\` searches every snapshot (any text, Chinese too). Read-only.`,
  },
  {
    command: "snapshots",
    description: "MindSave /snapshots: list, clean up or count the project's snapshots.",
    hint: "list | stats | clean",
    heading: ["/snapshots", "Snapshots"],
    body: (m) => `\`${m} snapshots list\`, \`${m} snapshots stats\`, \`${m} snapshots clean\`.`,
  },
  {
    command: null,
    description: "",
    heading: ["Failures: do not retry", "Failures: do not retry"],
    body: (m) =>
      `When an approach fails or the user rejects one: \`${m} fail "ITEM" --reason "why" --by user|system [--scope global] [--alt "what to do instead"]\`. Repeating it raises its repeat count. Check \`${m} failures\` before trying something that may have failed before.`,
  },
  {
    command: null,
    description: "",
    heading: ["Over weeks: rules, retire, facts, plan, diff", "Over weeks: rules, retire, facts, plan, diff"],
    body: (
      m,
    ) => `- A standing rule the user wants always ("always answer in English", "never push to main"): \`${m} rules add "…" [--scope global]\`; restored first in every block, never trimmed.
- A constraint or decision that is no longer true: \`${m} retire\` lists them numbered, \`${m} retire N --reason "…"\` retires one; it is never carried forward nor restored again.
- A belief about the world that will change ("staging is read-only until Friday"): \`${m} fact "…" --ttl 3d [--confidence high]\`; expired facts are never restored (\`${m} facts --stale\` to renew or drop).
- Your task list: save it with the snapshot (\`plan:\` in the YAML, a list of {content, status}) or \`${m} plan set --item "[x] done" --item "[>] doing" --item "todo"\`; \`${m} plan\` prints it whole.
- \`${m} diff\` shows what changed between the two newest snapshots; \`${m} save --tag T\` and \`--tag T\` on list and recall label and filter.`,
  },
  {
    command: "auto-snapshot",
    description:
      "MindSave /auto-snapshot: the context is nearly full; save Layer 1 only (an OVF_ snapshot) and hand over to a new conversation.",
    heading: ["/auto-snapshot and pressure", "Context pressure"],
    body: (
      m,
      load,
    ) => `When the context is nearly full (RED), save Layer 1 only: \`${m} save --overflow --goal "…" --state "…" --next "…"\`, then tell the user: "⚠️ Context overflow imminent. MindSave auto-saved (Layer 1 only). Start a new conversation with ${load} to continue."
\`${m} signal\` shows GREEN / YELLOW / RED from adaptive thresholds (growth and complexity). With Claude Code, \`${m} hooks install\` does this bookkeeping and the auto-saves from real token counts.`,
  },
];

const LAYERS = `Layers of a snapshot:
- Layer 1, execution register (≤300 tokens, always restored): goal, state, next_action, active_files, blocker.
- Layer 2, cognitive cache (≤500 tokens, restored when non-empty): constraints (user preferences, rules), decisions (approach choices), failure graph (rejected approaches: never retry them).
- Layer 3, cold archive (never auto-restored): completed steps, file changes, recent tool calls.`;

const quoted = (binary: string) => (binary.includes(" ") ? `"${binary}"` : binary);

/** One section: with slash commands (Claude Code's skill) or without (any other agent's instructions). */
function section(s: Section, m: string, slash: boolean): string {
  return `## ${s.heading[slash ? 0 : 1]}\n${s.body(m, slash ? "/load" : `\`${m} load --latest\``)}`;
}

/** The skill's teaching without Claude Code's slash commands or front matter: the layers and every section. */
export function skillBody(binary = "mindsave"): string {
  const m = quoted(binary);
  return `${LAYERS}\n\n${SECTIONS.map((s) => section(s, m, false)).join("\n\n")}`;
}

export function skillText(binary = "mindsave"): string {
  const m = quoted(binary);
  return `---
name: mindsave
description: Save and restore the agent's working state (goal, state, next action, active files, blocker; constraints, decisions, failure graph) across sessions and machines with the mindsave binary. Use on /save, /load, /recall, /snapshots, /auto-snapshot, when the user ends a session ("done", "结束", "先这样"), after a key decision, after the user corrects you ("不对", "不是这样"), and before the context fills up.
---

# MindSave — hierarchical agent state

The \`${m}\` binary keeps snapshots in one store and resolves the workspace root itself (run it from anywhere inside the project). Information density beats token count: a 50-token constraint saves more than 500 tokens of logs.

${LAYERS}

${SECTIONS.map((s) => section(s, m, true)).join("\n\n")}

Do not save casual chat, simple Q&A, or when the user said not to ("don't save", "不需要保存").
`;
}

/** The SKILL.md of one command: its section of the main skill, run when the user types /NAME. */
export function commandSkillText(command: string, binary = "mindsave"): string {
  const s = SECTIONS.find((x) => x.command === command);
  if (!s) throw new Error(`no MindSave command skill ${command}`);
  const m = quoted(binary);
  return `---
name: ${command}
description: ${s.description}
${s.hint ? `argument-hint: "${s.hint}"\n` : ""}disable-model-invocation: true
---
${SKILL_MARKER}

# MindSave /${command}

The user typed /${command}${s.hint ? " (arguments: $ARGUMENTS)" : ""}. The \`${m}\` binary keeps snapshots in one store and finds the workspace itself.

${LAYERS}

${section(s, m, true)}
`;
}

/** The command skills, in the order the spec lists them. */
export const COMMAND_SKILLS = SECTIONS.flatMap((s) => (s.command ? [s.command] : []));

function skillsDir(env: NodeJS.ProcessEnv): string {
  return join(env.HOME || env.USERPROFILE || "", ".claude", "skills");
}

/** Where Claude Code looks for a user's skills: the main skill's file. */
export function skillPath(env: NodeJS.ProcessEnv): string {
  return join(skillsDir(env), "mindsave", "SKILL.md");
}

function ours(path: string): boolean {
  try {
    const text = readFileSync(path, "utf8");
    // The main skill as installs before the marker wrote it is ours too.
    return (
      text.includes(SKILL_MARKER) ||
      (text.startsWith("---\nname: mindsave\n") && text.includes("# MindSave — hierarchical agent state"))
    );
  } catch {
    return false;
  }
}

/** The command that restores a snapshot, as the user can type it: /load once the skill is installed. */
export function loadCommand(env: NodeJS.ProcessEnv): string {
  return existsSync(join(skillsDir(env), "load", "SKILL.md")) ? "/load" : "`mindsave load`";
}

export interface SkillInstall {
  path: string;
  replaced: boolean;
  /** The slash commands' SKILL.md files written. */
  commands: string[];
  /** Command skills left alone because someone else's skill has the name. */
  skipped: string[];
}

export function installSkill(env: NodeJS.ProcessEnv): SkillInstall {
  const path = skillPath(env);
  const binary = existsSync(localBinary(env)) ? localBinary(env) : "mindsave";
  const replaced = existsSync(path);
  // ~/.claude/skills (and ~/.claude) made here go again with the skills on uninstall.
  noteCreatedDirs(env, path);
  writeFileAtomic(path, skillText(binary) + `\n${SKILL_MARKER}\n`);
  const commands: string[] = [];
  const skipped: string[] = [];
  for (const name of COMMAND_SKILLS) {
    const file = join(skillsDir(env), name, "SKILL.md");
    if (existsSync(join(skillsDir(env), name)) && !ours(file)) {
      skipped.push(file);
      continue;
    }
    writeFileAtomic(file, commandSkillText(name, binary));
    commands.push(file);
  }
  return { path, replaced, commands, skipped };
}

/** Removes the skills install wrote (recognised by their marker): their files, and their folders when empty. */
export function uninstallSkill(env: NodeJS.ProcessEnv): { removed: string[] } {
  const removed: string[] = [];
  for (const name of ["mindsave", ...COMMAND_SKILLS]) {
    const dir = join(skillsDir(env), name);
    const file = join(dir, "SKILL.md");
    if (!ours(file)) continue;
    rmSync(file);
    removed.push(file);
    if (!readdirSync(dir).length) rmSync(dir, { recursive: true });
  }
  removeCreatedDirs(env);
  return { removed };
}
