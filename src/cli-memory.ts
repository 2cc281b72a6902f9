// The commands of memory over weeks: standing rules, retiring what is wrong, facts that expire,
// the plan, and what changed between two snapshots. Declared here (cli.ts stays short); each
// command's work is in src/commands/, loaded only when it runs.
import type { Command } from "commander";
import { collect, groupDefault, lazy, snapshotKey } from "./cli-parts.ts";

export function addMemoryCommands(program: Command): void {
  addRuleCommands(program);
  addFactCommands(program);
  addPlanCommands(program);
  addOffOnCommands(program);

  program
    .command("config")
    .description(
      "Every setting's value (alone), one setting's, or set it: prompt-recall (on, off: the prompt hook's pointer to what MindSave knows); checkpoints (ask, auto, off: at a checkpoint moment the agent is asked to save, or only the hooks save, or neither)",
    )
    .argument("[key]", "the setting: prompt-recall or checkpoints (none: every setting)")
    .argument("[value]", "its new value: on or off (prompt-recall); ask, auto or off (checkpoints)")
    .action(lazy(() => import("./commands/config.ts")));

  program
    .command("diff")
    .description(
      "What changed from snapshot A to snapshot B, per layer (default: from the second newest to the newest)",
    )
    .argument(
      "[a]",
      "the snapshot to compare from (name, id prefix or number in `snapshots list`, 1 = newest)",
      snapshotKey,
    )
    .argument(
      "[b]",
      "the one to compare to (default: the newest); `diff 2 1` shows what 1 changed, `diff 1 2` the way back",
      snapshotKey,
    )
    .action(lazy(() => import("./commands/diff.ts")));
}

/**
 * Keeping memory out: `off` and `on`. A project's switch is in the store and syncs to every host;
 * `--global` is this host's own (its other projects, not other hosts').
 */
function addOffOnCommands(program: Command): void {
  for (const [name, run, what] of [
    [
      "off",
      "offCommand",
      "Switch MindSave off in this project: agents' hooks save and restore nothing, MCP tools say it is off, your own commands still work; synced to every host",
    ],
    ["on", "onCommand", "Switch MindSave back on in this project (in a plain folder: make it a project)"],
  ] as const)
    program
      .command(name)
      .description(what)
      .option(
        "--global",
        `every project on this host (kept in the store under this host: other hosts are not ${name === "off" ? "switched off" : "affected"})`,
      )
      .action(lazy(() => import("./commands/off.ts").then((m) => ({ run: m[run] }))));
}

/** Standing rules, and retiring a constraint or decision that is no longer true. */
function addRuleCommands(program: Command): void {
  const rules = program
    .command("rules")
    .allowExcessArguments(true)
    .description("Standing rules: restored first in every block of their scope, never trimmed (alone: list)")
    .action(groupDefault(() => import("./commands/rules.ts").then((m) => ({ run: m.list }))));
  rules
    .command("add")
    .description("Add a rule (one line; all rules of a project share a 150-token budget)")
    .argument("<text...>", 'the rule, e.g. "Never push to main"')
    .option("--scope <scope>", "project (default) or global (every project)")
    .action(lazy(() => import("./commands/rules.ts").then((m) => ({ run: m.add }))));
  rules
    .command("list")
    .description("The rules that apply here, numbered (global first)")
    .action(lazy(() => import("./commands/rules.ts").then((m) => ({ run: m.list }))));
  rules
    .command("edit")
    .description("Replace rule N's text")
    .argument("<rule>", "the rule's number in `rules list`, or a piece of its text")
    .argument("<text...>", "the new text")
    .action(lazy(() => import("./commands/rules.ts").then((m) => ({ run: m.edit }))));
  rules
    .command("remove")
    .description("Remove rule N")
    .argument("<rule>", "the rule's number in `rules list`, or a piece of its text")
    .action(lazy(() => import("./commands/rules.ts").then((m) => ({ run: m.remove }))));

  program
    .command("retire")
    .description(
      "Mark a constraint or decision as no longer true: never carried forward nor restored (alone: list)",
    )
    .argument(
      "[item...]",
      "its number in the list `mindsave retire` prints, or its text (a unique part is enough)",
    )
    .option("--reason <text>", "why it is no longer true")
    .option("--undo", "bring a retired item back (its number in the retired list, or its text)")
    .action(lazy(() => import("./commands/retire.ts")));
}

/** Facts about the world that expire: `fact` records one, `facts` lists, renews and drops. */
function addFactCommands(program: Command): void {
  program
    .command("fact")
    .description("Record a fact about the world that expires (fresh facts are restored, expired ones never)")
    .argument("<text...>", 'the fact, e.g. "staging DB is read-only until Friday"')
    .option(
      "--ttl <span>",
      "how long it holds: 30m, 12h, 3d, 2w or never (default 7d; stated again, the fact keeps its own)",
    )
    .option("--confidence <level>", "low, medium (default) or high (stated again, the fact keeps its own)")
    .option("--scope <scope>", "project (default) or global")
    .action(lazy(() => import("./commands/facts.ts").then((m) => ({ run: m.add }))));
  const facts = program
    .command("facts")
    .allowExcessArguments(true)
    .description("Facts here, fresh and expired (alone: list)")
    .option("--stale", "only the expired ones, to renew or drop")
    .action(groupDefault(() => import("./commands/facts.ts").then((m) => ({ run: m.list }))));
  facts
    .command("renew")
    .description("Confirm fact N again: stated now, for its time to live (or --ttl)")
    .argument("<fact>", "the fact's number in `facts`, or a piece of its text")
    .option("--ttl <span>", "a new time to live")
    .action(lazy(() => import("./commands/facts.ts").then((m) => ({ run: m.renew }))));
  facts
    .command("drop")
    .description("Remove fact N")
    .argument("<fact>", "the fact's number in `facts`, or a piece of its text")
    .action(lazy(() => import("./commands/facts.ts").then((m) => ({ run: m.drop }))));
}

/** The agent's plan kept with the newest snapshot, and its steps' statuses. */
function addPlanCommands(program: Command): void {
  const plan = program
    .command("plan")
    .allowExcessArguments(true)
    .description("The agent's plan kept with the newest snapshot, whole, with statuses (alone: print it)")
    .option(
      "--snapshot <key>",
      "another snapshot's plan, to show or change (name, id prefix or list number)",
      snapshotKey,
    )
    .action(groupDefault(() => import("./commands/plan.ts").then((m) => ({ run: m.show }))));
  plan
    .command("set")
    .description(
      "Replace the plan: a checklist ('- [x] done', '- [ ] next', or `mindsave plan`'s output) or YAML/JSON list from a file or stdin ('-'), or --item flags",
    )
    .argument("[file]", "a YAML/JSON file with the steps ('-' for stdin)")
    .option("--item <text>", 'a step; "[x] …" done, "[>] …" in progress, else pending (repeatable)', collect)
    .action(lazy(() => import("./commands/plan.ts").then((m) => ({ run: m.set }))));
  for (const [name, status, what] of [
    ["done", "completed", "Mark step N completed"],
    ["start", "in_progress", "Mark step N in progress"],
    ["reopen", "pending", "Mark step N pending again"],
  ] as const) {
    plan
      .command(name)
      .description(what)
      .argument("<n>", "the step's number in `mindsave plan`")
      .action(
        lazy(() =>
          import("./commands/plan.ts").then((m) => ({
            run: (o: { snapshot?: string }, a: string[], g) => m.mark(status, o, a, g),
          })),
        ),
      );
  }
}
