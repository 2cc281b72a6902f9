// `hooks install --agent codex --trust`: Codex runs a new hook only once the person trusted it.
// Asked for explicitly, MindSave trusts its own hooks through Codex's own mechanism: `codex
// app-server`'s `hooks/list` gives each hook's key and current hash, and a `[hooks.state."<key>"]
// trusted_hash` table in Codex's config.toml trusts exactly that version of it. The tables go in
// a block between marker comments, which `hooks uninstall --agent codex` takes out exactly.
// Never done silently: only with --trust, and only for hooks whose command is MindSave's.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import { block, findBlock, putBlock, takeBlock, type Markers } from "../../lib/blocks.ts";
import { writeFileAtomic } from "../../lib/fs.ts";
import { home, type Place } from "./registry.ts";
import { HOOK_ARGS } from "./agent-hooks.ts";

const TRUST_MARKERS: Markers = {
  begin:
    "# BEGIN mindsave hooks trust: written by `mindsave hooks install --agent codex --trust`; `mindsave hooks uninstall --agent codex` removes it",
  end: "# END mindsave hooks trust",
};

/** How long Codex's app-server may take to list the hooks. */
const LIST_TIMEOUT_MS = 20_000;

/** One hook as `hooks/list` gives it. */
export interface ListedHook {
  key: string;
  command: string;
  currentHash: string;
  trustStatus: string;
  isManaged: boolean;
}

export const codexConfig = (env: NodeJS.ProcessEnv) =>
  join(env.CODEX_HOME || join(home(env), ".codex"), "config.toml");

/** The hooks Codex finds for `cwd` (with their trust), asked of `codex app-server` over JSON-RPC on stdio. */
export async function listHooks(codex: string, cwd: string, env: NodeJS.ProcessEnv): Promise<ListedHook[]> {
  const p = Bun.spawn([codex, "app-server"], { cwd, env, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const send = (o: unknown) => p.stdin.write(JSON.stringify(o) + "\n");
  send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { clientInfo: { name: "mindsave", version: "1" } },
  });
  send({ jsonrpc: "2.0", method: "initialized" });
  send({ jsonrpc: "2.0", id: 2, method: "hooks/list", params: { cwds: [cwd] } });
  await p.stdin.flush();
  const timer = setTimeout(() => p.kill(), LIST_TIMEOUT_MS);
  try {
    for await (const line of lines(p.stdout)) {
      const m = parseReply(line);
      if (m?.id !== 2) continue;
      if (m.error)
        throw new UserError(`codex app-server refused hooks/list: ${String(m.error.message ?? "")}.`);
      return (m.result?.data ?? []).flatMap((d: { hooks?: ListedHook[] }) => d.hooks ?? []);
    }
    throw new UserError(`codex app-server gave no list of hooks within ${LIST_TIMEOUT_MS / 1000} s.`);
  } finally {
    clearTimeout(timer);
    p.kill();
  }
}

/** A line of the app-server's stdout: a JSON-RPC message, or null for anything else (a log line). */
function parseReply(
  line: string,
): { id?: unknown; error?: { message?: unknown }; result?: { data?: [] } } | null {
  try {
    const v = JSON.parse(line);
    return v && typeof v === "object" ? v : null;
  } catch {
    return null;
  }
}

async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const dec = new TextDecoder();
  let buf = "";
  for await (const chunk of stream) {
    buf += dec.decode(chunk, { stream: true });
    const parts = buf.split("\n");
    buf = parts.pop() ?? "";
    yield* parts;
  }
}

/**
 * The hook keys config.toml trusts outside MindSave's block (the person's own trust, given in
 * Codex's TUI): a second table of the same key would make the file invalid TOML.
 */
function trustedElsewhere(text: string, config: string): Set<string> {
  const rest = takeBlock(text, TRUST_MARKERS);
  try {
    const parsed = Bun.TOML.parse(rest === undefined ? text : (rest ?? "")) as {
      hooks?: { state?: Record<string, unknown> };
    };
    return new Set(Object.keys(parsed.hooks?.state ?? {}));
  } catch {
    throw new UserError(`${config} is not TOML MindSave can read; fix it first (nothing was trusted).`);
  }
}

/**
 * Trusts MindSave's Codex hooks (those whose command `ours` recognises) as they are now: their
 * current hashes in MindSave's block of config.toml. Gives the keys trusted.
 */
export async function trustCodexHooks(
  codex: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  ours: (command: string) => boolean,
): Promise<{ config: string; trusted: string[] }> {
  const config = codexConfig(env);
  const text = existsSync(config) ? readFileSync(config, "utf8") : null;
  const elsewhere = trustedElsewhere(text ?? "", config);
  const mine = (await listHooks(codex, cwd, env)).filter(
    (h) => !h.isManaged && ours(h.command) && !elsewhere.has(h.key),
  );
  if (!mine.length) return { config, trusted: [] };
  const tables = mine.map(
    (h) => `[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = ${JSON.stringify(h.currentHash)}\n`,
  );
  writeFileAtomic(config, putBlock(text, TRUST_MARKERS, block(TRUST_MARKERS, tables.join(""))));
  return { config, trusted: mine.map((h) => h.key) };
}

/** Takes MindSave's trust block out of Codex's config.toml (exactly; the file goes when only the block was in it). */
export function untrustCodexHooks(env: NodeJS.ProcessEnv): boolean {
  const config = codexConfig(env);
  if (!existsSync(config)) return false;
  const text = readFileSync(config, "utf8");
  const rest = findBlock(text, TRUST_MARKERS) ? takeBlock(text, TRUST_MARKERS) : undefined;
  if (rest === undefined) return false;
  if (rest === null) rmSync(config);
  else writeFileAtomic(config, rest);
  return true;
}

/** MindSave's Codex hook commands, as its installer writes them: `… hook <event> --agent codex`. */
const OURS = new RegExp(String.raw` hook (?:${HOOK_ARGS.join("|")}) --agent codex$`);

/** `--trust`: MindSave's Codex hooks for this folder, trusted through the `codex` on the PATH. */
export function trustMindSaveCodexHooks(place: Place): Promise<{ config: string; trusted: string[] }> {
  const codex = Bun.which("codex", { PATH: place.env.PATH ?? "" });
  if (!codex)
    throw new UserError(
      "--trust needs `codex` on the PATH (its app-server names the hooks to trust); without it, start codex and approve MindSave's hooks in /hooks.",
    );
  return trustCodexHooks(codex, place.root ?? process.cwd(), place.env, (c) => OURS.test(c));
}
