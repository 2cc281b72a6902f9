// `mindsave agents`: the coding agents on this host and what MindSave has installed in each
// (MCP server, instructions or Claude Code's skill, hooks), whether it is current, the events each
// agent's hooks cannot serve, and what each agent cannot do yet.
import { homedir } from "../lib/os.ts";
import { listAgents, type Placed } from "../engine/agents/inventory.ts";
import { print, printJson, projectPlace } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

const tilde = (path: string) => {
  const h = process.env.HOME || homedir();
  return h && path.startsWith(h + "/") ? "~" + path.slice(h.length) : path;
};

function line(label: string, items: Placed<string>[], none: string): string {
  const shown = items.filter((i) => i.state !== "absent");
  const text = shown.length
    ? shown.map((i) => `${i.state} in ${tilde(i.path)} (${i.scope})`).join("; ")
    : none;
  return `  ${label.padEnd(13)}${text}`;
}

export async function run(_opts: unknown, _a: string[], g: GlobalOptions): Promise<number> {
  const agents = listAgents(projectPlace(g));
  if (g.json) {
    printJson({ agents });
    return 0;
  }
  // An agent is shown when it is here or when MindSave has something installed for it (a project's
  // config is there for teammates even when this host lacks the agent).
  const installed = (a: (typeof agents)[number]) =>
    [...a.mcp, ...a.instructions, ...(a.hooks ?? [])].some((i) => i.state !== "absent");
  const found = agents.filter((a) => a.found || installed(a));
  if (!found.length)
    print("No coding agent found on this host (none of their folders, none of their executables on PATH).");
  for (const a of found) {
    const where =
      [...a.dirs.map(tilde), ...a.executables.map((x) => `${x} on PATH`)].join(", ") ||
      "not found on this host";
    print(`${a.name} (${a.id}): ${where}`);
    print(line("MCP server", a.mcp, "not installed (`mindsave mcp install --agent " + a.id + "`)"));
    print(
      line(
        a.id === "claude" ? "skill" : "instructions",
        a.instructions,
        `not installed (\`mindsave skill --install${a.id === "claude" ? "" : " --agent " + a.id}\`)`,
      ),
    );
    print(
      line(
        "hooks",
        a.hooks,
        `not installed (\`mindsave hooks install${a.id === "claude" ? "" : " --agent " + a.id}\`)`,
      ),
    );
    print(
      `  ${"hook events".padEnd(13)}${a.works.hooks}${a.missingEvents.length ? `; none for ${a.missingEvents.join(", ")}` : ""}`,
    );
    if (a.claudeHooksAlsoRun.length && a.hooks.some((h) => h.state !== "absent")) {
      print(
        `  ${"both fire".padEnd(13)}${a.name} also runs the Claude Code hooks in ${a.claudeHooksAlsoRun.map(tilde).join(" and ")}, which hold MindSave's hooks too`,
      );
    }
    print(`  ${"transcript".padEnd(13)}${a.works.transcript}`);
    if (a.lacks.length) print(`  ${"lacks".padEnd(13)}${a.lacks.join("; ")}`);
  }
  const missing = agents.filter((a) => !found.includes(a)).map((a) => a.name);
  if (missing.length) print(`Not found here: ${missing.join(", ")}.`);
  return 0;
}
