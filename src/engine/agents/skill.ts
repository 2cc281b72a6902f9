// SKILL.md: teaches any agent (Claude Code, Codex CLI, Cursor, Trae) to use the mindsave binary
// for the spec's /save, /load, /recall, /snapshots and /auto-snapshot.
import { existsSync } from "node:fs";
import {  join } from "node:path";
import { localBinary } from "./hooks.ts";
import { writeFileAtomic } from "../../lib/fs.ts";

export function skillText(binary = "mindsave"): string {
  const m = binary.includes(" ") ? `"${binary}"` : binary;
  return `---
name: mindsave
description: Save and restore the agent's working state (goal, state, next action, active files, blocker; constraints, decisions, failure graph) across sessions and machines with the mindsave binary. Use on /save, /load, /recall, /snapshots, /auto-snapshot, when the user ends a session ("done", "结束", "先这样"), after a key decision, after the user corrects you ("不对", "不是这样"), and before the context fills up.
---

# MindSave — hierarchical agent state

The \`${m}\` binary keeps snapshots in one store and resolves the workspace root itself (run it from anywhere inside the project). Information density beats token count: a 50-token constraint saves more than 500 tokens of logs.

Layers of a snapshot:
- Layer 1, execution register (≤300 tokens, always restored): goal, state, next_action, active_files, blocker.
- Layer 2, cognitive cache (≤500 tokens, restored when non-empty): constraints (user preferences, rules), decisions (approach choices), failure graph (rejected approaches: never retry them).
- Layer 3, cold archive (never auto-restored): completed steps, file changes, recent tool calls.

## /save
Write the snapshot as YAML front matter plus a markdown body and pipe it in (stdin is read only when no field flag is given):

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
Reply: "💾 MindSave checkpoint saved. Start a new conversation with /load to continue."

## /load
\`${m} load --latest\` prints the restore block (Layer 1 + Layer 2 + failures, ≤800 tokens). With several snapshots, \`${m} load\` lists them newest first: show the list, then load the chosen one with \`${m} load N\`. Add \`--verify\` to compare the active files with the workspace, and tell the user about differences before going on.
Then reply: "MindSave restored. Goal: {goal}. Next: {next_action}. Entering Continuation Mode — executing next step." and do the next step.

## /recall
\`${m} recall\` shows the newest snapshot's Layer 3; \`${m} recall "JWT"\` searches every snapshot (any text, Chinese too). Read-only.

## /snapshots
\`${m} snapshots list\`, \`${m} snapshots stats\`, \`${m} snapshots clean\`.

## Failures: do not retry
When an approach fails or the user rejects one: \`${m} fail "ITEM" --reason "why" --by user|system [--scope global] [--alt "what to do instead"]\`. Repeating it raises its repeat count. Check \`${m} failures\` before trying something that may have failed before.

## /auto-snapshot and pressure
When the context is nearly full (RED), save Layer 1 only: \`${m} save --overflow --goal "…" --state "…" --next "…"\`, then tell the user: "⚠️ Context overflow imminent. MindSave auto-saved (Layer 1 only). Start a new conversation with /load to continue."
\`${m} signal\` shows GREEN / YELLOW / RED from adaptive thresholds (growth and complexity). With Claude Code, \`${m} hooks install\` does this bookkeeping and the auto-saves from real token counts.

Do not save casual chat, simple Q&A, or when the user said not to ("don't save", "不需要保存").
`;
}

/** Where Claude Code looks for a user's skills. */
export function skillPath(env: NodeJS.ProcessEnv): string {
  return join(env.HOME || env.USERPROFILE || "", ".claude", "skills", "mindsave", "SKILL.md");
}

export function installSkill(env: NodeJS.ProcessEnv): { path: string; replaced: boolean } {
  const path = skillPath(env);
  const binary = existsSync(localBinary(env)) ? localBinary(env) : "mindsave";
  const replaced = existsSync(path);
  writeFileAtomic(path, skillText(binary));
  return { path, replaced };
}
