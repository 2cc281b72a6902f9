// Encryption at rest: libSQL encrypts every page of the store (and of its journal or WAL) with a
// key derived from a passphrase. Beside the store, a small unencrypted key file
// (`mindsave.db.key.json`) holds what the derivation needs — the KDF, its parameters, a random
// salt — and a check value (an HMAC of a constant under the derived secret), so that a wrong
// passphrase can be told apart from a damaged store. The passphrase and the key are never stored.
import type { ScryptOptions } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import { UserError } from "../../errors.ts";
import { writeFileAtomic } from "../../lib/fs.ts";
import {
  Store,
  StoreProblem,
  fileIdentity,
  realStorePath,
  storeFileKind,
  type OpenOptions,
} from "../../store/store.ts";
import { askPassphrase, type PassphraseRequest } from "./passphrase.ts";

export const KEY_FILE_SUFFIX = ".key.json";
export const CIPHER = "aes256cbc";

/**
 * scrypt with N = 2^17, r = 8, p = 1 (128 MiB of memory, OWASP's recommendation): about 0.25 s on
 * a 2-core machine, paid once per command that opens an encrypted store.
 */
export const KDF_PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;

export interface KeyFile {
  mindsave_encryption: 1;
  cipher: typeof CIPHER;
  kdf: "scrypt";
  params: { N: number; r: number; p: number };
  /** base64, 16 random bytes. */
  salt: string;
  /** hex HMAC-SHA256 of a constant under the derived secret: matches only for the right passphrase. */
  check: string;
  created_at: string;
  note: string;
}

const NOTE =
  "MindSave encryption settings for the store beside this file: no key and no passphrase are stored here. Keep it next to the store; without it (or without the passphrase) the store cannot be opened.";
const CHECK_LABEL = "mindsave/passphrase-check/v1";
const KEY_LABEL = "mindsave/store-key/v1";

export function keyFilePath(dbPath: string): string {
  return dbPath + KEY_FILE_SUFFIX;
}

/** node:crypto, loaded only for an encrypted store (loading it would cost every command). */
const crypto = () => import("node:crypto");

async function scryptAsync(pass: string, salt: Buffer, params: KeyFile["params"]): Promise<Buffer> {
  const opts: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r * params.p };
  const { scrypt } = await crypto();
  return new Promise((resolve, reject) =>
    scrypt(pass, salt, 32, opts, (e, k) => (e ? reject(e) : resolve(k))),
  );
}

async function derive(
  pass: string,
  salt: Buffer,
  params: KeyFile["params"],
): Promise<{ key: string; check: string }> {
  const { createHmac } = await crypto();
  const secret = await scryptAsync(pass, salt, params);
  try {
    return {
      key: createHmac("sha256", secret).update(KEY_LABEL).digest("hex"),
      check: createHmac("sha256", secret).update(CHECK_LABEL).digest("hex"),
    };
  } finally {
    secret.fill(0);
  }
}

/**
 * The cost of a new key: KDF_PARAMS, unless MINDSAVE_KDF_LOG_N (14–20) says otherwise — for the
 * test suite, which creates dozens of encrypted stores (a lower N is weaker against guessing; the
 * cost is stored in the key file, so opening always uses the store's own).
 */
export function kdfParams(env: NodeJS.ProcessEnv): KeyFile["params"] {
  const logN = Number(env.MINDSAVE_KDF_LOG_N);
  return Number.isInteger(logN) && logN >= 14 && logN <= 20
    ? { ...KDF_PARAMS, N: 2 ** logN }
    : { ...KDF_PARAMS };
}

/** A fresh key file (new salt) for `pass`, and the store key it gives. */
export async function newKey(
  pass: string,
  now = new Date(),
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ file: KeyFile; key: string }> {
  const salt = (await crypto()).randomBytes(16);
  const params = kdfParams(env);
  const { key, check } = await derive(pass, salt, params);
  return {
    key,
    file: {
      mindsave_encryption: 1,
      cipher: CIPHER,
      kdf: "scrypt",
      params,
      salt: salt.toString("base64"),
      check,
      created_at: now.toISOString(),
      note: NOTE,
    },
  };
}

export function writeKeyFile(path: string, file: KeyFile): void {
  writeFileAtomic(path, JSON.stringify(file, null, 2) + "\n");
}

/** The key file at `path`, or null when there is none; a damaged one is a sentence. */
export function readKeyFile(path: string): KeyFile | null {
  if (!existsSync(path)) return null;
  const damaged = (why: string) =>
    new UserError(
      `The key file ${path} is damaged (${why}); without it the encrypted store beside it cannot be opened.`,
    );
  let f: KeyFile;
  try {
    f = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    throw damaged("not valid JSON");
  }
  if (!f || f.mindsave_encryption !== 1 || f.kdf !== "scrypt" || f.cipher !== CIPHER)
    throw damaged("unknown format");
  const { N, r, p } = f.params ?? {};
  const ok = (v: unknown, lo: number, hi: number) =>
    Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi;
  if (!ok(N, 1024, 2 ** 22) || (N & (N - 1)) !== 0 || !ok(r, 1, 32) || !ok(p, 1, 16) || N * r * p > 2 ** 24)
    throw damaged("bad KDF parameters");
  if (
    typeof f.salt !== "string" ||
    Buffer.from(f.salt, "base64").length < 16 ||
    !/^[0-9a-f]{64}$/.test(f.check ?? "")
  )
    throw damaged("bad salt or check");
  return f;
}

/** Keys already derived in this process (an MCP server opens the store once per call). */
const unlocked = new Map<string, string>();

/** The store key for `pass`, or null when the passphrase is not the one the key file was made with. */
export async function unlockKey(file: KeyFile, pass: string): Promise<string | null> {
  const { key, check } = await derive(pass, Buffer.from(file.salt, "base64"), file.params);
  const a = Buffer.from(check, "hex");
  const b = Buffer.from(file.check, "hex");
  return a.length === b.length && (await crypto()).timingSafeEqual(a, b) ? key : null;
}

export interface EncryptionState {
  encrypted: boolean;
  keyFile: string;
  file: KeyFile | null;
  /** A key file beside a plain store: left by an interrupted `encrypt` or `decrypt`, and ignored. */
  stale: boolean;
}

/**
 * Where the key file of the store at `dbPath` is: beside the file itself, which for a symlinked
 * store is the link's target (a drive's folder must hold it, seen alone on another laptop), or
 * beside the link, where older versions put it.
 */
export function storeKeyFile(dbPath: string): string {
  const real = realStorePath(dbPath);
  const beside = keyFilePath(real);
  return real !== dbPath && !existsSync(beside) && existsSync(keyFilePath(dbPath))
    ? keyFilePath(dbPath)
    : beside;
}

/** Whether the store at `dbPath` is encrypted, from its key file and its first bytes. */
export function encryptionState(dbPath: string): EncryptionState {
  const keyFile = storeKeyFile(dbPath);
  const kind = storeFileKind(dbPath);
  const present = existsSync(keyFile);
  if (present && kind === "plain") return { encrypted: false, keyFile, file: null, stale: true };
  if (!present && kind === "other") {
    throw new StoreProblem(
      "not_a_database",
      dbPath,
      `${dbPath} is not a MindSave store (not a SQLite database, or an encrypted store whose key file ${basename(keyFile)} is missing beside it); refusing to touch it.`,
    );
  }
  return { encrypted: present, keyFile, file: present ? readKeyFile(keyFile) : null, stale: false };
}

/** The key of the encrypted store `dbPath`, asking for its passphrase; a wrong one is one sentence. */
export async function storeKey(
  dbPath: string,
  file: KeyFile,
  req: Omit<PassphraseRequest, "store">,
): Promise<string> {
  const id = `${file.salt}:${file.check}`;
  const known = unlocked.get(id);
  if (known) return known;
  const key = await unlockKey(file, await askPassphrase({ ...req, store: dbPath }));
  if (!key) throw new UserError(`Wrong passphrase for the encrypted store ${dbPath}; nothing was changed.`);
  unlocked.set(id, key);
  return key;
}

/**
 * Opens the store at `dbPath` (creating it when missing): a plain one as it is, an encrypted one
 * with the key derived from its passphrase. Every open of a store file goes through here.
 */
export async function openStore(
  dbPath: string,
  opts: OpenOptions & { env: NodeJS.ProcessEnv; peer?: boolean },
): Promise<Store> {
  // encrypt or decrypt may swap the file and its key file while this opens it (the key read, then
  // the other file met): neither damaged nor the wrong key. Opened again, as they are now.
  const files = () =>
    `${fileIdentity(realStorePath(dbPath))} ${statSync(keyFilePath(dbPath), { throwIfNoEntry: false })?.mtimeMs ?? "-"}`;
  const before = files();
  try {
    return await openOnce(dbPath, opts);
  } catch (e) {
    if (!(e instanceof StoreProblem && ["undecryptable", "damaged"].includes(e.kind)) || files() === before)
      throw e;
    return openOnce(dbPath, opts);
  }
}

async function openOnce(
  dbPath: string,
  opts: OpenOptions & { env: NodeJS.ProcessEnv; peer?: boolean },
): Promise<Store> {
  const state = encryptionState(dbPath);
  const { env, peer, ...open } = opts;
  if (!state.encrypted) return Store.open(dbPath, open);
  const encryptionKey = await storeKey(dbPath, state.file!, { env, peer });
  return Store.open(dbPath, { ...open, encryptionKey });
}

/** What doctor says about encryption. */
export function encryptionReport(dbPath: string): {
  encrypted: boolean;
  key_file: string | null;
  cipher: string | null;
  kdf: string | null;
  stale_key_file: string | null;
} {
  const s = encryptionState(dbPath);
  const p = s.file?.params;
  return {
    encrypted: s.encrypted,
    key_file: s.encrypted ? s.keyFile : null,
    cipher: s.file?.cipher ?? null,
    kdf: p ? `scrypt N=2^${Math.log2(p.N)} r=${p.r} p=${p.p}` : null,
    stale_key_file: s.stale ? s.keyFile : null,
  };
}
