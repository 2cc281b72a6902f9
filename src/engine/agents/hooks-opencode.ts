// opencode has no command hooks, only plugins: a JS module in `.opencode/plugins/` (the project's)
// or `~/.config/opencode/plugins/` (the user's), loaded at startup, whose exported function returns
// hooks (anomalyco/opencode packages/plugin/src/index.ts; docs/plugins.mdx "Load order"). MindSave
// writes one file of its own, `mindsave.js`, that runs `mindsave hook EVENT --agent opencode` with
// the JSON `OpencodePayload` (agent-hooks.ts) on stdin:
//   - experimental.chat.system.transform: session-start, once per session (again after a
//     compaction), its output added to the system prompt of every request of that session;
//   - chat.message: user-prompt-submit with the message's text (the session's goal, as a prompt
//     is for other agents; anomalyco/opencode packages/plugin/src/index.ts `Hooks["chat.message"]`);
//     its output (a repeat warning, a recall pointer) joins the system prompt of the requests that
//     answer that message, until the session is idle;
//   - experimental.session.compacting: pre-compact, its output added to the compaction's context;
//   - tool.execute.after: post-tool-use, its output appended to the tool's output; the tool's
//     arguments are kept from tool.execute.before by call id (current plugin APIs give `after` only
//     tool, sessionID and callID), and with them the session's newest measured fill;
//   - event message.updated: an assistant message's `tokens` (its step's prompt, as the provider
//     counted it), the session's newest fill. A step's tokens come once it finished, after its
//     tools ran (seen with 1.18.33): a tool's fill is the step before's;
//   - event session.idle: stop, not awaited.
// The plugin waits a bounded time and treats any trouble (MindSave not installed, a timeout) as no
// output, so opencode carries on. A file of that name that MindSave did not write is left alone.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { UserError } from "../../errors.ts";
import { writeFileAtomic } from "../../lib/fs.ts";
import { agentHooks } from "./agent-hooks.ts";
import { noteCreatedDirs, removeCreatedDirs } from "./hooks-manifest.ts";
import type { HooksState } from "./hooks-json.ts";

const MARK = "written by `mindsave hooks install --agent opencode`";

/** The plugin's `run`: one hook call with its payload on stdin, its output or "" on any trouble. */
const PLUGIN_RUN = `// The hook's output, "" on any trouble (MindSave not installed, a timeout): opencode always carries on.
function run(event, payload, ms) {
  const bin = BINARY ?? (existsSync(LOCAL) ? LOCAL : "mindsave")
  return new Promise((resolve) => {
    let out = ""
    let child
    let timer
    const done = () => {
      clearTimeout(timer)
      resolve(out.trim())
    }
    try {
      child = spawn(bin, ["hook", event, "--agent", "opencode"], { stdio: ["pipe", "pipe", "ignore"], windowsHide: true })
    } catch {
      return resolve("")
    }
    timer = setTimeout(() => {
      out = ""
      child.kill()
      done()
    }, ms)
    child.on("error", () => {
      out = ""
      done()
    })
    child.stdout.setEncoding("utf8")
    child.stdout.on("data", (d) => {
      if (out.length < 1000000) out += d
    })
    child.on("close", done)
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(payload))
  })
}

`;

/** The plugin's hooks: which opencode hook runs which MindSave hook, each with its timeout. */
function pluginHooks(): string {
  const ms = (arg: string) => agentHooks("opencode").events.find((e) => e.arg === arg)!.timeout;
  return `export const MindSave = async ({ directory, worktree }) => {
  const restore = new Map() // session → its restore block (a promise), asked once per session
  const prompted = new Map() // session → what the hook said of its newest message, until the turn ends
  const compacted = new Set()
  const base = (id) => ({ session_id: id ?? "", cwd: directory, worktree })
  const args = new Map() // call → its arguments, from tool.execute.before (tool.execute.after may have none)
  const fills = new Map() // session → the prompt tokens of its newest finished step
  return {
    "experimental.chat.system.transform": async (input, output) => {
      const id = input?.sessionID ?? ""
      if (!restore.has(id)) {
        const source = compacted.has(id) ? "compact" : "startup"
        restore.set(id, run("session-start", { hook_event_name: "session.start", ...base(id), source }, ${ms("session-start")}))
      }
      const text = await restore.get(id)
      if (text) output.system.push(text)
      if (prompted.has(id)) output.system.push(prompted.get(id))
    },
    "chat.message": async (input, output) => {
      // The person's words (text parts; files and tool parts are not a prompt), for the session's goal.
      const parts = Array.isArray(output?.parts) ? output.parts : []
      const prompt = parts.filter((p) => p?.type === "text" && typeof p.text === "string" && !p.synthetic).map((p) => p.text).join("\\n").slice(0, 4000)
      const id = input?.sessionID ?? ""
      prompted.delete(id)
      if (!prompt.trim()) return
      const text = await run("user-prompt-submit", { hook_event_name: "chat.message", ...base(id), prompt }, ${ms("user-prompt-submit")})
      if (text) prompted.set(id, text)
    },
    "experimental.session.compacting": async (input, output) => {
      const text = await run("pre-compact", { hook_event_name: "session.compacting", ...base(input?.sessionID) }, ${ms("pre-compact")})
      if (text) output.context.push(text)
    },
    "tool.execute.before": async (input, output) => {
      if (input?.callID === undefined || !output?.args) return
      args.set(input.callID, output.args)
      // A call whose after never came (aborted) is forgotten once a hundred newer ones are kept.
      if (args.size > 100) args.delete(args.keys().next().value)
    },
    "tool.execute.after": async (input, output) => {
      const result = typeof output?.output === "string" ? output.output.slice(0, 4000) : undefined
      const toolInput = input?.args ?? args.get(input?.callID)
      args.delete(input?.callID)
      const payload = { hook_event_name: "tool.execute.after", ...base(input?.sessionID), tool_name: input?.tool, tool_input: toolInput, tool_response: { title: output?.title, output: result }, usage: fills.get(input?.sessionID) }
      const text = await run("post-tool-use", payload, ${ms("post-tool-use")})
      if (text && typeof output?.output === "string") output.output += "\\n\\n" + text
    },
    event: async ({ event }) => {
      const info = event?.type === "message.updated" ? event.properties?.info : undefined
      // (A compaction's summary measures the context it replaces.)
      const tokens = info?.role === "assistant" && !info.summary ? info.tokens : undefined
      // A step not finished yet has zero tokens: not a measurement.
      if (typeof tokens?.input === "number" && tokens.input > 0) {
        const cache = tokens.cache ?? {}
        fills.set(info.sessionID, { input_tokens: tokens.input, cache_read_input_tokens: cache.read ?? 0, cache_creation_input_tokens: cache.write ?? 0, model: info.modelID })
      }
      const id = event?.properties?.sessionID ?? event?.data?.sessionID
      if (id === undefined) return
      if (event.type === "session.compacted") {
        restore.delete(id)
        fills.delete(id) // it measured a context that no longer exists
        compacted.add(id)
      }
      if (event.type === "session.idle") {
        prompted.delete(id)
        void run("stop", { hook_event_name: "session.idle", ...base(id) }, ${ms("stop")})
      }
    },
  }
}
`;
}

/** The plugin's text; `binary` (`--command`) replaces the lookup of ~/.mindsave/bin, then PATH. */
export function opencodePlugin(binary: string | null): string {
  return (
    `// MindSave's opencode plugin: ${MARK}; \`mindsave hooks uninstall --agent opencode\` removes it.
// opencode has no command hooks: this plugin runs \`mindsave hook EVENT --agent opencode\` with a small JSON
// payload on stdin (OpencodePayload in MindSave's src/engine/agents/agent-hooks.ts) and uses what it prints.
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { homedir } from "node:os"
import { join } from "node:path"

const BINARY = ${JSON.stringify(binary)}
const LOCAL = join(homedir(), ".mindsave", "bin", process.platform === "win32" ? "mindsave.exe" : "mindsave")

` +
    PLUGIN_RUN +
    pluginHooks()
  );
}

const read = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : null);

/** The binary an earlier install wrote into the plugin (`--command`), or null. */
function installedBinary(text: string): string | null {
  const m = /^const BINARY = (.*)$/m.exec(text);
  try {
    return m ? (JSON.parse(m[1]) as string | null) : null;
  } catch {
    return null;
  }
}

export function opencodeHooksState(path: string): HooksState {
  const text = read(path);
  if (text === null || !text.includes(MARK)) return "absent";
  return text === opencodePlugin(installedBinary(text)) ? "current" : "outdated";
}

export interface PluginResult {
  action: "installed" | "updated" | "unchanged" | "removed" | "absent";
  wholeFile: boolean;
}

export function installOpencodePlugin(
  path: string,
  binary: string | null,
  env: NodeJS.ProcessEnv,
): PluginResult {
  const text = read(path);
  const next = opencodePlugin(binary);
  if (text === next) return { action: "unchanged", wholeFile: false };
  if (text !== null && !text.includes(MARK))
    throw new UserError(`${path} exists and was not written by MindSave; it is left alone.`);
  noteCreatedDirs(env, path);
  writeFileAtomic(path, next);
  return { action: text === null ? "installed" : "updated", wholeFile: true };
}

export function uninstallOpencodePlugin(path: string, env: NodeJS.ProcessEnv): PluginResult {
  if (!read(path)?.includes(MARK)) return { action: "absent", wholeFile: false };
  rmSync(path);
  removeCreatedDirs(env);
  return { action: "removed", wholeFile: true };
}
