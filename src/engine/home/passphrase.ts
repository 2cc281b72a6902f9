// Where a passphrase comes from: MINDSAVE_PASSPHRASE (or, for a sync peer, MINDSAVE_PEER_PASSPHRASE
// first), else a prompt that does not echo on a terminal, else a clear sentence. It is never stored.
import { CANCELLED, UserError } from "../../errors.ts";

export const PASSPHRASE_ENV = "MINDSAVE_PASSPHRASE";
export const PEER_PASSPHRASE_ENV = "MINDSAVE_PEER_PASSPHRASE";
export const NEEDS_PASSPHRASE = "This store is encrypted; set MINDSAVE_PASSPHRASE or run on a terminal.";
export const MIN_PASSPHRASE = 8;

export interface PassphraseRequest {
  env: NodeJS.ProcessEnv;
  /** The store it unlocks, shown in the prompt. */
  store: string;
  /** A sync peer: MINDSAVE_PEER_PASSPHRASE is tried before MINDSAVE_PASSPHRASE. */
  peer?: boolean;
}

const normalize = (s: string) => s.normalize("NFC");

function fromEnv(req: { env: NodeJS.ProcessEnv; peer?: boolean }): string | undefined {
  const v = (req.peer ? req.env[PEER_PASSPHRASE_ENV] : undefined) || req.env[PASSPHRASE_ENV];
  return v ? normalize(v) : undefined;
}

let prompting = true;

/** From now on nothing asks for a passphrase on the terminal (a hook: an agent's, never a person's). */
export function neverPrompt(): void {
  prompting = false;
}

export function canPrompt(): boolean {
  return prompting && !!process.stdin.isTTY && typeof process.stdin.setRawMode === "function";
}

/** The passphrase of an existing encrypted store. */
export async function askPassphrase(req: PassphraseRequest): Promise<string> {
  const env = fromEnv(req);
  if (env !== undefined) return env;
  if (!canPrompt()) {
    // A sync peer's passphrase may differ from this store's: say which store, and which setting.
    throw new UserError(
      req.peer
        ? `The sync peer ${req.store} is encrypted; set MINDSAVE_PEER_PASSPHRASE (or MINDSAVE_PASSPHRASE, when it is the same) or run on a terminal.`
        : NEEDS_PASSPHRASE,
    );
  }
  const p = normalize(await readHidden(`Passphrase for ${req.store}: `));
  if (!p) throw new UserError("No passphrase given; nothing was opened.");
  return p;
}

/** A new passphrase for a store about to be encrypted: from the environment, or typed twice. */
export async function askNewPassphrase(req: PassphraseRequest): Promise<string> {
  let p = fromEnv(req);
  if (p === undefined) {
    if (!canPrompt())
      throw new UserError(
        "Encrypting a store needs a passphrase; set MINDSAVE_PASSPHRASE or run on a terminal.",
      );
    p = normalize(await readHidden(`New passphrase for ${req.store}: `));
    if (p.length >= MIN_PASSPHRASE && normalize(await readHidden("Type it again: ")) !== p) {
      throw new UserError("The two passphrases differ; nothing was changed.");
    }
  }
  if ([...p].length < MIN_PASSPHRASE)
    throw new UserError(`A passphrase needs at least ${MIN_PASSPHRASE} characters; nothing was changed.`);
  return p;
}

/** Reads one line from the terminal in raw mode, echoing nothing. Ctrl-C, or Ctrl-D on an empty line, cancels. */
function readHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let text = "";
    const wasRaw = stdin.isRaw;
    const finish = (err?: Error) => {
      stdin.off("data", onData);
      stdin.setRawMode(wasRaw);
      stdin.pause();
      process.stderr.write("\n");
      if (err) reject(err);
      else resolve(text);
    };
    const onData = (chunk: Buffer | string) => {
      const s = typeof chunk === "string" ? chunk : chunk.toString("utf8");
      for (let i = 0; i < s.length; i++) {
        const ch = s[i];
        if (ch === "\r" || ch === "\n") return finish();
        if (ch === "\u0003") return finish(new UserError(CANCELLED));
        if (ch === "\u0004") return text ? finish() : finish(new UserError(CANCELLED));
        if (ch === "\u007f" || ch === "\b") text = [...text].slice(0, -1).join("");
        else if (ch === "\u001b")
          break; // an escape sequence (arrow keys…): not part of a passphrase
        else if (ch >= " ") text += ch;
      }
    };
    stdin.setRawMode(true);
    stdin.on("data", onData);
    stdin.resume();
  });
}
